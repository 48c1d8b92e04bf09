#!/bin/sh
# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# The MinGW-w64 toolchain's CMAKE_CROSSCOMPILING_EMULATOR: runs a Windows program under Wine
#   wine-run.sh <wine loader> <program> [args...]
# and runs it again, up to 5 times in all, when Wine's loader ended it before main().
# A loaded machine sometimes makes a Windows DLL's initialisation fail: the process then
# ends with STATUS_DLL_INIT_FAILED (0xC0000142), which Wine's loader returns to the host as
# exit status 0x42 (66), having printed nothing (WINEDEBUG=-all) and run none of the
# program. Any other status, 66 on the last attempt included, is the program's own.
loader=$1
shift
attempts=5
attempt=1
while :; do
  "$loader" "$@"
  status=$?
  if [ "$status" -ne 66 ] || [ "$attempt" -ge "$attempts" ]; then
    exit "$status"
  fi
  attempt=$((attempt + 1))
  echo "wine-run.sh: $1 exited with status 66 (Wine's loader: a DLL failed to" \
    "initialise before main()); running it again, attempt $attempt of $attempts" >&2
done
