//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    The free `async_wait` for Boost.Asio's own sockets: readiness waits that on Windows run on
    the io_context's own completion port, with no `select()` thread (doc/switching.md,
    "Keeping Asio's own sockets"). */
#ifndef BOOST_ASIO_NOTIFY_ASYNC_WAIT_HPP
#define BOOST_ASIO_NOTIFY_ASYNC_WAIT_HPP

#include <boost/asio_notify/detail/socket_wait.hpp>

#include <boost/asio/async_result.hpp>
#include <boost/asio/basic_socket.hpp>
#include <boost/asio/socket_base.hpp>
#include <boost/system/error_code.hpp>

#include <utility>

namespace boost {
namespace asio_notify {

/** Start an asynchronous wait until one of Asio's own sockets (`boost::asio::ip::tcp::socket`,
    `udp::socket`, a `local` socket, an acceptor's base: any `boost::asio::basic_socket`) is
    ready to read (`wait_read`), ready to write (`wait_write`), or has an error condition,
    a hang-up or urgent data (`wait_error`). Nothing is read or written. This is an
    initiating function: it returns at once.

    On Windows the wait is an AFD poll issued on the socket's own handle, which Asio
    associated with its context's completion port: `run()` completes it, and no thread
    starts beside the program's, where the socket's own `async_wait(wait_write)` or
    `wait_error` starts Asio's `select()` thread (and is bounded by `FD_SETSIZE`). The
    socket's `cancel()` and `close()` end it, as they end Asio's own. Where this Boost's
    io_context is not of the shape the library was built for, or the system has no AFD
    polling, it is the socket's own `async_wait`. Elsewhere it is always the socket's own
    `async_wait`.

    @param socket The socket. It must outlive the wait's start only: the wait does not use
    the object afterwards.
    @param w `boost::asio::socket_base::wait_read`, `wait_write` or `wait_error`.
    @param token The completion token that makes the handler.

    @par Completion signature
    @code void(boost::system::error_code ec) @endcode

    @par Errors
    `operation_aborted` when cancelled (through the slot or the socket's `cancel()`), or when
    the socket is closed before it completes; `bad_descriptor` if it was closed when the
    wait started. A socket with an error (a reset, a failed connect) is ready: the wait
    completes without one, and the next read or write reports it, as with Asio's own wait.

    @par Per-operation cancellation
    `cancellation_type::terminal`, `partial` and `total`.

    @par Example
    @code
    boost::asio::ip::tcp::socket socket(io);
    // ... connect ...
    boost::asio_notify::async_wait(socket, boost::asio::socket_base::wait_write,
                                   [&](boost::system::error_code ec) {
                                     if (!ec)
                                       write_with_my_library(socket.native_handle());
                                   });
    @endcode */
template <class Protocol, class Executor,
          BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code))
              WaitToken = boost::asio::default_completion_token_t<Executor>>
auto async_wait(boost::asio::basic_socket<Protocol, Executor>& socket,
                boost::asio::socket_base::wait_type w,
                WaitToken&& token = boost::asio::default_completion_token_t<Executor>())
    -> decltype(boost::asio::async_initiate<WaitToken, void(boost::system::error_code)>(
        std::declval<detail::initiate_socket_wait>(), token, &socket, w))
{
  return boost::asio::async_initiate<WaitToken, void(boost::system::error_code)>(
      detail::initiate_socket_wait{}, token, &socket, w);
}

} // namespace asio_notify
} // namespace boost

#endif
