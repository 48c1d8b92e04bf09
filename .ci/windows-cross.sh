#!/usr/bin/env bash
# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# Cross-builds the project for 64-bit Windows with MinGW-w64 (warnings as errors) and runs
# its tests under Wine, headless, in a Wine prefix private to the build directory.
#
#   .ci/windows-cross.sh [build-dir]      (default: build-mingw, relative to the current dir)
#
# Environment: JOBS (parallel compile and test jobs, default 2), BUILD_TYPE (default Release,
# the build users ship).
# Needs: cmake 3.21 or later (the preset), ninja (else make), x86_64-w64-mingw32-g++-posix, wine64 (Debian: wine64).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-build-mingw}
case $build in /*) ;; *) build=$PWD/$build ;; esac
jobs=${JOBS:-2}
build_type=${BUILD_TYPE:-Release}
start=$SECONDS

# Keep going past a target that fails to build, so the tests that did build still run
# (and report); the script fails either way. The mingw preset asks for Ninja; without it,
# make.
generator=(-G "Unix Makefiles")
keep_going=(-k)
if command -v ninja >/dev/null 2>&1; then
  generator=()
  keep_going=(-k 0)
fi

# ---- Wine: headless, quiet, non-interactive, its own prefix, one wineserver --------------
# shellcheck source=wine-env.sh
source "$root/.ci/wine-env.sh" "$build" || exit 2

# ---- configure and build -------------------------------------------------------------------
# The mingw preset of CMakePresets.json: the toolchain file, warnings as errors, tests and
# examples, the benchmark (its bench_quick runs under Wine).
cmake -S "$root" --preset mingw -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE="$build_type"
build_status=0
nice -n 5 cmake --build "$build" -j "$jobs" -- "${keep_going[@]}" || build_status=$?
echo "windows-cross: built in $((SECONDS - start)) s, build status $build_status"

# ---- run the tests under Wine ---------------------------------------------------------------
# The GitHub Windows job's three ctest runs, with its selections (test/ci/workflow_check.py
# checks that they stay the same as in .github/workflows/ci.yml): the suites on PSN (Wine has
# none: the test double), the suites on AFD, and everything else, the examples' smoke tests
# among them (the Windows programs run under Wine, driven by the host's python3). Together
# they are every test; a selection that matches none fails, as in the job.
# A selection during which the wineserver crashed runs again, once (.ci/wine-ctest.sh).
# shellcheck source=wine-ctest.sh
source "$root/.ci/wine-ctest.sh"
test_status=0
run_ctest() { JOBS=$jobs wine_ctest "$build" "$@" || test_status=1; }
run_ctest -R '_psn$|backend_choice|port_win_test'
run_ctest -R '_afd$'
run_ctest -E '_psn$|_afd$|backend_choice|port_win_test'
echo "windows-cross: finished in $((SECONDS - start)) s, build status $build_status, ctest status $test_status"
if [ "$build_status" -ne 0 ] || [ "$test_status" -ne 0 ]; then
  exit 1
fi
