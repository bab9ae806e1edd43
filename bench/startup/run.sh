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

# median_ms command… : median wall and CPU (user + system) time of $runs runs in milliseconds.
# Timed from Python (posix_spawn, wait4) rather than with `date` around each run, whose own
# fork and exec would be counted too; /bin/true on the same line shows the floor.
median_ms() {
  python3 - "$runs" "$@" <<'PY'
import os, statistics, sys, time
runs, args = int(sys.argv[1]), sys.argv[2:]
wall, cpu = [], []
devnull = os.open(os.devnull, os.O_WRONLY)
actions = [(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]
path = args[0] if "/" in args[0] else next(os.path.join(d, args[0]) for d in os.environ["PATH"].split(":")
                                               if os.access(os.path.join(d, args[0]), os.X_OK))
for _ in range(runs):
    start = time.perf_counter()
    pid = os.posix_spawn(path, args, os.environ, file_actions=actions)
    _, _, usage = os.wait4(pid, 0)
    wall.append(time.perf_counter() - start)
    cpu.append(usage.ru_utime + usage.ru_stime)
print(f"{statistics.median(wall) * 1000:.2f} {statistics.median(cpu) * 1000:.2f}")
PY
}
peak_mib() { /usr/bin/time -f "%M" -o "$work/rss" "$@" >/dev/null 2>&1 || true; awk '{printf "%.1f", $1/1024}' "$work/rss"; }

row() {  # row LABEL PEER-LABEL -- gkebuild-args… -- peer-command…
  local label=$1 peer_label=$2; shift 3
  local ours=() peer=()
  while [ "$1" != "--" ]; do ours+=("$1"); shift; done
  shift
  peer=("$@")
  local ours_ms ours_cpu peer_ms peer_cpu
  read -r ours_ms ours_cpu < <(median_ms "$gkebuild" "${ours[@]}")
  read -r peer_ms peer_cpu < <(median_ms "${peer[@]}")
  printf '%-32s %7s ms %6s ms %6s MiB   %-26s %8s ms %8s ms %6s MiB %7.1fx\n' "$label" "$ours_ms" "$ours_cpu" \
    "$(peak_mib "$gkebuild" "${ours[@]}")" "$peer_label" "$peer_ms" "$peer_cpu" "$(peak_mib "${peer[@]}")" \
    "$(awk "BEGIN{print $peer_ms / $ours_ms}")"
}

printf 'median of %s runs, whole process; shared libraries of gkebuild: %s\n' "$runs" \
  "$(ldd "$gkebuild" | grep -c '=>')"
printf '%-32s %10s %9s %10s   %-26s %11s %11s %10s %8s\n' "gkebuild" "wall" "cpu" "peak" "peer" "wall" "cpu" "peak" \
  "ratio"
read -r floor_ms floor_cpu < <(median_ms /bin/true)
printf '(floor: /bin/true takes %s ms wall, %s ms CPU here)\n' "$floor_ms" "$floor_cpu"
row "version" "kubectl version --client" -- version -- kubectl version --client
row "render --template t.j2 (x, {})" "python3 jinja2" -- render --template "$work/t.j2" --values "$work/v.json" \
  -- python3 -c 'import jinja2,json,sys; sys.stdout.write(jinja2.Template(open(sys.argv[1]).read()).render(json.load(open(sys.argv[2]))))' "$work/t.j2" "$work/v.json"
row "validate ns.yaml (4 lines)" "kubernetes-validate" -- validate "$work/ns.yaml" -- kubernetes-validate "$work/ns.yaml"
echo "target: every gkebuild command under 5 ms"
