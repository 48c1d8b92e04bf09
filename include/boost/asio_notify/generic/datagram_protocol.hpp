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

#include <boost/asio/generic/datagram_protocol.hpp>

#include <type_traits>

namespace boost {
namespace asio_notify {
namespace generic {

/** A datagram protocol of any address family (`SOCK_DGRAM` with the family and protocol
    numbers given at run time) with the notify reactor's socket type:
    `boost::asio::generic::datagram_protocol` (its endpoint, which holds any socket address)
    whose `socket` is this library's. A socket of another datagram protocol, such as
    `ip::udp::socket`, moves into a generic one.

    @par Example
    @code
    boost::asio_notify::generic::datagram_protocol::socket socket(
        ioc, boost::asio_notify::generic::datagram_protocol(AF_INET, IPPROTO_UDP));
    @endcode */
class datagram_protocol : public boost::asio::generic::datagram_protocol
{
public:
  /// The protocol of `address_family` (`AF_INET`, say) and `socket_protocol` (`IPPROTO_UDP`).
  /// @param address_family The address family, such as `AF_INET6`.
  /// @param socket_protocol The protocol number, such as `IPPROTO_UDP`, or 0.
  datagram_protocol(int address_family, int socket_protocol) noexcept
      : boost::asio::generic::datagram_protocol(address_family, socket_protocol)
  {
  }

  /// Convert from any protocol object, such as Asio's generic one (as `endpoint::protocol()`
  /// returns) or `ip::udp::v4()`.
  /// @param source_protocol The protocol to convert; its family, type and protocol numbers
  /// are taken.
  /// @throws std::bad_cast Thrown for a protocol that is not datagram-oriented, as Asio's
  /// does.
  template <class Protocol, class = std::enable_if_t<std::is_same<
                                decltype(std::declval<const Protocol&>().family()), int>::value>>
  datagram_protocol(const Protocol& source_protocol) // NOLINT: implicit by design, as Asio's
      : boost::asio::generic::datagram_protocol(source_protocol)
  {
  }

  /// The endpoint type (Asio's): any socket address.
  using endpoint = boost::asio::generic::datagram_protocol::endpoint;

  /// The generic datagram socket type on the notify reactor.
  using socket = basic_datagram_socket<datagram_protocol>;
};

} // namespace generic
} // namespace asio_notify
} // namespace boost

#endif
