#!/usr/bin/env bash
# The main job (README): installs what is missing, builds the example servers in Release,
# runs the HTTP example on the notify reactor and on stock Asio, loads each with wrk and
# prints a side-by-side table. Usage: tools/main-job.sh [build-dir] [wrk options]
# (default wrk options: -t2 -c64 -d5s)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build/release}
"$root/tools/setup.sh"
cmake -S "$root" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBOOST_ASIO_NOTIFY_BUILD_TESTS=OFF
cmake --build "$out" -j "$(nproc)"
shift $(($# > 0 ? 1 : 0))
exec "$root/example/servers/compare_http.sh" "$out" "$@"
