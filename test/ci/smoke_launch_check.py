#!/usr/bin/env python3
# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
"""Checks that the smoke tests start again a program its loader failed to start
(example/servers/smoke/process.py, retry_start), and nothing else:

- run() and Process.next_line() start it again, and give what its second start printed;
- a program that printed something, or a launch whose loader never fails (Native), is not
  started again, whatever its exit code;
- after START_ATTEMPTS starts, the last exit code stands.
Exits with 0 when all hold, 1 with one line per problem otherwise.
"""
import os
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "example", "servers"))

from smoke import launch, process  # noqa: E402

FAILED_START = 66  # what the launch below takes for its loader's failure


class FlakyLoader(launch.Native):
    """A POSIX launch whose "loader" fails with FAILED_START, as Wine's does."""

    def never_started(self, returncode):
        return returncode == FAILED_START


# Each start appends a line to $1; the first ends with FAILED_START having printed nothing
# (or $2 when given), the second prints "ran".
FAILS_ONCE = ('echo start >> "$1"; [ "$(wc -l < "$1")" -gt 1 ] && { echo ran; exit 0; };'
              ' [ -n "$2" ] && echo "$2"; exit 66')
ALWAYS_FAILS = 'echo start >> "$1"; exit 66'


def starts(path):
    with open(path) as f:
        return len(f.readlines())


def main():
    problems = []

    def expect(condition, what):
        if not condition:
            problems.append(what)

    with tempfile.TemporaryDirectory() as work:
        def command(script, name, *more):
            return ["sh", "-c", script, "sh", os.path.join(work, name), *more]

        result = process.run(command(FAILS_ONCE, "run"), launch=FlakyLoader())
        expect(result.returncode == 0 and result.stdout == b"ran\n",
               f"run(): exit {result.returncode}, output {result.stdout!r} (expected 0, 'ran')")
        expect(starts(os.path.join(work, "run")) == 2, "run(): not started exactly twice")

        p = process.Process("fails_once", command(FAILS_ONCE, "process"), work,
                            launch=FlakyLoader())
        try:
            line = p.next_line(timeout=30)
            expect(line == "ran", f"Process.next_line(): {line!r} (expected 'ran')")
        except process.Failure as e:
            problems.append(f"Process.next_line(): {e}")
        finally:
            p.kill()

        result = process.run(command(FAILS_ONCE, "printed", "output"), launch=FlakyLoader())
        expect(result.returncode == FAILED_START and starts(os.path.join(work, "printed")) == 1,
               "run(): a program that printed something was started again")

        result = process.run(command(FAILS_ONCE, "native"), launch=launch.NATIVE)
        expect(result.returncode == FAILED_START and starts(os.path.join(work, "native")) == 1,
               "run(): started again where the launch's loader never fails")

        result = process.run(command(ALWAYS_FAILS, "always"), launch=FlakyLoader())
        expect(result.returncode == FAILED_START
               and starts(os.path.join(work, "always")) == process.START_ATTEMPTS,
               f"run(): not {process.START_ATTEMPTS} starts, then its exit code")

    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
