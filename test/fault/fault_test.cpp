//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Fault injection on real loopback connections: resets, half-close, closes and cancels
// racing the reactor, descriptor exhaustion, blocked writers, invalid handles, and an
// io_context stopped and restarted. Every case runs under every reactor configuration.

#include "support/reactor_configs.hpp"
#include "support/wine.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/test/unit_test.hpp>

#if defined(_WIN32)
#include <windows.h> // after Asio's winsock2.h
#else
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <random>
#include <thread>
#include <vector>

namespace asio = boost::asio;
using boost::system::error_code;
using namespace test_support;

namespace {

constexpr auto generous = std::chrono::seconds(20);

// Reset the connection: SO_LINGER with zero timeout makes close() send RST.
void reset(tcp::socket& s)
{
  s.set_option(asio::socket_base::linger(true, 0));
  s.close();
}

bool is_reset(const error_code& ec)
{
  return ec == asio::error::connection_reset || ec == asio::error::broken_pipe;
}

// What a read gets after the peer's reset: a reset, except under Wine (8), whose
// non-blocking recv reads a reset as a graceful close (0 bytes, never WSAECONNRESET; plain
// Winsock does the same); an overlapped receive (`r` on io_context_port) hears the reset.
// Asserted, so the mark fails, and goes, once Wine reports the reset.
bool is_read_reset(const error_code& ec, const an::reactor& r)
{
  return under_wine() && !reads_overlapped(r) ? ec == asio::error::eof : is_reset(ec);
}

// Close a socket's handle behind its object's back.
void close_native(tcp::socket& s)
{
#if defined(_WIN32)
  ::closesocket(s.native_handle());
#else
  ::close(s.native_handle());
#endif
}

// Whether the value of a closed handle names an object again. Another thread may take it:
// under Wine the runtime's own threads do within milliseconds (an unsignalled waitable
// object, seen in the adversarial fault run), and an operation then meets that object.
bool handle_value_in_use(tcp::socket::native_handle_type h)
{
#if defined(_WIN32)
  DWORD flags = 0;
  return ::GetHandleInformation(reinterpret_cast<HANDLE>(h), &flags) != FALSE;
#else
  return ::fcntl(h, F_GETFD) != -1;
#endif
}

} // namespace

BOOST_AUTO_TEST_CASE(peer_reset_in_the_middle_of_a_read)
{
  for_each_reactor_options([](const an::reactor_options& o) {
    asio::io_context ioc;
    an::reactor& r = install(ioc, o);
    auto p = make_tcp_pair(ioc);
    std::vector<char> buf(64);
    error_code result;
    int calls = 0;
    // Some data first, then the reset: the read of more than was sent fails midway.
    asio::write(p.client, asio::buffer("partial", 7));
    asio::async_read(p.server, asio::buffer(buf), [&](error_code ec, std::size_t n) {
      result = ec;
      ++calls;
      BOOST_TEST(n == 7u);
    });
    asio::post(ioc, [&] { reset(p.client); });
    ioc.run_for(generous);
    BOOST_TEST(calls == 1);
    BOOST_TEST(is_read_reset(result, r), result.message());
  });
}

BOOST_AUTO_TEST_CASE(peer_reset_in_the_middle_of_a_write)
{
  for_each_reactor_options([](const an::reactor_options& o) {
    asio::io_context ioc;
    install(ioc, o);
    auto p = make_tcp_pair(ioc);
    // Far more than the socket buffers hold: the write must wait for the peer.
    std::vector<char> big(32 << 20, 'x');
    error_code result;
    std::size_t written = 0;
    int calls = 0;
    asio::async_write(p.client, asio::buffer(big), [&](error_code ec, std::size_t n) {
      result = ec;
      written = n;
      ++calls;
    });
    asio::steady_timer t(ioc, std::chrono::milliseconds(100));
    t.async_wait([&](error_code) { reset(p.server); });
    ioc.run_for(generous);
    BOOST_TEST(calls == 1);
    BOOST_TEST(is_reset(result), result.message());
    BOOST_TEST(written < big.size());
  });
}

BOOST_AUTO_TEST_CASE(half_close_then_reads_continue)
{
  for_each_reactor_options([](const an::reactor_options& o) {
    asio::io_context ioc;
    install(ioc, o);
    auto p = make_tcp_pair(ioc);
    // a sends and shuts down its sending side; b reads all of it then end of file, and
    // can still answer; a reads the answer.
    asio::write(p.client, asio::buffer("request", 7));
    p.client.shutdown(tcp::socket::shutdown_send);
    std::string got;
    std::vector<char> chunk(3);
    error_code end;
    std::function<void()> read_more = [&] {
      p.server.async_read_some(asio::buffer(chunk), [&](error_code ec, std::size_t n) {
        got.append(chunk.data(), n);
        if (!ec)
          return read_more();
        end = ec;
        asio::async_write(p.server, asio::buffer("reply", 5), [](error_code, std::size_t) {});
      });
    };
    read_more();
    char reply[5] = {};
    error_code reply_ec;
    asio::async_read(p.client, asio::buffer(reply),
                     [&](error_code ec, std::size_t) { reply_ec = ec; });
    ioc.run_for(generous);
    BOOST_TEST(got == "request");
    BOOST_TEST((end == asio::error::eof));
    BOOST_TEST(!reply_ec);
    BOOST_TEST(std::string(reply, 5) == "reply");
  });
}

BOOST_AUTO_TEST_CASE(close_from_another_thread_while_packets_are_in_flight)
{
  for_each_reactor_options([](const an::reactor_options& base) {
    an::reactor_options o = base;
    o.threads = 2;
    for (int round = 0; round < 20; ++round)
    {
      asio::io_context ioc(2);
      install(ioc, o);
      auto p = std::make_unique<tcp_pair>(make_tcp_pair(ioc));
      std::atomic<int> read_calls{0}, write_calls{0};
      std::vector<char> in(1 << 16), out(1 << 20, 'y');
      // Traffic both ways so packets keep arriving for b while it is closed.
      asio::async_read(p->server, asio::buffer(in), [&](error_code, std::size_t) { ++read_calls; });
      asio::async_write(p->server, asio::buffer(out),
                        [&](error_code, std::size_t) { ++write_calls; });
      std::thread writer([&] {
        error_code ignored;
        for (int i = 0; i < 50; ++i)
          asio::write(p->client, asio::buffer(out.data(), 512), ignored);
      });
      std::thread runner([&] { ioc.run_for(generous); });
      std::this_thread::sleep_for(std::chrono::microseconds(200 * (round % 5)));
      asio::post(ioc, [&] { p->server.close(); }); // close on an io thread while packets flow
      writer.join();
      p->client.close();
      runner.join();
      BOOST_TEST(read_calls == 1);
      BOOST_TEST(write_calls == 1);
    }
  });
}

BOOST_AUTO_TEST_CASE(cancellation_racing_completion_runs_the_handler_once)
{
  for_each_reactor_options([](const an::reactor_options& o) {
    asio::io_context ioc;
    install(ioc, o);
    auto p = make_tcp_pair(ioc);
    std::mt19937 rng(42);
    int success = 0, aborted = 0, calls = 0, other = 0;
    for (int i = 0; i < 200; ++i)
    {
      asio::cancellation_signal signal;
      char c = 0;
      p.server.async_read_some(
          asio::buffer(&c, 1),
          asio::bind_cancellation_slot(signal.slot(), [&](error_code ec, std::size_t) {
            ++calls;
            if (!ec)
              ++success;
            else if (ec == asio::error::operation_aborted)
              ++aborted;
            else
              ++other;
          }));
      // Data and cancellation in either order, in the same or in separate handlers.
      const bool data_first = rng() % 2;
      auto send = [&] {
        asio::write(p.client, asio::buffer("z", 1));
      };
      auto cancel = [&] {
        signal.emit(asio::cancellation_type::terminal);
      };
      if (data_first)
        send();
      asio::post(ioc, cancel);
      if (!data_first)
        asio::post(ioc, send);
      ioc.restart();
      ioc.run_for(generous);
      // Whatever was not read is drained so the next round starts empty.
      while (p.server.available() > 0)
        p.server.read_some(asio::buffer(&c, 1));
    }
    BOOST_TEST(calls == 200);
    BOOST_TEST(other == 0);
    BOOST_TEST(success + aborted == 200);
  });
}

BOOST_AUTO_TEST_CASE(cancel_from_another_thread_racing_completion)
{
  for_each_reactor_options([](const an::reactor_options& o) {
    asio::io_context ioc;
    install(ioc, o);
    auto p = make_tcp_pair(ioc);
    auto work = asio::make_work_guard(ioc);
    std::thread runner([&] { ioc.run_for(generous); });
    std::atomic<int> calls{0};
    for (int i = 0; i < 200; ++i)
    {
      std::atomic<bool> done{false};
      char c = 0;
      asio::post(ioc, [&] {
        p.server.async_read_some(asio::buffer(&c, 1), [&](error_code ec, std::size_t) {
          BOOST_TEST((!ec || ec == asio::error::operation_aborted));
          ++calls;
          done = true;
        });
      });
      asio::write(p.client, asio::buffer("q", 1));
      p.server.cancel(); // from this thread, while the io thread may be completing the read
      while (!done)
        std::this_thread::yield();
      // Drain what a cancelled read left, before the next round writes again.
      std::atomic<bool> drained{false};
      asio::post(ioc, [&] {
        error_code ec;
        while (p.server.available() > 0)
          p.server.read_some(asio::buffer(&c, 1), ec);
        drained = true;
      });
      while (!drained)
        std::this_thread::yield();
    }
    work.reset();
    runner.join();
    BOOST_TEST(calls == 200);
  });
}

// POSIX only: Windows has no descriptor limit to lower (no RLIMIT_NOFILE); sockets are
// limited by memory alone.
#if !defined(_WIN32)
BOOST_AUTO_TEST_CASE(accept_under_descriptor_exhaustion_reports_and_recovers)
{
  for_each_reactor_options([](const an::reactor_options& o) {
    asio::io_context ioc;
    install(ioc, o);
    tcp::acceptor acc(ioc, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
    tcp::socket client(ioc);
    client.connect(acc.local_endpoint()); // waits in the backlog

    rlimit saved{};
    ::getrlimit(RLIMIT_NOFILE, &saved);
    // Use up every descriptor below a tiny limit, so accept has none left.
    std::vector<int> hogs;
    rlimit low = saved;
    low.rlim_cur = 64;
    BOOST_REQUIRE(::setrlimit(RLIMIT_NOFILE, &low) == 0);
    for (int fd; (fd = ::dup(0)) >= 0;)
      hogs.push_back(fd);

    error_code first;
    acc.async_accept([&](error_code ec, tcp::socket) { first = ec; });
    ioc.run_for(generous);
    BOOST_TEST((first == asio::error::no_descriptors), first.message());

    for (int fd : hogs)
      ::close(fd);
    ::setrlimit(RLIMIT_NOFILE, &saved);

    error_code second = asio::error::would_block;
    tcp::socket accepted(ioc);
    acc.async_accept(accepted, [&](error_code ec) { second = ec; });
    ioc.restart();
    ioc.run_for(generous);
    BOOST_TEST(!second, second.message());
    BOOST_TEST(accepted.is_open());
  });
}
#endif

BOOST_AUTO_TEST_CASE(writer_blocked_by_a_peer_that_stops_reading_then_resumes)
{
  for_each_reactor_options([](const an::reactor_options& o) {
    asio::io_context ioc;
    install(ioc, o);
    auto p = make_tcp_pair(ioc);
    std::vector<char> out(8 << 20);
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = static_cast<char>(i * 7);
    std::vector<char> in(out.size());
    std::size_t written = 0, read = 0;
    asio::async_write(p.client, asio::buffer(out), [&](error_code ec, std::size_t n) {
      BOOST_TEST(!ec);
      written = n;
    });
    // The reader starts only after the writer has long been blocked.
    asio::steady_timer t(ioc, std::chrono::milliseconds(300));
    t.async_wait([&](error_code) {
      asio::async_read(p.server, asio::buffer(in), [&](error_code ec, std::size_t n) {
        BOOST_TEST(!ec);
        read = n;
      });
    });
    ioc.run_for(generous);
    BOOST_TEST(written == out.size());
    BOOST_TEST(read == out.size());
    BOOST_TEST((in == out));
  });
}

namespace {

// A handle that is not a socket is refused: on POSIX a pipe, `not_socket`; on Windows an
// event, `bad_descriptor` (Winsock cannot tell it from no handle: basic_socket::assign).
void assign_a_handle_of_another_kind(tcp::socket& s)
{
  error_code ec;
#if defined(_WIN32)
  const HANDLE event = ::CreateEventW(nullptr, TRUE, FALSE, nullptr);
  BOOST_REQUIRE(event != nullptr);
  s.assign(tcp::v4(), reinterpret_cast<tcp::socket::native_handle_type>(event), ec);
  BOOST_TEST((ec == asio::error::bad_descriptor), ec.message());
  BOOST_TEST(!s.is_open());
  ::CloseHandle(event);
#else
  int pipe_fds[2];
  BOOST_REQUIRE(::pipe(pipe_fds) == 0);
  s.assign(tcp::v4(), pipe_fds[0], ec);
  BOOST_TEST((ec == asio::error::not_socket));
  BOOST_TEST(!s.is_open());
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
#endif
}

} // namespace

BOOST_AUTO_TEST_CASE(invalid_handles_are_refused)
{
  asio::io_context ioc;
  tcp::socket s(ioc);
  error_code ec;
  s.assign(tcp::v4(), -1, ec);
  BOOST_TEST((ec == asio::error::bad_descriptor));
  BOOST_TEST(!s.is_open());
  assign_a_handle_of_another_kind(s);
  // A handle closed behind the socket's back: operations report the error, nothing hangs.
  tcp::socket t(ioc, tcp::v4());
  const tcp::socket::native_handle_type closed = t.native_handle();
  close_native(t);
  char c;
  error_code read_ec;
  bool completed = false;
  t.async_read_some(asio::buffer(&c, 1), [&](error_code e, std::size_t) {
    read_ec = e;
    completed = true;
  });
  ioc.run_for(generous);
  BOOST_TEST(completed);
  if (handle_value_in_use(closed)) // the error is the other object's
    BOOST_TEST(read_ec.failed(), read_ec.message());
  else
    BOOST_TEST((read_ec == asio::error::bad_descriptor), read_ec.message());
  t.release(ec); // the handle is gone already: do not close someone else's descriptor
}

BOOST_AUTO_TEST_CASE(io_context_stopped_and_restarted_with_operations_pending)
{
  for_each_reactor_options([](const an::reactor_options& o) {
    counted_read_fixture f(o);
    asio::post(f.ioc, [&] { f.ioc.stop(); });
    f.ioc.run_for(generous);
    BOOST_TEST(f.calls == 0);
    BOOST_TEST(f.ioc.stopped());
    asio::write(f.p.client, asio::buffer("r", 1)); // arrives while nobody runs the context
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    f.ioc.restart();
    f.ioc.run_for(generous);
    BOOST_TEST(f.calls == 1);
    BOOST_TEST(f.c == 'r');
  });
}

namespace {

struct thrown_by_handler : std::exception
{
};

} // namespace

// A handler that throws, among others made ready by the same packets. The exception
// leaves run() as with Asio; the other handlers of the batch are not lost (the next run()
// runs them), and the thrower's socket is still registered: a read started after it
// completes.
BOOST_AUTO_TEST_CASE(handler_that_throws_leaves_run_and_the_batch_goes_on)
{
  for_each_reactor_options([](const an::reactor_options& o) {
    asio::io_context ioc;
    install(ioc, o);
    constexpr int n = 4;
    std::vector<std::unique_ptr<tcp_pair>> pairs;
    for (int i = 0; i < n; ++i)
      pairs.push_back(std::make_unique<tcp_pair>(make_tcp_pair(ioc)));
    std::array<char, n> in{};
    std::array<int, n> calls{};
    for (int i = 0; i < n; ++i)
      pairs[i]->server.async_read_some(asio::buffer(&in[i], 1), [&, i](error_code ec, std::size_t) {
        BOOST_TEST(!ec);
        ++calls[i];
        if (i == 0)
          throw thrown_by_handler();
      });
    for (int i = 0; i < n; ++i)
      asio::write(pairs[i]->client, asio::buffer("x", 1));
    std::this_thread::sleep_for(std::chrono::milliseconds(20)); // one dequeue finds them all

    int thrown = 0;
    const auto deadline = std::chrono::steady_clock::now() + generous;
    auto all_called = [&] {
      return std::all_of(calls.begin(), calls.end(), [](int c) { return c == 1; });
    };
    while (!all_called() && std::chrono::steady_clock::now() < deadline)
    {
      try
      {
        ioc.restart();
        ioc.run_for(std::chrono::milliseconds(100));
      }
      catch (const thrown_by_handler&)
      {
        ++thrown;
      }
    }
    BOOST_TEST(thrown == 1);
    for (int i = 0; i < n; ++i)
      BOOST_TEST(calls[i] == 1, "handler " << i << " ran " << calls[i] << " times");

    bool again = false;
    pairs[0]->server.async_read_some(asio::buffer(&in[0], 1), [&](error_code ec, std::size_t) {
      BOOST_TEST(!ec);
      again = true;
    });
    asio::write(pairs[0]->client, asio::buffer("y", 1));
    ioc.restart();
    ioc.run_for(generous);
    BOOST_TEST(again);
    BOOST_TEST(in[0] == 'y');
  });
}
