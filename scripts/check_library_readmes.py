#!/usr/bin/env python3
"""Checks that every library folder, and every folder that groups libraries, has a short README.md.

  scripts/check_library_readmes.py [ROOT]   (ROOT: the repository; default: this script's parent's parent)

A library folder is a folder that holds a CMakeLists.txt and C++ or CUDA sources of its own
(*.cpp, *.cc, *.h, *.hpp, *.cu): any such folder under base/, images/, registry/ and tool/, and
workloads/common and tests/common themselves. A group folder is one of those folders (or the top
of images/, registry/, tool/) that has a library folder among its direct subfolders. Each needs a
README.md that starts with a '# ' heading and has at most 80 lines: what the library is for, its
headers and entry points, what it may include, where its tests are.

The folders are found on disk, not listed here, so the check holds for any layout of them. Each
problem is printed as PATH: message; the exit status is 1 when there is one, else 0.
"""

import sys
from pathlib import Path

MAX_LINES = 80
# Walked to any depth: every library in them needs a README.
TREES = ["base", "images", "registry", "tool"]
# Only the folder itself: the rest of workloads/ and tests/ are programs and suites, not libraries.
SINGLE_FOLDERS = ["workloads/common", "tests/common"]
SOURCE_SUFFIXES = {".cpp", ".cc", ".h", ".hpp", ".cu"}
# Not "build": the build output lives at the repository root (/build/), outside these trees, and
# skipping the name once hid a library (images/build, now images/dockerfile_build) from the check.
SKIPPED_NAMES = {"node_modules", "__pycache__"}


def is_library(folder: Path) -> bool:
    if not (folder / "CMakeLists.txt").is_file():
        return False
    return any(entry.is_file() and entry.suffix in SOURCE_SUFFIXES for entry in folder.iterdir())


def folders_under(top: Path):
    yield top
    for entry in sorted(top.iterdir()):
        if entry.is_dir() and not entry.is_symlink() and not entry.name.startswith(".") \
                and entry.name not in SKIPPED_NAMES:
            yield from folders_under(entry)


def readme_problem(folder: Path, what: str):
    readme = folder / "README.md"
    if not readme.is_file():
        return f"{what} without a README.md"
    lines = readme.read_text(encoding="utf-8").splitlines()
    if not lines or not lines[0].startswith("# "):
        return "README.md does not start with a '# ' heading"
    if len(lines) > MAX_LINES:
        return f"README.md has {len(lines)} lines, more than {MAX_LINES}: move reference material to docs/"
    return None


def check(root: Path):
    problems = []
    libraries = []
    for name in TREES + SINGLE_FOLDERS:
        top = root / name
        if not top.is_dir():
            problems.append((name, "missing: the check expects this folder"))
            continue
        candidates = folders_under(top) if name in TREES else [top]
        libraries += [folder for folder in candidates if is_library(folder)]
    library_set = set(libraries)
    groups = {folder.parent for folder in libraries if folder.parent != root} - library_set
    groups -= {root / "workloads", root / "tests"}
    for folder in sorted(library_set):
        problem = readme_problem(folder, "library folder")
        if problem:
            problems.append((folder.relative_to(root).as_posix(), problem))
    for folder in sorted(groups):
        problem = readme_problem(folder, "folder of libraries")
        if problem:
            problems.append((folder.relative_to(root).as_posix(), problem))
    if not libraries:
        problems.append((".", "no library folder found: is this the repository?"))
    return problems, len(library_set), len(groups)


def main(argv):
    root = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent
    problems, library_count, group_count = check(root)
    for path, message in problems:
        print(f"{path}: {message}")
    if problems:
        return 1
    print(f"{library_count} library folders and {group_count} folders of libraries, each with a README.md "
          f"of at most {MAX_LINES} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
