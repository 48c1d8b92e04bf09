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
/// @cond
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
/// @endcond

/** The union of two flag sets of the same type (`events`, `operation` or `trigger`).

    @param a A flag set.
    @param b Another flag set of the same type.
    @returns The flags of `a` and of `b`. */
template <class E>
constexpr detail::enable_flags_t<E> operator|(E a, E b) noexcept
{
  return static_cast<E>(detail::to_bits(a) | detail::to_bits(b));
}

/** The intersection of two flag sets of the same type (`events`, `operation` or `trigger`).

    @param a A flag set.
    @param b Another flag set of the same type.
    @returns The flags in both `a` and `b`. */
template <class E>
constexpr detail::enable_flags_t<E> operator&(E a, E b) noexcept
{
  return static_cast<E>(detail::to_bits(a) & detail::to_bits(b));
}

/** The symmetric difference of two flag sets of the same type.

    @param a A flag set.
    @param b Another flag set of the same type.
    @returns The flags in exactly one of `a` and `b`. */
template <class E>
constexpr detail::enable_flags_t<E> operator^(E a, E b) noexcept
{
  return static_cast<E>(detail::to_bits(a) ^ detail::to_bits(b));
}

/** The complement of a flag set: every bit of the underlying type not in `a` (so
    `has_any(filter, ~filter_events)` finds what a filter may not contain).

    @param a A flag set.
    @returns The flags not in `a`. */
template <class E>
constexpr detail::enable_flags_t<E> operator~(E a) noexcept
{
  return static_cast<E>(~detail::to_bits(a));
}

/** Add the flags of `b` to `a`.

    @param a The flag set to change.
    @param b The flags to add.
    @returns `a`. */
template <class E>
constexpr detail::enable_flags_t<E>& operator|=(E& a, E b) noexcept
{
  return a = a | b;
}

/** Keep in `a` only the flags that are also in `b`.

    @param a The flag set to change.
    @param b The flags to keep.
    @returns `a`. */
template <class E>
constexpr detail::enable_flags_t<E>& operator&=(E& a, E b) noexcept
{
  return a = a & b;
}

/** Whether `set` contains every flag of `bits`.

    @param set The flags to test.
    @param bits The flags looked for; an empty set is never contained.
    @returns True when `bits` is not empty and every one of its flags is in `set`. */
template <class E>
constexpr std::enable_if_t<detail::is_flag_set<E>::value, bool> has_all(E set, E bits) noexcept
{
  return detail::to_bits(bits) != 0 && (set & bits) == bits;
}

/** Whether `set` and `bits` have a flag in common.

    @param set The flags to test.
    @param bits The flags looked for.
    @returns True when at least one flag of `bits` is in `set`. */
template <class E>
constexpr std::enable_if_t<detail::is_flag_set<E>::value, bool> has_any(E set, E bits) noexcept
{
  return detail::to_bits(set & bits) != 0;
}

} // namespace asio_notify
} // namespace boost

#endif
