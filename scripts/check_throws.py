#!/usr/bin/env python3
"""The typed-error check: outside base/, no library or workload throws a standard exception
(`throw std::runtime_error(...)` and the like). Each throws gkebuild::Error (base/error.h) with a
kind, so the CLI picks the exit code from the one table (base/exit_codes.h) and a failed operation
does not exit as bad input. base/ may throw std:: types: it is below the kinds' users and some of
its callers catch std::system_error.

Usage: scripts/check_throws.py [ROOT]   (ROOT: the repository root; default: this script's parent)
Exits 1 naming file:line and the throw for each one found; ctest runs it (label unit, tests/layers).
Python 3's standard library only. tests/ and bench/ are not checked: they are no library.
"""
import os
import re
import sys

CHECKED = ("images", "registry", "tool", "workloads")
SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc", ".cu", ".cuh")
# Path prefixes let off, each with a comment saying why; none is needed today. Keep it short: a
# caller that catches a std:: type is better changed to catch gkebuild::Error or InputError.
ALLOWED = ()
THROW = re.compile(r"\bthrow\s+std::(\w+)")


def code_of(line):
    """The line without a // comment or the text of string literals (roughly: enough for throws)."""
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    return line.split("//", 1)[0]


def check_file(root, path):
    problems = []
    in_block_comment = False
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            text = line
            if in_block_comment:
                if "*/" not in text:
                    continue
                text = text.split("*/", 1)[1]
                in_block_comment = False
            code = code_of(text)
            if "/*" in code:
                before, _, after = code.partition("/*")
                in_block_comment = "*/" not in after
                code = before + (after.split("*/", 1)[1] if not in_block_comment else "")
            for match in THROW.finditer(code):
                problems.append(f"{path}:{number}: throw std::{match.group(1)}: libraries throw gkebuild::Error "
                                "with a kind (base/error.h; InputError for bad input a caller gives a position)")
    return problems


def source_files(root):
    for top in CHECKED:
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(SOURCE_SUFFIXES):
                    path = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
                    if not any(path.startswith(prefix) for prefix in ALLOWED):
                        yield path


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    problems = [p for path in source_files(root) for p in check_file(root, path)]
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
