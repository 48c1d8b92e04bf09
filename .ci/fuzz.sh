#!/usr/bin/env bash
# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# Fuzzes the notification port: configures a separate Clang build (libFuzzer, AddressSanitizer,
# UndefinedBehaviorSanitizer, coverage instrumentation of the library too), builds only the
# fuzz target test/fuzz/port_fuzz.cpp, writes its seed corpus into the build directory and runs
# it for a bounded time. Exits non-zero when the fuzzer finds a crash or a contract violation;
# the reproducer is left in <build-dir>/fuzz-artifacts/ (replay it with port_fuzz <file>, or
# with port_fuzz_replay <file> from any build).
#
# Usage: .ci/fuzz.sh <build-dir> [seconds]      seconds defaults to 60
# Environment: FUZZ_JOBS (build parallelism, default nproc), FUZZ_ARGS (extra libFuzzer flags)
set -euo pipefail

if [[ $# -lt 1 ]]; then
  echo "usage: $0 <build-dir> [seconds]" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1
seconds=${2:-60}
jobs=${FUZZ_JOBS:-$(nproc)}

export CC=${FUZZ_CC:-clang}
export CXX=${FUZZ_CXX:-clang++}

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$root" -B "$build" "${generator[@]}" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DBOOST_ASIO_NOTIFY_FUZZ=ON \
  -DBOOST_ASIO_NOTIFY_SANITIZE=address,undefined \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link -Wno-unknown-warning-option" \
  -DBOOST_ASIO_NOTIFY_WERROR=OFF \
  -DBOOST_ASIO_NOTIFY_BUILD_EXAMPLES=OFF \
  -DBOOST_ASIO_NOTIFY_BUILD_BENCH=OFF
cmake --build "$build" -j "$jobs" --target port_fuzz

fuzzer=$build/test/fuzz/port_fuzz

corpus=$build/fuzz-corpus
artifacts=$build/fuzz-artifacts
mkdir -p "$corpus" "$artifacts"
BOOST_ASIO_NOTIFY_FUZZ_WRITE_CORPUS=$corpus "$fuzzer"

echo "fuzz.sh: running $fuzzer for ${seconds}s"
status=0
# shellcheck disable=SC2086 # FUZZ_ARGS is a list of flags
"$fuzzer" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=4096 -print_final_stats=1 \
  -artifact_prefix="$artifacts/" ${FUZZ_ARGS:-} "$corpus" || status=$?
if ((status != 0)); then
  echo "fuzz.sh: the fuzzer failed (exit $status); reproducers:" >&2
  ls -l "$artifacts" >&2 || true
  exit "$status"
fi
echo "fuzz.sh: no crash in ${seconds}s"
