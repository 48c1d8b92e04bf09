//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    The flag sets of the notification port: `events` (socket conditions), `operation` (what
    a registration entry does) and `trigger` (how a registration produces packets), with
    their bitwise operators. The values are the Windows `SOCK_NOTIFY_*` constants
    (doc/port_contract.md). */
#ifndef BOOST_ASIO_NOTIFY_FLAGS_HPP
#define BOOST_ASIO_NOTIFY_FLAGS_HPP

#include <boost/asio_notify/detail/flag_operators.hpp>

#include <cstdint>

namespace boost {
namespace asio_notify {

/** Socket conditions: the filter of a registration and the events of a notification packet.
    The values are those of the Windows `SOCK_NOTIFY_*` constants. A set of conditions is
    made with `|` and tested with `has_any` and `has_all`.

    @par Example
    @code
    using boost::asio_notify::events;
    events filter = events::in | events::hangup;
    if (has_any(packet.events, events::in | events::hangup))
      read_what_is_there();
    @endcode */
enum class events : std::uint16_t
{
  none = 0x00,   ///< No condition.
  in = 0x01,     ///< Readable without blocking, or a connection is waiting to be accepted.
  out = 0x02,    ///< Writable without blocking, or a connect has finished.
  hangup = 0x04, ///< The connection was terminated (never reported for UDP sockets).
  error = 0x40,  ///< The socket has an error condition; reported whatever the filter.
  remove = 0x80  ///< The registration is gone; the last packet of a registration.
};

/// The conditions a registration's filter may contain (`in | out | hangup`); `error` and
/// `remove` are reported without being asked for and are not valid in a filter.
constexpr events filter_events = static_cast<events>(0x07);

/// What a registration entry does to a socket's registration on a port: exactly one of
/// `enable`, `disable` and `remove` per entry.
enum class operation : std::uint8_t
{
  none = 0x00,    ///< Nothing; not valid in a registration entry.
  enable = 0x01,  ///< Create the registration, or overwrite it (filter and trigger) and re-arm it.
  disable = 0x02, ///< Keep the registration but queue no packets until enabled again.
  remove = 0x04   ///< Drop the registration; exactly one `events::remove` packet follows.
};

/** How a registration produces packets. An enabled registration names exactly one of
    `level` and `edge`, and at most one of `oneshot` and `persistent` (neither means
    `persistent`); `validate` refuses other combinations with `invalid_argument`.

    @par Example
    @code
    r.triggers = boost::asio_notify::trigger::level | boost::asio_notify::trigger::oneshot;
    @endcode */
enum class trigger : std::uint8_t
{
  none = 0x00,       ///< No trigger; not valid for `operation::enable`.
  oneshot = 0x01,    ///< After one packet the registration is disabled until enabled again.
  persistent = 0x02, ///< The registration stays enabled after a packet.
  level = 0x04,      ///< Packets are queued while a condition holds.
  edge = 0x08        ///< A packet is queued when a condition changes to true.
};

/// @cond
namespace detail {
template <>
struct is_flag_set<events> : std::true_type
{
};
template <>
struct is_flag_set<operation> : std::true_type
{
};
template <>
struct is_flag_set<trigger> : std::true_type
{
};
} // namespace detail
/// @endcond

// The bitwise operators and has_any/has_all for the three flag sets above are
// declared, and documented, in detail/flag_operators.hpp.

} // namespace asio_notify
} // namespace boost

#endif
