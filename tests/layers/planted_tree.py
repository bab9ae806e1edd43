"""The harness both checks' tests share: a small tree written to a scratch folder (a clean tree
with planted files on top), and one of scripts/check_*.py run on it."""
import os
import subprocess
import sys
import tempfile

SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts")


def run_check(script, files):
    """Writes `files` (path -> text) under a scratch root, runs scripts/`script` on it, and
    returns its exit code and stdout."""
    with tempfile.TemporaryDirectory() as root:
        for path, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        result = subprocess.run([sys.executable, os.path.join(SCRIPTS, script), root], capture_output=True, text=True)
        return result.returncode, result.stdout
