#!/usr/bin/env python3
"""scripts/check_docs.py fails on each fault it is there to catch, and passes a sound tree.

  check_docs_test.py PATH/TO/check_docs.py

Each case writes a small repository into a scratch folder (a sound one, then one fault at a
time) and runs the checker on it as ctest runs it on the real tree.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "common"))
from checker_cases import failed_cases  # noqa: E402

SOUND = {
    "README.md": "# gkebuild\n\n## Install\n\nSee [commands](docs/commands.md#submit), "
                 "[the same page](#install), [a folder](docs/) and [code](tool/x.cpp#L3).\n"
                 "[Away](https://example.com/x.md#nowhere) is not checked, nor is code: `[x](gone.md)`.\n"
                 "A [link over a\nline break](docs/commands.md#submit) is checked.\n",
    "docs/commands.md": "# Commands\n\n## submit\n\n## `render --template`\n\n## Limits\n\n### Limits\n\n"
                        "```sh\n# not a heading\n```\n"
                        "Back to [render](#render---template), [the second Limits](#limits-1), "
                        "[front](../README.md#install).\n",
    "bench/README.md": "# Benchmarks\n\n[Testing](../docs/commands.md#submit)\n",
    "CHANGELOG.md": "# Changelog\n\n## 2026-11-28 (issues 30–36)\n\n[README](README.md)\n",
    "tool/x.cpp": "int x;\n",
}

FAULTS = {
    "README over 250 lines": {"README.md": SOUND["README.md"] + "line\n" * 250},
    "a README line over 400 characters": {"README.md": SOUND["README.md"] + "x" * 401 + "\n"},
    "a link to a missing file": {"docs/commands.md": SOUND["docs/commands.md"] + "[x](missing.md)\n"},
    "a link to a missing anchor": {"README.md": SOUND["README.md"] + "[x](docs/commands.md#sumbit)\n"},
    "an anchor of a heading inside a code block": {
        "bench/README.md": SOUND["bench/README.md"] + "[x](../docs/commands.md#not-a-heading)\n"},
    "a repeated heading's anchor numbered past its count": {
        "CHANGELOG.md": SOUND["CHANGELOG.md"] + "[x](docs/commands.md#limits-2)\n"},
    "an anchor into a file that is not Markdown": {"README.md": SOUND["README.md"] + "[x](tool/x.cpp#main)\n"},
    "a link over a line break to a missing anchor": {
        "README.md": SOUND["README.md"] + "[two\nlines](docs/commands.md#sumbit)\n"},
    "a missing CHANGELOG.md": {"CHANGELOG.md": None},
}


def main(checker):
    failures = failed_cases(checker, SOUND, FAULTS)
    for failure in failures:
        print(failure)
    print(f"{len(FAULTS) + 1 - len(failures)} of {len(FAULTS) + 1} cases as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
