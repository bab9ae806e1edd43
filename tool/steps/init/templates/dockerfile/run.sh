#!/bin/sh
# A stand-in for your program: takes its parameter, does its work, and reports one metric as
# a JSON line on stdout, which gkebuild collects into the run's results.jsonl.
set -eu
size=${1:-100}
i=0 sum=0
while [ "$i" -lt "$size" ]; do i=$((i + 1)); sum=$((sum + i)); done
echo "summed 1..$size"
echo "{\"schema\":\"gkebuild.workload.v1\",\"workload\":\"run.sh\",\"metric\":\"sum\",\"value\":$sum,\"unit\":\"count\"}"
