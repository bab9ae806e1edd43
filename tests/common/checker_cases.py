"""The fault cases of the tree checkers in scripts/ (check_docs.py, check_library_readmes.py):
a small repository written into a scratch folder, a sound one and then one fault at a time, and
the checker run on it as ctest runs it on the real tree. A checker passes a sound tree with exit 0
and fails a fault with exit 1 and at least one line saying what is wrong.
"""

import subprocess
import sys
import tempfile
from pathlib import Path


def write_tree(root: Path, files):
    """Writes {path: text} under root; a text of None leaves that path out."""
    for name, text in files.items():
        if text is not None:
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")


def run_checker(checker: str, files) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as scratch:
        write_tree(Path(scratch), files)
        return subprocess.run([sys.executable, checker, scratch], capture_output=True, text=True)


def failed_cases(checker: str, sound, faults, sound_says=None):
    """What went wrong: the sound tree failing (or its output lacking sound_says), or a fault
    (a change to the sound tree) that the checker passed."""
    failures = []
    result = run_checker(checker, sound)
    if result.returncode != 0:
        failures.append(f"the sound tree fails:\n{result.stdout}{result.stderr}")
    elif sound_says is not None and sound_says not in result.stdout:
        failures.append(f"the sound tree's output lacks {sound_says!r}: {result.stdout.strip()}")
    for fault, change in faults.items():
        result = run_checker(checker, {**sound, **change})
        if result.returncode != 1 or not result.stdout.strip():
            failures.append(f"{fault}: exit {result.returncode}, output {result.stdout!r}{result.stderr!r}")
    return failures
