#!/usr/bin/env bash
# The main job (README): installs what is missing, builds the example servers in Release,
# runs the HTTP example on the notify reactor and on stock Asio, loads each with wrk and
# prints a side-by-side table; then the same for the Windows builds (MinGW-w64) under Wine:
# the notify reactor against stock Asio's IOCP backend, Wine's figures, not Windows
# performance. Usage: tools/main-job.sh [build-dir] [wrk options]
# (default wrk options: -t2 -c64 -d5s; the Windows builds go to <build-dir>-mingw)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build/release}
"$root/tools/setup.sh"
cmake -S "$root" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBOOST_ASIO_NOTIFY_BUILD_TESTS=OFF
cmake --build "$out" -j "$(nproc)"
shift $(($# > 0 ? 1 : 0))
"$root/example/servers/compare_http.sh" "$out" "$@"

echo
echo "=== The Windows builds under Wine: the notify reactor against stock Asio's IOCP backend"
windows=$out-mingw
cmake -S "$root" --preset mingw -B "$windows" -DBOOST_ASIO_NOTIFY_BUILD_TESTS=OFF \
  -DBOOST_ASIO_NOTIFY_BUILD_BENCH=OFF >/dev/null
cmake --build "$windows" -j "$(nproc)" --target http_server http_server_default
# shellcheck source=../.ci/wine-env.sh
source "$root/.ci/wine-env.sh" "$windows"
COMPARE_HTTP_RUNNER=$wine "$root/example/servers/compare_http.sh" "$windows" "$@"
