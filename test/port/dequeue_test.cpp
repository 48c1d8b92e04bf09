//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Dequeuing: timeouts, batches, user packets, and other threads posting or registering
// while a thread is blocked in dequeue.
#include "sockets.hpp"
#include "port_helpers.hpp"

#include <boost/system/system_error.hpp>
#include <boost/test/unit_test.hpp>

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <set>
#include <thread>
#include <vector>

using namespace port_test;
using an::events;
using std::chrono::milliseconds;

BOOST_AUTO_TEST_SUITE(port_dequeue)

// A zero timeout polls: nothing queued returns 0 at once; what is ready is returned (so the
// zero is a poll, not "never dequeue").
BOOST_AUTO_TEST_CASE(zero_timeout_polls)
{
  an::port p;
  auto start = clock_type::now();
  BOOST_TEST(dequeue_once(p, milliseconds(0)).empty());
  BOOST_TEST(ms_since(start) < 50);

  int user = 0;
  p.post(&user, 1);
  std::vector<an::packet> got = dequeue_once(p, milliseconds(0));
  BOOST_TEST_REQUIRE(got.size() == 1u);
  BOOST_TEST(got[0].key == &user);

  tcp_pair c = make_tcp_pair();
  int key = 0;
  send_bytes(c.server.get());
  BOOST_TEST_REQUIRE(wait_readable(c.client.get()));
  BOOST_TEST_REQUIRE(!apply(p, enable(c.client.native(), &key, events::in, level_oneshot)));
  got = dequeue_once(p, milliseconds(0));
  BOOST_TEST_REQUIRE(got.size() == 1u);
  BOOST_TEST(got[0].key == &key);
  start = clock_type::now();
  BOOST_TEST(dequeue_once(p, milliseconds(0)).empty());
  BOOST_TEST(ms_since(start) < 50);
}

// A zero timeout returns a ready packet even when what the OS reports first has nothing to
// deliver. On Linux epoll reports EPOLLHUP of an unconnected TCP socket whatever the mask;
// the port drops it, and once returned 0 there although another registration was ready.
// Room for one packet, so each look at the OS takes one event.
BOOST_AUTO_TEST_CASE(zero_timeout_finds_ready_packet_behind_dropped_events)
{
  an::port p;
  std::vector<unique_socket> unconnected;
  // More droppers than any fixed retry count would cover (16 once did not).
  int silent[40] = {}, key = 0;
  for (int& k : silent)
  {
    unconnected.push_back(make_socket(SOCK_STREAM));
    BOOST_TEST_REQUIRE(!apply(p, enable(unconnected.back().native(), &k, events::in)));
  }
  tcp_pair c = make_tcp_pair();
  send_bytes(c.server.get());
  BOOST_TEST_REQUIRE(wait_readable(c.client.get()));
  BOOST_TEST_REQUIRE(!apply(p, enable(c.client.native(), &key, events::in)));
  for (int i = 0; i < 3; ++i)
  {
    std::vector<an::packet> got = dequeue_once(p, milliseconds(0), 1);
    BOOST_TEST_REQUIRE(got.size() == 1u, "zero-timeout dequeue #" << i << " returned nothing");
    BOOST_TEST(got[0].key == &key);
  }
}

// A finite timeout with nothing to dequeue returns 0 after about that long, without error.
BOOST_FIXTURE_TEST_CASE(finite_timeout_expires, port_and_pair)
{
  int key = 0;
  BOOST_TEST_REQUIRE(!apply(p, enable(c.client.native(), &key, events::in)));
  std::array<an::packet, 4> out;
  boost::system::error_code ec = boost::asio::error::already_open;
  const auto start = clock_type::now();
  BOOST_TEST(p.dequeue(out, milliseconds(150), ec) == 0u);
  const long long took = ms_since(start);
  BOOST_TEST(!ec);
  BOOST_TEST(took >= 130);
  BOOST_TEST(took < 1000);
}

// A finite timeout returns as soon as a packet arrives, long before it expires.
BOOST_FIXTURE_TEST_CASE(finite_timeout_returns_on_arrival, port_and_pair)
{
  int key = 0;
  BOOST_TEST_REQUIRE(!apply(p, enable(c.client.native(), &key, events::in)));
  const auto start = clock_type::now();
  {
    delayed later(milliseconds(50), [&] { send_bytes(c.server.get()); });
    expect_notification(p, &key, events::in, milliseconds(3000));
  }
  BOOST_TEST(ms_since(start) < 1500);
}

// The infinite timeout waits for a packet posted by another thread (and only that long).
BOOST_AUTO_TEST_CASE(infinite_waits_for_post_from_another_thread)
{
  an::port p;
  int key = 0;
  const auto start = clock_type::now();
  delayed later(milliseconds(100), [&] { p.post(&key, 42); });
  std::array<an::packet, 4> out;
  const std::size_t n = p.dequeue(out, an::port::infinite);
  BOOST_TEST(ms_since(start) >= 90);
  BOOST_TEST_REQUIRE(n == 1u);
  BOOST_TEST(out[0].kind == an::packet_kind::user);
  BOOST_TEST(out[0].key == &key);
  BOOST_TEST(out[0].value == 42u);
}

// User packets carry {key, value} and packet_kind::user, in the order they were posted.
BOOST_AUTO_TEST_CASE(post_delivers_user_packets)
{
  an::port p;
  int a = 0, b = 0;
  p.post(&a, 1);
  p.post(nullptr, 0xffffffffu);
  p.post(&b); // value defaults to 0
  boost::system::error_code ec = boost::asio::error::already_open;
  p.post(&a, 3, ec);
  BOOST_TEST(!ec);
  std::vector<an::packet> got = dequeue_once(p, must_arrive, 8);
  BOOST_TEST_REQUIRE(got.size() == 4u);
  const std::pair<void*, std::uint32_t> expected[] = {
      {&a, 1u}, {nullptr, 0xffffffffu}, {&b, 0u}, {&a, 3u}};
  for (std::size_t i = 0; i < 4; ++i)
  {
    BOOST_TEST(got[i].kind == an::packet_kind::user);
    BOOST_TEST(got[i].key == expected[i].first);
    BOOST_TEST(got[i].value == expected[i].second);
  }
  expect_nothing(p);
}

// Several ready packets, notifications and user packets alike, come out of one call; a
// smaller buffer takes what fits and leaves the rest for the next call.
BOOST_AUTO_TEST_CASE(batch_dequeue)
{
  an::port p;
  tcp_pair c[3] = {make_tcp_pair(), make_tcp_pair(), make_tcp_pair()};
  int keys[3] = {}, u1 = 0, u2 = 0;
  for (int i = 0; i < 3; ++i)
  {
    send_bytes(c[i].server.get());
    BOOST_TEST_REQUIRE(wait_readable(c[i].client.get()));
    BOOST_TEST_REQUIRE(
        !apply(p, enable(c[i].client.native(), &keys[i], events::in, level_oneshot)));
  }
  p.post(&u1, 1);
  p.post(&u2, 2);

  std::vector<an::packet> got = dequeue_once(p, must_arrive, 16);
  BOOST_TEST(got.size() == 5u);
  std::set<void*> seen;
  for (const an::packet& pk : got)
  {
    BOOST_TEST(seen.insert(pk.key).second);
    if (pk.kind == an::packet_kind::notification)
      BOOST_TEST(pk.events == events::in);
  }
  BOOST_TEST(seen == (std::set<void*>{&keys[0], &keys[1], &keys[2], &u1, &u2}));

  // Re-arm all three one-shots and post again: 5 ready, taken 2 + 2 + 1.
  for (int i = 0; i < 3; ++i)
    BOOST_TEST_REQUIRE(
        !apply(p, enable(c[i].client.native(), &keys[i], events::in, level_oneshot)));
  p.post(&u1, 1);
  p.post(&u2, 2);
  seen.clear();
  for (std::size_t expected : {2u, 2u, 1u})
  {
    got = dequeue_once(p, must_arrive, 2);
    BOOST_TEST(got.size() == expected);
    for (const an::packet& pk : got)
      BOOST_TEST(seen.insert(pk.key).second);
  }
  BOOST_TEST(seen.size() == 5u);
  expect_nothing(p);
}

// The throwing overload returns the count like the error_code one.
BOOST_AUTO_TEST_CASE(throwing_dequeue_overload)
{
  an::port p;
  int key = 0;
  std::array<an::packet, 2> out;
  BOOST_TEST(p.dequeue(out, milliseconds(0)) == 0u);
  p.post(&key, 5);
  BOOST_TEST(p.dequeue(out, milliseconds(0)) == 1u);
  BOOST_TEST(out[0].value == 5u);
}

// A registration made by another thread wakes the thread blocked in dequeue(infinite): an
// enable on a readable socket, a one-shot re-armed, and a remove.
BOOST_FIXTURE_TEST_CASE(registration_from_another_thread_wakes_blocked_dequeue, port_and_pair)
{
  send_bytes(c.server.get());
  BOOST_TEST_REQUIRE(wait_readable(c.client.get()));
  int key = 0;
  std::array<an::packet, 4> out;
  const auto s = c.client.native();

  // Boost.Test assertions are not thread-safe: the other thread only records its result.
  auto from_other_thread = [&](an::registration r, events expected) {
    boost::system::error_code result = boost::asio::error::already_open;
    std::size_t n = 0;
    {
      delayed later(milliseconds(50), [&] { result = p.apply(r); });
      n = p.dequeue(out, an::port::infinite);
    }
    BOOST_TEST(!result);
    BOOST_TEST_REQUIRE(n == 1u);
    BOOST_TEST(out[0].key == &key);
    BOOST_TEST(out[0].events == expected);
  };
  from_other_thread(enable(s, &key, events::in, level_oneshot), events::in);
  from_other_thread(enable(s, &key, events::in, level_oneshot), events::in); // re-arm
  from_other_thread(remove(s, &key), events::remove);
  expect_nothing(p);
}

// Data arriving on a registered socket wakes a thread blocked in dequeue(infinite).
BOOST_FIXTURE_TEST_CASE(data_wakes_blocked_dequeue, port_and_pair)
{
  int key = 0;
  BOOST_TEST_REQUIRE(!apply(p, enable(c.client.native(), &key, events::in)));
  delayed later(milliseconds(50), [&] { send_bytes(c.server.get()); });
  std::array<an::packet, 4> out;
  BOOST_TEST_REQUIRE(p.dequeue(out, an::port::infinite) >= 1u);
  BOOST_TEST(out[0].key == &key);
  BOOST_TEST(out[0].events == events::in);
}

BOOST_AUTO_TEST_SUITE_END()
