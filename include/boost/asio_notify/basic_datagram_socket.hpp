//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
#ifndef BOOST_ASIO_NOTIFY_BASIC_DATAGRAM_SOCKET_HPP
#define BOOST_ASIO_NOTIFY_BASIC_DATAGRAM_SOCKET_HPP

#include <boost/asio_notify/basic_socket.hpp>
#include <boost/asio_notify/detail/null_buffers.hpp>

#include <boost/asio/buffer.hpp>

#include <cstddef>
#include <type_traits>

namespace boost {
namespace asio_notify {

/** A datagram socket on the notify reactor: `boost::asio::basic_datagram_socket`'s
    members with the same semantics (a datagram of zero bytes is data, not end of file).
    Asynchronous operations follow the same rules as `basic_stream_socket`'s. */
template <class Protocol, class Executor = boost::asio::any_io_executor>
class basic_datagram_socket : public basic_socket<Protocol, Executor>
{
  using base = basic_socket<Protocol, Executor>;
  using typename base::wait_for;
  using signature = void(boost::system::error_code, std::size_t);

  // The result type of an initiating function (see socket_object::initiate_result_t).
  template <class Token, class Performer>
  using initiate_result_t = typename base::template initiate_result_t<Token, signature, Performer>;
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
    using other = basic_datagram_socket<Protocol, Executor1>;
  };

  /// The constructors of `basic_socket`: from an executor or an execution context,
  /// optionally opening with a protocol, binding to an endpoint, or owning a native socket.
  using base::base;

  /// Move-construct; `other` is left closed.
  basic_datagram_socket(basic_datagram_socket&& other) noexcept = default;

  /// Move-assign (closing this socket first); `other` is left closed.
  basic_datagram_socket& operator=(basic_datagram_socket&& other) noexcept = default;

  /// Move-construct from a socket of another executor type, or of another protocol
  /// convertible to this one (a UDP socket into a generic datagram socket); `other` is left
  /// closed. Assigning such a socket moves it the same way, closing this one first.
  template <class Protocol1, class Executor1,
            class = std::enable_if_t<detail::is_convertible_socket_v<Protocol1, Executor1, Protocol, Executor>>>
  basic_datagram_socket(basic_datagram_socket<Protocol1, Executor1>&& other) : base(std::move(other))
  {
  }

  /// Destroy the socket: pending operations complete with `operation_aborted`.
  ~basic_datagram_socket() = default;

  /// Send a datagram to the connected peer.
  template <class ConstBufferSequence>
  std::size_t send(const ConstBufferSequence& buffers, message_flags flags = 0)
  {
    boost::system::error_code ec;
    std::size_t n = send(buffers, flags, ec);
    detail::throw_if(ec, "send");
    return n;
  }

  /// Send a datagram to the connected peer. With `boost::asio::null_buffers` it waits until
  /// the socket is writable and sends nothing.
  template <class ConstBufferSequence>
  std::size_t send(const ConstBufferSequence& buffers, message_flags flags,
                   boost::system::error_code& ec)
  {
    return this->sync_send(buffers, flags, ec, false);
  }

  /// Send a datagram to `destination`.
  template <class ConstBufferSequence>
  std::size_t send_to(const ConstBufferSequence& buffers, const endpoint_type& destination,
                      message_flags flags = 0)
  {
    boost::system::error_code ec;
    std::size_t n = send_to(buffers, destination, flags, ec);
    detail::throw_if(ec, "send_to");
    return n;
  }

  /// Send a datagram to `destination`. With `boost::asio::null_buffers` it waits until the
  /// socket is writable and sends nothing.
  template <class ConstBufferSequence>
  std::size_t send_to(const ConstBufferSequence& buffers, const endpoint_type& destination,
                      message_flags flags, boost::system::error_code& ec)
  {
    if constexpr (detail::is_null_buffers<ConstBufferSequence>())
      return this->wait_ready(wait_for::write, ec);
    detail::buffer_array a(buffers);
    return this->sync_io(wait_for::write, ec, [&](native_handle_type s, boost::system::error_code& e) {
      return detail::socket_ops::sendto(s, a.bufs, a.count, flags, destination.data(),
                                        destination.size(), e);
    });
  }

  /// Receive a datagram from the connected peer.
  template <class MutableBufferSequence>
  std::size_t receive(const MutableBufferSequence& buffers, message_flags flags = 0)
  {
    boost::system::error_code ec;
    std::size_t n = receive(buffers, flags, ec);
    detail::throw_if(ec, "receive");
    return n;
  }

  /// Receive a datagram from the connected peer. With `boost::asio::null_buffers` it waits
  /// until the socket is readable and leaves the datagram queued.
  template <class MutableBufferSequence>
  std::size_t receive(const MutableBufferSequence& buffers, message_flags flags,
                      boost::system::error_code& ec)
  {
    return this->sync_receive(buffers, flags, ec, false);
  }

  /// Receive a datagram; `sender` is set to where it came from.
  template <class MutableBufferSequence>
  std::size_t receive_from(const MutableBufferSequence& buffers, endpoint_type& sender,
                           message_flags flags = 0)
  {
    boost::system::error_code ec;
    std::size_t n = receive_from(buffers, sender, flags, ec);
    detail::throw_if(ec, "receive_from");
    return n;
  }

  /// Receive a datagram; `sender` is set to where it came from. With
  /// `boost::asio::null_buffers` it waits until the socket is readable, leaves the datagram
  /// queued and resets `sender` to `endpoint_type()`, as Asio's.
  template <class MutableBufferSequence>
  std::size_t receive_from(const MutableBufferSequence& buffers, endpoint_type& sender,
                           message_flags flags, boost::system::error_code& ec)
  {
    if constexpr (detail::is_null_buffers<MutableBufferSequence>())
    {
      const std::size_t none = this->wait_ready(wait_for::read, ec);
      sender = endpoint_type(); // no datagram was received: it came from nowhere yet
      return none;
    }
    detail::buffer_array a(buffers);
    return this->sync_io(wait_for::read, ec, [&](native_handle_type s, boost::system::error_code& e) {
      std::size_t len = sender.capacity();
      const std::size_t n =
          detail::socket_ops::recvfrom(s, a.bufs, a.count, flags, sender.data(), len, e);
      if (!e)
        sender.resize(len);
      return n;
    });
  }

  /// Start an asynchronous send to the connected peer; handler `void(error_code, std::size_t)`.
  /// With `boost::asio::null_buffers` it completes when the socket is writable.
  template <class ConstBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code, std::size_t))
                WriteToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_send(const ConstBufferSequence& buffers, message_flags flags,
                  WriteToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> send_result_t<WriteToken, ConstBufferSequence>
  {
    return this->start_send(buffers, flags, std::forward<WriteToken>(token), false);
  }

  /// Start an asynchronous send to the connected peer.
  template <class ConstBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code, std::size_t))
                WriteToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_send(const ConstBufferSequence& buffers,
                  WriteToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> send_result_t<WriteToken, ConstBufferSequence>
  {
    return async_send(buffers, 0, std::forward<WriteToken>(token));
  }

  /// Start an asynchronous send to `destination`; handler `void(error_code, std::size_t)`.
  template <class ConstBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code, std::size_t))
                WriteToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_send_to(const ConstBufferSequence& buffers, const endpoint_type& destination,
                     message_flags flags,
                     WriteToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> initiate_result_t<WriteToken, detail::transfer_or_wait_t<ConstBufferSequence,
                                                  detail::send_to_performer<ConstBufferSequence, endpoint_type>>>
  {
    if constexpr (detail::is_null_buffers<ConstBufferSequence>())
      return this->async_readiness(std::forward<WriteToken>(token), detail::wait_performer<true>{wait_for::write});
    else
      return this->template initiate<signature>(
          std::forward<WriteToken>(token), detail::write_op,
          detail::send_to_performer<ConstBufferSequence, endpoint_type>{{}, buffers, destination, flags});
  }

  /// Start an asynchronous send to `destination`.
  template <class ConstBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code, std::size_t))
                WriteToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_send_to(const ConstBufferSequence& buffers, const endpoint_type& destination,
                     WriteToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> initiate_result_t<WriteToken, detail::transfer_or_wait_t<ConstBufferSequence,
                                                  detail::send_to_performer<ConstBufferSequence, endpoint_type>>>
  {
    return async_send_to(buffers, destination, 0, std::forward<WriteToken>(token));
  }

  /// Start an asynchronous receive from the connected peer; handler
  /// `void(error_code, std::size_t)`. With `null_buffers` it completes when readable (with
  /// `message_out_of_band`, on an error condition: datagrams have no out-of-band data).
  template <class MutableBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code, std::size_t))
                ReadToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_receive(const MutableBufferSequence& buffers, message_flags flags,
                     ReadToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> receive_result_t<ReadToken, MutableBufferSequence>
  {
    return this->start_receive(buffers, flags, std::forward<ReadToken>(token), false);
  }

  /// Start an asynchronous receive from the connected peer.
  template <class MutableBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code, std::size_t))
                ReadToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_receive(const MutableBufferSequence& buffers,
                     ReadToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> receive_result_t<ReadToken, MutableBufferSequence>
  {
    return async_receive(buffers, 0, std::forward<ReadToken>(token));
  }

  /// Start an asynchronous receive; `sender` (which must outlive the operation) is set
  /// to where the datagram came from. Handler `void(error_code, std::size_t)`. With
  /// `null_buffers` it waits as `async_receive` does and `sender` is reset to
  /// `endpoint_type()` when the operation starts, as Asio's.
  template <class MutableBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code, std::size_t))
                ReadToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_receive_from(const MutableBufferSequence& buffers, endpoint_type& sender,
                          message_flags flags,
                          ReadToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> initiate_result_t<ReadToken, detail::receive_from_or_wait_t<MutableBufferSequence, endpoint_type>>
  {
    if constexpr (detail::is_null_buffers<MutableBufferSequence>())
      return this->async_readiness(std::forward<ReadToken>(token),
                                   detail::readiness_from_performer<endpoint_type>{
                                       {base::receive_readiness(flags)}, &sender});
    else
      return this->template initiate<signature>(
          std::forward<ReadToken>(token), detail::read_op,
          detail::receive_from_performer<MutableBufferSequence, endpoint_type>{{}, buffers, &sender, flags});
  }

  /// Start an asynchronous receive; `sender` is set to where the datagram came from.
  template <class MutableBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code, std::size_t))
                ReadToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_receive_from(const MutableBufferSequence& buffers, endpoint_type& sender,
                          ReadToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> initiate_result_t<ReadToken, detail::receive_from_or_wait_t<MutableBufferSequence, endpoint_type>>
  {
    return async_receive_from(buffers, sender, 0, std::forward<ReadToken>(token));
  }
};

} // namespace asio_notify
} // namespace boost

#endif
