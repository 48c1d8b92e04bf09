//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    `beast::basic_stream` and `beast::tcp_stream`: Beast's stream with timeouts and rate
    limits, over the notify reactor's sockets. */
#ifndef BOOST_ASIO_NOTIFY_BEAST_BASIC_STREAM_HPP
#define BOOST_ASIO_NOTIFY_BEAST_BASIC_STREAM_HPP

#include <boost/asio_notify/basic_stream_socket.hpp>
#include <boost/asio_notify/beast/detail/stream_ops.hpp>
#include <boost/asio_notify/beast/detail/stream_state.hpp>
#include <boost/asio_notify/beast/teardown.hpp>
#include <boost/asio_notify/connect.hpp>
#include <boost/asio_notify/ip/tcp.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/rate_policy.hpp>
#include <boost/beast/core/role.hpp>

#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

namespace boost {
namespace asio_notify {

/** Boost.Beast, with `basic_stream` and `tcp_stream` on the notify reactor.

    Everything of `boost::beast` is reachable through it (`beast::http`, `beast::websocket`,
    `beast::flat_buffer`, `beast::get_lowest_layer`, ...), and `beast::basic_stream` and
    `beast::tcp_stream` name this library's streams. A Beast program switches by changing
    its namespace alias and its TCP alias (doc/switching.md):
    @code
    namespace beast = boost::asio_notify::beast;   // was boost::beast
    using tcp = boost::asio_notify::ip::tcp;       // was boost::asio::ip::tcp
    @endcode */
namespace beast {
using namespace boost::beast;

/** Beast's `basic_stream` over a notify stream socket: a stream with per-operation
    timeouts and rate limits, with the interface and behaviour of `boost::beast::basic_stream`
    (doc/beast.md lists the few differences).

    A timeout set with `expires_after` or `expires_at` applies to the next reads, writes
    and connects, each direction on its own; when it passes, the socket is closed and the
    operation completes with `boost::beast::error::timeout`. A rate policy
    (`boost::beast::simple_rate_policy`, `unlimited_rate_policy`, or one of the program's
    own written for Beast) limits the bytes each direction moves per second. Synchronous
    operations pass straight to the socket, with neither timeouts nor limits.

    Asynchronous operations take any completion token, use the handler's associated
    executor, allocator and cancellation slot (every cancellation type for reads, writes and
    the connect to one endpoint; `terminal` and `partial` for a connect over endpoints, as
    `boost::asio_notify::async_connect`), and never invoke the handler inside the initiating
    function. At most one read and one write may be in
    progress at a time; a connect counts as both.

    @tparam Protocol The stream protocol, such as `boost::asio_notify::ip::tcp`.
    @tparam Executor The I/O executor type.
    @tparam RatePolicy A type meeting Beast's RatePolicy requirements.

    @par Thread safety
    Distinct objects: safe. Shared objects: unsafe; run its operations on one strand.

    @par Example
    @code
    namespace beast = boost::asio_notify::beast;
    beast::tcp_stream stream(boost::asio::make_strand(ioc));
    stream.expires_after(std::chrono::seconds(30));
    stream.async_connect(resolver_results, [&](beast::error_code ec, auto) { ... });
    @endcode */
template <class Protocol, class Executor = boost::asio::any_io_executor,
          class RatePolicy = boost::beast::unlimited_rate_policy>
class basic_stream
{
public:
  /// The socket type: this library's stream socket.
  using socket_type = asio_notify::basic_stream_socket<Protocol, Executor>;

  /// The type of the executor the stream's asynchronous operations use.
  using executor_type = typename socket_type::executor_type;

  /// Rebinds the stream type to another executor.
  template <class Executor1>
  struct rebind_executor
  {
    /// The stream type when rebound to the specified executor.
    using other = basic_stream<Protocol, Executor1, RatePolicy>;
  };

  /// The protocol type: `Protocol`.
  using protocol_type = Protocol;

  /// The endpoint type: `Protocol::endpoint`.
  using endpoint_type = typename Protocol::endpoint;

  /// The lowest layer, for `boost::asio::ssl::stream` over this stream: the socket.
  using lowest_layer_type = socket_type;

  /** Construct, forwarding the arguments to the socket's constructor (an executor or
      execution context, optionally with a protocol, endpoint or native socket; or a socket
      to move from); the rate policy is default-constructed.
      @param arg0 The socket constructor's first argument.
      @param args The socket constructor's other arguments. */
  template <class Arg0, class... Args,
            class = std::enable_if_t<!std::is_constructible<RatePolicy, Arg0>::value>>
  explicit basic_stream(Arg0&& arg0, Args&&... args)
      : state_(std::make_shared<state_type>(RatePolicy(), std::forward<Arg0>(arg0),
                                            std::forward<Args>(args)...))
  {
  }

  /** Construct with a rate policy, forwarding the other arguments to the socket's
      constructor.
      @param policy The rate policy, decay-copied.
      @param arg0 The socket constructor's first argument.
      @param args The socket constructor's other arguments. */
  template <class RatePolicy_, class Arg0, class... Args,
            class = std::enable_if_t<std::is_constructible<RatePolicy, RatePolicy_>::value>>
  basic_stream(RatePolicy_&& policy, Arg0&& arg0, Args&&... args)
      : state_(std::make_shared<state_type>(std::forward<RatePolicy_>(policy),
                                            std::forward<Arg0>(arg0), std::forward<Args>(args)...))
  {
  }

  /** Construct from a stream of another executor type, taking over its socket (not its
      pending operations, timeouts or rate policy).
      @param other The stream to take the socket from. */
  template <class Executor1>
  explicit basic_stream(basic_stream<Protocol, Executor1, RatePolicy>&& other)
      : basic_stream(std::move(other.state_->socket))
  {
  }

  /** Move-construct: take over `other`'s socket, timeouts and rate policy. Operations
      pending on `other` stay with it.
      @param other The stream to move from; it is left without an open socket and without
      timeouts. */
  basic_stream(basic_stream&& other)
      : state_(std::make_shared<state_type>(std::move(*other.state_)))
  {
  }

  /// Not assignable, as with Beast.
  basic_stream& operator=(basic_stream&&) = delete;

  /// Destroy the stream, closing the socket: pending operations complete with
  /// `operation_aborted`.
  ~basic_stream() { state_->close(); }

  /// @returns The socket.
  socket_type& socket() noexcept { return state_->socket; }

  /// @returns The socket.
  const socket_type& socket() const noexcept { return state_->socket; }

  /// @returns The socket, for `boost::asio::ssl::stream` and Beast's layer helpers.
  lowest_layer_type& lowest_layer() noexcept { return state_->socket; }

  /// @returns The socket, for `boost::asio::ssl::stream` and Beast's layer helpers.
  const lowest_layer_type& lowest_layer() const noexcept { return state_->socket; }

  /** Cancel pending operations and move the socket out; the stream is left without an
      open socket.
      @returns The socket. */
  socket_type release_socket()
  {
    cancel();
    return std::move(state_->socket);
  }

  /// @returns The rate policy.
  RatePolicy& rate_policy() noexcept { return state_->policy; }

  /// @returns The rate policy.
  const RatePolicy& rate_policy() const noexcept { return state_->policy; }

  /** Set the timeout of the next operations: each read, write or connect started after
      this, until the timeout is changed, must complete within `expiry_time` of now. A
      direction with an operation in progress keeps its own timeout.
      @param expiry_time How long from now. */
  void expires_after(std::chrono::steady_clock::duration expiry_time)
  {
    state_->expire_at(std::chrono::steady_clock::now() + expiry_time);
  }

  /** Set the timeout of the next operations as a point in time; see `expires_after`.
      @param expiry_time When the operations time out. */
  void expires_at(std::chrono::steady_clock::time_point expiry_time)
  {
    state_->expire_at(expiry_time);
  }

  /// Remove the timeout of the next operations.
  void expires_never() { state_->expire_never(); }

  /// Cancel pending operations: they complete with `operation_aborted` (a connect over
  /// endpoints goes on to the next endpoint, as with Asio), the socket stays open.
  void cancel()
  {
    boost::system::error_code ignored;
    state_->socket.cancel(ignored);
    state_->cancel_rate_wait();
  }

  /// Close the socket: pending operations complete with `operation_aborted`.
  void close() { state_->close(); }

  /// @returns The executor of the stream's asynchronous operations.
  executor_type get_executor() noexcept { return state_->socket.get_executor(); }

  /** Connect the socket to `ep`, blocking, without a timeout.
      @param ep The remote endpoint.
      @throws boost::system::system_error Thrown on failure. */
  void connect(const endpoint_type& ep) { socket().connect(ep); }

  /** Connect the socket to `ep`, blocking, without a timeout.
      @param ep The remote endpoint.
      @param ec Set to the error, cleared on success. */
  void connect(const endpoint_type& ep, boost::system::error_code& ec) { socket().connect(ep, ec); }

  /** Connect the socket to the first endpoint of a sequence or an iterator range that
      accepts, blocking, without a timeout: the arguments after the socket of
      `boost::asio_notify::connect` (an endpoint sequence or `begin, end`, then optionally a
      connect condition, then optionally an `error_code&`).
      @param arg0 The endpoint sequence, or the first endpoint's iterator.
      @param args The end iterator, condition and error code that follow.
      @returns The endpoint, or the iterator, connected to. */
  template <class Arg0, class... Args,
            class = std::enable_if_t<!std::is_convertible<Arg0, const endpoint_type&>::value>>
  auto connect(Arg0&& arg0, Args&&... args)
      -> decltype(asio_notify::connect(std::declval<socket_type&>(), std::forward<Arg0>(arg0),
                                       std::forward<Args>(args)...))
  {
    return asio_notify::connect(socket(), std::forward<Arg0>(arg0), std::forward<Args>(args)...);
  }

  /** Start connecting the socket to `ep`, watched by the timeout.
      @param ep The remote endpoint; copied.
      @param token The completion token.
      @par Completion signature
      @code void(boost::system::error_code ec) @endcode
      `boost::beast::error::timeout` if the timeout passed first. */
  template <class ConnectToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_connect(const endpoint_type& ep, ConnectToken&& token = ConnectToken())
  {
    return start_connect<void(boost::system::error_code)>(
        std::forward<ConnectToken>(token),
        [ep](socket_type& s, auto&& handler) { s.async_connect(ep, std::move(handler)); });
  }

  /** Start connecting the socket to the first endpoint of `endpoints` that accepts, as
      `boost::asio_notify::async_connect` does, the whole attempt watched by the timeout.
      @param endpoints The endpoints; copied.
      @param token The completion token.
      @par Completion signature
      @code void(boost::system::error_code ec, endpoint_type connected) @endcode */
  template <
      class EndpointSequence,
      class RangeConnectToken = boost::asio::default_completion_token_t<executor_type>,
      class = std::enable_if_t<asio_notify::detail::is_endpoint_sequence_v<EndpointSequence> &&
                               !asio_notify::detail::is_sequence_connect_condition_v<
                                   EndpointSequence, RangeConnectToken>>>
  auto async_connect(const EndpointSequence& endpoints,
                     RangeConnectToken&& token = RangeConnectToken())
  {
    return async_connect(endpoints, asio_notify::detail::connect_to_any(),
                         std::forward<RangeConnectToken>(token));
  }

  /** Start connecting the socket to the first endpoint of `endpoints` that
      `connect_condition` accepts and that accepts the connection, the whole attempt watched
      by the timeout.
      @param endpoints The endpoints; copied.
      @param connect_condition Called as `bool(const error_code&, const endpoint_type&)`
      before each attempt; copied.
      @param token The completion token.
      @par Completion signature
      @code void(boost::system::error_code ec, endpoint_type connected) @endcode */
  template <class EndpointSequence, class ConnectCondition,
            class RangeConnectToken = boost::asio::default_completion_token_t<executor_type>,
            class = std::enable_if_t<asio_notify::detail::is_sequence_connect_condition_v<
                EndpointSequence, ConnectCondition>>>
  auto async_connect(const EndpointSequence& endpoints, ConnectCondition connect_condition,
                     RangeConnectToken&& token = RangeConnectToken())
  {
    return start_connect_each<void(boost::system::error_code, endpoint_type)>(
        std::forward<RangeConnectToken>(token), endpoints, connect_condition);
  }

  /** Start connecting the socket to the first endpoint of [begin, end) that accepts, the
      whole attempt watched by the timeout.
      @param begin The first endpoint to try.
      @param end The end of the endpoints.
      @param token The completion token.
      @par Completion signature
      @code void(boost::system::error_code ec, Iterator connected) @endcode */
  template <class Iterator,
            class IteratorConnectToken = boost::asio::default_completion_token_t<executor_type>,
            class = std::enable_if_t<
                !asio_notify::detail::is_endpoint_sequence_v<Iterator> &&
                !asio_notify::detail::is_connect_condition_v<IteratorConnectToken, Iterator>>>
  auto async_connect(Iterator begin, Iterator end,
                     IteratorConnectToken&& token = IteratorConnectToken())
  {
    return async_connect(std::move(begin), std::move(end), asio_notify::detail::connect_to_any(),
                         std::forward<IteratorConnectToken>(token));
  }

  /** Start connecting the socket to the first endpoint of [begin, end) that
      `connect_condition` accepts and that accepts the connection, the whole attempt watched
      by the timeout.
      @param begin The first endpoint to try.
      @param end The end of the endpoints.
      @param connect_condition Called as `bool(const error_code&, const endpoint_type&)`
      before each attempt; copied.
      @param token The completion token.
      @par Completion signature
      @code void(boost::system::error_code ec, Iterator connected) @endcode
      On failure `connected` is what `boost::asio_notify::async_connect` gives. */
  template <class Iterator, class ConnectCondition,
            class IteratorConnectToken = boost::asio::default_completion_token_t<executor_type>,
            class = std::enable_if_t<
                asio_notify::detail::is_iterator_connect_condition_v<Iterator, ConnectCondition>>>
  auto async_connect(Iterator begin, Iterator end, ConnectCondition connect_condition,
                     IteratorConnectToken&& token = IteratorConnectToken())
  {
    return start_connect_each<void(boost::system::error_code, Iterator)>(
        std::forward<IteratorConnectToken>(token), begin, end, connect_condition);
  }

  /** Read some data, blocking, without a timeout or rate limit.
      @param buffers Where to read to.
      @returns The number of bytes read.
      @throws boost::system::system_error Thrown on failure (`eof` at the end of stream). */
  template <class MutableBufferSequence>
  std::size_t read_some(const MutableBufferSequence& buffers)
  {
    return state_->socket.read_some(buffers);
  }

  /** Read some data, blocking, without a timeout or rate limit.
      @param buffers Where to read to.
      @param ec Set to the error (`eof` at the end of stream), cleared on success.
      @returns The number of bytes read. */
  template <class MutableBufferSequence>
  std::size_t read_some(const MutableBufferSequence& buffers, boost::system::error_code& ec)
  {
    return state_->socket.read_some(buffers, ec);
  }

  /** Write some data, blocking, without a timeout or rate limit.
      @param buffers What to write.
      @returns The number of bytes written.
      @throws boost::system::system_error Thrown on failure. */
  template <class ConstBufferSequence>
  std::size_t write_some(const ConstBufferSequence& buffers)
  {
    return state_->socket.write_some(buffers);
  }

  /** Write some data, blocking, without a timeout or rate limit.
      @param buffers What to write.
      @param ec Set to the error, cleared on success.
      @returns The number of bytes written. */
  template <class ConstBufferSequence>
  std::size_t write_some(const ConstBufferSequence& buffers, boost::system::error_code& ec)
  {
    return state_->socket.write_some(buffers, ec);
  }

  /** Start reading some data, at most what the rate policy allows this second, watched by
      the timeout. An empty buffer sequence completes at once, without error, while another
      read is in progress; otherwise it reports `timeout` (and closes the socket) if the
      timeout has passed.
      @param buffers Where to read to; they must stay valid until the handler is invoked.
      @param token The completion token.
      @par Completion signature
      @code void(boost::system::error_code ec, std::size_t bytes_transferred) @endcode
      `boost::beast::error::timeout` if the timeout passed first (the socket is then
      closed); `eof` at the end of stream; `operation_aborted` when cancelled. */
  template <class MutableBufferSequence,
            class ReadToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_read_some(const MutableBufferSequence& buffers, ReadToken&& token = ReadToken())
  {
    static_assert(boost::asio::is_mutable_buffer_sequence<MutableBufferSequence>::value,
                  "MutableBufferSequence type requirements not met");
    return start_transfer<true>(buffers, std::forward<ReadToken>(token));
  }

  /** Start writing some data, at most what the rate policy allows this second, watched by
      the timeout. An empty buffer sequence completes at once, without error, while another
      write is in progress; otherwise it reports `timeout` (and closes the socket) if the
      timeout has passed.
      @param buffers What to write; they must stay valid until the handler is invoked.
      @param token The completion token.
      @par Completion signature
      @code void(boost::system::error_code ec, std::size_t bytes_transferred) @endcode
      `boost::beast::error::timeout` if the timeout passed first (the socket is then
      closed); `operation_aborted` when cancelled. */
  template <class ConstBufferSequence,
            class WriteToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_write_some(const ConstBufferSequence& buffers, WriteToken&& token = WriteToken())
  {
    static_assert(boost::asio::is_const_buffer_sequence<ConstBufferSequence>::value,
                  "ConstBufferSequence type requirements not met");
    return start_transfer<false>(buffers, std::forward<WriteToken>(token));
  }

private:
  template <class, class, class>
  friend class basic_stream;

  using state_type = asio_notify::detail::stream_state<socket_type, RatePolicy>;

  template <bool Reading, class Buffers, class Token>
  auto start_transfer(const Buffers& buffers, Token&& token)
  {
    return boost::asio::async_initiate<Token, void(boost::system::error_code, std::size_t)>(
        asio_notify::detail::initiate_stream_transfer<state_type, Reading>{{state_}}, token,
        buffers);
  }

  template <class Signature, class Token, class Start>
  auto start_connect(Token&& token, Start start)
  {
    return boost::asio::async_initiate<Token, Signature>(
        asio_notify::detail::initiate_stream_connect<state_type>{{state_}}, token,
        std::move(start));
  }

  // The forms over several endpoints: asio_notify::async_connect on the socket with `args`
  // (the endpoints, or begin and end, then the condition; copied into the operation).
  template <class Signature, class Token, class... Args>
  auto start_connect_each(Token&& token, const Args&... args)
  {
    return start_connect<Signature>(std::forward<Token>(token),
                                    [args...](socket_type& s, auto&& handler) {
                                      asio_notify::async_connect(s, args..., std::move(handler));
                                    });
  }

  std::shared_ptr<state_type> state_;
};

/// Beast's `tcp_stream` on the notify reactor: `basic_stream` of
/// `boost::asio_notify::ip::tcp`.
using tcp_stream = basic_stream<asio_notify::ip::tcp>;

/** Close the stream's socket, ignoring errors: Beast's timeouts and `websocket::stream`
    call it, found by argument-dependent lookup.
    @param stream The stream to close. */
template <class Protocol, class Executor, class RatePolicy>
void beast_close_socket(basic_stream<Protocol, Executor, RatePolicy>& stream)
{
  stream.close();
}

/** Tear down a WebSocket's connection over the stream, blocking, as the socket's
    `teardown` does; Beast's `websocket::stream` calls it, found by argument-dependent
    lookup.
    @param role The WebSocket role of this end.
    @param stream The stream, connected.
    @param ec Set to the error, cleared on success. */
template <class Protocol, class Executor, class RatePolicy>
void teardown(boost::beast::role_type role, basic_stream<Protocol, Executor, RatePolicy>& stream,
              boost::system::error_code& ec)
{
  asio_notify::teardown(role, stream.socket(), ec);
}

/** Start tearing down a WebSocket's connection over the stream, as the socket's
    `async_teardown` does (the stream's timeouts do not watch it; the WebSocket's own
    do); Beast's `websocket::stream` calls it, found by argument-dependent lookup.
    @param role The WebSocket role of this end.
    @param stream The stream, connected; it must outlive the operation.
    @param handler Invoked as `void(boost::system::error_code)`. */
template <class Protocol, class Executor, class RatePolicy, class TeardownHandler>
void async_teardown(boost::beast::role_type role,
                    basic_stream<Protocol, Executor, RatePolicy>& stream, TeardownHandler&& handler)
{
  asio_notify::async_teardown(role, stream.socket(), std::forward<TeardownHandler>(handler));
}

} // namespace beast
} // namespace asio_notify
} // namespace boost

#endif
