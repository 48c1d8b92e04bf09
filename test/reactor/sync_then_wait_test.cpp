//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The reactor-style pattern: wait for readiness with async_wait, read synchronously on a
// non-blocking socket, wait again. A synchronous read on a non-blocking descriptor tells the
// reactor whether it emptied the receive queue (Linux: TCP_INQ), so that the wait after it
// waits for the port without asking the socket first. Whatever arrives before, between or
// after must still complete the wait; and (Linux) the wait after an emptying read makes no
// poll of the socket, as stock Asio's makes none either (it re-arms its epoll registration).
#include "helpers.hpp"
#include "readiness.hpp"

#include <cstring>

#if defined(__linux__)
#include <poll.h>
#include <signal.h>
#include <time.h>
#endif

#if defined(__linux__)

namespace {

std::atomic<int> watched_fd{-1};
std::atomic<int> polls_of_watched{0};

} // namespace

// This executable's poll replaces the C library's for every caller in it (the library's
// socket layer and Asio's alike, which lets the same test judge both): it counts the polls
// that look at the watched descriptor, and polls through ppoll.
extern "C" int poll(pollfd* fds, nfds_t count, int timeout_ms)
{
  for (nfds_t i = 0; i < count; ++i)
    if (fds[i].fd == watched_fd.load())
      ++polls_of_watched;
  timespec limit{timeout_ms / 1000, static_cast<long>(timeout_ms % 1000) * 1000000L};
  return ::ppoll(fds, count, timeout_ms < 0 ? nullptr : &limit, nullptr);
}

#endif

namespace {

/// A connected pair whose server end has been registered (a wait completed on it) and is in
/// non-blocking mode, as a reactor-style program keeps it; `keep_running` waits on the client
/// for the whole test, so the io_context's runs always look at the port and last their time.
struct reactor_style_pair
{
  explicit reactor_style_pair(asio::io_context& context) : ioc(context), p(make_tcp_pair(ioc))
  {
    p.client.async_wait(tcp::socket::wait_read, capture(keep_running));
    op_result first;
    p.server.async_wait(tcp::socket::wait_read, capture(first));
    asio::write(p.client, asio::buffer("r", 1));
    BOOST_TEST(run_until_done(ioc, first));
    CHECK_OK(first.ec);
    // The registration's own packet (writable) and the one for "r" may come as two, both
    // reporting "r" readable: a thread that dequeues while "r" is being delivered sees the
    // data before the kernel's wake-up for it, which then queues the registration again.
    // Handled after the read below, such a stale packet would complete the next wait, as a
    // stale event of Asio's reactor may. Let it land before the read (the thread driver's
    // reactor thread dequeues on its own, so it can take the first one in that window; the
    // wait on the client keeps this run from ending for want of work before it comes).
    drain(ioc);
    p.server.non_blocking(true);
    BOOST_TEST(read_available() == "r");
  }

  /// Everything a synchronous read can take now (at most 64 bytes).
  std::string read_available()
  {
    char buf[64];
    error_code ec;
    const std::size_t n = p.server.read_some(asio::buffer(buf), ec);
    CHECK_OK(ec);
    return std::string(buf, n);
  }

  /// A readiness wait on the server completes without more data, and a read finds `left`.
  void expect_ready_with(const char* left)
  {
    op_result wait;
    p.server.async_wait(tcp::socket::wait_read, capture(wait));
    BOOST_TEST(run_until_done(ioc, wait));
    CHECK_OK(wait.ec);
    BOOST_TEST(read_available() == left);
  }

  /// A readiness wait on the server waits until the client writes `data`, which a read
  /// then finds.
  void expect_waiting_until(const char* data)
  {
    op_result wait;
    stale_completions +=
        test_reactor_readiness::expect_waiting(ioc, p.server, wait, [this](op_result& r) {
          p.server.async_wait(tcp::socket::wait_read, capture(r));
        });
    asio::write(p.client, asio::buffer(data, std::strlen(data)));
    BOOST_TEST(run_until_done(ioc, wait));
    CHECK_OK(wait.ec);
    BOOST_TEST(read_available() == data);
  }

  asio::io_context& ioc;
  tcp_pair p;
  op_result keep_running;
  int stale_completions = 0; // readiness waits completed by stale packets (expect_waiting)
};

} // namespace

BOOST_AUTO_TEST_SUITE(sync_then_wait)

BOOST_AUTO_TEST_CASE(wait_after_an_emptying_read_completes_when_data_comes)
{
  asio::io_context ioc;
  reactor_style_pair r(ioc);
  r.expect_waiting_until("a");
}

BOOST_AUTO_TEST_CASE(wait_after_a_partial_read_completes_at_once)
{
  asio::io_context ioc;
  reactor_style_pair r(ioc);
  op_result ready;
  r.p.server.async_wait(tcp::socket::wait_read, capture(ready));
  asio::write(r.p.client, asio::buffer("bc", 2));
  BOOST_TEST(run_until_done(ioc, ready));
  char one;
  BOOST_TEST(r.p.server.read_some(asio::buffer(&one, 1)) == 1u);
  r.expect_ready_with("c"); // and no new packet will come for it
}

BOOST_AUTO_TEST_CASE(data_arriving_between_the_read_and_the_wait_completes_it)
{
  asio::io_context ioc;
  reactor_style_pair r(ioc);
  // The read above emptied the queue; data arrives and its packet is handled while no
  // operation waits on the socket.
  asio::write(r.p.client, asio::buffer("d", 1));
  drain(ioc);
  r.expect_ready_with("d");
}

BOOST_AUTO_TEST_CASE(read_that_would_block_then_wait)
{
  asio::io_context ioc;
  reactor_style_pair r(ioc);
  char buf[8];
  error_code ec;
  BOOST_TEST(r.p.server.read_some(asio::buffer(buf), ec) == 0u);
  CHECK_EC(ec, asio::error::would_block);
  r.expect_waiting_until("e");
}

BOOST_AUTO_TEST_CASE(end_of_file_after_an_emptying_read_completes_the_wait)
{
  asio::io_context ioc;
  reactor_style_pair r(ioc);
  op_result wait;
  r.p.server.async_wait(tcp::socket::wait_read, capture(wait));
  drain(ioc);
  r.p.client.shutdown(tcp::socket::shutdown_send);
  BOOST_TEST(run_until_done(ioc, wait));
  CHECK_OK(wait.ec);
  char buf[8];
  error_code ec;
  r.p.server.read_some(asio::buffer(buf), ec);
  CHECK_EC(ec, asio::error::eof);
}

BOOST_AUTO_TEST_CASE(blocking_mode_read_after_an_async_operation)
{
  // non_blocking(false), but an asynchronous read made the descriptor non-blocking: a
  // synchronous read waits for data as Asio's does, and the wait after it still works.
  asio::io_context ioc;
  reactor_style_pair r(ioc);
  r.p.server.non_blocking(false);
  char buf[8];
  op_result read;
  r.p.server.async_read_some(asio::buffer(buf), capture(read));
  asio::write(r.p.client, asio::buffer("fg", 2));
  BOOST_TEST(run_until_done(ioc, read));
  BOOST_TEST(read.bytes == 2u);
  BOOST_TEST(r.p.server.native_non_blocking());
  std::thread late([&] {
    std::this_thread::sleep_for(20ms);
    asio::write(r.p.client, asio::buffer("h", 1));
  });
  BOOST_TEST(r.p.server.read_some(asio::buffer(buf)) == 1u); // waits for "h"
  late.join();
  drain(ioc); // the packet for "h" (a readiness wait may complete for a stale one)
  r.expect_waiting_until("i");
}

#if defined(__linux__)

BOOST_AUTO_TEST_CASE(wait_after_an_emptying_read_makes_no_poll)
{
  asio::io_context ioc;
  reactor_style_pair r(ioc);
  watched_fd = r.p.server.native_handle();
  polls_of_watched = 0;
  for (const char* byte : {"j", "k", "l"})
    r.expect_waiting_until(byte);
  // A wait made again after a stale completion (an adversarial port's) cannot know whether
  // the stale packet's data is still there: it asks.
  BOOST_TEST(polls_of_watched.load() <= r.stale_completions);
  watched_fd = -1;
}

#endif

BOOST_AUTO_TEST_SUITE_END()
