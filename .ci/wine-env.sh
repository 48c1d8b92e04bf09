# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
# shellcheck shell=bash
#
# Sourced (bash) by .ci/windows-cross.sh and tools/main-job.sh: Wine headless, quiet and
# non-interactive, in a prefix private to a build directory, with one wineserver for the
# whole run.
#
#   source .ci/wine-env.sh <build-dir>      sets $wine, $wineserver and $wineserver_log,
#                                           exports WINE*, and starts the wineserver
#                                           (stopped on EXIT)
# Needs wine64 (Debian: apt-get install wine64).

wine=
for candidate in wine64 /usr/lib/wine/wine64 wine; do
  if command -v "$candidate" >/dev/null 2>&1; then
    wine=$(command -v "$candidate")
    break
  fi
done
if [ -z "$wine" ]; then
  echo "wine-env: wine64 not found (Debian: apt-get install wine64)" >&2
  return 2
fi
wineserver=$(command -v wineserver || echo /usr/lib/wine/wineserver64)

mkdir -p "$1"
export WINEPREFIX="$1/wineprefix"
export WINEDEBUG=-all
export WINEDLLOVERRIDES="mscoree,mshtml=" # never offer to install Mono or Gecko
unset DISPLAY WAYLAND_DISPLAY             # console programs only: no X server needed

stop_wineserver() { "$wineserver" -k >/dev/null 2>&1 || true; }
trap stop_wineserver EXIT

# What the persistent wineserver prints goes to $wineserver_log: a wineserver that crashes
# says so there ("wineserver crashed, please enable coredumps"), and nowhere else. Wine's
# services (services.exe and the rest) start with the first program: started here, and not
# by a test, they keep no test's output open (ctest waits for it to close).
wineserver_log=$1/wineserver.log
start_wineserver() {
  "$wineserver" -p 2>>"$wineserver_log" ||
    echo "wine-env: a wineserver is already running for this prefix"
  "$wine" cmd /c exit 0 >/dev/null 2>&1
}

if [ ! -f "$WINEPREFIX/system.reg" ]; then
  echo "wine-env: creating the Wine prefix $WINEPREFIX"
  "$wine" wineboot -i >/dev/null 2>&1 || true
  "$wineserver" -w || true
fi
# One wineserver for the whole run: started on demand, it exits a few seconds after its last
# client, and a program starting in that moment fails to connect ("recvmsg: Connection
# reset"). Started before any program runs (-p refuses, status 2, while another server is up).
"$wineserver" -w || true
start_wineserver || { echo "wine-env: wine cannot run programs" >&2; return 2; }
