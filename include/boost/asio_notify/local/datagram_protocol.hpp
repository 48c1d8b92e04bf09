//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    `local::datagram_protocol`: Asio's UNIX domain datagram protocol with this library's
    socket, where Asio has it (`BOOST_ASIO_HAS_LOCAL_SOCKETS`). */
#ifndef BOOST_ASIO_NOTIFY_LOCAL_DATAGRAM_PROTOCOL_HPP
#define BOOST_ASIO_NOTIFY_LOCAL_DATAGRAM_PROTOCOL_HPP

#include <boost/asio/local/datagram_protocol.hpp> // BOOST_ASIO_HAS_LOCAL_SOCKETS, where Asio has them

#if defined(BOOST_ASIO_HAS_LOCAL_SOCKETS)

#include <boost/asio_notify/basic_datagram_socket.hpp>
#include <boost/asio_notify/detail/protocol_base.hpp>

namespace boost {
namespace asio_notify {
namespace local {

/** The UNIX domain datagram protocol (`AF_UNIX`, `SOCK_DGRAM`) with the notify reactor's
    socket type: `boost::asio::local::datagram_protocol` (its endpoint, a filesystem path)
    whose `socket` is this library's. Available where Asio's is
    (`BOOST_ASIO_HAS_LOCAL_SOCKETS`); Windows has no `AF_UNIX` datagram sockets, and there
    `open` reports the system's error, as with Asio.

    @par Example
    @code
    boost::asio_notify::local::datagram_protocol::socket a(ioc), b(ioc);
    boost::asio_notify::local::connect_pair(a, b);
    a.send(boost::asio::buffer("ping", 4));
    @endcode */
class datagram_protocol : public detail::protocol_base<boost::asio::local::datagram_protocol>
{
public:
  /// The UNIX domain datagram protocol, or Asio's converted (as `endpoint::protocol()`
  /// returns); see `detail::protocol_base`.
  using protocol_base::protocol_base;

  /// The UNIX domain datagram socket type on the notify reactor.
  using socket = basic_datagram_socket<datagram_protocol>;
};

} // namespace local
} // namespace asio_notify
} // namespace boost

#endif // defined(BOOST_ASIO_HAS_LOCAL_SOCKETS)

#endif
