//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The io_context_port driver's overlapped transfers (src/drivers/win/overlapped_transfers.hpp):
// a stream read that would block goes on as an overlapped receive into its own buffers, a
// stream write as an overlapped send from its own, completed by run() with no readiness
// packet; cancelled, closed, released and destroyed with a transfer in flight, they lose no
// data and leave nothing behind. Under Wine on its real sockets.

#include <boost/asio_notify.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/test/unit_test.hpp>

#include "../support/returns_in_time.hpp"
#include "../support/run_until.hpp"
#include "../support/tcp_pair.hpp"

#include <winsock2.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <functional>
#include <thread>
#include <vector>

namespace an = boost::asio_notify;
namespace asio = boost::asio;
using boost::system::error_code;
using tcp = an::ip::tcp;
using test_support::returns_in_time;

namespace {

constexpr auto generous = std::chrono::seconds(20);

// Which transfers go on as overlapped ones.
struct overlapped_kinds
{
  bool receives = true;
  bool sends = true;
};

an::reactor_options on_the_io_context_port(overlapped_kinds kinds)
{
  an::reactor_options o;
  o.driver = an::driver_kind::io_context_port;
  o.backend = an::port_backend::afd;
  o.overlapped_receives = kinds.receives;
  o.overlapped_sends = kinds.sends;
  return o;
}

struct context
{
  explicit context(overlapped_kinds kinds = {})
      : reactor(asio::make_service<an::reactor>(ioc, on_the_io_context_port(kinds)))
  {
  }
  asio::io_context ioc;
  an::reactor& reactor;
};

using tcp_pair = test_support::basic_tcp_pair<tcp::socket>;

tcp_pair make_pair(asio::io_context& ioc) { return test_support::make_basic_tcp_pair<tcp>(ioc); }

// What one read's handler was given, and how often it ran.
struct result
{
  error_code ec;
  std::size_t bytes = 0;
  int calls = 0;
  auto handler()
  {
    return [this](error_code e, std::size_t n) {
      ec = e;
      bytes = n;
      ++calls;
    };
  }
};

// Runs the context until `done` holds, at most `generous`.
template <class Done>
bool run_until(asio::io_context& ioc, Done done)
{
  ioc.restart();
  return test_support::run_until(ioc, done, generous);
}

// Starts a read of `s` into `buf` and lets it go on as an overlapped receive.
template <std::size_t N>
void start_read(asio::io_context& ioc, tcp::socket& s, std::array<char, N>& buf, result& r)
{
  s.async_read_some(asio::buffer(buf), r.handler());
  ioc.restart();
  ioc.poll();
  BOOST_REQUIRE_EQUAL(r.calls, 0);
}

// A connected pair on the io_context's port, with a read of the server's in flight.
struct read_in_flight
{
  read_in_flight() { start_read(c.ioc, p.server, buf, r); }
  context c;
  tcp_pair p = make_pair(c.ioc);
  std::array<char, 16> buf{};
  result r;
};

// More than the two sockets' buffers hold: a send of it stays in flight until the peer reads.
const std::string& more_than_the_buffers_hold()
{
  static const std::string big(32 << 20, 'b');
  return big;
}

// Starts a write of more_than_the_buffers_hold() on `s`, its handler bound to `slot`.
void start_big_write(asio::io_context& ioc, tcp::socket& s, result& r,
                     asio::cancellation_slot slot = {})
{
  s.async_write_some(asio::buffer(more_than_the_buffers_hold()),
                     asio::bind_cancellation_slot(slot, r.handler()));
  ioc.restart();
  ioc.poll();
}

} // namespace

// The read is the receive: no readiness packet, and the data lands in the read's buffer.
// With the option off, the same read waits for readiness.
BOOST_AUTO_TEST_CASE(a_read_that_would_block_goes_on_as_an_overlapped_receive)
{
  for (const bool overlapped : {true, false})
  {
    context c({overlapped, true});
    tcp_pair p = make_pair(c.ioc);
    std::array<char, 16> buf{};
    result r;
    start_read(c.ioc, p.server, buf, r);
    const an::reactor_statistics before = c.reactor.statistics();
    asio::write(p.client, asio::buffer("hello", 5));
    BOOST_REQUIRE(run_until(c.ioc, [&] { return r.calls == 1; }));
    BOOST_TEST(!r.ec, r.ec.message());
    BOOST_TEST(std::string(buf.data(), r.bytes) == "hello");
    const an::reactor_statistics after = c.reactor.statistics();
    BOOST_TEST(c.reactor.options().overlapped_receives == overlapped);
    if (overlapped)
    {
      BOOST_TEST(after.overlapped_receives == 1u);
      BOOST_TEST(after.packets_dequeued == before.packets_dequeued);
    }
    else
    {
      BOOST_TEST(after.overlapped_receives == 0u);
      BOOST_TEST(after.packets_dequeued > before.packets_dequeued);
    }
  }
}

// A receive completes the reads and waits queued behind it as a readiness packet would: a
// wait_read queued behind a read completes with it.
BOOST_FIXTURE_TEST_CASE(a_wait_queued_behind_a_receive_completes_with_it, read_in_flight)
{
  int waited = 0;
  p.server.async_wait(tcp::socket::wait_read, [&](error_code ec) { waited += !ec; });
  asio::write(p.client, asio::buffer("x", 1));
  BOOST_REQUIRE(run_until(c.ioc, [&] { return r.calls == 1 && waited == 1; }));
  BOOST_TEST(r.bytes == 1u);
}

// Reads queued behind the one in flight go on in order; a message split over many reads
// and buffers arrives whole. End of stream and a reset are reported as Windows reports
// them.
BOOST_AUTO_TEST_CASE(queued_reads_keep_their_order_and_the_stream_ends_as_on_windows)
{
  context c;
  tcp_pair p = make_pair(c.ioc);
  std::array<char, 3> a{}, b{}, d{};
  result ra, rb, rd;
  p.server.async_read_some(asio::buffer(a), ra.handler());
  p.server.async_read_some(asio::buffer(b), rb.handler());
  std::array<asio::mutable_buffer, 2> two{asio::buffer(d.data(), 1), asio::buffer(d.data() + 1, 2)};
  p.server.async_read_some(two, rd.handler());
  c.ioc.poll();
  asio::write(p.client, asio::buffer("abcdefghi", 9));
  BOOST_REQUIRE(run_until(c.ioc, [&] { return ra.calls + rb.calls + rd.calls == 3; }));
  BOOST_TEST(std::string(a.data(), ra.bytes) + std::string(b.data(), rb.bytes) +
                 std::string(d.data(), rd.bytes) ==
             std::string("abcdefghi").substr(0, ra.bytes + rb.bytes + rd.bytes));
  BOOST_TEST(ra.bytes + rb.bytes + rd.bytes == 9u);

  result eof;
  start_read(c.ioc, p.server, a, eof);
  p.client.shutdown(tcp::socket::shutdown_send);
  BOOST_REQUIRE(run_until(c.ioc, [&] { return eof.calls == 1; }));
  BOOST_TEST((eof.ec == asio::error::eof), eof.ec.message());

  tcp_pair q = make_pair(c.ioc);
  result reset;
  start_read(c.ioc, q.server, a, reset);
  q.client.set_option(asio::socket_base::linger(true, 0));
  q.client.close();
  BOOST_REQUIRE(run_until(c.ioc, [&] { return reset.calls == 1; }));
  BOOST_TEST((reset.ec == asio::error::connection_reset), reset.ec.message());
  BOOST_TEST(c.reactor.statistics().overlapped_receives >= 3u);
}

// Cancelled through its slot or by cancel(), the read in flight ends with operation_aborted
// once the system has ended its receive, which took nothing: the next read has the data.
BOOST_AUTO_TEST_CASE(cancel_ends_the_receive_and_loses_nothing)
{
  context c;
  tcp_pair p = make_pair(c.ioc);
  std::array<char, 8> buf{};
  for (const bool by_slot : {true, false})
  {
    result r;
    asio::cancellation_signal signal;
    p.server.async_read_some(asio::buffer(buf),
                             asio::bind_cancellation_slot(signal.slot(), r.handler()));
    c.ioc.restart();
    c.ioc.poll();
    BOOST_REQUIRE_EQUAL(r.calls, 0);
    if (by_slot)
      signal.emit(asio::cancellation_type::terminal);
    else
      p.server.cancel();
    BOOST_REQUIRE(run_until(c.ioc, [&] { return r.calls == 1; }));
    BOOST_TEST((r.ec == asio::error::operation_aborted), r.ec.message());
    asio::write(p.client, asio::buffer("data", 4));
    result next;
    p.server.async_read_some(asio::buffer(buf), next.handler());
    BOOST_REQUIRE(run_until(c.ioc, [&] { return next.calls == 1; }));
    BOOST_TEST(std::string(buf.data(), next.bytes) == "data");
  }
}

// Closed with its read in flight, the socket's handler runs once, with operation_aborted,
// and run() then returns: the receive's work is counted off.
BOOST_FIXTURE_TEST_CASE(close_ends_the_receive_once, read_in_flight)
{
  p.server.close();
  c.ioc.restart();
  BOOST_REQUIRE(returns_in_time([&] { c.ioc.run(); }));
  BOOST_TEST(r.calls == 1);
  BOOST_TEST((r.ec == asio::error::operation_aborted), r.ec.message());
}

// Released with its read in flight, the socket is handed back whole: the read ends with
// operation_aborted, and what the peer sends next is the program's to read from the handle.
BOOST_FIXTURE_TEST_CASE(release_ends_the_receive_and_hands_back_a_working_socket, read_in_flight)
{
  const SOCKET handle = static_cast<SOCKET>(p.server.release());
  BOOST_REQUIRE(run_until(c.ioc, [&] { return r.calls == 1; }));
  BOOST_TEST((r.ec == asio::error::operation_aborted), r.ec.message());
  asio::write(p.client, asio::buffer("kept", 4));
  u_long blocking = 0;
  ::ioctlsocket(handle, FIONBIO, &blocking);
  char got[8];
  const int n = ::recv(handle, got, sizeof(got), 0);
  BOOST_TEST(std::string(got, n > 0 ? n : 0) == "kept");
  ::closesocket(handle);
}

// A handle another completion port has is refused by the io_context's: its reads wait for
// readiness, its writes are tried at once, and both work as before.
BOOST_AUTO_TEST_CASE(a_socket_with_a_port_of_its_own_reads_through_readiness)
{
  context c;
  tcp_pair p = make_pair(c.ioc);
  const HANDLE other = ::CreateIoCompletionPort(INVALID_HANDLE_VALUE, nullptr, 0, 1);
  BOOST_REQUIRE(other);
  const auto native = p.server.release();
  BOOST_REQUIRE(::CreateIoCompletionPort(reinterpret_cast<HANDLE>(native), other, 0, 1));
  tcp::socket server(c.ioc, tcp::v4(), native);
  std::array<char, 8> buf{};
  result r;
  start_read(c.ioc, server, buf, r);
  asio::write(p.client, asio::buffer("ok", 2));
  BOOST_REQUIRE(run_until(c.ioc, [&] { return r.calls == 1; }));
  BOOST_TEST(std::string(buf.data(), r.bytes) == "ok");
  result sent;
  server.async_write_some(asio::buffer("back", 4), sent.handler());
  BOOST_REQUIRE(run_until(c.ioc, [&] { return sent.calls == 1; }));
  BOOST_TEST(sent.bytes == 4u);
  std::array<char, 4> back{};
  asio::read(p.client, asio::buffer(back));
  BOOST_TEST(std::string(back.data(), 4) == "back");
  BOOST_TEST(c.reactor.statistics().overlapped_receives == 0u);
  BOOST_TEST(c.reactor.statistics().overlapped_sends == 0u);
  server.close();
  ::CloseHandle(other);
}

// The write is the send: one overlapped send of the whole buffer, which completes once the
// peer has read enough of it, and a write queued behind goes on after it, in order. With the
// option off, the same write completes at once with what the buffers took.
BOOST_AUTO_TEST_CASE(a_write_goes_on_as_an_overlapped_send_of_the_whole_buffer)
{
  const std::string& big = more_than_the_buffers_hold();
  for (const bool overlapped : {true, false})
  {
    context c({true, overlapped});
    tcp_pair p = make_pair(c.ioc);
    result first, second;
    start_big_write(c.ioc, p.server, first);
    BOOST_TEST(c.reactor.options().overlapped_sends == overlapped);
    if (!overlapped)
    {
      BOOST_TEST(first.calls == 1);
      BOOST_TEST((first.bytes > 0u && first.bytes < big.size()), first.bytes);
      BOOST_TEST(c.reactor.statistics().overlapped_sends == 0u);
      continue;
    }
    BOOST_REQUIRE_EQUAL(first.calls, 0);
    p.server.async_write_some(asio::buffer("tail", 4), second.handler());
    bool waited_behind = false; // a wait queued behind the send completes after it
    p.server.async_wait(tcp::socket::wait_write,
                        [&](error_code ec) { waited_behind = !ec && first.calls == 1; });
    c.ioc.poll();
    BOOST_TEST(first.calls + second.calls == 0);
    BOOST_TEST(c.reactor.statistics().overlapped_sends == 1u); // the tail waits behind
    std::string got(big.size() + 4, '\0');
    std::thread reader([&] {
      error_code ec;
      got.resize(asio::read(p.client, asio::buffer(got), ec));
    });
    const bool both = run_until(c.ioc, [&] { return second.calls == 1 && waited_behind; });
    reader.join();
    BOOST_REQUIRE(both);
    BOOST_TEST(!first.ec, first.ec.message());
    BOOST_TEST(first.bytes == big.size());
    BOOST_TEST(second.bytes == 4u);
    BOOST_TEST(waited_behind);
    BOOST_TEST((got == big + "tail"));
    BOOST_TEST(c.reactor.statistics().overlapped_sends == 2u);
  }
}

// Cancelled through its slot or by cancel(), or closed, a write in flight ends once, with
// operation_aborted, and run() then returns: the send's work is counted off.
BOOST_AUTO_TEST_CASE(cancel_and_close_end_a_send_in_flight_once)
{
  for (const char* how : {"slot", "cancel", "close"})
  {
    context c;
    tcp_pair p = make_pair(c.ioc);
    result r;
    asio::cancellation_signal signal;
    start_big_write(c.ioc, p.server, r, signal.slot());
    BOOST_REQUIRE_EQUAL(r.calls, 0);
    if (how == std::string("slot"))
      signal.emit(asio::cancellation_type::terminal);
    else if (how == std::string("cancel"))
      p.server.cancel();
    else
      p.server.close();
    c.ioc.restart();
    BOOST_REQUIRE(returns_in_time([&] { c.ioc.run(); }));
    BOOST_TEST(r.calls == 1, how);
    BOOST_TEST((r.ec == asio::error::operation_aborted), how << ": " << r.ec.message());
  }
}

// Echo on 1 to 4 threads over 20 connections: every byte comes back, in order.
BOOST_AUTO_TEST_CASE(echo_on_one_to_four_threads)
{
  constexpr std::size_t connections = 20, messages = 50;
  for (std::size_t threads = 1; threads <= 4; ++threads)
  {
    context c;
    std::vector<std::unique_ptr<tcp_pair>> pairs;
    for (std::size_t i = 0; i < connections; ++i)
      pairs.push_back(std::make_unique<tcp_pair>(make_pair(c.ioc)));
    std::atomic<std::size_t> echoed{0};
    std::function<void(tcp::socket&, std::shared_ptr<std::array<char, 64>>)> echo =
        [&](tcp::socket& s, std::shared_ptr<std::array<char, 64>> buf) {
          s.async_read_some(asio::buffer(*buf), [&, buf](error_code ec, std::size_t n) {
            if (ec)
              return;
            asio::async_write(s, asio::buffer(buf->data(), n), [&, buf](error_code e, std::size_t) {
              if (!e)
                echo(s, buf);
            });
          });
        };
    std::function<void(tcp::socket&, std::size_t, std::shared_ptr<std::array<char, 8>>)> ask =
        [&](tcp::socket& s, std::size_t i, std::shared_ptr<std::array<char, 8>> buf) {
          if (i == messages)
            return;
          const std::string m = std::to_string(1000000 + i);
          std::copy(m.begin(), m.end(), buf->begin());
          asio::async_write(
              s, asio::buffer(buf->data(), 7), [&, i, buf](error_code ec, std::size_t) {
                if (ec)
                  return;
                asio::async_read(
                    s, asio::buffer(buf->data(), 7), [&, i, buf](error_code e, std::size_t) {
                      if (!e && std::string(buf->data(), 7) == std::to_string(1000000 + i))
                      {
                        ++echoed;
                        ask(s, i + 1, buf);
                      }
                    });
              });
        };
    for (auto& p : pairs)
    {
      echo(p->server, std::make_shared<std::array<char, 64>>());
      ask(p->client, 0, std::make_shared<std::array<char, 8>>());
    }
    std::vector<std::thread> pool;
    for (std::size_t t = 0; t < threads; ++t)
      pool.emplace_back([&] {
        const auto deadline = std::chrono::steady_clock::now() + generous;
        while (echoed < connections * messages && std::chrono::steady_clock::now() < deadline)
          c.ioc.run_one_for(std::chrono::milliseconds(50));
      });
    for (std::thread& t : pool)
      t.join();
    BOOST_TEST(echoed.load() == connections * messages, threads << " threads");
    BOOST_TEST(c.reactor.statistics().overlapped_receives > 0u);
    BOOST_TEST(c.reactor.statistics().overlapped_sends > 0u);
    for (auto& p : pairs)
      p->client.close(); // the echo's reads end with end of stream, and nothing is left
    c.ioc.restart();
    BOOST_TEST(returns_in_time([&] { c.ioc.run(); }));
  }
}

// The io_context destroyed with transfers in flight: Asio's shutdown waits for each counted
// one (an infinite wait), so a transfer left uncancelled or miscounted would hang here. Every
// handler is destroyed, none invoked, and the buffers they own outlive their transfers. The
// handlers own the sockets, which are still open when the reactor shuts down.
BOOST_AUTO_TEST_CASE(destruction_with_transfers_in_flight_neither_hangs_nor_leaks)
{
  auto alive = std::make_shared<int>(0);
  std::size_t invoked = 0;
  BOOST_REQUIRE(returns_in_time([&] {
    context c;
    std::vector<std::shared_ptr<tcp_pair>> pairs;
    for (int i = 0; i < 30; ++i)
    {
      auto pair = std::make_shared<tcp_pair>(make_pair(c.ioc));
      pairs.push_back(pair);
      auto buf = std::make_shared<std::array<char, 16>>();
      pair->server.async_read_some(asio::buffer(*buf),
                                   [&, alive, buf, pair](error_code, std::size_t) { ++invoked; });
    }
    auto big = std::make_shared<std::string>(more_than_the_buffers_hold());
    for (int i = 20; i < 30; ++i) // sends the peers never read
      pairs[i]->server.async_write_some(
          asio::buffer(*big),
          [&, alive, big, pair = pairs[i]](error_code, std::size_t) { ++invoked; });
    c.ioc.poll(); // the transfers are in flight
    BOOST_TEST(c.reactor.statistics().overlapped_receives == 30u);
    BOOST_TEST(c.reactor.statistics().overlapped_sends == 10u);
    BOOST_TEST(alive.use_count() == 41);
    BOOST_TEST(big.use_count() == 11);
    for (int i = 0; i < 10; ++i) // and some complete meanwhile, not yet dequeued
      asio::write(pairs[i]->client, asio::buffer("late", 4));
    pairs.clear(); // the sockets live on in the handlers
  }));
  BOOST_TEST(invoked == 0u);
  BOOST_TEST(alive.use_count() == 1);
}
