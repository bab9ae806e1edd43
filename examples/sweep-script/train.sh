#!/bin/sh
# A stand-in for a training script: reads its hyper-parameters, "trains", reports one metric
# line in gkebuild's workload schema (collected into the run record's results.jsonl).
set -eu
lr=0.1 epochs=1
while [ $# -gt 0 ]; do
  case "$1" in
    --lr) lr=$2; shift 2 ;;
    --epochs) epochs=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
echo "training on $(cat /app/built-for) with lr=$lr for $epochs epochs"
echo "{\"schema\":\"gkebuild.workload.v1\",\"workload\":\"train.sh\",\"metric\":\"epochs\",\"value\":$epochs,\"unit\":\"count\"}"
