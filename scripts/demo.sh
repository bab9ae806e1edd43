#!/usr/bin/env bash
# The newcomer demo: set up the machine, build gkebuild, and render the example project
# examples/gemm-compare (a GEMM benchmark swept over sizes and precisions on L4, T4 and
# A100-80GB spot nodes) to Kubernetes YAML and a Dockerfile.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build/demo -G Ninja -DCMAKE_BUILD_TYPE=Release -DGKEBUILD_TESTS=OFF -DGKEBUILD_BENCH=OFF >/dev/null
cmake --build build/demo -j "$(nproc)" --target gkebuild
gkebuild=build/demo/tool/cli/gkebuild
example=examples/gemm-compare

echo "== $gkebuild render -f $example/gkebuild.yaml image/gemm   (the Dockerfile)"
"$gkebuild" render -f "$example/gkebuild.yaml" image/gemm
echo
echo "== $gkebuild render -f $example/gkebuild.yaml   (namespace and one Job per accelerator and sweep point)"
"$gkebuild" render -f "$example/gkebuild.yaml"
out=$(mktemp -d)
"$gkebuild" render -f "$example/gkebuild.yaml" -o "$out"
echo
echo "== $gkebuild render -f $example/gkebuild.yaml -o DIR   wrote $(ls "$out" | wc -l) files:"
ls "$out"
rm -rf "$out"
echo
echo "== $gkebuild render -f $example/gkebuild.yaml | $gkebuild validate -   (schemas + GPU rules)"
"$gkebuild" render -f "$example/gkebuild.yaml" | "$gkebuild" validate - && echo "all manifests valid"
