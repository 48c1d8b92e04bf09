#!/usr/bin/env bash
# The test command (README, .ci/run): installs what is missing, then builds and runs every
# suite, in the builds users make:
#   debug           GCC, Debug, Boost 1.81 (the system's): the whole tree, every test, the
#                   socket suite also against stock Asio; the socket, service, fault and soak
#                   suites also on the adversarial port (so in asan-ubsan, tsan and windows-wine)
#   release-clang   Clang, Release, Boost 1.81: the whole tree, every test
#   asan-ubsan      GCC, Debug, AddressSanitizer + UndefinedBehaviorSanitizer: every test but
#                   the WebSocket suite (for time; the debug stage runs it)
#   tsan            GCC, Debug, ThreadSanitizer: the service, fault and soak suites and the socket
#                   suite (every driver), also on the adversarial port
#   b2              the b2 build (Boost 1.81)
#   fuzz            a minute of libFuzzer on the port (Clang)
#   boost-1.90      GCC, Release, Boost 1.90 headers from Debian sid: the whole tree, every test
#                   but the WebSocket suite (for time), the socket suite also against stock Asio,
#                   the bench linked static
#   boost-1.83/1.88 GCC, Release, Boost 1.83 / 1.88 headers from Debian trixie: the library
#                   and the suites that exercise Asio's API and internals (the socket suite on
#                   every driver, the service, the installed consumer, the header warnings)
#   windows-wine    MinGW-w64, Release: the whole tree, its tests under Wine
# Each CMake build is configured from its preset in CMakePresets.json (the same names), in a
# folder of the build root. Newer Boost headers are unpacked into the build root by
# tools/boost-headers.sh, never installed into the system, and given to the boost-* presets as
# ASIO_NOTIFY_BOOST_DIR. Each stage's duration is printed after it, and all of them at the end.
# Disk: a Debug tree with Beast takes ~5 GB, so debug info is compressed (-gz) and a stage that
# passed leaves only its log (ASIO_NOTIFY_KEEP_BUILDS=1 keeps every tree); the peak is then
# one stage's tree, not the sum of all (~14 GB).
# Usage: tools/test.sh [--list] [--no-setup] [build-root] [stage...]
#   stage...    only these stages, in the order above (e.g. tools/test.sh tsan b2); all by default
#   --list      print the stages' names and exit
#   --no-setup  skip tools/setup.sh (the packages are installed already)
#   build-root  a path (it has a '/'): where the builds and logs go, <repository>/build by default
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
all_stages=(debug release-clang asan-ubsan tsan b2 fuzz boost-1.90 boost-1.83 boost-1.88 windows-wine)
out=$root/build
setup=1
selected=()
for arg in "$@"; do
  case $arg in
  --list) printf '%s\n' "${all_stages[@]}" && exit 0 ;;
  --no-setup) setup=0 ;;
  */*) out=$arg ;;
  *)
    if [[ " ${all_stages[*]} " != *" $arg "* ]]; then
      echo "test.sh: no stage '$arg'; the stages: ${all_stages[*]}" >&2
      exit 2
    fi
    selected+=("$arg")
    ;;
  esac
done
jobs=$(nproc)
if ((setup)); then
  "$root/tools/setup.sh" || exit 1
  # setup.sh installed Beast's examples: a build that cannot find them fails (example/beast).
  export ASIO_NOTIFY_REQUIRE_BEAST_EXAMPLES=1
fi
mkdir -p "$out"
free_kib=$(df -Pk "$out" | awk 'NR == 2 {print $4}')
echo "test.sh: $((free_kib / 1024 / 1024)) GiB free under $out"
((free_kib >= 6 * 1024 * 1024)) ||
  echo "test.sh: warning: a stage's build tree needs up to ~6 GiB; builds may fail for space" >&2

passed=0
failed=0
failures=()
durations=()
started=$SECONDS

# Run one stage, if selected; ctest summaries ("N% tests passed, F tests failed out of T") are added up,
# and a stage without one (b2, fuzz) counts as one test that passed or failed. A stage that
# passed has its build folder <build-root>/<tree> removed (kept for a failure, to look into).
# Usage: stage <name> <tree> <command...>
stage() {
  local name=$1 tree=$2
  shift 2
  if ((${#selected[@]} > 0)) && [[ " ${selected[*]} " != *" $name "* ]]; then
    return 0
  fi
  echo "=== $name"
  local log="$out/$name.log"
  local stage_started=$SECONDS
  mkdir -p "$out"
  "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  local took=$((SECONDS - stage_started))
  durations+=("$(printf '%-14s %5d s' "$name" "$took")")
  echo "=== $name: $took s"
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
  if ((rc == 0)) && [[ ${ASIO_NOTIFY_KEEP_BUILDS:-0} != 1 ]]; then
    rm -rf "${out:?}/$tree"
  fi
}

configure() { # <preset> <dir>: configure from the preset in <dir>
  # CMake seeds CMAKE_CXX_FLAGS from CXXFLAGS: compressed debug sections (-gz), same code.
  CXXFLAGS="${CXXFLAGS:+$CXXFLAGS }-gz" cmake -S "$root" --preset "$1" -B "$2"
}

# Tests run two per core: most of their time is spent waiting on sockets, timers and child
# processes (the debug stage's tests: 217 s two at a time, 133 s four at a time, on 2 cores).
ctest_build() { # <preset> <dir>: configure from the preset in <dir>, build, run ctest
  local preset=$1 dir=$2
  configure "$preset" "$dir" &&
    cmake --build "$dir" -j "$jobs" &&
    ctest --test-dir "$dir" --output-on-failure -j "$((jobs * 2))" --timeout 600
}

# The debug build and the newest Boost also build the socket suite against stock Asio
# (reactor_<name>_default): every semantic the suite pins is checked against Asio itself.
stage debug debug ctest_build debug "$out/debug"
stage release-clang release-clang ctest_build release-clang "$out/release-clang"
stage asan-ubsan asan ctest_build asan-ubsan "$out/asan"
# ThreadSanitizer: the suites that run the reactor on several threads, on every driver and on
# the adversarial port (the tsan build and test presets pick the same ones; ci_presets checks
# that they do). The adversarial groups' checks (*_adversity_*) come with their runs;
# test/tsan.supp says what is suppressed and why.
tsan_suites="service_test batch_spread_test socket_state_table_test fault_test soak_test reactor_tcp_socket_test reactor_sync_then_wait_test reactor_udp_socket_test reactor_acceptor_test reactor_socket_options_test reactor_tokens_test reactor_initiating_functions_test reactor_initiating_functions_cxx20_test reactor_cancellation_test reactor_concurrency_test reactor_connect_test reactor_local_socket_test reactor_generic_socket_test reactor_coroutine_test"
tsan_variants="(_inline|_inline_portable|_thread)?(_oneshot_level|_persistent_edge)?(_adversarial)?"
tsan_build() {
  local targets
  read -ra targets <<<"$tsan_suites"
  configure tsan "$out/tsan" &&
    cmake --build "$out/tsan" -j "$jobs" --target "${targets[@]}" &&
    TSAN_OPTIONS="suppressions=$root/test/tsan.supp" ctest --test-dir "$out/tsan" \
      --output-on-failure -R "^(${tsan_suites// /|})$tsan_variants\$" --timeout 900
}
stage tsan tsan tsan_build
# Plain b2 at the root reads build.jam, which reads the standalone project, Jamfile
# (doc/building.md, "b2"): the stage fails unless it did.
b2_build() {
  local output
  output=$(cd "$root" && b2 -j"$jobs" --build-dir="$out/b2" -d0 --show-project-file 2>&1)
  local rc=$?
  echo "$output"
  ((rc == 0)) && grep -q "b2 reads Jamfile" <<<"$output"
}
stage b2 b2 b2_build
# The port's libFuzzer target against the contract model, for a bounded time (Clang build).
stage fuzz fuzz "$root/.ci/fuzz.sh" "$out/fuzz" 60
# Newer Boost: the newest gets the whole tree; the others the suites that use Asio.
boost_build() { # <version>: the boost-<version> preset with those headers
  local version=$1
  local boost_dir
  boost_dir=$("$root/tools/boost-headers.sh" "$version" "$out/boost") || return 1
  ASIO_NOTIFY_BOOST_DIR=$boost_dir ctest_build "boost-$version" "$out/boost-$version"
}
# 1.90: the whole tree, the bench linked static (BOOST_ASIO_NOTIFY_STATIC_BENCH), as it is
# copied to bigger machines: bench_quick and bench_scaling_quick run that binary and its
# children. 1.83 and 1.88: the library and the suites that use Asio (see the presets).
stage boost-1.90 boost-1.90 boost_build 1.90
for version in 1.83 1.88; do
  stage "boost-$version" "boost-$version" boost_build "$version"
done
if [[ -x $root/.ci/windows-cross.sh ]]; then
  stage windows-wine mingw "$root/.ci/windows-cross.sh" "$out/mingw"
fi

echo
printf '%s\n' "${durations[@]}"
printf '%-14s %5d s\n' total $((SECONDS - started))
echo "stages failed: ${failures[*]:-none}"
echo "tests: $passed passed, $failed failed"
((${#failures[@]} == 0))
