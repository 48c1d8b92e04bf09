//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The port a reactor thread lends to the io threads (src/drivers/port_lease.hpp): lent for a
// few packets, it comes back when a look finds nothing or a crowd, when nobody looks, and
// when the driver stops; a reactor thread waiting for it is never left waiting.
#include "drivers/port_lease.hpp"

#include <boost/test/unit_test.hpp>

#include <chrono>
#include <future>
#include <thread>

namespace detail = boost::asio_notify::detail;

namespace {

// Far beyond any patience: a wait that has not returned by then never would.
constexpr std::chrono::seconds no_hang{10};

/// A reactor thread's wait for the port, on a thread of its own.
std::future<void> reactor_thread_waits(detail::port_lease& lease)
{
  return std::async(std::launch::async, [&lease] { lease.wait_for_return(); });
}

bool returns(std::future<void>& wait)
{
  return wait.wait_for(no_hang) == std::future_status::ready;
}

} // namespace

BOOST_AUTO_TEST_CASE(a_look_that_finds_nothing_gives_the_port_back)
{
  detail::port_lease lease;
  BOOST_TEST(!lease.held());
  lease.lend(1);
  BOOST_TEST(lease.held());
  lease.looked(3); // what the look found is performed, and looked at again after
  BOOST_TEST(lease.held());
  lease.looked(0);
  BOOST_TEST(!lease.held());
  lease.wait_for_return(); // not lent: at once
}

BOOST_AUTO_TEST_CASE(a_crowd_of_packets_keeps_the_port_with_the_reactor_threads)
{
  // A stream from afar: a reactor thread dequeuing alongside the io threads keeps it flowing.
  detail::port_lease lease;
  lease.lend(detail::port_lease::few + 1);
  BOOST_TEST(!lease.held());
  lease.lend(detail::port_lease::few);
  BOOST_TEST(lease.held());
  lease.looked(detail::port_lease::few);
  BOOST_TEST(lease.held());
  lease.looked(detail::port_lease::few + 1);
  BOOST_TEST(!lease.held());
}

BOOST_AUTO_TEST_CASE(a_waiting_reactor_thread_takes_the_port_when_a_look_misses)
{
  detail::port_lease lease;
  lease.lend(1);
  std::future<void> wait = reactor_thread_waits(lease);
  // Looks that find packets keep it lent; the wait may go on or, when a patience passes
  // between two of them on a loaded machine, end.
  for (int i = 0; i < 20; ++i)
  {
    lease.looked(1);
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  lease.looked(0);
  BOOST_TEST(returns(wait));
  BOOST_TEST(!lease.held());
}

BOOST_AUTO_TEST_CASE(a_reactor_thread_takes_the_port_back_when_nobody_looks)
{
  // The io threads in long handlers, or a context nobody runs: one patience, then the
  // reactor thread goes back to the port.
  detail::port_lease lease;
  lease.lend(1);
  std::future<void> wait = reactor_thread_waits(lease);
  BOOST_TEST(returns(wait));
  BOOST_TEST(!lease.held());
}

BOOST_AUTO_TEST_CASE(a_closed_lease_lends_no_more_and_its_waiter_returns)
{
  detail::port_lease lease;
  lease.lend(1);
  std::future<void> wait = reactor_thread_waits(lease);
  lease.close();
  BOOST_TEST(returns(wait));
  lease.lend(1);
  BOOST_TEST(!lease.held());
  lease.wait_for_return();
}
