//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// The one switch between the two backends of every example in this folder.
//
// Each example is a single source file built twice:
//   <name>          sockets from Boost.AsioNotify (readiness from the notify reactor)
//   <name>_default  stock Boost.Asio sockets (BOOST_ASIO_NOTIFY_DEFAULT_BACKEND defined)
//
// The examples name their socket types only through `backend::tcp` and `backend::udp`,
// connect through `backend::connect` / `backend::async_connect`, and name Beast through
// `backend::beast`, whose `tcp_stream` wraps the backend's socket. Everything else -- the
// io_context, buffers, timers, signal sets, resolvers, endpoints, SSL -- is plain Boost.Asio
// in both builds, because the notify sockets are drop-in replacements for Asio's.
//
#ifndef BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_NET_HPP
#define BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_NET_HPP

#include <boost/asio.hpp>

#if defined(BOOST_ASIO_NOTIFY_DEFAULT_BACKEND)

#include <boost/beast/core/tcp_stream.hpp>

namespace backend {

using tcp = boost::asio::ip::tcp;
using udp = boost::asio::ip::udp;
using boost::asio::async_connect;
using boost::asio::connect;
namespace beast = boost::beast;

/// Printed at start-up so that a log always says which build is running.
inline constexpr char name[] = "default (Boost.Asio)";

} // namespace backend

#else

#include <boost/asio_notify.hpp>
#include <boost/asio_notify/beast.hpp>

namespace backend {

using tcp = boost::asio_notify::ip::tcp;
using udp = boost::asio_notify::ip::udp;
using boost::asio_notify::async_connect;
using boost::asio_notify::connect;
namespace beast = boost::asio_notify::beast; // all of Boost.Beast, tcp_stream over our sockets

/// Printed at start-up so that a log always says which build is running.
inline constexpr char name[] = "notify (Boost.AsioNotify)";

} // namespace backend

#endif

#endif
