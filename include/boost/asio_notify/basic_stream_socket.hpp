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

#include <boost/asio_notify/detail/transfer_socket.hpp>

#include <boost/asio/buffer.hpp>

#include <cstddef>
#include <utility>

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
    associated immediate executor runs it there; see `basic_socket` for what they share, and
    for thread safety. One operation transfers at most the first 64 buffers of a buffer
    sequence, as with Asio.

    @tparam Protocol The stream protocol, such as `boost::asio_notify::ip::tcp`.
    @tparam Executor The I/O executor type.

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
class basic_stream_socket : public detail::transfer_socket<Protocol, Executor, true>
{
  using base = detail::transfer_socket<Protocol, Executor, true>;
  using typename base::default_token_type, typename base::transfer_signature;

  // The result types of the asynchronous sends and receives (see transfer_socket).
  template <class Token, class Buffers>
  using send_result_t = typename base::template send_result_t<Token, Buffers>;
  template <class Token, class Buffers>
  using receive_result_t = typename base::template receive_result_t<Token, Buffers>;

public:
  // transfer_socket's types, named here for lookup in this template (its base is dependent).
  using typename base::executor_type;

  /// Rebinds the socket type to another executor: `rebind_executor<Executor1>::other` is
  /// `basic_stream_socket<Protocol, Executor1>`.
  template <class Executor1>
  using rebind_executor = detail::rebound<basic_stream_socket<Protocol, Executor1>>;

  /// The constructors of `basic_socket`: from an executor or an execution context,
  /// optionally opening with a protocol, binding to an endpoint, owning a native socket, or
  /// converting a socket of the same kind. Moving and destroying it are as for `basic_socket`;
  /// its sends and receives are those of `detail::transfer_socket`.
  using base::base;

  /** Write some data, blocking until at least one byte is written: `send(buffers, 0)`.

      @param buffers The data to write.
      @returns The number of bytes written, which may be fewer than given.
      @throws boost::system::system_error Thrown on failure; see `send`. */
  template <class ConstBufferSequence>
  std::size_t write_some(const ConstBufferSequence& buffers)
  {
    return this->send(buffers, 0);
  }

  /** Write some data, blocking until at least one byte is written: `send(buffers, 0, ec)`.

      @param buffers The data to write.
      @param ec Set on failure; see `send`.
      @returns The number of bytes written, 0 on failure. */
  template <class ConstBufferSequence>
  std::size_t write_some(const ConstBufferSequence& buffers, boost::system::error_code& ec)
  {
    return this->send(buffers, 0, ec);
  }

  /** Read some data, blocking until at least one byte is read: `receive(buffers, 0)`.

      @param buffers Where the data goes.
      @returns The number of bytes read, which may be fewer than the buffers hold.
      @throws boost::system::system_error Thrown on failure; `eof` at the end of the
      stream (see `receive`). */
  template <class MutableBufferSequence>
  std::size_t read_some(const MutableBufferSequence& buffers)
  {
    return this->receive(buffers, 0);
  }

  /** Read some data, blocking until at least one byte is read: `receive(buffers, 0, ec)`.

      @param buffers Where the data goes.
      @param ec Set on failure; `eof` at the end of the stream (see `receive`).
      @returns The number of bytes read, 0 on failure. */
  template <class MutableBufferSequence>
  std::size_t read_some(const MutableBufferSequence& buffers, boost::system::error_code& ec)
  {
    return this->receive(buffers, 0, ec);
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
    return this->async_send(buffers, 0, std::forward<WriteToken>(token));
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
    return this->async_receive(buffers, 0, std::forward<ReadToken>(token));
  }
};

} // namespace asio_notify
} // namespace boost

#endif
