#!/usr/bin/env python3
# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
"""Checks that tools/ctest_totals.sh, which tools/test.sh uses for its summary line, adds up
every ctest summary in a stage's log: the Windows stage runs ctest three times, and a failure
in an early run must count as one. A log without a summary (b2, fuzz) gives none.
Exits with 0 when all hold, 1 with one line per problem otherwise.
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TOTALS = os.path.join(ROOT, "tools", "ctest_totals.sh")

# A windows-wine log's shape: three ctest runs, the failure in the first.
THREE_RUNS = """\
20/26 Test #132: batch_spread_test_psn ....***Failed    6.96 sec
96% tests passed, 1 tests failed out of 26
Total Test time (real) = 120.00 sec
100% tests passed, 0 tests failed out of 40
100% tests passed, 0 tests failed out of 111
"""
CASES = [
    ("three ctest runs", THREE_RUNS, "177 1 3"),
    ("one test", "0% tests passed, 1 test failed out of 1\n", "1 1 1"),
    ("no summary", "b2: ...updated 12 targets...\n", "0 0 0"),
]


def totals(text):
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as log:
        log.write(text)
    try:
        out = subprocess.run(["bash", TOTALS, log.name], capture_output=True, text=True)
        return out.stdout.strip() if out.returncode == 0 else "exit %d" % out.returncode
    finally:
        os.unlink(log.name)


def main():
    problems = []
    for name, text, expected in CASES:
        got = totals(text)
        if got != expected:
            problems.append("%s: got '%s', expected '%s'" % (name, got, expected))
    for p in problems:
        print("test_totals_check: " + p)
    print("test_totals_check: %d case(s), %d problem(s)" % (len(CASES), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
