//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The main of the Beast suites adapted from Beast's own tests (basic_stream_test.cpp): Beast's
// unit_test runner (its main.ipp: every suite, or those named on the command line; exit status
// non-zero when one failed), and one suite of ours, which fails unless this run's reactors
// work on the configuration its registration asked for in BOOST_ASIO_NOTIFY_TEST_RUNS_ON (the
// Boost.Test suites have test/support/reactor_configuration_check.cpp for that): a reactor
// replaces a driver its context cannot host by the next one, so without this check a
// registration could silently repeat another.
#include <boost/asio_notify.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/beast/_experimental/unit_test/suite.hpp>

#include <cstdlib>
#include <sstream>
#include <string>

#include <boost/beast/_experimental/unit_test/main.ipp>

namespace boost {
namespace asio_notify {
namespace beast_test {

class reactor_configuration_test : public boost::beast::unit_test::suite
{
public:
  void run() override
  {
    const char* spec = std::getenv("BOOST_ASIO_NOTIFY_TEST_RUNS_ON");
    if (!spec)
    {
      log << "BOOST_ASIO_NOTIFY_TEST_RUNS_ON is not set (ctest sets it): nothing to check"
          << std::endl;
      pass();
      return;
    }
    boost::asio::io_context ioc;
    const ip::tcp::socket first(ioc); // the first socket settles the driver
    const reactor_options o = boost::asio::use_service<reactor>(ioc).options();
    std::istringstream in(spec);
    std::string item;
    while (std::getline(in, item, ','))
    {
      if (item.empty())
        continue;
      const auto eq = item.find('=');
      const std::string key = item.substr(0, eq);
      const std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
      std::string actual;
      if (key == "driver")
        actual = to_string(o.driver);
      else if (key == "trigger")
        actual = o.trigger == trigger_strategy::oneshot_level ? "oneshot_level" : "persistent_edge";
      else if (key == "backend")
        actual = to_string(o.backend);
      else
        actual = "(unknown key)";
      BEAST_EXPECTS(actual == value, key + ": runs on " + actual + ", registered for " + value);
    }
  }
};

BEAST_DEFINE_TESTSUITE(asio_notify, beast, reactor_configuration);

} // namespace beast_test
} // namespace asio_notify
} // namespace boost
