//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// One registration of the AFD engine (afd_engine.cpp): the memory its poll in flight is
// written to, the lists of registrations the engine keeps without allocating, the events it
// asks AFD for, and how AFD's and WSAPoll's answers read as the contract's events.
#ifndef BOOST_ASIO_NOTIFY_SRC_PORT_WIN_AFD_REGISTRATION_HPP
#define BOOST_ASIO_NOTIFY_SRC_PORT_WIN_AFD_REGISTRATION_HPP

#include "afd.hpp"
#include "system.hpp"

#include <boost/asio_notify/port.hpp>

#include <algorithm>
#include <type_traits>
#include <vector>

namespace boost {
namespace asio_notify {
namespace detail {
namespace win {

// What happens to a registration's poll when it completes.
enum class fate
{
  live,    // report what it found and poll again as the registration asks
  removed, // it becomes the REMOVE packet, then the registration is freed
  dropped  // the registration is freed silently (closed socket, stale handle, port closing)
};

struct afd_registration
{
  // The memory the kernel writes while a poll is in flight. The IO_STATUS_BLOCK comes first:
  // the completion's lpOverlapped points at it, and so at the registration.
  IO_STATUS_BLOCK iosb{};
  afd_poll_info info{};

  HANDLE helper = nullptr;        // the AFD helper the polls are issued on (the site's)
  SOCKET socket = INVALID_SOCKET; // as registered
  SOCKET base = INVALID_SOCKET;   // as AFD knows it
  socket_identity identity;
  void* key = nullptr;
  events filter = events::none;
  trigger triggers = trigger::none;
  bool enabled = false;
  events reported = events::none; // edge: reported and not yet seen false
  ULONGLONG reported_at_ms = 0;   // edge: when what `reported` holds was first reported
  unsigned repeats = 0;           // edge: reports since a fall was last seen
  fate end = fate::live;
  bool in_flight = false;
  bool cancel_sent = false;
  ULONG in_flight_mask = 0;
  bool watched = false;  // in the engine's edge_watch_
  bool rearming = false; // in the engine's rearm_

  bool edge() const noexcept { return has_any(triggers, trigger::edge); }
  bool oneshot() const noexcept { return has_any(triggers, trigger::oneshot); }
};
static_assert(std::is_standard_layout<afd_registration>::value,
              "a completion's lpOverlapped is converted back to its registration");

inline afd_registration* registration_of(LPOVERLAPPED o) noexcept
{
  return reinterpret_cast<afd_registration*>(o);
}

/** Registrations marked by one of their flags, in room reserved for every registration of
    the engine (reserve()), so that adding one on the dequeue path never allocates. */
class registration_list
{
public:
  explicit registration_list(bool afd_registration::*member) noexcept : member_(member) {}

  void reserve(std::size_t n) { items_.reserve(n); }

  void insert(afd_registration* reg) noexcept
  {
    if (reg->*member_)
      return;
    reg->*member_ = true;
    items_.push_back(reg); // within the reserved room
  }

  void erase(afd_registration* reg) noexcept
  {
    if (!(reg->*member_))
      return;
    reg->*member_ = false;
    items_.erase(std::find(items_.begin(), items_.end(), reg));
  }

  /// Copies every member into `out` (whose room is reserved too).
  void copy_to(std::vector<afd_registration*>& out) const noexcept
  {
    out.assign(items_.begin(), items_.end());
  }

  /// Moves every member into `out` (whose room is reserved too), unmarked.
  void take(std::vector<afd_registration*>& out) noexcept
  {
    copy_to(out);
    clear();
  }

  void clear() noexcept
  {
    for (afd_registration* reg : items_)
      reg->*member_ = false;
    items_.clear();
  }

  bool empty() const noexcept { return items_.empty(); }

private:
  std::vector<afd_registration*> items_;
  bool afd_registration::*member_;
};

// How long a reported edge condition may hold before it is reported again: the first delay,
// doubled after each repeat up to the last (see resample_delay_ms).
constexpr ULONGLONG edge_resample_first_ms = 10;
constexpr ULONGLONG edge_resample_last_ms = 1000;

// The AFD events a registration asks for now; 0 when it asks for nothing. A closed socket
// completes any poll (AFD_POLL_LOCAL_CLOSE), so every poll also learns of closes.
inline ULONG wanted_mask(const afd_registration& r) noexcept
{
  if (r.end != fate::live || !r.enabled)
    return 0;
  const events wanted = r.filter & ~r.reported;
  ULONG mask = afd_poll_local_close;
  if (!has_any(r.reported, events::error))
    mask |= afd_poll_abort | afd_poll_connect_fail; // rule 9: whatever the filter
  if (has_any(wanted, events::in))
    mask |= afd_poll_receive | afd_poll_accept | afd_poll_disconnect;
  if (has_any(wanted, events::out))
    mask |= afd_poll_send;
  if (has_any(wanted, events::hangup))
    mask |= afd_poll_disconnect | afd_poll_abort;
  return mask;
}

// What a completed poll found, as the contract's events (before the registration's filter).
// A reset (ABORT) makes every direction ready and is an error, as a reset socket is on
// epoll; a failed connect is an error without OUT (what Pony saw from PSN); a graceful
// disconnect makes the socket readable (end of stream) and hung up.
inline events to_events(ULONG afd) noexcept
{
  events e = events::none;
  if (afd & (afd_poll_receive | afd_poll_accept))
    e = e | events::in;
  if (afd & afd_poll_send)
    e = e | events::out;
  if (afd & afd_poll_disconnect)
    e = e | events::in | events::hangup;
  if (afd & afd_poll_abort)
    e = e | events::in | events::out | events::hangup | events::error;
  if (afd & afd_poll_connect_fail)
    e = e | events::error;
  return e;
}

// The conditions WSAPoll's answer says hold.
inline events holding(SHORT r) noexcept
{
  events e = events::none;
  if (r & (POLLRDNORM | POLLHUP | POLLERR))
    e = e | events::in;
  if (r & POLLWRNORM)
    e = e | events::out;
  if (r & POLLHUP)
    e = e | events::hangup;
  if (r & POLLERR)
    e = e | events::error;
  return e;
}

inline ULONGLONG resample_delay_ms(const afd_registration& reg) noexcept
{
  const unsigned doublings = std::min(reg.repeats, 7u); // 10 ms << 7 > 1 s
  return std::min(edge_resample_first_ms << doublings, edge_resample_last_ms);
}

} // namespace win
} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
