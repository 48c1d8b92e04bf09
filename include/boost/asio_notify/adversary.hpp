//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    The adversarial port: a port that produces, on purpose and counted, every behaviour of
    `ProcessSocketNotifications` that Microsoft's documentation does not rule out (stale,
    duplicated, split and late packets, early wake-ups, whole calls that fail after taking
    effect), over any backend. For testing code above the port, the reactor first of all
    (doc/port_contract.md, "The adversarial port"). */
#ifndef BOOST_ASIO_NOTIFY_ADVERSARY_HPP
#define BOOST_ASIO_NOTIFY_ADVERSARY_HPP

#include <boost/asio_notify/detail/config.hpp>
#include <boost/asio_notify/detail/flag_operators.hpp>

#include <array>
#include <cstdint>
#include <string>

namespace boost {
namespace asio_notify {

/** What an adversarial port may do; a set is made with `|`. Each is allowed by the
    contract (doc/port_contract.md says why for each). */
enum class adversity : std::uint32_t
{
  none = 0, ///< Nothing: a plain port.
  /// A packet dequeued before a `disable`, a re-`enable` or a filter change of its
  /// registration is delivered after it.
  stale_after_change = 1u << 0,
  /// A packet is delivered twice (a level condition that still held; an emulated edge
  /// reported again).
  duplicate = 1u << 1,
  /// Packets ready together are delivered by several dequeues.
  split_batch = 1u << 2,
  /// A wait with a timeout returns empty before its time, packets ready or not (the PSN test
  /// double: with `WAIT_TIMEOUT` or `ERROR_TIMEOUT`).
  early_wakeup = 1u << 3,
  /// A `remove` packet is delivered many dequeues after it was queued.
  delayed_remove = 1u << 4,
  /// A `remove` packet never comes (as for a socket closed without `remove`).
  lost_remove = 1u << 5,
  /// `error` without `out` (as PSN reports a failed connect).
  error_without_out = 1u << 6,
  /// A call with registrations fails as a whole after its entries took effect.
  failed_call_took_effect = 1u << 7,
  /// A failing entry reports its error in the other family (the PSN test double: NTSTATUS
  /// for Win32 and the reverse).
  entry_error_family = 1u << 8,
  /// Every kind above.
  all = (1u << 9) - 1
};

/// @cond
namespace detail {
template <>
struct is_flag_set<adversity> : std::true_type
{
};
} // namespace detail
/// @endcond

/// The number of kinds in `adversity` (its single bits).
constexpr std::size_t adversity_kinds = 9;

/// The name of a single kind (`stale_after_change`, `duplicate`, ...); `none` for a set.
BOOST_ASIO_NOTIFY_DECL const char* to_string(adversity a) noexcept;

/** Which adversities a port produces, and the seed of its choices. */
struct adversary_options
{
  /// The kinds produced; `none` makes a plain port.
  adversity kinds = adversity::none;
  /// The seed of every random choice; the same seed makes the same choices for the same
  /// sequence of calls (threads aside).
  std::uint64_t seed = 0;
};

/// The name of the environment variable read by `adversary_from_environment`.
constexpr const char* adversary_variable = "BOOST_ASIO_NOTIFY_ADVERSARY";

/** Options parsed from a specification such as `"all,seed=42"` or
    `"duplicate+split_batch"`: kinds joined with `+` (or `all`, or `none`), and an optional
    `seed=N`. Without a seed, one is drawn at random (see `adversary_options::seed`).

    @param spec The specification.
    @returns The options.
    @throws boost::system::system_error Thrown with `invalid_argument` for an unknown kind or
    a bad seed; the message names the variable and the bad part. */
BOOST_ASIO_NOTIFY_DECL adversary_options parse_adversary_options(const std::string& spec);

/** Options from `BOOST_ASIO_NOTIFY_ADVERSARY` (see `parse_adversary_options`); `kinds` is
    `none` when it is not set. Parsed once per process: every port that reads it gets the
    same seed, which `adversary_from_environment().seed` tells.

    @throws boost::system::system_error Thrown with `invalid_argument` for a bad value. */
BOOST_ASIO_NOTIFY_DECL adversary_options adversary_from_environment();

/// How often each kind has occurred in this process, by all adversarial ports together
/// (indexed by the bit's position: `stale_after_change` is 0).
using adversity_counts = std::array<std::uint64_t, adversity_kinds>;

/// A snapshot of the process-wide counts.
BOOST_ASIO_NOTIFY_DECL adversity_counts adversity_statistics() noexcept;

/// Count one occurrence of `a` (a single kind): for test doubles of system functions that
/// produce adversities of their own (the PSN test double).
BOOST_ASIO_NOTIFY_DECL void count_adversity(adversity a) noexcept;

} // namespace asio_notify
} // namespace boost

#endif
