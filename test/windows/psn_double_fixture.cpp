//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Linked into a test executable, this makes every port its tests create use the
// ProcessSocketNotifications test double: how the portable conformance suite (test/port)
// runs against the Windows backend where the system has no PSN (Wine).
#include "psn_double.hpp"

#include <boost/test/unit_test.hpp>

namespace {

struct install_psn_double
{
  install_psn_double() { psn_double::install(); }
  ~install_psn_double() { psn_double::uninstall(); }
};

BOOST_TEST_GLOBAL_FIXTURE(install_psn_double);

} // namespace
