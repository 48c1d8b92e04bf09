//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The adversarial port on real sockets: each kind is counted only where it really happened
// (one kind at a time, the others stay at 0), and it never breaks the port's own promises:
// an infinite wait returns packets, never 0 (doc/port_contract.md, "The adversarial port").
#include "sockets.hpp"
#include "port_helpers.hpp"

#include <boost/asio_notify/adversary.hpp>

#include <boost/test/unit_test.hpp>

#include <array>
#include <cstdint>
#include <vector>

using namespace port_test;
using an::events;
using std::chrono::milliseconds;

namespace {

// The kinds an adversarial port over a real backend produces (the PSN double's own aside).
constexpr std::array<an::adversity, 8> port_kinds = {
    an::adversity::stale_after_change, an::adversity::duplicate,
    an::adversity::split_batch,        an::adversity::early_wakeup,
    an::adversity::delayed_remove,     an::adversity::lost_remove,
    an::adversity::error_without_out,  an::adversity::failed_call_took_effect};

std::size_t index_of(an::adversity a)
{
  std::size_t i = 0;
  for (auto bits = static_cast<std::uint32_t>(a); bits > 1; bits >>= 1)
    ++i;
  return i;
}

// Whether a kind is also produced by the system's test double in this run (the PSN double
// under BOOST_ASIO_NOTIFY_ADVERSARY), whose counts are the same process-wide ones.
bool counted_elsewhere(an::adversity a)
{
  return (static_cast<std::uint32_t>(an::adversary_from_environment().kinds) &
          static_cast<std::uint32_t>(a)) != 0;
}

an::port adversarial_port(an::adversity kinds, std::uint64_t seed)
{
  an::adversary_options o;
  o.kinds = kinds;
  o.seed = seed;
  return an::port(an::port_backend::automatic, o);
}

// Ends a connection with a reset, so that the peer's write registration reports an error.
void reset_connection(unique_socket& s)
{
  linger l{};
  l.l_onoff = 1;
  l.l_linger = 0;
  ::setsockopt(s.get(), SOL_SOCKET, SO_LINGER, reinterpret_cast<const char*>(&l), sizeof(l));
  s.reset();
}

// Gives every kind its chance: sockets that stay readable (level, persistent), registrations
// changed in batches while packets are out, timed waits, small and large batches, a reset
// seen by a write registration, and removes.
void give_every_kind_a_chance(an::port& p)
{
  std::vector<tcp_pair> pairs;
  for (int i = 0; i < 8; ++i)
    pairs.push_back(make_tcp_pair());
  std::vector<an::registration> enables;
  for (tcp_pair& t : pairs)
    enables.push_back(enable(t.server.native(), &t, events::in));
  boost::system::error_code ec;
  p.apply(enables, ec); // a failed call took effect in part at most: the next batch redoes it
  for (tcp_pair& t : pairs)
    BOOST_TEST_REQUIRE(::send(t.client.get(), "x", 1, 0) == 1);
  for (int round = 0; round < 30; ++round)
  {
    dequeue_once(p, milliseconds(20), round % 2 == 0 ? 3 : 16);
    if (round % 3 == 0)
      p.apply(enables, ec);
  }
  tcp_pair reset = make_tcp_pair();
  BOOST_TEST_REQUIRE(!apply(p, enable(reset.server.native(), &reset, events::out)));
  reset_connection(reset.client);
  collect_for(p, milliseconds(100));
  std::vector<an::registration> removes;
  for (tcp_pair& t : pairs)
    removes.push_back(remove(t.server.native(), &t));
  removes.push_back(remove(reset.server.native(), &reset));
  p.apply(removes, ec);
  collect_for(p, milliseconds(300));
}

} // namespace

BOOST_AUTO_TEST_SUITE(port_adversary)

// Each kind alone: it occurs (where the platform gives it a packet to act on), and no other
// kind's count moves. A packet kept back only because it did not fit a batch is no stale
// packet, whatever the registration did meanwhile.
BOOST_AUTO_TEST_CASE(each_kind_alone_counts_only_itself)
{
  std::uint64_t seed = 1;
  for (an::adversity kind : port_kinds)
  {
    BOOST_TEST_CONTEXT("adversity " << an::to_string(kind))
    {
      const an::adversity_counts before = an::adversity_statistics();
      {
        an::port p = adversarial_port(kind, seed++);
        give_every_kind_a_chance(p);
      }
      const an::adversity_counts after = an::adversity_statistics();
      for (an::adversity other : port_kinds)
        if (other != kind && !counted_elsewhere(other))
          BOOST_TEST(after[index_of(other)] == before[index_of(other)], an::to_string(other)
                                                                            << " counted");
#if defined(_WIN32)
      // Windows reports a reset as an error without OUT already (test/reactor/CMakeLists.txt).
      if (kind == an::adversity::error_without_out)
        continue;
#endif
      BOOST_TEST(after[index_of(kind)] > before[index_of(kind)], "never occurred");
    }
  }
}

// An infinite wait returns packets: not early, and not empty while packets it keeps back
// (copies, stale ones, the rest of a split batch) are not yet due.
BOOST_AUTO_TEST_CASE(an_infinite_wait_never_returns_zero)
{
  an::port p = adversarial_port(an::adversity::duplicate | an::adversity::stale_after_change |
                                    an::adversity::split_batch | an::adversity::early_wakeup,
                                7);
  tcp_pair t = make_tcp_pair();
  BOOST_TEST_REQUIRE(::send(t.client.get(), "x", 1, 0) == 1);
  int key = 0;
  for (int i = 0; i < 200; ++i)
  {
    BOOST_TEST_REQUIRE(!apply(p, enable(t.server.native(), &key, events::in, level_oneshot)));
    std::array<an::packet, 1> out;
    boost::system::error_code ec;
    const std::size_t n = p.dequeue(out, an::port::infinite, ec);
    BOOST_TEST_REQUIRE(!ec);
    BOOST_TEST_REQUIRE(n == 1u, "an infinite wait returned " << n << " in wait " << i);
  }
  // User packets only, posted while the wait blocks.
  for (int i = 0; i < 20; ++i)
  {
    delayed post(milliseconds(2), [&] { p.post(&key, 7); });
    std::array<an::packet, 4> out;
    boost::system::error_code ec;
    BOOST_TEST_REQUIRE(p.dequeue(out, an::port::infinite, ec) > 0u);
    BOOST_TEST_REQUIRE(!ec);
  }
}

BOOST_AUTO_TEST_SUITE_END()
