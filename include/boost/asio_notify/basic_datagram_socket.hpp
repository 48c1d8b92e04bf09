//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    `basic_datagram_socket`: the datagram socket of `ip::udp`, `local::datagram_protocol`
    and `generic::datagram_protocol` on the notify reactor. */
#ifndef BOOST_ASIO_NOTIFY_BASIC_DATAGRAM_SOCKET_HPP
#define BOOST_ASIO_NOTIFY_BASIC_DATAGRAM_SOCKET_HPP

#include <boost/asio_notify/detail/transfer_socket.hpp>

#include <boost/asio/buffer.hpp>

#include <cstddef>
#include <utility>

namespace boost {
namespace asio_notify {

/** A datagram socket on the notify reactor: `boost::asio::basic_datagram_socket`'s
    members with the same semantics. A datagram of zero bytes is data, not end of file;
    each send sends one datagram and each receive takes one (cut to the buffers' size when
    it is longer).

    Asynchronous operations take any completion token, use the handler's associated
    executor, allocator and cancellation slot (cancellation types terminal, partial and
    total), and never invoke the handler from inside the initiating function unless its
    associated immediate executor runs it there; see `basic_socket` for what they share, and
    for thread safety.

    On Linux a connected UDP socket reports an ICMP port unreachable as
    `connection_refused` on a later receive, as with Asio; on Windows it does not (the
    library turns `SIO_UDP_CONNRESET` off: doc/asio_conformance.md, W2).

    @tparam Protocol The datagram protocol, such as `boost::asio_notify::ip::udp`.
    @tparam Executor The I/O executor type.

    @par Example
    @code
    boost::asio_notify::ip::udp::socket socket(
        ioc, boost::asio::ip::udp::endpoint(boost::asio::ip::udp::v4(), 9000));
    std::array<char, 1500> data;
    boost::asio::ip::udp::endpoint sender;
    socket.async_receive_from(boost::asio::buffer(data), sender,
                              [&](boost::system::error_code ec, std::size_t n) {
                                if (!ec)
                                  socket.send_to(boost::asio::buffer(data, n), sender);
                              });
    @endcode */
template <class Protocol, class Executor = boost::asio::any_io_executor>
class basic_datagram_socket : public detail::transfer_socket<Protocol, Executor, false>
{
  using base = detail::transfer_socket<Protocol, Executor, false>;
  using typename base::wait_for, typename base::default_token_type,
      typename base::transfer_signature;

  // The result type of an initiating function (see socket_object::initiate_result_t).
  template <class Token, class Performer>
  using initiate_result_t =
      typename base::template initiate_result_t<Token, transfer_signature, Performer>;

public:
  // basic_socket's types, named here for lookup in this template (its base is dependent).
  using typename base::endpoint_type, typename base::executor_type, typename base::message_flags,
      typename base::native_handle_type;

  /// Rebinds the socket type to another executor: `rebind_executor<Executor1>::other` is
  /// `basic_datagram_socket<Protocol, Executor1>`.
  template <class Executor1>
  using rebind_executor = detail::rebound<basic_datagram_socket<Protocol, Executor1>>;

  /// The constructors of `basic_socket`: from an executor or an execution context,
  /// optionally opening with a protocol, binding to an endpoint, owning a native socket, or
  /// converting a socket of the same kind. Moving and destroying it are as for `basic_socket`;
  /// its sends and receives to the connected peer are those of `detail::transfer_socket`.
  using base::base;

  /** Send a datagram to `destination`, blocking until it is sent.

      In `non_blocking(true)` mode it reports `would_block` instead of waiting. With
      `boost::asio::null_buffers` it waits until the socket is writable and sends nothing.

      @param buffers The datagram's data.
      @param destination Where to send it.
      @param flags Flags for the system's send.

      @returns The number of bytes sent.

      @throws boost::system::system_error Thrown on failure: `bad_descriptor` if the socket
      is closed, the system's error otherwise (for example `message_size`).

      @par Example
      @code
      socket.send_to(boost::asio::buffer("ping", 4),
                     boost::asio::ip::udp::endpoint(
                         boost::asio::ip::make_address("127.0.0.1"), 9000));
      @endcode */
  template <class ConstBufferSequence>
  std::size_t send_to(const ConstBufferSequence& buffers, const endpoint_type& destination,
                      message_flags flags = 0)
  {
    return detail::or_throw("send_to",
                            [&](auto& ec) { return send_to(buffers, destination, flags, ec); });
  }

  /** Send a datagram to `destination`, blocking until it is sent; see the throwing
      overload.

      @param buffers The datagram's data; with `boost::asio::null_buffers`, wait until the
      socket is writable and send nothing.
      @param destination Where to send it.
      @param flags Flags for the system's send.
      @param ec Set on failure: `bad_descriptor` if the socket is closed, `would_block` in
      non-blocking mode, the system's error otherwise.

      @returns The number of bytes sent, 0 on failure. */
  template <class ConstBufferSequence>
  std::size_t send_to(const ConstBufferSequence& buffers, const endpoint_type& destination,
                      message_flags flags, boost::system::error_code& ec)
  {
    if constexpr (detail::is_null_buffers<ConstBufferSequence>())
      return this->wait_ready(wait_for::write, ec);
    detail::buffer_array a(buffers);
    return this->sync_io(
        wait_for::write, ec, [&](native_handle_type s, boost::system::error_code& e) {
          return detail::socket_ops::sendto(s, a.bufs, a.count, flags, destination.data(),
                                            destination.size(), e);
        });
  }

  /** Receive a datagram and the address it came from, blocking until one arrives.

      A datagram longer than the buffers is cut to their size. In `non_blocking(true)` mode
      it reports `would_block` instead of waiting. With `boost::asio::null_buffers` it waits
      until the socket is readable, leaves the datagram queued and resets `sender` to
      `endpoint_type()`, as Asio's does.

      @param buffers Where the datagram goes.
      @param sender Set to the sender's address.
      @param flags Flags for the system's receive, such as `message_peek`.

      @returns The number of bytes received.

      @throws boost::system::system_error Thrown on failure: `bad_descriptor` if the socket
      is closed, the system's error otherwise.

      @par Example
      @code
      char data[1500];
      boost::asio::ip::udp::endpoint sender;
      std::size_t n = socket.receive_from(boost::asio::buffer(data), sender);
      socket.send_to(boost::asio::buffer(data, n), sender); // echo
      @endcode */
  template <class MutableBufferSequence>
  std::size_t receive_from(const MutableBufferSequence& buffers, endpoint_type& sender,
                           message_flags flags = 0)
  {
    return detail::or_throw("receive_from",
                            [&](auto& ec) { return receive_from(buffers, sender, flags, ec); });
  }

  /** Receive a datagram and the address it came from, blocking until one arrives; see the
      throwing overload.

      @param buffers Where the datagram goes; with `boost::asio::null_buffers`, wait until
      the socket is readable, leave the datagram queued and reset `sender`.
      @param sender Set to the sender's address.
      @param flags Flags for the system's receive, such as `message_peek`.
      @param ec Set on failure: `bad_descriptor` if the socket is closed, `would_block` in
      non-blocking mode, the system's error otherwise.

      @returns The number of bytes received, 0 on failure. */
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
    return this->sync_io(
        wait_for::read, ec, [&](native_handle_type s, boost::system::error_code& e) {
          std::size_t len = sender.capacity();
          const std::size_t n =
              detail::socket_ops::recvfrom(s, a.bufs, a.count, flags, sender.data(), len, e);
          if (!e)
            sender.resize(len);
          return n;
        });
  }

  /** Start an asynchronous send of a datagram to `destination`; `async_send` sends to the
      connected peer.

      With `boost::asio::null_buffers` it completes, with 0 bytes, when the socket is
      writable. This is an initiating function: it returns at once.

      @param buffers The datagram's data. The sequence is copied; the memory it refers to
      must stay valid until the handler is invoked.
      @param destination Where to send it; copied.
      @param flags Flags for the system's send.
      @param token The completion token that makes the handler.

      @par Completion signature
      @code void(boost::system::error_code ec, std::size_t bytes_transferred) @endcode

      @par Errors and per-operation cancellation
      As for `async_send(buffers, flags, token)`, a send to the connected peer. */
  template <class ConstBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(transfer_signature) WriteToken = default_token_type>
  auto async_send_to(const ConstBufferSequence& buffers, const endpoint_type& destination,
                     message_flags flags, WriteToken&& token = default_token_type())
      -> initiate_result_t<
          WriteToken,
          detail::transfer_or_wait_t<ConstBufferSequence,
                                     detail::send_to_performer<ConstBufferSequence, endpoint_type>>>
  {
    if constexpr (detail::is_null_buffers<ConstBufferSequence>())
      return this->async_readiness(std::forward<WriteToken>(token),
                                   detail::null_buffers_performer{wait_for::write});
    else
      return this->template initiate<transfer_signature>(
          std::forward<WriteToken>(token), detail::write_op,
          detail::send_to_performer<ConstBufferSequence, endpoint_type>{
              {}, buffers, destination, flags});
  }

  /** Start an asynchronous send of a datagram to `destination` without flags:
      `async_send_to(buffers, destination, 0, token)`, with that form's completion
      signature, errors and cancellation.

      @param buffers The datagram's data; its memory must stay valid until the handler is
      invoked.
      @param destination Where to send it; copied.
      @param token The completion token that makes the handler.

      @par Example
      @code
      socket.async_send_to(boost::asio::buffer(reply), peer,
                           [](boost::system::error_code ec, std::size_t) {
                             // the datagram was sent unless ec is set
                           });
      @endcode */
  template <class ConstBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(transfer_signature) WriteToken = default_token_type>
  auto async_send_to(const ConstBufferSequence& buffers, const endpoint_type& destination,
                     WriteToken&& token = default_token_type())
      -> initiate_result_t<
          WriteToken,
          detail::transfer_or_wait_t<ConstBufferSequence,
                                     detail::send_to_performer<ConstBufferSequence, endpoint_type>>>
  {
    return async_send_to(buffers, destination, 0, std::forward<WriteToken>(token));
  }

  /** Start an asynchronous receive of a datagram and the address it came from; otherwise
      as `async_receive`.

      With `boost::asio::null_buffers` it waits as `async_receive` does, and `sender` is
      reset to `endpoint_type()` when the operation is launched (with `deferred`, when the
      deferred operation is invoked), as Asio's does. This is an initiating function: it
      returns at once.

      @param buffers Where the datagram goes. The sequence is copied; the memory it refers
      to must stay valid until the handler is invoked.
      @param sender Set to the sender's address; it must stay valid until the handler is
      invoked.
      @param flags Flags for the system's receive, such as `message_peek`.
      @param token The completion token that makes the handler.

      @par Completion signature
      @code void(boost::system::error_code ec, std::size_t bytes_transferred) @endcode

      @par Errors and per-operation cancellation
      As for `async_receive(buffers, flags, token)`; on failure `sender` is unspecified. */
  template <class MutableBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(transfer_signature) ReadToken = default_token_type>
  auto async_receive_from(const MutableBufferSequence& buffers, endpoint_type& sender,
                          message_flags flags, ReadToken&& token = default_token_type())
      -> initiate_result_t<ReadToken,
                           detail::receive_from_or_wait_t<MutableBufferSequence, endpoint_type>>
  {
    if constexpr (detail::is_null_buffers<MutableBufferSequence>())
      return this->async_readiness(std::forward<ReadToken>(token),
                                   detail::readiness_from_performer<endpoint_type>{
                                       {base::receive_readiness(flags)}, &sender});
    else
      return this->template initiate<transfer_signature>(
          std::forward<ReadToken>(token), detail::read_op,
          detail::receive_from_performer<MutableBufferSequence, endpoint_type>{
              {}, buffers, &sender, flags});
  }

  /** Start an asynchronous receive of a datagram and its sender's address without flags:
      `async_receive_from(buffers, sender, 0, token)`, with that form's completion
      signature, errors and cancellation.

      @param buffers Where the datagram goes; its memory must stay valid until the handler
      is invoked.
      @param sender Set to the sender's address; it must stay valid until the handler is
      invoked.
      @param token The completion token that makes the handler.

      @par Example
      @code
      socket.async_receive_from(boost::asio::buffer(data), sender,
                                [&](boost::system::error_code ec, std::size_t n) {
                                  // n bytes from sender unless ec is set
                                });
      @endcode */
  template <class MutableBufferSequence,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(transfer_signature) ReadToken = default_token_type>
  auto async_receive_from(const MutableBufferSequence& buffers, endpoint_type& sender,
                          ReadToken&& token = default_token_type())
      -> initiate_result_t<ReadToken,
                           detail::receive_from_or_wait_t<MutableBufferSequence, endpoint_type>>
  {
    return async_receive_from(buffers, sender, 0, std::forward<ReadToken>(token));
  }
};

} // namespace asio_notify
} // namespace boost

#endif
