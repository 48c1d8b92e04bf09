//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    The free `connect` and `async_connect` functions, one idea in one file: every overload
    of Boost.Asio's (`boost/asio/connect.hpp`), for this library's sockets, as Asio does.
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
#include <boost/asio_notify/detail/connect_op.hpp>

#include <boost/asio/async_result.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/version.hpp>

#include <type_traits>
#include <utility>

#if !defined(BOOST_ASIO_NO_DEPRECATED) && BOOST_ASIO_VERSION < 103300
/// Defined where the legacy iterator forms of `connect` and `async_connect` (a lone `begin`)
/// are offered, as Asio offers them: without `BOOST_ASIO_NO_DEPRECATED`, Asio before 1.33.
#define BOOST_ASIO_NOTIFY_HAS_LEGACY_ITERATOR_CONNECT 1
#endif

namespace boost {
namespace asio_notify {

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
typename Protocol::endpoint connect(
    basic_socket<Protocol, Executor>& s, const EndpointSequence& endpoints,
    ConnectCondition connect_condition, boost::system::error_code& ec,
    std::enable_if_t<detail::is_sequence_connect_condition_v<EndpointSequence, ConnectCondition>,
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
typename Protocol::endpoint connect(
    basic_socket<Protocol, Executor>& s, const EndpointSequence& endpoints,
    ConnectCondition connect_condition,
    std::enable_if_t<detail::is_sequence_connect_condition_v<EndpointSequence, ConnectCondition>,
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
Iterator connect(
    basic_socket<Protocol, Executor>& s, Iterator begin, ConnectCondition connect_condition,
    boost::system::error_code& ec,
    std::enable_if_t<detail::is_iterator_connect_condition_v<Iterator, ConnectCondition>, int> = 0)
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
Iterator connect(
    basic_socket<Protocol, Executor>& s, Iterator begin, ConnectCondition connect_condition,
    std::enable_if_t<detail::is_iterator_connect_condition_v<Iterator, ConnectCondition>, int> = 0)
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
// `cancel()`) moves on to the next endpoint, as Asio's does. The first form's doc comment
// says so in full, for the reference; the others forward to it and refer to it.

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
    std::enable_if_t<detail::is_sequence_connect_condition_v<EndpointSequence, ConnectCondition>,
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

    @par Errors and per-operation cancellation
    As for the endpoint sequence form above (`not_found` when no endpoint was tried;
    `terminal` and `partial` cancellation stop it with `operation_aborted`). */
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
    resolver results) that accepts the connection. Equivalent to the form with a
    `connect_condition` (above), given one that accepts every endpoint; see that overload
    for the errors (`not_found` for an empty sequence) and cancellation.

    @param s The socket; it must stay alive until the handler is invoked.
    @param endpoints The endpoints to try, in order; copied.
    @param token The completion token that makes the handler.

    @par Completion signature
    @code void(boost::system::error_code ec, typename Protocol::endpoint connected) @endcode

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
    std::enable_if_t<
        detail::is_endpoint_sequence_v<EndpointSequence> &&
            !detail::is_sequence_connect_condition_v<EndpointSequence, RangeConnectToken>,
        int> = 0) -> decltype(asio_notify::async_connect(s, endpoints, detail::connect_to_any(),
                                                         std::forward<RangeConnectToken>(token)))
{
  return asio_notify::async_connect(s, endpoints, detail::connect_to_any(),
                                    std::forward<RangeConnectToken>(token));
}

/** Start an asynchronous connect of `s` to the first endpoint of [begin, end) that accepts
    the connection. Equivalent to the [begin, end) form with a `connect_condition` (above),
    given one that accepts every endpoint; see that overload for `connected` on failure, the
    errors (`not_found` for an empty range) and cancellation.

    @param s The socket; it must stay alive until the handler is invoked.
    @param begin The first endpoint to try.
    @param end The end of the endpoints; the iterators must stay valid until the handler
    is invoked.
    @param token The completion token that makes the handler.

    @par Completion signature
    @code void(boost::system::error_code ec, Iterator connected) @endcode */
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
    iterators) that accepts the connection. Equivalent to
    `async_connect(s, begin, Iterator(), token)`; see the [begin, end) form with a
    `connect_condition` for the errors and cancellation.

    @param s The socket; it must stay alive until the handler is invoked.
    @param begin The first endpoint to try.
    @param token The completion token that makes the handler.

    @par Completion signature
    @code void(boost::system::error_code ec, Iterator connected) @endcode
    As for [begin, end), the end being `Iterator()`. */
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
    `connect_condition` accepts and that accepts the connection. Equivalent to
    `async_connect(s, begin, Iterator(), connect_condition, token)`; see that overload for
    the errors and cancellation.

    @param s The socket; it must stay alive until the handler is invoked.
    @param begin The first endpoint to try.
    @param connect_condition Called before each attempt, as for the [begin, end) form.
    @param token The completion token that makes the handler.

    @par Completion signature
    @code void(boost::system::error_code ec, Iterator connected) @endcode */
template <class Protocol, class Executor, class Iterator, class ConnectCondition,
          BOOST_ASIO_COMPLETION_TOKEN_FOR(detail::iterator_connect_signature<Iterator>)
              IteratorConnectToken = boost::asio::default_completion_token_t<Executor>>
auto async_connect(
    basic_socket<Protocol, Executor>& s, Iterator begin, ConnectCondition connect_condition,
    IteratorConnectToken&& token = boost::asio::default_completion_token_t<Executor>(),
    std::enable_if_t<detail::is_iterator_connect_condition_v<Iterator, ConnectCondition>, int> = 0)
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
