#!/usr/bin/env bash
# The inner loop of issue 42 on a real base, whole process, beside the peer in one run: a Debian 12
# root file system with python3, numpy and scikit-learn from Debian's packages (debootstrap, about
# 0.5-1 GB, made once and kept in $BENCH_CACHE), a third-party-style script (a numpy MLP on
# scikit-learn's digits), one line of it edited, then one point run to its end:
#   gkebuild: `submit one --local` (build, then a container on an overlay of the unpacked layers);
#   buildah + runc: `buildah --storage-driver vfs bud`, `buildah from` + `buildah mount` of the new
#   image, `runc run` of a bundle on that root, then `buildah rm`;
# each 3 times, wall time and peak memory. Then what issue 42 asks of the store: a second project on
# the same base (blobs written to the store, its .gkebuild/ size) and the disk 10 edit-and-run
# cycles add. As root (runc, buildah's vfs store). Usage:
#   bench/local_loop/python_base.sh GKEBUILD      (BENCH_CACHE=/var/tmp/gkebuild-bench by default)
set -euo pipefail
gkebuild=$(realpath "$1")
cache=${BENCH_CACHE:-/var/tmp/gkebuild-bench}
work=/var/tmp/gkebuild-loop-$$  # lower case: buildah takes oci:PATH as an image name
rm -rf "$work" && mkdir -p "$work"
export GKEBUILD_CACHE_DIR="$work/store" GKEBUILD_RUNTIME_DIR="$work/runtime"
buildah_root="$work/buildah"
buildah=(buildah --root "$buildah_root/storage" --runroot "$buildah_root/run" --storage-driver vfs)
cleanup() { "${buildah[@]}" rm --all >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT

base_rootfs="$cache/debian-python/rootfs"
if [ ! -x "$base_rootfs/usr/bin/python3" ]; then
  command -v debootstrap >/dev/null || apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
  rm -rf "$cache/debian-python" && mkdir -p "$cache/debian-python"
  echo "# debootstrap of bookworm with python3-numpy and python3-sklearn (once; kept in $cache)"
  debootstrap --variant=minbase --include=python3,python3-numpy,python3-sklearn bookworm "$base_rootfs" \
    http://deb.debian.org/debian >"$cache/debian-python/debootstrap.log" 2>&1
fi
# Not part of an image: downloaded packages, and device nodes (a container runtime makes /dev).
rm -rf "$base_rootfs"/var/cache/apt/archives/*.deb "$base_rootfs"/dev/*
echo "base: Debian 12 + python3-numpy + python3-sklearn, $(du -sh "$base_rootfs" | cut -f1) unpacked"
if [ ! -f "$cache/debian-python/oci/index.json" ]; then  # the base as an OCI layout, made once too
  printf 'FROM scratch\nCOPY rootfs/ /\nCMD ["python3"]\n' >"$cache/debian-python/Dockerfile"
  "$gkebuild" image -q --dockerfile "$cache/debian-python/Dockerfile" --context "$cache/debian-python" --tag base:1 \
    -o "oci:$cache/debian-python/oci" >/dev/null
fi
base="$cache/debian-python/oci"
echo "base image: $(du -sh "$base" | cut -f1) as an OCI layout (one layer, gzip)"

make_project() {  # FOLDER
  mkdir -p "$1"
  cat >"$1/train.py" <<'PY'
import json, time
import numpy as np
from sklearn.datasets import load_digits
digits = load_digits()
x, y = digits.data / 16.0, digits.target
rng = np.random.default_rng(0)
w1 = rng.normal(0, 0.1, (64, 32)); w2 = rng.normal(0, 0.1, (32, 10))
start = time.time()
for epoch in range(20):
    h = np.maximum(x @ w1, 0); logits = h @ w2
    p = np.exp(logits - logits.max(1, keepdims=True)); p /= p.sum(1, keepdims=True)
    grad = p.copy(); grad[np.arange(len(y)), y] -= 1; grad /= len(y)
    gw2 = h.T @ grad; gh = grad @ w2.T; gh[h <= 0] = 0; gw1 = x.T @ gh
    w1 -= 0.5 * gw1; w2 -= 0.5 * gw2
accuracy = float((p.argmax(1) == y).mean())
print(json.dumps({"schema": "gkebuild.workload.v1", "workload": "digits-mlp", "metric": "train_accuracy",
                  "value": accuracy, "unit": ""}))
PY
  printf 'FROM oci:%s:base:1\nWORKDIR /app\nCOPY train.py /app/\nCMD ["python3", "/app/train.py"]\n' "$base" >"$1/Dockerfile"
  cat >"$1/gkebuild.yaml" <<'YAML'
apiVersion: gkebuild/v1
project: loop
registry: registry.test/x
images:
  app: {dockerfile: Dockerfile}
experiments:
  one: {image: app, command: [python3, /app/train.py]}
  # gkebuild's own part of the loop: the same image, a command that only starts python
  startup:
    image: app
    command: [python3, -c, 'print("{\"schema\": \"gkebuild.workload.v1\", \"workload\": \"startup\", \"metric\": \"m\", \"value\": 1, \"unit\": \"\"}")']
YAML
}

seconds() { awk "BEGIN {printf \"%.2f\", $2 - $1}"; }
now() { date +%s.%N; }

gkebuild_point() {  # FOLDER [EXPERIMENT]: one local point, output checked
  (cd "$1" && /usr/bin/time -f "%M" -o "$work/rss" "$gkebuild" submit "${2:-one}" --local -q >"$work/out" 2>&1) ||
    { cat "$work/out"; exit 1; }
}
script_alone() {  # FOLDER: the script itself, in the base's root without a container (chroot)
  cp "$1/train.py" "$base_rootfs/tmp/train.py" && chroot "$base_rootfs" python3 /tmp/train.py >/dev/null
}
buildah_point() {  # FOLDER N: build, mount, runc run, remove
  local tag="loop:$2" container bundle="$work/bundle"
  (cd "$1" && /usr/bin/time -f "%M" -o "$work/rss" "${buildah[@]}" bud -q --layers -t "$tag" . >/dev/null)
  container=$("${buildah[@]}" from -q "$tag")
  mkdir -p "$bundle" && rm -f "$bundle/config.json"
  root=$("${buildah[@]}" mount "$container")
  runc spec --bundle "$bundle"
  python3 - "$bundle/config.json" "$root" <<'PY'
import json, sys
path, root = sys.argv[1], sys.argv[2]
spec = json.load(open(path))
spec["root"] = {"path": root, "readonly": False}
spec["process"].update(terminal=False, args=["python3", "/app/train.py"], cwd="/app")
json.dump(spec, open(path, "w"))
PY
  (cd "$bundle" && runc run "loop-$2" >"$work/out" 2>&1) || { cat "$work/out"; exit 1; }
  grep -q train_accuracy "$work/out"
  "${buildah[@]}" umount "$container" >/dev/null && "${buildah[@]}" rm "$container" >/dev/null
}

make_project "$work/p1"
cp -r "$work/p1" "$work/p1-buildah"
t=$(now); gkebuild_point "$work/p1"; echo "gkebuild first point (base copied into the store, unpacked): $(seconds "$t" "$(now)") s"
t=$(now); buildah_point "$work/p1-buildah" 0; echo "buildah+runc first point (base into vfs storage): $(seconds "$t" "$(now)") s"
for i in 1 2 3; do
  echo "# edit $i" >>"$work/p1/train.py"; echo "# edit $i" >>"$work/p1-buildah/train.py"
  t=$(now); gkebuild_point "$work/p1"; g=$(seconds "$t" "$(now)"); g_rss=$(cat "$work/rss")
  t=$(now); buildah_point "$work/p1-buildah" "$i"; b=$(seconds "$t" "$(now)"); b_rss=$(cat "$work/rss")
  t=$(now); script_alone "$work/p1"; a=$(seconds "$t" "$(now)")
  echo "# edit $i" >>"$work/p1/train.py"
  t=$(now); gkebuild_point "$work/p1" startup; o=$(seconds "$t" "$(now)")
  echo "edit $i + one point: gkebuild $g s (peak $((g_rss / 1024)) MB), buildah bud + runc run $b s (bud peak $((b_rss / 1024)) MB), ratio $(awk "BEGIN {printf \"%.1f\", $b / $g}")x; the script alone (chroot) $a s; gkebuild's own part (an edit, then a point that only starts python) $o s"
done

store_before=$(du -sk "$work/store" | cut -f1)
make_project "$work/p2"
t=$(now); gkebuild_point "$work/p2"; second=$(seconds "$t" "$(now)")
store_after=$(du -sk "$work/store" | cut -f1)
echo "second project, first point: $second s; the store grew by $(( (store_after - store_before) / 1024 )) MB; p2/.gkebuild: $(du -sh "$work/p2/.gkebuild" | cut -f1)"

store_before=$(du -sk "$work/store" | cut -f1)
for i in $(seq 1 10); do echo "# cycle $i" >>"$work/p2/train.py"; gkebuild_point "$work/p2"; done
store_after=$(du -sk "$work/store" | cut -f1)
echo "10 edit-and-run cycles: the store grew by $(( (store_after - store_before) )) KB (total $(( store_after / 1024 )) MB); p2/.gkebuild: $(du -sh "$work/p2/.gkebuild" | cut -f1)"
"$gkebuild" prune --dry-run | tail -1
