#!/bin/sh
# A stand-in for training with a known answer: val_loss(x, step) = (x - 0.3)^2 + 0.5 / step, one
# result line per step, so the best x is 0.3 and a bad x is visibly bad from the first step.
# SIGTERM (a stop by halving, or Ctrl-C) ends it at once.
set -eu
trap 'exit 143' TERM
x=0.5 steps=27
while [ $# -gt 0 ]; do
  case "$1" in
    --x) x=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
step=1
while [ "$step" -le "$steps" ]; do
  loss=$(awk -v x="$x" -v s="$step" 'BEGIN { printf "%.6f", (x - 0.3) * (x - 0.3) + 0.5 / s }')
  echo "{\"schema\":\"gkebuild.workload.v1\",\"workload\":\"curve\",\"metric\":\"val_loss\",\"value\":$loss,\"unit\":\"1\",\"step\":$step}"
  sleep 0.2
  step=$((step + 1))
done
