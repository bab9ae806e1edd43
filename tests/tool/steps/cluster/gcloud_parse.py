#!/usr/bin/env python3
"""Runs many gcloud command lines through the installed Google Cloud CLI in one process.

gcloud takes about a second to start; this loads its gcloud_main once (the same module
/usr/bin/gcloud runs, under the interpreter the SDK bundles when it has one) and hands it
each line read from stdin ("gcloud container ..."), in turn. Prints a JSON list with, per
line, the exit status and what gcloud wrote to stdout and stderr.

Without an account gcloud parses every flag and value first and only then refuses with
"You do not currently have an active account selected", so a rendered command that gets
that far is one gcloud accepts."""
import json
import os
import shlex
import shutil
import sys
import tempfile

SDK_ROOT = os.path.dirname(os.path.dirname(os.path.realpath(shutil.which("gcloud"))))
BUNDLED = os.path.join(SDK_ROOT, "platform", "bundledpythonunix", "bin", "python3")
if os.path.exists(BUNDLED) and os.path.realpath(sys.executable) != os.path.realpath(BUNDLED) \
        and not os.environ.get("GCLOUD_PARSE_REEXEC"):
    os.environ["GCLOUD_PARSE_REEXEC"] = "1"
    os.execv(BUNDLED, [BUNDLED] + sys.argv)

sys.path[:0] = [os.path.join(SDK_ROOT, "lib"), os.path.join(SDK_ROOT, "lib", "third_party")]
from googlecloudsdk import gcloud_main  # noqa: E402

cli = gcloud_main.CreateCLI([])
lines = [line for line in sys.stdin.read().splitlines() if line.strip()]
results = []
saved = os.dup(1), os.dup(2)
for line in lines:
    # gcloud's log handler holds the process's stderr, so capture at the descriptor level.
    capture = tempfile.TemporaryFile()
    os.dup2(capture.fileno(), 1)
    os.dup2(capture.fileno(), 2)
    code = 0
    try:
        cli.Execute(shlex.split(line)[1:])
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    except Exception as error:  # gcloud turns its errors into SystemExit; anything else fails the line
        code = 1
        print(f"{type(error).__name__}: {error}", file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(saved[0], 1)
    os.dup2(saved[1], 2)
    capture.seek(0)
    results.append({"line": line, "exit": code, "output": capture.read().decode(errors="replace")})
print(json.dumps(results))
