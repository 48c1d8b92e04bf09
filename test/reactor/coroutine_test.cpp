//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// C++20 coroutines: echo over TCP and UDP with use_awaitable, errors as exceptions and as
// tuples, cancellation through co_spawn's slot and through awaitable operators.
#include "helpers.hpp"

#if defined(BOOST_ASIO_HAS_CO_AWAIT)

#include <boost/asio/experimental/awaitable_operators.hpp>

#include <exception>
#include <string>

using asio::awaitable;
using asio::use_awaitable;

namespace {

// Runs `ioc` until the coroutine finished; rethrows what it threw.
template <typename Awaitable>
void run_coroutine(asio::io_context& ioc, Awaitable a)
{
  bool done = false;
  std::exception_ptr error;
  asio::co_spawn(ioc, std::move(a), [&](std::exception_ptr e) {
    error = e;
    done = true;
  });
  BOOST_REQUIRE(run_until(ioc, [&] { return done; }));
  if (error)
    std::rethrow_exception(error);
}

awaitable<void> echo_once(tcp::acceptor& acceptor)
{
  tcp::socket s = co_await acceptor.async_accept(use_awaitable);
  char buf[256];
  for (;;)
  {
    auto [ec, n] = co_await s.async_read_some(asio::buffer(buf), asio::as_tuple(use_awaitable));
    if (ec)
      co_return;
    co_await asio::async_write(s, asio::buffer(buf, n), use_awaitable);
  }
}

} // namespace

BOOST_AUTO_TEST_SUITE(coroutines)

BOOST_AUTO_TEST_CASE(tcp_echo)
{
  asio::io_context ioc;
  tcp::acceptor acceptor(ioc, loopback_tcp());
  bool server_done = false;
  asio::co_spawn(ioc, echo_once(acceptor), [&](std::exception_ptr e) {
    BOOST_TEST(!e);
    server_done = true;
  });

  std::string reply;
  run_coroutine(ioc, [&]() -> awaitable<void> {
    tcp::socket s(co_await asio::this_coro::executor);
    co_await s.async_connect(acceptor.local_endpoint(), use_awaitable);
    co_await s.async_wait(tcp::socket::wait_write, use_awaitable);
    const std::string msg = "coroutine echo";
    std::size_t n = co_await asio::async_write(s, asio::buffer(msg), use_awaitable);
    BOOST_TEST(n == msg.size());
    co_await s.async_read_some(test_null_buffers(), use_awaitable);
    co_await asio::async_read(s, asio::dynamic_buffer(reply), asio::transfer_exactly(msg.size()),
                              use_awaitable);
    s.shutdown(tcp::socket::shutdown_send);
    char c;
    auto [ec, m] = co_await s.async_read_some(asio::buffer(&c, 1), asio::as_tuple(use_awaitable));
    CHECK_EC(ec, asio::error::eof);
    BOOST_TEST(m == 0u);
  }());
  BOOST_TEST(reply == "coroutine echo");
  BOOST_TEST(run_until(ioc, [&] { return server_done; }));
}

BOOST_AUTO_TEST_CASE(udp_echo)
{
  asio::io_context ioc;
  udp::socket server(ioc, loopback_udp());
  asio::co_spawn(
      ioc,
      [&]() -> awaitable<void> {
        char buf[64];
        udp::endpoint from;
        std::size_t n = co_await server.async_receive_from(asio::buffer(buf), from, use_awaitable);
        co_await server.async_send_to(asio::buffer(buf, n), from, use_awaitable);
      },
      asio::detached);

  run_coroutine(ioc, [&]() -> awaitable<void> {
    udp::socket s(co_await asio::this_coro::executor, loopback_udp());
    co_await s.async_connect(server.local_endpoint(), use_awaitable);
    co_await s.async_send(asio::buffer("dgram", 5), use_awaitable);
    char buf[64];
    std::size_t n = co_await s.async_receive(asio::buffer(buf), use_awaitable);
    BOOST_TEST(std::string(buf, n) == "dgram");
  }());
}

BOOST_AUTO_TEST_CASE(errors_are_thrown)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  run_coroutine(ioc, [&]() -> awaitable<void> {
    reset_close(p.client);
    char buf[4];
    try
    {
      co_await p.server.async_read_some(asio::buffer(buf), use_awaitable);
      BOOST_ERROR("no exception");
    }
    catch (const system_error& e)
    {
      CHECK_EC(e.code(), peer_reset_read_error());
    }

    tcp::socket closed(co_await asio::this_coro::executor);
    try
    {
      co_await closed.async_wait(tcp::socket::wait_read, use_awaitable);
      BOOST_ERROR("no exception");
    }
    catch (const system_error& e)
    {
      CHECK_EC(e.code(), asio::error::bad_descriptor);
    }
  }());

  // Connection refused from a coroutine.
  tcp::socket holder(ioc, loopback_tcp()); // bound, not listening
  run_coroutine(ioc, [&]() -> awaitable<void> {
    tcp::socket s(co_await asio::this_coro::executor);
    auto [ec] = co_await s.async_connect(holder.local_endpoint(), asio::as_tuple(use_awaitable));
    CHECK_EC(ec, asio::error::connection_refused);
  }());
}

BOOST_AUTO_TEST_CASE(cancellation_through_co_spawn_slot)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  asio::cancellation_signal sig;
  bool done = false;
  error_code seen;
  asio::co_spawn(
      ioc,
      [&]() -> awaitable<void> {
        char buf[4];
        try
        {
          co_await p.server.async_read_some(asio::buffer(buf), use_awaitable);
        }
        catch (const system_error& e)
        {
          seen = e.code();
        }
      },
      asio::bind_cancellation_slot(sig.slot(), [&](std::exception_ptr) { done = true; }));
  drain(ioc);
  BOOST_TEST(!done);
  sig.emit(asio::cancellation_type::terminal);
  BOOST_TEST(run_until(ioc, [&] { return done; }));
  CHECK_EC(seen, asio::error::operation_aborted);
}

BOOST_AUTO_TEST_CASE(awaitable_operators_cancel_the_loser)
{
  using namespace asio::experimental::awaitable_operators;
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  run_coroutine(ioc, [&]() -> awaitable<void> {
    asio::steady_timer timer(co_await asio::this_coro::executor, 20ms);
    char buf[4];
    auto result = co_await(p.server.async_read_some(asio::buffer(buf), use_awaitable) ||
                           timer.async_wait(use_awaitable));
    BOOST_TEST(result.index() == 1u); // the timer won, the read was cancelled

    // The socket is still usable: now the read wins.
    asio::write(p.client, asio::buffer("w", 1));
    timer.expires_after(5s);
    auto result2 = co_await(p.server.async_read_some(asio::buffer(buf), use_awaitable) ||
                            timer.async_wait(use_awaitable));
    BOOST_TEST(result2.index() == 0u);
    if (result2.index() == 0)
      BOOST_TEST(std::get<0>(result2) == 1u);
    BOOST_TEST(buf[0] == 'w');
  }());
}

BOOST_AUTO_TEST_SUITE_END()

#else

BOOST_AUTO_TEST_CASE(coroutines_unavailable)
{
  BOOST_TEST_MESSAGE("BOOST_ASIO_HAS_CO_AWAIT is not defined: coroutine tests skipped");
}

#endif
