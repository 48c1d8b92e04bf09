//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What the I/O objects' overloads are told apart by (executors, execution contexts, tokens
// and convertible sockets, as Asio's constraints tell them), and the body of their
// throwing forms.
#ifndef BOOST_ASIO_NOTIFY_DETAIL_IO_OBJECT_TRAITS_HPP
#define BOOST_ASIO_NOTIFY_DETAIL_IO_OBJECT_TRAITS_HPP

#include <boost/asio/execution/executor.hpp>
#include <boost/asio/execution_context.hpp>
#include <boost/asio/is_executor.hpp>
#include <boost/system/system_error.hpp>
#include <boost/throw_exception.hpp>

#include <type_traits>
#include <utility>

namespace boost {
namespace asio_notify {
namespace detail {

/// @cond

/// Throw `system_error` for a failed throwing overload.
inline void throw_if(const boost::system::error_code& ec, const char* what)
{
  if (ec)
    boost::throw_exception(boost::system::system_error(ec, what));
}

/// The body of a throwing overload: runs its `error_code&` form (`attempt`) and throws
/// `system_error` naming `what` on failure; returns what that form returns.
template <class Attempt>
auto or_throw(const char* what, Attempt&& attempt)
{
  boost::system::error_code ec;
  if constexpr (std::is_void<decltype(attempt(ec))>::value)
  {
    attempt(ec);
    throw_if(ec, what);
  }
  else
  {
    auto result = attempt(ec);
    throw_if(ec, what);
    return result;
  }
}

/// True for types that can provide an executor for an I/O object: execution contexts.
template <class T>
constexpr bool is_context_v = std::is_convertible<T&, boost::asio::execution_context&>::value;

/// Enables the constructors that take an execution context instead of an executor.
template <class T>
using if_context_t = std::enable_if_t<is_context_v<T>>;

/// What an I/O object's `rebind_executor<Executor1>` gives: `other`, the rebound type.
template <class Rebound>
struct rebound
{
  using other = Rebound;
};

/// True for executors (standard or Networking TS style), as Asio's overloads constrain them.
template <class T>
constexpr bool is_executor_v =
    boost::asio::execution::is_executor<T>::value || boost::asio::is_executor<T>::value;

/// True where a socket of `Protocol1` and `Executor1` may become one of `Protocol` and
/// `Executor` by a converting move (Asio's constraint).
template <class Protocol1, class Executor1, class Protocol, class Executor>
constexpr bool is_convertible_socket_v = std::is_convertible<Protocol1, Protocol>::value&&
    std::is_convertible<Executor1, Executor>::value;

/// Enables the forms that take an executor or an execution context for a new socket.
template <class T>
using if_executor_or_context_t =
    std::enable_if_t<is_executor_v<std::decay_t<T>> || is_context_v<std::remove_reference_t<T>>>;

/// The executor for a new socket: `ex` itself (not copied), or an execution context's
/// `get_executor()`.
template <class T>
decltype(auto) executor_of(T& ex)
{
  if constexpr (is_context_v<T>)
    return ex.get_executor();
  else
    return static_cast<const T&>(ex);
}

/// The executor type `executor_of` gives for an argument of type `T`.
template <class T>
using executor_of_t =
    std::decay_t<decltype(executor_of(std::declval<std::remove_reference_t<T>&>()))>;

/// Enables a converting move (Asio's constraint, `is_convertible_socket_v`).
template <class Protocol1, class Executor1, class Protocol, class Executor>
using if_convertible_socket_t =
    std::enable_if_t<is_convertible_socket_v<Protocol1, Executor1, Protocol, Executor>>;

/// True for what may be a completion token where an executor, an execution context or an
/// endpoint could also stand: the overloads taking those must win.
template <class T, class Endpoint>
constexpr bool is_token_v =
    !is_context_v<std::remove_reference_t<T>> && !is_executor_v<std::decay_t<T>> &&
    !std::is_same<std::decay_t<T>, Endpoint>::value;

/// @endcond

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
