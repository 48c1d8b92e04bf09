#!/usr/bin/env bash
# Adds up every ctest summary ("N% tests passed, F tests failed out of T") in a log and prints
# "<tests> <failed> <summaries>": a stage may run ctest more than once (windows-wine runs it
# three times), and each run counts. Used by tools/test.sh; checked by test/ci (ci_test_totals).
# Usage: tools/ctest_totals.sh <log>
set -uo pipefail
awk '
  /tests passed, [0-9]+ tests? failed out of [0-9]+/ {
    for (i = 3; i + 3 <= NF; ++i)
      if ($i == "failed" && $(i + 1) == "out") {
        failed += $(i - 2)
        tests += $(i + 3)
        ++summaries
        break
      }
  }
  END { print tests + 0, failed + 0, summaries + 0 }
' "$1"
