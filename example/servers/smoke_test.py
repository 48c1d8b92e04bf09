#!/usr/bin/env python3
#
# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# Smoke tests for the example servers: each scenario starts a server on a free port
# (port 0, read back from its "listening on port N" line), drives it with a real client
# and checks what comes back. Nothing here may hang: every wait has a time-out, the whole
# run has a watchdog, and every process started is killed in the end. It runs on POSIX and
# on Windows (the GitHub Windows job), so nothing in it may need what only one of them has.
#
#   smoke_test.py <scenario> --variant notify|default --work-dir DIR --bin NAME=PATH...
#                 [--wine LOADER]
#
# Scenarios: tcp_echo (and coro_echo), udp_echo, chat, http, tls, curl_multi, each in the
# package smoke/ beside this file, apart from the systems that run the programs and the
# processes started (its __init__.py lists its modules). With --wine, the binaries are
# Windows builds (the MinGW cross build) run under Wine, and the host's programs (Python
# sockets, curl, wrk) still drive them: Wine's sockets are the host's. What differs under
# Wine is in class Wine, what differs on Windows in class Windows (smoke/launch.py).

import argparse
import os
import sys

from smoke.chat import chat
from smoke.checks import Failure
from smoke.curl_multi import curl_multi
from smoke.http_server import http
from smoke.launch import NATIVE, Windows, Wine
from smoke.process import running, start_watchdog
from smoke.tcp_echo import tcp_echo
from smoke.tls_echo import tls
from smoke.udp_echo import udp_echo

TOTAL_TIME_LIMIT = 100  # seconds; ctest's own TIMEOUT is larger, so we clean up first

SCENARIOS = {f.__name__: f for f in (tcp_echo, udp_echo, chat, http, tls, curl_multi)}
SCENARIOS["coro_echo"] = tcp_echo  # the coroutine server answers the same client


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=SCENARIOS)
    parser.add_argument("--variant", choices=["notify", "default"], required=True)
    parser.add_argument("--work-dir", required=True)
    parser.add_argument("--bin", action="append", default=[], metavar="NAME=PATH")
    parser.add_argument("--wine", metavar="LOADER", help="run the binaries under Wine")
    parser.add_argument("--sanitized", action="store_true",
                        help="the binaries are built with sanitizers: skip running them"
                             " out of descriptors")
    opt = parser.parse_args()
    opt.bin = dict(b.split("=", 1) for b in opt.bin)
    opt.launch = Wine(opt.wine) if opt.wine else Windows() if os.name == "nt" else NATIVE
    os.makedirs(opt.work_dir, exist_ok=True)

    done = start_watchdog(TOTAL_TIME_LIMIT)
    try:
        SCENARIOS[opt.scenario](opt)
        print(f"{opt.scenario} ({opt.variant}): OK")
        return 0
    except Failure as e:
        print(f"{opt.scenario} ({opt.variant}): FAILED: {e}")
        for p in running:  # what the servers and clients said on stderr
            text = p.stderr_text()
            if text:
                print(f"--- {p.name} stderr ---\n{text}")
        return 1
    finally:
        done.set()
        for p in running:
            p.kill()


if __name__ == "__main__":
    sys.exit(main())
