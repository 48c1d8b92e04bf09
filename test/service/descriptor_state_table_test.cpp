//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The table behind the reactor's completion keys (src/reactor/descriptor_state_table.hpp): a
// key names one socket of one slot, never freed memory, however late it comes back.
#include "reactor/descriptor_state_table.hpp"

#include <boost/test/unit_test.hpp>

#include <array>
#include <atomic>
#include <random>
#include <set>
#include <thread>
#include <vector>

namespace an = boost::asio_notify::detail;

namespace {

an::descriptor_state* find_named(an::descriptor_state_table& t, void* key)
{
  an::descriptor_state* s = t.find(key);
  if (!s)
    return nullptr;
  std::lock_guard<std::mutex> lock(s->mutex);
  return an::descriptor_state_table::names(*s, key) ? s : nullptr;
}

void* key_of(an::descriptor_state& s)
{
  std::lock_guard<std::mutex> lock(s.mutex);
  return an::descriptor_state_table::key_of(s);
}

} // namespace

BOOST_AUTO_TEST_CASE(a_key_names_its_socket_until_the_slot_is_released)
{
  an::descriptor_state_table t;
  an::descriptor_state* s = t.acquire(7);
  void* key = key_of(*s);
  BOOST_TEST(key != nullptr);
  BOOST_TEST(find_named(t, key) == s);
  t.release(*s);
  BOOST_TEST(t.find(key) == s);              // the memory is still there ...
  BOOST_TEST(find_named(t, key) == nullptr); // ... but names nobody
}

BOOST_AUTO_TEST_CASE(a_reused_slot_gets_a_key_of_its_own)
{
  an::descriptor_state_table t;
  an::descriptor_state* first = t.acquire(7);
  void* old_key = key_of(*first);
  t.release(*first);
  an::descriptor_state* second = t.acquire(8);
  BOOST_TEST(second == first); // reused at once
  BOOST_TEST(key_of(*second) != old_key);
  BOOST_TEST(find_named(t, old_key) == nullptr);
  BOOST_TEST(find_named(t, key_of(*second)) == second);
  BOOST_TEST(second->socket == 8);
  BOOST_TEST(!second->closed);
}

BOOST_AUTO_TEST_CASE(keys_are_distinct_and_slots_grow_in_chunks)
{
  an::descriptor_state_table t;
  std::set<void*> keys;
  std::vector<an::descriptor_state*> states;
  for (int i = 0; i < 1000; ++i)
  {
    states.push_back(t.acquire(i));
    keys.insert(key_of(*states.back()));
  }
  BOOST_TEST(keys.size() == 1000u);
  BOOST_TEST(t.allocated() == 1000u); // constructed as needed, across five chunks
  for (std::size_t i = 0; i < states.size(); ++i)
  {
    BOOST_TEST(find_named(t, key_of(*states[i])) == states[i]);
    BOOST_TEST(states[i]->socket == static_cast<int>(i));
  }
}

BOOST_AUTO_TEST_CASE(keys_of_no_slot_find_nothing)
{
  an::descriptor_state_table t;
  t.acquire(1);
  // Slot 1 is in the first chunk but not constructed yet; slot 64 in a chunk not allocated
  // yet; the highest slot in none that can be.
  BOOST_TEST(t.find(reinterpret_cast<void*>(std::uintptr_t(1))) == nullptr);
  BOOST_TEST(t.find(reinterpret_cast<void*>(std::uintptr_t(64))) == nullptr);
  const std::uintptr_t highest = (std::uintptr_t(1) << an::descriptor_state_table::slot_bits) - 1;
  BOOST_TEST(t.find(reinterpret_cast<void*>(highest)) == nullptr);
  BOOST_TEST(find_named(t, reinterpret_cast<void*>(std::uintptr_t(0))) == nullptr);
}

// Readers look up keys that may be stale, as threads holding late packets do, while a writer
// closes sockets and opens new ones in their slots: a key that still names a slot always
// finds the socket it was made for (each socket's value is made from its key; checked under
// the slot's mutex, and ThreadSanitizer checks the rest).
BOOST_AUTO_TEST_CASE(late_keys_never_find_another_socket)
{
  an::descriptor_state_table t;
  constexpr std::size_t open = 16;
  constexpr int replacements = 20000;
  using native = boost::asio_notify::native_socket_type; // unsigned on Windows
  constexpr native unset = native(-1);
  auto value_of = [](void* key) {
    return native(reinterpret_cast<std::uintptr_t>(key) % 1000003);
  };
  auto open_one = [&] {
    an::descriptor_state* s = t.acquire(unset);
    std::lock_guard<std::mutex> lock(s->mutex);
    s->socket = value_of(an::descriptor_state_table::key_of(*s));
    return s;
  };
  std::array<std::atomic<void*>, open> keys;
  std::vector<an::descriptor_state*> states;
  for (std::size_t i = 0; i < open; ++i)
  {
    states.push_back(open_one());
    keys[i] = key_of(*states[i]);
  }
  std::atomic<bool> done{false};
  std::atomic<std::size_t> wrong{0};
  std::atomic<std::size_t> named{0};
  auto reader = [&](unsigned seed) {
    std::minstd_rand random(seed);
    std::vector<void*> late; // keys seen before: most are stale by now
    while (!done.load())
    {
      late.push_back(keys[random() % open].load());
      void* key = late[random() % late.size()];
      if (late.size() > 256)
        late.erase(late.begin());
      an::descriptor_state* s = t.find(key);
      if (!s)
        continue;
      std::lock_guard<std::mutex> lock(s->mutex);
      if (!an::descriptor_state_table::names(*s, key))
        continue;
      ++named;
      if (s->socket != value_of(key))
        ++wrong;
    }
  };
  std::vector<std::thread> readers;
  for (unsigned i = 0; i < 2; ++i)
    readers.emplace_back(reader, i + 1);
  for (int n = 0; n < replacements; ++n)
  {
    const std::size_t i = std::size_t(n) % open;
    t.release(*states[i]);
    states[i] = open_one();
    keys[i] = key_of(*states[i]);
  }
  done = true;
  for (std::thread& r : readers)
    r.join();
  BOOST_TEST(wrong.load() == 0u);
  BOOST_TEST(t.allocated() == open); // never more than `open` at once
  BOOST_TEST_MESSAGE("lookups that named a socket " << named.load());
}
