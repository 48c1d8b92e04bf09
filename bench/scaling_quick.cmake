# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# The bench_scaling_quick test: cmake -DBENCH=<asio_notify_bench> -DOUT=<dir>
#   [-DEMULATOR=<program that runs it, e.g. wine>] [-DOPTIONS=<more options>] -P scaling_quick.cmake
# Runs `asio_notify_bench --scaling --quick --threads 1,2 <options> --out <dir>` and fails when
# the program fails (a measurement failed or gave an insane number) or left out a file.
if(NOT BENCH OR NOT OUT)
  message(FATAL_ERROR "usage: cmake -DBENCH=<asio_notify_bench> -DOUT=<dir> -P scaling_quick.cmake")
endif()

file(REMOVE_RECURSE "${OUT}") # files from an earlier run must not pass for this one's
execute_process(COMMAND ${EMULATOR} "${BENCH}" --scaling --quick --threads 1,2 ${OPTIONS} --out "${OUT}"
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "asio_notify_bench --scaling --quick --threads 1,2 exited with ${status}")
endif()

foreach(file scaling.txt scaling.json scaling.dat scaling.gp)
  if(NOT EXISTS "${OUT}/${file}")
    message(FATAL_ERROR "asio_notify_bench --scaling did not write ${OUT}/${file}")
  endif()
endforeach()

# string(JSON) (CMake 3.19) stops the script on malformed JSON or a missing member.
file(READ "${OUT}/scaling.json" json)
if(CMAKE_VERSION VERSION_LESS 3.19)
  if(NOT json MATCHES "\"metrics\"")
    message(FATAL_ERROR "${OUT}/scaling.json has no metrics")
  endif()
  return()
endif()
string(JSON thread_counts LENGTH "${json}" options io_threads)
string(JSON metrics LENGTH "${json}" metrics)
math(EXPR expected "3 * ${thread_counts}") # throughput, p50 and p99 per thread count
if(thread_counts LESS 1 OR NOT metrics EQUAL expected)
  message(FATAL_ERROR "${OUT}/scaling.json: ${metrics} metrics for ${thread_counts} thread counts")
endif()
math(EXPR last "${metrics} - 1")
foreach(i RANGE ${last})
  string(JSON rows LENGTH "${json}" metrics ${i} rows)
  string(JSON stock GET "${json}" metrics ${i} rows 0 median)
  if(rows LESS 2 OR stock STREQUAL "null")
    message(FATAL_ERROR "${OUT}/scaling.json: metric ${i} has ${rows} rows, stock median ${stock}")
  endif()
endforeach()
message(STATUS "scaling.json: ${metrics} metrics for ${thread_counts} io thread counts")
