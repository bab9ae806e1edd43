#!/usr/bin/env bash
# Instruction counts (valgrind callgrind, every thread, whole process) and peak memory of the
# render cases of bench/render/run.sh and the start-up commands of bench/startup/run.sh. Unlike
# times, the counts do not move with the machine's load, so a before/after of a change to the
# engine can be measured on a busy machine. Release build in build/bench-render.
# Usage: bench/render/instructions.sh [GKEBUILD]   (default: builds build/bench-render's)
set -euo pipefail
cd "$(dirname "$0")/../.."
if (($# == 0)); then
  bash scripts/setup.sh >/dev/null
  cmake -S . -B build/bench-render -G Ninja -DCMAKE_BUILD_TYPE=Release -DGKEBUILD_TESTS=OFF -DGKEBUILD_BENCH=ON >/dev/null
  ninja -C build/bench-render -j"$(nproc)" gkebuild >/dev/null
fi
gkebuild=${1:-build/bench-render/tool/cli/gkebuild}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The same records as bench.py writes for (a), (b) and (e).
python3 - "$work" <<'PY'
import importlib.util, json, os, sys
spec = importlib.util.spec_from_file_location("bench", "bench/render/bench.py")
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
for count in (1000, 10000, 45000):
    with open(os.path.join(sys.argv[1], "jobs-%d.json" % count), "w") as f:
        json.dump(bench.job_records(count), f)
PY
printf x >"$work/t.j2"
printf '{}' >"$work/v.json"
printf 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n' >"$work/ns.yaml"

instructions() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | awk '/Collected/ {print $4}'; }
peak_kib() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
row() {  # row LABEL gkebuild-args…
  local label=$1; shift
  printf '%-34s %15s %10s\n' "$label" "$(instructions "$gkebuild" "$@")" "$(peak_kib "$gkebuild" "$@")"
}
job_list=bench/render/job-list.yaml.j2
printf '%-34s %15s %10s\n' case instructions "peak KiB"
for count in 1000 10000 45000; do
  row "render, Job list over $count" render --template "$job_list" --values "$work/jobs-$count.json" \
    --trim-blocks --lstrip-blocks
done
row "render, 1,000-point sweep" render -f bench/render/sweep-1000.yaml --run-id bench
row "version" version
row "render --template (x, {})" render --template "$work/t.j2" --values "$work/v.json"
row "validate (a 4-line file)" validate "$work/ns.yaml"
