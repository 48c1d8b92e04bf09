//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    Boost.Beast on the notify reactor, in one include: namespace
    `boost::asio_notify::beast` (all of Beast, with `basic_stream` and `tcp_stream` over
    this library's sockets), and the `teardown`, `async_teardown` and `beast_close_socket`
    that Beast's WebSocket stream and timeouts find for them (doc/switching.md). */
#ifndef BOOST_ASIO_NOTIFY_BEAST_HPP
#define BOOST_ASIO_NOTIFY_BEAST_HPP

#include <boost/asio_notify/beast/basic_stream.hpp>
#include <boost/asio_notify/beast/teardown.hpp>

#endif
