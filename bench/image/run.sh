#!/usr/bin/env bash
# gkebuild image against its peers:
#   (a) a ~540 MB CUDA library layer (libcublasLt from the toolkit) plus a small binary, FROM scratch:
#       cold gzip build to an OCI layout      vs  buildah bud + buildah push oci:DIR
#       cold zstd build                        vs  tar -c | zstd -T0 (the hardware floor)
#       rebuild after changing only the binary (cache hit on the library layer)
#       peak memory of the cold build
#   (b) five RUN steps and a COPY on a busybox base (Debian's busybox-static), cold, vs buildah bud --layers
#   (c) the same after changing the COPY source: only what follows it runs again
# (b) and (c) need root and runc; they are skipped with a note otherwise.
# Usage: bench/image/run.sh [path/to/gkebuild]   (default: build/images/gkebuild)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
gkebuild=${1:-$root/build/images/gkebuild}
[ -x "$gkebuild" ] || { echo "no gkebuild binary at $gkebuild (build it first)" >&2; exit 2; }
library=$(ls -S /usr/local/cuda*/lib*/libcublasLt.so.* /usr/local/cuda*/targets/*/lib/libcublasLt.so.* 2>/dev/null | head -1 || true)
[ -n "$library" ] || { echo "libcublasLt not found under /usr/local/cuda*" >&2; exit 2; }

work=$(mktemp -d /var/tmp/gkebuild-bench-image.XXXXXX)
trap 'buildah --root "$work/b-root" --runroot "$work/b-run" --storage-driver vfs rmi --all --force >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
mkdir -p "$work/ctx/lib" "$work/ctx/bin"
cp "$library" "$work/ctx/lib/"
cp /bin/true "$work/ctx/bin/app"
cat > "$work/ctx/Dockerfile" <<'DOCKERFILE'
FROM scratch
ENV PATH=/usr/local/nvidia/bin:/opt/gkebuild/bin:/usr/bin:/bin LD_LIBRARY_PATH=/usr/local/nvidia/lib64:/opt/gkebuild/lib
COPY lib/ /opt/gkebuild/lib/
COPY bin/ /opt/gkebuild/bin/
ENTRYPOINT ["/opt/gkebuild/bin/app"]
DOCKERFILE
cat "$work/ctx/lib/"* "$work/ctx/bin/app" > /dev/null  # same warm page cache for every tool
size_mb=$(du -sm "$work/ctx" | cut -f1)

# time_of LABEL COMMAND…: runs it, records wall seconds and peak RSS (KiB).
declare -A wall peak
time_of() {
  local label=$1; shift
  /usr/bin/time -f '%e %M' -o "$work/time" "$@" > /dev/null 2> "$work/err" || { cat "$work/err" >&2; exit 1; }
  read -r wall[$label] peak[$label] < "$work/time"
}
build=(env SOURCE_DATE_EPOCH=0 "$gkebuild" image --quiet --context "$work/ctx" --tag bench:1)
buildah_=(buildah --root "$work/b-root" --runroot "$work/b-run" --storage-driver vfs)

time_of gzip "${build[@]}" --output "oci:$work/oci-gzip"
time_of zstd "${build[@]}" --compression zstd --output "oci:$work/oci-zstd"
time_of bud "${buildah_[@]}" bud --isolation chroot -q -t localhost/bench:1 "$work/ctx"
time_of push "${buildah_[@]}" push -q localhost/bench:1 "oci:$work/oci-buildah:bench"
time_of tarzstd sh -c "tar -C '$work/ctx' -cf - lib bin | zstd -q -T0 -3 > '$work/floor.tar.zst'"
echo "changed" >> "$work/ctx/bin/app"
time_of rebuild "${build[@]}" --output "oci:$work/oci-gzip"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
buildah_total=$(awk -v a="${wall[bud]}" -v b="${wall[push]}" 'BEGIN { printf "%.2f", a + b }')
echo "context: $size_mb MB ($(basename "$library") + a small binary), $(nproc) cores"
printf '%-44s %8s %10s %10s\n' "" "seconds" "peer (s)" "ratio"
printf '%-44s %8s %10s %10s   (target <= 0.5)\n' "cold gzip build vs buildah bud + push oci:" \
  "${wall[gzip]}" "$buildah_total" "$(ratio "${wall[gzip]}" "$buildah_total")"
printf '%-44s %8s %10s\n' "  buildah bud / buildah push" "" "${wall[bud]} / ${wall[push]}"
printf '%-44s %8s %10s %10s   (target <= 1.3)\n' "cold zstd build vs tar -c | zstd -T0" \
  "${wall[zstd]}" "${wall[tarzstd]}" "$(ratio "${wall[zstd]}" "${wall[tarzstd]}")"
printf '%-44s %8s %10s %10s   (target < 0.25 s and < 0.03)\n' "rebuild, binary changed (vs cold gzip)" \
  "${wall[rebuild]}" "${wall[gzip]}" "$(ratio "${wall[rebuild]}" "${wall[gzip]}")"
printf '%-44s %7s MB (zstd %s MB, buildah push %s MB; target < 100)\n' "peak memory, cold gzip build" \
  "$((peak[gzip] / 1024))" "$((peak[zstd] / 1024))" "$((peak[push] / 1024))"
printf '%-44s %s / %s MB\n' "layer blobs gzip / zstd" \
  "$(du -sm "$work/oci-gzip/blobs" | cut -f1)" "$(du -sm "$work/oci-zstd/blobs" | cut -f1)"

# (b) and (c): RUN steps on a busybox base that both tools read from the same OCI layout.
if [ "$(id -u)" != 0 ] || ! command -v runc > /dev/null || [ ! -x /bin/busybox ]; then
  echo "(b), (c) skipped: they need root, runc and /bin/busybox (busybox-static)"
  exit 0
fi
# buildah reads `FROM oci:PATH:TAG` only from a path without capitals (mktemp's has some).
base=/var/tmp/gkebuild-bench-base.$$
trap 'buildah --root "$work/b-root" --runroot "$work/b-run" --storage-driver vfs rmi --all --force >/dev/null 2>&1 || true; rm -rf "$work" "$base"' EXIT
mkdir -p "$work/base-ctx/bin" "$work/run-ctx"
cp /bin/busybox "$work/base-ctx/bin/"
for applet in sh echo cat mkdir rm touch seq sha256sum; do ln -s busybox "$work/base-ctx/bin/$applet"; done
printf 'FROM scratch\nCOPY bin/ /bin/\n' > "$work/base-ctx/Dockerfile"
env SOURCE_DATE_EPOCH=0 "$gkebuild" image --quiet --context "$work/base-ctx" --tag busybox:1 \
  --output "oci:$base" > /dev/null
echo "first" > "$work/run-ctx/input.txt"
cat > "$work/run-ctx/Dockerfile" <<DOCKERFILE
FROM oci:$base:busybox:1
RUN mkdir -p /data && seq 1 20000 > /data/numbers
RUN sha256sum /data/numbers > /data/numbers.sha256
RUN rm /data/numbers && touch /data/removed
COPY input.txt /app/input.txt
RUN cat /app/input.txt /data/numbers.sha256 > /app/summary
RUN echo done > /app/done
DOCKERFILE
time_of runcold env SOURCE_DATE_EPOCH=0 "$gkebuild" image --quiet --context "$work/run-ctx" --tag steps:1 \
  --output "oci:$work/oci-steps"
time_of budsteps "${buildah_[@]}" bud --isolation chroot --layers -q -t localhost/steps:1 "$work/run-ctx"
echo "second" > "$work/run-ctx/input.txt"
time_of runwarm env SOURCE_DATE_EPOCH=0 "$gkebuild" image --quiet --context "$work/run-ctx" --tag steps:1 \
  --output "oci:$work/oci-steps"
time_of budwarm "${buildah_[@]}" bud --isolation chroot --layers -q -t localhost/steps:1 "$work/run-ctx"
printf '%-44s %8s %10s %10s   (target <= 1)\n' "(b) five RUNs + COPY, cold, vs buildah bud" \
  "${wall[runcold]}" "${wall[budsteps]}" "$(ratio "${wall[runcold]}" "${wall[budsteps]}")"
printf '%-44s %8s %10s %10s   (target < 0.5 s)\n' "(c) after changing the COPY source" \
  "${wall[runwarm]}" "${wall[budwarm]}" "$(ratio "${wall[runwarm]}" "${wall[budwarm]}")"
printf '%-44s %7s MB (buildah %s MB)\n' "peak memory, (b)" "$((peak[runcold] / 1024))" "$((peak[budsteps] / 1024))"
