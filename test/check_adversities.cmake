# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# Checks a group of adversarial runs together (asio_notify_adversarial_test's GROUP): every
# kind in KINDS (joined with '+') occurred in at least one run, as the runs' count files in
# DIR say (written by test/test_main.cpp). A short suite gives a single executable little
# opportunity for some kinds (no failed connect, no remove packet dequeued after a close);
# its group of runs on one configuration gives every kind many.
#   cmake -DDIR=<folder> -DKINDS=<kinds> -DRUNS=<expected number of runs> -P check_adversities.cmake
# and, before the runs, to empty the folder:
#   cmake -DDIR=<folder> -DCLEAR=ON -P check_adversities.cmake
if(CLEAR)
  file(REMOVE_RECURSE "${DIR}")
  file(MAKE_DIRECTORY "${DIR}")
  return()
endif()
file(GLOB files "${DIR}/*.counts")
list(LENGTH files found)
if(NOT found EQUAL RUNS)
  message(FATAL_ERROR "adversity coverage: ${found} of ${RUNS} runs wrote their counts to ${DIR}")
endif()
string(REPLACE "+" ";" kinds "${KINDS}")
set(missing "")
foreach(kind ${kinds})
  set(total 0)
  foreach(f ${files})
    file(STRINGS ${f} lines REGEX "^${kind} [0-9]+$")
    foreach(line ${lines})
      string(REGEX REPLACE "^${kind} " "" n "${line}")
      math(EXPR total "${total} + ${n}")
    endforeach()
  endforeach()
  message(STATUS "adversity ${kind}: ${total}")
  if(total EQUAL 0)
    list(APPEND missing ${kind})
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "adversity coverage: never occurred in ${found} runs: ${missing}")
endif()
