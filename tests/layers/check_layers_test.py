#!/usr/bin/env python3
"""scripts/check_layers.py on small trees written here: a clean one passes, and each kind of
include it exists to stop (one going up a layer, one from a workload into tool/, one not from the
root, one of a library into tests/, a file of tool/ in no layer, a second include folder in CMake)
fails, naming file:line."""
import unittest

from planted_tree import run_check

CLEAN = {
    "base/error.h": "#pragma once\n",
    "base/CMakeLists.txt": "add_library(gkebuild_base error.cpp)\n",
    "images/oci/digest.h": '#include "base/error.h"\n',
    "registry/transport/session.h": '#include "images/oci/digest.h"\n',
    "tool/core/jinja/value.h": '#include "base/error.h"\n#include "tool/core/yamlfile/document.h"\n',
    "tool/core/jinja/value.cpp": '#include "value.h"\n#include "tool/core/jinja/value.h"\n',
    "tool/core/yamlfile/document.h": "#pragma once\n",
    "tool/steps/render/render.h": '#include "tool/core/jinja/value.h"\n#include "tool/steps/publish/pins.h"\n',
    "tool/steps/publish/pins.h": '#include "registry/transport/session.h"\n',
    "tool/submit/submit.h": '#include "tool/steps/render/render.h"\n',
    "tool/cli/main.cpp": '#include "tool/submit/submit.h"\n'
                         '#include "tool/cli/git_commit.h"\n#include "base/version.h"\n',
    "workloads/common/errors.h": '#include "base/error.h"\n',
    "workloads/gemm-bench/main.cpp": '#include "workloads/common/errors.h"\n#include <cstdio>\n',
    "tests/common/temp_dir.h": "#pragma once\n",
    "tests/jinja/value_test.cpp": '#include "tool/cli/main.cpp"\n#include "tests/common/temp_dir.h"\n',
    "tool/steps/init/templates/cmake-cuda/src/main.cpp": '#include "src/saxpy.h"\n',
    "bench/render/render_bench.cpp": '#include "tests/common/temp_dir.h"\n#include "tool/submit/submit.h"\n',
}


class CheckLayersTest(unittest.TestCase):
    def run_on(self, extra):
        return run_check("check_layers.py", {**CLEAN, **extra})

    def assert_fails(self, extra, *expected):
        code, out = self.run_on(extra)
        self.assertEqual(code, 1, out)
        for text in expected:
            self.assertIn(text, out)
        self.assertEqual(len(out.strip().splitlines()), 1, out)

    def test_a_clean_tree_passes(self):
        self.assertEqual(self.run_on({}), (0, ""))

    def test_an_include_going_up_fails_with_both_layers(self):
        self.assert_fails({"tool/core/yamlfile/document.h": '#pragma once\n\n#include "tool/steps/render/render.h"\n'},
                          'tool/core/yamlfile/document.h:3: #include "tool/steps/render/render.h"',
                          "goes up", "tool/core (layer 3)", "tool/steps (layer 4)")

    def test_base_including_images_fails(self):
        self.assert_fails({"base/error.h": '#include "images/oci/digest.h"\n'},
                          "base/error.h:1:", "base (layer 0)", "images (layer 1)")

    def test_a_step_including_submit_fails(self):
        self.assert_fails({"tool/steps/publish/pins.h": '#include "tool/submit/submit.h"\n'},
                          "tool/steps (layer 4)", "tool/submit (layer 5)")

    def test_a_workload_including_the_tool_fails(self):
        self.assert_fails({"workloads/gemm-bench/main.cpp": '#include "tool/cli/main.cpp"\n'},
                          "workloads/gemm-bench/main.cpp:1:", "workloads include base/ and workloads/ only")

    def test_an_include_from_an_old_root_fails(self):
        self.assert_fails({"tool/steps/render/render.h": '#include "jinja/value.h"\n'},
                          'tool/steps/render/render.h:1: #include "jinja/value.h"',
                          "not a path from the repository root")

    def test_a_relative_climb_fails(self):
        self.assert_fails({"tool/steps/render/render.h": '#include "../../core/jinja/value.h"\n'},
                          "render.h:1:", "not a path from the repository root")

    def test_a_library_including_tests_fails(self):
        self.assert_fails({"images/oci/digest.h": '#include "tests/common/temp_dir.h"\n'},
                          "images (layer 1) may not include tests")

    def test_a_library_outside_the_layers_of_tool_fails(self):
        self.assert_fails({"tool/newlib/x.h": "#pragma once\n"}, "tool/newlib/x.h:1:", "in no layer")

    def test_a_second_include_folder_in_cmake_fails(self):
        cmake = 'target_include_directories(gkebuild_base PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}/..")\n'
        self.assert_fails({"base/CMakeLists.txt": cmake},
                          "base/CMakeLists.txt:1:", "include folder")


if __name__ == "__main__":
    unittest.main()
