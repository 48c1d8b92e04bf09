//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Winsock must be started before the tests create their raw sockets; nothing to do elsewhere.
#include "sockets.hpp"

#include <boost/test/unit_test.hpp>

#if defined(_WIN32)
namespace {

struct winsock_fixture
{
  winsock_fixture()
  {
    WSADATA data;
    if (::WSAStartup(MAKEWORD(2, 2), &data) != 0)
      throw std::runtime_error("WSAStartup failed");
  }
  ~winsock_fixture() { ::WSACleanup(); }
};

BOOST_TEST_GLOBAL_FIXTURE(winsock_fixture);

} // namespace
#endif
