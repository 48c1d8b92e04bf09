//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    `ip::udp`: Asio's UDP protocol with this library's socket. */
#ifndef BOOST_ASIO_NOTIFY_IP_UDP_HPP
#define BOOST_ASIO_NOTIFY_IP_UDP_HPP

#include <boost/asio_notify/basic_datagram_socket.hpp>
#include <boost/asio_notify/detail/protocol_base.hpp>

#include <boost/asio/ip/udp.hpp>

namespace boost {
namespace asio_notify {
namespace ip {

/** The UDP protocol with the notify reactor's socket type: `boost::asio::ip::udp` (its
    endpoint, resolver and options) whose `socket` is this library's.

    @par Example
    @code
    using udp = boost::asio_notify::ip::udp;
    udp::socket socket(ioc, udp::endpoint(udp::v4(), 9000));
    @endcode */
class udp : public detail::protocol_base<boost::asio::ip::udp>
{
public:
  /// Converts from Asio's protocol object, for IPv4 or IPv6 (as `endpoint::protocol()`
  /// returns), so that an endpoint's protocol opens one of this library's sockets; see
  /// `detail::protocol_base`.
  using protocol_base::protocol_base;

  /// UDP over IPv4.
  /// @returns The protocol object for IPv4.
  static udp v4() noexcept { return boost::asio::ip::udp::v4(); }

  /// UDP over IPv6.
  /// @returns The protocol object for IPv6.
  static udp v6() noexcept { return boost::asio::ip::udp::v6(); }

  /// The UDP resolver type (Asio's).
  using resolver = boost::asio::ip::udp::resolver;

  /// The UDP socket type on the notify reactor.
  using socket = basic_datagram_socket<udp>;
};

} // namespace ip
} // namespace asio_notify
} // namespace boost

#endif
