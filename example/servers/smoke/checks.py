# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# How a smoke test fails: one idea, a check that raises Failure, which the entry point
# (smoke_test.py) reports with what the programs said on stderr.


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)
