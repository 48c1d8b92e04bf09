//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    The free `connect` and `async_connect` functions: every overload of Boost.Asio's
    (`boost/asio/connect.hpp`), for Boost.AsioNotify's sockets, with Asio's semantics.
    `boost::asio::connect` does not take this library's sockets (its templates name Asio's
    `basic_socket`): call `boost::asio_notify::connect`, or call `connect` unqualified and
    let argument-dependent lookup find it (doc/asio_conformance.md, C1).

    - The range forms take an endpoint sequence (`boost::asio::is_endpoint_sequence`, for
      instance resolver results) and give the endpoint connected to; the iterator forms take
      [begin, end), or a lone `begin` whose end is a value-initialised iterator (the legacy
      forms, offered where Asio offers them: without `BOOST_ASIO_NO_DEPRECATED`, Asio before
      1.33), and give the iterator of the endpoint connected to, or `end`.
    - A connect condition is called as `condition(ec, *it)` before each endpoint is tried,
      with the error of the last attempt (clear before the first): `false` skips the
      endpoint. A legacy condition, `Iterator condition(ec, it)`, instead returns the next
      iterator to try.
    - The socket is closed before each attempt (and the attempt reopens it). On failure the
      error is the last attempt's, or `boost::asio::error::not_found` when no endpoint was
      tried. */
#ifndef BOOST_ASIO_NOTIFY_CONNECT_HPP
#define BOOST_ASIO_NOTIFY_CONNECT_HPP

#include <boost/asio_notify/basic_socket.hpp>

#include <boost/asio/async_result.hpp>
#include <boost/asio/cancellation_type.hpp>
#include <boost/asio/compose.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/version.hpp>

#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>

#if !defined(BOOST_ASIO_NO_DEPRECATED) && BOOST_ASIO_VERSION < 103300
#define BOOST_ASIO_NOTIFY_HAS_LEGACY_ITERATOR_CONNECT 1
#endif

namespace boost {
namespace asio_notify {
namespace detail {

// ---- connect conditions -------------------------------------------------------------------

/// The condition used when none is given: every endpoint is tried.
struct connect_to_any
{
  template <class Entry>
  bool operator()(const boost::system::error_code&, const Entry&) const noexcept
  {
    return true;
  }
};

/// Whether `T` called as `(const error_code&, Arg)` returns exactly `Result`.
template <class T, class Arg, class Result, class = void>
struct connect_condition_returns : std::false_type
{
};

template <class T, class Arg, class Result>
struct connect_condition_returns<
    T, Arg, Result,
    std::enable_if_t<std::is_same<std::invoke_result_t<T&, const boost::system::error_code&, Arg>,
                                  Result>::value>> : std::true_type
{
};

/// `Iterator condition(ec, it)`: a legacy condition, returns the next iterator to try.
template <class T, class Iterator>
using is_legacy_connect_condition = connect_condition_returns<T, const Iterator&, Iterator>;

/// What `*it` gives, or a type no condition takes where `Iterator` is no iterator.
template <class Iterator, class = void>
struct connect_entry
{
  struct type
  {
  };
};

template <class Iterator>
struct connect_entry<Iterator, std::void_t<decltype(*std::declval<const Iterator&>())>>
{
  using type = decltype(*std::declval<const Iterator&>());
};

/// `bool condition(ec, *it)`: whether to try this endpoint.
template <class T, class Iterator>
using is_bool_connect_condition =
    connect_condition_returns<T, typename connect_entry<Iterator>::type, bool>;

/// Whether `T` is a connect condition for endpoints reached through `Iterator` (newer Asio's
/// is_connect_condition): what tells a condition from a completion token where both fit.
template <class T, class Iterator>
inline constexpr bool is_connect_condition_v =
    is_legacy_connect_condition<std::decay_t<T>, Iterator>::value ||
    is_bool_connect_condition<std::decay_t<T>, Iterator>::value;

template <class Sequence>
using sequence_iterator_t = decltype(std::declval<const Sequence&>().begin());

/// Whether `T` is an endpoint sequence (Asio's public trait).
template <class T>
inline constexpr bool is_endpoint_sequence_v = boost::asio::is_endpoint_sequence<T>::value;

/// The first iterator in [next, end) that the condition accepts, or `end`.
template <class Condition, class Iterator>
Iterator next_connect_candidate(Condition& condition, const boost::system::error_code& ec,
                                Iterator next, Iterator end)
{
  if constexpr (is_legacy_connect_condition<Condition, Iterator>::value)
  {
    return next != end ? Iterator(condition(ec, static_cast<const Iterator&>(next))) : end;
  }
  else
  {
    for (; next != end; ++next)
      if (condition(ec, *next))
        return next;
    return end;
  }
}

// ---- positions in the endpoints ------------------------------------------------------------

/// The iterator forms' position: the caller's iterators. The result is the iterator.
template <class Iterator>
class connect_iterator_cursor
{
public:
  connect_iterator_cursor(Iterator begin, Iterator end)
      : next_(std::move(begin)), end_(std::move(end))
  {
  }

  /// Moves to the first endpoint from here that `condition` accepts; false if none.
  template <class Condition>
  bool select(Condition& condition, const boost::system::error_code& ec)
  {
    next_ = detail::next_connect_candidate(condition, ec, next_, end_);
    return next_ != end_;
  }

  void advance() { ++next_; }
  decltype(auto) current() const { return *next_; }
  Iterator result(const boost::system::error_code&) const { return next_; }

private:
  Iterator next_;
  Iterator end_;
};

/// The range forms' position in their own copy of the sequence: an index, not an iterator,
/// since the operation (and the copy in it) is moved between steps, which would leave an
/// iterator into, say, a std::array dangling. The result is the endpoint connected to.
template <class Endpoint, class Sequence>
class connect_sequence_cursor
{
public:
  explicit connect_sequence_cursor(const Sequence& endpoints) : endpoints_(endpoints) {}

  template <class Condition>
  bool select(Condition& condition, const boost::system::error_code& ec)
  {
    const Sequence& endpoints = endpoints_;
    const auto next = detail::next_connect_candidate(condition, ec, position(), endpoints.end());
    index_ = static_cast<std::size_t>(std::distance(endpoints.begin(), next));
    return next != endpoints.end();
  }

  void advance() { ++index_; }
  decltype(auto) current() const { return *position(); }

  Endpoint result(const boost::system::error_code& ec) const
  {
    return ec || position() == endpoints_.end() ? Endpoint() : Endpoint(current());
  }

private:
  sequence_iterator_t<Sequence> position() const
  {
    return std::next(endpoints_.begin(), static_cast<std::ptrdiff_t>(index_));
  }

  Sequence endpoints_;
  std::size_t index_ = 0;
};

// ---- the synchronous loop and the composed operation ---------------------------------------

/// Tries each endpoint the condition accepts until one connects; leaves `cursor` there
/// (or at the end) and `ec` as Asio's connect does.
template <class Socket, class Cursor, class Condition>
void connect_each(Socket& s, Cursor& cursor, Condition& condition, boost::system::error_code& ec)
{
  ec = boost::system::error_code();
  while (cursor.select(condition, ec))
  {
    s.close(ec);
    s.connect(typename Socket::endpoint_type(cursor.current()), ec);
    if (!ec)
      return;
    cursor.advance();
  }
  if (!ec)
    ec = boost::asio::error::not_found;
}

/// The composed operation behind every async_connect: one socket async_connect per
/// endpoint tried, as Asio's range_connect_op and iterator_connect_op.
template <class Socket, class Cursor, class Condition>
class connect_op
{
public:
  connect_op(Socket& s, Cursor cursor, const Condition& condition)
      : socket_(s), cursor_(std::move(cursor)), condition_(condition)
  {
  }

  template <class Self>
  void operator()(Self& self, boost::system::error_code ec = {})
  {
    switch (state_)
    {
    case state::starting:
      // As Asio's: terminal and partial cancellation stop the operation; total is ignored.
      self.reset_cancellation_state(boost::asio::enable_partial_cancellation());
      state_ = state::connecting;
      if (try_next(self, ec))
        return;
      // Nothing to try: complete with not_found, never from inside the initiating function.
      state_ = state::nothing_tried;
      boost::asio::post(socket_.get_executor(), std::move(self));
      return;
    case state::connecting:
      if (!socket_.is_open())
        ec = boost::asio::error::operation_aborted;
      else if (ec && self.cancelled() != boost::asio::cancellation_type::none)
        ec = boost::asio::error::operation_aborted;
      else if (ec)
      {
        cursor_.advance();
        if (try_next(self, ec))
          return;
      }
      break;
    case state::nothing_tried:
      ec = boost::asio::error::not_found;
      break;
    }
    auto result = cursor_.result(ec);
    self.complete(ec, std::move(result));
  }

private:
  enum class state
  {
    starting,
    connecting,
    nothing_tried
  };

  // Starts connecting to the next endpoint the condition accepts; false if none is left.
  template <class Self>
  bool try_next(Self& self, const boost::system::error_code& ec)
  {
    if (!cursor_.select(condition_, ec))
      return false;
    boost::system::error_code ignored;
    socket_.close(ignored);
    const typename Socket::endpoint_type peer(cursor_.current());
    socket_.async_connect(peer, std::move(self));
    return true;
  }

  Socket& socket_;
  Cursor cursor_;
  Condition condition_;
  state state_ = state::starting;
};

/// The initiation of every async_connect: makes the composed operation for the final
/// handler. Going through `async_initiate` (rather than returning `async_compose`) gives
/// async_connect `async_initiate`'s declared result type on every Boost version: Boost 1.81's
/// `async_compose` deduces its type from its body, which a wrong token makes a hard error
/// where it should be a substitution failure.
template <class Signature, class Socket>
class connect_initiation
{
public:
  using executor_type = typename Socket::executor_type;

  explicit connect_initiation(Socket& s) noexcept : socket_(&s) {}

  executor_type get_executor() const noexcept { return socket_->get_executor(); }

  template <class Handler, class Op>
  void operator()(Handler&& handler, Op op) const
  {
    boost::asio::async_compose<Handler, Signature>(std::move(op), handler, *socket_);
  }

private:
  Socket* socket_;
};

/// Starts the composed operation; every async_connect overload comes here.
template <class Signature, class Token, class Protocol, class Executor, class Cursor,
          class Condition>
auto async_connect_each(basic_socket<Protocol, Executor>& s, Cursor cursor,
                        const Condition& condition, Token&& token)
    -> decltype(boost::asio::async_initiate<Token, Signature>(
        std::declval<connect_initiation<Signature, basic_socket<Protocol, Executor>>>(), token,
        std::declval<connect_op<basic_socket<Protocol, Executor>, Cursor, Condition>>()))
{
  return boost::asio::async_initiate<Token, Signature>(
      connect_initiation<Signature, basic_socket<Protocol, Executor>>(s), token,
      connect_op<basic_socket<Protocol, Executor>, Cursor, Condition>(s, std::move(cursor),
                                                                      condition));
}

template <class Protocol>
using range_connect_signature = void(boost::system::error_code, typename Protocol::endpoint);

template <class Iterator>
using iterator_connect_signature = void(boost::system::error_code, Iterator);

/// Asio's range result: the endpoint connected to, or a default one on failure.
template <class Protocol, class Iterator>
typename Protocol::endpoint connected_endpoint(const Iterator& it,
                                               const boost::system::error_code& ec)
{
  return ec ? typename Protocol::endpoint() : typename Protocol::endpoint(*it);
}

} // namespace detail

// ---- connect ---------------------------------------------------------------------------------

/** Connect `s` to the first endpoint of [begin, end) that `connect_condition` accepts and
    that accepts the connection, blocking, with the socket's `connect`; the socket is closed
    before each attempt.

    @param s The socket; closed, then opened by each attempt.
    @param begin The first endpoint to try.
    @param end The end of the endpoints.
    @param connect_condition Called as
    `bool(const error_code& last_error, const endpoint& next)` before each attempt
    (`last_error` is clear before the first): `false` skips the endpoint. A legacy condition,
    `Iterator(const error_code&, Iterator next)`, returns the next iterator to try instead.
    @param ec Set to the last attempt's error on failure (`not_found` if no endpoint was
    tried), cleared on success.

    @returns The iterator of the endpoint connected to, or `end` on failure. */
template <class Protocol, class Executor, class Iterator, class ConnectCondition>
Iterator
connect(basic_socket<Protocol, Executor>& s, Iterator begin, Iterator end,
        ConnectCondition connect_condition, boost::system::error_code& ec,
        std::enable_if_t<detail::is_connect_condition_v<ConnectCondition, Iterator>, int> = 0)
{
  detail::connect_iterator_cursor<Iterator> cursor(std::move(begin), std::move(end));
  detail::connect_each(s, cursor, connect_condition, ec);
  return cursor.result(ec);
}

/** Connect `s` to the first endpoint of [begin, end) that `connect_condition` accepts and
    that accepts the connection, blocking; the socket is closed before each attempt.

    @param s The socket; closed, then opened by each attempt.
    @param begin The first endpoint to try.
    @param end The end of the endpoints.
    @param connect_condition Called as
    `bool(const error_code& last_error, const endpoint& next)` before each attempt: `false`
    skips the endpoint (a legacy condition returns the next iterator to try instead).

    @returns The iterator of the endpoint connected to.

    @throws boost::system::system_error Thrown with the last attempt's error, or
    `not_found` if no endpoint was tried. */
template <class Protocol, class Executor, class Iterator, class ConnectCondition>
Iterator
connect(basic_socket<Protocol, Executor>& s, Iterator begin, Iterator end,
        ConnectCondition connect_condition,
        std::enable_if_t<detail::is_connect_condition_v<ConnectCondition, Iterator>, int> = 0)
{
  boost::system::error_code ec;
  auto it =
      asio_notify::connect(s, std::move(begin), std::move(end), std::move(connect_condition), ec);
  detail::throw_if(ec, "connect");
  return it;
}

/** Connect `s` to the first endpoint of `endpoints` that `connect_condition` accepts and
    that accepts the connection, blocking; the socket is closed before each attempt.

    @param s The socket; closed, then opened by each attempt.
    @param endpoints The endpoints to try, in order (for instance resolver results).
    @param connect_condition Called as
    `bool(const error_code& last_error, const endpoint& next)` before each attempt
    (`last_error` is clear before the first): `false` skips the endpoint.
    @param ec Set to the last attempt's error on failure (`not_found` if no endpoint was
    tried), cleared on success.

    @returns The endpoint connected to, or a default-constructed endpoint on failure. */
template <class Protocol, class Executor, class EndpointSequence, class ConnectCondition>
typename Protocol::endpoint
connect(basic_socket<Protocol, Executor>& s, const EndpointSequence& endpoints,
        ConnectCondition connect_condition, boost::system::error_code& ec,
        std::enable_if_t<detail::is_endpoint_sequence_v<EndpointSequence> &&
                             detail::is_connect_condition_v<
                                 ConnectCondition, detail::sequence_iterator_t<EndpointSequence>>,
                         int> = 0)
{
  const auto it =
      asio_notify::connect(s, endpoints.begin(), endpoints.end(), connect_condition, ec);
  return detail::connected_endpoint<Protocol>(it, ec);
}

/** Connect `s` to the first endpoint of `endpoints` that `connect_condition` accepts and
    that accepts the connection, blocking; the socket is closed before each attempt.

    @param s The socket; closed, then opened by each attempt.
    @param endpoints The endpoints to try, in order (for instance resolver results).
    @param connect_condition Called as
    `bool(const error_code& last_error, const endpoint& next)` before each attempt: `false`
    skips the endpoint.

    @returns The endpoint connected to.

    @throws boost::system::system_error Thrown with the last attempt's error, or
    `not_found` if no endpoint was tried.

    @par Example
    @code
    auto connected = boost::asio_notify::connect(
        socket, resolver.resolve("localhost", "8080"),
        [](const boost::system::error_code&, const boost::asio::ip::tcp::endpoint& next) {
          return next.address().is_v4(); // IPv4 only
        });
    @endcode */
template <class Protocol, class Executor, class EndpointSequence, class ConnectCondition>
typename Protocol::endpoint
connect(basic_socket<Protocol, Executor>& s, const EndpointSequence& endpoints,
        ConnectCondition connect_condition,
        std::enable_if_t<detail::is_endpoint_sequence_v<EndpointSequence> &&
                             detail::is_connect_condition_v<
                                 ConnectCondition, detail::sequence_iterator_t<EndpointSequence>>,
                         int> = 0)
{
  boost::system::error_code ec;
  auto ep = asio_notify::connect(s, endpoints, std::move(connect_condition), ec);
  detail::throw_if(ec, "connect");
  return ep;
}

/** Connect `s` to the first endpoint of `endpoints` that accepts the connection, blocking,
    trying each in turn with the socket's `connect`; the socket is closed before each attempt.

    @param s The socket; closed, then opened by each attempt.
    @param endpoints The endpoints to try, in order (for instance resolver results).
    @param ec Set to the last attempt's error on failure (`boost::asio::error::not_found`
    for an empty sequence), cleared on success.

    @returns The endpoint connected to, or a default-constructed endpoint on failure. */
template <class Protocol, class Executor, class EndpointSequence>
typename Protocol::endpoint
connect(basic_socket<Protocol, Executor>& s, const EndpointSequence& endpoints,
        boost::system::error_code& ec,
        std::enable_if_t<detail::is_endpoint_sequence_v<EndpointSequence>, int> = 0)
{
  return asio_notify::connect(s, endpoints, detail::connect_to_any(), ec);
}

/** Connect `s` to the first endpoint of `endpoints` that accepts the connection, blocking,
    trying each in turn with the socket's `connect`; the socket is closed before each attempt.

    @param s The socket; closed, then opened by each attempt.
    @param endpoints The endpoints to try, in order (for instance resolver results).

    @returns The endpoint connected to.

    @throws boost::system::system_error Thrown with the last attempt's error, or
    `not_found` for an empty sequence.

    @par Example
    @code
    boost::asio::ip::tcp::resolver resolver(ioc);
    boost::asio_notify::ip::tcp::socket socket(ioc);
    boost::asio::ip::tcp::endpoint connected =
        boost::asio_notify::connect(socket, resolver.resolve("localhost", "8080"));
    @endcode */
template <class Protocol, class Executor, class EndpointSequence>
typename Protocol::endpoint
connect(basic_socket<Protocol, Executor>& s, const EndpointSequence& endpoints,
        std::enable_if_t<detail::is_endpoint_sequence_v<EndpointSequence>, int> = 0)
{
  return asio_notify::connect(s, endpoints, detail::connect_to_any());
}

/** Connect `s` to the first endpoint of [begin, end) that accepts the connection, blocking;
    the socket is closed before each attempt.

    @param s The socket; closed, then opened by each attempt.
    @param begin The first endpoint to try.
    @param end The end of the endpoints.
    @param ec Set to the last attempt's error on failure (`not_found` if the range is
    empty), cleared on success.

    @returns The iterator of the endpoint connected to, or `end` on failure. */
template <class Protocol, class Executor, class Iterator>
Iterator connect(basic_socket<Protocol, Executor>& s, Iterator begin, Iterator end,
                 boost::system::error_code& ec)
{
  return asio_notify::connect(s, std::move(begin), std::move(end), detail::connect_to_any(), ec);
}

/** Connect `s` to the first endpoint of [begin, end) that accepts the connection, blocking;
    the socket is closed before each attempt.

    @param s The socket; closed, then opened by each attempt.
    @param begin The first endpoint to try.
    @param end The end of the endpoints.

    @returns The iterator of the endpoint connected to.

    @throws boost::system::system_error Thrown with the last attempt's error, or
    `not_found` if the range is empty. */
template <class Protocol, class Executor, class Iterator>
Iterator connect(basic_socket<Protocol, Executor>& s, Iterator begin, Iterator end)
{
  return asio_notify::connect(s, std::move(begin), std::move(end), detail::connect_to_any());
}

#if defined(BOOST_ASIO_NOTIFY_HAS_LEGACY_ITERATOR_CONNECT)

/** (Deprecated, as in Asio: use a range form.) Connect `s` to the first endpoint from
    `begin` up to a value-initialised `Iterator` (the end of resolver iterators) that
    accepts the connection, blocking; the socket is closed before each attempt.

    @param s The socket; closed, then opened by each attempt.
    @param begin The first endpoint to try.
    @param ec Set to the last attempt's error on failure (`not_found` if there was no
    endpoint), cleared on success.

    @returns The iterator of the endpoint connected to, or the end iterator on failure. */
template <class Protocol, class Executor, class Iterator>
Iterator connect(basic_socket<Protocol, Executor>& s, Iterator begin, boost::system::error_code& ec,
                 std::enable_if_t<!detail::is_endpoint_sequence_v<Iterator>, int> = 0)
{
  return asio_notify::connect(s, std::move(begin), Iterator(), detail::connect_to_any(), ec);
}

/** (Deprecated, as in Asio: use a range form.) Connect `s` to the first endpoint from
    `begin` up to a value-initialised `Iterator` that accepts the connection, blocking.

    @param s The socket; closed, then opened by each attempt.
    @param begin The first endpoint to try.

    @returns The iterator of the endpoint connected to.

    @throws boost::system::system_error Thrown with the last attempt's error (`not_found`
    if there was no endpoint). */
template <class Protocol, class Executor, class Iterator>
Iterator connect(basic_socket<Protocol, Executor>& s, Iterator begin,
                 std::enable_if_t<!detail::is_endpoint_sequence_v<Iterator>, int> = 0)
{
  return asio_notify::connect(s, std::move(begin), Iterator(), detail::connect_to_any());
}

/** (Deprecated, as in Asio: use a range form.) Connect `s` to the first endpoint from
    `begin` up to a value-initialised `Iterator` that `connect_condition` accepts and that
    accepts the connection, blocking.

    @param s The socket; closed, then opened by each attempt.
    @param begin The first endpoint to try.
    @param connect_condition Called before each attempt, as for the [begin, end) form.
    @param ec Set to the last attempt's error on failure (`not_found` if none was tried),
    cleared on success.

    @returns The iterator of the endpoint connected to, or the end iterator on failure. */
template <class Protocol, class Executor, class Iterator, class ConnectCondition>
Iterator connect(basic_socket<Protocol, Executor>& s, Iterator begin,
                 ConnectCondition connect_condition, boost::system::error_code& ec,
                 std::enable_if_t<!detail::is_endpoint_sequence_v<Iterator> &&
                                      detail::is_connect_condition_v<ConnectCondition, Iterator>,
                                  int> = 0)
{
  return asio_notify::connect(s, std::move(begin), Iterator(), std::move(connect_condition), ec);
}

/** (Deprecated, as in Asio: use a range form.) Connect `s` to the first endpoint from
    `begin` up to a value-initialised `Iterator` that `connect_condition` accepts and that
    accepts the connection, blocking.

    @param s The socket; closed, then opened by each attempt.
    @param begin The first endpoint to try.
    @param connect_condition Called before each attempt, as for the [begin, end) form.

    @returns The iterator of the endpoint connected to.

    @throws boost::system::system_error Thrown with the last attempt's error (`not_found`
    if none was tried). */
template <class Protocol, class Executor, class Iterator, class ConnectCondition>
Iterator connect(basic_socket<Protocol, Executor>& s, Iterator begin,
                 ConnectCondition connect_condition,
                 std::enable_if_t<!detail::is_endpoint_sequence_v<Iterator> &&
                                      detail::is_connect_condition_v<ConnectCondition, Iterator>,
                                  int> = 0)
{
  return asio_notify::connect(s, std::move(begin), Iterator(), std::move(connect_condition));
}

#endif // BOOST_ASIO_NOTIFY_HAS_LEGACY_ITERATOR_CONNECT

// ---- async_connect ---------------------------------------------------------------------------
//
// Every form: the socket is closed before each attempt; the completion is never invoked from
// inside the initiating function; cancellation (per-operation slot): terminal and partial stop
// the operation with `operation_aborted`, as does closing the socket; total is ignored, as in
// Asio. An attempt that fails with `operation_aborted` for another reason (the socket's
// `cancel()`) moves on to the next endpoint, as Asio's does. Each doc comment below says so
// in its sections, for the reference.

/** Start an asynchronous connect of `s` to the first endpoint of `endpoints` that
    `connect_condition` accepts and that accepts the connection, one socket `async_connect`
    per endpoint tried; the socket is closed before each attempt. This is an initiating
    function: it returns at once.

    @param s The socket; it must stay alive until the handler is invoked.
    @param endpoints The endpoints to try, in order; copied.
    @param connect_condition Called as
    `bool(const error_code& last_error, const endpoint& next)` before each attempt
    (`last_error` is clear before the first): `false` skips the endpoint. Copied.
    @param token The completion token that makes the handler.

    @par Completion signature
    @code void(boost::system::error_code ec, typename Protocol::endpoint connected) @endcode
    On failure `connected` is a default-constructed endpoint.

    @par Errors
    The last attempt's error (for example `connection_refused`); `not_found` if no endpoint
    was tried (completed through the socket's executor, never inside this call);
    `operation_aborted` when cancelled or when the socket is closed.

    @par Per-operation cancellation
    `cancellation_type::terminal` and `partial` stop the operation with
    `operation_aborted`; `total` is ignored, as with Asio's. Closing the socket stops it
    too; the socket's `cancel()` aborts only the attempt in progress, and the next endpoint
    is tried, as with Asio's. */
template <class Protocol, class Executor, class EndpointSequence, class ConnectCondition,
          BOOST_ASIO_COMPLETION_TOKEN_FOR(detail::range_connect_signature<Protocol>)
              RangeConnectToken = boost::asio::default_completion_token_t<Executor>>
auto async_connect(
    basic_socket<Protocol, Executor>& s, const EndpointSequence& endpoints,
    ConnectCondition connect_condition,
    RangeConnectToken&& token = boost::asio::default_completion_token_t<Executor>(),
    std::enable_if_t<detail::is_endpoint_sequence_v<EndpointSequence> &&
                         detail::is_connect_condition_v<
                             ConnectCondition, detail::sequence_iterator_t<EndpointSequence>>,
                     int> = 0)
    -> decltype(detail::async_connect_each<detail::range_connect_signature<Protocol>>(
        s,
        detail::connect_sequence_cursor<typename Protocol::endpoint, EndpointSequence>(endpoints),
        connect_condition, std::forward<RangeConnectToken>(token)))
{
  return detail::async_connect_each<detail::range_connect_signature<Protocol>>(
      s, detail::connect_sequence_cursor<typename Protocol::endpoint, EndpointSequence>(endpoints),
      connect_condition, std::forward<RangeConnectToken>(token));
}

/** Start an asynchronous connect of `s` to the first endpoint of [begin, end) that
    `connect_condition` accepts and that accepts the connection; the socket is closed
    before each attempt. This is an initiating function: it returns at once.

    @param s The socket; it must stay alive until the handler is invoked.
    @param begin The first endpoint to try.
    @param end The end of the endpoints; the iterators must stay valid until the handler
    is invoked.
    @param connect_condition Called as
    `bool(const error_code& last_error, const endpoint& next)` before each attempt: `false`
    skips the endpoint. A legacy condition, `Iterator(const error_code&, Iterator next)`,
    returns the next iterator to try instead. Copied.
    @param token The completion token that makes the handler.

    @par Completion signature
    @code void(boost::system::error_code ec, Iterator connected) @endcode
    On failure `connected` is `end`, or, when the operation was stopped with
    `operation_aborted`, the iterator being tried.

    @par Errors
    The last attempt's error (for example `connection_refused`); `not_found` if no endpoint
    was tried (completed through the socket's executor, never inside this call);
    `operation_aborted` when cancelled or when the socket is closed.

    @par Per-operation cancellation
    `cancellation_type::terminal` and `partial` stop the operation with
    `operation_aborted`; `total` is ignored, as with Asio's. Closing the socket stops it
    too; the socket's `cancel()` aborts only the attempt in progress, and the next endpoint
    is tried, as with Asio's. */
template <class Protocol, class Executor, class Iterator, class ConnectCondition,
          BOOST_ASIO_COMPLETION_TOKEN_FOR(detail::iterator_connect_signature<Iterator>)
              IteratorConnectToken = boost::asio::default_completion_token_t<Executor>>
auto async_connect(
    basic_socket<Protocol, Executor>& s, Iterator begin, Iterator end,
    ConnectCondition connect_condition,
    IteratorConnectToken&& token = boost::asio::default_completion_token_t<Executor>(),
    std::enable_if_t<detail::is_connect_condition_v<ConnectCondition, Iterator>, int> = 0)
    -> decltype(detail::async_connect_each<detail::iterator_connect_signature<Iterator>>(
        s, detail::connect_iterator_cursor<Iterator>(begin, end), connect_condition,
        std::forward<IteratorConnectToken>(token)))
{
  return detail::async_connect_each<detail::iterator_connect_signature<Iterator>>(
      s, detail::connect_iterator_cursor<Iterator>(std::move(begin), std::move(end)),
      connect_condition, std::forward<IteratorConnectToken>(token));
}

/** Start an asynchronous connect of `s` to the first endpoint of `endpoints` (for instance
    resolver results) that accepts the connection, one socket `async_connect` per endpoint
    tried; the socket is closed before each attempt. This is an initiating function: it
    returns at once.

    @param s The socket; it must stay alive until the handler is invoked.
    @param endpoints The endpoints to try, in order; copied.
    @param token The completion token that makes the handler.

    @par Completion signature
    @code void(boost::system::error_code ec, typename Protocol::endpoint connected) @endcode
    On failure `connected` is a default-constructed endpoint.

    @par Errors
    The last attempt's error (for example `connection_refused`); `not_found` for an empty
    sequence (completed through the socket's executor, never inside this call);
    `operation_aborted` when cancelled or when the socket is closed.

    @par Per-operation cancellation
    `cancellation_type::terminal` and `partial` stop the operation with
    `operation_aborted`; `total` is ignored, as with Asio's. Closing the socket stops it
    too; the socket's `cancel()` aborts only the attempt in progress, and the next endpoint
    is tried, as with Asio's.

    @par Example
    @code
    boost::asio::ip::tcp::resolver resolver(ioc);
    boost::asio_notify::ip::tcp::socket socket(ioc);
    boost::asio_notify::async_connect(
        socket, resolver.resolve("localhost", "8080"),
        [](boost::system::error_code ec, const boost::asio::ip::tcp::endpoint& connected) {
          // connected to `connected` unless ec is set
        });
    @endcode */
template <class Protocol, class Executor, class EndpointSequence,
          BOOST_ASIO_COMPLETION_TOKEN_FOR(detail::range_connect_signature<Protocol>)
              RangeConnectToken = boost::asio::default_completion_token_t<Executor>>
auto async_connect(
    basic_socket<Protocol, Executor>& s, const EndpointSequence& endpoints,
    RangeConnectToken&& token = boost::asio::default_completion_token_t<Executor>(),
    std::enable_if_t<detail::is_endpoint_sequence_v<EndpointSequence> &&
                         !detail::is_connect_condition_v<
                             RangeConnectToken, detail::sequence_iterator_t<EndpointSequence>>,
                     int> = 0)
    -> decltype(asio_notify::async_connect(s, endpoints, detail::connect_to_any(),
                                           std::forward<RangeConnectToken>(token)))
{
  return asio_notify::async_connect(s, endpoints, detail::connect_to_any(),
                                    std::forward<RangeConnectToken>(token));
}

/** Start an asynchronous connect of `s` to the first endpoint of [begin, end) that accepts
    the connection; the socket is closed before each attempt. This is an initiating
    function: it returns at once.

    @param s The socket; it must stay alive until the handler is invoked.
    @param begin The first endpoint to try.
    @param end The end of the endpoints; the iterators must stay valid until the handler
    is invoked.
    @param token The completion token that makes the handler.

    @par Completion signature
    @code void(boost::system::error_code ec, Iterator connected) @endcode
    On failure `connected` is `end`, or, when the operation was stopped with
    `operation_aborted`, the iterator being tried.

    @par Errors
    The last attempt's error; `not_found` for an empty range (never completed inside this
    call); `operation_aborted` when cancelled or when the socket is closed.

    @par Per-operation cancellation
    `cancellation_type::terminal` and `partial` stop the operation with
    `operation_aborted`; `total` is ignored, as with Asio's. Closing the socket stops it
    too; the socket's `cancel()` aborts only the attempt in progress, and the next endpoint
    is tried, as with Asio's. */
template <class Protocol, class Executor, class Iterator,
          BOOST_ASIO_COMPLETION_TOKEN_FOR(detail::iterator_connect_signature<Iterator>)
              IteratorConnectToken = boost::asio::default_completion_token_t<Executor>>
auto async_connect(
    basic_socket<Protocol, Executor>& s, Iterator begin, Iterator end,
    IteratorConnectToken&& token = boost::asio::default_completion_token_t<Executor>(),
    std::enable_if_t<!detail::is_connect_condition_v<IteratorConnectToken, Iterator>, int> = 0)
    -> decltype(asio_notify::async_connect(s, begin, end, detail::connect_to_any(),
                                           std::forward<IteratorConnectToken>(token)))
{
  return asio_notify::async_connect(s, std::move(begin), std::move(end), detail::connect_to_any(),
                                    std::forward<IteratorConnectToken>(token));
}

#if defined(BOOST_ASIO_NOTIFY_HAS_LEGACY_ITERATOR_CONNECT)

/** (Deprecated, as in Asio: use a range form.) Start an asynchronous connect of `s` to the
    first endpoint from `begin` up to a value-initialised `Iterator` (the end of resolver
    iterators) that accepts the connection.

    @param s The socket; it must stay alive until the handler is invoked.
    @param begin The first endpoint to try.
    @param token The completion token that makes the handler.

    @par Completion signature
    @code void(boost::system::error_code ec, Iterator connected) @endcode
    As for [begin, end), the end being `Iterator()`.

    @par Errors
    As for [begin, end): the last attempt's error, `not_found`, `operation_aborted`.

    @par Per-operation cancellation
    `cancellation_type::terminal` and `partial` stop the operation with
    `operation_aborted`; `total` is ignored, as with Asio's. Closing the socket stops it
    too; the socket's `cancel()` aborts only the attempt in progress, and the next endpoint
    is tried, as with Asio's. */
template <class Protocol, class Executor, class Iterator,
          BOOST_ASIO_COMPLETION_TOKEN_FOR(detail::iterator_connect_signature<Iterator>)
              IteratorConnectToken = boost::asio::default_completion_token_t<Executor>>
auto async_connect(
    basic_socket<Protocol, Executor>& s, Iterator begin,
    IteratorConnectToken&& token = boost::asio::default_completion_token_t<Executor>(),
    std::enable_if_t<!detail::is_endpoint_sequence_v<Iterator> &&
                         !detail::is_connect_condition_v<IteratorConnectToken, Iterator> &&
                         !std::is_same<std::decay_t<IteratorConnectToken>, Iterator>::value,
                     int> = 0)
    -> decltype(asio_notify::async_connect(s, begin, Iterator(),
                                           std::forward<IteratorConnectToken>(token)))
{
  return asio_notify::async_connect(s, std::move(begin), Iterator(),
                                    std::forward<IteratorConnectToken>(token));
}

/** (Deprecated, as in Asio: use a range form.) Start an asynchronous connect of `s` to the
    first endpoint from `begin` up to a value-initialised `Iterator` that
    `connect_condition` accepts and that accepts the connection.

    @param s The socket; it must stay alive until the handler is invoked.
    @param begin The first endpoint to try.
    @param connect_condition Called before each attempt, as for the [begin, end) form.
    @param token The completion token that makes the handler.

    @par Completion signature
    @code void(boost::system::error_code ec, Iterator connected) @endcode
    As for [begin, end), the end being `Iterator()`.

    @par Errors
    As for [begin, end): the last attempt's error, `not_found`, `operation_aborted`.

    @par Per-operation cancellation
    `cancellation_type::terminal` and `partial` stop the operation with
    `operation_aborted`; `total` is ignored, as with Asio's. Closing the socket stops it
    too; the socket's `cancel()` aborts only the attempt in progress, and the next endpoint
    is tried, as with Asio's. */
template <class Protocol, class Executor, class Iterator, class ConnectCondition,
          BOOST_ASIO_COMPLETION_TOKEN_FOR(detail::iterator_connect_signature<Iterator>)
              IteratorConnectToken = boost::asio::default_completion_token_t<Executor>>
auto async_connect(
    basic_socket<Protocol, Executor>& s, Iterator begin, ConnectCondition connect_condition,
    IteratorConnectToken&& token = boost::asio::default_completion_token_t<Executor>(),
    std::enable_if_t<!detail::is_endpoint_sequence_v<Iterator> &&
                         detail::is_connect_condition_v<ConnectCondition, Iterator>,
                     int> = 0)
    -> decltype(asio_notify::async_connect(s, begin, Iterator(), connect_condition,
                                           std::forward<IteratorConnectToken>(token)))
{
  return asio_notify::async_connect(s, std::move(begin), Iterator(), std::move(connect_condition),
                                    std::forward<IteratorConnectToken>(token));
}

#endif // BOOST_ASIO_NOTIFY_HAS_LEGACY_ITERATOR_CONNECT

} // namespace asio_notify
} // namespace boost

#endif
