#!/usr/bin/env python3
"""scripts/check_docs.py fails on each fault it is there to catch, and passes a sound tree.

  check_docs_test.py PATH/TO/check_docs.py

Each case writes a small repository into a scratch folder (a sound one, then one fault at a
time) and runs the checker on it as ctest runs it on the real tree.
"""

import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "common"))
from checker_cases import failed_cases, write_tree  # noqa: E402

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
    "tool/core/project/reserved_variables.h":
        'inline constexpr std::array<std::string_view, 3> kReservedVariables{"seed", "project",\n "run_id"};\n',
    "tool/core/project/project_keys.h":
        'inline constexpr std::array kTopLevelKeys{\n    ProjectKey{"project", "a name", "x"},\n};\n'
        'inline constexpr std::array kImageKeys{\n    ProjectKey{"from", "a name", "x"},\n};\n'
        'inline constexpr std::array kExperimentKeys{\n    ProjectKey{"image", "a name", "x"},\n'
        '    ProjectKey{"cpu", "a quantity", "y"}, ProjectKey{"memory", "a quantity", "z"}};\n',
    "docs/project-file.md": "# The project file\n\nNames may not be\none of the template variables gkebuild sets: "
                            "`seed`, `project`,\n`run_id` (`x` is not one).\n\n## Top-level keys\n\n| key | what |\n|---|---|\n"
                            "| `project` | its name |\n\n## images\n\n| key |\n|---|\n| `from` |\n\n## experiments\n\n"
                            "| key | what it is (`not-a-key`) |\n|---|---|\n| `image` | the image |\n"
                            "| `cpu`, `memory` | requests (`gpus` is not a key here) |\n\nAfter the table: `gpus`.\n",
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
    "a reserved template variable the docs leave out": {
        "docs/project-file.md": SOUND["docs/project-file.md"].replace("`project`,\n", "")},
    "no list of the reserved template variables": {"docs/project-file.md": "# The project file\n"},
    "an experiment key the docs leave out": {
        "docs/project-file.md": SOUND["docs/project-file.md"].replace("| `cpu`, `memory` |", "| `cpu` |")},
    "a documented experiment key the parser lacks": {
        "docs/project-file.md": SOUND["docs/project-file.md"].replace("| `image` |", "| `image`, `imgae` |")},
    "no experiment key table": {
        "docs/project-file.md": SOUND["docs/project-file.md"].split("## experiments")[0]},
    "an image key the docs leave out": {"docs/project-file.md": SOUND["docs/project-file.md"].replace("| `from` |", "| from |")},
    "a top-level key the parser lacks": {
        "docs/project-file.md": SOUND["docs/project-file.md"].replace("| `project` |", "| `project`, `name` |")},
}


# A stand-in for the built binary: commands `image` and the hidden `controller`, their flags, rules.
FAKE_GKEBUILD = """#!/bin/sh
case "$*" in
  "--help") printf 'Commands:\\n  image  build\\n' ;;
  "__complete -- ") printf 'help\\ncontroller\\nimage\\n' ;;
  "__complete -- image -") printf -- '--help\\n-q\\n--quiet\\n--stage\\n' ;;
  "__complete -- controller -") printf -- '--secret-flag\\n' ;;
  "validate --list-rules") printf 'gpu-zero (warning): no GPU\\n    fix: ask for one\\n' ;;
esac
"""
CLI_SOUND = {**SOUND, "docs/commands.md": "# Commands\n\n## Conventions\n\n`--quiet` everywhere.\n\n"
                                          "## image\n\n`--stage BINARY` copies it.\n\n## submit\n",
             "docs/validate-rules.md": "# Rules\n\n| rule | severity | catches |\n|---|---|---|\n"
                                       "| `gpu-zero` | warning | no GPU (unlike `gpu-one`) |\n\n"
                                       "| other | table |\n|---|---|\n| `not-a-rule` | x |\n"}
CLI_FAULTS = {
    "a flag docs/commands.md does not describe": {"docs/commands.md": "# Commands\n\n## image\n\n`--quiet`.\n\n## submit\n"},
    "a flag described only under another command": {
        "docs/commands.md": "# Commands\n\n## Conventions\n\n`--quiet`.\n\n## image\n\n## submit\n\n`--stage`.\n"},
    "a flag that only begins a described one": {
        "docs/commands.md": CLI_SOUND["docs/commands.md"].replace("--stage", "--stage-all")},
    "a rule docs/validate-rules.md leaves out": {"docs/validate-rules.md": "# Rules\n"},
    "a rule named only outside the rule tables": {
        "docs/validate-rules.md": "# Rules\n\n`gpu-zero` is mentioned.\n\n| rule | severity |\n|---|---|\n"},
    "a rule row at another severity": {
        "docs/validate-rules.md": CLI_SOUND["docs/validate-rules.md"].replace("| warning |", "| error |")},
    "a rule row naming no rule": {
        "docs/validate-rules.md": CLI_SOUND["docs/validate-rules.md"].replace("`gpu-zero` |", "`gpu-zero`, `gpu-zeor` |")},
}


def cli_failures(checker):
    """The --gkebuild checks, with FAKE_GKEBUILD for the binary."""
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        fake = Path(scratch) / "gkebuild"
        fake.write_text(FAKE_GKEBUILD)
        fake.chmod(0o755)
        for name, change in {"the sound tree": {}, **CLI_FAULTS}.items():
            with tempfile.TemporaryDirectory() as tree:
                write_tree(Path(tree), {**CLI_SOUND, **change})
                result = subprocess.run([sys.executable, checker, tree, "--gkebuild", str(fake)],
                                        capture_output=True, text=True)
            if result.returncode != (1 if change else 0) or bool(change) != bool(result.stdout.strip()):
                failures.append(f"{name} (--gkebuild): exit {result.returncode}, output {result.stdout!r}")
    return failures


def main(checker):
    failures = failed_cases(checker, SOUND, FAULTS) + cli_failures(checker)
    for failure in failures:
        print(failure)
    cases = len(FAULTS) + len(CLI_FAULTS) + 2
    print(f"{cases - len(failures)} of {cases} cases as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
