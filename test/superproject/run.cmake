# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# Lays out a Boost superproject around this repository and builds it (see CMakeLists.txt):
#   cmake -DMODE=cmake|b2 -DSOURCE_DIR=<repository> -DFAKE_DIR=<fake/> -DWORK_DIR=<dir>
#         -DGENERATOR=<cmake generator> -DCXX=<compiler> -DBOOST_INCLUDE=<dir>|...
#         [-DB2=<b2>] -P run.cmake
# The tree (WORK_DIR/boost):
#   CMakeLists.txt, tools/cmake/include/BoostRoot.cmake   the root's CMake (fake/)
#   Jamroot                                               the root's b2 project (fake/Jamroot.in)
#   boost/<entry> -> <Boost headers>/boost/<entry>,       the headers, as `b2 headers` links them
#   boost/asio_notify -> libs/asio_notify/include/...     (a folder of links, never the system's)
#   libs/asio_notify -> SOURCE_DIR                        this repository
#   libs/<dependency>/CMakeLists.txt, include/boost ->    Boost::<dependency> over those headers
#   libs/unrelated/CMakeLists.txt                         fails if added (fake/libs/unrelated)
#   consumer/                                             a program using Boost::asio_notify
cmake_minimum_required(VERSION 3.16)

include(${CMAKE_CURRENT_LIST_DIR}/../run_checked.cmake)

# The folder holding boost/version.hpp among this build's Boost include directories.
string(REPLACE "|" ";" candidates "${BOOST_INCLUDE}")
string(REPLACE "|" ";" implicit "${IMPLICIT_INCLUDE}")
list(APPEND candidates ${implicit})
set(boost_headers)
foreach(dir IN LISTS candidates)
  if(EXISTS ${dir}/boost/version.hpp)
    set(boost_headers ${dir}/boost)
    break()
  endif()
endforeach()
if(NOT boost_headers)
  message(FATAL_ERROR "no boost/version.hpp in ${candidates}")
endif()

set(root ${WORK_DIR}/boost)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${root}/libs)
file(COPY ${FAKE_DIR}/CMakeLists.txt ${FAKE_DIR}/tools ${FAKE_DIR}/consumer ${FAKE_DIR}/libs
     DESTINATION ${root})
file(CREATE_LINK ${SOURCE_DIR} ${root}/libs/asio_notify SYMBOLIC)
# The root's boost/ as `b2 headers` makes it: a folder of its own whose entries link to each
# library's headers (the other libraries' all come from one Boost include folder here). Never
# a link to that folder itself: the build would then write into the system's headers.
file(MAKE_DIRECTORY ${root}/boost)
file(GLOB system_entries RELATIVE ${boost_headers} ${boost_headers}/*)
foreach(entry IN LISTS system_entries)
  if(NOT entry MATCHES "^asio_notify")
    file(CREATE_LINK ${boost_headers}/${entry} ${root}/boost/${entry} SYMBOLIC)
  endif()
endforeach()
foreach(entry asio_notify asio_notify.hpp)
  file(CREATE_LINK ${SOURCE_DIR}/include/boost/${entry} ${root}/boost/${entry} SYMBOLIC)
endforeach()

# The dependencies the library names (Boost::<name> in its CMakeLists.txt), each a library
# of the tree with an include/ folder as Boost's libraries have (here each one holds all of
# the headers). Only these exist: a dependency the library does not name is missing.
foreach(dependency asio assert config core system throw_exception)
  set(name ${dependency})
  configure_file(${FAKE_DIR}/dependency.cmake.in ${root}/libs/${dependency}/CMakeLists.txt @ONLY)
  file(MAKE_DIRECTORY ${root}/libs/${dependency}/include)
  file(CREATE_LINK ${boost_headers} ${root}/libs/${dependency}/include/boost SYMBOLIC)
endforeach()

if(MODE STREQUAL "cmake")
  # Only the library and what it depends on (libs/unrelated must stay out); no Boost
  # package from outside the tree (find_package(Boost) fails; the library does not call it,
  # so the variable goes unused: --no-warn-unused-cli).
  run(${CMAKE_COMMAND} -S ${root} -B ${WORK_DIR}/build -G ${GENERATOR} --no-warn-unused-cli
      -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Debug
      -DBOOST_INCLUDE_LIBRARIES=asio_notify -DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON)
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
  run(${WORK_DIR}/build/consumer/consumer)
elseif(MODE STREQUAL "b2")
  if(NOT B2)
    message(FATAL_ERROR "no b2")
  endif()
  set(BUILD_DIR ${WORK_DIR}/bin.v2)
  configure_file(${FAKE_DIR}/Jamroot.in ${root}/Jamroot @ONLY)
  # The library's stage target (boost-install) as a shared library: the superproject's
  # request, which the repository's own settings (static) must not override. Then the library
  # through the root's alias and the program (a run target: built, run, and failed unless it
  # exits with 0), linked shared: the library must export what a program uses (the hidden
  # visibility of Boost's builds hides the rest).
  # Which project files b2 reads here (doc/building.md, "b2"): build/Jamfile, and never the
  # standalone project (Jamfile), whose settings would override the tree's.
  execute_process(COMMAND ${B2} -n --show-project-file libs/asio_notify/build//stage
    WORKING_DIRECTORY ${root} RESULT_VARIABLE rc OUTPUT_VARIABLE shown ERROR_VARIABLE shown)
  if(NOT rc EQUAL 0 OR NOT shown MATCHES "b2 reads build/Jamfile" OR shown MATCHES "b2 reads Jamfile")
    message(FATAL_ERROR "b2 read the wrong project files (${rc}):\n${shown}")
  endif()
  run(${B2} -d0 -j2 -q link=shared libs/asio_notify/build//stage WORKING_DIRECTORY ${root})
  run(${B2} -d0 -j2 -q link=shared asio_notify consumer WORKING_DIRECTORY ${root})
  file(GLOB staged ${root}/stage/lib/libboost_asio_notify*)
  message(STATUS "staged: ${staged}")
  if(NOT staged MATCHES "/libboost_asio_notify[^/]*\\.so")
    message(FATAL_ERROR "b2 staged no shared library in ${root}/stage/lib")
  endif()
else()
  message(FATAL_ERROR "MODE must be cmake or b2, not '${MODE}'")
endif()
