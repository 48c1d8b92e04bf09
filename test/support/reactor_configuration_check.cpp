//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Linked into each registration of the socket suite (test/reactor/CMakeLists.txt): one more
// case, which fails unless this run's reactors work on the configuration the registration
// asked for. The registration names it in BOOST_ASIO_NOTIFY_TEST_RUNS_ON
// (`driver=<d>,trigger=<t>,backend=<b>`, each key optional) next to the variables that ask
// for it. A reactor replaces a driver its context cannot host by the next one
// (reactor.hpp), so without this check a registration for a driver a platform lacks would
// silently repeat another registration.
#include <boost/asio_notify.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <map>
#include <sstream>
#include <string>

namespace {

namespace an = boost::asio_notify;

constexpr const char* expectation_variable = "BOOST_ASIO_NOTIFY_TEST_RUNS_ON";

// The expected configuration, key by key.
std::map<std::string, std::string> expectations()
{
  std::map<std::string, std::string> keys;
  const char* spec = std::getenv(expectation_variable);
  std::istringstream in(spec ? spec : "");
  std::string item;
  while (std::getline(in, item, ','))
  {
    const auto eq = item.find('=');
    if (!item.empty())
      keys[item.substr(0, eq)] = eq == std::string::npos ? "" : item.substr(eq + 1);
  }
  return keys;
}

boost::test_tools::assertion_result registration_named(boost::unit_test::test_unit_id)
{
  boost::test_tools::assertion_result r(std::getenv(expectation_variable) != nullptr);
  r.message() << expectation_variable << " is not set (ctest sets it)";
  return r;
}

const char* to_string(an::trigger_strategy t)
{
  return t == an::trigger_strategy::oneshot_level ? "oneshot_level" : "persistent_edge";
}

} // namespace

BOOST_AUTO_TEST_CASE(reactor_runs_on_the_registered_configuration,
                     *boost::unit_test::precondition(registration_named))
{
  const auto expected = expectations();
  BOOST_TEST_REQUIRE(!expected.empty(), expectation_variable << " names nothing");
  boost::asio::io_context ioc;
  const an::ip::tcp::socket first(ioc); // the first socket settles the driver
  const an::reactor& r = boost::asio::use_service<an::reactor>(ioc);
  const an::reactor_options o = r.options();
  for (const auto& [key, value] : expected)
  {
    BOOST_TEST_CONTEXT(key)
    {
      if (key == "driver")
        BOOST_TEST(std::string(an::to_string(o.driver)) == value);
      else if (key == "trigger")
        BOOST_TEST(std::string(to_string(o.trigger)) == value);
      else if (key == "backend")
        BOOST_TEST(std::string(an::to_string(o.backend)) == value); // never `automatic`
      else
        BOOST_ERROR("unknown key in " << expectation_variable);
    }
  }
}
