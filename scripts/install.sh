#!/usr/bin/env bash
# Puts gkebuild on the PATH: builds it as a Release in BUILD (default build/release; configured
# only when BUILD has no CMakeCache.txt yet) and installs it stripped under PREFIX (default
# /usr/local): PREFIX/bin/gkebuild, its manual pages and its bash, zsh and fish completions.
# scripts/demo.sh runs it; run it alone to install without the demo. As root, like setup.
# Usage: scripts/install.sh [--prefix PREFIX] [--build BUILD] [--no-setup] [--no-build]
#   --no-build  installs what BUILD already holds (the tests: the binary under test must not be
#               relinked while other tests run it)
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=/usr/local
build=build/release
setup=yes
build_it=yes
while [ $# -gt 0 ]; do
  case $1 in
    --prefix) prefix=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --no-setup) setup=no; shift ;;
    --no-build) build_it=no; shift ;;
    *) echo "usage: scripts/install.sh [--prefix PREFIX] [--build BUILD] [--no-setup] [--no-build]" >&2; exit 2 ;;
  esac
done
[ "$setup" = no ] || bash scripts/setup.sh
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGKEBUILD_TESTS=OFF -DGKEBUILD_BENCH=OFF >/dev/null
fi
[ "$build_it" = no ] || cmake --build "$build" -j "$(nproc)" --target gkebuild
# Install writes the manual pages and completions itself when the build made none (tool/cli).
cmake --install "$build" --strip --prefix "$prefix" >/dev/null
echo "installed $prefix/bin/gkebuild ($("$prefix/bin/gkebuild" version | head -1)), its manual pages and completions"
if [ "$(command -v gkebuild || true)" != "$prefix/bin/gkebuild" ]; then
  echo "note: $prefix/bin is not first on this shell's PATH; add it: export PATH=\"$prefix/bin:\$PATH\"" >&2
fi
