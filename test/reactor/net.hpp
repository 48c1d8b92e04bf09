//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The one place that chooses which socket types the reactor test suite runs against.
// By default: Boost.AsioNotify's. With BOOST_ASIO_NOTIFY_DEFAULT_BACKEND defined: stock Asio's,
// so that every test is first proven correct about Asio's own semantics.
#ifndef BOOST_ASIO_NOTIFY_TEST_REACTOR_NET_HPP
#define BOOST_ASIO_NOTIFY_TEST_REACTOR_NET_HPP

#include <boost/asio.hpp>

#if defined(BOOST_ASIO_NOTIFY_DEFAULT_BACKEND)
namespace sockets = boost::asio;
#else
#include <boost/asio_notify.hpp>
namespace sockets = boost::asio_notify;
#endif

namespace asio = boost::asio;

// Socket namespaces: sockets::ip::tcp::{socket, acceptor, endpoint, resolver} and the udp twins.
using tcp = sockets::ip::tcp;
using udp = sockets::ip::udp;
// Protocols of any address family: sockets::generic::{stream_protocol, datagram_protocol}.
namespace generic = sockets::generic;
#if defined(BOOST_ASIO_HAS_LOCAL_SOCKETS)
// UNIX domain sockets: sockets::local::{stream_protocol, datagram_protocol, connect_pair}.
namespace local = sockets::local;
#endif

/// True when the tests run against Boost.AsioNotify's sockets.
#if defined(BOOST_ASIO_NOTIFY_DEFAULT_BACKEND)
inline constexpr bool notify_backend = false;
#else
inline constexpr bool notify_backend = true;
#endif

/// `asio::null_buffers()`, which the suite uses on purpose although Boost 1.90 deprecates
/// it: the deprecation warning is silenced here, for the tests' calls only.
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
inline asio::null_buffers test_null_buffers() { return asio::null_buffers(); }
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif // BOOST_ASIO_NOTIFY_TEST_REACTOR_NET_HPP
