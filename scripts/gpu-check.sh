#!/usr/bin/env bash
# Runs the workloads' CUDA paths on a machine with an NVIDIA GPU and writes what they measured:
# the GPU unit tests, compute-sanitizer over our own kernels, gpu-info, gemm-bench beside
# PyTorch's matmul (when python3 has torch), conv-bench on every layer, mnist-train on the GPU
# beside its CPU path, examples/saxpy built by CMake + nvcc for the GPU found, the same example
# run by `gkebuild submit --local` under runc with the GPU passed through, and the demo's GEMM
# comparison (examples/gemm-compare) the same way. The part `cnn` (about 3 minutes) is the CNN of
# mnist-train alone: its GPU tests (cuDNN against the CPU step by step in fp32, tf32 and fp16,
# a checkpoint resumed on the GPU), compute-sanitizer (memcheck; racecheck of its own kernels), a real SIGTERM in epoch 2
# and a restart that must end with the unbroken run's weights, and bench/workloads/mnist.sh (MLP
# and CNN in every precision, and on the CPU path).
#
#   scripts/gpu-check.sh --stage BIN_DIR [ARCH]   here: builds (Release, CUDA for ARCH, default
#                                                 90) and copies the programs, gkebuild and runc
#   scripts/gpu-check.sh BIN_DIR OUT_DIR [workloads] [saxpy] [submit] [demo] [cnn]   on the GPU machine
#                                                 (no part named: all five)
#
# OUT_DIR gets log.txt and one results-*.jsonl per program; exit 1 when a step failed.
# Not part of CI (CI has no GPU). Each step has its own time limit, so one that hangs does not
# cost the others.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ ${1:-} == --stage ]]; then
  set -e
  bin=$2 arch=${3:-90} build=$root/build/gpu
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGKEBUILD_CUDA_ARCHS="$arch" >/dev/null
  ninja -C "$build" workloads_gpu_test gemm-bench conv-bench mnist-train mnist-synth gpu-info gkebuild
  mkdir -p "$bin/lib"
  for program in gemm-bench conv-bench mnist-train mnist-synth gpu-info; do
    cp "$build/workloads/$program/$program" "$bin/"
  done
  cp "$build/tests/workloads/workloads_gpu_test" "$bin/"
  strip -o "$bin/gkebuild" "$build/tool/cli/gkebuild"
  cp "$(command -v runc)" "$bin/"
  # Libraries of gkebuild and runc that a machine with another distribution may lack.
  ldd "$bin/gkebuild" "$bin/runc" | awk '$3 ~ /^\// {print $3}' | sort -u |
    grep -Ev '/(libc|libm|libpthread|libdl|librt|ld-linux-x86-64|libresolv|libstdc\+\+|libgcc_s)\.so' |
    xargs -r cp -L -t "$bin/lib/"
  exit 0
fi
bin=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2
parts=" ${*:-workloads saxpy submit demo cnn} "
log="$out/log.txt"
exec > >(tee -a "$log") 2>&1
failed=0
step() {  # step NAME SECONDS COMMAND…: runs COMMAND under a limit, records its exit status
  local name=$1 limit=$2
  shift 2
  echo "== $name"
  local start=$SECONDS
  timeout "$limit" "$@"
  local rc=$?
  echo "== $name: exit $rc after $((SECONDS - start)) s"
  [[ $rc == 0 ]] || failed=$((failed + 1))
}

# The CUDA libraries the programs link (cuBLAS, cuDNN) where this machine keeps them.
libdirs=$(find /usr/local /opt /usr/lib -xdev \( -name 'libcublas.so.13' -o -name 'libcudnn.so.9' \
  -o -name 'libcudart.so.13' \) -printf '%h\n' 2>/dev/null | sort -u | paste -sd:)
export LD_LIBRARY_PATH="${libdirs}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "libraries from: $libdirs"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
nproc

step gpu-info 60 "$bin/gpu-info"
run_jsonl() {  # run_jsonl NAME SECONDS COMMAND…: results to results-NAME.jsonl
  local name=$1 limit=$2
  shift 2
  step "$name" "$limit" bash -c '"$@" > "$0"' "$out/results-$name.jsonl" "$@"
  cat "$out/results-$name.jsonl"
}
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
case $arch in  # the catalog's accelerator of this compute capability, for --accelerator
  75) accelerator=nvidia-tesla-t4 ;; 80) accelerator=nvidia-tesla-a100 ;;
  89) accelerator=nvidia-l4 ;; 90) accelerator=nvidia-h100-80gb ;; *) accelerator="" ;;
esac

workloads() {
  step unit-tests 300 "$bin/workloads_gpu_test" --gtest_color=no
  if command -v compute-sanitizer >/dev/null; then
    # Our own kernels (mnist-train's) and the cuBLAS/cuDNN calls around them.
    for tool in memcheck racecheck; do
      step "compute-sanitizer $tool" 300 compute-sanitizer --tool "$tool" --error-exitcode 9 \
        "$bin/workloads_gpu_test" --gtest_color=no --gtest_filter='Gpu.CudaTrainingFollowsTheCpuStepForStep'
    done
  fi

  run_jsonl gemm 240 "$bin/gemm-bench" --m 8192 --n 8192 --k 8192 --precision fp32,tf32,fp16,bf16 \
    --reps 20 --warmup 3 --check-samples 256
  if python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
    step torch-matmul 240 python3 - <<'PY'
# The same products through PyTorch (cuBLAS underneath), timed the same way: events, median of 20.
import statistics, torch
torch.backends.cuda.matmul.allow_tf32 = False
n = 8192
for name, dtype, tf32 in [("fp32", torch.float32, False), ("tf32", torch.float32, True),
                          ("fp16", torch.float16, False), ("bf16", torch.bfloat16, False)]:
    torch.backends.cuda.matmul.allow_tf32 = tf32
    a = torch.randn(n, n, device="cuda", dtype=dtype)
    b = torch.randn(n, n, device="cuda", dtype=dtype)
    for _ in range(3):
        a @ b
    times = []
    for _ in range(20):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record(); a @ b; end.record(); end.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    print(f"torch {name}: {2 * n**3 / statistics.median(times) / 1e12:.1f} TFLOP/s median of 20")
PY
  fi
  run_jsonl conv 300 "$bin/conv-bench" --precision fp32,fp16,bf16 --reps 20
  step mnist-synth 120 "$bin/mnist-synth" --out "$out/mnist" --train 60000 --test 10000
  run_jsonl mnist-gpu 300 "$bin/mnist-train" --model mlp --data "$out/mnist" --epochs 3 --hidden 256 --device cuda
  run_jsonl mnist-cpu 300 "$bin/mnist-train" --model mlp --data "$out/mnist" --epochs 1 --hidden 256 --device cpu
  rm -rf "$out/mnist"
}

# mnist-train's CNN: its GPU tests, compute-sanitizer over its kernels, a real preemption and
# resume on the GPU, and the MLP beside the CNN in every precision (bench/workloads/mnist.sh).
cnn() {
  step cnn-gpu-tests 240 "$bin/workloads_gpu_test" --gtest_color=no \
    --gtest_filter='GpuCnn*:Precisions/GpuCnn*:Gpu.Cnn*:Gpu.CudaTraining*'
  if command -v compute-sanitizer >/dev/null; then
    step "cnn compute-sanitizer memcheck" 120 compute-sanitizer --tool memcheck --error-exitcode 9 \
      "$bin/workloads_gpu_test" --gtest_color=no --gtest_filter='Precisions/GpuCnn.CudnnFollowsTheCpuStepForStep/fp16'
    # Shared memory (the bias gradient's reduction) in our kernels only: cuDNN's are not ours.
    step "cnn compute-sanitizer racecheck" 120 compute-sanitizer --tool racecheck --error-exitcode 9 \
      --kernel-name kns=gkebuild "$bin/workloads_gpu_test" --gtest_color=no \
      --gtest_filter='Precisions/GpuCnn.CudnnFollowsTheCpuStepForStep/fp32'
  fi
  local data=/tmp/gpu-check-mnist
  rm -rf "$data"
  step cnn-synth 120 "$bin/mnist-synth" --out "$data" --train 60000 --test 10000
  export -f resume_after_sigterm
  export bin out
  step cnn-resume-after-sigterm 240 bash -c 'resume_after_sigterm "$0"' "$data"
  step cnn-bench 300 "$root/bench/workloads/mnist.sh" --bin "$bin" --device cuda --out "$out/mnist-bench"
  step cnn-bench-cpu 300 "$root/bench/workloads/mnist.sh" --bin "$bin" --device cpu --epochs 1 \
    --out "$out/mnist-bench-cpu"
  rm -rf "$data"
}

# The CNN on the GPU stopped by SIGTERM once epoch 1's lines are out (epoch 1's checkpoint is
# written before them), then started again with the same command: its final checkpoint must be
# byte for byte the one of a run that was never stopped.
resume_after_sigterm() {
  local data=$1 device=${2:-cuda} dir=/tmp/gpu-check-resume
  rm -rf "$dir" && mkdir -p "$dir"
  local args=(--device "$device" --data "$data" --model cnn --epochs 3 --seed 7)
  "$bin/mnist-train" "${args[@]}" --save "$dir/unbroken.ckpt" > "$out/results-cnn-unbroken.jsonl" || return 1
  "$bin/mnist-train" "${args[@]}" --checkpoint-dir "$dir/ckpt" --save "$dir/resumed.ckpt" \
    > "$out/results-cnn-stopped.jsonl" 2> "$dir/stopped.err" &
  local pid=$!
  until grep -q '"epoch":1' "$out/results-cnn-stopped.jsonl" 2>/dev/null; do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.01
  done
  kill -TERM "$pid"
  wait "$pid"
  local rc=$?
  cat "$dir/stopped.err"
  [[ $rc == 130 ]] && grep -q 'SIGTERM in epoch 2' "$dir/stopped.err" || { echo "not stopped in epoch 2 (exit $rc)"; return 1; }
  "$bin/mnist-train" "${args[@]}" --checkpoint-dir "$dir/ckpt" --save "$dir/resumed.ckpt" \
    > "$out/results-cnn-resumed.jsonl" 2> "$dir/resumed.err" || return 1
  cat "$dir/resumed.err"
  grep -q 'resuming from .*epoch-000001.ckpt' "$dir/resumed.err" || return 1
  if cmp -s "$dir/unbroken.ckpt" "$dir/resumed.ckpt"; then
    echo "resumed on the GPU: the final checkpoint is byte for byte the unbroken run's"
  else
    echo "resumed on the GPU: the final checkpoint DIFFERS from the unbroken run's"
    return 1
  fi
}

# The saxpy example as gkebuild image builds it (CMake, Ninja, Release), for this GPU only.
saxpy() {
  step saxpy-build 240 cmake -S "$root/examples/saxpy" -B /tmp/saxpy-build -G Ninja \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$arch"
  step saxpy-compile 240 cmake --build /tmp/saxpy-build
  run_jsonl saxpy 60 /tmp/saxpy-build/saxpy $((1 << 26))
  step saxpy-ran-on-the-gpu 5 grep -q '"kind":"cuda"' "$out/results-saxpy.jsonl"
}

# The saxpy example as a user runs it: gkebuild configures and builds it, checks its device code,
# builds the image and runs its Jobs under runc with the GPU and driver libraries passed through.
submit() {
  local project=/tmp/saxpy-project
  rm -rf "$project" && cp -r "$root/examples/saxpy" "$project"
  step submit-local 300 env PATH="$bin:$PATH" LD_LIBRARY_PATH="$bin/lib:$LD_LIBRARY_PATH" \
    bash -c 'cd "$0" && gkebuild submit saxpy --local --accelerator "$1"' "$project" "$accelerator"
  cat "$project"/.gkebuild/runs/*/results.jsonl > "$out/results-submit-local.jsonl"
  cat "$out/results-submit-local.jsonl"
  step submit-local-ran-on-the-gpu 5 grep -q '"kind":"cuda"' "$out/results-submit-local.jsonl"
  step report 60 env LD_LIBRARY_PATH="$bin/lib:$LD_LIBRARY_PATH" \
    bash -c 'cd "$0" && "$1" report .gkebuild/runs/*' "$project" "$bin/gkebuild"
}

# The demo's GEMM comparison on this GPU: the image with the cuBLAS layer, built from the
# gemm-bench in BIN_DIR, two sizes in two precisions under runc, then the report. The image's
# libraries are found as a build machine finds them (ld.so.cache), so the folders found above
# are registered with ldconfig first: this is for a throwaway machine.
demo() {
  echo "$libdirs" | tr : '\n' > /etc/ld.so.conf.d/gkebuild-gpu-check.conf && ldconfig
  local project=/tmp/gemm-project
  rm -rf "$project" && cp -r "$root/examples/gemm-compare" "$project"
  step submit-gemm 400 env PATH="$bin:$PATH" LD_LIBRARY_PATH="$bin/lib:$LD_LIBRARY_PATH" \
    gkebuild submit gemm -f "$project/gkebuild.yaml" --local --accelerator "$accelerator" \
    --sweep n=4096,8192 --sweep precision=fp32,bf16 --workloads-build "$bin"
  cat "$project"/.gkebuild/runs/*/results.jsonl > "$out/results-submit-gemm.jsonl"
  step submit-gemm-ran-on-the-gpu 5 grep -q '"kind":"cuda"' "$out/results-submit-gemm.jsonl"
  step report-gemm 60 env LD_LIBRARY_PATH="$bin/lib:$LD_LIBRARY_PATH" \
    "$bin/gkebuild" report -f "$project/gkebuild.yaml" "$(ls "$project/.gkebuild/runs")"
}

for part in workloads saxpy submit demo cnn; do
  [[ $parts == *" $part "* ]] || continue
  if [[ $part == submit || $part == demo ]] && [[ -z $accelerator ]]; then
    echo "== $part: no catalog accelerator for compute capability $arch"
    failed=$((failed + 1))
    continue
  fi
  "$part"
done

echo "== steps failed: $failed"
exit $((failed > 0))
