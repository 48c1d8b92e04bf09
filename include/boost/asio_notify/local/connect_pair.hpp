//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    `local::connect_pair`: a pair of connected UNIX domain sockets of this library, where
    Asio has local sockets (`BOOST_ASIO_HAS_LOCAL_SOCKETS`). */
#ifndef BOOST_ASIO_NOTIFY_LOCAL_CONNECT_PAIR_HPP
#define BOOST_ASIO_NOTIFY_LOCAL_CONNECT_PAIR_HPP

#include <boost/asio/local/basic_endpoint.hpp> // BOOST_ASIO_HAS_LOCAL_SOCKETS, where Asio has them

#if defined(BOOST_ASIO_HAS_LOCAL_SOCKETS)

#include <boost/asio_notify/basic_socket.hpp>

#include <type_traits>

namespace boost {
namespace asio_notify {
/// @cond
namespace detail {

/// True for Asio's UNIX domain endpoints, whatever their protocol.
template <class Endpoint>
struct is_local_endpoint : std::false_type
{
};

template <class Protocol>
struct is_local_endpoint<boost::asio::local::basic_endpoint<Protocol>> : std::true_type
{
};

} // namespace detail
/// @endcond

namespace local {

/** Create a pair of connected UNIX domain sockets (`socketpair`), as
    `boost::asio::local::connect_pair` does for Asio's sockets: `socket1` and `socket2`,
    which must be closed, are given the two ends, opened with `Protocol()`. On failure
    neither is left holding a new socket. The two sockets may use different executors.

    @tparam Protocol `local::stream_protocol` or `local::datagram_protocol` (a protocol
    whose endpoint is not a UNIX domain endpoint does not compile).

    @param socket1 A closed socket; receives one end.
    @param socket2 A closed socket; receives the other end.
    @param ec Set on failure: `already_open` for a socket that was open; on Windows, which
    has no `socketpair`, `operation_not_supported`, as with Asio; the system's error
    otherwise. */
template <class Protocol, class Executor1, class Executor2>
BOOST_ASIO_SYNC_OP_VOID connect_pair(basic_socket<Protocol, Executor1>& socket1,
                                     basic_socket<Protocol, Executor2>& socket2,
                                     boost::system::error_code& ec)
{
  static_assert(detail::is_local_endpoint<typename Protocol::endpoint>::value,
                "connect_pair makes UNIX domain sockets only: use "
                "boost::asio_notify::local::stream_protocol or local::datagram_protocol");

  const Protocol protocol;
  native_socket_type pair[2];
  detail::socket_ops::socket_pair(protocol.family(), protocol.type(), protocol.protocol(), pair,
                                  ec);
  if (ec)
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  boost::system::error_code ignored;
  socket1.assign(protocol, pair[0], ec);
  if (ec)
  {
    detail::socket_ops::close(pair[0], ignored);
    detail::socket_ops::close(pair[1], ignored);
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }
  socket2.assign(protocol, pair[1], ec);
  if (ec)
  {
    socket1.close(ignored);
    detail::socket_ops::close(pair[1], ignored);
  }
  BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
}

/** Create a pair of connected UNIX domain sockets (`socketpair`): `socket1` and `socket2`,
    which must be closed, are given the two ends.

    @param socket1 A closed socket; receives one end.
    @param socket2 A closed socket; receives the other end.

    @throws boost::system::system_error Thrown on failure: `already_open` for a socket that
    was open, `operation_not_supported` on Windows, the system's error otherwise.

    @par Example
    @code
    boost::asio_notify::local::stream_protocol::socket a(ioc), b(ioc);
    boost::asio_notify::local::connect_pair(a, b);
    boost::asio::write(a, boost::asio::buffer("hello", 5)); // b reads it
    @endcode */
template <class Protocol, class Executor1, class Executor2>
void connect_pair(basic_socket<Protocol, Executor1>& socket1,
                  basic_socket<Protocol, Executor2>& socket2)
{
  boost::system::error_code ec;
  local::connect_pair(socket1, socket2, ec);
  detail::throw_if(ec, "connect_pair");
}

} // namespace local
} // namespace asio_notify
} // namespace boost

#endif // defined(BOOST_ASIO_HAS_LOCAL_SOCKETS)

#endif
