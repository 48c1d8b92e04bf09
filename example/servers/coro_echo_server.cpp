//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// TCP echo server written with C++20 coroutines (boost::asio::use_awaitable).
//
//   coro_echo_server <port> [address]
//
// The same server as tcp_echo_server.cpp, but each connection is a straight-line loop:
// no session class, no shared_ptr, no handler chain. Lifetimes are those of the coroutine
// frames. Port 0 picks a free port, printed as "listening on port N". A client idle for
// 30 s (BOOST_ASIO_NOTIFY_EXAMPLE_IDLE_TIMEOUT, see timeouts.hpp) is disconnected; at most 512
// are served at once (BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS, see limits.hpp), and a
// connection beyond is closed as soon as accepted. Failed connections are logged at most
// a line a second.
//

#include "accept_backoff.hpp"
#include "arguments.hpp"
#include "limits.hpp"
#include "net.hpp"
#include "timeouts.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

namespace net = boost::asio;
using tcp = backend::tcp;
using boost::system::error_code;
using clock_type = std::chrono::steady_clock;
using namespace net::experimental::awaitable_operators; // a || b: the first to finish

// How long a read or a write may wait for the client before the server gives up on it.
auto const idle_timeout =
    timeout_from_env("BOOST_ASIO_NOTIFY_EXAMPLE_IDLE_TIMEOUT", std::chrono::seconds(30));

// Failed connections happen as often as clients make them happen (a client that leaves
// before its echo: broken pipe): they are logged at most a line a second.
rate_limited_log echo_log;

// Echoes everything one client sends until it disconnects, moving the deadline on before
// each read. Returns (never throws) when the connection ends, cancelled included.
net::awaitable<void> echo(tcp::socket& socket, clock_type::time_point& deadline,
                          connection_limit::slot& slot)
{
  char data[16 * 1024];
  try
  {
    for (;;)
    {
      deadline = clock_type::now() + idle_timeout;
      slot.touch(); // an echo done is progress: the connection is not the idle one
      std::size_t n = co_await socket.async_read_some(net::buffer(data), net::use_awaitable);
      co_await net::async_write(socket, net::buffer(data, n), net::use_awaitable);
    }
  }
  catch (boost::system::system_error const& e)
  {
    // eof is how a client says goodbye, operation_aborted is the watchdog's doing, and a
    // socket closed here gave way to another client (Wine ends its read with
    // ERROR_HANDLES_CLOSED rather than operation_aborted); anything else is worth a line.
    if (socket.is_open() && e.code() != net::error::eof &&
        e.code() != net::error::connection_reset && e.code() != net::error::operation_aborted)
      echo_log.write("echo: " + e.code().message());
  }
}

// Returns once `deadline` has passed (echo() may move it on meanwhile); throws
// operation_aborted when cancelled because echo() has finished first.
net::awaitable<void> watchdog(clock_type::time_point& deadline)
{
  net::steady_timer timer(co_await net::this_coro::executor);
  while (deadline > clock_type::now())
  {
    timer.expires_at(deadline);
    co_await timer.async_wait(net::use_awaitable);
  }
}

// One connection: whichever of echo() and watchdog() finishes first cancels the other;
// then the socket is closed with this frame, and `slot` (its place under the connection
// limit) given back. Where it must give way to another (connection_limit.hpp), the socket
// is closed, while `frame` says the frame is still there.
net::awaitable<void> session(tcp::socket socket, connection_limit::slot slot)
{
  auto const frame = std::make_shared<bool>();
  close_on_give_way(slot, frame, socket);
  auto deadline = clock_type::now() + idle_timeout;
  co_await(echo(socket, deadline, slot) || watchdog(deadline));
}

// Accepts connections forever and gives each one its own coroutine.
net::awaitable<void> listen(tcp::acceptor& acceptor)
{
  accept_backoff backoff(acceptor.get_executor(), "accept");
  logged_connection_limit connections("accept");
  for (;;)
  {
    // as_tuple: a failed accept (out of descriptors, say) is an error code here, not an
    // exception that would end the listener and with it the server.
    auto [ec, socket] = co_await acceptor.async_accept(net::as_tuple(net::use_awaitable));
    if (ec == net::error::operation_aborted)
      co_return; // the acceptor was closed
    if (!ec)
    {
      // Detached: nobody waits for a connection to end; session() handles errors. Without
      // a slot, `socket` is closed at the end of this iteration.
      if (auto slot = connections.try_take(socket))
        net::co_spawn(acceptor.get_executor(), session(std::move(socket), std::move(slot)),
                      net::detached);
    }
    co_await backoff.pause(ec); // when out of descriptors: see accept_backoff.hpp
  }
}

int main(int argc, char* argv[])
{
  if (argc < 2 || argc > 3)
  {
    std::cerr << "usage: coro_echo_server <port> [address]\n";
    return EXIT_FAILURE;
  }
  try
  {
    auto const port = port_argument(argv[1]);
    auto const address = net::ip::make_address(argc > 2 ? argv[2] : "127.0.0.1");

    net::io_context ioc;
    tcp::acceptor acceptor(ioc, tcp::endpoint(address, port));

    // The listener's exception (if any) ends the program instead of being swallowed.
    net::co_spawn(ioc, listen(acceptor), [](std::exception_ptr e) {
      if (e)
        std::rethrow_exception(e);
    });

    net::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&](error_code, int) { ioc.stop(); });

    std::cout << "listening on port " << acceptor.local_endpoint().port() << " [" << backend::name
              << "]" << std::endl;
    ioc.run();
  }
  catch (std::exception const& e)
  {
    std::cerr << "coro_echo_server: " << e.what() << "\n";
    return EXIT_FAILURE;
  }
  return EXIT_SUCCESS;
}
