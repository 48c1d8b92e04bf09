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
#   boost-1.83/1.88 GCC, Release, Boost 1.83 / 1.88 headers from Debian trixie: the library,
#                   the service suite (the checks of Asio's internals), the installed consumer,
#                   the header warnings; the socket suite runs with 1.81 and 1.90
#   windows-wine    MinGW-w64, Release: the whole tree, its tests under Wine
# Each CMake build is configured from its preset in CMakePresets.json (the same names), in a
# folder of the build root. Newer Boost headers are unpacked into the build root by
# tools/boost-headers.sh, never installed into the system, and given to the boost-* presets as
# BOOST_ASIO_NOTIFY_BOOST_DIR. Each stage's duration is printed after it, and all of them at the end.
# Disk: a Debug tree with Beast takes ~5 GB, so debug info is compressed (-gz) and a stage that
# passed leaves only its log (BOOST_ASIO_NOTIFY_KEEP_BUILDS=1 keeps every tree); the peak is then
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
  export BOOST_ASIO_NOTIFY_REQUIRE_BEAST_EXAMPLES=1
  # ... and Doxygen: a build that cannot find it fails (CMakeLists.txt, "the reference"), so
  # that ci_doc_reference runs wherever test/ci's tests do (the debug stage among them).
  export BOOST_ASIO_NOTIFY_REQUIRE_DOXYGEN=1
fi
mkdir -p "$out"
free_kib=$(df -Pk "$out" | awk 'NR == 2 {print $4}')
echo "test.sh: $((free_kib / 1024 / 1024)) GiB free under $out"
((free_kib >= 6 * 1024 * 1024)) ||
  echo "test.sh: warning: a stage's build tree needs up to ~6 GiB; builds may fail for space" >&2

# Every CMake build compiles through ccache where it is installed (tools/setup.sh installs it):
# the stages and the runs after them share what they compiled. Paths are taken relative to
# the repository, so that another clone of the same commit finds the same entries.
if command -v ccache >/dev/null 2>&1; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR=$root CCACHE_NOHASHDIR=true
  export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-20G}
fi

passed=0
failed=0
failures=()
durations=()
started=$SECONDS

# Run one stage: stage_<name> (its '-' and '.' as '_') in the build folder <build-root>/<name>.
# Every ctest summary in a stage's log is added up (tools/ctest_totals.sh), and a stage
# without one (b2, fuzz) counts as one test that passed or failed. A stage that passed has its
# build folder removed (kept for a failure, to look into).
run_stage() {
  local name=$1
  local dir=$out/$name
  echo "=== $name"
  local log="$out/$name.log"
  local stage_started=$SECONDS
  mkdir -p "$out"
  "stage_${name//[-.]/_}" "$dir" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  local took=$((SECONDS - stage_started))
  durations+=("$(printf '%-14s %5d s' "$name" "$took")")
  echo "=== $name: $took s"
  local tests=0 failed_here=0 summaries=0
  read -r tests failed_here summaries < <("$root/tools/ctest_totals.sh" "$log")
  passed=$((passed + tests - failed_here))
  failed=$((failed + failed_here))
  if ((rc != 0)); then
    failures+=("$name")
    ((summaries > 0)) || failed=$((failed + 1))
  elif ((summaries == 0)); then
    passed=$((passed + 1))
  fi
  if ((rc == 0)) && [[ ${BOOST_ASIO_NOTIFY_KEEP_BUILDS:-0} != 1 ]]; then
    rm -rf "${dir:?}"
  fi
}

configure() { # <preset> <dir>: configure from the preset in <dir>
  # CMake seeds CMAKE_CXX_FLAGS from CXXFLAGS: compressed debug sections (-gz), same code.
  CXXFLAGS="${CXXFLAGS:+$CXXFLAGS }-gz" cmake -S "$root" --preset "$1" -B "$2"
}

# Tests run two per core: most of their time is spent waiting on sockets, timers and child
# processes (the debug stage's tests: 217 s two at a time, 133 s four at a time, on 2 cores).
ctest_build() { # <preset> <dir> [tests at once]: configure from the preset in <dir>, build, test
  local preset=$1 dir=$2 parallel=${3:-$((jobs * 2))}
  configure "$preset" "$dir" &&
    cmake --build "$dir" -j "$jobs" &&
    ctest --test-dir "$dir" --output-on-failure -j "$parallel" --timeout 600
}

# The stages, in the order of all_stages; each gets its build folder.
# The debug build and the newest Boost also build the socket suite against stock Asio
# (reactor_<name>_default): every semantic the suite pins is checked against Asio itself.
stage_debug() { ctest_build debug "$1"; }
stage_release_clang() { ctest_build release-clang "$1"; }
stage_asan_ubsan() { ctest_build asan-ubsan "$1"; }
# ThreadSanitizer: the suites that run the reactor on several threads, on every driver and on
# the adversarial port (the tsan preset picks them), one at a time; test/tsan.supp, compiled
# into the suites, says what is suppressed and why.
stage_tsan() { ctest_build tsan "$1" 1; }
# Plain b2 at the root reads build.jam, which reads the standalone project, Jamfile
# (doc/building.md, "b2"): the stage fails unless it did.
stage_b2() {
  local output
  output=$(cd "$root" && b2 -j"$jobs" --build-dir="$1" -d0 --show-project-file 2>&1)
  local rc=$?
  echo "$output"
  ((rc == 0)) && grep -q "b2 reads Jamfile" <<<"$output"
}
# The port's libFuzzer target against the contract model, for a bounded time (Clang build).
stage_fuzz() { "$root/.ci/fuzz.sh" "$1" 60; }
# Newer Boost: the newest gets the whole tree; the others the library, its checks and headers.
boost_build() { # <version> <dir>: the boost-<version> preset with those headers
  local version=$1
  local boost_dir
  boost_dir=$("$root/tools/boost-headers.sh" "$version" "$out/boost") || return 1
  BOOST_ASIO_NOTIFY_BOOST_DIR=$boost_dir ctest_build "boost-$version" "$2"
}
# 1.90: the whole tree, the bench linked static (BOOST_ASIO_NOTIFY_STATIC_BENCH), as it is
# copied to bigger machines: bench_quick and bench_scaling_quick run that binary and its
# children. 1.83 and 1.88: the library, the shape checks, every header and the installed
# package (the socket suite runs with 1.81 and 1.90; see the presets).
stage_boost_1_90() { boost_build 1.90 "$1"; }
stage_boost_1_83() { boost_build 1.83 "$1"; }
stage_boost_1_88() { boost_build 1.88 "$1"; }
stage_windows_wine() { "$root/.ci/windows-cross.sh" "$1"; }

for name in "${all_stages[@]}"; do
  if ((${#selected[@]} == 0)) || [[ " ${selected[*]} " == *" $name "* ]]; then
    run_stage "$name"
  fi
done

echo
printf '%s\n' "${durations[@]}"
printf '%-14s %5d s\n' total $((SECONDS - started))
echo "stages failed: ${failures[*]:-none}"
echo "tests: $passed passed, $failed failed"
((${#failures[@]} == 0))
