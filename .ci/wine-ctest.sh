# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
# shellcheck shell=bash disable=SC2154 # $wine, $wineserver, $wineserver_log: wine-env.sh's
#
# Sourced (bash) after .ci/wine-env.sh by .ci/windows-cross.sh and its test
# (test/windows/wineserver_crash_check.sh): runs a ctest selection of Windows programs under
# Wine, and runs it again, once, on a new wineserver when the wineserver crashed during it.
#
#   wine_ctest <build-dir> <ctest arguments...>     status 0 when the selection passed
#
# A crashed wineserver ("wineserver crashed, please enable coredumps", printed to
# $wineserver_log) leaves the Windows programs that were waiting hung until their time-out,
# and ends those that were starting with status 0 having run nothing: no status of that
# selection can be trusted. A watcher ends the prefix's programs as soon as the crash shows,
# so the selection finishes in seconds rather than at the time-out, and runs again.

# The processes with this WINEPREFIX in their environment whose program is named by one of
# the arguments.
prefix_pids() {
  local environ pid program
  for environ in /proc/[0-9]*/environ; do
    pid=${environ#/proc/}
    pid=${pid%/environ}
    program=$(readlink "/proc/$pid/exe" 2>/dev/null) || continue
    case " $* " in *" ${program##*/} "*) ;; *) continue ;; esac
    if grep -qzxF "WINEPREFIX=$WINEPREFIX" "$environ" 2>/dev/null; then
      echo "$pid"
    fi
  done
}

# The prefix's Windows programs: each runs in Wine's loader.
wine_program_pids() { prefix_pids wine64 wine wine64-preloader wine-preloader; }

wineserver_crashed() { grep -q "wineserver crashed" "$@" 2>/dev/null; }

# shellcheck disable=SC2046 # one pid a word
end_wine_programs() { kill -KILL $(wine_program_pids) 2>/dev/null || true; }

# Ends every Windows program of the prefix, every 2 s, once the wineserver has crashed.
watch_wineserver() {
  while sleep 2; do
    if wineserver_crashed "$wineserver_log"; then
      end_wine_programs
    fi
  done
}

# Leaves no program of the crashed server behind, and starts a new persistent one.
restart_wineserver() {
  end_wine_programs
  "$wineserver" -k >/dev/null 2>&1 || true # a server a later program started on demand
  : >"$wineserver_log"
  start_wineserver || true
}

wine_ctest() {
  local build=$1 output=$1/ctest-selection.log status watcher attempt
  shift
  for attempt in 1 2; do
    : >"$wineserver_log"
    watch_wineserver &
    watcher=$!
    if (cd "$build" && nice -n 5 ctest --output-on-failure --no-tests=error -j "${JOBS:-2}" "$@") 2>&1 |
      tee "$output"; then
      status=0
    else
      status=1
    fi
    kill "$watcher" 2>/dev/null || true
    wait "$watcher" 2>/dev/null || true
    if [ "$attempt" -eq 2 ] || ! wineserver_crashed "$wineserver_log" "$output"; then
      break
    fi
    echo "wine-ctest: the wineserver crashed during ctest $*; running it again on a new one"
    restart_wineserver
  done
  return "$status"
}
