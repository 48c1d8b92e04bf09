# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# The smoke tests of the example servers, run by ../smoke_test.py (see there). The systems
# that run the programs and the processes started on them, apart from each server's
# scenarios:
#   checks.py         Failure and check
#   launch.py         Native, Wine, Windows: how a program is started, stopped and measured
#   process.py        Process, start_server, run, and the watchdog of the whole run
#   clients.py        client helpers the scenarios share
#   hostile.py        hostile clients every connection-oriented server gets
#   tcp_echo.py, udp_echo.py, chat.py, tls_echo.py, curl_multi.py: one scenario each
#   http_server.py    the http scenario, with http_protocol.py and http_limits.py
