//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    `basic_socket`, the base of the stream and datagram sockets, and the documentation of
    the members that sockets and acceptors share (declared in `detail/socket_object.hpp`). */
#ifndef BOOST_ASIO_NOTIFY_BASIC_SOCKET_HPP
#define BOOST_ASIO_NOTIFY_BASIC_SOCKET_HPP

#include <boost/asio_notify/detail/socket_object.hpp>

#include <boost/asio/any_io_executor.hpp>

#include <cstddef>
#include <type_traits>

namespace boost {
namespace asio_notify {

/** The members common to stream and datagram sockets on the notify reactor: those of
    `boost::asio::basic_socket`, with the same semantics.

    A socket is served by the `reactor` of its executor's execution context, which the
    context's first socket creates. The socket owns its native socket: it opens it (or takes
    it over with `assign`), registers it with the reactor's notification port when an
    asynchronous operation first has to wait, and closes it.

    Asynchronous operations take any completion token and use the handler's associated
    executor, allocator and cancellation slot, as Asio's do. A handler is never invoked from
    inside its initiating function, unless its associated immediate executor (Boost 1.82 and
    later, `boost::asio::bind_immediate_executor`) runs it there. An operation started on a
    closed socket completes with `boost::asio::error::bad_descriptor`; `cancel()`, `close()`,
    move assignment and the destructor complete the pending ones with
    `boost::asio::error::operation_aborted`. When the execution context is destroyed first,
    pending handlers are destroyed without being invoked.

    Each function with an `error_code&` parameter reports failure there; its overload
    without one throws `boost::system::system_error` instead.

    Besides the members below, a socket has those of `boost::asio::socket_base` (message
    flags, wait and shutdown types, socket options), which it derives from.

    @tparam Protocol The protocol, such as `boost::asio_notify::ip::tcp`.
    @tparam Executor The I/O executor type.

    @par Thread safety
    Distinct objects: safe. Shared objects: unsafe, as with Asio's sockets: call one socket's
    members from one thread at a time (a strand, or a single thread running the context).
    `cancel()` and `close()` may be called while the socket's asynchronous operations are
    being performed by the reactor on other threads.

    @par Example
    @code
    boost::asio::io_context ioc;
    boost::asio_notify::ip::tcp::socket socket(ioc);
    socket.async_connect(
        boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 8080),
        [](boost::system::error_code ec) {
          // connected unless ec is set
        });
    ioc.run();
    @endcode */
template <class Protocol, class Executor = boost::asio::any_io_executor>
class basic_socket : public detail::socket_object<Protocol, Executor>
{
  using base = detail::socket_object<Protocol, Executor>;

protected:
  // socket_object's, named here for lookup in this template (its base is dependent).
  using typename base::default_token_type;

  /// The completion signature of a send or receive: the error and the bytes transferred.
  using transfer_signature = void(boost::system::error_code, std::size_t);

  /// The result type of an initiating function that completes with `Signature`: what
  /// `boost::asio::async_initiate` returns for `Token` (see `socket_object::initiate_result_t`).
  template <class Token, class Signature, class Performer>
  using initiate_result_t = typename base::template initiate_result_t<Token, Signature, Performer>;

public:
  // socket_object's types, named here for lookup in this template (its base is dependent).
  using typename base::endpoint_type, typename base::executor_type,
      typename base::native_handle_type;

  /// Flags for sends and receives (`message_peek`, `message_out_of_band`,
  /// `message_do_not_route`), Asio's `socket_base::message_flags`.
  using message_flags = boost::asio::socket_base::message_flags;

  /// A basic_socket is always the lowest layer.
  using lowest_layer_type = basic_socket;

  /// Rebinds the socket type to another executor: `rebind_executor<Executor1>::other` is
  /// `basic_socket<Protocol, Executor1>`.
  template <class Executor1>
  using rebind_executor = detail::rebound<basic_socket<Protocol, Executor1>>;

  /// Get a reference to the lowest layer: this object, which layered streams such as
  /// `boost::asio::ssl::stream` reach through their own `lowest_layer()`.
  lowest_layer_type& lowest_layer() noexcept { return *this; }

  /// Get a const reference to the lowest layer: this object.
  const lowest_layer_type& lowest_layer() const noexcept { return *this; }

  /** Connect the socket to `peer`, blocking until the connection is made or fails.

      A closed socket is opened first, with `peer.protocol()`; it stays open if the connect
      then fails. The call waits for the connection even in `non_blocking(true)` mode, as
      Asio's does.

      @param peer The remote endpoint.

      @throws boost::system::system_error Thrown on failure: the error of `open`, or of the
      connection (for example `boost::asio::error::connection_refused`).

      @par Example
      @code
      boost::asio_notify::ip::tcp::socket socket(ioc);
      socket.connect(boost::asio::ip::tcp::endpoint(
          boost::asio::ip::make_address("127.0.0.1"), 8080));
      @endcode */
  void connect(const endpoint_type& peer)
  {
    detail::or_throw("connect", [&](auto& ec) { return connect(peer, ec); });
  }

  /** Connect the socket to `peer`, blocking until the connection is made or fails.

      A closed socket is opened first, with `peer.protocol()`; it stays open if the connect
      then fails. The call waits for the connection even in `non_blocking(true)` mode, as
      Asio's does.

      @param peer The remote endpoint.
      @param ec Set to the error of `open` or of the connection (for example
      `boost::asio::error::connection_refused`), or cleared on success. */
  BOOST_ASIO_SYNC_OP_VOID connect(const endpoint_type& peer, boost::system::error_code& ec)
  {
    if (!this->is_open())
    {
      this->open(peer.protocol(), ec);
      if (ec)
        BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
    }
    detail::socket_ops::connect(this->own_.socket, peer.data(), peer.size(), ec);
    if (!detail::socket_ops::would_block(ec))
      BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
    // The descriptor is non-blocking (an earlier async operation made it so): wait here.
    if (detail::socket_ops::poll(this->own_.socket, detail::socket_ops::wait_for::write, -1, ec))
      detail::socket_ops::connect_result(this->own_.socket, ec);
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /** Start an asynchronous connect to `peer`.

      A closed socket is opened first, with `peer.protocol()`, inside this call; if that
      fails, the operation completes with the error of `open`. The socket stays open if the
      connect fails. This is an initiating function: it returns at once.

      @param peer The remote endpoint; copied, it need not outlive the call.
      @param token The completion token that makes the handler (a function object, or
      `boost::asio::use_future`, `use_awaitable`, `deferred`, ...).

      @par Completion signature
      @code void(boost::system::error_code ec) @endcode

      @par Errors
      The connection's error (for example `boost::asio::error::connection_refused`);
      `operation_aborted` when cancelled, or when the socket is closed before it completes.

      @par Per-operation cancellation
      `cancellation_type::terminal`, `partial` and `total`: a connect still pending
      completes with `operation_aborted` (the socket stays open).

      @par Example
      @code
      socket.async_connect(endpoint, [](boost::system::error_code ec) {
        if (!ec)
          std::puts("connected");
      });
      @endcode */
  template <BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code))
                ConnectToken = default_token_type>
  auto async_connect(const endpoint_type& peer, ConnectToken&& token = default_token_type())
      -> initiate_result_t<ConnectToken, void(boost::system::error_code),
                           detail::unless_failed<detail::connect_performer<endpoint_type>>>
  {
    boost::system::error_code ec;
    if (!this->is_open())
      this->open(peer.protocol(), ec);
    return this->template initiate<void(boost::system::error_code)>(
        std::forward<ConnectToken>(token), detail::write_op,
        detail::unless_failed<detail::connect_performer<endpoint_type>>{{peer}, ec});
  }

  /** Disable sends, receives or both on the socket (`shutdown`).

      @param what `shutdown_send`, `shutdown_receive` or `shutdown_both` (of
      `boost::asio::socket_base`).

      @throws boost::system::system_error Thrown on failure: `bad_descriptor` if the socket
      is closed, `not_connected` if it is not connected.

      @par Example
      @code
      socket.shutdown(boost::asio::socket_base::shutdown_send); // the peer reads eof
      @endcode */
  void shutdown(boost::asio::socket_base::shutdown_type what)
  {
    detail::or_throw("shutdown", [&](auto& ec) { return shutdown(what, ec); });
  }

  /** Disable sends, receives or both on the socket (`shutdown`).

      @param what `shutdown_send`, `shutdown_receive` or `shutdown_both`.
      @param ec Set on failure: `bad_descriptor` if the socket is closed, `not_connected` if
      it is not connected. */
  BOOST_ASIO_SYNC_OP_VOID shutdown(boost::asio::socket_base::shutdown_type what,
                                   boost::system::error_code& ec)
  {
    if (this->open_or_fail(ec))
      detail::socket_ops::shutdown(this->own_.socket, static_cast<int>(what), ec);
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /** Get the address of the connected peer.

      @returns The peer's endpoint.

      @throws boost::system::system_error Thrown on failure: `bad_descriptor` if the socket
      is closed, `not_connected` if it is not connected. */
  endpoint_type remote_endpoint() const
  {
    return detail::or_throw("remote_endpoint", [&](auto& ec) { return remote_endpoint(ec); });
  }

  /** Get the address of the connected peer.

      @param ec Set on failure: `bad_descriptor` if the socket is closed, `not_connected` if
      it is not connected.
      @returns The peer's endpoint, or a default-constructed endpoint on failure. */
  endpoint_type remote_endpoint(boost::system::error_code& ec) const
  {
    endpoint_type ep;
    if (!this->open_or_fail(ec))
      return ep;
    std::size_t len = ep.capacity();
    detail::socket_ops::peer_address(this->own_.socket, ep.data(), len, ec);
    if (ec)
      return endpoint_type();
    ep.resize(len);
    return ep;
  }

  /** The number of bytes that may be read without blocking (`FIONREAD`).

      @throws boost::system::system_error Thrown on failure (`bad_descriptor` if the socket
      is closed). */
  std::size_t available() const
  {
    return detail::or_throw("available", [&](auto& ec) { return available(ec); });
  }

  /** The number of bytes that may be read without blocking (`FIONREAD`).

      @param ec Set on failure (`bad_descriptor` if the socket is closed).
      @returns The number of bytes, 0 on failure. */
  std::size_t available(boost::system::error_code& ec) const
  {
    return this->open_or_fail(ec) ? detail::socket_ops::available(this->own_.socket, ec) : 0;
  }

  /** Whether the socket's read position is at the out-of-band data mark (`sockatmark`).

      @throws boost::system::system_error Thrown on failure (`bad_descriptor` if the socket
      is closed). */
  bool at_mark() const
  {
    return detail::or_throw("at_mark", [&](auto& ec) { return at_mark(ec); });
  }

  /** Whether the socket's read position is at the out-of-band data mark (`sockatmark`).

      @param ec Set on failure (`bad_descriptor` if the socket is closed).
      @returns True at the mark; false otherwise and on failure. */
  bool at_mark(boost::system::error_code& ec) const
  {
    return this->open_or_fail(ec) && detail::socket_ops::at_mark(this->own_.socket, ec);
  }

  /// The constructors of `socket_object`: from an executor or an execution context, closed,
  /// opened with a protocol, or owning a native socket.
  using base::base;

  /** Construct a socket, open it with `endpoint.protocol()` and bind it to `endpoint`.

      @param ex The I/O executor.
      @param endpoint The local endpoint (port 0: the system picks one).

      @throws boost::system::system_error Thrown when the socket cannot be opened or bound
      (for example `address_in_use`), or the reactor cannot be created. */
  basic_socket(const executor_type& ex, const endpoint_type& endpoint)
      : base(ex, endpoint.protocol())
  {
    this->bind(endpoint);
  }

  /** Construct a socket on `context.get_executor()` bound to `endpoint`, as from an
      executor.

      @param context The execution context.
      @param endpoint The local endpoint. */
  template <class ExecutionContext, class = detail::if_context_t<ExecutionContext>>
  basic_socket(ExecutionContext& context, const endpoint_type& endpoint)
      : basic_socket(context.get_executor(), endpoint)
  {
  }

  /// Move-construct: take over the other socket, its executor and its pending asynchronous
  /// operations, which go on; the other object is left closed.
  basic_socket(basic_socket&&) noexcept = default;

  /// Move-assign: close this socket as the destructor does (its pending operations complete
  /// with `operation_aborted`; a `linger` the program set is turned off first), then take
  /// over the other one as the move constructor does.
  basic_socket& operator=(basic_socket&&) noexcept = default;

  /** Destroy the socket, closing it: pending asynchronous operations complete with
      `operation_aborted`. As Asio's destructor does, it first turns off a `linger` option
      the program set, so that destruction neither blocks nor resets the connection (an
      explicit `close()` honours it). Errors are ignored. */
  ~basic_socket() = default;

protected:
  /// Takes over a socket of another executor type, or of another protocol convertible to
  /// this one (`std::bad_cast` from a generic protocol given another socket type leaves
  /// `other` open). Protected: the stream and datagram sockets expose it for their own kind
  /// only, as Asio's (detail::transfer_socket).
  template <class Protocol1, class Executor1,
            class = detail::if_convertible_socket_t<Protocol1, Executor1, Protocol, Executor>>
  basic_socket(basic_socket<Protocol1, Executor1>&& other) : base(std::move(other))
  {
  }

  /// What a readiness wait waits for: reading, writing, or an error condition.
  using wait_for = detail::socket_ops::wait_for;

  /** Start a `null_buffers` operation: `perf` (a `null_buffers_performer`, or one derived
      from it) waits for its condition and completes as a transfer of 0 bytes, queued where
      Asio queues it (a wait for out-of-band data in the except queue). */
  template <class Token, class Performer>
  auto async_readiness(Token&& token, Performer perf)
      -> initiate_result_t<Token, transfer_signature, Performer>
  {
    const detail::op_type queue = detail::queue_for(perf.what);
    return this->template initiate<transfer_signature>(std::forward<Token>(token), queue,
                                                       std::move(perf));
  }

  /// What a `null_buffers` receive waits for: out-of-band data with `message_out_of_band`
  /// (Asio's except queue), otherwise readability. Synchronous forms ignore the flags.
  static wait_for receive_readiness(boost::asio::socket_base::message_flags flags) noexcept
  {
    return (flags & boost::asio::socket_base::message_out_of_band) != 0 ? wait_for::error
                                                                        : wait_for::read;
  }

  template <class, class>
  friend class basic_socket;
};

} // namespace asio_notify
} // namespace boost

#endif
