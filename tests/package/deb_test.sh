#!/usr/bin/env bash
# `cpack -G DEB`: the .deb holds the binary, manual pages and completions under /usr, and
# installs, runs and purges cleanly with dpkg. dpkg works on a root of its own (--root: a
# scratch folder with an empty package database), so the machine's packages are untouched;
# it must run as root all the same (dpkg sets owners). Exits 77 (skipped) when not root.
# Usage: deb_test.sh BUILD
set -euo pipefail
build=$1
[ "$(id -u)" = 0 ] || { echo "skipped: dpkg needs root"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/out" >"$tmp/cpack.log" 2>&1 || { cat "$tmp/cpack.log"; fail cpack; }
deb=$(ls "$tmp"/out/*.deb)
dpkg-deb -c "$deb" >"$tmp/contents"
for file in ./usr/bin/gkebuild ./usr/share/man/man1/gkebuild.1 ./usr/share/man/man1/gkebuild-submit.1 \
            ./usr/share/bash-completion/completions/gkebuild; do
  grep -q " $file\$" "$tmp/contents" || fail "the .deb lacks $file"
done
[ "$(dpkg-deb -f "$deb" Package)" = gkebuild ] || fail "package name"

root="$tmp/root"
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
# The scratch root has no libc6 package to satisfy Depends; the host's libraries serve.
dpkg --root="$root" --force-depends --force-script-chrootless --log=/dev/null -i "$deb" >"$tmp/dpkg.log" 2>&1 ||
  { cat "$tmp/dpkg.log"; fail "dpkg -i"; }
dpkg --root="$root" -s gkebuild | grep -q '^Status: install ok installed' || fail "not installed"
"$root/usr/bin/gkebuild" version | grep -q '^gkebuild ' || fail "the installed binary does not run"
dpkg --root="$root" --force-depends --force-script-chrootless --log=/dev/null --purge gkebuild >"$tmp/dpkg.log" 2>&1 ||
  { cat "$tmp/dpkg.log"; fail "dpkg --purge"; }
left=$( (find "$root/usr" -type f 2>/dev/null || true) | wc -l)  # purge may remove usr/ itself
[ "$left" = 0 ] || fail "$left files left after purge"
if dpkg --root="$root" -s gkebuild >/dev/null 2>&1; then fail "still known to dpkg after purge"; fi
echo "deb: ok ($(basename "$deb"), $(stat -c %s "$deb") bytes)"
