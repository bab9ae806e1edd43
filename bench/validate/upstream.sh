#!/usr/bin/env bash
# gkebuild validate against kubernetes-validate --strict on the upstream corpus
# (tests/tool/steps/validate/upstream: the GPU manifests and validator fixtures others wrote), both
# on the Kubernetes 1.37 schemas kubernetes-validate ships:
#   one process for all files                     target >= 20x faster
#   one process per file (a pre-commit hook per file)  target >= 20x faster
# kubernetes-validate's CLI stops at the first file PyYAML cannot parse (the corpus has
# three), so the one-process run calls its validate() for every document in one Python
# process (tests/tool/steps/validate/corpus/kubernetes_validate_verdicts.py); the per-file run uses
# its CLI, as a hook would.
# Usage: bench/validate/upstream.sh [path/to/gkebuild]   (default: build/validate/tool/cli/gkebuild)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
gkebuild=$(realpath "${1:-$root/build/validate/tool/cli/gkebuild}")
[ -x "$gkebuild" ] || { echo "no gkebuild binary at $gkebuild (build it first)" >&2; exit 2; }
command -v kubernetes-validate >/dev/null || { echo "kubernetes-validate is not installed (scripts/setup.sh)" >&2; exit 2; }

work=$(mktemp -d /var/tmp/gkebuild-bench-upstream.XXXXXX)
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME=$work/cache GITHUB_ACTIONS=
cd "$root/tests/tool/steps/validate/upstream"
find . -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.json' \) ! -name 'grafanaalertrulegroup_v1beta1.json' |
  sed 's|^\./||' | sort >"$work/files"
mapfile -t files <"$work/files"
verdicts=$root/tests/tool/steps/validate/corpus/kubernetes_validate_verdicts.py

measure() {  # runs "$@" with stdout to $work/out; prints "wall_s cpu_s peak_kib" (CPU: user+sys, children included)
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >"$work/out" 2>/dev/null || true
  tail -1 "$work/time" | awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}'
}
ratio() { python3 -c "print(f'{$1 / max($2, 0.001):.1f}')"; }

"$gkebuild" validate -k 1.37 --fail-on never "${files[@]}" >/dev/null  # fills the schema cache
read -r ours_s ours_cpu ours_kib < <(measure "$gkebuild" validate -k 1.37 --fail-on never "${files[@]}")
read -r theirs_s theirs_cpu theirs_kib < <(measure python3 "$verdicts" 1.37 "${files[@]}")
echo "upstream corpus, ${#files[@]} files, one process: gkebuild ${ours_s}s wall ${ours_cpu}s CPU (peak ${ours_kib} KiB);" \
     "kubernetes-validate ${theirs_s}s wall ${theirs_cpu}s CPU (peak ${theirs_kib} KiB)"
echo "  ratio: $(ratio "$theirs_s" "$ours_s")x wall, $(ratio "$theirs_cpu" "$ours_cpu")x CPU (target >= 20x)"

per_file() {  # the command line "$@" once per file
  for f in "${files[@]}"; do "$@" "$f" >/dev/null 2>&1 || true; done
}

read -r ours_s ours_cpu _ < <(measure bash -c "$(declare -p files); $(declare -f per_file); per_file \"$gkebuild\" validate -k 1.37 --fail-on never")
read -r theirs_s theirs_cpu _ < <(measure bash -c "$(declare -p files); $(declare -f per_file); per_file kubernetes-validate --strict --quiet -k 1.37")
echo "upstream corpus, one process per file: gkebuild ${ours_s}s wall ${ours_cpu}s CPU;" \
     "kubernetes-validate ${theirs_s}s wall ${theirs_cpu}s CPU"
echo "  ratio: $(ratio "$theirs_s" "$ours_s")x wall, $(ratio "$theirs_cpu" "$ours_cpu")x CPU (target >= 20x)"
