# Compiles user_code.cpp in several ways (syntax only) and checks the diagnostics; see
# CMakeLists.txt beside this file.
cmake_minimum_required(VERSION 3.16)
string(REPLACE "|" ";" boost_dirs "${BOOST_INCLUDE}")
string(REPLACE "|" ";" implicit_dirs "${IMPLICIT_INCLUDE}")
set(includes -I${OUR_INCLUDE})
foreach(dir ${boost_dirs})
  if(NOT dir IN_LIST implicit_dirs) # the compiler's own (/usr/include) stay where they are
    list(APPEND includes -isystem ${dir}) # as a user's build sees Boost: a system header
  endif()
endforeach()

# compile(<result-var> <output-var> <flags>...): 0 when it compiled.
function(compile result output)
  execute_process(
    COMMAND ${CXX} -std=c++17 -fsyntax-only -Wall -Wextra ${includes} ${ARGN}
            ${SOURCE_DIR}/user_code.cpp
    RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
  set(${result} ${rc} PARENT_SCOPE)
  set(${output} "${out}${err}" PARENT_SCOPE)
endfunction()

function(expect condition what)
  separate_arguments(condition) # "rc EQUAL 0" -> rc;EQUAL;0, as if() takes it
  if(NOT (${condition}))
    message(FATAL_ERROR "header_warnings: ${what}\n${ARGN}")
  endif()
  message(STATUS "ok: ${what}")
endfunction()

# 1. Our headers, everything but null_buffers: silent, with and without deprecated names.
compile(rc out -Werror)
expect("rc EQUAL 0" "the library's headers compile with -Wall -Wextra -Werror" "${out}")
compile(rc out -Werror -DBOOST_ASIO_NO_DEPRECATED)
expect("rc EQUAL 0" "... and with BOOST_ASIO_NO_DEPRECATED" "${out}")

# 2. A user's null_buffers warns with our sockets exactly when it does with Asio's.
compile(rc stock_out -DUSE_NULL_BUFFERS -DUSE_STOCK_SOCKETS)
expect("rc EQUAL 0" "null_buffers on Asio's sockets compiles" "${stock_out}")
compile(rc ours_out -DUSE_NULL_BUFFERS)
expect("rc EQUAL 0" "null_buffers on our sockets compiles" "${ours_out}")
string(FIND "${stock_out}" "null_buffers" stock_at)
string(FIND "${ours_out}" "null_buffers" ours_at)
if(stock_at EQUAL -1)
  set(stock_warns OFF)
else()
  set(stock_warns ON)
endif()
if(ours_at EQUAL -1)
  set(ours_warns OFF)
else()
  set(ours_warns ON)
endif()
expect("stock_warns STREQUAL ours_warns"
       "a user's null_buffers warns the same (stock: ${stock_warns}, ours: ${ours_warns})"
       "stock:\n${stock_out}\nours:\n${ours_out}")
compile(rc out -DUSE_NULL_BUFFERS -DPRINT_BOOST_VERSION)
string(REGEX MATCH "boost_version=([0-9]+)" version_match "${out}")
if(CMAKE_MATCH_1 GREATER_EQUAL 109000)
  expect("ours_warns" "Boost ${CMAKE_MATCH_1} deprecates null_buffers: the user is told")
endif()

# 3. With BOOST_ASIO_NO_DEPRECATED our null_buffers forms are gone, with a clear message.
compile(rc out -DUSE_NULL_BUFFERS -DBOOST_ASIO_NO_DEPRECATED -Wno-deprecated-declarations)
string(FIND "${out}" "BOOST_ASIO_NO_DEPRECATED is defined" message_at)
expect("NOT rc EQUAL 0 AND NOT message_at EQUAL -1"
       "null_buffers with BOOST_ASIO_NO_DEPRECATED is refused, naming the reason" "${out}")
