# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# Cross-compiling for 64-bit Windows with Debian's MinGW-w64 (posix threads), tests run
# under Wine through CMAKE_CROSSCOMPILING_EMULATOR:
#   cmake -S . -B build-mingw -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-mingw-w64.cmake
# .ci/windows-cross.sh does this and runs ctest with a private, headless Wine prefix.

set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(asio_notify_mingw x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${asio_notify_mingw}-gcc-posix)
set(CMAKE_CXX_COMPILER ${asio_notify_mingw}-g++-posix)
set(CMAKE_RC_COMPILER ${asio_notify_mingw}-windres)

set(CMAKE_FIND_ROOT_PATH /usr/${asio_notify_mingw})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Link the C++ runtime and winpthreads statically, so Wine needs no MinGW DLLs on its path.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static-libgcc -static-libstdc++")

# Tests run under Wine (64-bit loader; `wine` is the wrapper that picks it), through
# wine-run.sh, which runs a program again when Wine's loader failed to start it. What must
# signal the Windows process itself (the examples' smoke tests) takes BOOST_ASIO_NOTIFY_WINE.
find_program(BOOST_ASIO_NOTIFY_WINE NAMES wine64 wine PATHS /usr/lib/wine /usr/bin NO_DEFAULT_PATH)
if(NOT BOOST_ASIO_NOTIFY_WINE)
  find_program(BOOST_ASIO_NOTIFY_WINE NAMES wine64 wine)
endif()
if(BOOST_ASIO_NOTIFY_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${CMAKE_CURRENT_LIST_DIR}/wine-run.sh ${BOOST_ASIO_NOTIFY_WINE})
endif()

# Boost is header-only here, taken from the build machine's /usr/include/boost. Adding
# /usr/include itself would put glibc's headers on the MinGW include path, so the build
# tree gets a directory holding nothing but a `boost` symlink, and FindBoost is pointed at
# it (headers only, no BoostConfig.cmake from the host). Imported targets' include
# directories are system includes for their users.
get_property(asio_notify_in_try_compile GLOBAL PROPERTY IN_TRY_COMPILE)
if(NOT asio_notify_in_try_compile AND CMAKE_BINARY_DIR)
  set(BOOST_ASIO_NOTIFY_HOST_BOOST /usr/include/boost CACHE PATH "The host's Boost headers (boost/ directory)")
  set(asio_notify_boost_include ${CMAKE_BINARY_DIR}/mingw-boost-include)
  if(NOT EXISTS ${asio_notify_boost_include}/boost/version.hpp)
    file(MAKE_DIRECTORY ${asio_notify_boost_include})
    file(CREATE_LINK ${BOOST_ASIO_NOTIFY_HOST_BOOST} ${asio_notify_boost_include}/boost SYMBOLIC)
  endif()
  set(Boost_INCLUDE_DIR ${asio_notify_boost_include} CACHE PATH "Boost headers (a symlink to the host's)")
  set(Boost_NO_BOOST_CMAKE ON)
  set(Boost_NO_SYSTEM_PATHS ON)
endif()
