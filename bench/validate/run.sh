#!/usr/bin/env bash
# gkebuild validate against kubernetes-validate --strict (both on the Kubernetes 1.37
# schemas kubernetes-validate ships):
#   5,000 manifests of mixed kinds in one run     target >= 20x faster, peak memory printed
#   one small file, whole process, as pre-commit runs it   target < 20 ms
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

measure() {  # prints "seconds peak_kib"
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>&1 || true
  cat "$work/time"
}
read -r ours_s ours_kib < <(measure "$gkebuild" validate -k 1.37 --fail-on never "$work/m")
read -r theirs_s theirs_kib < <(cd "$work/m" && measure kubernetes-validate --strict --quiet -k 1.37 m*.yaml)
echo "validate $count manifests: gkebuild ${ours_s}s (peak ${ours_kib} KiB), kubernetes-validate ${theirs_s}s (peak ${theirs_kib} KiB), ratio $(python3 -c "print(f'{$theirs_s / max($ours_s, 0.001):.1f}')")x faster (target >= 20x)"

# Findings are the same size either way; check both found the broken files.
ours_bad=$("$gkebuild" validate -k 1.37 -o json --fail-on never "$work/m" | python3 -c 'import json,sys; print(len({f["file"] for f in json.load(sys.stdin) if f["rule"]=="schema"}))')
theirs_bad=$(cd "$work/m" && kubernetes-validate --strict --quiet -k 1.37 m*.yaml | grep -c '^ERROR' || true)
echo "files with schema errors: gkebuild $ours_bad, kubernetes-validate $theirs_bad"

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
read -r _ small_kib < <(measure "$gkebuild" validate --fail-on never "$small")
echo "one small file, whole process: gkebuild ${ours_ms} ms (peak ${small_kib} KiB), kubernetes-validate ${theirs_ms} ms (target < 20 ms)"
