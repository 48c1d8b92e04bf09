#!/usr/bin/env bash
# The test command (README, .ci/run): installs what is missing, then builds and runs every
# suite: a Debug build, an AddressSanitizer + UndefinedBehaviorSanitizer build, the b2
# build, a minute of fuzzing the port (Clang, libFuzzer), and the MinGW-w64 cross build under
# Wine. Usage: tools/test.sh [build-root]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build}
jobs=$(nproc)
"$root/tools/setup.sh" || exit 1

passed=0
failed=0
failures=()

# Run one stage; ctest summaries ("N% tests passed, F tests failed out of T") are added up,
# and a stage without one (b2, fuzz) counts as one test that passed or failed.
stage() {
  local name=$1
  shift
  echo "=== $name"
  local log="$out/$name.log"
  mkdir -p "$out"
  "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  local summary
  summary=$(grep -E "tests passed, [0-9]+ tests? failed out of [0-9]+" "$log" | tail -n 1)
  if [[ -n $summary ]]; then
    local f t
    f=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$summary")
    t=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\2/' <<<"$summary")
    passed=$((passed + t - f))
    failed=$((failed + f))
  fi
  if ((rc != 0)); then
    failures+=("$name")
    [[ -n $summary ]] || failed=$((failed + 1))
  elif [[ -z $summary ]]; then
    passed=$((passed + 1))
  fi
}

ctest_build() { # <dir> <cmake args...>: configure, build, run ctest
  local dir=$1
  shift
  cmake -S "$root" -B "$dir" -G Ninja "$@" &&
    cmake --build "$dir" -j "$jobs" &&
    ctest --test-dir "$dir" --output-on-failure -j "$jobs" --timeout 600
}

stage debug ctest_build "$out/debug" -DCMAKE_BUILD_TYPE=Debug
stage asan-ubsan ctest_build "$out/asan" -DCMAKE_BUILD_TYPE=Debug \
  -DBOOST_ASIO_NOTIFY_SANITIZE=address,undefined -DBOOST_ASIO_NOTIFY_BUILD_BENCH=OFF
# ThreadSanitizer: the multi-threaded suites only (a separate build directory).
tsan_suites="service_test fault_test soak_test reactor_concurrency_test reactor_cancellation_test"
stage tsan bash -c "cmake -S '$root' -B '$out/tsan' -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DBOOST_ASIO_NOTIFY_SANITIZE=thread -DBOOST_ASIO_NOTIFY_BUILD_EXAMPLES=OFF \
    -DBOOST_ASIO_NOTIFY_BUILD_BENCH=OFF &&
  cmake --build '$out/tsan' -j $jobs --target $tsan_suites &&
  ctest --test-dir '$out/tsan' --output-on-failure -R '^(${tsan_suites// /|})(_inline|_thread)?\$' --timeout 900"
stage b2 bash -c "cd '$root' && b2 -j$jobs --build-dir='$out/b2' -d0"
# The port's libFuzzer target against the contract model, for a bounded time (Clang build).
stage fuzz "$root/.ci/fuzz.sh" "$out/fuzz" 60
if [[ -x $root/.ci/windows-cross.sh ]]; then
  stage windows-wine "$root/.ci/windows-cross.sh" "$out/mingw"
fi

echo
echo "stages failed: ${failures[*]:-none}"
echo "tests: $passed passed, $failed failed"
((${#failures[@]} == 0))
