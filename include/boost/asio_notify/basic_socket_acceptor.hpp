//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
#ifndef BOOST_ASIO_NOTIFY_BASIC_SOCKET_ACCEPTOR_HPP
#define BOOST_ASIO_NOTIFY_BASIC_SOCKET_ACCEPTOR_HPP

#include <boost/asio_notify/basic_socket.hpp>

#include <optional>
#include <tuple>
#include <type_traits>

namespace boost {
namespace asio_notify {

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

/** An acceptor of connections on the notify reactor: `boost::asio::basic_socket_acceptor`'s
    members with the same semantics. An accept error (for example `EMFILE` when the
    process is out of descriptors) reaches the handler and leaves the acceptor usable. */
template <class Protocol, class Executor = boost::asio::any_io_executor>
class basic_socket_acceptor : public detail::socket_object<Protocol, Executor>
{
  using base = detail::socket_object<Protocol, Executor>;
  using wait_for = detail::socket_ops::wait_for;

  // The result type of an initiating function (see socket_object::initiate_result_t).
  template <class Token, class Signature, class Performer>
  using initiate_result_t = typename base::template initiate_result_t<Token, Signature, Performer>;

public:
  using typename base::endpoint_type;
  using typename base::executor_type;
  using typename base::native_handle_type;
  using typename base::protocol_type;

  /// The socket type the move-accept forms create for an executor of type `Executor1`.
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
  using accept_new_result_t =
      initiate_result_t<Token, void(boost::system::error_code, peer_socket_t<Executor1>),
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

  /// Construct a closed acceptor using `ex` for its operations.
  explicit basic_socket_acceptor(const executor_type& ex) : base(ex) {}

  /// Construct a closed acceptor using the context's executor.
  template <class ExecutionContext, class = std::enable_if_t<detail::is_context_v<ExecutionContext>>>
  explicit basic_socket_acceptor(ExecutionContext& context) : base(context.get_executor())
  {
  }

  /// Construct an open acceptor.
  basic_socket_acceptor(const executor_type& ex, const protocol_type& protocol) : base(ex)
  {
    this->open(protocol);
  }

  /// Construct an open acceptor.
  template <class ExecutionContext, class = std::enable_if_t<detail::is_context_v<ExecutionContext>>>
  basic_socket_acceptor(ExecutionContext& context, const protocol_type& protocol)
      : basic_socket_acceptor(context.get_executor(), protocol)
  {
  }

  /// Construct an acceptor listening on `endpoint` (open, optionally reuse_address, bind, listen).
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

  /// Construct an acceptor listening on `endpoint`.
  template <class ExecutionContext, class = std::enable_if_t<detail::is_context_v<ExecutionContext>>>
  basic_socket_acceptor(ExecutionContext& context, const endpoint_type& endpoint,
                        bool reuse_addr = true)
      : basic_socket_acceptor(context.get_executor(), endpoint, reuse_addr)
  {
  }

  /// Construct an acceptor owning an existing native socket.
  basic_socket_acceptor(const executor_type& ex, const protocol_type& protocol,
                        const native_handle_type& native)
      : base(ex)
  {
    this->assign(protocol, native);
  }

  /// Construct an acceptor owning an existing native socket.
  template <class ExecutionContext, class = std::enable_if_t<detail::is_context_v<ExecutionContext>>>
  basic_socket_acceptor(ExecutionContext& context, const protocol_type& protocol,
                        const native_handle_type& native)
      : basic_socket_acceptor(context.get_executor(), protocol, native)
  {
  }

  /// Move-construct; `other` is left closed.
  basic_socket_acceptor(basic_socket_acceptor&& other) noexcept = default;

  /// Move-assign (closing this acceptor first); `other` is left closed.
  basic_socket_acceptor& operator=(basic_socket_acceptor&& other) noexcept = default;

  /// Move-construct from an acceptor of another executor type, or of another protocol
  /// convertible to this one (a TCP acceptor into a generic stream one); `other` is left
  /// closed. Assigning such an acceptor moves it the same way, closing this one first.
  template <class Protocol1, class Executor1,
            class = std::enable_if_t<detail::is_convertible_socket_v<Protocol1, Executor1, Protocol, Executor>>>
  basic_socket_acceptor(basic_socket_acceptor<Protocol1, Executor1>&& other) : base(std::move(other))
  {
  }

  /// Destroy the acceptor: pending operations complete with `operation_aborted`.
  ~basic_socket_acceptor() = default;

  /// Place the acceptor into the listening state.
  void listen(int backlog = boost::asio::socket_base::max_listen_connections)
  {
    boost::system::error_code ec;
    listen(backlog, ec);
    detail::throw_if(ec, "listen");
  }

  /// Place the acceptor into the listening state.
  BOOST_ASIO_SYNC_OP_VOID listen(int backlog, boost::system::error_code& ec)
  {
    if (this->open_or_fail(ec))
      detail::socket_ops::listen(this->own_.socket, backlog, ec);
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /// Accept a connection into `peer` (which must be closed), blocking until one arrives.
  template <class Protocol1, class Executor1>
  void accept(basic_socket<Protocol1, Executor1>& peer)
  {
    boost::system::error_code ec;
    accept_into(peer, nullptr, ec);
    detail::throw_if(ec, "accept");
  }

  /// Accept a connection into `peer` (which must be closed), blocking until one arrives.
  template <class Protocol1, class Executor1>
  BOOST_ASIO_SYNC_OP_VOID accept(basic_socket<Protocol1, Executor1>& peer,
                                 boost::system::error_code& ec)
  {
    accept_into(peer, nullptr, ec);
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /// Accept a connection into `peer`; `peer_endpoint` is set to its address.
  template <class Protocol1, class Executor1>
  void accept(basic_socket<Protocol1, Executor1>& peer, endpoint_type& peer_endpoint)
  {
    boost::system::error_code ec;
    accept_into(peer, &peer_endpoint, ec);
    detail::throw_if(ec, "accept");
  }

  /// Accept a connection into `peer`; `peer_endpoint` is set to its address.
  template <class Protocol1, class Executor1>
  BOOST_ASIO_SYNC_OP_VOID accept(basic_socket<Protocol1, Executor1>& peer, endpoint_type& peer_endpoint,
                                 boost::system::error_code& ec)
  {
    accept_into(peer, &peer_endpoint, ec);
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /// Accept a connection and return it as a new socket using this acceptor's executor.
  socket_type accept() { return accept(this->executor_); }

  /// Accept a connection and return it as a new socket using this acceptor's executor.
  socket_type accept(boost::system::error_code& ec) { return accept(this->executor_, ec); }

  /// Accept a connection as a new socket; `peer_endpoint` is set to its address.
  socket_type accept(endpoint_type& peer_endpoint) { return accept(this->executor_, peer_endpoint); }

  /// Accept a connection as a new socket; `peer_endpoint` is set to its address.
  socket_type accept(endpoint_type& peer_endpoint, boost::system::error_code& ec)
  {
    return accept(this->executor_, peer_endpoint, ec);
  }

  /// Accept a connection and return it as a new socket using `ex`.
  template <class Executor1, class = std::enable_if_t<detail::is_executor_v<Executor1>>>
  peer_socket_t<Executor1> accept(const Executor1& ex)
  {
    boost::system::error_code ec;
    auto s = accept_new(ex, nullptr, ec);
    detail::throw_if(ec, "accept");
    return s;
  }

  /// Accept a connection and return it as a new socket using `ex`.
  template <class Executor1, class = std::enable_if_t<detail::is_executor_v<Executor1>>>
  peer_socket_t<Executor1> accept(const Executor1& ex, boost::system::error_code& ec)
  {
    return accept_new(ex, nullptr, ec);
  }

  /// Accept a connection as a new socket using `ex`; `peer_endpoint` is set to its address.
  template <class Executor1, class = std::enable_if_t<detail::is_executor_v<Executor1>>>
  peer_socket_t<Executor1> accept(const Executor1& ex, endpoint_type& peer_endpoint)
  {
    boost::system::error_code ec;
    auto s = accept_new(ex, &peer_endpoint, ec);
    detail::throw_if(ec, "accept");
    return s;
  }

  /// Accept a connection as a new socket using `ex`; `peer_endpoint` is set to its address.
  template <class Executor1, class = std::enable_if_t<detail::is_executor_v<Executor1>>>
  peer_socket_t<Executor1> accept(const Executor1& ex, endpoint_type& peer_endpoint,
                                  boost::system::error_code& ec)
  {
    return accept_new(ex, &peer_endpoint, ec);
  }

  /// Accept a connection and return it as a new socket on `context`.
  template <class ExecutionContext, class = std::enable_if_t<detail::is_context_v<ExecutionContext>>>
  auto accept(ExecutionContext& context)
  {
    return accept(context.get_executor());
  }

  /// Accept a connection and return it as a new socket on `context`.
  template <class ExecutionContext, class = std::enable_if_t<detail::is_context_v<ExecutionContext>>>
  auto accept(ExecutionContext& context, boost::system::error_code& ec)
  {
    return accept(context.get_executor(), ec);
  }

  /// Accept a connection as a new socket on `context`; `peer_endpoint` is set to its address.
  template <class ExecutionContext, class = std::enable_if_t<detail::is_context_v<ExecutionContext>>>
  auto accept(ExecutionContext& context, endpoint_type& peer_endpoint)
  {
    return accept(context.get_executor(), peer_endpoint);
  }

  /// Accept a connection as a new socket on `context`; `peer_endpoint` is set to its address.
  template <class ExecutionContext, class = std::enable_if_t<detail::is_context_v<ExecutionContext>>>
  auto accept(ExecutionContext& context, endpoint_type& peer_endpoint, boost::system::error_code& ec)
  {
    return accept(context.get_executor(), peer_endpoint, ec);
  }

  /** Start an asynchronous accept into `peer`, which must stay alive and closed until the
      handler `void(error_code)` runs. */
  template <class Protocol1, class Executor1,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code))
                AcceptToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_accept(basic_socket<Protocol1, Executor1>& peer,
                    AcceptToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> accept_into_result_t<AcceptToken, basic_socket<Protocol1, Executor1>>
  {
    return async_accept_into(peer, nullptr, std::forward<AcceptToken>(token));
  }

  /// Start an asynchronous accept into `peer`, also setting `peer_endpoint`.
  template <class Protocol1, class Executor1,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code))
                AcceptToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_accept(basic_socket<Protocol1, Executor1>& peer, endpoint_type& peer_endpoint,
                    AcceptToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> accept_into_result_t<AcceptToken, basic_socket<Protocol1, Executor1>>
  {
    return async_accept_into(peer, &peer_endpoint, std::forward<AcceptToken>(token));
  }

  /// Start an asynchronous accept of a new socket using this acceptor's executor;
  /// the handler is `void(error_code, socket_type)`.
  template <BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code, socket_type))
                MoveAcceptToken = boost::asio::default_completion_token_t<executor_type>,
            class = std::enable_if_t<detail::is_token_v<MoveAcceptToken, endpoint_type>>>
  auto async_accept(MoveAcceptToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> accept_new_result_t<MoveAcceptToken, Executor>
  {
    return async_accept_new(this->executor_, nullptr, std::forward<MoveAcceptToken>(token));
  }

  /// Start an asynchronous accept of a new socket; `peer_endpoint` (which must outlive the
  /// operation) is set to its address. The handler is `void(error_code, socket_type)`.
  template <BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code, socket_type))
                MoveAcceptToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_accept(endpoint_type& peer_endpoint,
                    MoveAcceptToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> accept_new_result_t<MoveAcceptToken, Executor>
  {
    return async_accept_new(this->executor_, &peer_endpoint, std::forward<MoveAcceptToken>(token));
  }

  /// Start an asynchronous accept of a new socket using `ex` (for instance another
  /// io_context's executor); the handler is `void(error_code, socket)`.
  template <class Executor1,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code, peer_socket_t<Executor1>))
                MoveAcceptToken = boost::asio::default_completion_token_t<executor_type>,
            class = std::enable_if_t<detail::is_executor_v<Executor1>>>
  auto async_accept(const Executor1& ex,
                    MoveAcceptToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> accept_new_result_t<MoveAcceptToken, Executor1>
  {
    return async_accept_new(ex, nullptr, std::forward<MoveAcceptToken>(token));
  }

  /// Start an asynchronous accept of a new socket using `ex`, also setting `peer_endpoint`.
  template <class Executor1,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code, peer_socket_t<Executor1>))
                MoveAcceptToken = boost::asio::default_completion_token_t<executor_type>,
            class = std::enable_if_t<detail::is_executor_v<Executor1>>>
  auto async_accept(const Executor1& ex, endpoint_type& peer_endpoint,
                    MoveAcceptToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> accept_new_result_t<MoveAcceptToken, Executor1>
  {
    return async_accept_new(ex, &peer_endpoint, std::forward<MoveAcceptToken>(token));
  }

  /// Start an asynchronous accept of a new socket on `context`.
  template <class ExecutionContext,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code, peer_socket_t<typename ExecutionContext::executor_type>))
                MoveAcceptToken = boost::asio::default_completion_token_t<executor_type>,
            class = std::enable_if_t<detail::is_context_v<ExecutionContext>>>
  auto async_accept(ExecutionContext& context,
                    MoveAcceptToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> accept_new_result_t<MoveAcceptToken, typename ExecutionContext::executor_type>
  {
    return async_accept_new(context.get_executor(), nullptr, std::forward<MoveAcceptToken>(token));
  }

  /// Start an asynchronous accept of a new socket on `context`, also setting `peer_endpoint`.
  template <class ExecutionContext,
            BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code, peer_socket_t<typename ExecutionContext::executor_type>))
                MoveAcceptToken = boost::asio::default_completion_token_t<executor_type>,
            class = std::enable_if_t<detail::is_context_v<ExecutionContext>>>
  auto async_accept(ExecutionContext& context, endpoint_type& peer_endpoint,
                    MoveAcceptToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> accept_new_result_t<MoveAcceptToken, typename ExecutionContext::executor_type>
  {
    return async_accept_new(context.get_executor(), &peer_endpoint, std::forward<MoveAcceptToken>(token));
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
    detail::assign_accepted<Socket, Protocol>{&peer, this->protocol_}(ec, s);
  }

  template <class Executor1>
  peer_socket_t<Executor1> accept_new(const Executor1& ex, endpoint_type* peer_endpoint,
                                      boost::system::error_code& ec)
  {
    native_handle_type s = accept_native(peer_endpoint, ec);
    return std::get<1>(detail::make_accepted<peer_socket_t<Executor1>, Protocol>{ex, this->protocol_}(ec, s));
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
        detail::unless_failed<performer>{
            performer(peer_endpoint, finish{&peer, this->protocol_}, this->own_.enable_connection_aborted), ec});
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
