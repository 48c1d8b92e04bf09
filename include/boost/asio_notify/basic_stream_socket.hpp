//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    `basic_stream_socket`: the stream socket of `ip::tcp`, `local::stream_protocol` and
    `generic::stream_protocol` on the notify reactor. */
#ifndef BOOST_ASIO_NOTIFY_BASIC_STREAM_SOCKET_HPP
#define BOOST_ASIO_NOTIFY_BASIC_STREAM_SOCKET_HPP

#include <boost/asio_notify/basic_socket.hpp>
#include <boost/asio_notify/detail/null_buffers.hpp>

#include <boost/asio/buffer.hpp>

#include <cstddef>
#include <type_traits>

namespace boost {
namespace asio_notify {

/** A stream-oriented socket on the notify reactor: `boost::asio::basic_stream_socket`'s
    members with the same semantics. It models Asio's SyncReadStream, SyncWriteStream,
    AsyncReadStream and AsyncWriteStream, so `boost::asio::read`, `write`, `async_read`,
    `async_write`, `async_read_until`, `boost::asio::ssl::stream` and Beast's HTTP
    algorithms work with it; `boost::asio_notify::beast::tcp_stream` wraps it with Beast's
    timeouts, and `<boost/asio_notify/beast.hpp>` lets `websocket::stream` run over it.

    Asynchronous operations take any completion token, use the handler's associated
    executor, allocator and cancellation slot (cancellation types terminal, partial and
    total), and never invoke the handler from inside the initiating function unless its
    associated immediate executor runs it there; see `basic_socket` for what they share. One
    operation transfers at most the first 64 buffers of a buffer sequence, as with Asio.

    @tparam Protocol The stream protocol, such as `boost::asio_notify::ip::tcp`.
    @tparam Executor The I/O executor type.

    @par Thread safety
    As for `basic_socket`: one thread at a time, except `cancel()` and `close()`.

    @par Example
    @code
    boost::asio_notify::ip::tcp::socket socket(ioc);
    socket.connect(endpoint);
    std::array<char, 1024> data;
    socket.async_read_some(boost::asio::buffer(data),
                           [&](boost::system::error_code ec, std::size_t n) {
                             if (!ec)
                               std::fwrite(data.data(), 1, n, stdout);
                           });
    @endcode */
template <class Protocol, class Executor = boost::asio::any_io_executor>
class basic_stream_socket : public basic_socket<Protocol, Executor>
{
  using base = basic_socket<Protocol, Executor>;
  using typename base::wait_for, typename base::default_token_type,
      typename base::transfer_signature;

  // The result type of an initiating function (see socket_object::initiate_result_t).
  template <class Token, class Signature, class Performer>
  using initiate_result_t = typename base::template initiate_result_t<Token, Signature, Performer>;
  template <class Token, class Buffers>
  using send_result_t = typename base::template send_result_t<Token, Buffers>;
  template <class Token, class Buffers>
  using receive_result_t = typename base::template receive_result_t<Token, Buffers>;

public:
  // basic_socket's types, named here for lookup in this template (its base is dependent).
  using typename base::executor_type, typename base::message_flags;

  /// Rebinds the socket type to another executor: `rebind_executor<Executor1>::other` is
  /// `basic_stream_socket<Protocol, Executor1>`.
  template <class Executor1>
  using rebind_executor = detail::rebound<basic_stream_socket<Protocol, Executor1>>;

  /// The constructors of `basic_socket`: from an executor or an execution context,
  /// optionally opening with a protocol, binding to an endpoint, owning a native socket, or
  /// converting a socket of the same kind. Moving and destroying it are as for `basic_socket`.
  using base::base;

  /** Send data, blocking until at least one byte is sent.

      It may send fewer bytes than given: `boost::asio::write` sends them all. An empty
      buffer sequence sends nothing and returns 0 at once. In `non_blocking(true)` mode it
      reports `would_block` instead of waiting. With `boost::asio::null_buffers` it waits
      until the socket is writable and sends nothing.

      @param buffers The data to send.
      @param flags Flags for the system's send. On POSIX `MSG_NOSIGNAL` is added: a broken
      connection reports `broken_pipe` instead of raising `SIGPIPE`.

      @returns The number of bytes sent.

      @throws boost::system::system_error Thrown on failure: `bad_descriptor` if the socket
      is closed, `broken_pipe` or `connection_reset` when the peer is gone, `would_block`
      in non-blocking mode.

      @par Example
      @code
      socket.send(boost::asio::buffer("hello", 5));
      @endcode */
  template <class ConstBufferSequence>
  std::size_t send(const ConstBufferSequence& buffers, message_flags flags = 0)
  {
    return detail::or_throw("send", [&](auto& ec) { return send(buffers, flags, ec); });
  }

  /** Send data, blocking until at least one byte is sent; see the throwing overload.

      @param buffers The data to send; with `boost::asio::null_buffers`, wait until the
      socket is writable and send nothing.
      @param flags Flags for the system's send.
      @param ec Set on failure: `bad_descriptor` if the socket is closed, `broken_pipe` or
      `connection_reset` when the peer is gone, `would_block` in non-blocking mode.

      @returns The number of bytes sent, 0 on failure. */
  template <class ConstBufferSequence>
  std::size_t send(const ConstBufferSequence& buffers, message_flags flags,
                   boost::system::error_code& ec)
  {
    return this->sync_send(buffers, flags, ec, true);
  }

  /** Receive data, blocking until at least one byte is received.

      It may receive fewer bytes than the buffers hold: `boost::asio::read` fills them. An
      empty buffer sequence receives nothing and returns 0 at once. Once the peer has closed
      the connection it fails with `boost::asio::error::eof`, at every call. In
      `non_blocking(true)` mode it reports `would_block` instead of waiting. With
      `boost::asio::null_buffers` it waits until the socket is readable and reads nothing,
      whatever `flags` says, as Asio's does.

      @param buffers Where the data goes.
      @param flags Flags for the system's receive, such as `message_peek`.

      @returns The number of bytes received.

      @throws boost::system::system_error Thrown on failure: `eof` at the end of the stream,
      `connection_reset`, `bad_descriptor` if the socket is closed, `would_block` in
      non-blocking mode.

      @par Example
      @code
      char data[512];
      std::size_t n = socket.receive(boost::asio::buffer(data));
      @endcode */
  template <class MutableBufferSequence>
  std::size_t receive(const MutableBufferSequence& buffers, message_flags flags = 0)
  {
    return detail::or_throw("receive", [&](auto& ec) { return receive(buffers, flags, ec); });
  }

  /** Receive data, blocking until at least one byte is received; see the throwing
      overload.

      @param buffers Where the data goes; with `boost::asio::null_buffers`, wait until the
      socket is readable and read nothing.
      @param flags Flags for the system's receive, such as `message_peek`.
      @param ec Set on failure: `eof` at the end of the stream, `connection_reset`,
      `bad_descriptor` if the socket is closed, `would_block` in non-blocking mode.

      @returns The number of bytes received, 0 on failure. */
  template <class MutableBufferSequence>
  std::size_t receive(const MutableBufferSequence& buffers, message_flags flags,
                      boost::system::error_code& ec)
  {
    return this->sync_receive(buffers, flags, ec, true);
  }

  /** Write some data, blocking until at least one byte is written: `send(buffers, 0)`.

      @param buffers The data to write.
      @returns The number of bytes written, which may be fewer than given.
      @throws boost::system::system_error Thrown on failure; see `send`. */
  template <class ConstBufferSequence>
  std::size_t write_some(const ConstBufferSequence& buffers)
  {
    return send(buffers, 0);
  }

  /** Write some data, blocking until at least one byte is written: `send(buffers, 0, ec)`.

      @param buffers The data to write.
      @param ec Set on failure; see `send`.
      @returns The number of bytes written, 0 on failure. */
  template <class ConstBufferSequence>
  std::size_t write_some(const ConstBufferSequence& buffers, boost::system::error_code& ec)
  {
    return send(buffers, 0, ec);
  }

  /** Read some data, blocking until at least one byte is read: `receive(buffers, 0)`.

      @param buffers Where the data goes.
      @returns The number of bytes read, which may be fewer than the buffers hold.
      @throws boost::system::system_error Thrown on failure; `eof` at the end of the
      stream (see `receive`). */
  template <class MutableBufferSequence>
  std::size_t read_some(const MutableBufferSequence& buffers)
  {
    return receive(buffers, 0);
  }

  /** Read some data, blocking until at least one byte is read: `receive(buffers, 0, ec)`.

      @param buffers Where the data goes.
      @param ec Set on failure; `eof` at the end of the stream (see `receive`).
      @returns The number of bytes read, 0 on failure. */
  template <class MutableBufferSequence>
  std::size_t read_some(const MutableBufferSequence& buffers, boost::system::error_code& ec)
  {
    return receive(buffers, 0, ec);
  }

  /** Start an asynchronous send.

      The operation completes once at least one byte is sent (it may send fewer than given:
      `boost::asio::async_write` sends them all), or on error. An empty buffer sequence
      completes with 0 bytes without waiting. With `boost::asio::null_buffers` it completes,
      with 0 bytes, when the socket is writable. This is an initiating function: it returns
      at once.

      @param buffers The data to send. The sequence is copied; the memory it refers to must
      stay valid until the handler is invoked.
      @param flags Flags for the system's send.
      @param token The completion token that makes the handler.

      @par Completion signature
      @code void(boost::system::error_code ec, std::size_t bytes_transferred) @endcode

      @par Errors
      `bad_descriptor` if the socket is closed when the operation starts;
      `operation_aborted` when cancelled, or when the socket is closed before it completes;
      `broken_pipe` or `connection_reset` when the peer is gone.

      @par Per-operation cancellation
      `cancellation_type::terminal`, `partial` and `total`: a send still waiting for the
      socket to become writable completes with `operation_aborted`. */
  template <class ConstBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(transfer_signature) WriteToken = default_token_type>
  auto async_send(const ConstBufferSequence& buffers, message_flags flags,
                  WriteToken&& token = default_token_type())
      -> send_result_t<WriteToken, ConstBufferSequence>
  {
    return this->start_send(buffers, flags, std::forward<WriteToken>(token), true);
  }

  /** Start an asynchronous send without flags: `async_send(buffers, 0, token)`, with that
      form's completion signature, errors and cancellation.

      @param buffers The data to send; its memory must stay valid until the handler is
      invoked.
      @param token The completion token that makes the handler.

      @par Example
      @code
      socket.async_send(boost::asio::buffer(message),
                        [](boost::system::error_code ec, std::size_t n) {
                          // n bytes of message were sent unless ec is set
                        });
      @endcode */
  template <class ConstBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(transfer_signature) WriteToken = default_token_type>
  auto async_send(const ConstBufferSequence& buffers, WriteToken&& token = default_token_type())
      -> send_result_t<WriteToken, ConstBufferSequence>
  {
    return async_send(buffers, 0, std::forward<WriteToken>(token));
  }

  /** Start an asynchronous write of some data (AsyncWriteStream's name for a send without
      flags): `async_send(buffers, 0, token)`. It completes once at least one byte is
      written; `boost::asio::async_write` writes all.

      @param buffers The data to write; its memory must stay valid until the handler is
      invoked.
      @param token The completion token that makes the handler. */
  template <class ConstBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(transfer_signature) WriteToken = default_token_type>
  auto async_write_some(const ConstBufferSequence& buffers,
                        WriteToken&& token = default_token_type())
      -> send_result_t<WriteToken, ConstBufferSequence>
  {
    return async_send(buffers, 0, std::forward<WriteToken>(token));
  }

  /** Start an asynchronous receive.

      The operation completes once at least one byte is received (it may receive fewer than
      the buffers hold: `boost::asio::async_read` fills them), at the end of the stream, or
      on error. An empty buffer sequence completes with 0 bytes without waiting. With
      `boost::asio::null_buffers` it completes, with 0 bytes, when the socket is readable;
      with `null_buffers` and `message_out_of_band`, when urgent data is waiting or on an
      error or hang-up (urgent data arriving while it is pending is not reported: README,
      "Differences from stock Asio"). This is an initiating function: it returns at once.

      @param buffers Where the data goes. The sequence is copied; the memory it refers to
      must stay valid until the handler is invoked.
      @param flags Flags for the system's receive, such as `message_peek`.
      @param token The completion token that makes the handler.

      @par Completion signature
      @code void(boost::system::error_code ec, std::size_t bytes_transferred) @endcode

      @par Errors
      `eof` at the end of the stream, for this and every later receive; `bad_descriptor` if
      the socket is closed when the operation starts; `operation_aborted` when cancelled, or
      when the socket is closed before it completes; `connection_reset`.

      @par Per-operation cancellation
      `cancellation_type::terminal`, `partial` and `total`: a receive still waiting for
      data completes with `operation_aborted`. */
  template <class MutableBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(transfer_signature) ReadToken = default_token_type>
  auto async_receive(const MutableBufferSequence& buffers, message_flags flags,
                     ReadToken&& token = default_token_type())
      -> receive_result_t<ReadToken, MutableBufferSequence>
  {
    return this->start_receive(buffers, flags, std::forward<ReadToken>(token), true);
  }

  /** Start an asynchronous receive without flags: `async_receive(buffers, 0, token)`, with
      that form's completion signature, errors and cancellation.

      @param buffers Where the data goes; its memory must stay valid until the handler is
      invoked.
      @param token The completion token that makes the handler. */
  template <class MutableBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(transfer_signature) ReadToken = default_token_type>
  auto async_receive(const MutableBufferSequence& buffers, ReadToken&& token = default_token_type())
      -> receive_result_t<ReadToken, MutableBufferSequence>
  {
    return async_receive(buffers, 0, std::forward<ReadToken>(token));
  }

  /** Start an asynchronous read of some data (AsyncReadStream's name for a receive without
      flags): `async_receive(buffers, 0, token)`. It completes once at least one byte is
      read, or with `eof` at the end of the stream; `boost::asio::async_read` fills the
      buffers.

      @param buffers Where the data goes; its memory must stay valid until the handler is
      invoked.
      @param token The completion token that makes the handler.

      @par Example
      @code
      std::array<char, 1024> data;
      socket.async_read_some(boost::asio::buffer(data),
                             [&](boost::system::error_code ec, std::size_t n) {
                               if (ec == boost::asio::error::eof)
                                 return; // the peer closed the connection
                             });
      @endcode */
  template <class MutableBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(transfer_signature) ReadToken = default_token_type>
  auto async_read_some(const MutableBufferSequence& buffers,
                       ReadToken&& token = default_token_type())
      -> receive_result_t<ReadToken, MutableBufferSequence>
  {
    return async_receive(buffers, 0, std::forward<ReadToken>(token));
  }
};

} // namespace asio_notify
} // namespace boost

#endif
