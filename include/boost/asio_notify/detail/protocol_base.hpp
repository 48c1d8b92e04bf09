//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What the protocol classes (ip::tcp, ip::udp, local::*, generic::*) share. Each is Asio's
// protocol class whose `socket` (and `acceptor`) is this library's; the conversion from
// Asio's protocol object and the endpoint type are the same for all, so they live here once
// and each protocol header states only what differs (its socket types, v4() and v6()).
#ifndef BOOST_ASIO_NOTIFY_DETAIL_PROTOCOL_BASE_HPP
#define BOOST_ASIO_NOTIFY_DETAIL_PROTOCOL_BASE_HPP

#include <type_traits>
#include <utility>

namespace boost {
namespace asio_notify {
namespace detail {

/** Asio's protocol class `AsioProtocol`, implicitly made from Asio's protocol object: the
    base of this library's protocol classes, which add their socket types. */
template <class AsioProtocol>
class protocol_base : public AsioProtocol
{
public:
  /// The endpoint type (Asio's): this library's sockets take Asio's endpoints.
  using endpoint = typename AsioProtocol::endpoint;

  /// The protocol, where Asio's has a default (the UNIX domain protocols).
  protocol_base() = default;

  /// Convert from Asio's protocol object (as `endpoint::protocol()` returns), so that an
  /// endpoint's protocol opens one of this library's sockets.
  /// @param p Asio's protocol object.
  protocol_base(const AsioProtocol& p) noexcept // NOLINT: implicit by design
      : AsioProtocol(p)
  {
  }
};

/** A generic protocol (any address family, chosen at run time): `protocol_base` of Asio's
    generic protocol class `AsioProtocol`, made, as Asio's, from the family and protocol
    numbers or from any protocol object. */
template <class AsioProtocol>
class generic_protocol_base : public protocol_base<AsioProtocol>
{
public:
  /// The protocol of `address_family` (`AF_INET`, say) and `socket_protocol` (`IPPROTO_TCP`).
  /// @param address_family The address family, such as `AF_INET6`.
  /// @param socket_protocol The protocol number, such as `IPPROTO_TCP`, or 0.
  generic_protocol_base(int address_family, int socket_protocol) noexcept
      : protocol_base<AsioProtocol>(AsioProtocol(address_family, socket_protocol))
  {
  }

  /// Convert from any protocol object, such as Asio's generic one (as `endpoint::protocol()`
  /// returns) or `ip::tcp::v4()`. Constrained to protocols (a `family()` returning `int`),
  /// where Asio's converting constructor takes anything.
  /// @param source_protocol The protocol to convert; its family, type and protocol numbers
  /// are taken.
  /// @throws std::bad_cast Thrown for a protocol of another socket type (a stream protocol
  /// given to a datagram one, say), as Asio's does.
  template <class Protocol, class = std::enable_if_t<std::is_same<
                                decltype(std::declval<const Protocol&>().family()), int>::value>>
  generic_protocol_base(const Protocol& source_protocol) // NOLINT: implicit by design, as Asio's
      : protocol_base<AsioProtocol>(AsioProtocol(source_protocol))
  {
  }
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
