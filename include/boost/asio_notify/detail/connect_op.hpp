//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The machinery behind connect.hpp's free connect and async_connect: telling a connect
// condition from a completion token, the position in the endpoints (iterators or an
// endpoint sequence), the synchronous loop and the composed operation.
#ifndef BOOST_ASIO_NOTIFY_DETAIL_CONNECT_OP_HPP
#define BOOST_ASIO_NOTIFY_DETAIL_CONNECT_OP_HPP

#include <boost/asio_notify/basic_socket.hpp>

#include <boost/asio/async_result.hpp>
#include <boost/asio/cancellation_type.hpp>
#include <boost/asio/compose.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/post.hpp>

#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>

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

/// Whether `T` is a connect condition for the endpoints of `Sequence`, an endpoint sequence
/// (false, not an error, for anything else): what picks a range form with a condition,
/// free (connect.hpp) or beast::basic_stream's, over one with a token.
template <class Sequence, class T, class = void>
struct is_sequence_connect_condition : std::false_type
{
};

template <class Sequence, class T>
struct is_sequence_connect_condition<Sequence, T,
                                     std::enable_if_t<is_endpoint_sequence_v<Sequence>>>
    : std::bool_constant<is_connect_condition_v<T, sequence_iterator_t<Sequence>>>
{
};

template <class Sequence, class T>
inline constexpr bool is_sequence_connect_condition_v =
    is_sequence_connect_condition<Sequence, T>::value;

/// Whether `T` is a connect condition for `Iterator`, which is no endpoint sequence (a
/// sequence and a condition are never read as an iterator and a condition): the forms that
/// take a lone `begin`, or beast::basic_stream's [begin, end), with a condition.
template <class Iterator, class T>
inline constexpr bool is_iterator_connect_condition_v =
    !is_endpoint_sequence_v<Iterator> && is_connect_condition_v<T, Iterator>;

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
} // namespace asio_notify
} // namespace boost

#endif
