//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    `ip::tcp`: Asio's TCP protocol with this library's socket and acceptor. */
#ifndef BOOST_ASIO_NOTIFY_IP_TCP_HPP
#define BOOST_ASIO_NOTIFY_IP_TCP_HPP

#include <boost/asio_notify/basic_socket_acceptor.hpp>
#include <boost/asio_notify/basic_stream_socket.hpp>
#include <boost/asio_notify/detail/protocol_base.hpp>

#include <boost/asio/ip/tcp.hpp>

namespace boost {
namespace asio_notify {
namespace ip {

/** The TCP protocol with the notify reactor's socket types: `boost::asio::ip::tcp` (its
    options such as `no_delay`, its endpoint and resolver) whose `socket` and `acceptor`
    are this library's. Switching an application means replacing `boost::asio::ip::tcp`
    with `boost::asio_notify::ip::tcp` where sockets and acceptors are named
    (doc/switching.md).

    @par Example
    @code
    using tcp = boost::asio_notify::ip::tcp;
    boost::asio::io_context ioc;
    tcp::acceptor acceptor(ioc, tcp::endpoint(tcp::v4(), 8080));
    tcp::socket socket = acceptor.accept();
    boost::asio::write(socket, boost::asio::buffer("hello\n", 6));
    @endcode */
class tcp : public detail::protocol_base<boost::asio::ip::tcp>
{
public:
  /// Converts from Asio's protocol object, for IPv4 or IPv6 (as `endpoint::protocol()`
  /// returns), so that an endpoint's protocol opens one of this library's sockets; see
  /// `detail::protocol_base`.
  using protocol_base::protocol_base;

  /// TCP over IPv4.
  /// @returns The protocol object for IPv4.
  static tcp v4() noexcept { return boost::asio::ip::tcp::v4(); }

  /// TCP over IPv6 (sockets opened with it are dual-stack on Windows, as with Asio).
  /// @returns The protocol object for IPv6.
  static tcp v6() noexcept { return boost::asio::ip::tcp::v6(); }

  /// The TCP resolver type (Asio's).
  using resolver = boost::asio::ip::tcp::resolver;

  /// The TCP socket type on the notify reactor.
  using socket = basic_stream_socket<tcp>;

  /// The TCP acceptor type on the notify reactor.
  using acceptor = basic_socket_acceptor<tcp>;
};

} // namespace ip
} // namespace asio_notify
} // namespace boost

#endif
