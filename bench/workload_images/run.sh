#!/usr/bin/env bash
# `gkebuild image` of examples/saxpy (a CUDA program gkebuild configures and builds itself for
# T4 + L4), wall seconds: cold (a fresh copy, ccache off: CMake's compiler checks and nvcc for
# two architectures), cold with ccache warm, warm (nothing changed) and after editing the .cu
# file (one object and the link). Needs nvcc.
# Usage: bench/workload_images/run.sh [GKEBUILD] [RUNS]   (default: a Release build in build/bench-workloadbuild, 3 runs)
set -euo pipefail
cd "$(dirname "$0")/../.."
gkebuild=${1:-}
if [[ -z $gkebuild ]]; then
  build=build/bench-workloadbuild
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGKEBUILD_TESTS=OFF -DGKEBUILD_BENCH=OFF >/dev/null
  ninja -C "$build" -j"$(nproc)" gkebuild >/dev/null
  gkebuild=$PWD/$build/tool/cli/gkebuild
fi
example=$PWD/examples/saxpy
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
seconds() { /usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -1; }
fresh() { rm -rf "$work/saxpy" && cp -r "$example" "$work/saxpy" && cd "$work/saxpy"; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 1; i <= ${2:-3}; i++)); do
  fresh
  cold=$(CCACHE_DISABLE=1 seconds "$gkebuild" image)
  warm=$(seconds "$gkebuild" image)
  echo "// edit $i" >>src/saxpy_gpu.cu
  edit=$(CCACHE_DISABLE=1 seconds "$gkebuild" image)
  fresh
  cached=$(seconds "$gkebuild" image)
  echo "run $i: cold ${cold} s, cold with ccache warm ${cached} s, warm ${warm} s, after a .cu edit ${edit} s"
done
