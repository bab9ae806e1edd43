#!/usr/bin/env bash
# The README's set-up puts gkebuild on the PATH, then the README's walk runs as written, with only
# the installed bin/ and the system's folders on the PATH. Two ways in, as the README's Install
# section gives them:
#   install  scripts/install.sh (what scripts/demo.sh runs) into a scratch prefix;
#   pip      `pip install SOURCE` in a fresh venv: the repository's own build backend
#            (pyproject.toml, scripts/gkebuild_wheel.py) makes the wheel, from BUILD here
#            (GKEBUILD_WHEEL_BUILD) instead of a Release build of its own, which takes minutes;
#   pip-build  the same with that Release build, exactly as the README has it (BUILD unused;
#            scripts/fresh-debian.sh runs it on the fresh machine after the tests).
# The walk's lines up to its first `submit` run here (init, cd, render); submit and report need
# root, runc and a base image, and readme_walk_test runs them.
# Usage: walk_after_install_test.sh BUILD SOURCE [install|pip|pip-build]
set -euo pipefail
build=$1
source=$2
way=${3:-install}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

case $way in
  install)
    bash "$source/scripts/install.sh" --no-setup --no-build --build "$build" --prefix "$tmp/p" >"$tmp/install.log" 2>&1 ||
      { cat "$tmp/install.log"; fail "scripts/install.sh"; }
    ;;
  pip | pip-build)
    python3 -m venv "$tmp/p"
    if [ "$way" = pip ]; then export GKEBUILD_WHEEL_BUILD=$build; else unset GKEBUILD_WHEEL_BUILD; fi
    "$tmp/p/bin/pip" install --no-index --disable-pip-version-check "$source" \
      >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "pip install $source"; }
    ;;
  *) fail "unknown way in: $way" ;;
esac
# No /usr/local/bin: a gkebuild installed there earlier must not stand in for this one.
export PATH="$tmp/p/bin:/usr/sbin:/usr/bin:/sbin:/bin"
[ "$(command -v gkebuild)" = "$tmp/p/bin/gkebuild" ] || fail "gkebuild is not on the PATH after the $way set-up"

mkdir "$tmp/fresh"
cd "$tmp/fresh"
ran=0
while IFS= read -r line; do
  line=${line%%  #*}
  line=${line%"${line##*[! ]}"}
  [ -n "$line" ] || continue
  case $line in
    "gkebuild submit"*) break ;;
    "cd "*) cd "${line#cd }" ;;
    gkebuild*) HOME="$tmp" bash -c "$line" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "the walk's line: $line"; } ;;
    *) fail "the walk runs only gkebuild and cd: $line" ;;
  esac
  ran=$((ran + 1))
done < <(sed -n '/<!-- walk: begin/,/<!-- walk: end -->/p' "$source/README.md" | grep -v '^<!--\|^```')
[ "$ran" -ge 3 ] || fail "only $ran lines of the README's walk ran"
grep -q '^kind: Job$' "$tmp/out" || fail "the walk's render printed no Job"
echo "walk after $way: ok ($ran lines)"
