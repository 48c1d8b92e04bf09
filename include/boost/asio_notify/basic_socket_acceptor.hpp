//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    `basic_socket_acceptor`: accepting connections on the notify reactor (`ip::tcp::acceptor`,
    `local::stream_protocol::acceptor`). */
#ifndef BOOST_ASIO_NOTIFY_BASIC_SOCKET_ACCEPTOR_HPP
#define BOOST_ASIO_NOTIFY_BASIC_SOCKET_ACCEPTOR_HPP

#include <boost/asio_notify/basic_socket.hpp>

#include <optional>
#include <tuple>
#include <type_traits>

namespace boost {
namespace asio_notify {

/// @cond
namespace detail {

// Accept completions: hand the new handle to a caller's socket...
template <class Socket, class Protocol>
struct assign_accepted
{
  Socket* peer;
  // The acceptor's; none when it is closed, and then nothing is accepted.
  std::optional<Protocol> protocol;

  std::tuple<boost::system::error_code> operator()(boost::system::error_code ec,
                                                   native_socket_type s) const
  {
    if (!ec)
      peer->assign(*protocol, s, ec);
    if (ec && s != socket_ops::invalid_socket && !peer->is_open())
    {
      boost::system::error_code ignored;
      socket_ops::close(s, ignored);
    }
    return std::make_tuple(ec);
  }
};

// ...or to a socket created for the handler (the move-accept forms).
template <class Socket, class Protocol>
struct make_accepted
{
  typename Socket::executor_type executor;
  std::optional<Protocol> protocol; // as assign_accepted's

  std::tuple<boost::system::error_code, Socket> operator()(boost::system::error_code ec,
                                                           native_socket_type s) const
  {
    Socket peer(executor);
    const auto result = assign_accepted<Socket, Protocol>{&peer, protocol}(ec, s);
    return std::tuple<boost::system::error_code, Socket>(std::get<0>(result), std::move(peer));
  }
};

} // namespace detail
/// @endcond

/** An acceptor of connections on the notify reactor: `boost::asio::basic_socket_acceptor`'s
    members with the same semantics. It accepts into this library's sockets only (not into
    Asio's), of any executor.

    An accept error (for example `EMFILE`, `boost::asio::error::no_descriptors`, when the
    process is out of descriptors) reaches the caller or the handler and leaves the
    acceptor usable. A connection aborted by its peer before it was accepted is skipped and
    the next one taken, unless `socket_base::enable_connection_aborted` is set (then
    `connection_aborted` is reported), as with Asio.

    Asynchronous operations take any completion token, use the handler's associated
    executor, allocator and cancellation slot (cancellation types terminal, partial and
    total), and never invoke the handler from inside the initiating function unless its
    associated immediate executor runs it there. The members it shares with sockets (`open`,
    `bind`, `close`, `cancel`, options, `wait`, `async_wait`, ...) are documented below as
    its own.

    @tparam Protocol The protocol, such as `boost::asio_notify::ip::tcp`; its `socket` type
    is what the move-accept forms create.
    @tparam Executor The I/O executor type.

    @par Thread safety
    Distinct objects: safe. Shared objects: unsafe (one thread at a time, as with Asio);
    `cancel()` and `close()` may be called while operations are being performed.

    @par Example
    @code
    using tcp = boost::asio_notify::ip::tcp;
    boost::asio::io_context ioc;
    tcp::acceptor acceptor(ioc, tcp::endpoint(tcp::v4(), 8080));
    acceptor.async_accept([](boost::system::error_code ec, tcp::socket socket) {
      if (!ec)
        serve(std::move(socket));
    });
    ioc.run();
    @endcode */
template <class Protocol, class Executor = boost::asio::any_io_executor>
class basic_socket_acceptor : public detail::socket_object<Protocol, Executor>
{
  using base = detail::socket_object<Protocol, Executor>;
  using wait_for = detail::socket_ops::wait_for;

  // The result type of an initiating function (see socket_object::initiate_result_t).
  template <class Token, class Signature, class Performer>
  using initiate_result_t = typename base::template initiate_result_t<Token, Signature, Performer>;

public:
  /// The endpoint type: `Protocol::endpoint`.
  using typename base::endpoint_type;
  /// The type of the executor the acceptor's asynchronous operations use.
  using typename base::executor_type;
  /// The native socket: a file descriptor (`int`) on POSIX, a `SOCKET` on Windows.
  using typename base::native_handle_type;
  /// The protocol type: `Protocol`.
  using typename base::protocol_type;

  /// The socket type the move-accept forms create for an executor of type `Executor1`:
  /// `Protocol::socket` rebound to `Executor1`.
  template <class Executor1>
  using peer_socket_t = typename Protocol::socket::template rebind_executor<Executor1>::other;

  /// The socket type the move-accept forms create for the acceptor's executor.
  using socket_type = peer_socket_t<Executor>;

private:
  // The result types of the two accept shapes: into a caller's socket, void(error_code);
  // into a new socket for an executor of type Executor1, void(error_code, socket).
  template <class Token, class Socket>
  using accept_into_result_t =
      initiate_result_t<Token, void(boost::system::error_code),
                        detail::unless_failed<detail::accept_performer<
                            endpoint_type, detail::assign_accepted<Socket, Protocol>>>>;
  template <class Token, class Executor1>
  using accept_new_result_t = initiate_result_t<
      Token, void(boost::system::error_code, peer_socket_t<Executor1>),
      detail::accept_performer<endpoint_type,
                               detail::make_accepted<peer_socket_t<Executor1>, Protocol>>>;

public:
  /// Rebinds the acceptor type to another executor.
  template <class Executor1>
  struct rebind_executor
  {
    /// The acceptor type when rebound to the specified executor.
    using other = basic_socket_acceptor<Protocol, Executor1>;
  };

  /** Construct a closed acceptor whose operations use `ex`.

      @param ex The I/O executor.

      @throws boost::system::system_error Thrown when the context's reactor cannot be
      created (see `basic_socket`'s constructors). */
  explicit basic_socket_acceptor(const executor_type& ex) : base(ex) {}

  /** Construct a closed acceptor whose operations use `context.get_executor()`.

      @param context The execution context, such as a `boost::asio::io_context`.

      @throws boost::system::system_error Thrown when the context's reactor cannot be
      created. */
  template <class ExecutionContext,
            class = std::enable_if_t<detail::is_context_v<ExecutionContext>>>
  explicit basic_socket_acceptor(ExecutionContext& context) : base(context.get_executor())
  {
  }

  /** Construct an acceptor and open it with `protocol`; it is not bound or listening yet.

      @param ex The I/O executor.
      @param protocol The protocol, such as `boost::asio_notify::ip::tcp::v6()`.

      @throws boost::system::system_error Thrown when the acceptor cannot be opened or the
      reactor cannot be created. */
  basic_socket_acceptor(const executor_type& ex, const protocol_type& protocol) : base(ex)
  {
    this->open(protocol);
  }

  /** Construct an acceptor on `context.get_executor()` and open it with `protocol`.

      @param context The execution context.
      @param protocol The protocol, such as `boost::asio_notify::ip::tcp::v6()`.

      @throws boost::system::system_error Thrown when the acceptor cannot be opened or the
      reactor cannot be created. */
  template <class ExecutionContext,
            class = std::enable_if_t<detail::is_context_v<ExecutionContext>>>
  basic_socket_acceptor(ExecutionContext& context, const protocol_type& protocol)
      : basic_socket_acceptor(context.get_executor(), protocol)
  {
  }

  /** Construct an acceptor listening on `endpoint`: open it with `endpoint.protocol()`, set
      `socket_base::reuse_address` if `reuse_addr`, bind it, and listen with
      `socket_base::max_listen_connections`.

      @param ex The I/O executor.
      @param endpoint The local endpoint to listen on (port 0: the system picks one, which
      `local_endpoint()` tells).
      @param reuse_addr Whether to set `reuse_address` before binding.

      @throws boost::system::system_error Thrown when a step fails (for example
      `address_in_use`), or the reactor cannot be created.

      @par Example
      @code
      boost::asio_notify::ip::tcp::acceptor acceptor(
          ioc, boost::asio::ip::tcp::endpoint(boost::asio::ip::tcp::v4(), 8080));
      @endcode */
  basic_socket_acceptor(const executor_type& ex, const endpoint_type& endpoint,
                        bool reuse_addr = true)
      : base(ex)
  {
    this->open(endpoint.protocol());
    if (reuse_addr)
      this->set_option(boost::asio::socket_base::reuse_address(true));
    this->bind(endpoint);
    listen();
  }

  /** Construct an acceptor on `context.get_executor()` listening on `endpoint`: open, set
      `reuse_address` if `reuse_addr`, bind, listen.

      @param context The execution context.
      @param endpoint The local endpoint to listen on.
      @param reuse_addr Whether to set `reuse_address` before binding.

      @throws boost::system::system_error Thrown when a step fails (for example
      `address_in_use`), or the reactor cannot be created. */
  template <class ExecutionContext,
            class = std::enable_if_t<detail::is_context_v<ExecutionContext>>>
  basic_socket_acceptor(ExecutionContext& context, const endpoint_type& endpoint,
                        bool reuse_addr = true)
      : basic_socket_acceptor(context.get_executor(), endpoint, reuse_addr)
  {
  }

  /** Construct an acceptor that takes ownership of the open native socket `native` (see
      `assign`).

      @param ex The I/O executor.
      @param protocol The native socket's protocol.
      @param native The native socket; the object closes it.

      @throws boost::system::system_error Thrown when `native` is not an open socket, or the
      reactor cannot be created. */
  basic_socket_acceptor(const executor_type& ex, const protocol_type& protocol,
                        const native_handle_type& native)
      : base(ex)
  {
    this->assign(protocol, native);
  }

  /** Construct an acceptor on `context.get_executor()` that takes ownership of the open
      native socket `native` (see `assign`).

      @param context The execution context.
      @param protocol The native socket's protocol.
      @param native The native socket; the object closes it.

      @throws boost::system::system_error Thrown when `native` is not an open socket, or the
      reactor cannot be created. */
  template <class ExecutionContext,
            class = std::enable_if_t<detail::is_context_v<ExecutionContext>>>
  basic_socket_acceptor(ExecutionContext& context, const protocol_type& protocol,
                        const native_handle_type& native)
      : basic_socket_acceptor(context.get_executor(), protocol, native)
  {
  }

  /// Move-construct: take over `other`'s socket, executor and pending asynchronous
  /// operations, which go on; `other` is left closed.
  basic_socket_acceptor(basic_socket_acceptor&& other) noexcept = default;

  /// Move-assign: close this acceptor (its pending operations complete with
  /// `operation_aborted`), then take over `other` as the move constructor does.
  basic_socket_acceptor& operator=(basic_socket_acceptor&& other) noexcept = default;

  /// Move-construct from an acceptor of another executor type, or of another protocol
  /// convertible to this one (a TCP acceptor into a generic stream one); `other` is left
  /// closed. Assigning such an acceptor moves it the same way, closing this one first.
  template <class Protocol1, class Executor1,
            class = std::enable_if_t<
                detail::is_convertible_socket_v<Protocol1, Executor1, Protocol, Executor>>>
  basic_socket_acceptor(basic_socket_acceptor<Protocol1, Executor1>&& other)
      : base(std::move(other))
  {
  }

  /// Destroy the acceptor, closing it: pending operations complete with
  /// `operation_aborted`.
  ~basic_socket_acceptor() = default;

  /** Place the acceptor into the listening state.

      @param backlog The length of the queue of pending connections; the default is
      `socket_base::max_listen_connections` (the system's maximum).

      @throws boost::system::system_error Thrown on failure: `bad_descriptor` if the
      acceptor is closed, the system's error otherwise. */
  void listen(int backlog = boost::asio::socket_base::max_listen_connections)
  {
    boost::system::error_code ec;
    listen(backlog, ec);
    detail::throw_if(ec, "listen");
  }

  /** Place the acceptor into the listening state.

      @param backlog The length of the queue of pending connections.
      @param ec Set on failure: `bad_descriptor` if the acceptor is closed, the system's
      error otherwise. */
  BOOST_ASIO_SYNC_OP_VOID listen(int backlog, boost::system::error_code& ec)
  {
    if (this->open_or_fail(ec))
      detail::socket_ops::listen(this->own_.socket, backlog, ec);
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /** Accept a connection into `peer`, blocking until one arrives.

      The accepted socket is close-on-exec (on Windows, not inheritable).

      @param peer A closed socket of this library, of any executor, that receives the
      connection (of `Protocol1`, to which `protocol_type` converts).

      @throws boost::system::system_error Thrown on failure: `already_open` if `peer` is open, `bad_descriptor` if the acceptor is closed,
      `would_block` in `non_blocking(true)` mode when no connection is waiting, the system's
      error otherwise (for example `no_descriptors`).

      @par Example
      @code
      boost::asio_notify::ip::tcp::socket socket(ioc);
      acceptor.accept(socket);
      @endcode */
  template <class Protocol1, class Executor1>
  void accept(basic_socket<Protocol1, Executor1>& peer)
  {
    boost::system::error_code ec;
    accept_into(peer, nullptr, ec);
    detail::throw_if(ec, "accept");
  }

  /** Accept a connection into `peer`, blocking until one arrives.

      @param peer A closed socket of this library that receives the connection.
      @param ec Set on failure: `already_open` if `peer` is open, `bad_descriptor` if the acceptor is closed,
      `would_block` in `non_blocking(true)` mode when no connection is waiting, the system's
      error otherwise (for example `no_descriptors`). */
  template <class Protocol1, class Executor1>
  BOOST_ASIO_SYNC_OP_VOID accept(basic_socket<Protocol1, Executor1>& peer,
                                 boost::system::error_code& ec)
  {
    accept_into(peer, nullptr, ec);
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /** Accept a connection into `peer`, blocking until one arrives, and tell its address.

      @param peer A closed socket of this library that receives the connection.
      @param peer_endpoint Set to the remote address of the connection.

      @throws boost::system::system_error Thrown on failure: `already_open` if `peer` is open, `bad_descriptor` if the acceptor is closed,
      `would_block` in `non_blocking(true)` mode when no connection is waiting, the system's
      error otherwise (for example `no_descriptors`). */
  template <class Protocol1, class Executor1>
  void accept(basic_socket<Protocol1, Executor1>& peer, endpoint_type& peer_endpoint)
  {
    boost::system::error_code ec;
    accept_into(peer, &peer_endpoint, ec);
    detail::throw_if(ec, "accept");
  }

  /** Accept a connection into `peer`, blocking until one arrives, and tell its address.

      @param peer A closed socket of this library that receives the connection.
      @param peer_endpoint Set to the remote address of the connection.
      @param ec Set on failure: `already_open` if `peer` is open, `bad_descriptor` if the acceptor is closed,
      `would_block` in `non_blocking(true)` mode when no connection is waiting, the system's
      error otherwise (for example `no_descriptors`). */
  template <class Protocol1, class Executor1>
  BOOST_ASIO_SYNC_OP_VOID accept(basic_socket<Protocol1, Executor1>& peer,
                                 endpoint_type& peer_endpoint, boost::system::error_code& ec)
  {
    accept_into(peer, &peer_endpoint, ec);
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /** Accept a connection, blocking until one arrives, and return it as a new socket that
      uses this acceptor's executor.

      @returns The connected socket.

      @throws boost::system::system_error Thrown on failure: `bad_descriptor` if the acceptor is closed, `would_block` in
      `non_blocking(true)` mode when no connection is waiting, the system's error otherwise
      (for example `no_descriptors`).

      @par Example
      @code
      boost::asio_notify::ip::tcp::socket socket = acceptor.accept();
      @endcode */
  socket_type accept() { return accept(this->executor_); }

  /** Accept a connection, blocking until one arrives, and return it as a new socket that
      uses this acceptor's executor.

      @param ec Set on failure: `bad_descriptor` if the acceptor is closed, `would_block` in
      `non_blocking(true)` mode when no connection is waiting, the system's error otherwise
      (for example `no_descriptors`).
      @returns The connected socket, or a closed one on failure. */
  socket_type accept(boost::system::error_code& ec) { return accept(this->executor_, ec); }

  /** Accept a connection as a new socket that uses this acceptor's executor, and tell its
      address.

      @param peer_endpoint Set to the remote address of the connection.
      @returns The connected socket.
      @throws boost::system::system_error Thrown on failure: `bad_descriptor` if the acceptor is closed, `would_block` in
      `non_blocking(true)` mode when no connection is waiting, the system's error otherwise
      (for example `no_descriptors`). */
  socket_type accept(endpoint_type& peer_endpoint)
  {
    return accept(this->executor_, peer_endpoint);
  }

  /** Accept a connection as a new socket that uses this acceptor's executor, and tell its
      address.

      @param peer_endpoint Set to the remote address of the connection.
      @param ec Set on failure: `bad_descriptor` if the acceptor is closed, `would_block` in
      `non_blocking(true)` mode when no connection is waiting, the system's error otherwise
      (for example `no_descriptors`).
      @returns The connected socket, or a closed one on failure. */
  socket_type accept(endpoint_type& peer_endpoint, boost::system::error_code& ec)
  {
    return accept(this->executor_, peer_endpoint, ec);
  }

  /** Accept a connection, blocking until one arrives, and return it as a new socket that
      uses `ex` (for example another `io_context`'s executor).

      @param ex The new socket's executor.
      @returns The connected socket.
      @throws boost::system::system_error Thrown on failure: `bad_descriptor` if the acceptor is closed, `would_block` in
      `non_blocking(true)` mode when no connection is waiting, the system's error otherwise
      (for example `no_descriptors`). */
  template <class Executor1, class = std::enable_if_t<detail::is_executor_v<Executor1>>>
  peer_socket_t<Executor1> accept(const Executor1& ex)
  {
    boost::system::error_code ec;
    auto s = accept_new(ex, nullptr, ec);
    detail::throw_if(ec, "accept");
    return s;
  }

  /** Accept a connection, blocking until one arrives, and return it as a new socket that
      uses `ex`.

      @param ex The new socket's executor.
      @param ec Set on failure: `bad_descriptor` if the acceptor is closed, `would_block` in
      `non_blocking(true)` mode when no connection is waiting, the system's error otherwise
      (for example `no_descriptors`).
      @returns The connected socket, or a closed one on failure. */
  template <class Executor1, class = std::enable_if_t<detail::is_executor_v<Executor1>>>
  peer_socket_t<Executor1> accept(const Executor1& ex, boost::system::error_code& ec)
  {
    return accept_new(ex, nullptr, ec);
  }

  /** Accept a connection as a new socket that uses `ex`, and tell its address.

      @param ex The new socket's executor.
      @param peer_endpoint Set to the remote address of the connection.
      @returns The connected socket.
      @throws boost::system::system_error Thrown on failure: `bad_descriptor` if the acceptor is closed, `would_block` in
      `non_blocking(true)` mode when no connection is waiting, the system's error otherwise
      (for example `no_descriptors`). */
  template <class Executor1, class = std::enable_if_t<detail::is_executor_v<Executor1>>>
  peer_socket_t<Executor1> accept(const Executor1& ex, endpoint_type& peer_endpoint)
  {
    boost::system::error_code ec;
    auto s = accept_new(ex, &peer_endpoint, ec);
    detail::throw_if(ec, "accept");
    return s;
  }

  /** Accept a connection as a new socket that uses `ex`, and tell its address. (Asio
      declares this overload too, but in a form that can never be chosen.)

      @param ex The new socket's executor.
      @param peer_endpoint Set to the remote address of the connection.
      @param ec Set on failure: `bad_descriptor` if the acceptor is closed, `would_block` in
      `non_blocking(true)` mode when no connection is waiting, the system's error otherwise
      (for example `no_descriptors`).
      @returns The connected socket, or a closed one on failure. */
  template <class Executor1, class = std::enable_if_t<detail::is_executor_v<Executor1>>>
  peer_socket_t<Executor1> accept(const Executor1& ex, endpoint_type& peer_endpoint,
                                  boost::system::error_code& ec)
  {
    return accept_new(ex, &peer_endpoint, ec);
  }

  /** Accept a connection, blocking until one arrives, and return it as a new socket that
      uses `context.get_executor()`.

      @param context The new socket's execution context.
      @returns The connected socket, of type `peer_socket_t<ExecutionContext::executor_type>`.
      @throws boost::system::system_error Thrown on failure: `bad_descriptor` if the acceptor is closed, `would_block` in
      `non_blocking(true)` mode when no connection is waiting, the system's error otherwise
      (for example `no_descriptors`). */
  template <class ExecutionContext,
            class = std::enable_if_t<detail::is_context_v<ExecutionContext>>>
  auto accept(ExecutionContext& context)
  {
    return accept(context.get_executor());
  }

  /** Accept a connection, blocking until one arrives, and return it as a new socket that
      uses `context.get_executor()`.

      @param context The new socket's execution context.
      @param ec Set on failure: `bad_descriptor` if the acceptor is closed, `would_block` in
      `non_blocking(true)` mode when no connection is waiting, the system's error otherwise
      (for example `no_descriptors`).
      @returns The connected socket, or a closed one on failure. */
  template <class ExecutionContext,
            class = std::enable_if_t<detail::is_context_v<ExecutionContext>>>
  auto accept(ExecutionContext& context, boost::system::error_code& ec)
  {
    return accept(context.get_executor(), ec);
  }

  /** Accept a connection as a new socket that uses `context.get_executor()`, and tell its
      address.

      @param context The new socket's execution context.
      @param peer_endpoint Set to the remote address of the connection.
      @returns The connected socket.
      @throws boost::system::system_error Thrown on failure: `bad_descriptor` if the acceptor is closed, `would_block` in
      `non_blocking(true)` mode when no connection is waiting, the system's error otherwise
      (for example `no_descriptors`). */
  template <class ExecutionContext,
            class = std::enable_if_t<detail::is_context_v<ExecutionContext>>>
  auto accept(ExecutionContext& context, endpoint_type& peer_endpoint)
  {
    return accept(context.get_executor(), peer_endpoint);
  }

  /** Accept a connection as a new socket that uses `context.get_executor()`, and tell its
      address.

      @param context The new socket's execution context.
      @param peer_endpoint Set to the remote address of the connection.
      @param ec Set on failure: `bad_descriptor` if the acceptor is closed, `would_block` in
      `non_blocking(true)` mode when no connection is waiting, the system's error otherwise
      (for example `no_descriptors`).
      @returns The connected socket, or a closed one on failure. */
  template <class ExecutionContext,
            class = std::enable_if_t<detail::is_context_v<ExecutionContext>>>
  auto accept(ExecutionContext& context, endpoint_type& peer_endpoint,
              boost::system::error_code& ec)
  {
    return accept(context.get_executor(), peer_endpoint, ec);
  }

  /** Start an asynchronous accept into `peer`. This is an initiating function: it returns
      at once.

      @param peer A closed socket of this library, of any executor, that receives the
      connection; it must stay alive, and closed, until the handler is invoked.
      @param token The completion token that makes the handler.

      @par Completion signature
      @code void(boost::system::error_code ec) @endcode

      @par Errors
      `already_open` if `peer` is open when the operation starts; `bad_descriptor` if the
      acceptor is closed then; `operation_aborted` when cancelled, or when the acceptor is
      closed before a connection arrives; the system's error otherwise (for example
      `no_descriptors`), after which the acceptor is still usable.

      @par Per-operation cancellation
      `cancellation_type::terminal`, `partial` and `total`: an accept still waiting for a
      connection completes with `operation_aborted`.

      @par Example
      @code
      auto socket = std::make_shared<boost::asio_notify::ip::tcp::socket>(ioc);
      acceptor.async_accept(*socket, [socket](boost::system::error_code ec) {
        if (!ec)
          serve(std::move(*socket));
      });
      @endcode */
  template <class Protocol1, class Executor1,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code))
                AcceptToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_accept(basic_socket<Protocol1, Executor1>& peer,
                    AcceptToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> accept_into_result_t<AcceptToken, basic_socket<Protocol1, Executor1>>
  {
    return async_accept_into(peer, nullptr, std::forward<AcceptToken>(token));
  }

  /** Start an asynchronous accept into `peer` that also tells the connection's address.

      @param peer A closed socket of this library that receives the connection; it must
      stay alive, and closed, until the handler is invoked.
      @param peer_endpoint Set to the remote address of the connection; it must stay valid
      until the handler is invoked.
      @param token The completion token that makes the handler.

      @par Completion signature
      @code void(boost::system::error_code ec) @endcode

      @par Errors
      `already_open` if `peer` is open when the operation starts; `bad_descriptor` if the
      acceptor is closed then; `operation_aborted` when cancelled, or when the acceptor is
      closed before a connection arrives; the system's error otherwise (for example
      `no_descriptors`), after which the acceptor is still usable.

      @par Per-operation cancellation
      `cancellation_type::terminal`, `partial` and `total`: an accept still waiting for a
      connection completes with `operation_aborted`. */
  template <class Protocol1, class Executor1,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code))
                AcceptToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_accept(basic_socket<Protocol1, Executor1>& peer, endpoint_type& peer_endpoint,
                    AcceptToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> accept_into_result_t<AcceptToken, basic_socket<Protocol1, Executor1>>
  {
    return async_accept_into(peer, &peer_endpoint, std::forward<AcceptToken>(token));
  }

  /** Start an asynchronous accept of a new socket that uses this acceptor's executor. This
      is an initiating function: it returns at once.

      @param token The completion token that makes the handler.

      @par Completion signature
      @code void(boost::system::error_code ec, socket_type peer) @endcode

      @par Errors
      `bad_descriptor` if the acceptor is closed when the operation starts;
      `operation_aborted` when cancelled, or when the acceptor is closed before a connection
      arrives; the system's error otherwise (for example `no_descriptors`), after which the
      acceptor is still usable. On failure the socket given to the handler is closed.

      @par Per-operation cancellation
      `cancellation_type::terminal`, `partial` and `total`: an accept still waiting for a
      connection completes with `operation_aborted`.

      @par Example
      @code
      void start_accept(boost::asio_notify::ip::tcp::acceptor& acceptor)
      {
        acceptor.async_accept(
            [&acceptor](boost::system::error_code ec, boost::asio_notify::ip::tcp::socket s) {
              if (!ec)
                serve(std::move(s));
              if (ec != boost::asio::error::operation_aborted)
                start_accept(acceptor);
            });
      }
      @endcode */
  template <BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code, socket_type))
                MoveAcceptToken = boost::asio::default_completion_token_t<executor_type>,
            class = std::enable_if_t<detail::is_token_v<MoveAcceptToken, endpoint_type>>>
  auto
  async_accept(MoveAcceptToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> accept_new_result_t<MoveAcceptToken, Executor>
  {
    return async_accept_new(this->executor_, nullptr, std::forward<MoveAcceptToken>(token));
  }

  /** Start an asynchronous accept of a new socket that uses this acceptor's executor, and
      tell the connection's address.

      @param peer_endpoint Set to the remote address of the connection; it must stay valid
      until the handler is invoked.
      @param token The completion token that makes the handler.

      @par Completion signature
      @code void(boost::system::error_code ec, socket_type peer) @endcode

      @par Errors
      `bad_descriptor` if the acceptor is closed when the operation starts;
      `operation_aborted` when cancelled, or when the acceptor is closed before a connection
      arrives; the system's error otherwise (for example `no_descriptors`), after which the
      acceptor is still usable. On failure the socket given to the handler is closed.

      @par Per-operation cancellation
      `cancellation_type::terminal`, `partial` and `total`: an accept still waiting for a
      connection completes with `operation_aborted`. */
  template <BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code, socket_type))
                MoveAcceptToken = boost::asio::default_completion_token_t<executor_type>>
  auto
  async_accept(endpoint_type& peer_endpoint,
               MoveAcceptToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> accept_new_result_t<MoveAcceptToken, Executor>
  {
    return async_accept_new(this->executor_, &peer_endpoint, std::forward<MoveAcceptToken>(token));
  }

  /** Start an asynchronous accept of a new socket that uses `ex` (for example another
      `io_context`'s executor, to spread connections over contexts).

      @param ex The new socket's executor.
      @param token The completion token that makes the handler.

      @par Completion signature
      @code void(boost::system::error_code ec, peer_socket_t<Executor1> peer) @endcode

      @par Errors
      `bad_descriptor` if the acceptor is closed when the operation starts;
      `operation_aborted` when cancelled, or when the acceptor is closed before a connection
      arrives; the system's error otherwise (for example `no_descriptors`), after which the
      acceptor is still usable. On failure the socket given to the handler is closed.

      @par Per-operation cancellation
      `cancellation_type::terminal`, `partial` and `total`: an accept still waiting for a
      connection completes with `operation_aborted`. */
  template <class Executor1,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code,
                                                 peer_socket_t<Executor1>))
                MoveAcceptToken = boost::asio::default_completion_token_t<executor_type>,
            class = std::enable_if_t<detail::is_executor_v<Executor1>>>
  auto
  async_accept(const Executor1& ex,
               MoveAcceptToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> accept_new_result_t<MoveAcceptToken, Executor1>
  {
    return async_accept_new(ex, nullptr, std::forward<MoveAcceptToken>(token));
  }

  /** Start an asynchronous accept of a new socket that uses `ex`, and tell the
      connection's address.

      @param ex The new socket's executor.
      @param peer_endpoint Set to the remote address of the connection; it must stay valid
      until the handler is invoked.
      @param token The completion token that makes the handler.

      @par Completion signature
      @code void(boost::system::error_code ec, peer_socket_t<Executor1> peer) @endcode

      @par Errors
      `bad_descriptor` if the acceptor is closed when the operation starts;
      `operation_aborted` when cancelled, or when the acceptor is closed before a connection
      arrives; the system's error otherwise (for example `no_descriptors`), after which the
      acceptor is still usable. On failure the socket given to the handler is closed.

      @par Per-operation cancellation
      `cancellation_type::terminal`, `partial` and `total`: an accept still waiting for a
      connection completes with `operation_aborted`. */
  template <class Executor1,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code,
                                                 peer_socket_t<Executor1>))
                MoveAcceptToken = boost::asio::default_completion_token_t<executor_type>,
            class = std::enable_if_t<detail::is_executor_v<Executor1>>>
  auto
  async_accept(const Executor1& ex, endpoint_type& peer_endpoint,
               MoveAcceptToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> accept_new_result_t<MoveAcceptToken, Executor1>
  {
    return async_accept_new(ex, &peer_endpoint, std::forward<MoveAcceptToken>(token));
  }

  /** Start an asynchronous accept of a new socket that uses `context.get_executor()`.

      @param context The new socket's execution context.
      @param token The completion token that makes the handler.

      @par Completion signature
      @code
      void(boost::system::error_code ec,
           peer_socket_t<typename ExecutionContext::executor_type> peer)
      @endcode

      @par Errors
      `bad_descriptor` if the acceptor is closed when the operation starts;
      `operation_aborted` when cancelled, or when the acceptor is closed before a connection
      arrives; the system's error otherwise (for example `no_descriptors`), after which the
      acceptor is still usable. On failure the socket given to the handler is closed.

      @par Per-operation cancellation
      `cancellation_type::terminal`, `partial` and `total`: an accept still waiting for a
      connection completes with `operation_aborted`. */
  template <class ExecutionContext,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(
                boost::system::error_code, peer_socket_t<typename ExecutionContext::executor_type>))
                MoveAcceptToken = boost::asio::default_completion_token_t<executor_type>,
            class = std::enable_if_t<detail::is_context_v<ExecutionContext>>>
  auto
  async_accept(ExecutionContext& context,
               MoveAcceptToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> accept_new_result_t<MoveAcceptToken, typename ExecutionContext::executor_type>
  {
    return async_accept_new(context.get_executor(), nullptr, std::forward<MoveAcceptToken>(token));
  }

  /** Start an asynchronous accept of a new socket that uses `context.get_executor()`, and
      tell the connection's address.

      @param context The new socket's execution context.
      @param peer_endpoint Set to the remote address of the connection; it must stay valid
      until the handler is invoked.
      @param token The completion token that makes the handler.

      @par Completion signature
      @code
      void(boost::system::error_code ec,
           peer_socket_t<typename ExecutionContext::executor_type> peer)
      @endcode

      @par Errors
      `bad_descriptor` if the acceptor is closed when the operation starts;
      `operation_aborted` when cancelled, or when the acceptor is closed before a connection
      arrives; the system's error otherwise (for example `no_descriptors`), after which the
      acceptor is still usable. On failure the socket given to the handler is closed.

      @par Per-operation cancellation
      `cancellation_type::terminal`, `partial` and `total`: an accept still waiting for a
      connection completes with `operation_aborted`. */
  template <class ExecutionContext,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(
                boost::system::error_code, peer_socket_t<typename ExecutionContext::executor_type>))
                MoveAcceptToken = boost::asio::default_completion_token_t<executor_type>,
            class = std::enable_if_t<detail::is_context_v<ExecutionContext>>>
  auto
  async_accept(ExecutionContext& context, endpoint_type& peer_endpoint,
               MoveAcceptToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> accept_new_result_t<MoveAcceptToken, typename ExecutionContext::executor_type>
  {
    return async_accept_new(context.get_executor(), &peer_endpoint,
                            std::forward<MoveAcceptToken>(token));
  }

private:
  native_handle_type accept_native(endpoint_type* peer_endpoint, boost::system::error_code& ec)
  {
    native_handle_type accepted = detail::socket_ops::invalid_socket;
    this->sync_io(wait_for::read, ec, [&](native_handle_type s, boost::system::error_code& e) {
      endpoint_type ep;
      std::size_t len;
      // Retried at once: the next attempt takes the next connection or would block, which
      // sync_io turns into a wait (Asio waits first, to the same effect).
      do
      {
        len = ep.capacity();
        accepted = detail::socket_ops::accept(s, ep.data(), &len, e);
      } while (detail::socket_ops::accept_next_instead(e, this->own_.enable_connection_aborted));
      if (!e && peer_endpoint)
      {
        ep.resize(len);
        *peer_endpoint = ep;
      }
      return std::size_t(0);
    });
    return accepted;
  }

  template <class Socket>
  void accept_into(Socket& peer, endpoint_type* peer_endpoint, boost::system::error_code& ec)
  {
    if (peer.is_open())
    {
      ec = boost::asio::error::already_open;
      return;
    }
    native_handle_type s = accept_native(peer_endpoint, ec);
    ec = std::get<0>(detail::assign_accepted<Socket, Protocol>{&peer, this->protocol_}(ec, s));
  }

  template <class Executor1>
  peer_socket_t<Executor1> accept_new(const Executor1& ex, endpoint_type* peer_endpoint,
                                      boost::system::error_code& ec)
  {
    native_handle_type s = accept_native(peer_endpoint, ec);
    auto accepted =
        detail::make_accepted<peer_socket_t<Executor1>, Protocol>{ex, this->protocol_}(ec, s);
    ec = std::get<0>(accepted);
    return std::move(std::get<1>(accepted));
  }

  template <class Socket, class Token>
  auto async_accept_into(Socket& peer, endpoint_type* peer_endpoint, Token&& token)
      -> accept_into_result_t<Token, Socket>
  {
    using finish = detail::assign_accepted<Socket, Protocol>;
    using performer = detail::accept_performer<endpoint_type, finish>;
    boost::system::error_code ec;
    if (peer.is_open())
      ec = boost::asio::error::already_open;
    return this->template initiate<void(boost::system::error_code)>(
        std::forward<Token>(token), detail::read_op,
        detail::unless_failed<performer>{performer(peer_endpoint, finish{&peer, this->protocol_},
                                                   this->own_.enable_connection_aborted),
                                         ec});
  }

  template <class Executor1, class Token>
  auto async_accept_new(const Executor1& ex, endpoint_type* peer_endpoint, Token&& token)
      -> accept_new_result_t<Token, Executor1>
  {
    using finish = detail::make_accepted<peer_socket_t<Executor1>, Protocol>;
    return this->template initiate<void(boost::system::error_code, peer_socket_t<Executor1>)>(
        std::forward<Token>(token), detail::read_op,
        detail::accept_performer<endpoint_type, finish>(peer_endpoint, finish{ex, this->protocol_},
                                                        this->own_.enable_connection_aborted));
  }
};

} // namespace asio_notify
} // namespace boost

#endif
