//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The reclaimer behind REMOVE-synchronised teardown (src/state_reclaimer.hpp): an object
// retired while dequeue rounds run is freed only after those rounds, and no later.

#include "state_reclaimer.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <deque>
#include <random>
#include <thread>
#include <vector>

namespace an = boost::asio_notify::detail;

namespace {

struct object
{
  std::atomic<bool> freed{false};
};

struct freed_log
{
  std::vector<object*> order;
  void operator()(object* o)
  {
    BOOST_TEST(!o->freed.exchange(true), "freed twice");
    order.push_back(o);
  }
};

} // namespace

BOOST_AUTO_TEST_CASE(an_object_retired_while_no_round_runs_is_freed_at_once)
{
  freed_log log;
  an::state_reclaimer<object> reclaimer([&](object* o) { log(o); });
  object x;
  reclaimer.retire(&x);
  BOOST_TEST(x.freed);
  BOOST_TEST(reclaimer.waiting() == 0u);
}

BOOST_AUTO_TEST_CASE(an_object_waits_for_the_rounds_running_when_it_was_retired_only)
{
  freed_log log;
  an::state_reclaimer<object> reclaimer([&](object* o) { log(o); });
  object x;
  object y;
  const auto a = reclaimer.begin_round();
  reclaimer.retire(&x);
  BOOST_TEST(!x.freed);                   // round a may hold a packet for x
  const auto b = reclaimer.begin_round(); // began after x's retirement: cannot see x
  reclaimer.retire(&y);
  reclaimer.end_round(a);
  BOOST_TEST(x.freed);  // b does not hold x back
  BOOST_TEST(!y.freed); // but it does hold y
  reclaimer.end_round(b);
  BOOST_TEST(y.freed);
  BOOST_TEST(reclaimer.waiting() == 0u);
}

BOOST_AUTO_TEST_CASE(overlapping_rounds_never_starve_reclamation)
{
  // Rounds that always overlap (one begins before the other ends) must not keep retired
  // objects for ever: each object waits for the rounds that were running, not for a
  // moment when none runs.
  freed_log log;
  an::state_reclaimer<object> reclaimer([&](object* o) { log(o); });
  std::deque<object> objects(100);
  auto running = reclaimer.begin_round();
  for (object& o : objects)
  {
    reclaimer.retire(&o);
    const auto next = reclaimer.begin_round();
    reclaimer.end_round(running);
    running = next;
    BOOST_TEST(reclaimer.waiting() <= 1u);
  }
  reclaimer.end_round(running);
  BOOST_TEST(reclaimer.waiting() == 0u);
  BOOST_TEST(log.order.size() == objects.size());
}

BOOST_AUTO_TEST_CASE(threads_never_see_an_object_freed_during_their_round)
{
  // Readers take an object from a shared slot inside a round and check, at the end of the
  // round, that it is not freed yet; a writer replaces slot contents and retires what it
  // replaced, as the reactor retires a socket's state after its `remove` packet.
  constexpr std::size_t slots = 8;
  constexpr std::size_t replacements = 20000;
  // Counted, not checked here: Boost.Test's checks are not for other threads.
  std::atomic<std::size_t> freed_count{0};
  std::atomic<std::size_t> freed_twice{0};
  an::state_reclaimer<object> reclaimer([&](object* o) {
    if (o->freed.exchange(true))
      ++freed_twice;
    ++freed_count;
  });
  std::deque<object> pool(slots + replacements); // never deleted: a freed one stays readable
  std::array<std::atomic<object*>, slots> slot;
  for (std::size_t i = 0; i < slots; ++i)
    slot[i] = &pool[i];

  std::atomic<bool> done{false};
  std::atomic<std::size_t> violations{0};
  std::atomic<std::uint64_t> rounds{0};
  auto reader = [&](unsigned seed) {
    std::minstd_rand random(seed);
    while (!done.load())
    {
      const auto round = reclaimer.begin_round();
      object* held = slot[random() % slots].load();
      for (int spin = random() % 64; spin > 0; --spin)
        std::atomic_signal_fence(std::memory_order_seq_cst);
      if (held->freed.load())
        ++violations;
      reclaimer.end_round(round);
      ++rounds;
    }
  };
  std::vector<std::thread> readers;
  for (unsigned i = 0; i < 3; ++i)
    readers.emplace_back(reader, i + 1);
  // The readers' rounds are under way before the first replacement (on a busy machine the
  // writer could otherwise finish before any reader has run).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (rounds.load() < 3 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::yield();
  std::size_t bounded = 0;
  for (std::size_t i = 0; i < replacements; ++i)
  {
    object* old = slot[i % slots].exchange(&pool[slots + i]);
    reclaimer.retire(old);
    bounded = std::max(bounded, reclaimer.waiting());
  }
  done = true;
  for (std::thread& t : readers)
    t.join();

  BOOST_TEST(violations.load() == 0u);
  BOOST_TEST(rounds.load() >= 3u);
  BOOST_TEST(reclaimer.waiting() == 0u); // no round runs: everything retired is freed
  BOOST_TEST(freed_count.load() == replacements);
  BOOST_TEST(freed_twice.load() == 0u);
  BOOST_TEST_MESSAGE("rounds " << rounds.load() << ", most objects waiting at once " << bounded);
}
