#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds everything and runs every test suite.
# CI (.ci/run) calls exactly this. Usage: scripts/test.sh [--sanitize] [--tsan]
#   --sanitize  then builds again with AddressSanitizer + UndefinedBehaviorSanitizer and runs
#               the unit suites there (a second full build: about 15 more minutes on 2 cores).
#   --tsan      then builds again with ThreadSanitizer and runs the suites of what renders on
#               several threads (split loops, the writer thread, project renders) there.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

jobs=$(nproc)
# CI builds CUDA for one architecture; release builds take the catalog's whole list.
cuda_archs=${GKEBUILD_CUDA_ARCHS:-75}
# Tests need no fast code, only quick compiles: -O1 with line tables for backtraces.
test_flags="-O1 -g1"
# ccache hits across checkouts in other folders (CI clones afresh).
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1

cmake -S . -B build/test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$test_flags" -DCMAKE_C_FLAGS_RELWITHDEBINFO="$test_flags" \
  -DGKEBUILD_BENCH=OFF -DGKEBUILD_CUDA_ARCHS="$cuda_archs" >/dev/null
cmake --build build/test -j "$jobs"
# Peers setup cannot install (tests/peers/external_peers.txt): where one is absent, say so first and
# leave out its tests by name. Where they are present (CI, the development machines) all run.
absent=()
while read -r tool tests; do
  [[ -z "$tool" || "$tool" == \#* ]] && continue
  tool=${tool%:}
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "peer $tool is absent (scripts/setup.sh cannot install it): leaving out $tests"
    for test in $tests; do absent+=("^${test//./\\.}\$"); done
  fi
done < tests/peers/external_peers.txt
exclude=$(IFS='|'; echo "${absent[*]:-}")
(cd build/test && ctest --output-on-failure -j "$jobs" --timeout 900 ${exclude:+-E "$exclude"})

for option in "$@"; do
case "$option" in
--sanitize)
  echo "== the unit suites again under AddressSanitizer + UndefinedBehaviorSanitizer =="
  # The CUDA paths cannot run here and nvcc takes no sanitizer, so this build leaves them out.
  cmake -S . -B build/sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$test_flags" -DCMAKE_C_FLAGS_RELWITHDEBINFO="$test_flags" \
    -DGKEBUILD_SANITIZE=ON -DGKEBUILD_BENCH=OFF -DCMAKE_CUDA_COMPILER=OFF >/dev/null
  cmake --build build/sanitize -j "$jobs"
  (cd build/sanitize && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --output-on-failure -j "$jobs" -L unit --timeout 900)
  ;;
--tsan)
  echo "== what renders on several threads, and submit on the in-memory cluster (its own event-loop thread), under ThreadSanitizer =="
  cmake -S . -B build/tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$test_flags -fsanitize=thread" -DCMAKE_C_FLAGS_RELWITHDEBINFO="$test_flags" \
    -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DGKEBUILD_BENCH=OFF -DCMAKE_CUDA_COMPILER=OFF >/dev/null
  cmake --build build/tsan -j "$jobs" --target gkebuild jinja_test case_runner render_cli_test render_test \
    render_plan_test render_values_test submit_fake_cluster_test
  (cd build/tsan && TSAN_OPTIONS=halt_on_error=1 ctest --output-on-failure -j "$jobs" --timeout 900 \
    -R 'SplitLoop|_split|RenderCli|RenderExamples|Plan\.|ValuesJson|JsonDocument|Effects|FollowRun|SubmitOnFake')
  ;;
*) echo "unknown option: $option" >&2; exit 2 ;;
esac
done
