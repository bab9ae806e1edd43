#!/usr/bin/env bash
# Start-up benchmark: whole-process time of commands that do almost nothing, as pre-commit and
# editors run them once per file, beside the peers a user would run in the same place.
#   gkebuild version                     vs  kubectl version --client
#   gkebuild render --template (x, {})   vs  python3 + jinja2 rendering the same template
#   gkebuild validate (a 4-line file)    vs  kubernetes-validate on the same file
# Median of N runs each (default 30) and peak memory (/usr/bin/time). Target: every gkebuild
# command under 5 ms. Usage: bench/startup/run.sh [N]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-30}
bash scripts/setup.sh >/dev/null
build=build/bench-startup
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGKEBUILD_TESTS=OFF -DGKEBUILD_BENCH=OFF >/dev/null
ninja -C "$build" -j"$(nproc)" gkebuild >/dev/null
gkebuild="$build/tool/cli/gkebuild"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'x' >"$work/t.j2"
printf '{}' >"$work/v.json"
printf 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n' >"$work/ns.yaml"

median_ms() {  # median_ms command… : the median wall time of $runs runs, in milliseconds
  local times=() start end
  for _ in $(seq "$runs"); do
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s%N)
    times+=("$((end - start))")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.2f", a[int((NR+1)/2)] / 1e6}'
}
peak_mib() { /usr/bin/time -f "%M" -o "$work/rss" "$@" >/dev/null 2>&1 || true; awk '{printf "%.1f", $1/1024}' "$work/rss"; }

row() {  # row LABEL PEER-LABEL -- gkebuild-args… -- peer-command…
  local label=$1 peer_label=$2; shift 3
  local ours=() peer=()
  while [ "$1" != "--" ]; do ours+=("$1"); shift; done
  shift
  peer=("$@")
  local ours_ms peer_ms
  ours_ms=$(median_ms "$gkebuild" "${ours[@]}")
  peer_ms=$(median_ms "${peer[@]}")
  printf '%-34s %8s ms %6s MiB   %-28s %9s ms %6s MiB %8.1fx\n' "$label" "$ours_ms" \
    "$(peak_mib "$gkebuild" "${ours[@]}")" "$peer_label" "$peer_ms" "$(peak_mib "${peer[@]}")" \
    "$(awk "BEGIN{print $peer_ms / $ours_ms}")"
}

printf 'median of %s runs, whole process; shared libraries of gkebuild: %s\n' "$runs" \
  "$(ldd "$gkebuild" | grep -c '=>')"
printf '%-34s %11s %10s   %-28s %12s %10s %9s\n' "gkebuild" "time" "peak" "peer" "time" "peak" "ratio"
row "version" "kubectl version --client" -- version -- kubectl version --client
row "render --template t.j2 (x, {})" "python3 jinja2" -- render --template "$work/t.j2" --values "$work/v.json" \
  -- python3 -c 'import jinja2,json,sys; sys.stdout.write(jinja2.Template(open(sys.argv[1]).read()).render(json.load(open(sys.argv[2]))))' "$work/t.j2" "$work/v.json"
row "validate ns.yaml (4 lines)" "kubernetes-validate" -- validate "$work/ns.yaml" -- kubernetes-validate "$work/ns.yaml"
echo "target: every gkebuild command under 5 ms"
