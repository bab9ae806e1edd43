#!/usr/bin/env bash
# `cmake --install BUILD --prefix P`: P/bin/gkebuild, a manual page for gkebuild and for each
# command it lists (valid roff: groff warns of nothing), the bash, zsh and fish completions,
# and an installed binary that renders a project from a folder far from the source tree (the
# templates and the catalog are compiled in); from a build folder whose pages were never written
# too. Usage: install_test.sh BUILD SOURCE
set -euo pipefail
build=$1
source=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# As in a build folder where only the gkebuild target was built (scripts/demo.sh's): no pages or
# completions written yet. Install writes them itself.
rm -rf "$build/tool/cli/share" "$build/tool/cli/docs.stamp"
cmake --install "$build" --prefix "$tmp/p" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "cmake --install"; }
[ -f "$build/tool/cli/docs.stamp" ] || fail "install wrote no pages into the build folder"
bin="$tmp/p/bin/gkebuild"
[ -x "$bin" ] || fail "no $bin"
for file in share/bash-completion/completions/gkebuild share/zsh/site-functions/_gkebuild \
            share/fish/vendor_completions.d/gkebuild.fish share/man/man1/gkebuild.1; do
  [ -s "$tmp/p/$file" ] || fail "no $file"
done
bash -n "$tmp/p/share/bash-completion/completions/gkebuild" || fail "bash -n refuses the completion script"

# One page per command --help lists, and no page for a hidden one.
commands=$("$bin" --help | sed -n '/^Subcommands:/,$p' | awk '/^  [a-z]/ {print $1}')
[ "$(echo "$commands" | wc -l)" -ge 14 ] || fail "too few commands: $commands"
for command in $commands; do
  page="$tmp/p/share/man/man1/gkebuild-$command.1"
  [ -s "$page" ] || fail "no manual page for $command"
  grep -q '^\.SH OPTIONS' "$page" || fail "gkebuild-$command.1 has no OPTIONS"
  warnings=$(groff -man -ww -z "$page" 2>&1)
  [ -z "$warnings" ] || fail "groff on gkebuild-$command.1: $warnings"
done
[ ! -e "$tmp/p/share/man/man1/gkebuild-__complete.1" ] || fail "a page for a hidden command"
grep -q -- '\\-\\-values' "$tmp/p/share/man/man1/gkebuild-render.1" || fail "render's page lacks --values"
man -l "$tmp/p/share/man/man1/gkebuild-render.1" 2>/dev/null | grep -q "gkebuild render" ||
  fail "man cannot show gkebuild-render.1"

# From any folder: a project copied far from the source tree, rendered by the installed binary.
mkdir -p "$tmp/elsewhere"
cp "$source/examples/gemm-compare/gkebuild.yaml" "$tmp/elsewhere/"
pinned=127.0.0.1:5000/gemm@sha256:0000000000000000000000000000000000000000000000000000000000000000
(cd "$tmp/elsewhere" && HOME="$tmp" "$bin" render experiment/gemm --run-id r1 --image "gemm=$pinned") >"$tmp/out.yaml" ||
  fail "the installed binary cannot render"
grep -q '^kind: Job' "$tmp/out.yaml" || fail "no Job rendered"
(cd / && HOME="$tmp" "$bin" version) | grep -q '^gkebuild ' || fail "version"
echo "install: ok ($(echo $commands | wc -w) commands, $(ls "$tmp/p/share/man/man1" | wc -l) pages)"
