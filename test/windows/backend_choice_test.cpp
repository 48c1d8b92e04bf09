//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Which backend a Windows port runs on: PSN where the system has ProcessSocketNotifications,
// AFD elsewhere (Wine, Windows before build 20348), the environment's or the caller's
// choice over both; asking for PSN where it is missing fails cleanly with
// operation_not_supported and a message naming the build required. No double installed
// here, except where a test installs one to check the hook itself.
#include "psn_double.hpp"

#include <boost/asio_notify/port.hpp>

#include <boost/asio/error.hpp>
#include <boost/system/system_error.hpp>
#include <boost/test/unit_test.hpp>

#include <array>
#include <cstdlib>
#include <ostream>
#include <string>

namespace boost {
namespace asio_notify {
// Test diagnostics (found by Boost.Test through ADL).
inline std::ostream& boost_test_print_type(std::ostream& os, port_backend b)
{
  return os << to_string(b);
}
} // namespace asio_notify
} // namespace boost

namespace an = boost::asio_notify;

namespace {

// What the system itself offers, found independently of the library.
bool system_has_psn()
{
  const HMODULE ws2 = ::LoadLibraryW(L"ws2_32.dll");
  return ws2 && ::GetProcAddress(ws2, "ProcessSocketNotifications") != nullptr;
}

// Sets BOOST_ASIO_NOTIFY_PORT for one scope.
struct port_variable
{
  explicit port_variable(const char* value) { ::_putenv_s(an::port_backend_variable, value); }
  ~port_variable() { ::_putenv_s(an::port_backend_variable, ""); }
};

an::port_backend expected_automatic()
{
  return system_has_psn() ? an::port_backend::psn : an::port_backend::afd;
}

} // namespace

BOOST_AUTO_TEST_SUITE(port_windows_backend_choice)

BOOST_AUTO_TEST_CASE(is_supported_matches_the_system)
{
  BOOST_TEST(an::is_supported(an::port_backend::psn) == system_has_psn());
  BOOST_TEST(an::is_supported(an::port_backend::afd)); // Windows since XP; Wine since 7.13
  BOOST_TEST(!an::is_supported(an::port_backend::epoll));
  BOOST_TEST(an::is_supported());
  BOOST_TEST(an::is_supported(an::port_backend::automatic));
}

BOOST_AUTO_TEST_CASE(automatic_is_psn_where_it_exists_else_afd)
{
  an::port p;
  BOOST_TEST(p.backend() == expected_automatic());
  BOOST_TEST(p.native_handle() != nullptr);
  an::port q(an::port_backend::afd);
  BOOST_TEST(q.backend() == an::port_backend::afd);
}

BOOST_AUTO_TEST_CASE(the_environment_chooses_the_automatic_backend)
{
  {
    port_variable v("afd");
    BOOST_TEST(an::port().backend() == an::port_backend::afd);
  }
  if (system_has_psn())
  {
    port_variable v("psn");
    BOOST_TEST(an::port().backend() == an::port_backend::psn);
  }
  {
    port_variable v("something else"); // ignored: the automatic choice stands
    BOOST_TEST(an::port().backend() == expected_automatic());
  }
  BOOST_TEST(an::port().backend() == expected_automatic());
}

BOOST_AUTO_TEST_CASE(psn_where_it_is_missing_throws_operation_not_supported_naming_the_build)
{
  if (system_has_psn())
  {
    BOOST_TEST_MESSAGE("this system has ProcessSocketNotifications; skipped");
    return;
  }
  try
  {
    an::port p(an::port_backend::psn);
    BOOST_FAIL("port construction succeeded without ProcessSocketNotifications");
  }
  catch (const boost::system::system_error& e)
  {
    BOOST_TEST(e.code() == boost::asio::error::operation_not_supported);
    const std::string what = e.what();
    BOOST_TEST_MESSAGE("what(): " << what);
    BOOST_TEST(what.find("20348") != std::string::npos, what);
    BOOST_TEST(what.find("ProcessSocketNotifications") != std::string::npos, what);
  }
  // Chosen through the environment, the same.
  port_variable v("psn");
  BOOST_CHECK_THROW(an::port(), boost::system::system_error);
}

BOOST_AUTO_TEST_CASE(epoll_is_not_a_windows_backend)
{
  boost::system::error_code ec;
  an::port p(an::port_backend::epoll, ec);
  BOOST_TEST(ec == boost::asio::error::operation_not_supported);
  BOOST_TEST(p.backend() == an::port_backend::automatic);
}

BOOST_AUTO_TEST_CASE(error_code_constructor_reports_without_throwing)
{
  if (system_has_psn())
  {
    BOOST_TEST_MESSAGE("this system has ProcessSocketNotifications; skipped");
    return;
  }
  boost::system::error_code ec;
  an::port p(an::port_backend::psn, ec);
  BOOST_TEST(ec == boost::asio::error::operation_not_supported);
  BOOST_TEST(p.native_handle() == nullptr);

  // The unusable port reports bad_descriptor from every operation, in every entry too.
  an::registration r;
  r.socket = 1234;
  std::array<an::packet, 2> out;
  BOOST_TEST(p.process({&r, 1}, out, an::port::infinite, ec) == 0u);
  BOOST_TEST(ec == boost::asio::error::bad_descriptor);
  BOOST_TEST(r.result == boost::asio::error::bad_descriptor);
  BOOST_TEST(p.apply(r) == boost::asio::error::bad_descriptor);
  p.post(nullptr, 1, ec);
  BOOST_TEST(ec == boost::asio::error::bad_descriptor);
  BOOST_CHECK_THROW(p.post(nullptr), boost::system::system_error);
  BOOST_CHECK_THROW(p.dequeue(out, std::chrono::milliseconds(0)), boost::system::system_error);
}

// The testing hook: a substitute makes PSN ports constructible (and the automatic choice);
// removing it restores the system's answer. Ports keep the function they were created with.
BOOST_AUTO_TEST_CASE(testing_hook_installs_and_restores)
{
  psn_double::install();
  BOOST_TEST(an::is_supported(an::port_backend::psn));
  {
    an::port p;
    BOOST_TEST(p.backend() == an::port_backend::psn);
    psn_double::uninstall();
    BOOST_TEST(an::is_supported(an::port_backend::psn) == system_has_psn());
    int key = 0;
    p.post(&key, 9); // the existing port still works
    std::array<an::packet, 1> out;
    BOOST_TEST_REQUIRE(p.dequeue(out, std::chrono::milliseconds(1000)) == 1u);
    BOOST_TEST(out[0].key == &key);
    BOOST_TEST(out[0].value == 9u);
  }
  boost::system::error_code ec;
  an::port q(an::port_backend::psn, ec);
  BOOST_TEST(!ec == system_has_psn());
}

BOOST_AUTO_TEST_SUITE_END()
