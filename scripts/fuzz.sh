#!/usr/bin/env bash
# Fuzzes every parser that reads untrusted input (tests/fuzz) with libFuzzer, for a fixed time
# per target, in a clang build with AddressSanitizer and UndefinedBehaviorSanitizer.
# Usage: scripts/fuzz.sh [SECONDS-PER-TARGET (default 300)] [TARGET…]
#   GKEBUILD_FUZZ_NO_BUILD=1 fuzzes the binaries already in build/fuzz without building again.
# Seeds: tests/fuzz/corpus/TARGET plus inputs taken from the test suites (the Jinja conformance
# cases, the shipped templates, the validate corpus, JSONTestSuite, the example Dockerfiles). A
# finding is written to build/fuzz/findings/TARGET/; add it to tests/fuzz/corpus/TARGET/ with the
# fix, so every test run replays it (ctest fuzz_replay_TARGET). Exits 1 when any target found
# something.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then
  targets=(jinja_parse dockerfile_parse values_file values_json validate_yaml image_reference www_authenticate layer_tar copy_from_tree oci_manifest fatbin)
fi
build=build/fuzz
if [ -z "${GKEBUILD_FUZZ_NO_BUILD:-}" ]; then
  bash scripts/setup.sh >/dev/null
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
    -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DGKEBUILD_FUZZ=ON \
    -DGKEBUILD_BENCH=OFF -DCMAKE_CUDA_COMPILER=OFF >/dev/null
  ninja -C "$build" -j"$(nproc)" "${targets[@]/#/fuzz_}" >/dev/null
fi

# Seeds from the suites, one file per input, regenerated on every run.
seeds="$build/seeds"
rm -rf "$seeds" && mkdir -p "$seeds"
python3 - "$seeds" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
def put(target, name, data):
    os.makedirs(f"{out}/{target}", exist_ok=True)
    open(f"{out}/{target}/{name}", "wb").write(data if isinstance(data, bytes) else data.encode())
for path in sorted(glob.glob("tests/conformance/cases/*.json")):
    for i, case in enumerate(json.load(open(path))):
        put("jinja_parse", f"{os.path.basename(path)}-{i}", "\x00" + case["template"])
for path in sorted(glob.glob("tests/tool/steps/validate/corpus/files/*.yaml")):
    put("validate_yaml", os.path.basename(path), open(path, "rb").read())
    put("values_file", os.path.basename(path), b"\x01" + open(path, "rb").read())
for path in sorted(glob.glob("tests/tool/steps/render/json_test_suite/*.json")):
    put("values_json", os.path.basename(path), open(path, "rb").read())
for path in sorted(glob.glob("examples/**/Dockerfile*", recursive=True) + glob.glob("tests/**/Dockerfile*", recursive=True)):
    put("dockerfile_parse", path.replace("/", "_"), open(path, "rb").read())
PY

findings=0
printf '%-18s %12s %10s %8s %s\n' target executions exec/s cov result
for target in "${targets[@]}"; do
  corpus="$build/corpus/$target" found="$build/findings/$target"
  mkdir -p "$corpus" "$found"
  chmod 777 "$build/corpus" "$corpus" "$found"
  run=("$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10
       -max_len=65536 -print_final_stats=1 -artifact_prefix="$found/" "$corpus" tests/fuzz/corpus/"$target")
  [ -d "$seeds/$target" ] && run+=("$seeds/$target")
  # The layer and tree targets unpack hostile tars: as nobody, an escape cannot reach the project or the system.
  if { [ "$target" = layer_tar ] || [ "$target" = copy_from_tree ]; } && [ "$(id -u)" = 0 ]; then
    chmod -R a+rX "$build/tests/fuzz" "$seeds" tests/fuzz/corpus
    run=(setpriv --reuid=nobody --regid=nogroup --clear-groups "${run[@]}")
  fi
  log="$build/findings/$target.log"
  status=ok
  "${run[@]}" >"$log" 2>&1 || status="FINDING (see $found and $log)"
  [ "$status" = ok ] || findings=$((findings + 1))
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo 0)
  printf '%-18s %12s %10s %8s %s\n' "$target" "$runs" "$speed" "$cov" "$status"
done
exit $((findings > 0))
