//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    `generic::datagram_protocol`: Asio's generic datagram protocol (any address family) with this
    library's socket. */
#ifndef BOOST_ASIO_NOTIFY_GENERIC_DATAGRAM_PROTOCOL_HPP
#define BOOST_ASIO_NOTIFY_GENERIC_DATAGRAM_PROTOCOL_HPP

#include <boost/asio_notify/basic_datagram_socket.hpp>
#include <boost/asio_notify/detail/protocol_base.hpp>

#include <boost/asio/generic/datagram_protocol.hpp>

namespace boost {
namespace asio_notify {
namespace generic {

/** What `generic::stream_protocol` is for streams, for datagrams: Asio's
    `boost::asio::generic::datagram_protocol` (`SOCK_DGRAM`, the address family and protocol
    number chosen at run time; an endpoint that holds any socket address), whose `socket` is
    this library's. A socket of another datagram protocol, such as `ip::udp::socket`, moves
    into a generic one.

    @par Example
    @code
    boost::asio_notify::generic::datagram_protocol::socket socket(
        ioc, boost::asio_notify::generic::datagram_protocol(AF_INET, IPPROTO_UDP));
    @endcode */
class datagram_protocol
    : public detail::generic_protocol_base<boost::asio::generic::datagram_protocol>
{
public:
  /// The protocol of an address family and protocol number, such as
  /// `datagram_protocol(AF_INET6, IPPROTO_UDP)`, or converted from any datagram protocol
  /// object (`std::bad_cast` for another socket type); see `detail::generic_protocol_base`.
  using generic_protocol_base::generic_protocol_base;

  /// The generic datagram socket type on the notify reactor.
  using socket = basic_datagram_socket<datagram_protocol>;
};

} // namespace generic
} // namespace asio_notify
} // namespace boost

#endif
