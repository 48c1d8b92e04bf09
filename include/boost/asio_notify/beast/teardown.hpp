//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    `teardown`, `async_teardown` and `beast_close_socket` for the notify reactor's sockets:
    the customisation points Beast's `websocket::stream` and its timeouts find by
    argument-dependent lookup. */
#ifndef BOOST_ASIO_NOTIFY_BEAST_TEARDOWN_HPP
#define BOOST_ASIO_NOTIFY_BEAST_TEARDOWN_HPP

#include <boost/asio_notify/basic_stream_socket.hpp>

#include <boost/asio/compose.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/core/role.hpp>

#include <array>
#include <cstddef>
#include <utility>

namespace boost {
namespace asio_notify {
/// @cond
namespace detail {

// What a teardown reads and throws away while it waits for the peer's end of stream.
using teardown_buffer = std::array<char, 2048>;

// The peer's end of stream ends the drain; a zero-byte read without an error does too.
inline bool drain_finished(boost::system::error_code& ec, std::size_t bytes)
{
  if (ec == boost::asio::error::eof || (!ec && bytes == 0))
  {
    ec = {};
    return true;
  }
  return false;
}

// The closing half of a teardown, after the drain: a client shuts down its sending side
// only now (a server did so first), then the socket is closed.
template <class Socket>
void finish_teardown(boost::beast::role_type role, Socket& socket, boost::system::error_code& ec)
{
  if (role == boost::beast::role_type::client)
    socket.shutdown(boost::asio::socket_base::shutdown_send, ec);
  if (!ec)
    socket.close(ec);
}

// async_teardown's composed operation: the drain reads in non-blocking mode and waits for
// readability in between, so that no buffer travels with the operation.
template <class Socket>
class teardown_op
{
public:
  teardown_op(Socket& socket, boost::beast::role_type role) noexcept : socket_(socket), role_(role)
  {
  }

  template <class Self>
  void operator()(Self& self, boost::system::error_code ec = {})
  {
    switch (step_)
    {
    case step::start:
      self.reset_cancellation_state(boost::asio::enable_total_cancellation());
      start(ec);
      break;
    case step::draining:
      // A cancellation emitted after the wait completed, before this resumed, still counts.
      if (!ec && self.cancelled() != boost::asio::cancellation_type::none)
        ec = boost::asio::error::operation_aborted;
      break;
    case step::finishing:
      return complete(self, ec);
    }
    if (!ec)
      switch (drain(ec))
      {
      case drained::until_blocked:
        went_async_ = true;
        return socket_.async_wait(boost::asio::socket_base::wait_read, std::move(self));
      case drained::for_one_turn:
        // A peer that keeps the buffer full: the executor's other work gets a turn.
        went_async_ = true;
        return boost::asio::post(
            boost::beast::bind_front_handler(std::move(self), boost::system::error_code()));
      case drained::to_the_end:
        break;
      }
    if (!ec)
      finish_teardown(role_, socket_, ec);
    finish(self, ec);
  }

private:
  enum class step
  {
    start,
    draining,
    finishing
  };

  void start(boost::system::error_code& ec)
  {
    step_ = step::draining;
    was_non_blocking_ = socket_.non_blocking();
    socket_.non_blocking(true, ec);
    if (!ec && role_ == boost::beast::role_type::server)
      socket_.shutdown(boost::asio::socket_base::shutdown_send, ec);
  }

  enum class drained
  {
    to_the_end, // the peer's end of stream, or an error (in ec)
    until_blocked,
    for_one_turn
  };

  drained drain(boost::system::error_code& ec)
  {
    for (int reads = 0; reads < reads_per_turn; ++reads)
    {
      teardown_buffer discarded;
      const std::size_t bytes = socket_.read_some(boost::asio::buffer(discarded), ec);
      if (ec == boost::asio::error::would_block)
      {
        ec = {};
        return drained::until_blocked;
      }
      if (drain_finished(ec, bytes) || ec)
        return drained::to_the_end;
    }
    return drained::for_one_turn;
  }

  static constexpr int reads_per_turn = 16;

  // The handler is never invoked inside async_teardown: a teardown that ends before
  // waiting once completes through a post.
  template <class Self>
  void finish(Self& self, const boost::system::error_code& ec)
  {
    if (went_async_)
      return complete(self, ec);
    step_ = step::finishing;
    boost::asio::post(boost::beast::bind_front_handler(std::move(self), ec));
  }

  template <class Self>
  void complete(Self& self, const boost::system::error_code& ec)
  {
    boost::system::error_code ignored;
    socket_.non_blocking(was_non_blocking_, ignored);
    self.complete(ec);
  }

  Socket& socket_;
  boost::beast::role_type role_;
  step step_ = step::start;
  bool was_non_blocking_ = false;
  bool went_async_ = false;
};

} // namespace detail
/// @endcond

/** Tear down a WebSocket's connection over a notify stream socket, blocking: Beast's
    `websocket::stream` calls it, found by argument-dependent lookup, after the closing
    handshake. As Beast does for Asio's sockets: a server shuts down its sending side
    first; the socket is read until the peer's end of stream (what arrives is discarded);
    a client then shuts down its sending side; the socket is closed.

    @param role The WebSocket role of this end (`boost::beast::role_type`).
    @param socket The socket, connected.
    @param ec Set to the error that stopped the teardown, cleared on success. */
template <class Protocol, class Executor>
void teardown(boost::beast::role_type role, basic_stream_socket<Protocol, Executor>& socket,
              boost::system::error_code& ec)
{
  ec = {};
  if (role == boost::beast::role_type::server)
    socket.shutdown(boost::asio::socket_base::shutdown_send, ec);
  while (!ec)
  {
    detail::teardown_buffer discarded;
    const std::size_t bytes = socket.read_some(boost::asio::buffer(discarded), ec);
    if (detail::drain_finished(ec, bytes))
      return detail::finish_teardown(role, socket, ec);
  }
}

/** Start tearing down a WebSocket's connection over a notify stream socket, as `teardown`
    does, without blocking: Beast's `websocket::stream` calls it, found by
    argument-dependent lookup, after an asynchronous closing handshake.

    The handler is invoked through its associated executor (the socket's by default),
    never inside this call. Cancelling it (any cancellation type), or closing the socket (as
    the WebSocket's own timeout does, through `beast_close_socket`), completes it with
    `operation_aborted`.

    @param role The WebSocket role of this end (`boost::beast::role_type`).
    @param socket The socket, connected; it must outlive the operation.
    @param handler Invoked as `void(boost::system::error_code)`. */
template <class Protocol, class Executor, class TeardownHandler>
void async_teardown(boost::beast::role_type role, basic_stream_socket<Protocol, Executor>& socket,
                    TeardownHandler&& handler)
{
  using socket_type = basic_stream_socket<Protocol, Executor>;
  boost::asio::async_compose<TeardownHandler, void(boost::system::error_code)>(
      detail::teardown_op<socket_type>(socket, role), handler, socket);
}

/** Close a notify socket, ignoring errors: Beast's timeouts and `websocket::stream`
    call it, found by argument-dependent lookup, to stop a connection at once.
    @param socket The socket to close. */
template <class Protocol, class Executor>
void beast_close_socket(basic_socket<Protocol, Executor>& socket)
{
  boost::system::error_code ignored;
  socket.close(ignored);
}

} // namespace asio_notify
} // namespace boost

#endif
