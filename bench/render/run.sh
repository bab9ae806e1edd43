#!/usr/bin/env bash
# Render benchmark, every case side by side in one run (see bench.py for the cases and what
# is timed): gkebuild against Python jinja2 whole process, and gkebuild's engine against
# MiniJinja in process, with peak memory. Release build in build/bench-render.
# Usage: bench/render/run.sh [RUNS [CASES]]   (medians of RUNS, default 5; CASES: letters, e.g. f)
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/setup.sh >/dev/null
build=build/bench-render
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGKEBUILD_TESTS=OFF -DGKEBUILD_BENCH=ON >/dev/null
ninja -C "$build" -j"$(nproc)" gkebuild render_bench >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 bench/render/bench.py "$build/tool/cli/gkebuild" "$build/bench/render/render_bench" "$work" "${1:-5}" ${2:+"$2"}
