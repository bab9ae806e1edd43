#!/usr/bin/env bash
# Issue 14's benchmark (b) and (c): a Dockerfile with five RUN steps and a COPY on a busybox
# base, built cold by gkebuild (fresh OCI layout: the base is unpacked, every RUN runs) and by
# buildah bud (fresh vfs storage, --isolation chroot), then rebuilt by gkebuild after changing
# only the COPY's source (every RUN cached). Needs root, runc, buildah and busybox-static.
# Usage: bench/image/five_runs.sh [path/to/gkebuild] [RUNS]   (default: build/test/tool/cli/gkebuild, 3)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
gkebuild=${1:-$root/build/test/tool/cli/gkebuild}
runs=${2:-3}
[ -x "$gkebuild" ] || { echo "no gkebuild binary at $gkebuild (build it first)" >&2; exit 2; }
[ -x /bin/busybox ] || { echo "no /bin/busybox (apt-get install busybox-static)" >&2; exit 2; }

# buildah names an oci: base after its path, which must be lower case.
work=/var/tmp/gkebuild-bench-runs.$$.$RANDOM
mkdir "$work"
trap 'rm -rf "$work"' EXIT

# The base: FROM scratch + busybox, its applets as symlinks, /etc/passwd (built by gkebuild's COPY).
mkdir -p "$work/base/bin" "$work/base/etc" "$work/base/proc" "$work/base/dev" "$work/base/sys" "$work/base/tmp"
cp /bin/busybox "$work/base/bin/"
for applet in sh cat wc echo ls rm mkdir; do ln -s busybox "$work/base/bin/$applet"; done
printf 'root:x:0:0:root:/root:/bin/sh\n' > "$work/base/etc/passwd"
touch "$work/base/etc/hosts" "$work/base/etc/resolv.conf" "$work/base/etc/hostname"
printf 'FROM scratch\nCOPY . /\n' > "$work/Dockerfile.base"
"$gkebuild" image --quiet --dockerfile "$work/Dockerfile.base" --context "$work/base" --tag busybox:1 \
  --output "oci:$work/base-oci" > /dev/null

mkdir -p "$work/ctx"
echo "version 1" > "$work/ctx/app.txt"
{
  echo "FROM oci:$work/base-oci:busybox:1"
  for i in 1 2 3 4 5; do echo "RUN echo $i > /step$i && cat /step* | wc -l > /count"; done
  echo "COPY app.txt /app.txt"
} > "$work/ctx/Dockerfile"

seconds() { /usr/bin/time -f %e -o "$work/time" "$@" > /dev/null 2> "$work/err" || { cat "$work/err" >&2; exit 1; }; cat "$work/time"; }
gk=(env SOURCE_DATE_EPOCH=0 "$gkebuild" image --quiet --context "$work/ctx" --tag five:1)
bh=(buildah --storage-driver vfs --root "$work/b-root" --runroot "$work/b-run")

printf '%-6s %14s %14s %16s\n' run "gkebuild (s)" "buildah (s)" "rebuild COPY (s)"
for run in $(seq "$runs"); do
  rm -rf "$work/oci" "$work/b-root" "$work/b-run"
  cold=$(seconds "${gk[@]}" --output "oci:$work/oci")
  peer=$(seconds "${bh[@]}" bud --quiet --isolation chroot -t localhost/five:1 "$work/ctx")
  echo "version $run$RANDOM" > "$work/ctx/app.txt"
  warm=$(seconds "${gk[@]}" --output "oci:$work/oci")
  printf '%-6s %14s %14s %16s\n' "$run" "$cold" "$peer" "$warm"
  "${bh[@]}" rmi --all --force > /dev/null 2>&1 || true
done
echo "$(nproc) cores; targets: cold gkebuild no slower than buildah, rebuild under 0.5 s"
