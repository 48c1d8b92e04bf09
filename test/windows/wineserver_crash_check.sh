#!/usr/bin/env bash
# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# Checks .ci/wine-ctest.sh against a real wineserver crash, in a Wine prefix of its own (so
# the crash touches no other test):
#   wineserver_crash_check.sh <source-dir> <work-dir>
# A one-test selection whose first run starts a waiting Windows program and then makes the
# wineserver crash (SIGSEGV: its handler prints the message CI saw, and aborts) must run
# again and pass, the hung program ended within seconds rather than at its time-out; a
# selection that fails with no crash must run once and fail.
# (Run by ctest as `... --program <work-dir>`, the script is that test's program.)
set -euo pipefail

if [ "${1:-}" = --program ]; then
  work=$2
  # shellcheck source=../../.ci/wine-ctest.sh
  source "$root/.ci/wine-ctest.sh"
  echo run >>"$work/runs"
  if [ "$(wc -l <"$work/runs")" -eq 1 ]; then
    "$wine" cmd /c "ping -n 600 127.0.0.1 >nul" &
    program=$!
    sleep 3
    # shellcheck disable=SC2046 # one pid a word
    kill -SEGV $(prefix_pids wineserver64 wineserver)
    wait "$program"
    exit
  fi
  exec "$wine" cmd /c exit 0
fi

root=$1
work=$2
rm -rf "$work"
mkdir -p "$work/crash_once" "$work/fails"
# shellcheck source=../../.ci/wine-env.sh
source "$root/.ci/wine-env.sh" "$work" >/dev/null
# shellcheck source=../../.ci/wine-ctest.sh
source "$root/.ci/wine-ctest.sh"
trap 'stop_wineserver; rm -rf "$work"' EXIT
export wine root

fail() {
  echo "wineserver_crash_check: $*"
  exit 1
}

cat >"$work/crash_once/CTestTestfile.cmake" <<EOF
add_test(crash_once "$BASH" "$0" "--program" "$work")
set_tests_properties(crash_once PROPERTIES TIMEOUT 120)
EOF
start=$SECONDS
wine_ctest "$work/crash_once" >"$work/crash_once.log" 2>&1 || fail "the selection failed: $(cat "$work/crash_once.log")"
[ "$(wc -l <"$work/runs")" -eq 2 ] || fail "the selection ran $(wc -l <"$work/runs") times, not 2"
grep -q "running it again" "$work/crash_once.log" || fail "no word of the rerun"
[ $((SECONDS - start)) -lt 60 ] || fail "the hung program was not ended: $((SECONDS - start)) s"

echo "add_test(fails /bin/false)" >"$work/fails/CTestTestfile.cmake"
if wine_ctest "$work/fails" >"$work/fails.log" 2>&1; then
  fail "a failing selection passed"
fi
if grep -q "running it again" "$work/fails.log"; then
  fail "a selection ran again with no crash"
fi
echo "wineserver_crash_check: a crash made the selection run again ($((SECONDS - start)) s)"
