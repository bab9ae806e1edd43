#!/usr/bin/env bash
# gkebuild validate against kubernetes-validate --strict (both on the Kubernetes 1.37
# schemas kubernetes-validate ships):
#   5,000 manifests of mixed kinds in one run     target >= 20x faster, peak memory printed
#   one small file, whole process, as pre-commit runs it   target < 20 ms
#   the upstream corpus (tests/tool/steps/validate/upstream), one process and one per file   target >= 20x (upstream.sh)
# Usage: bench/validate/run.sh [path/to/gkebuild] [count]
#        (default: build/validate/tool/cli/gkebuild, 5000)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
gkebuild=${1:-$root/build/validate/tool/cli/gkebuild}
count=${2:-5000}
[ -x "$gkebuild" ] || { echo "no gkebuild binary at $gkebuild (build it first)" >&2; exit 2; }
command -v kubernetes-validate >/dev/null || { echo "kubernetes-validate is not installed (scripts/setup.sh)" >&2; exit 2; }

work=$(mktemp -d /var/tmp/gkebuild-bench-validate.XXXXXX)
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME=$work/cache
python3 "$root/bench/validate/make_manifests.py" "$work/m" "$count"

# One run to fill the schema cache, as a developer's second commit would find it.
"$gkebuild" validate -k 1.37 --fail-on never "$work/m" >/dev/null

measure() {  # runs "$@" with stdout to $work/out; prints "wall_s user_s peak_kib"
  /usr/bin/time -f "%e %U %M" -o "$work/time" "$@" >"$work/out" 2>/dev/null || true
  tail -1 "$work/time"
}
ratio() { python3 -c "print(f'{$1 / max($2, 0.001):.1f}')"; }
read -r ours_s ours_cpu ours_kib < <(measure "$gkebuild" validate -k 1.37 -o json --fail-on never "$work/m")
ours_bad=$(python3 -c 'import json,sys; print(len({f["file"] for f in json.load(open(sys.argv[1])) if f["rule"]=="schema"}))' "$work/out")
read -r theirs_s theirs_cpu theirs_kib < <(cd "$work/m" && measure kubernetes-validate --strict --quiet -k 1.37 m*.yaml)
theirs_bad=$(grep -c '^ERROR' "$work/out" || true)
echo "validate $count manifests: gkebuild ${ours_s}s wall ${ours_cpu}s CPU (peak ${ours_kib} KiB);" \
     "kubernetes-validate ${theirs_s}s wall ${theirs_cpu}s CPU (peak ${theirs_kib} KiB)"
echo "  ratio: $(ratio "$theirs_s" "$ours_s")x wall, $(ratio "$theirs_cpu" "$ours_cpu")x CPU (target >= 20x)"
echo "  files with schema errors: gkebuild $ours_bad, kubernetes-validate $theirs_bad"

small=$work/m/m00002.yaml
runs=50
start=$(date +%s%N)
for _ in $(seq $runs); do "$gkebuild" validate --fail-on never "$small" >/dev/null; done
end=$(date +%s%N)
ours_ms=$(python3 -c "print(f'{($end - $start) / $runs / 1e6:.1f}')")
start=$(date +%s%N)
for _ in 1 2 3; do kubernetes-validate --strict --quiet "$small" >/dev/null || true; done
end=$(date +%s%N)
theirs_ms=$(python3 -c "print(f'{($end - $start) / 3 / 1e6:.0f}')")
read -r _ small_cpu small_kib < <(measure "$gkebuild" validate --fail-on never "$small")
echo "one small file, whole process: gkebuild ${ours_ms} ms wall (${small_cpu}s CPU, peak ${small_kib} KiB), kubernetes-validate ${theirs_ms} ms (target < 20 ms)"

# The upstream corpus: one process for all files and one per file (bench/validate/upstream.sh).
"$root/bench/validate/upstream.sh" "$gkebuild"
