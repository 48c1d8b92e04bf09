//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Whether a test runs under Wine, for the suites that mark Wine's known gaps (each exactly
// where it applies, so the mark fails and goes when Wine closes the gap).
#ifndef BOOST_ASIO_NOTIFY_TEST_SUPPORT_WINE_HPP
#define BOOST_ASIO_NOTIFY_TEST_SUPPORT_WINE_HPP

#if defined(_WIN32)
#include <winsock2.h> // before windows.h
#include <windows.h>
#endif

/// True under Wine, whose ntdll alone exports wine_get_version.
inline bool under_wine()
{
#if defined(_WIN32)
  const HMODULE ntdll = ::GetModuleHandleW(L"ntdll.dll");
  return ntdll && ::GetProcAddress(ntdll, "wine_get_version") != nullptr;
#else
  return false;
#endif
}

#endif
