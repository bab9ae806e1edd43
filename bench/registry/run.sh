#!/usr/bin/env bash
# gkebuild push against skopeo copy, from the same OCI layout to fresh
# repositories on one local docker-registry (plain HTTP on 127.0.0.1):
#   cold push of a ~600 MB image (libcublasLt + a small binary)  target <= 1.0x skopeo
#   the same image again (nothing to upload)                     target <= 0.3x skopeo, 0 bytes
#   after a change to the workload binary only                   bytes sent
# The image is built by `gkebuild image`. Bytes sent are gkebuild's own count
# of request body bytes (-o json bytesSent); the tests check that count against
# a counting proxy.
# Prints wall time, the ratio to skopeo, bytes sent and peak memory (RSS) of
# both tools for each case, and the machine's load average.
# Usage: bench/registry/run.sh [path/to/gkebuild]   (default: build/registry/tool/cli/gkebuild)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
gkebuild=${1:-$root/build/registry/tool/cli/gkebuild}
[ -x "$gkebuild" ] || { echo "no gkebuild binary at $gkebuild (build it first)" >&2; exit 2; }
library=$(ls -S /usr/local/cuda*/lib*/libcublasLt.so.* 2>/dev/null | head -1 || true)
[ -n "$library" ] || { echo "libcublasLt not found under /usr/local/cuda*" >&2; exit 2; }

work=$(mktemp -d /var/tmp/gkebuild-bench-registry.XXXXXX)
registry_pid=""
trap '[ -n "$registry_pid" ] && kill "$registry_pid" 2>/dev/null; rm -rf "$work"' EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
host=127.0.0.1:$port
cat > "$work/registry.yml" <<YAML
version: 0.1
log: {level: error, accesslog: {disabled: true}}
storage: {filesystem: {rootdirectory: $work/data}}
http: {addr: $host, secret: bench}
YAML
docker-registry serve "$work/registry.yml" > "$work/registry.log" 2>&1 &
registry_pid=$!
for _ in $(seq 100); do curl -sf "http://$host/v2/" > /dev/null && break; sleep 0.1; done

mkdir -p "$work/ctx/lib" "$work/ctx/bin"
cp "$library" "$work/ctx/lib/"
head -c 4000000 /dev/urandom > "$work/ctx/bin/app"
printf 'FROM scratch\nCOPY lib/ /opt/gkebuild/lib/\nCOPY bin/ /opt/gkebuild/bin/\nENTRYPOINT ["/opt/gkebuild/bin/app"]\n' \
  > "$work/ctx/Dockerfile"
build() { SOURCE_DATE_EPOCH=0 "$gkebuild" image --quiet --context "$work/ctx" --tag "bench:$1" --output "oci:$work/oci"; }
build 1
echo "changed" >> "$work/ctx/bin/app"
build 2
cat "$work/oci/blobs/sha256/"* > /dev/null  # the same warm page cache for both tools

declare -A wall peak
time_of() {  # time_of LABEL COMMAND…: wall seconds and peak RSS (KiB)
  local label=$1; shift
  /usr/bin/time -f '%e %M' -o "$work/time" "$@" > "$work/out.$label" 2> "$work/err" || { cat "$work/err" >&2; exit 1; }
  read -r wall[$label] peak[$label] < "$work/time"
}
# /usr/bin/time runs programs, not shell functions: the commands are spelled out.
skopeo_copy=(skopeo copy -q --dest-tls-verify=false)
gk_push=("$gkebuild" push -q -o json)
bytes_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[0]["bytesSent"])' "$work/out.$1"; }

time_of skopeo_cold "${skopeo_copy[@]}" "oci:$work/oci:bench:1" "docker://$host/skopeo/app:1"
time_of gk_cold "${gk_push[@]}" "oci:$work/oci:bench:1" "$host/gkebuild/app:1"
time_of skopeo_warm "${skopeo_copy[@]}" "oci:$work/oci:bench:1" "docker://$host/skopeo/app:1"
time_of gk_warm "${gk_push[@]}" "oci:$work/oci:bench:1" "$host/gkebuild/app:1"
time_of skopeo_change "${skopeo_copy[@]}" "oci:$work/oci:bench:2" "docker://$host/skopeo/app:2"
time_of gk_change "${gk_push[@]}" "oci:$work/oci:bench:2" "$host/gkebuild/app:2"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
image_mb=$(du -sm "$work/oci/blobs" | cut -f1)
echo "image: ${image_mb} MB of blobs in the layout (two tags), $(nproc) cores, registry $host"
echo "load while measuring:$(uptime | sed 's/.*load average/ load average/')"
printf '%-26s %9s %9s %6s  %-13s %12s %12s  %s\n' "" "gkebuild" "skopeo" "ratio" "bytes sent" \
  "peak gkebuild" "peak skopeo" "target"
row() {
  printf '%-26s %8ss %8ss %6s  %9s MB %9s MB %9s MB  %s\n' "$1" "${wall[gk_$2]}" "${wall[skopeo_$2]}" \
    "$(ratio "${wall[gk_$2]}" "${wall[skopeo_$2]}")" "$(mb "$(bytes_of "gk_$2")")" \
    "$((peak[gk_$2] / 1024))" "$((peak[skopeo_$2] / 1024))" "$3"
}
row "cold push" cold "ratio <= 1.0"
row "same image again" warm "ratio <= 0.3, 0 bytes"
row "workload binary changed" change "bytes sent ~ the bin/ layer"
