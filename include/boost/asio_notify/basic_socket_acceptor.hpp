//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    `basic_socket_acceptor`, one class in one file: accepting connections on the notify
    reactor (`ip::tcp::acceptor`, `local::stream_protocol::acceptor`). */
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
    As for `basic_socket`: one thread at a time, except `cancel()` and `close()`.

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
  using typename base::default_token_type;

  // The result type of an initiating function (see socket_object::initiate_result_t).
  template <class Token, class Signature, class Performer>
  using initiate_result_t = typename base::template initiate_result_t<Token, Signature, Performer>;

public:
  // socket_object's types, named here for lookup in this template (its base is dependent).
  using typename base::endpoint_type;
  using typename base::executor_type;
  using typename base::native_handle_type;
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
  template <class ExecutorOrContext>
  using accept_new_signature = void(boost::system::error_code,
                                    peer_socket_t<detail::executor_of_t<ExecutorOrContext>>);
  template <class Token, class Executor1>
  using accept_new_result_t = initiate_result_t<
      Token, accept_new_signature<Executor1>,
      detail::accept_performer<endpoint_type,
                               detail::make_accepted<peer_socket_t<Executor1>, Protocol>>>;

public:
  /// Rebinds the acceptor type to another executor: `rebind_executor<Executor1>::other` is
  /// `basic_socket_acceptor<Protocol, Executor1>`.
  template <class Executor1>
  using rebind_executor = detail::rebound<basic_socket_acceptor<Protocol, Executor1>>;

  /// The constructors of `socket_object`: from an executor or an execution context, closed,
  /// opened with a protocol, or owning a native socket.
  using base::base;

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
      : base(ex, endpoint.protocol())
  {
    if (reuse_addr)
      this->set_option(boost::asio::socket_base::reuse_address(true));
    this->bind(endpoint);
    listen();
  }

  /** Construct an acceptor on `context.get_executor()` listening on `endpoint`, as from an
      executor.

      @param context The execution context.
      @param endpoint The local endpoint to listen on.
      @param reuse_addr Whether to set `reuse_address` before binding. */
  template <class ExecutionContext, class = detail::if_context_t<ExecutionContext>>
  basic_socket_acceptor(ExecutionContext& context, const endpoint_type& endpoint,
                        bool reuse_addr = true)
      : basic_socket_acceptor(context.get_executor(), endpoint, reuse_addr)
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
            class = detail::if_convertible_socket_t<Protocol1, Executor1, Protocol, Executor>>
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
    detail::or_throw("listen", [&](auto& ec) { return listen(backlog, ec); });
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

      @throws boost::system::system_error Thrown on failure: `already_open` if `peer` is
      open, `bad_descriptor` if the acceptor is closed, `would_block` in
      `non_blocking(true)` mode when no connection is waiting, the system's error otherwise
      (for example `no_descriptors`).

      @par Example
      @code
      boost::asio_notify::ip::tcp::socket socket(ioc);
      acceptor.accept(socket);
      @endcode */
  template <class Protocol1, class Executor1>
  void accept(basic_socket<Protocol1, Executor1>& peer)
  {
    detail::or_throw("accept", [&](auto& ec) { return accept_into(peer, nullptr, ec); });
  }

  /** Accept a connection into `peer`; reports failure in `ec` instead of throwing (see
      `accept(peer)`).

      @param peer A closed socket of this library that receives the connection.
      @param ec Set on failure. */
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

      @throws boost::system::system_error Thrown on failure, as by `accept(peer)`. */
  template <class Protocol1, class Executor1>
  void accept(basic_socket<Protocol1, Executor1>& peer, endpoint_type& peer_endpoint)
  {
    detail::or_throw("accept", [&](auto& ec) { return accept_into(peer, &peer_endpoint, ec); });
  }

  /** Accept a connection into `peer` and tell its address; reports failure in `ec` instead
      of throwing (see `accept(peer)`).

      @param peer A closed socket of this library that receives the connection.
      @param peer_endpoint Set to the remote address of the connection.
      @param ec Set on failure. */
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

      @throws boost::system::system_error Thrown on failure: `bad_descriptor` if the
      acceptor is closed, `would_block` in `non_blocking(true)` mode when no connection is
      waiting, the system's error otherwise (for example `no_descriptors`).

      @par Example
      @code
      boost::asio_notify::ip::tcp::socket socket = acceptor.accept();
      @endcode */
  socket_type accept() { return accept(this->executor_); }

  /** Accept a connection as a new socket that uses this acceptor's executor; reports
      failure in `ec` instead of throwing (see `accept()`).

      @param ec Set on failure.
      @returns The connected socket, or a closed one on failure. */
  socket_type accept(boost::system::error_code& ec) { return accept(this->executor_, ec); }

  /** Accept a connection as a new socket that uses this acceptor's executor, and tell its
      address.

      @param peer_endpoint Set to the remote address of the connection.
      @returns The connected socket.
      @throws boost::system::system_error Thrown on failure, as by `accept()`. */
  socket_type accept(endpoint_type& peer_endpoint)
  {
    return accept(this->executor_, peer_endpoint);
  }

  /** Accept a connection as a new socket that uses this acceptor's executor, and tell its
      address; reports failure in `ec` instead of throwing (see `accept()`).

      @param peer_endpoint Set to the remote address of the connection.
      @param ec Set on failure.
      @returns The connected socket, or a closed one on failure. */
  socket_type accept(endpoint_type& peer_endpoint, boost::system::error_code& ec)
  {
    return accept(this->executor_, peer_endpoint, ec);
  }

  /** Accept a connection, blocking until one arrives, and return it as a new socket that
      uses `ex`: an executor (for example another `io_context`'s) or an execution context,
      whose `get_executor()` the socket uses.

      @param ex The new socket's executor, or its execution context.
      @returns The connected socket: `peer_socket_t` of that executor.
      @throws boost::system::system_error Thrown on failure, as by `accept()`. */
  template <class ExecutorOrContext, class = detail::if_executor_or_context_t<ExecutorOrContext>>
  auto accept(ExecutorOrContext&& ex) -> peer_socket_t<detail::executor_of_t<ExecutorOrContext>>
  {
    return detail::or_throw(
        "accept", [&](auto& ec) { return accept_new(detail::executor_of(ex), nullptr, ec); });
  }

  /** Accept a connection as a new socket that uses `ex` (an executor or an execution
      context); reports failure in `ec` instead of throwing (see `accept()`).

      @param ex The new socket's executor, or its execution context.
      @param ec Set on failure.
      @returns The connected socket, or a closed one on failure. */
  template <class ExecutorOrContext, class = detail::if_executor_or_context_t<ExecutorOrContext>>
  auto accept(ExecutorOrContext&& ex, boost::system::error_code& ec)
      -> peer_socket_t<detail::executor_of_t<ExecutorOrContext>>
  {
    return accept_new(detail::executor_of(ex), nullptr, ec);
  }

  /** Accept a connection as a new socket that uses `ex` (an executor or an execution
      context), and tell its address.

      @param ex The new socket's executor, or its execution context.
      @param peer_endpoint Set to the remote address of the connection.
      @returns The connected socket.
      @throws boost::system::system_error Thrown on failure, as by `accept()`. */
  template <class ExecutorOrContext, class = detail::if_executor_or_context_t<ExecutorOrContext>>
  auto accept(ExecutorOrContext&& ex, endpoint_type& peer_endpoint)
      -> peer_socket_t<detail::executor_of_t<ExecutorOrContext>>
  {
    return detail::or_throw("accept", [&](auto& ec) {
      return accept_new(detail::executor_of(ex), &peer_endpoint, ec);
    });
  }

  /** Accept a connection as a new socket that uses `ex` (an executor or an execution
      context), and tell its address; reports failure in `ec` instead of throwing (see
      `accept()`). Asio declares this overload for executors too, in a form that can never
      be chosen.

      @param ex The new socket's executor, or its execution context.
      @param peer_endpoint Set to the remote address of the connection.
      @param ec Set on failure.
      @returns The connected socket, or a closed one on failure. */
  template <class ExecutorOrContext, class = detail::if_executor_or_context_t<ExecutorOrContext>>
  auto accept(ExecutorOrContext&& ex, endpoint_type& peer_endpoint, boost::system::error_code& ec)
      -> peer_socket_t<detail::executor_of_t<ExecutorOrContext>>
  {
    return accept_new(detail::executor_of(ex), &peer_endpoint, ec);
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
                AcceptToken = default_token_type>
  auto async_accept(basic_socket<Protocol1, Executor1>& peer,
                    AcceptToken&& token = default_token_type())
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

      @par Errors and per-operation cancellation
      As for `async_accept(peer, token)`. */
  template <class Protocol1, class Executor1,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code))
                AcceptToken = default_token_type>
  auto async_accept(basic_socket<Protocol1, Executor1>& peer, endpoint_type& peer_endpoint,
                    AcceptToken&& token = default_token_type())
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
  template <BOOST_ASIO_COMPLETION_TOKEN_FOR(accept_new_signature<Executor>)
                MoveAcceptToken = default_token_type,
            class = std::enable_if_t<detail::is_token_v<MoveAcceptToken, endpoint_type>>>
  auto async_accept(MoveAcceptToken&& token = default_token_type())
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

      @par Errors and per-operation cancellation
      As for `async_accept(token)`. */
  template <BOOST_ASIO_COMPLETION_TOKEN_FOR(accept_new_signature<Executor>)
                MoveAcceptToken = default_token_type>
  auto async_accept(endpoint_type& peer_endpoint, MoveAcceptToken&& token = default_token_type())
      -> accept_new_result_t<MoveAcceptToken, Executor>
  {
    return async_accept_new(this->executor_, &peer_endpoint, std::forward<MoveAcceptToken>(token));
  }

  /** Start an asynchronous accept of a new socket that uses `ex`: an executor (for example
      another `io_context`'s, to spread connections over contexts) or an execution context,
      whose `get_executor()` the socket uses.

      @param ex The new socket's executor, or its execution context.
      @param token The completion token that makes the handler.

      @par Completion signature
      @code void(boost::system::error_code ec, peer_socket_t<executor> peer) @endcode
      where `executor` is the type of `ex`, or of the context's executor.

      @par Errors and per-operation cancellation
      As for `async_accept(token)`. */
  template <class ExecutorOrContext,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(accept_new_signature<ExecutorOrContext>)
                MoveAcceptToken = default_token_type,
            class = detail::if_executor_or_context_t<ExecutorOrContext>>
  auto async_accept(ExecutorOrContext&& ex, MoveAcceptToken&& token = default_token_type())
      -> accept_new_result_t<MoveAcceptToken, detail::executor_of_t<ExecutorOrContext>>
  {
    return async_accept_new(detail::executor_of(ex), nullptr, std::forward<MoveAcceptToken>(token));
  }

  /** Start an asynchronous accept of a new socket that uses `ex` (an executor or an
      execution context), and tell the connection's address.

      @param ex The new socket's executor, or its execution context.
      @param peer_endpoint Set to the remote address of the connection; it must stay valid
      until the handler is invoked.
      @param token The completion token that makes the handler.

      @par Completion signature, errors and per-operation cancellation
      As for `async_accept(ex, token)`. */
  template <class ExecutorOrContext,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(accept_new_signature<ExecutorOrContext>)
                MoveAcceptToken = default_token_type,
            class = detail::if_executor_or_context_t<ExecutorOrContext>>
  auto async_accept(ExecutorOrContext&& ex, endpoint_type& peer_endpoint,
                    MoveAcceptToken&& token = default_token_type())
      -> accept_new_result_t<MoveAcceptToken, detail::executor_of_t<ExecutorOrContext>>
  {
    return async_accept_new(detail::executor_of(ex), &peer_endpoint,
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
    return this->template initiate<accept_new_signature<Executor1>>(
        std::forward<Token>(token), detail::read_op,
        detail::accept_performer<endpoint_type, finish>(peer_endpoint, finish{ex, this->protocol_},
                                                        this->own_.enable_connection_aborted));
  }
};

} // namespace asio_notify
} // namespace boost

#endif
