#!/usr/bin/env python3
"""scripts/check_library_readmes.py fails on each fault it is there to catch, and passes a sound tree.

  check_library_readmes_test.py PATH/TO/check_library_readmes.py

Each case writes a small repository into a scratch folder (a sound one, then one fault at a
time) and runs the checker on it as ctest runs it on the real tree. The sound tree has both
layouts' shapes: a library at the top of a tree (base/), libraries one and two folders down
(images/oci, tool/core/jinja), folders with sources but no CMakeLists.txt, and workloads/ and
tests/ folders that are not libraries.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "common"))
from checker_cases import failed_cases  # noqa: E402

README = "# a library\n\nWhat it is for.\n"
SOUND = {
    "base/CMakeLists.txt": "add_library(gkebuild_base error.cpp)\n",
    "base/error.h": "#pragma once\n",
    "base/README.md": README,
    "images/CMakeLists.txt": "# every subfolder is a library\n",
    "images/README.md": README,
    "images/oci/CMakeLists.txt": "add_library(gkebuild_oci digest.cpp)\n",
    "images/oci/digest.cpp": "int digest;\n",
    "images/oci/README.md": README,
    "registry/README.md": README,
    "registry/remote/CMakeLists.txt": "add_library(gkebuild_registry push.cpp)\n",
    "registry/remote/push.h": "#pragma once\n",
    "registry/remote/README.md": README,
    "tool/CMakeLists.txt": "add_subdirectory(core)\n",
    "tool/README.md": README,
    "tool/core/CMakeLists.txt": "add_subdirectory(jinja)\n",
    "tool/core/README.md": README,
    "tool/core/jinja/CMakeLists.txt": "add_library(gkebuild_jinja value.cpp)\n",
    "tool/core/jinja/value.cpp": "int value;\n",
    "tool/core/jinja/README.md": README + "line\n" * 77,  # 80 lines: the most allowed
    "tool/cli/CMakeLists.txt": "add_executable(gkebuild main.cpp)\n",
    "tool/cli/main.cpp": "int main() {}\n",
    "tool/cli/README.md": README,
    "tool/steps/init/templates/cmake-cuda/saxpy.cu": "// a template's file, not a library\n",
    "workloads/common/CMakeLists.txt": "add_library(gkebuild_workload_common results.cpp)\n",
    "workloads/common/results.cpp": "int results;\n",
    "workloads/common/README.md": README,
    "workloads/gemm-bench/CMakeLists.txt": "add_executable(gemm-bench main.cpp)\n",
    "workloads/gemm-bench/main.cpp": "int main() {}\n",
    "tests/common/CMakeLists.txt": "add_library(gkebuild_test_common temp_dir.cpp)\n",
    "tests/common/temp_dir.cpp": "int temp_dir;\n",
    "tests/common/README.md": README,
    "tests/jinja/CMakeLists.txt": "gkebuild_add_gtest(jinja_test SOURCES value_test.cpp)\n",
    "tests/jinja/value_test.cpp": "int test;\n",
}

FAULTS = {
    "a library folder without a README.md": {"images/oci/README.md": None},
    "a library two folders down without a README.md": {"tool/core/jinja/README.md": None},
    "the executable's folder without a README.md": {"tool/cli/README.md": None},
    "a README.md of 81 lines": {"base/README.md": README + "line\n" * 78},
    "a README.md that does not start with a heading": {"registry/remote/README.md": "Push.\n"},
    "an empty README.md": {"workloads/common/README.md": ""},
    "tests/common without a README.md": {"tests/common/README.md": None},
    "a folder of libraries without a README.md": {"tool/core/README.md": None},
    "a top folder of libraries without a README.md": {"images/README.md": None},
    "a missing tree": {"registry/README.md": None, "registry/remote/CMakeLists.txt": None,
                       "registry/remote/push.h": None, "registry/remote/README.md": None},
    "a library folder named build without a README.md": {
        "images/build/CMakeLists.txt": "add_library(gkebuild_imagebuild builder.cpp)\n",
        "images/build/builder.cpp": "int builder;\n"},
    "a library of a header only, without a README.md": {
        "images/elf/CMakeLists.txt": "add_library(gkebuild_elf INTERFACE)\n", "images/elf/elf.h": "#pragma once\n"},
}


def main(argv):
    checker = argv[1]
    failures = failed_cases(checker, SOUND, FAULTS, "7 library folders and 4 folders of libraries")
    for failure in failures:
        print(failure)
    if failures:
        return 1
    print(f"the sound tree passes; each of {len(FAULTS)} faults fails the check")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
