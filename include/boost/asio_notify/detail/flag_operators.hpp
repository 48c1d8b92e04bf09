//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
#ifndef BOOST_ASIO_NOTIFY_DETAIL_FLAG_OPERATORS_HPP
#define BOOST_ASIO_NOTIFY_DETAIL_FLAG_OPERATORS_HPP

#include <type_traits>

namespace boost {
namespace asio_notify {
namespace detail {

// Opt-in trait: a scoped enum of single-bit values gets the bitwise operators below.
template <class E>
struct is_flag_set : std::false_type
{
};

template <class E>
using enable_flags_t = std::enable_if_t<is_flag_set<E>::value, E>;

template <class E>
constexpr auto to_bits(E e) noexcept
{
  return static_cast<std::underlying_type_t<E>>(e);
}

} // namespace detail

template <class E>
constexpr detail::enable_flags_t<E> operator|(E a, E b) noexcept
{
  return static_cast<E>(detail::to_bits(a) | detail::to_bits(b));
}

template <class E>
constexpr detail::enable_flags_t<E> operator&(E a, E b) noexcept
{
  return static_cast<E>(detail::to_bits(a) & detail::to_bits(b));
}

template <class E>
constexpr detail::enable_flags_t<E> operator^(E a, E b) noexcept
{
  return static_cast<E>(detail::to_bits(a) ^ detail::to_bits(b));
}

template <class E>
constexpr detail::enable_flags_t<E> operator~(E a) noexcept
{
  return static_cast<E>(~detail::to_bits(a));
}

template <class E>
constexpr detail::enable_flags_t<E>& operator|=(E& a, E b) noexcept
{
  return a = a | b;
}

template <class E>
constexpr detail::enable_flags_t<E>& operator&=(E& a, E b) noexcept
{
  return a = a & b;
}

/// True when `set` contains every bit of `bits` (and `bits` is not empty).
template <class E>
constexpr std::enable_if_t<detail::is_flag_set<E>::value, bool> has_all(E set, E bits) noexcept
{
  return detail::to_bits(bits) != 0 && (set & bits) == bits;
}

/// True when `set` and `bits` share at least one bit.
template <class E>
constexpr std::enable_if_t<detail::is_flag_set<E>::value, bool> has_any(E set, E bits) noexcept
{
  return detail::to_bits(set & bits) != 0;
}

} // namespace asio_notify
} // namespace boost

#endif
