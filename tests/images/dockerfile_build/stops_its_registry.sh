#!/bin/sh
# The corpus test starts one docker-registry for its whole run; it must stop it and remove its
# scratch directories when the run ends (a leaked server was found after a full test run).
# Usage: stops_its_registry.sh CORPUS_TEST_BINARY
set -u
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
TMPDIR=$scratch "$1" --gtest_filter='Corpus/CorpusTest.SameAsBuildah/chmod' >"$scratch.log" 2>&1
status=$?
if [ $status -ne 0 ]; then cat "$scratch.log"; rm -f "$scratch.log"; exit $status; fi
rm -f "$scratch.log"
left=$(pgrep -f "docker-registry serve $scratch/" || true)
if [ -n "$left" ]; then
  echo "docker-registry still running after the corpus test ended: pid $left"
  kill $left
  exit 1
fi
if [ -n "$(ls -A "$scratch")" ]; then
  echo "the corpus test left scratch directories behind:"; ls -A "$scratch"
  exit 1
fi
echo "registry stopped, scratch directories removed"
