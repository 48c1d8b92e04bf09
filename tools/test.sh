#!/usr/bin/env bash
# The test command (README, .ci/run): installs what is missing, then builds and runs every
# suite, in the builds users make:
#   debug           GCC, Debug, Boost 1.81 (the system's): the whole tree, every test, the
#                   socket suite also against stock Asio
#   release-clang   Clang, Release, Boost 1.81: the whole tree, every test
#   asan-ubsan      GCC, Debug, AddressSanitizer + UndefinedBehaviorSanitizer: every test
#   tsan            GCC, Debug, ThreadSanitizer: the multi-threaded suites
#   b2              the b2 build (Boost 1.81)
#   fuzz            a minute of libFuzzer on the port (Clang)
#   boost-1.90      GCC, Release, Boost 1.90 headers from Debian sid: the whole tree, every test,
#                   the socket suite also against stock Asio, the bench linked static
#   boost-1.83/1.88 GCC, Release, Boost 1.83 / 1.88 headers from Debian trixie: the library
#                   and the suites that exercise Asio's API and internals (the socket suite on
#                   every driver, the service, the installed consumer, the header warnings)
#   windows-wine    MinGW-w64, Release: the whole tree, its tests under Wine
# Newer Boost headers are unpacked into the build root by tools/boost-headers.sh, never
# installed into the system. Usage: tools/test.sh [build-root]
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

# The debug build and the newest Boost also build the socket suite against stock Asio
# (reactor_<name>_default): every semantic the suite pins is checked against Asio itself.
stage debug ctest_build "$out/debug" -DCMAKE_BUILD_TYPE=Debug \
  -DASIO_NOTIFY_TEST_DEFAULT_BACKEND_VARIANT=ON
stage release-clang ctest_build "$out/release-clang" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER=clang++
stage asan-ubsan ctest_build "$out/asan" -DCMAKE_BUILD_TYPE=Debug \
  -DBOOST_ASIO_NOTIFY_SANITIZE=address,undefined -DBOOST_ASIO_NOTIFY_BUILD_BENCH=OFF
# ThreadSanitizer: the multi-threaded suites only (a separate build directory).
tsan_suites="service_test batch_spread_test state_reclaimer_test fault_test soak_test reactor_concurrency_test reactor_cancellation_test"
stage tsan bash -c "cmake -S '$root' -B '$out/tsan' -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DBOOST_ASIO_NOTIFY_SANITIZE=thread -DBOOST_ASIO_NOTIFY_BUILD_EXAMPLES=OFF \
    -DBOOST_ASIO_NOTIFY_BUILD_BENCH=OFF &&
  cmake --build '$out/tsan' -j $jobs --target $tsan_suites &&
  ctest --test-dir '$out/tsan' --output-on-failure -R '^(${tsan_suites// /|})(_inline|_inline_portable|_thread)?\$' --timeout 900"
stage b2 bash -c "cd '$root' && b2 -j$jobs --build-dir='$out/b2' -d0"
# The port's libFuzzer target against the contract model, for a bounded time (Clang build).
stage fuzz "$root/.ci/fuzz.sh" "$out/fuzz" 60
# Newer Boost: the newest gets the whole tree; the others the suites that use Asio.
boost_build() { # <version> <ctest args...>
  local version=$1
  shift
  local boost_dir
  boost_dir=$("$root/tools/boost-headers.sh" "$version" "$out/boost") || return 1
  local dir=$out/boost-$version
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBoost_DIR="$boost_dir" \
    "${boost_configure[@]}" &&
    cmake --build "$dir" -j "$jobs" &&
    ctest --test-dir "$dir" --output-on-failure -j "$jobs" --timeout 600 "$@"
}
# ...with the bench linked static (BOOST_ASIO_NOTIFY_STATIC_BENCH), as it is copied to
# bigger machines: bench_quick and bench_scaling_quick run that binary and its children.
boost_configure=(-DBOOST_ASIO_NOTIFY_STATIC_BENCH=ON -DASIO_NOTIFY_TEST_DEFAULT_BACKEND_VARIANT=ON)
stage boost-1.90 boost_build 1.90
boost_configure=(-DBOOST_ASIO_NOTIFY_BUILD_EXAMPLES=OFF -DBOOST_ASIO_NOTIFY_BUILD_BENCH=OFF
  "-DBOOST_ASIO_NOTIFY_TEST_DIRS=reactor;service;install;headers")
for version in 1.83 1.88; do
  stage "boost-$version" boost_build "$version"
done
if [[ -x $root/.ci/windows-cross.sh ]]; then
  stage windows-wine "$root/.ci/windows-cross.sh" "$out/mingw"
fi

echo
echo "stages failed: ${failures[*]:-none}"
echo "tests: $passed passed, $failed failed"
((${#failures[@]} == 0))
