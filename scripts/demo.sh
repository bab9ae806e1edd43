#!/usr/bin/env bash
# The newcomer demo, no cloud account needed: set up the machine, build gkebuild and install it
# to /usr/local (scripts/install.sh), build the gemm-bench workload, then take the example
# project examples/gemm-compare (a GEMM benchmark swept over sizes and precisions on L4, T4 and
# A100-80GB spot nodes) through the whole loop:
#   render   its Dockerfile and Kubernetes Jobs, validated by `gkebuild validate`;
#   submit   a small sweep with --local: the image is built without a daemon and each Job's
#            container runs here under runc (the workload's CPU path: no GPU needed);
#   report   the run's results as a table, an SVG chart and an HTML page;
# then, where nvcc is found, examples/saxpy (a CUDA program of one's own) from its gkebuild.yaml
# to a local run with one command: gkebuild builds it for T4 + L4 itself.
# runc needs root, as the rest of setup does.
set -euo pipefail
cd "$(dirname "$0")/.."
# Set-up, a Release build in build/demo, installed stripped to /usr/local: after the demo,
# `gkebuild` is on the PATH and the README's walk runs as written.
bash scripts/install.sh --build build/demo
cmake --build build/demo -j "$(nproc)" --target gemm-bench
gkebuild=/usr/local/bin/gkebuild

# A copy of the example, so the run record (.gkebuild/) is not written into the source tree.
project=build/demo/gemm-compare
rm -rf "$project"
cp -r examples/gemm-compare "$project"

step() { printf '\n== %s\n' "$*"; }
step "gkebuild render image/gemm   (the Dockerfile)"
"$gkebuild" render -f "$project/gkebuild.yaml" image/gemm
step "gkebuild render | gkebuild validate -   (namespace and one Job per accelerator and sweep point; schemas + GPU rules)"
echo "$("$gkebuild" render -f "$project/gkebuild.yaml" | grep -c '^kind: Job$') Jobs rendered"
"$gkebuild" render -f "$project/gkebuild.yaml" | "$gkebuild" validate - && echo "all manifests valid"
step "gkebuild render job/gemm --accelerator nvidia-l4 | head -60   (the namespace and the first Job)"
# Through a file: with pipefail, `gkebuild … | head` would fail on the closed pipe.
"$gkebuild" render -f "$project/gkebuild.yaml" job/gemm --accelerator nvidia-l4 > "$project/first-job.yaml"
head -60 "$project/first-job.yaml"

step "gkebuild submit gemm --local   (build the image, run 2 sweep points under runc, record the results)"
"$gkebuild" submit gemm -f "$project/gkebuild.yaml" --local --accelerator nvidia-l4 \
  --sweep n=384,768 --sweep precision=fp32 --workloads-build build/demo/workloads
run=$(ls -t "$project/.gkebuild/runs" | head -1)
step "gkebuild runs; gkebuild status $run"
(cd "$project" && "$gkebuild" runs && "$gkebuild" status "$run")

step "gkebuild report $run   (also as $project/report.svg and $project/report.html)"
"$gkebuild" report -f "$project/gkebuild.yaml" "$run" --svg "$project/report.svg" --html "$project/report.html"
echo
echo "Run record: $project/.gkebuild/runs/$run (run.json, manifests/, logs/, results.jsonl)"

if command -v nvcc >/dev/null || [ -x "${CUDA_PATH:-/usr/local/cuda}/bin/nvcc" ]; then
  saxpy=build/demo/saxpy
  rm -rf "$saxpy"
  cp -r examples/saxpy "$saxpy"
  step "gkebuild submit saxpy --local   (your own CUDA program: configured, built for sm_75 + sm_89, checked, run)"
  (cd "$saxpy" && "$gkebuild" submit saxpy --local)
else
  step "examples/saxpy skipped: no nvcc (see README, Your own CUDA program)"
fi
