#!/bin/sh
# The image `gkebuild submit --managed IMAGE` runs: this machine's gkebuild, the shared libraries
# it loads (found as workload images find theirs: gkebuild image --stage reads DT_NEEDED), and
# libcurl, which gkebuild opens only when it first talks HTTP (base/libcurl_on_demand.cpp), with
# the libraries libcurl needs. FROM scratch: nothing else is in it.
#
#   scripts/controller-image.sh REGISTRY/REPO[:TAG]   builds, pushes, prints REGISTRY/REPO@sha256:…
#   scripts/controller-image.sh --oci DIR             builds into an OCI layout only
# Other flags after these go to gkebuild image (--insecure-registry, --ca-file …).
set -eu
if [ $# -lt 1 ]; then
  echo "usage: $0 REGISTRY/REPO[:TAG] | --oci DIR  [gkebuild image flags]" >&2
  exit 2
fi
gkebuild=${GKEBUILD:-$(command -v gkebuild)}
ldconfig=$(command -v ldconfig || echo /sbin/ldconfig)  # a user's PATH often lacks /sbin
libcurl=$("$ldconfig" -p | awk '/libcurl\.so\.4 \(libc6,x86-64\)/ {print $NF; exit}')
[ -n "$libcurl" ] || { echo "$0: no libcurl.so.4 on this machine (apt-get install libcurl4)" >&2; exit 1; }
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
# Staging is a side effect of a build; a throwaway one (FROM scratch, into the context) does it.
printf 'FROM scratch\n' > "$context/Dockerfile"
"$gkebuild" image -q --stage "$gkebuild" --stage "$libcurl" --context "$context" -t staging \
  -o "oci:$context/.staging" >/dev/null
rm -rf "$context/.staging"
mv "$context/bin/$(basename "$libcurl")" "$context/lib/libcurl.so.4"  # dlopen()ed from LD_LIBRARY_PATH
cat > "$context/Dockerfile" <<'DOCKERFILE'
FROM scratch
LABEL org.opencontainers.image.title="gkebuild-controller"
ENV LD_LIBRARY_PATH="/opt/gkebuild/lib" HOME="/tmp"
COPY lib/ /opt/gkebuild/lib/
COPY lib/ld-linux-x86-64.so.2 /lib64/ld-linux-x86-64.so.2
COPY bin/gkebuild /opt/gkebuild/bin/gkebuild
ENTRYPOINT ["/opt/gkebuild/bin/gkebuild"]
DOCKERFILE
target=$1
shift
if [ "$target" = "--oci" ]; then
  [ $# -ge 1 ] || { echo "usage: $0 --oci DIR" >&2; exit 2; }
  out=$1
  shift
  exec "$gkebuild" image --context "$context" -t gkebuild-controller -o "oci:$out" "$@"
fi
exec "$gkebuild" image --context "$context" -t "$target" --push "$@"
