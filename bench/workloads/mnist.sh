#!/usr/bin/env bash
# mnist-train's two models side by side on one device: the MLP and the CNN, on the same
# synthetic data (mnist-synth, 60,000 + 10,000 samples), in every precision the device trains
# in (CPU: fp32; CUDA: fp32, tf32, fp16). Prints a table (median samples/s and time per epoch
# over the epochs after the first, the last test accuracy) and keeps every result line.
#
#   bench/workloads/mnist.sh [--bin DIR] [--device cpu|cuda] [--epochs N] [--train N] [--out DIR]
#
# --bin: the folder with mnist-train and mnist-synth (default: builds them in build/bench-workloads,
# Release). --out: where results-mnist-MODEL-PRECISION.jsonl go (default: a temporary folder).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="" device=cpu epochs=3 train=60000 out=""
while (($#)); do
  case $1 in
    --bin) bin=$2; shift 2 ;;
    --device) device=$2; shift 2 ;;
    --epochs) epochs=$2; shift 2 ;;
    --train) train=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "mnist.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if [[ -z $bin ]]; then
  build=build/bench-workloads
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGKEBUILD_TESTS=OFF -DGKEBUILD_BENCH=ON >/dev/null
  ninja -C "$build" -j2 mnist-train mnist-synth >/dev/null
  bin=$build/workloads
  train_program=$bin/mnist-train/mnist-train synth_program=$bin/mnist-synth/mnist-synth
else
  train_program=$bin/mnist-train synth_program=$bin/mnist-synth
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
out=${out:-$scratch/results}
mkdir -p "$out"
"$synth_program" --out "$scratch/data" --train "$train" --test 10000 >/dev/null 2>&1
precisions=fp32
[[ $device == cuda* ]] && precisions="fp32 tf32 fp16"
for model in mlp cnn; do
  for precision in $precisions; do
    "$train_program" --device "$device" --data "$scratch/data" --model "$model" --precision "$precision" \
      --epochs "$epochs" > "$out/results-mnist-$model-$precision.jsonl" 2> "$out/log-mnist-$model-$precision.txt" || {
      echo "mnist-train --model $model --precision $precision failed:" >&2
      cat "$out/log-mnist-$model-$precision.txt" >&2
      exit 1
    }
  done
done
python3 - "$out" "$train" <<'PY'
# One row per model and precision: samples/s and time per epoch (median over epochs 2+, or
# epoch 1 alone), and the last epoch's test accuracy.
import glob, json, statistics, sys
out, train = sys.argv[1], int(sys.argv[2])
print("| model | precision | device | samples/s | time per epoch | test accuracy |")
print("| --- | --- | --- | ---: | ---: | ---: |")
for path in sorted(glob.glob(out + "/results-mnist-*.jsonl"), key=lambda p: (p.split("-")[-2], p)):
    lines = [json.loads(l) for l in open(path)]
    speed = [l["value"] for l in lines if l["metric"] == "throughput"]
    steady = speed[1:] or speed
    accuracy = [l["value"] for l in lines if l["metric"] == "test_accuracy"][-1]
    first = lines[0]
    rate = statistics.median(steady)
    print(f"| {first['shape']['model']} | {first['precision']} | {first['device'].get('name', '')} | "
          f"{rate:,.0f} | {train / rate:.2f} s | {accuracy:.4f} |")
PY
