//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// How many threads this process has now: for the tests that show a configuration starts
// none of its own.
#ifndef BOOST_ASIO_NOTIFY_TEST_SUPPORT_THREAD_COUNT_HPP
#define BOOST_ASIO_NOTIFY_TEST_SUPPORT_THREAD_COUNT_HPP

#include <boost/test/unit_test.hpp>

#if defined(_WIN32)
#include <winsock2.h> // before windows.h, as Asio includes it
#include <windows.h>
#include <tlhelp32.h>
#else
#include <dirent.h>
#endif

#include <cstddef>

namespace test_support {

/// The threads of this process: /proc/self/task's entries, or on Windows (no /proc) its
/// Toolhelp snapshot's. Fails the test where neither can be read: a count of 0 would prove
/// nothing.
inline std::size_t thread_count()
{
  std::size_t n = 0;
#if defined(_WIN32)
  const HANDLE snapshot = ::CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0);
  BOOST_REQUIRE(snapshot != INVALID_HANDLE_VALUE);
  THREADENTRY32 e{};
  e.dwSize = sizeof(e);
  for (BOOL more = ::Thread32First(snapshot, &e); more; more = ::Thread32Next(snapshot, &e))
    n += e.th32OwnerProcessID == ::GetCurrentProcessId();
  ::CloseHandle(snapshot);
#else
  DIR* dir = ::opendir("/proc/self/task");
  BOOST_REQUIRE(dir);
  while (const dirent* e = ::readdir(dir))
    n += e->d_name[0] != '.';
  ::closedir(dir);
#endif
  return n;
}

} // namespace test_support

#endif
