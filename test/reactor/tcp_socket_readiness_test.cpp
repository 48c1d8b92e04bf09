//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// TCP stream socket, readiness: wait and async_wait, null_buffers operations (synchronous
// and asynchronous, out-of-band included), the reads after a read that emptied the queue,
// and the blocking modes that decide whether a synchronous operation waits. The rest of the
// socket is tcp_socket_test.cpp's.
#include "helpers.hpp"
#include "readiness.hpp"

#include <cstddef>
#include <string_view>
#include <thread>
#include <vector>

#if !defined(_WIN32)
#include <sys/ioctl.h>
#endif

using test_reactor_readiness::expect_waiting;

BOOST_AUTO_TEST_SUITE(tcp_socket_readiness)

BOOST_AUTO_TEST_CASE(blocking_waits)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);

  p.client.wait(tcp::socket::wait_write);
  error_code ec;
  p.client.wait(tcp::socket::wait_write, ec);
  CHECK_OK(ec);

  std::thread writer([&] {
    std::this_thread::sleep_for(50ms);
    asio::write(p.client, asio::buffer("r", 1));
  });
  const auto start = std::chrono::steady_clock::now();
  p.server.wait(tcp::socket::wait_read);
  const auto waited = std::chrono::steady_clock::now() - start;
  writer.join();
  BOOST_TEST(p.server.available() == 1u);
  BOOST_TEST((waited >= 30ms));

  std::thread urgent([&] {
    std::this_thread::sleep_for(20ms);
    p.client.send(asio::buffer("u", 1), tcp::socket::message_out_of_band);
  });
  p.server.wait(tcp::socket::wait_error, ec);
  urgent.join();
  CHECK_OK(ec);
}

// Checks a readiness operation on `p.server` that `start(r)` starts (an async_wait, a
// null_buffers read): it waits until the client writes `data`, then completes with success
// having consumed nothing, so that `data`, all of it, is still there to read.
template <class Start>
void expect_ready_on_data(asio::io_context& ioc, tcp_pair& p, op_result& r, std::string_view data,
                          Start start)
{
  expect_waiting(ioc, p.server, r, start);
  asio::write(p.client, asio::buffer(data.data(), data.size()));
  BOOST_TEST(run_until_done(ioc, r));
  CHECK_OK(r.ec);
  BOOST_TEST(r.bytes == 0u);
  BOOST_TEST(read_exactly(p.server, data.size()) == data);
  BOOST_TEST(p.server.available() == 0u);
}

BOOST_AUTO_TEST_CASE(async_wait_read_and_write)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);

  op_result w;
  p.client.async_wait(tcp::socket::wait_write, capture(w));
  BOOST_TEST(run_until_done(ioc, w));
  CHECK_OK(w.ec);

  op_result r;
  expect_ready_on_data(ioc, p, r, "data", [&](op_result& result) {
    p.server.async_wait(tcp::socket::wait_read, capture(result));
  });

  // Several waits on one socket all complete (a stale packet completes both at once).
  op_result r1, r2;
  expect_waiting(ioc, p.server, r1, [&](op_result& first) {
    r2 = op_result();
    p.server.async_wait(tcp::socket::wait_read, capture(first));
    p.server.async_wait(tcp::socket::wait_read, capture(r2));
  });
  asio::write(p.client, asio::buffer("x", 1));
  BOOST_TEST(run_until_done(ioc, r1, r2));
  CHECK_OK(r1.ec);
  CHECK_OK(r2.ec);

  // Peer close makes a pending read wait complete (readable: eof).
  auto q = make_tcp_pair(ioc);
  op_result r3;
  q.server.async_wait(tcp::socket::wait_read, capture(r3));
  drain(ioc);
  q.client.close();
  BOOST_TEST(run_until_done(ioc, r3));
  CHECK_OK(r3.ec);
  drain(ioc);
  for (const op_result* x : {&w, &r, &r1, &r2, &r3})
    BOOST_TEST(x->calls == 1);
}

// Reads `bytes` queued bytes, then checks that the next read fails with `error`.
template <class Socket>
void expect_data_then_error(asio::io_context& ioc, Socket& s, std::size_t bytes, error_code error)
{
  char buf[64];
  op_result data, failed;
  s.async_read_some(asio::buffer(buf), capture(data));
  BOOST_TEST(run_until_done(ioc, data));
  BOOST_TEST(data.bytes == bytes);
  s.async_read_some(asio::buffer(buf), capture(failed));
  BOOST_TEST(run_until_done(ioc, failed));
  CHECK_EC(failed.ec, error);
}

// The reactor skips a read's first attempt when the previous read left the receive
// queue empty (Linux: TCP_INQ) and no packet came since. Whatever arrives later, data,
// end of file or a reset, in any combination with the read before it, must still reach
// the next read.
BOOST_AUTO_TEST_CASE(reads_after_an_emptying_read)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  char buf[64];

  // A short read empties the queue; the next read waits and gets later data.
  asio::write(p.client, asio::buffer("abc", 3));
  op_result first, later;
  p.server.async_read_some(asio::buffer(buf), capture(first));
  BOOST_TEST(run_until_done(ioc, first));
  BOOST_TEST(first.bytes == 3u);
  p.server.async_read_some(asio::buffer(buf), capture(later));
  drain(ioc, 20ms);
  BOOST_TEST(!later.done());
  asio::write(p.client, asio::buffer("defg", 4));
  BOOST_TEST(run_until_done(ioc, later));
  BOOST_TEST(later.bytes == 4u);

  // An exact read with more queued: the rest is read at once, without a new packet.
  asio::write(p.client, asio::buffer("0123456789", 10));
  drain(ioc, 20ms);
  op_result exact, rest;
  asio::async_read(p.server, asio::buffer(buf, 4), capture(exact));
  BOOST_TEST(run_until_done(ioc, exact));
  p.server.async_read_some(asio::buffer(buf), capture(rest));
  BOOST_TEST(run_until_done(ioc, rest));
  BOOST_TEST(rest.bytes == 6u);

  // Data and end of file arriving together: the data, then eof, never a hang.
  asio::write(p.client, asio::buffer("xy", 2));
  p.client.shutdown(tcp::socket::shutdown_send);
  drain(ioc, 20ms);
  expect_data_then_error(ioc, p.server, 2, asio::error::eof);
}

// Starts a wait of `type` on `p.server`, recorded in `r`, before the client writes `data`:
// the data that may, or must not, complete it is the first thing the socket sees.
void start_wait_then_write(tcp_pair& p, tcp::socket::wait_type type, op_result& r,
                           std::string_view data)
{
  p.server.async_wait(type, capture(r));
  asio::write(p.client, asio::buffer(data.data(), data.size()));
}

BOOST_AUTO_TEST_CASE(reset_after_data_reaches_the_read_after_it)
{
  // Data then a reset, both reported before any read: the read that empties the queue
  // must not make the next one wait for a packet that never comes.
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  op_result wait;
  start_wait_then_write(p, tcp::socket::wait_read, wait, "abc");
  BOOST_TEST(run_until_done(ioc, wait));
  reset_close(p.client);
  drain(ioc, 20ms);
  expect_data_then_error(ioc, p.server, 3, peer_reset_read_error());
}

BOOST_AUTO_TEST_CASE(context_destroyed_with_asio_reactor_made_first)
{
  // A timer made first creates Asio's own reactor before the notify reactor, so the
  // context shuts the notify reactor down first: what the inline driver registered with
  // Asio's reactor must be released exactly once (it was freed twice once).
  for (int pending = 0; pending < 2; ++pending)
  {
    asio::io_context ioc;
    asio::steady_timer timer(ioc, std::chrono::hours(1));
    timer.async_wait([](error_code) {});
    auto p = make_tcp_pair(ioc);
    char buf[4];
    op_result read;
    p.server.async_read_some(asio::buffer(buf), capture(read));
    if (!pending)
    {
      asio::write(p.client, asio::buffer("x", 1));
      BOOST_TEST(run_until_done(ioc, read));
    }
    ioc.run_for(std::chrono::milliseconds(5));
  }
}

BOOST_AUTO_TEST_CASE(async_wait_error_on_reset)
{
  // Stock Asio on Linux: a pending wait_error completes with success when the peer resets
  // (EPOLLERR|EPOLLHUP); it is not completed by ordinary data.
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  op_result e;
  start_wait_then_write(p, tcp::socket::wait_error, e, "d");
  drain(ioc, 50ms);
  BOOST_TEST(!e.done());
  reset_close(p.client);
  expect_once(ioc, e, error_code());
  // Data queued before the reset is still delivered, then the error is reported.
  char buf[4];
  error_code ec;
  BOOST_TEST(p.server.read_some(asio::buffer(buf), ec) == 1u);
  CHECK_OK(ec);
  p.server.read_some(asio::buffer(buf), ec);
  CHECK_EC(ec, peer_reset_read_error());
}

BOOST_AUTO_TEST_CASE(async_wait_error_on_urgent_data)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  op_result e;
  if constexpr (notify_backend)
  {
    // Socket state notifications have no urgent-data condition (README, "Differences from
    // stock Asio"): a wait_error started while urgent data is waiting completes at once;
    // urgent data that arrives later is not reported.
    p.client.send(asio::buffer("!", 1), tcp::socket::message_out_of_band);
    p.server.wait(tcp::socket::wait_error); // the urgent byte has arrived
    p.server.async_wait(tcp::socket::wait_error, capture(e));
  }
  else
  {
    p.server.async_wait(tcp::socket::wait_error, capture(e));
    drain(ioc);
    BOOST_TEST(!e.done());
    p.client.send(asio::buffer("!", 1), tcp::socket::message_out_of_band);
  }
  expect_once(ioc, e, error_code());
}

BOOST_AUTO_TEST_CASE(null_buffers_operations)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);

  op_result r;
  expect_ready_on_data(ioc, p, r, "nb", [&](op_result& result) {
    p.server.async_read_some(test_null_buffers(), capture(result));
  });

  op_result rr;
  expect_ready_on_data(ioc, p, rr, "z", [&](op_result& result) {
    p.server.async_receive(test_null_buffers(), capture(result));
  });

  op_result w, s;
  p.client.async_write_some(test_null_buffers(), capture(w));
  p.client.async_send(test_null_buffers(), capture(s));
  BOOST_TEST(run_until_done(ioc, w, s));
  CHECK_OK(w.ec);
  CHECK_OK(s.ec);
  BOOST_TEST(w.bytes == 0u);
  BOOST_TEST(s.bytes == 0u);

  // Synchronous null_buffers reads block until readable and transfer nothing.
  std::thread writer([&] {
    std::this_thread::sleep_for(20ms);
    asio::write(p.client, asio::buffer("q", 1));
  });
  BOOST_TEST(p.server.read_some(test_null_buffers()) == 0u);
  BOOST_TEST(p.server.available() == 1u); // it returned once the byte was there
  writer.join();

  drain(ioc);
  BOOST_TEST(r.calls == 1);
  BOOST_TEST(rr.calls == 1);
  BOOST_TEST(w.calls == 1);
  BOOST_TEST(s.calls == 1);
}

BOOST_AUTO_TEST_CASE(sync_null_buffers_wait_and_transfer_nothing)
{
  // Every synchronous null_buffers form waits for readiness, as Asio's do (poll), and
  // transfers nothing: a read leaves the data queued, and no end of file is reported.
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  char buf[4] = {};
  const auto read_forms = {
      +[](tcp::socket& s, error_code& ec) { return s.read_some(test_null_buffers(), ec); },
      +[](tcp::socket& s, error_code& ec) { return s.receive(test_null_buffers(), 0, ec); },
      +[](tcp::socket& s, error_code&) { return s.read_some(test_null_buffers()); },
      +[](tcp::socket& s, error_code&) {
        return s.receive(test_null_buffers());
      }};
  for (auto read : read_forms)
  {
    late_write data([&] { asio::write(p.client, asio::buffer("r", 1)); });
    error_code ec;
    BOOST_TEST(read(p.server, ec) == 0u);
    CHECK_OK(ec);
    BOOST_TEST(data.started());
    BOOST_TEST(p.server.available() == 1u); // ready, and the byte still there
    BOOST_TEST(p.server.read_some(asio::buffer(buf)) == 1u);
  }

  // A write waits while the send buffer is full, until the peer has read it.
  const auto write_forms = {
      +[](tcp::socket& s, error_code& ec) { return s.write_some(test_null_buffers(), ec); },
      +[](tcp::socket& s, error_code& ec) { return s.send(test_null_buffers(), 0, ec); },
      +[](tcp::socket& s, error_code&) {
        return s.send(test_null_buffers());
      }};
  for (auto write : write_forms)
  {
    const std::size_t queued = fill_send_buffer(p);
    late_write drain_peer([&] {
      std::vector<char> sink(queued);
      asio::read(p.server, asio::buffer(sink));
    });
    error_code ec;
    BOOST_TEST(write(p.client, ec) == 0u);
    CHECK_OK(ec);
    BOOST_TEST(drain_peer.started());
  }

  // At end of stream a null_buffers read is ready, and reports no eof (it reads nothing).
  p.client.shutdown(tcp::socket::shutdown_send);
  error_code ec;
  BOOST_TEST(p.server.read_some(test_null_buffers(), ec) == 0u);
  CHECK_OK(ec);
  p.server.read_some(asio::buffer(buf), ec);
  CHECK_EC(ec, asio::error::eof);
}

BOOST_AUTO_TEST_CASE(sync_waits_in_non_blocking_mode_only_look)
{
  // With non_blocking(true), a synchronous null_buffers form or wait() that is not ready
  // fails with would_block at once, as Asio's (a poll without a timeout); ready, it succeeds.
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  p.server.non_blocking(true);
  error_code ec;
  BOOST_TEST(p.server.read_some(test_null_buffers(), ec) == 0u);
  CHECK_EC(ec, asio::error::would_block);
  BOOST_TEST(p.server.receive(test_null_buffers(), 0, ec) == 0u);
  CHECK_EC(ec, asio::error::would_block);
  CHECK_THROWS_EC(p.server.read_some(test_null_buffers()), asio::error::would_block);
  // (A wait that blocks after all is released, by data or by urgent data, and fails.)
  const auto data = [&] {
    asio::write(p.client, asio::buffer("u", 1));
  };
  const auto urgent = [&] {
    p.client.send(asio::buffer("!", 1), tcp::socket::message_out_of_band);
  };
  BOOST_TEST(returns_within(
      test_timeout, [&] { p.server.wait(tcp::socket::wait_read, ec); }, data));
  CHECK_EC(ec, asio::error::would_block);
  BOOST_TEST(returns_within(
      test_timeout, [&] { p.server.wait(tcp::socket::wait_error, ec); }, urgent));
  CHECK_EC(ec, asio::error::would_block);

  asio::write(p.client, asio::buffer("x", 1));
  BOOST_TEST(wait_until([&] { return p.server.available() > 0; }));
  BOOST_TEST(p.server.read_some(test_null_buffers(), ec) == 0u);
  CHECK_OK(ec);
  p.server.wait(tcp::socket::wait_read, ec);
  CHECK_OK(ec);
  p.server.wait(tcp::socket::wait_write, ec);
  CHECK_OK(ec);

  // A full send buffer: not writable.
  const std::size_t queued = fill_send_buffer(p);
  p.client.non_blocking(true);
  BOOST_TEST(p.client.send(test_null_buffers(), 0, ec) == 0u);
  CHECK_EC(ec, asio::error::would_block);
  p.client.write_some(test_null_buffers(), ec);
  CHECK_EC(ec, asio::error::would_block);
  BOOST_TEST(queued > 0u);
}

BOOST_AUTO_TEST_CASE(async_receive_null_buffers_out_of_band_waits_for_urgent_data)
{
  // async_receive(null_buffers, message_out_of_band) waits in the except queue, as Asio's:
  // ordinary data does not complete it.
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  op_result pending;
  p.server.async_receive(test_null_buffers(), tcp::socket::message_out_of_band, capture(pending));
  asio::write(p.client, asio::buffer("d", 1));
  p.server.wait(tcp::socket::wait_read); // the ordinary byte has arrived
  drain(ioc, 50ms);
  BOOST_TEST(!pending.done());
  if constexpr (notify_backend)
  {
    // Socket state notifications have no urgent-data condition (README, "Differences from
    // stock Asio"): urgent data that arrives while the wait is pending is not reported.
    p.server.cancel();
    BOOST_TEST(run_until_done(ioc, pending));
    CHECK_EC(pending.ec, asio::error::operation_aborted);
    p.client.send(asio::buffer("!", 1), tcp::socket::message_out_of_band);
  }
  else
  {
    p.client.send(asio::buffer("!", 1), tcp::socket::message_out_of_band);
    BOOST_TEST(run_until_done(ioc, pending));
    CHECK_OK(pending.ec);
    BOOST_TEST(pending.bytes == 0u);
  }

  // Started while urgent data is waiting, it completes at once, and reads nothing.
  p.server.wait(tcp::socket::wait_error); // the urgent byte has arrived
  op_result now;
  p.server.async_receive(test_null_buffers(), tcp::socket::message_out_of_band, capture(now));
  BOOST_TEST(run_until_done(ioc, now));
  CHECK_OK(now.ec);
  BOOST_TEST(now.bytes == 0u);
  char buf[4] = {};
  BOOST_TEST(p.server.receive(asio::buffer(buf), tcp::socket::message_out_of_band) == 1u);
  BOOST_TEST(buf[0] == '!');
  BOOST_TEST(read_exactly(p.server, 1) == "d");
  drain(ioc);
  BOOST_TEST(pending.calls == 1);
  BOOST_TEST(now.calls == 1);
}

BOOST_AUTO_TEST_CASE(non_blocking_false_restores_blocking_mode)
{
  // Asio's two modes (its user_set_non_blocking and internal_non_blocking state bits):
  // non_blocking(true) makes the descriptor non-blocking without counting as the mode that
  // native_non_blocking() reports; asynchronous operations set that mode when the descriptor
  // is blocking; non_blocking(false) clears both and puts the descriptor back in blocking mode.
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  tcp::socket& s = p.server;
  [[maybe_unused]] const native_socket fd = s.native_handle();
  const auto async_read_one = [&] {
    async_read_one_byte(ioc, p);
  };

  s.non_blocking(true);
  CHECK_NATIVE_NON_BLOCKING(fd, true);
  BOOST_TEST(!s.native_non_blocking());
  async_read_one(); // the descriptor is non-blocking already: the mode stays unset
  BOOST_TEST(!s.native_non_blocking());

  s.non_blocking(false);
  BOOST_TEST(!s.non_blocking());
  BOOST_TEST(!s.native_non_blocking());
  CHECK_NATIVE_NON_BLOCKING(fd, false);

  async_read_one(); // sets the native mode again
  BOOST_TEST(s.native_non_blocking());
  CHECK_NATIVE_NON_BLOCKING(fd, true);

  error_code ec;
  s.non_blocking(false, ec); // clears it, and the descriptor's
  CHECK_OK(ec);
  BOOST_TEST(!s.native_non_blocking());
  CHECK_NATIVE_NON_BLOCKING(fd, false);
  {
    late_write data([&] { asio::write(p.client, asio::buffer("b", 1)); });
    char buf[4];
    BOOST_TEST(s.read_some(asio::buffer(buf)) == 1u); // a blocking read
    BOOST_TEST(data.started());
  }

  // After an asynchronous operation non_blocking(true) keeps the native mode it set.
  async_read_one();
  s.non_blocking(true);
  BOOST_TEST(s.native_non_blocking());
  CHECK_NATIVE_NON_BLOCKING(fd, true);
  s.non_blocking(false);
  BOOST_TEST(!s.native_non_blocking());
  CHECK_NATIVE_NON_BLOCKING(fd, false);
  async_read_one(); // still works
}

#if !defined(_WIN32) // FIONBIO's argument type differs on Windows (u_long)

// A user-defined io control command setting the non-blocking mode (Asio has none of its own).
struct fionbio_command
{
  int value;
  int name() const { return static_cast<int>(FIONBIO); }
  void* data() { return &value; }
};

BOOST_AUTO_TEST_CASE(io_control_fionbio_sets_the_non_blocking_mode)
{
  // Asio takes FIONBIO through io_control as non_blocking(mode).
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  tcp::socket& s = p.server;
  fionbio_command on{1};
  s.io_control(on);
  BOOST_TEST(s.non_blocking());
  BOOST_TEST(fd_is_nonblocking(s.native_handle()));
  char buf[4];
  error_code ec;
  const auto data = [&] {
    asio::write(p.client, asio::buffer("u", 1));
  }; // should it block
  BOOST_TEST(returns_within(
      test_timeout, [&] { s.read_some(asio::buffer(buf), ec); }, data));
  CHECK_EC(ec, asio::error::would_block);

  async_read_one_byte(ioc, p); // works in that mode
  fionbio_command off{0};
  s.io_control(off, ec);
  CHECK_OK(ec);
  BOOST_TEST(!s.non_blocking());
  BOOST_TEST(!s.native_non_blocking());
  BOOST_TEST(!fd_is_nonblocking(s.native_handle()));
}

#endif // !_WIN32

BOOST_AUTO_TEST_SUITE_END()
