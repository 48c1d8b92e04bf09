//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    Boost.AsioNotify: a readiness reactor for Boost.Asio built on socket state
    notifications. This header includes every public header: the sockets, the acceptor,
    `connect`, the protocols (`ip`, `generic`, and `local` where Asio has local sockets),
    the reactor, the notification port, and `async_wait` for Asio's own sockets. */
#ifndef BOOST_ASIO_NOTIFY_HPP
#define BOOST_ASIO_NOTIFY_HPP

#include <boost/asio_notify/async_wait.hpp>
#include <boost/asio_notify/basic_datagram_socket.hpp>
#include <boost/asio_notify/basic_socket.hpp>
#include <boost/asio_notify/basic_socket_acceptor.hpp>
#include <boost/asio_notify/basic_stream_socket.hpp>
#include <boost/asio_notify/connect.hpp>
#include <boost/asio_notify/flags.hpp>
#include <boost/asio_notify/generic/datagram_protocol.hpp>
#include <boost/asio_notify/generic/stream_protocol.hpp>
#include <boost/asio_notify/ip/tcp.hpp>
#include <boost/asio_notify/ip/udp.hpp>
#include <boost/asio_notify/port.hpp>
#include <boost/asio_notify/reactor.hpp>
#include <boost/asio_notify/registration.hpp>

#include <boost/asio/local/basic_endpoint.hpp> // BOOST_ASIO_HAS_LOCAL_SOCKETS, where Asio has them
#if defined(BOOST_ASIO_HAS_LOCAL_SOCKETS)
#include <boost/asio_notify/local/connect_pair.hpp>
#include <boost/asio_notify/local/datagram_protocol.hpp>
#include <boost/asio_notify/local/stream_protocol.hpp>
#endif

/** @namespace boost::asio_notify
    Boost.AsioNotify's public names: the I/O objects (`basic_socket`,
    `basic_stream_socket`, `basic_datagram_socket`, `basic_socket_acceptor`), `connect` and
    `async_connect`, the `reactor` service and its options, and the notification `port` with
    its flags and entries. */

/** @namespace boost::asio_notify::ip
    The internet protocols, `tcp` and `udp`: Asio's, with this library's sockets,
    acceptor and resolver. */

/** @namespace boost::asio_notify::generic
    The generic protocols, `stream_protocol` and `datagram_protocol`: Asio's, with this
    library's sockets. */

/** @namespace boost::asio_notify::local
    The local (Unix domain) protocols, `stream_protocol` and `datagram_protocol`, and
    `connect_pair`, where Asio has local sockets. */

#endif
