//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    `detail::transfer_socket`: the sends and receives of stream and datagram sockets. */
#ifndef BOOST_ASIO_NOTIFY_DETAIL_TRANSFER_SOCKET_HPP
#define BOOST_ASIO_NOTIFY_DETAIL_TRANSFER_SOCKET_HPP

#include <boost/asio_notify/basic_socket.hpp>
#include <boost/asio_notify/detail/null_buffers.hpp>

#include <boost/asio/buffer.hpp>

#include <cstddef>
#include <utility>

namespace boost {
namespace asio_notify {
namespace detail {

/** The sends and receives that `basic_stream_socket` (`Stream` true) and
    `basic_datagram_socket` (`Stream` false) share, with Asio's semantics for each kind:
    written once, each member says where the kinds differ. A stream socket transfers
    nothing for an empty buffer sequence and reports a receive of 0 bytes as `eof`; a
    datagram socket sends and receives one datagram a call, and a datagram may be empty.

    @tparam Protocol The protocol, such as `boost::asio_notify::ip::tcp`.
    @tparam Executor The I/O executor type.
    @tparam Stream Whether the socket is stream-oriented. */
template <class Protocol, class Executor, bool Stream>
class transfer_socket : public basic_socket<Protocol, Executor>
{
  using base = basic_socket<Protocol, Executor>;

protected:
  // basic_socket's, named here for lookup in this template (its base is dependent).
  using typename base::wait_for, typename base::default_token_type,
      typename base::transfer_signature;

  /// The result type of an initiating function (see `socket_object::initiate_result_t`).
  template <class Token, class Signature, class Performer>
  using initiate_result_t = typename base::template initiate_result_t<Token, Signature, Performer>;

  /// The result type of an asynchronous send on `Buffers` for `Token`.
  template <class Token, class Buffers>
  using send_result_t = initiate_result_t<Token, transfer_signature,
                                          transfer_or_wait_t<Buffers, send_performer<Buffers>>>;

  /// The result type of an asynchronous receive on `Buffers` for `Token`.
  template <class Token, class Buffers>
  using receive_result_t =
      initiate_result_t<Token, transfer_signature,
                        transfer_or_wait_t<Buffers, receive_performer<Buffers>>>;

public:
  // basic_socket's types, named here for lookup in this template (its base is dependent).
  using typename base::executor_type, typename base::message_flags,
      typename base::native_handle_type;

  /// The constructors of `basic_socket`.
  using base::base;

  /** Move-construct from a socket of the same kind (stream or datagram) of another executor
      type, or of another protocol convertible to this one (a TCP socket into a generic
      stream socket), as Asio's converting move does; `other` is left closed, unless a
      generic protocol throws `std::bad_cast` for another socket type, which leaves it open.
      Assigning such a socket moves it the same way, closing this one first.

      @param other The socket to take over. */
  template <class Protocol1, class Executor1,
            class = if_convertible_socket_t<Protocol1, Executor1, Protocol, Executor>>
  transfer_socket(transfer_socket<Protocol1, Executor1, Stream>&& other) : base(std::move(other))
  {
  }

  /** Send data, blocking until it is sent: on a stream socket at least one byte (it may send
      fewer than given: `boost::asio::write` sends them all), on a datagram socket one
      datagram to the connected peer.

      An empty buffer sequence sends nothing and returns 0 at once on a stream socket, and
      sends an empty datagram on a datagram socket. In `non_blocking(true)` mode it reports
      `would_block` instead of waiting. With `boost::asio::null_buffers` it waits until the
      socket is writable and sends nothing.

      @param buffers The data to send.
      @param flags Flags for the system's send. On POSIX `MSG_NOSIGNAL` is added: a broken
      connection reports `broken_pipe` instead of raising `SIGPIPE`.

      @returns The number of bytes sent.

      @throws boost::system::system_error Thrown on failure: `bad_descriptor` if the socket
      is closed, `would_block` in non-blocking mode; on a stream socket `broken_pipe` or
      `connection_reset` when the peer is gone; on a datagram socket the system's error (for
      example `message_size` for a datagram too long, or `connection_refused` after an ICMP
      port unreachable on Linux).

      @par Example
      @code
      socket.send(boost::asio::buffer("hello", 5));
      @endcode */
  template <class ConstBufferSequence>
  std::size_t send(const ConstBufferSequence& buffers, message_flags flags = 0)
  {
    return or_throw("send", [&](auto& ec) { return send(buffers, flags, ec); });
  }

  /** Send data; reports failure in `ec` instead of throwing (see the throwing overload).

      @param buffers The data to send; with `boost::asio::null_buffers`, wait until the
      socket is writable and send nothing.
      @param flags Flags for the system's send.
      @param ec Set on failure.

      @returns The number of bytes sent, 0 on failure. */
  template <class ConstBufferSequence>
  std::size_t send(const ConstBufferSequence& buffers, message_flags flags,
                   boost::system::error_code& ec)
  {
    return sync_transfer(buffers, wait_for::write, ec,
                         [&](native_handle_type s, buffer_array& a, auto& e) {
                           return socket_ops::send(s, a.bufs, a.count, flags, e);
                         });
  }

  /** Receive data, blocking until some arrives: on a stream socket at least one byte (it may
      receive fewer than the buffers hold: `boost::asio::read` fills them), on a datagram
      socket one datagram (for a connected socket, from its peer).

      On a stream socket an empty buffer sequence receives nothing and returns 0 at once.
      Once the peer has closed a stream's connection, a receive fails with
      `boost::asio::error::eof`, at every call. On a datagram socket a datagram longer than the buffers is cut to their
      size, the rest discarded, and an empty datagram gives 0 bytes (not `eof`). In
      `non_blocking(true)` mode it reports `would_block` instead of waiting. With
      `boost::asio::null_buffers` it waits until the socket is readable and reads nothing
      (a datagram stays queued), whatever `flags` says, as Asio's does.

      @par Example
      @code
      char data[512];
      std::size_t n = socket.receive(boost::asio::buffer(data));
      @endcode

      @param buffers Where the data goes.
      @param flags Flags for the system's receive, such as `message_peek`.

      @returns The number of bytes received.

      @throws boost::system::system_error Thrown on failure: `bad_descriptor` if the socket
      is closed, `would_block` in non-blocking mode; on a stream socket `eof` at the end of
      the stream, or `connection_reset`; on a datagram socket the system's error (on Linux
      `connection_refused` after an ICMP port unreachable on a connected socket). */
  template <class MutableBufferSequence>
  std::size_t receive(const MutableBufferSequence& buffers, message_flags flags = 0)
  {
    return or_throw("receive", [&](auto& ec) { return receive(buffers, flags, ec); });
  }

  /** Receive data; reports failure, `eof` at the end of a stream included, in `ec` instead
      of throwing (see the throwing overload).

      @param buffers Where the data goes; with `boost::asio::null_buffers`, wait until the
      socket is readable and read nothing.
      @param flags Flags for the system's receive, such as `message_peek`.
      @param ec Set on failure, to the throwing overload's errors.

      @returns The number of bytes received, 0 on failure. */
  template <class MutableBufferSequence>
  std::size_t receive(const MutableBufferSequence& buffers, message_flags flags,
                      boost::system::error_code& ec)
  {
    return sync_transfer(buffers, wait_for::read, ec,
                         [&](native_handle_type, buffer_array& a, auto& e) {
                           const std::size_t n = this->receive_attempt(a.bufs, a.count, flags, e);
                           if (Stream && !e && n == 0)
                             e = boost::asio::error::eof;
                           return n;
                         });
  }

  /** Start an asynchronous send.

      The operation completes once the data is sent (on a stream socket at least one byte,
      and it may send fewer than given: `boost::asio::async_write` sends them all; on a
      datagram socket one datagram to the connected peer), or on error. On a stream socket
      an empty buffer sequence completes with 0 bytes without waiting. With
      `boost::asio::null_buffers` it completes, with 0 bytes, when the socket is writable.
      This is an initiating function: it returns at once.

      @param buffers The data to send. The sequence is copied; the memory it refers to must
      stay valid until the handler is invoked.
      @param flags Flags for the system's send.
      @param token The completion token that makes the handler.

      @par Completion signature
      @code void(boost::system::error_code ec, std::size_t bytes_transferred) @endcode
      On a stream socket `bytes_transferred` may be less than the buffers' size.

      @par Errors
      On a stream socket `broken_pipe` or `connection_reset` when the peer is gone; on a
      datagram socket the system's error (for example `message_size`); and those of every
      operation (see `basic_socket`): `bad_descriptor` if the socket is closed when the
      operation starts, `operation_aborted` when cancelled or when the socket is closed first.

      @par Per-operation cancellation
      `cancellation_type::terminal`, `partial` and `total`: a send still waiting for the
      socket to become writable completes with `operation_aborted`, having sent nothing. On
      the `io_context_port` driver a stream send is an overlapped send from the start, as
      with Asio's own sockets on Windows: cancelled, it completes with `operation_aborted`
      once the system has ended it, and `bytes_transferred` says what it had sent. */
  template <class ConstBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(transfer_signature) WriteToken = default_token_type>
  auto async_send(const ConstBufferSequence& buffers, message_flags flags,
                  WriteToken&& token = default_token_type())
      -> send_result_t<WriteToken, ConstBufferSequence>
  {
    return start_transfer(std::forward<WriteToken>(token), wait_for::write, write_op,
                          send_performer<ConstBufferSequence>{{}, buffers, flags, Stream});
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

  /** Start an asynchronous receive.

      The operation completes once data arrives (on a stream socket at least one byte, and it
      may receive fewer than the buffers hold: `boost::asio::async_read` fills them; on a
      datagram socket one datagram, cut to the buffers' size when longer, an empty one giving
      0 bytes), at the end of a stream, or on error. On a stream socket an empty buffer
      sequence completes with 0 bytes without waiting. With `boost::asio::null_buffers` it
      completes, with 0 bytes, when the socket is readable (a datagram stays queued); with
      `null_buffers` and `message_out_of_band`, when urgent data is waiting or on an error
      or hang-up (urgent data arriving while it is pending is not reported: README,
      "Differences from stock Asio"; datagrams have none, so only an error condition
      completes it). This is an initiating function: it returns at once.

      @param buffers Where the data goes. The sequence is copied; the memory it refers to
      must stay valid until the handler is invoked.
      @param flags Flags for the system's receive, such as `message_peek`.
      @param token The completion token that makes the handler.

      @par Completion signature
      @code void(boost::system::error_code ec, std::size_t bytes_transferred) @endcode
      `bytes_transferred` is 0 with `eof`, and for an empty datagram.

      @par Errors
      On a stream socket `eof` at the end of the stream, for this and every later receive,
      or `connection_reset`; on a datagram socket the system's error (on Linux
      `connection_refused` after an ICMP port unreachable on a connected socket); and those
      of every operation (see `basic_socket`): `bad_descriptor` if the socket is closed when
      the operation starts, `operation_aborted` when cancelled or when the socket is closed
      first.

      @par Per-operation cancellation
      `cancellation_type::terminal`, `partial` and `total`: a receive still waiting for
      data completes with `operation_aborted`. */
  template <class MutableBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(transfer_signature) ReadToken = default_token_type>
  auto async_receive(const MutableBufferSequence& buffers, message_flags flags,
                     ReadToken&& token = default_token_type())
      -> receive_result_t<ReadToken, MutableBufferSequence>
  {
    return start_transfer(std::forward<ReadToken>(token), base::receive_readiness(flags), read_op,
                          receive_performer<MutableBufferSequence>{{}, buffers, flags, Stream});
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

private:
  // An asynchronous send or receive: with `null_buffers` a wait for `readiness` that
  // completes as a transfer of 0 bytes; otherwise `transfer`, queued in `queue`.
  template <class Token, template <class> class Transfer, class Buffers>
  auto start_transfer(Token&& token, wait_for readiness, op_type queue, Transfer<Buffers> transfer)
  {
    if constexpr (is_null_buffers<Buffers>())
      return this->async_readiness(std::forward<Token>(token), null_buffers_performer{readiness});
    else
      return this->template initiate<transfer_signature>(std::forward<Token>(token), queue,
                                                         std::move(transfer));
  }

  // A synchronous send or receive: with `null_buffers` a wait for `readiness` that transfers
  // nothing; on a stream an empty buffer sequence transfers nothing, as Asio's; otherwise
  // `attempt` on the buffers, until the socket is ready (socket_object::sync_io).
  template <class Buffers, class Attempt>
  std::size_t sync_transfer(const Buffers& buffers, wait_for readiness,
                            boost::system::error_code& ec, Attempt attempt)
  {
    if constexpr (is_null_buffers<Buffers>())
      return this->wait_ready(readiness, ec);
    else
    {
      buffer_array a(buffers);
      if (Stream && a.total == 0)
      {
        this->open_or_fail(ec);
        return 0;
      }
      return this->sync_io(readiness, ec, [&](native_handle_type s, boost::system::error_code& e) {
        return attempt(s, a, e);
      });
    }
  }
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
