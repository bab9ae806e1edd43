#!/usr/bin/env bash
# Compiles every CUDA source of the workloads for each architecture of the accelerator
# catalog (T4 sm_75, A100 sm_80, L4 sm_89, H100 sm_90), one nvcc per architecture, in
# parallel: proves the kernels build (ptxas generates the machine code of each) for all of
# them, whatever architectures the configured build targets.
# Usage: cuda_archs.sh NVCC SOURCE_ROOT OUTPUT_DIR
set -euo pipefail
nvcc=$1 root=$2 out=$3
mkdir -p "$out"
mapfile -t sources < <(find -L "$root/workloads" -name '*.cu' | sort)
if ((${#sources[@]} == 0)); then
  echo "no .cu files under $root/workloads" >&2
  exit 1
fi
pids=()
for arch in 75 80 89 90; do
  for source in "${sources[@]}"; do
    name=$(basename "$source" .cu)
    "$nvcc" -std=c++17 -arch=sm_$arch -I"$root" -c "$source" -o "$out/$name.sm_$arch.o" &
    pids+=($!)
  done
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
((status == 0)) && echo "compiled ${#sources[@]} CUDA source(s) for sm_75, sm_80, sm_89 and sm_90"
exit $status
