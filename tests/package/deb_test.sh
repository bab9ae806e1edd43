#!/usr/bin/env bash
# `cpack -G DEB`: the .deb holds the binary, manual pages (gzip -9n) and completions under /usr,
# recommends runc (or crun) for `submit --local`, and
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
for file in ./usr/bin/gkebuild ./usr/share/man/man1/gkebuild.1.gz ./usr/share/man/man1/gkebuild-submit.1.gz \
            ./usr/share/bash-completion/completions/gkebuild; do
  grep -q " $file\$" "$tmp/contents" || fail "the .deb lacks $file"
done
[ "$(dpkg-deb -f "$deb" Package)" = gkebuild ] || fail "package name"
# Debian policy 12.3: manual pages gzip -9n, none left uncompressed; `submit --local` wants runc.
if grep -q '/man/.*\.1$' "$tmp/contents"; then fail "uncompressed manual pages: $(grep '/man/.*\.1$' "$tmp/contents")"; fi
[ "$(dpkg-deb -f "$deb" Recommends)" = "runc | crun" ] || fail "Recommends: $(dpkg-deb -f "$deb" Recommends)"

root="$tmp/root"
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
# The scratch root has no libc6 package to satisfy Depends; the host's libraries serve.
dpkg --root="$root" --force-depends --force-script-chrootless --log=/dev/null -i "$deb" >"$tmp/dpkg.log" 2>&1 ||
  { cat "$tmp/dpkg.log"; fail "dpkg -i"; }
dpkg --root="$root" -s gkebuild | grep -q '^Status: install ok installed' || fail "not installed"
"$root/usr/bin/gkebuild" version | grep -q '^gkebuild ' || fail "the installed binary does not run"
page="$root/usr/share/man/man1/gkebuild-render.1.gz"
[ "$(od -An -tx1 -j3 -N5 "$page" | tr -d ' ')" = 0000000000 ] || fail "gkebuild-render.1.gz keeps a name or time (not gzip -n)"
gzip -t "$page" || fail "gkebuild-render.1.gz is no gzip file"
man -l "$page" 2>/dev/null | grep -q "gkebuild render" || fail "man cannot show the packaged gkebuild-render.1.gz"
dpkg --root="$root" --force-depends --force-script-chrootless --log=/dev/null --purge gkebuild >"$tmp/dpkg.log" 2>&1 ||
  { cat "$tmp/dpkg.log"; fail "dpkg --purge"; }
left=$( (find "$root/usr" -type f 2>/dev/null || true) | wc -l)  # purge may remove usr/ itself
[ "$left" = 0 ] || fail "$left files left after purge"
if dpkg --root="$root" -s gkebuild >/dev/null 2>&1; then fail "still known to dpkg after purge"; fi
echo "deb: ok ($(basename "$deb"), $(stat -c %s "$deb") bytes)"
