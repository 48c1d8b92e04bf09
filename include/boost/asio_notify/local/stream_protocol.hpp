//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    `local::stream_protocol`: Asio's UNIX domain stream protocol with this library's socket
    and acceptor, where Asio has it (`BOOST_ASIO_HAS_LOCAL_SOCKETS`). */
#ifndef BOOST_ASIO_NOTIFY_LOCAL_STREAM_PROTOCOL_HPP
#define BOOST_ASIO_NOTIFY_LOCAL_STREAM_PROTOCOL_HPP

#include <boost/asio/local/stream_protocol.hpp> // BOOST_ASIO_HAS_LOCAL_SOCKETS, where Asio has them

#if defined(BOOST_ASIO_HAS_LOCAL_SOCKETS)

#include <boost/asio_notify/basic_socket_acceptor.hpp>
#include <boost/asio_notify/basic_stream_socket.hpp>
#include <boost/asio_notify/detail/protocol_base.hpp>

namespace boost {
namespace asio_notify {
namespace local {

/** The UNIX domain stream protocol (`AF_UNIX`, `SOCK_STREAM`) with the notify reactor's
    socket types: `boost::asio::local::stream_protocol` (its endpoint, a filesystem path)
    whose `socket` and `acceptor` are this library's. Available where Asio's is
    (`BOOST_ASIO_HAS_LOCAL_SOCKETS`). Windows has `AF_UNIX` stream sockets from Windows 10
    1803; where the system lacks them, `open` reports the system's error
    (`address_family_not_supported`), as with Asio.

    @par Example
    @code
    using local = boost::asio_notify::local::stream_protocol;
    local::acceptor acceptor(ioc, local::endpoint("/tmp/example.sock"));
    local::socket client(ioc);
    client.connect(local::endpoint("/tmp/example.sock"));
    @endcode */
class stream_protocol : public detail::protocol_base<boost::asio::local::stream_protocol>
{
public:
  /// The UNIX domain stream protocol, or Asio's converted (as `endpoint::protocol()`
  /// returns); see `detail::protocol_base`.
  using protocol_base::protocol_base;

  /// The UNIX domain stream socket type on the notify reactor.
  using socket = basic_stream_socket<stream_protocol>;

  /// The UNIX domain acceptor type on the notify reactor.
  using acceptor = basic_socket_acceptor<stream_protocol>;
};

} // namespace local
} // namespace asio_notify
} // namespace boost

#endif // defined(BOOST_ASIO_HAS_LOCAL_SOCKETS)

#endif
