//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
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
    members with the same semantics. It models AsyncReadStream and AsyncWriteStream, so
    `boost::asio::async_read`, `async_write`, `async_read_until`, `ssl::stream` and
    Beast's HTTP algorithms work with it.

    Asynchronous operations support every completion token, the associated executor,
    allocator and cancellation slot (cancellation types terminal, partial and total),
    and never invoke the handler from inside the initiating function. */
template <class Protocol, class Executor = boost::asio::any_io_executor>
class basic_stream_socket : public basic_socket<Protocol, Executor>
{
  using base = basic_socket<Protocol, Executor>;
  using typename base::wait_for;

  // The result type of an initiating function (see socket_object::initiate_result_t).
  template <class Token, class Signature, class Performer>
  using initiate_result_t = typename base::template initiate_result_t<Token, Signature, Performer>;
  template <class Token, class Buffers>
  using send_result_t = typename base::template send_result_t<Token, Buffers>;
  template <class Token, class Buffers>
  using receive_result_t = typename base::template receive_result_t<Token, Buffers>;

public:
  using typename base::endpoint_type;
  using typename base::executor_type;
  using typename base::native_handle_type;
  using typename base::protocol_type;
  using message_flags = boost::asio::socket_base::message_flags;

  /// Rebinds the socket type to another executor.
  template <class Executor1>
  struct rebind_executor
  {
    /// The socket type when rebound to the specified executor.
    using other = basic_stream_socket<Protocol, Executor1>;
  };

  /// The constructors of `basic_socket`: from an executor or an execution context,
  /// optionally opening with a protocol, binding to an endpoint, or owning a native socket.
  using base::base;

  /// Move-construct; `other` is left closed.
  basic_stream_socket(basic_stream_socket&& other) noexcept = default;

  /// Move-assign (closing this socket first); `other` is left closed.
  basic_stream_socket& operator=(basic_stream_socket&& other) noexcept = default;

  /// Move-construct from a socket of another executor type, or of another protocol
  /// convertible to this one (a TCP socket into a generic stream socket); `other` is left
  /// closed. Assigning such a socket moves it the same way, closing this one first.
  template <class Protocol1, class Executor1,
            class = std::enable_if_t<detail::is_convertible_socket_v<Protocol1, Executor1, Protocol, Executor>>>
  basic_stream_socket(basic_stream_socket<Protocol1, Executor1>&& other) : base(std::move(other))
  {
  }

  /// Destroy the socket: pending operations complete with `operation_aborted`.
  ~basic_stream_socket() = default;

  /// Send data; blocks until at least one byte is sent.
  template <class ConstBufferSequence>
  std::size_t send(const ConstBufferSequence& buffers, message_flags flags = 0)
  {
    boost::system::error_code ec;
    std::size_t n = send(buffers, flags, ec);
    detail::throw_if(ec, "send");
    return n;
  }

  /// Send data; blocks until at least one byte is sent. With `boost::asio::null_buffers` it
  /// waits until the socket is writable and sends nothing.
  template <class ConstBufferSequence>
  std::size_t send(const ConstBufferSequence& buffers, message_flags flags,
                   boost::system::error_code& ec)
  {
    return this->sync_send(buffers, flags, ec, true);
  }

  /// Receive data; blocks until at least one byte is received. End of stream is `eof`.
  template <class MutableBufferSequence>
  std::size_t receive(const MutableBufferSequence& buffers, message_flags flags = 0)
  {
    boost::system::error_code ec;
    std::size_t n = receive(buffers, flags, ec);
    detail::throw_if(ec, "receive");
    return n;
  }

  /// Receive data; blocks until at least one byte is received. End of stream is `eof`.
  /// With `boost::asio::null_buffers` it waits until the socket is readable and reads
  /// nothing (whatever `flags` says, as Asio's).
  template <class MutableBufferSequence>
  std::size_t receive(const MutableBufferSequence& buffers, message_flags flags,
                      boost::system::error_code& ec)
  {
    return this->sync_receive(buffers, flags, ec, true);
  }

  /// Write some data; see `send`.
  template <class ConstBufferSequence>
  std::size_t write_some(const ConstBufferSequence& buffers) { return send(buffers, 0); }

  /// Write some data; see `send`.
  template <class ConstBufferSequence>
  std::size_t write_some(const ConstBufferSequence& buffers, boost::system::error_code& ec)
  {
    return send(buffers, 0, ec);
  }

  /// Read some data; see `receive`.
  template <class MutableBufferSequence>
  std::size_t read_some(const MutableBufferSequence& buffers) { return receive(buffers, 0); }

  /// Read some data; see `receive`.
  template <class MutableBufferSequence>
  std::size_t read_some(const MutableBufferSequence& buffers, boost::system::error_code& ec)
  {
    return receive(buffers, 0, ec);
  }

  /// Start an asynchronous send; the handler is `void(error_code, std::size_t)`. With
  /// `boost::asio::null_buffers` it completes, with 0 bytes, when the socket is writable.
  template <class ConstBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code, std::size_t))
                WriteToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_send(const ConstBufferSequence& buffers, message_flags flags,
                  WriteToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> send_result_t<WriteToken, ConstBufferSequence>
  {
    return this->start_send(buffers, flags, std::forward<WriteToken>(token), true);
  }

  /// Start an asynchronous send; the handler is `void(error_code, std::size_t)`.
  template <class ConstBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code, std::size_t))
                WriteToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_send(const ConstBufferSequence& buffers,
                  WriteToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> send_result_t<WriteToken, ConstBufferSequence>
  {
    return async_send(buffers, 0, std::forward<WriteToken>(token));
  }

  /// Start an asynchronous write of some data; see `async_send`.
  template <class ConstBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code, std::size_t))
                WriteToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_write_some(const ConstBufferSequence& buffers,
                        WriteToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> send_result_t<WriteToken, ConstBufferSequence>
  {
    return async_send(buffers, 0, std::forward<WriteToken>(token));
  }

  /// Start an asynchronous receive; the handler is `void(error_code, std::size_t)`. With
  /// `boost::asio::null_buffers` it completes, with 0 bytes, when the socket is readable, or
  /// with `message_out_of_band` when out-of-band data is waiting (README: urgent data).
  template <class MutableBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code, std::size_t))
                ReadToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_receive(const MutableBufferSequence& buffers, message_flags flags,
                     ReadToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> receive_result_t<ReadToken, MutableBufferSequence>
  {
    return this->start_receive(buffers, flags, std::forward<ReadToken>(token), true);
  }

  /// Start an asynchronous receive; the handler is `void(error_code, std::size_t)`.
  template <class MutableBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code, std::size_t))
                ReadToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_receive(const MutableBufferSequence& buffers,
                     ReadToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> receive_result_t<ReadToken, MutableBufferSequence>
  {
    return async_receive(buffers, 0, std::forward<ReadToken>(token));
  }

  /// Start an asynchronous read of some data; see `async_receive`.
  template <class MutableBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code, std::size_t))
                ReadToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_read_some(const MutableBufferSequence& buffers,
                       ReadToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> receive_result_t<ReadToken, MutableBufferSequence>
  {
    return async_receive(buffers, 0, std::forward<ReadToken>(token));
  }
};

} // namespace asio_notify
} // namespace boost

#endif
