# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# Runs one how-to example and checks what it does:
#   cmake -DPROGRAM=<exe> [-DEMULATOR=<wine>] [-DENVIRONMENT=VAR=value|...]
#         -DEXPECT=<regex>|<regex>... -P test_howto.cmake
# The program must exit with 0 and print exactly as many lines as EXPECT has regular
# expressions, line i matching expression i whole. Lists are separated by '|' (so no
# expression may contain one).
foreach(var PROGRAM EXPECT)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "test_howto.cmake: ${var} is not set")
  endif()
endforeach()

set(command ${PROGRAM})
if(EMULATOR)
  set(command ${EMULATOR} ${PROGRAM})
endif()
if(ENVIRONMENT)
  string(REPLACE "|" ";" environment "${ENVIRONMENT}")
  set(command ${CMAKE_COMMAND} -E env ${environment} ${command})
endif()
execute_process(COMMAND ${command} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
  TIMEOUT 100)
message("${out}")
if(err)
  message("standard error:\n${err}")
endif()
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "${PROGRAM} exited with ${rc}, not 0")
endif()

string(REPLACE "\r\n" "\n" out "${out}") # Windows programs under Wine
string(REGEX REPLACE "\n$" "" out "${out}")
string(REPLACE "\n" ";" lines "${out}")
string(REPLACE "|" ";" expected "${EXPECT}")
list(LENGTH lines line_count)
list(LENGTH expected expected_count)
if(NOT line_count EQUAL expected_count)
  message(FATAL_ERROR "${line_count} lines printed, ${expected_count} expected")
endif()
math(EXPR last "${line_count} - 1")
foreach(i RANGE ${last})
  list(GET lines ${i} line)
  list(GET expected ${i} regex)
  if(NOT line MATCHES "^${regex}$")
    message(FATAL_ERROR "line ${i}: '${line}' does not match '${regex}'")
  endif()
endforeach()
