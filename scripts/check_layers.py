#!/usr/bin/env python3
"""The layer check: every project #include names its file from the repository root or from the
including file's own folder, and no library includes a higher layer than its own.

Usage: scripts/check_layers.py [ROOT]   (ROOT: the repository root; default: this script's parent)
Exits 1 naming file:line, the include and the two layers for each violation; ctest runs it (label
unit, tests/layers). Python 3's standard library only.

LAYERS below is the one table of who may include whom; docs/architecture.md shows it as a picture.
"""
import os
import re
import sys

# Folder prefix -> layer, lowest first. A file may include its own layer or a lower one.
LAYERS = [
    ("base/", 0),
    ("images/", 1),
    ("registry/", 2),
    ("tool/core/", 3),
    ("tool/steps/", 4),
    ("tool/submit/", 5),
    ("tool/cli/", 6),
]
# Programs that run inside the images: base/ and workloads/ only.
WORKLOADS = "workloads/"
WORKLOADS_MAY_INCLUDE = ("base/", WORKLOADS)
# Tests and benchmarks may include anything of the project (still from the root).
ANYTHING = ("tests/", "bench/")
# Headers CMake writes under the build folder at these root-relative paths.
GENERATED = {"base/version.h", "tool/cli/git_commit.h"}

SOURCE_FOLDERS = ("base", "images", "registry", "tool", "workloads", "tests", "bench")
SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc", ".cu", ".cuh", ".in")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
# Any include folder besides the root and the build folder: a second include root.
CMAKE_SOURCE_INCLUDE = re.compile(
    r"include_directories\([^)]*(\$\{CMAKE_CURRENT_SOURCE_DIR\}|\$\{CMAKE_SOURCE_DIR\}/|\$\{GKEBUILD_SOURCE_ROOT\})")


def layer_of(path):
    """(name, number) of a root-relative path's layer; number None outside the library layers."""
    for prefix, number in LAYERS:
        if path.startswith(prefix):
            return prefix.rstrip("/"), number
    for prefix in (WORKLOADS,) + ANYTHING:
        if path.startswith(prefix):
            return prefix.rstrip("/"), None
    return path.split("/", 1)[0], None


def describe(path):
    name, number = layer_of(path)
    return f"{name} (layer {number})" if number is not None else name


def include_problem(root, path, target):
    """Why `path` may not include `target` (both root-relative), or None."""
    if path.startswith(ANYTHING):
        return None
    if path.startswith(WORKLOADS):
        if target.startswith(WORKLOADS_MAY_INCLUDE):
            return None
        return f"workloads include base/ and workloads/ only, not {describe(target)}"
    own, target_layer = layer_of(path)[1], layer_of(target)[1]
    if own is None:
        return None
    if target_layer is None:
        return f"{describe(path)} may not include {describe(target)}"
    if target_layer > own:
        return f"goes up: {describe(path)} may not include {describe(target)}"
    return None


def check_file(root, path):
    problems = []
    if path.startswith("tool/") and layer_of(path)[1] is None:
        problems.append(f"{path}:1: tool/ holds core/, steps/, submit/ and cli/ only: the file is in no layer")
    folder = os.path.dirname(path)
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            inc = m.group(1)
            where = f'{path}:{number}: #include "{inc}"'
            if "/" not in inc and os.path.isfile(os.path.join(root, folder, inc)):
                continue  # the including file's own folder
            if ".." in inc.split("/") or not (os.path.isfile(os.path.join(root, inc)) or inc in GENERATED):
                problems.append(f"{where}: not a path from the repository root nor a file of {folder or '.'}/")
                continue
            why = include_problem(root, path, inc)
            if why:
                problems.append(f"{where}: {why}")
    return problems


def check_cmake(root, path):
    problems = []
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            if CMAKE_SOURCE_INCLUDE.search(line):
                problems.append(f"{path}:{number}: a source folder as include folder; the root "
                                "CMakeLists.txt adds the one include root")
    return problems


def source_files(root):
    for top in SOURCE_FOLDERS:
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            # Project templates `gkebuild init` writes out are the user's code, with their own includes.
            dirs[:] = sorted(d for d in dirs if d != "templates")
            for name in sorted(files):
                rel = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
                if name.endswith(SOURCE_SUFFIXES) or name == "CMakeLists.txt" or name.endswith(".cmake"):
                    yield rel


def check_tree(root):
    problems = []
    for path in source_files(root):
        if path.endswith(SOURCE_SUFFIXES):
            problems += check_file(root, path)
        else:
            problems += check_cmake(root, path)
    return problems


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    problems = check_tree(root)
    for p in problems:
        print(p)
    if problems:
        print(f"check_layers: {len(problems)} include(s) break the layers (table: scripts/check_layers.py)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
