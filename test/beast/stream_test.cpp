//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// boost::asio_notify::beast::basic_stream beyond Beast's own test (basic_stream_test.cpp):
// - where it differs from Beast's stream (doc/beast.md, "Where it differs from Beast's"):
//   cancel() leaves a rate limit working, an operation cancelled while it waits for allowance
//   takes its timeout with it, a moved stream keeps its rate limit, a moved-from stream keeps
//   no timeout; an operation's timeout costs no timer update and no cancelled wait. Beast
//   1.81-1.90 fails each (checked by compiling this file against
//   boost::beast::basic_stream), so they run on the library's stream only;
// - timeouts on the deadline timer that operations share: a shorter one replaces a longer
//   wait, and run() returns once nothing is watched;
// - interfaces of newer Boost versions: async_connect with a condition and the default
//   token (deferred, Boost 1.84+), and cancel_after (Boost 1.86+), which needs the
//   initiation's executor.
#include <boost/asio_notify/beast.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/test/unit_test.hpp>
#include <boost/version.hpp>

#if BOOST_VERSION >= 108600
#include <boost/asio/cancel_after.hpp>
#endif

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace asio = boost::asio;
namespace beast = boost::asio_notify::beast;
using tcp = boost::asio_notify::ip::tcp;
using boost::system::error_code;
using limited_stream = beast::basic_stream<tcp, asio::any_io_executor, beast::simple_rate_policy>;

// A stream connected over loopback to a peer that reads and discards on its own thread.
struct connected
{
  connected() : acceptor(ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)), stream(ioc)
  {
    stream.connect(acceptor.local_endpoint());
    acceptor.accept(peer);
    reader = std::thread([this] {
      char discarded[4096];
      error_code ec;
      while (!ec)
        peer.read_some(asio::buffer(discarded), ec);
    });
  }

  ~connected()
  {
    stream.close();
    reader.join();
  }

  asio::io_context ioc;
  tcp::acceptor acceptor;
  tcp::socket peer{ioc};
  limited_stream stream;
  std::thread reader;
};

// A stream connected over loopback to a peer that, on its own thread, sends back each byte
// it reads.
struct echoed
{
  echoed() : acceptor(ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)), stream(ioc)
  {
    stream.connect(acceptor.local_endpoint());
    acceptor.accept(peer);
    echo = std::thread([this] {
      char echoed_byte;
      error_code ec;
      while (!ec && peer.read_some(asio::buffer(&echoed_byte, 1), ec) == 1)
        asio::write(peer, asio::buffer(&echoed_byte, 1), ec);
    });
  }

  ~echoed()
  {
    stream.close();
    echo.join();
  }

  // `n` round trips of one byte, each operation with `timeout` when it has one; returns the
  // handlers run() ran.
  std::size_t round_trips(std::size_t n, std::optional<std::chrono::seconds> timeout)
  {
    std::size_t left = n;
    std::function<void()> next = [&] {
      if (left-- == 0)
        return;
      if (timeout)
        stream.expires_after(*timeout);
      stream.async_write_some(asio::buffer("r", 1), [&](const error_code& ec, std::size_t) {
        if (ec)
          return;
        if (timeout)
          stream.expires_after(*timeout);
        stream.async_read_some(asio::buffer(&byte, 1), [&](const error_code& e, std::size_t) {
          if (!e)
            next();
        });
      });
    };
    next();
    ioc.restart();
    const std::size_t handlers = ioc.run();
    BOOST_TEST(left == std::size_t(-1), "round trips left: " << left + 1);
    return handlers;
  }

  asio::io_context ioc;
  tcp::acceptor acceptor;
  tcp::socket peer{ioc};
  limited_stream stream;
  std::thread echo;
  char byte = 0;
};

// Writes `data` with async_write, counting in `writes` the write_some operations it takes,
// then closes the stream (which stops its rate tick) and sets `result`.
void write_counting(limited_stream& stream, const std::string& data, std::size_t& writes,
                    error_code& result)
{
  asio::async_write(
      stream, asio::buffer(data),
      [&data, &writes](const error_code& ec, std::size_t done) -> std::size_t {
        if (ec || done == data.size())
          return 0;
        ++writes;
        return data.size() - done;
      },
      [&stream, &result](const error_code& ec, std::size_t) {
        result = ec;
        stream.close();
      });
}

} // namespace

BOOST_AUTO_TEST_CASE(cancel_leaves_the_rate_limit_working)
{
  connected c;
  c.stream.rate_policy().write_limit(1000);
  const std::string data(2500, 'x');
  std::size_t writes = 0;
  error_code first, second;
  // The first write starts the one-second tick; cancel() then cancels it, with nothing else
  // pending. Beast's stream never counts the cancelled tick out, so its policy is never
  // refilled and the second write goes one byte at a time (2,001 writes).
  asio::async_write(c.stream, asio::buffer(data), [&](const error_code& ec, std::size_t) {
    first = ec;
    c.stream.cancel();
    asio::post(c.ioc, [&] { write_counting(c.stream, data, writes, second); });
  });
  c.ioc.run();
  BOOST_TEST(!first);
  BOOST_TEST(!second);
  BOOST_TEST(writes <= 4u, "2,500 bytes at 1,000 bytes/s took " << writes << " writes");
}

BOOST_AUTO_TEST_CASE(an_operation_cancelled_while_waiting_for_allowance_ends_its_timeout)
{
  connected c;
  c.stream.rate_policy().write_limit(10);
  const std::string data(20, 'x');
  error_code filled, waiting_result;
  asio::steady_timer cancel_timer(c.ioc);
  // 20 bytes at 10 per second: the write spends the first second's allowance and the
  // second's, leaving none; the next write waits for the tick, watched by a timeout.
  asio::async_write(c.stream, asio::buffer(data), [&](const error_code& ec, std::size_t) {
    filled = ec;
    c.stream.expires_after(std::chrono::milliseconds(300));
    c.stream.async_write_some(asio::buffer(data),
                              [&](const error_code& ec2, std::size_t) { waiting_result = ec2; });
    cancel_timer.expires_after(std::chrono::milliseconds(20));
    cancel_timer.async_wait([&](const error_code&) { c.stream.cancel(); });
  });
  // Well past the timeout: Beast's stream has closed the socket by then, with no operation
  // pending.
  c.ioc.run_until(std::chrono::steady_clock::now() + std::chrono::milliseconds(700));
  const bool open_after_timeout = c.stream.socket().is_open();
  c.stream.close();
  c.ioc.run();
  BOOST_TEST(!filled);
  BOOST_TEST(waiting_result == asio::error::operation_aborted);
  BOOST_TEST(open_after_timeout);
}

BOOST_AUTO_TEST_CASE(a_moved_stream_keeps_its_rate_limit)
{
  connected c;
  c.stream.rate_policy().write_limit(1000);
  const std::string data(2500, 'x');
  std::size_t writes = 0;
  error_code first;
  error_code second = asio::error::in_progress; // until the write completes
  std::optional<limited_stream> moved;
  // The first write starts the one-second tick, which holds the first stream's state; the
  // stream is then moved, as a program moves it into a WebSocket after an HTTP upgrade.
  // Beast's moved stream counts that tick as its own waiter and is never refilled.
  asio::async_write(c.stream, asio::buffer(data), [&](const error_code& ec, std::size_t) {
    first = ec;
    moved.emplace(std::move(c.stream));
    write_counting(*moved, data, writes, second);
  });
  // Bounded: Beast's stream never finishes.
  c.ioc.run_for(std::chrono::seconds(10));
  BOOST_TEST(!first);
  BOOST_TEST(!second);
  BOOST_TEST(writes > 0u);
  BOOST_TEST(writes <= 4u, "2,500 bytes at 1,000 bytes/s took " << writes << " writes");
}

BOOST_AUTO_TEST_CASE(a_moved_from_stream_keeps_no_timeout)
{
  connected c;
  c.stream.expires_after(std::chrono::seconds(30));
  limited_stream moved(std::move(c.stream));
  // Used again, the moved-from stream has no timeout: Beast's times its next operation out
  // at once (its moved timers expire at the clock's epoch).
  c.stream.connect(c.acceptor.local_endpoint());
  tcp::socket second_peer(c.ioc);
  c.acceptor.accept(second_peer);
  char byte = 0;
  error_code read_result;
  std::size_t read_bytes = 0;
  c.stream.async_read_some(asio::buffer(&byte, 1), [&](const error_code& ec, std::size_t n) {
    read_result = ec;
    read_bytes = n;
  });
  asio::steady_timer later(c.ioc, std::chrono::milliseconds(100));
  later.async_wait([&](const error_code&) { asio::write(second_peer, asio::buffer("x", 1)); });
  c.ioc.run();
  BOOST_TEST(!read_result, read_result.message());
  BOOST_TEST(read_bytes == 1u);
  BOOST_TEST(byte == 'x');
  moved.close();
}

// The deadline timer's wait is left in place from one operation to the next: operations
// with a timeout run no more handlers than without one (Beast's stream runs the cancelled
// wait of each, two a round trip).
BOOST_AUTO_TEST_CASE(an_operations_timeout_costs_no_cancelled_wait)
{
  constexpr std::size_t n = 100;
  echoed e;
  const std::size_t untimed = e.round_trips(n, std::nullopt);
  const std::size_t timed = e.round_trips(n, std::chrono::seconds(30));
  BOOST_TEST(timed < untimed + n / 4, "handlers: " << timed << " with timeouts, " << untimed
                                                   << " without, for " << n << " round trips");
}

// A timeout shorter than the wait in place replaces it: the read times out at its own
// deadline, not at the 30 s one the write before it left.
BOOST_AUTO_TEST_CASE(a_shorter_timeout_replaces_the_wait_in_place)
{
  connected c;
  error_code write_result, read_result;
  char byte = 0;
  c.stream.expires_after(std::chrono::seconds(30));
  c.stream.async_write_some(asio::buffer("w", 1), [&](const error_code& ec, std::size_t) {
    write_result = ec;
    c.stream.expires_after(std::chrono::milliseconds(100));
    c.stream.async_read_some(asio::buffer(&byte, 1), // the peer never writes
                             [&](const error_code& e, std::size_t) { read_result = e; });
  });
  const auto start = std::chrono::steady_clock::now();
  c.ioc.run_for(std::chrono::seconds(10));
  BOOST_TEST(!write_result, write_result.message());
  BOOST_TEST((read_result == boost::beast::error::timeout), read_result.message());
  BOOST_TEST((std::chrono::steady_clock::now() - start < std::chrono::seconds(5)));
}

// The wait in place keeps the context's work only while an operation is watched: run()
// returns when the last handler starts nothing, not when its timeout would have passed.
BOOST_AUTO_TEST_CASE(run_returns_once_nothing_is_watched)
{
  connected c;
  error_code result(asio::error::would_block);
  c.stream.expires_after(std::chrono::seconds(30));
  c.stream.async_write_some(asio::buffer("w", 1),
                            [&](const error_code& ec, std::size_t) { result = ec; });
  const auto start = std::chrono::steady_clock::now();
  c.ioc.run();
  BOOST_TEST(!result, result.message());
  BOOST_TEST((std::chrono::steady_clock::now() - start < std::chrono::seconds(5)));
}

// A handler that throws still lets the wait go: the next run() returns at once.
BOOST_AUTO_TEST_CASE(a_throwing_handler_leaves_no_wait_behind)
{
  connected c;
  c.stream.expires_after(std::chrono::seconds(30));
  c.stream.async_write_some(asio::buffer("w", 1), [](const error_code&, std::size_t) {
    throw std::runtime_error("from the handler");
  });
  BOOST_CHECK_THROW(c.ioc.run(), std::runtime_error);
  const auto start = std::chrono::steady_clock::now();
  c.ioc.restart();
  c.ioc.run_for(std::chrono::seconds(10));
  BOOST_TEST((std::chrono::steady_clock::now() - start < std::chrono::seconds(5)));
}

#if BOOST_VERSION >= 108400
BOOST_AUTO_TEST_CASE(async_connect_takes_a_condition_with_the_default_token)
{
  asio::io_context ioc;
  tcp::acceptor acceptor(ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  limited_stream stream(ioc);
  // The first endpoint is refused by the condition; with the default (deferred) token the
  // condition must be taken as one, not as the completion token.
  const std::vector<tcp::endpoint> endpoints{tcp::endpoint(asio::ip::make_address("127.0.0.1"), 1),
                                             acceptor.local_endpoint()};
  std::size_t conditions_called = 0;
  auto skip_port_1 = [&](const error_code&, const tcp::endpoint& next) {
    ++conditions_called;
    return next.port() != 1;
  };
  error_code result;
  tcp::endpoint connected_to;
  stream.async_connect(endpoints, skip_port_1)([&](const error_code& ec, tcp::endpoint e) {
    result = ec;
    connected_to = e;
  });
  tcp::socket peer(ioc);
  acceptor.accept(peer);
  ioc.run();
  BOOST_TEST(!result, result.message());
  BOOST_TEST(connected_to == acceptor.local_endpoint());
  BOOST_TEST(conditions_called == 2u);
}
#endif

#if BOOST_VERSION >= 108600
BOOST_AUTO_TEST_CASE(cancel_after_ends_a_read)
{
  connected c;
  error_code result;
  char byte = 0;
  c.stream.async_read_some(
      asio::buffer(&byte, 1),
      asio::cancel_after(std::chrono::milliseconds(50),
                         [&](const error_code& ec, std::size_t) { result = ec; }));
  c.ioc.run_for(std::chrono::seconds(5));
  BOOST_TEST(result == asio::error::operation_aborted);
}
#endif
