//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The reactor tells its driver of each operation it queues until the driver answers that it
// needs to be told no more (src/drivers/reactor_driver.hpp): the inline drivers arm their
// first wait there, and from then on a queued operation's path makes no virtual call. The
// reactor (src/) with a driver that counts what it is told.
#include "reactor/reactor_impl.hpp"

#include "support/tcp_pair.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/test/unit_test.hpp>

#include <memory>

namespace {

namespace an = boost::asio_notify;
namespace detail = boost::asio_notify::detail;

class counting_driver final : public detail::reactor_driver
{
public:
  counting_driver(int& told, bool again) : told_(told), again_(again) {}
  bool operation_queued() override
  {
    ++told_;
    return again_;
  }
  void stop() override {}

private:
  int& told_;
  bool again_;
};

// A read that always would block, and that knows when the reactor has ended it.
class waiting_read final : public detail::reactor_op
{
public:
  waiting_read() noexcept : reactor_op(&perform, &notify) {}
  bool ended = false;

private:
  static bool perform(reactor_op*, detail::perform_context&) { return false; }
  static void notify(reactor_op* base, detail::op_event event, detail::completion_mode)
  {
    if (event == detail::op_event::finished)
      static_cast<waiting_read*>(base)->ended = true;
  }
};

// How often a driver that answers `again` is told while three reads are queued, on two
// sockets (the second read on the first socket queues behind the first without a try).
int times_told(bool again)
{
  boost::asio::io_context ioc;
  auto first = test_support::make_basic_tcp_pair<boost::asio::ip::tcp>(ioc);
  auto second = test_support::make_basic_tcp_pair<boost::asio::ip::tcp>(ioc);
  int told = 0;
  detail::driven_reactor reactor{an::reactor_options{}};
  reactor.install_driver(std::make_unique<counting_driver>(told, again));
  boost::system::error_code ec;
  detail::descriptor_state* a = reactor.adopt(first.server.native_handle(), ec);
  BOOST_TEST_REQUIRE(!ec);
  detail::descriptor_state* b = reactor.adopt(second.server.native_handle(), ec);
  BOOST_TEST_REQUIRE(!ec);
  waiting_read reads[3];
  reactor.start_op(a, detail::read_op, &reads[0], {});
  reactor.start_op(a, detail::read_op, &reads[1], {});
  reactor.start_op(b, detail::read_op, &reads[2], {});
  const int result = told;
  for (const waiting_read& r : reads)
    BOOST_TEST(!r.ended);
  // Handed back, not closed: the sockets are the pairs'. Their reads end aborted.
  reactor.release(a, ec);
  reactor.release(b, ec);
  for (const waiting_read& r : reads)
    BOOST_TEST(r.ended);
  return result;
}

BOOST_AUTO_TEST_CASE(a_driver_that_declines_is_told_once) { BOOST_TEST(times_told(false) == 1); }

BOOST_AUTO_TEST_CASE(a_driver_that_asks_again_is_told_of_each_operation)
{
  BOOST_TEST(times_told(true) == 3);
}

} // namespace
