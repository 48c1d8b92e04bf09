//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Registration builders and dequeue helpers shared by the port's conformance tests.
#ifndef BOOST_ASIO_NOTIFY_TEST_PORT_PORT_HELPERS_HPP
#define BOOST_ASIO_NOTIFY_TEST_PORT_PORT_HELPERS_HPP

#include "sockets.hpp"
#include "support/wine.hpp"

#include <boost/asio_notify/port.hpp>
#include <boost/asio/error.hpp>
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <functional>
#include <optional>
#include <ostream>
#include <thread>
#include <vector>

namespace boost {
namespace asio_notify {

// Readable test diagnostics (found by Boost.Test through ADL).
inline std::ostream& boost_test_print_type(std::ostream& os, events e)
{
  const unsigned bits = static_cast<unsigned>(e);
  if (bits == 0)
    return os << "none";
  const char* names[] = {"in", "out", "hangup", "0x08", "0x10", "0x20", "error", "remove"};
  const char* sep = "";
  for (unsigned i = 0; i < 8; ++i)
    if (bits & (1u << i))
    {
      os << sep << names[i];
      sep = "|";
    }
  return os;
}

inline std::ostream& boost_test_print_type(std::ostream& os, packet_kind k)
{
  return os << (k == packet_kind::user ? "user" : "notification");
}

inline std::ostream& boost_test_print_type(std::ostream& os, const packet& p)
{
  os << "{key " << p.key << ", ";
  boost_test_print_type(os, p.kind);
  os << ", events ";
  boost_test_print_type(os, p.events);
  return os << ", value " << p.value << "}";
}

} // namespace asio_notify
} // namespace boost

namespace port_test {

namespace an = boost::asio_notify;
using std::chrono::milliseconds;
using clock_type = std::chrono::steady_clock;

/// How long to wait for a packet that must arrive (generous: never the cause of a failure).
constexpr milliseconds must_arrive{5000};
/// How long to watch for a packet that must not arrive.
constexpr milliseconds quiet{60};

constexpr an::trigger level = an::trigger::level | an::trigger::persistent;
constexpr an::trigger level_oneshot = an::trigger::level | an::trigger::oneshot;
constexpr an::trigger edge = an::trigger::edge | an::trigger::persistent;

inline an::registration enable(an::native_socket_type s, void* key, an::events filter,
                               an::trigger triggers = level)
{
  an::registration r;
  r.socket = s;
  r.key = key;
  r.filter = filter;
  r.operation = an::operation::enable;
  r.triggers = triggers;
  return r;
}

/// A one-shot level enable of `filter` that says none of it held since the last packet
/// (`registration::unready`), or only `unready` of it.
inline an::registration hinted_enable(an::native_socket_type s, void* key, an::events filter,
                                      an::events unready)
{
  an::registration r = enable(s, key, filter, level_oneshot);
  r.unready = unready;
  return r;
}

inline an::registration hinted_enable(an::native_socket_type s, void* key, an::events filter)
{
  return hinted_enable(s, key, filter, filter);
}

/// What most cases start with (BOOST_FIXTURE_TEST_CASE): a port on the default backend and
/// a connected TCP pair.
struct port_and_pair
{
  an::port p;
  tcp_pair c = make_tcp_pair();
};

/// The handle of a socket made and closed at once: no socket now (until the system hands the
/// number out again).
inline an::native_socket_type closed_handle()
{
  unique_socket s = make_socket(SOCK_STREAM);
  const an::native_socket_type closed = s.native();
  s.reset();
  return closed;
}

/// An entry that asks for no events: what disable and remove take.
inline an::registration eventless(an::native_socket_type s, void* key, an::operation operation)
{
  an::registration r;
  r.socket = s;
  r.key = key;
  r.operation = operation;
  return r;
}

inline an::registration disable(an::native_socket_type s, void* key)
{
  return eventless(s, key, an::operation::disable);
}

inline an::registration remove(an::native_socket_type s, void* key)
{
  return eventless(s, key, an::operation::remove);
}

/// Applies one entry and returns its result.
inline boost::system::error_code apply(an::port& p, an::registration r) { return p.apply(r); }

/// Rule 1's refusal of a socket registered with another port: Asio's `already_open` on
/// Linux; on Windows whatever ProcessSocketNotifications returns (undocumented), so any error.
inline bool refused_by_other_port(const boost::system::error_code& ec)
{
#if defined(_WIN32)
  return static_cast<bool>(ec);
#else
  return ec == boost::asio::error::already_open;
#endif
}

/// Rule 2's answer to ENABLE with another key on a live registration. The emulations (epoll,
/// AFD) refuse it with `invalid_argument`. For ProcessSocketNotifications Microsoft says only
/// "to change it, remove and re-register": refused or ignored, so there any error passes, and
/// so does success (ignored: the registration is enabled again, still with its old key).
inline bool key_change_refused_or_ignored(const an::port& p, const boost::system::error_code& ec)
{
  if (p.backend() == an::port_backend::psn)
    return true;
  return ec == boost::asio::error::invalid_argument;
}

/// Whether the readiness behind `p` comes from AFD polls: the AFD backend, or the PSN
/// backend where the system has no ProcessSocketNotifications, so that the tests' double
/// (test/windows/psn_double.hpp, built on the AFD backend's engine) stands in for it.
inline bool afd_readiness(const an::port& p)
{
  if (p.backend() == an::port_backend::afd)
    return true;
#if defined(_WIN32)
  const HMODULE ws2 = ::GetModuleHandleW(L"ws2_32.dll");
  const bool system_psn = ws2 && ::GetProcAddress(ws2, "ProcessSocketNotifications") != nullptr;
  return p.backend() == an::port_backend::psn && !system_psn;
#else
  return false;
#endif
}

/// Wine's AFD (8.0) reports a peer's disconnect only once the data that came before it has
/// been read (doc/windows.md, "The AFD backend": under Wine 8.0): the one known gap of AFD readiness
/// under Wine. True exactly where that gap applies, so tests mark that case and no other.
inline bool disconnect_waits_for_unread_data(const an::port& p)
{
  return under_wine() && afd_readiness(p);
}

/// Checks what every packet must satisfy: a notification names at least one condition and
/// nothing but the known bits.
inline void check_well_formed(const an::packet& pk)
{
  if (pk.kind == an::packet_kind::notification)
  {
    BOOST_TEST(pk.events != an::events::none, "notification without events: " << pk.key);
    constexpr an::events known = an::filter_events | an::events::error | an::events::remove;
    BOOST_TEST(!an::has_any(pk.events, ~known), "unknown event bits for key " << pk.key);
  }
}

/// One dequeue call with room for `capacity` packets.
inline std::vector<an::packet> dequeue_once(an::port& p, milliseconds timeout,
                                            std::size_t capacity = 16)
{
  std::vector<an::packet> out(capacity);
  boost::system::error_code ec;
  const std::size_t n = p.dequeue(out, timeout, ec);
  BOOST_TEST_REQUIRE(!ec, "dequeue failed: " << ec.message());
  BOOST_TEST_REQUIRE(n <= capacity);
  out.resize(n);
  for (const an::packet& pk : out)
    check_well_formed(pk);
  return out;
}

/// Dequeues one packet, or nothing when `timeout` expires.
inline std::optional<an::packet> dequeue_one(an::port& p, milliseconds timeout = must_arrive)
{
  std::vector<an::packet> v = dequeue_once(p, timeout, 1);
  if (v.empty())
    return std::nullopt;
  return v.front();
}

/// Keeps dequeuing for `duration`, calling `between` before every call (e.g. to make more
/// data arrive); returns everything dequeued.
inline std::vector<an::packet> collect_for(an::port& p, milliseconds duration,
                                           const std::function<void()>& between = {})
{
  std::vector<an::packet> all;
  const auto end = clock_type::now() + duration;
  for (;;)
  {
    const auto now = clock_type::now();
    if (now >= end)
      return all;
    if (between)
      between();
    const auto step = std::min<milliseconds>(std::chrono::duration_cast<milliseconds>(end - now) +
                                                 milliseconds(1),
                                             between ? milliseconds(20) : duration);
    for (const an::packet& pk : dequeue_once(p, step))
      all.push_back(pk);
  }
}

/// Asserts that no packet arrives for `duration` (while `between` keeps running).
inline void expect_nothing(an::port& p, milliseconds duration = quiet,
                           const std::function<void()>& between = {})
{
  const std::vector<an::packet> got = collect_for(p, duration, between);
  BOOST_TEST(got.empty(), "expected no packet, got " << got.size());
  for (const an::packet& pk : got)
    BOOST_TEST_MESSAGE("unexpected packet " << pk.key << " events "
                                            << static_cast<unsigned>(pk.events) << " kind "
                                            << static_cast<unsigned>(pk.kind));
}

/// Dequeues one packet that must arrive, and checks it is a notification for `key`.
inline an::packet expect_notification(an::port& p, void* key, milliseconds timeout = must_arrive)
{
  std::optional<an::packet> pk = dequeue_one(p, timeout);
  BOOST_TEST_REQUIRE(pk.has_value(), "no packet arrived for key " << key);
  BOOST_TEST(pk->kind == an::packet_kind::notification);
  BOOST_TEST(pk->key == key);
  return *pk;
}

/// The same, also checking the packet's events exactly.
inline an::packet expect_notification(an::port& p, void* key, an::events expected,
                                      milliseconds timeout = must_arrive)
{
  an::packet pk = expect_notification(p, key, timeout);
  BOOST_TEST(pk.events == expected);
  return pk;
}

/// Dequeues until the `remove` packet of `key` (other packets for `key` may come first:
/// they were queued before the remove); fails when it does not arrive.
inline void expect_remove(an::port& p, void* key)
{
  const auto end = clock_type::now() + must_arrive;
  while (clock_type::now() < end)
  {
    std::optional<an::packet> pk = dequeue_one(p, must_arrive);
    BOOST_TEST_REQUIRE(pk.has_value(), "no remove packet for key " << key);
    BOOST_TEST(pk->key == key, "packet for another key before the remove packet");
    BOOST_TEST(pk->kind == an::packet_kind::notification);
    if (an::has_any(pk->events, an::events::remove))
    {
      BOOST_TEST(pk->events == an::events::remove);
      return;
    }
  }
  BOOST_FAIL("no remove packet for key " << key);
}

/// Whether an edge condition that keeps holding may be reported again: on AFD readiness,
/// which cannot tell "still unread" from "drained, then more arrived" and so re-reports a
/// condition that held past a resample delay (src/port/win/afd_engine.cpp) rather than lose a rise.
inline bool held_edge_may_repeat(const an::port& p) { return afd_readiness(p); }

/// Rule 8's "nothing new, no packet" while `held` still holds for `key`: nothing at all, or
/// where held_edge_may_repeat, nothing but repeats of `held` for `key`.
inline void expect_no_new_edge(an::port& p, void* key, an::events held)
{
  if (!held_edge_may_repeat(p))
    return expect_nothing(p);
  for (const an::packet& pk : collect_for(p, quiet))
  {
    BOOST_TEST(pk.key == key);
    BOOST_TEST(pk.kind == an::packet_kind::notification);
    BOOST_TEST(!an::has_any(pk.events, ~held),
               "a new condition while " << static_cast<unsigned>(held)
                                        << " held: " << static_cast<unsigned>(pk.events));
  }
}

inline bool within(an::events e, an::events allowed) { return !an::has_any(e, ~allowed); }

/// Runs `f` on a thread after `delay`; joins on destruction.
class delayed
{
public:
  template <class F>
  delayed(milliseconds delay, F f)
      : t_([delay, f]() mutable {
          std::this_thread::sleep_for(delay);
          f();
        })
  {
  }
  ~delayed() { t_.join(); }
  delayed(const delayed&) = delete;
  delayed& operator=(const delayed&) = delete;

private:
  std::thread t_;
};

/// Milliseconds elapsed since `start` (a number, so Boost.Test can print it).
inline long long ms_since(clock_type::time_point start)
{
  return std::chrono::duration_cast<milliseconds>(clock_type::now() - start).count();
}

} // namespace port_test

#endif
