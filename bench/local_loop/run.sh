#!/usr/bin/env bash
# The inner loop of issue 42, whole process: a project on a 300 MB base (30 random 10 MB files and
# busybox, FROM scratch, so no network is needed), one line of its script edited, then one local
# point run (`submit --local`: build, unpack what is new, run under runc). Prints the wall time of
# each of 3 edit-and-run cycles, gkebuild's peak memory and the project's .gkebuild size after.
# As root (runc). Usage: bench/local_loop/run.sh GKEBUILD [GKEBUILD_BEFORE]
#   GKEBUILD_BEFORE: an older binary to run beside it (one that needs `accelerators:`).
set -euo pipefail
now_binary=$(realpath "$1")
before_binary=$([ $# -gt 1 ] && realpath "$2" || true)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
make_project() {
  mkdir -p "$1/big"
  for i in $(seq 1 30); do head -c 10M /dev/urandom >"$1/big/f$i"; done
  cp /bin/busybox "$1/"
  printf 'FROM scratch\nCOPY busybox /bin/busybox\nCOPY big/ /big/\nCOPY run.sh /run.sh\nCMD ["/bin/busybox","sh","/run.sh"]\n' >"$1/Dockerfile"
  echo 'echo "{\"schema\":\"gkebuild.workload.v1\",\"workload\":\"w\",\"metric\":\"m\",\"value\":1,\"unit\":\"\"}"' >"$1/run.sh"
  printf 'apiVersion: gkebuild/v1\nproject: loop\nregistry: registry.test/x\nimages:\n  app: {dockerfile: Dockerfile}\nexperiments:\n  one: {image: app, accelerators: [nvidia-l4]}\n' >"$1/gkebuild.yaml"
}
loop() {  # BINARY FOLDER
  (cd "$2" && "$1" submit one --local >/dev/null 2>&1)  # the first build and unpack
  for i in 1 2 3; do
    echo "# edit $i" >>"$2/run.sh"
    (cd "$2" && /usr/bin/time -f "  edit $i + one point: %e s wall, %M KB peak" "$1" submit one --local 2>&1 >/dev/null | tail -1)
  done
  echo "  $2/.gkebuild after 4 versions: $(du -sh "$2/.gkebuild" | cut -f1)"
}
make_project "$work/now"
echo "$now_binary:"
GKEBUILD_CACHE_DIR="$work/cache" GKEBUILD_RUNTIME_DIR="$work/runtime" loop "$now_binary" "$work/now"
if [ -n "$before_binary" ]; then
  cp -r "$work/now" "$work/before" && rm -rf "$work/before/.gkebuild"
  echo "$before_binary:"
  loop "$before_binary" "$work/before"
fi
