#!/usr/bin/env bash
# Builds and runs the CPU GEMM benchmark: our SGEMM beside OpenBLAS in one run (same sizes,
# inputs and threads), then each library alone for its peak memory.
# OPENBLAS_CORETYPE is passed through as it is set (unset: OpenBLAS detects the CPU); the
# table's first line says which core OpenBLAS used. Usage: bench/workloads/run.sh [SIZE…]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=build/bench-workloads
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGKEBUILD_TESTS=OFF -DGKEBUILD_BENCH=ON >/dev/null
ninja -C "$build" -j2 gemm-vs-openblas >/dev/null
program="$build/bench/workloads/gemm-vs-openblas"
"$program" "$@"
for library in ours openblas; do
  /usr/bin/time -f "peak memory, $library alone: %M KiB" "$program" --library "$library" --reps 1 "${@:-2048}" \
    2>&1 >/dev/null
done
