//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Linked into a test executable, this makes the ports its tests create on the PSN backend
// use the ProcessSocketNotifications test double, but only where the system has no PSN
// (Wine, Windows before build 20348): the same executable run on Windows 11 or Server 2022
// tests the real function. Ports on the AFD backend (BOOST_ASIO_NOTIFY_PORT=afd) never
// use the double: they run on real readiness everywhere.
#include "psn_double.hpp"

#include <boost/asio_notify/port.hpp>

#include <boost/test/unit_test.hpp>

namespace {

struct install_psn_double_where_psn_is_missing
{
  bool installed = false;

  install_psn_double_where_psn_is_missing()
  {
    if (boost::asio_notify::is_supported(boost::asio_notify::port_backend::psn))
    {
      BOOST_TEST_MESSAGE("the system has ProcessSocketNotifications: testing it");
      return;
    }
    BOOST_TEST_MESSAGE("no ProcessSocketNotifications here: the PSN backend runs on the double");
    psn_double::install();
    installed = true;
  }
  ~install_psn_double_where_psn_is_missing()
  {
    if (installed)
      psn_double::uninstall();
  }
};

BOOST_TEST_GLOBAL_FIXTURE(install_psn_double_where_psn_is_missing);

} // namespace
