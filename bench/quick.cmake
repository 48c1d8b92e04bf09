# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# The bench_quick test: cmake -DBENCH=<asio_notify_bench> -DOUT=<dir>
#   [-DEMULATOR=<program that runs it, e.g. wine>] [-DOPTIONS=<more options>] -P quick.cmake
# Runs `asio_notify_bench --quick <options> --out <dir>` and fails when the program fails (a
# measurement failed or gave an insane number), when a CPU row (user and system time per
# round trip and per MB echoed, from each child) lacks a figure for a backend, or when a
# system-call count (strace's, perf's) or the instruction count (callgrind's) is missing or
# has a row with neither figure nor note.
cmake_policy(SET CMP0057 NEW) # if(IN_LIST)
if(NOT BENCH OR NOT OUT)
  message(FATAL_ERROR "usage: cmake -DBENCH=<asio_notify_bench> -DOUT=<dir> -P quick.cmake")
endif()

file(REMOVE_RECURSE "${OUT}") # files from an earlier run must not pass for this one's
execute_process(COMMAND ${EMULATOR} "${BENCH}" --quick ${OPTIONS} --out "${OUT}"
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "asio_notify_bench --quick exited with ${status}")
endif()

file(READ "${OUT}/results.json" json)
if(CMAKE_VERSION VERSION_LESS 3.19) # string(JSON)
  return()
endif()
set(cpu_keys user_us_per_round_trip system_us_per_round_trip)
foreach(threads 1_thread 2_threads)
  list(APPEND cpu_keys throughput_${threads}_user_ms_per_mb throughput_${threads}_system_ms_per_mb)
endforeach()
string(JSON metrics LENGTH "${json}" metrics)
math(EXPR last "${metrics} - 1")
set(found 0)
foreach(i RANGE ${last})
  string(JSON key GET "${json}" metrics ${i} key)
  if(NOT key IN_LIST cpu_keys)
    continue()
  endif()
  math(EXPR found "${found} + 1")
  string(JSON rows LENGTH "${json}" metrics ${i} rows)
  math(EXPR last_row "${rows} - 1")
  foreach(r RANGE ${last_row})
    string(JSON median GET "${json}" metrics ${i} rows ${r} median)
    string(JSON backend GET "${json}" metrics ${i} rows ${r} backend)
    string(JSON note GET "${json}" metrics ${i} rows ${r} note)
    # A backend this system lacks says so in its note instead.
    if(median STREQUAL "null" AND NOT note MATCHES "this system lacks")
      message(FATAL_ERROR "${OUT}/results.json: ${key} has no figure for ${backend} (${note})")
    endif()
  endforeach()
endforeach()
list(LENGTH cpu_keys expected)
if(NOT found EQUAL expected)
  message(FATAL_ERROR "${OUT}/results.json: ${found} of the ${expected} CPU rows")
endif()
message(STATUS "results.json: the ${found} CPU rows have a figure for every backend")

# Both system-call counts (strace's and perf's) and callgrind's instruction count are there,
# each row with a figure or a note that says why it has none (no strace, perf or Valgrind
# here, Windows).
foreach(syscall_key syscalls_per_round_trip syscalls_per_round_trip_perf
        instructions_per_round_trip)
  set(present FALSE)
  foreach(i RANGE ${last})
    string(JSON key GET "${json}" metrics ${i} key)
    if(NOT key STREQUAL syscall_key)
      continue()
    endif()
    set(present TRUE)
    string(JSON rows LENGTH "${json}" metrics ${i} rows)
    math(EXPR last_row "${rows} - 1")
    foreach(r RANGE ${last_row})
      string(JSON median GET "${json}" metrics ${i} rows ${r} median)
      string(JSON note GET "${json}" metrics ${i} rows ${r} note)
      if(median STREQUAL "null" AND note STREQUAL "")
        message(FATAL_ERROR "${OUT}/results.json: ${key} has neither a figure nor a note")
      endif()
    endforeach()
  endforeach()
  if(NOT present)
    message(FATAL_ERROR "${OUT}/results.json: no ${syscall_key} metric")
  endif()
endforeach()
message(STATUS "results.json: both system-call counts and the instruction count are there")
