#!/usr/bin/env python3
"""examples/ci/github-actions.yml through actionlint (built by scripts/build-peers.sh from
tests/peers/actionlint), and a broken copy of it (an unknown property of the github context),
which must fail with a file:line:col. shellcheck and pyflakes, which actionlint runs on `run:`
scripts when they are on PATH, are turned off so that the verdict is actionlint's own everywhere.
Exit 77 (skipped) where actionlint was not built, but a failure under CI=true, where setup built it.
Usage: check_ci_workflow.py SOURCE_ROOT"""
import os
import re
import subprocess
import sys
import tempfile

root = sys.argv[1]
peers = os.environ.get("GKEBUILD_PEERS") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.join(os.environ.get("HOME", ""), ".cache"), "gkebuild", "peers")
actionlint = os.path.join(peers, "actionlint")
if not os.access(actionlint, os.X_OK):
    print(f"no actionlint in {peers} (scripts/build-peers.sh builds it)")
    sys.exit(1 if os.environ.get("CI") == "true" else 77)

version = subprocess.run([actionlint, "-version"], capture_output=True, text=True, check=True).stdout.split()[0]
if version != "1.7.10":
    sys.exit(f"{actionlint} is actionlint {version}, not the 1.7.10 of tests/peers/actionlint")


def lint(text):
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "github-actions.yml")
        with open(path, "w") as f:
            f.write(text)
        return subprocess.run([actionlint, "-no-color", "-shellcheck=", "-pyflakes=", "github-actions.yml"],
                              cwd=work, capture_output=True, text=True)


with open(os.path.join(root, "examples", "ci", "github-actions.yml")) as f:
    workflow = f.read()
# The issue asks for recipes that install gkebuild with pip: nothing in them builds it.
if "pip install" not in workflow or re.search(r"\bcmake\b|\bninja\b|setup\.sh", workflow):
    sys.exit("examples/ci/github-actions.yml must install gkebuild with pip install, not build it")
good = lint(workflow)
if good.returncode != 0:
    sys.exit(f"actionlint rejects examples/ci/github-actions.yml:\n{good.stdout}{good.stderr}")

marker = "${{ github.sha }}"
if marker not in workflow:
    sys.exit(f"examples/ci/github-actions.yml no longer uses {marker}: change the broken copy")
bad = lint(workflow.replace(marker, "${{ github.shaa }}", 1))
# In a `run: |` block actionlint places an expression's error near, not at, its column: only the form is held.
found = re.match(r'github-actions\.yml:\d+:\d+: property "shaa" is not defined', bad.stdout)
if bad.returncode != 1 or not found:
    sys.exit(f"actionlint did not flag github.shaa (exit {bad.returncode}):\n{bad.stdout}{bad.stderr}")
print(f"examples/ci/github-actions.yml: actionlint {version} finds nothing; the broken copy: {found.group(0)}")
