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

#include <boost/asio/generic/stream_protocol.hpp>

#include <type_traits>

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
class stream_protocol : public boost::asio::generic::stream_protocol
{
public:
  /// The protocol of `address_family` (`AF_INET`, say) and `socket_protocol` (`IPPROTO_TCP`).
  /// @param address_family The address family, such as `AF_INET6`.
  /// @param socket_protocol The protocol number, such as `IPPROTO_TCP`, or 0.
  stream_protocol(int address_family, int socket_protocol) noexcept
      : boost::asio::generic::stream_protocol(address_family, socket_protocol)
  {
  }

  /// Convert from any protocol object, such as Asio's generic one (as `endpoint::protocol()`
  /// returns) or `ip::tcp::v4()`.
  /// @param source_protocol The protocol to convert; its family, type and protocol numbers
  /// are taken.
  /// @throws std::bad_cast Thrown for a protocol that is not stream-oriented, as Asio's
  /// does.
  template <class Protocol, class = std::enable_if_t<std::is_same<
                                decltype(std::declval<const Protocol&>().family()), int>::value>>
  stream_protocol(const Protocol& source_protocol) // NOLINT: implicit by design, as Asio's
      : boost::asio::generic::stream_protocol(source_protocol)
  {
  }

  /// The endpoint type (Asio's): any socket address.
  using endpoint = boost::asio::generic::stream_protocol::endpoint;

  /// The generic stream socket type on the notify reactor.
  using socket = basic_stream_socket<stream_protocol>;
};

} // namespace generic
} // namespace asio_notify
} // namespace boost

#endif
