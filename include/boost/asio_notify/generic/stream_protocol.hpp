//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    `generic::stream_protocol`: Asio's generic stream protocol (any address family) with this
    library's socket. */
#ifndef BOOST_ASIO_NOTIFY_GENERIC_STREAM_PROTOCOL_HPP
#define BOOST_ASIO_NOTIFY_GENERIC_STREAM_PROTOCOL_HPP

#include <boost/asio_notify/basic_stream_socket.hpp>
#include <boost/asio_notify/detail/protocol_base.hpp>

#include <boost/asio/generic/stream_protocol.hpp>

namespace boost {
namespace asio_notify {
namespace generic {

/** A stream protocol of any address family (`SOCK_STREAM` with the family and protocol
    numbers given at run time) with the notify reactor's socket type:
    `boost::asio::generic::stream_protocol` (its endpoint, which holds any socket address)
    whose `socket` is this library's. A socket of another stream protocol, such as
    `ip::tcp::socket`, moves into a generic one. As with Asio, there is no acceptor type of
    its own: `basic_socket_acceptor<generic::stream_protocol>` accepts generic sockets.

    @par Example
    @code
    boost::asio_notify::ip::tcp::socket tcp_socket(ioc);
    tcp_socket.connect(endpoint);
    boost::asio_notify::generic::stream_protocol::socket generic(std::move(tcp_socket));
    @endcode */
class stream_protocol : public detail::generic_protocol_base<boost::asio::generic::stream_protocol>
{
public:
  /// The protocol of an address family and protocol number, such as
  /// `stream_protocol(AF_INET6, IPPROTO_TCP)`, or converted from any stream protocol object
  /// (`std::bad_cast` for another socket type); see `detail::generic_protocol_base`.
  using generic_protocol_base::generic_protocol_base;

  /// The generic stream socket type on the notify reactor.
  using socket = basic_stream_socket<stream_protocol>;
};

} // namespace generic
} // namespace asio_notify
} // namespace boost

#endif
