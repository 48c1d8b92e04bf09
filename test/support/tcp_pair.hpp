//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The one way the Asio-level suites make a connected TCP pair: the socket suite (on either
// backend), the service, fault and Beast suites. The port's suites work below Asio, on raw
// sockets (test/port/sockets.hpp).
#ifndef BOOST_ASIO_NOTIFY_TEST_SUPPORT_TCP_PAIR_HPP
#define BOOST_ASIO_NOTIFY_TEST_SUPPORT_TCP_PAIR_HPP

#include <boost/asio/ip/address_v4.hpp>

#include <utility>

namespace test_support {

/// A connected pair of TCP sockets on loopback.
template <typename Socket>
struct basic_tcp_pair
{
  Socket client;
  Socket server;
};

/// Connects a pair of `Tcp::socket`s through a `Tcp::acceptor` on an ephemeral IPv4 loopback
/// port, with the synchronous API. `Tcp` is `boost::asio::ip::tcp` or the library's
/// `boost::asio_notify::ip::tcp`.
template <typename Tcp, typename ExecutionContextOrExecutor>
basic_tcp_pair<typename Tcp::socket> make_basic_tcp_pair(ExecutionContextOrExecutor&& ctx)
{
  typename Tcp::acceptor acceptor(
      ctx, typename Tcp::endpoint(boost::asio::ip::address_v4::loopback(), 0));
  typename Tcp::socket client(ctx);
  client.connect(acceptor.local_endpoint());
  typename Tcp::socket server(ctx);
  acceptor.accept(server);
  return {std::move(client), std::move(server)};
}

} // namespace test_support

#endif
