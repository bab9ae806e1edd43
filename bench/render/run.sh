#!/usr/bin/env bash
# Render benchmark: a 1,000-point sweep through the shipped Job template, gkebuild against
# Python jinja2 on the same template and contexts.
#   whole process: `gkebuild render` of the project (read, plan, render, YAML parse-back,
#                  output) against `python3 jinja2_render.py whole` (interpreter start,
#                  imports, 1,000 renders from ready-made contexts, output)
#   per render:    render_bench (C++, in process) against timeit in Python
# Peak memory is /usr/bin/time's maximum resident set size. Usage: bench/render/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/setup.sh >/dev/null
build=build/bench-render
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGKEBUILD_TESTS=OFF -DGKEBUILD_BENCH=ON >/dev/null
ninja -C "$build" -j"$(nproc)" gkebuild render_bench >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
project=bench/render/sweep-1000.yaml
"$build/bench/render/render_bench" contexts "$project" "$work/contexts.json"

best_of() {  # best_of N command… : the best wall time in seconds, and the peak RSS in KiB
  local best="" start end seconds
  for _ in $(seq "$1"); do
    start=$(date +%s%N)
    "${@:2}" >"$work/out"
    end=$(date +%s%N)
    seconds=$(awk "BEGIN{print ($end - $start) / 1e9}")
    if [ -z "$best" ] || awk "BEGIN{exit !($seconds < $best)}"; then best=$seconds; fi
  done
  /usr/bin/time -f "%M" -o "$work/rss" "${@:2}" >/dev/null
  echo "$best $(cat "$work/rss")"
}

read -r ours_s ours_kib < <(best_of 5 "$build/tool/cli/gkebuild" render -f "$project" --run-id bench)
jobs=$(grep -c '^kind: Job$' "$work/out")
read -r py_s py_kib < <(best_of 5 python3 bench/render/jinja2_render.py whole "$work/contexts.json")
ours_us=$("$build/bench/render/render_bench" time "$work/contexts.json" 5 | awk '{print $6}')
py_us=$(python3 bench/render/jinja2_render.py time "$work/contexts.json" 5 | awk '{print $4}')

printf '1,000-point sweep, job.yaml.j2 (%s Jobs rendered by gkebuild)\n' "$jobs"
printf '%-24s %14s %14s %8s\n' "" "gkebuild" "jinja2" "ratio"
printf '%-24s %12.3f s %12.3f s %7.1fx\n' "whole process" "$ours_s" "$py_s" "$(awk "BEGIN{print $py_s / ($ours_s > 0 ? $ours_s : 0.001)}")"
printf '%-24s %11.1f us %11.1f us %7.1fx\n' "per render (in process)" "$ours_us" "$py_us" "$(awk "BEGIN{print $py_us / $ours_us}")"
printf '%-24s %10.1f MiB %10.1f MiB\n' "peak memory (whole)" "$(awk "BEGIN{print $ours_kib/1024}")" "$(awk "BEGIN{print $py_kib/1024}")"
echo "targets: >= 20x whole process, >= 5x per render"
