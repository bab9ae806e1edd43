#!/usr/bin/env python3
"""external_peers.txt names ctest tests that exist: a renamed test must not fall out of the list
scripts/test.sh leaves out where its peer is absent. Usage: check_external_peers.py BUILD LIST"""
import re
import subprocess
import sys

build, listed = sys.argv[1], sys.argv[2]
known = set(re.findall(r"Test +#\d+: (\S+)", subprocess.run(["ctest", "-N"], cwd=build, capture_output=True,
                                                              text=True, check=True).stdout))
missing = []
for line in open(listed):
    if not line.strip() or line.startswith("#"):
        continue
    tool, tests = line.split(":", 1)
    missing += [f"{tool}: {test}" for test in tests.split() if test not in known]
if missing:
    sys.exit("not tests any more (update tests/peers/external_peers.txt):\n  " + "\n  ".join(missing))
print(f"external_peers.txt: every name is a test ({len(known)} tests known)")
