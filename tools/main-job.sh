#!/usr/bin/env bash
# The main job (README): installs what is missing of the packages it needs, builds the HTTP
# example server in Release twice (http_server on the notify reactor, http_server_default on
# stock Asio: all that compare_http.sh runs), loads each with wrk and prints a side-by-side
# table; then the same for the Windows builds (MinGW-w64) under Wine: the notify reactor
# against stock Asio's IOCP backend, Wine's figures, not Windows performance. Each phase
# prints a line when it starts and its time when it ends.
# Usage: tools/main-job.sh [build-dir] [wrk options]
# (default wrk options: -t2 -c64 -d5s; the Windows builds go to <build-dir>-mingw)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build/release}
shift $(($# > 0 ? 1 : 0))
# The only programs the two comparisons run; the library builds as their dependency.
targets=(http_server http_server_default)

job_start=$SECONDS
phase_name=
phase_start=0
elapsed() { printf '%dm %02ds' $(($1 / 60)) $(($1 % 60)); }
# phase <name>: ends the phase under way (printing its time) and starts <name>; no name:
# ends the last one and prints the whole job's time.
phase() {
  if [[ -n $phase_name ]]; then
    echo "=== main-job: $phase_name done in $(elapsed $((SECONDS - phase_start)))" >&2
  fi
  phase_name=${1:-}
  phase_start=$SECONDS
  if [[ -n $phase_name ]]; then
    echo "=== main-job: $phase_name..." >&2
  else
    echo "=== main-job: all done in $(elapsed $((SECONDS - job_start)))" >&2
  fi
}

phase "set-up (tools/setup.sh main-job: the Debian packages it needs)"
"$root/tools/setup.sh" main-job

phase "Linux build (Release: ${targets[*]})"
cmake -S "$root" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBOOST_ASIO_NOTIFY_BUILD_TESTS=OFF \
  >/dev/null
cmake --build "$out" -j "$(nproc)" --target "${targets[@]}"

phase "Linux comparison (compare_http.sh: wrk against each server)"
"$root/example/servers/compare_http.sh" "$out" "$@"

echo
echo "=== The Windows builds under Wine: the notify reactor against stock Asio's IOCP backend"
phase "Windows build (MinGW-w64 Release: ${targets[*]})"
windows=$out-mingw
cmake -S "$root" --preset mingw -B "$windows" -DBOOST_ASIO_NOTIFY_BUILD_TESTS=OFF \
  -DBOOST_ASIO_NOTIFY_BUILD_BENCH=OFF >/dev/null
cmake --build "$windows" -j "$(nproc)" --target "${targets[@]}"

phase "Wine comparison (the Wine prefix, then compare_http.sh under wine64)"
# Sets $wine (shellcheck -x follows it; plain shellcheck does not).
# shellcheck source=SCRIPTDIR/../.ci/wine-env.sh disable=SC1091
source "$root/.ci/wine-env.sh" "$windows"
COMPARE_HTTP_RUNNER=${wine:?} "$root/example/servers/compare_http.sh" "$windows" "$@"
phase
