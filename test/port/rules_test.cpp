//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The twelve rules of the socket state notification contract (doc/port_contract.md), each
// checked on real loopback sockets so that breaking the rule fails a test.
#include "sockets.hpp"
#include "port_helpers.hpp"

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <map>
#include <optional>
#include <thread>
#include <vector>

using namespace port_test;
using an::events;
using std::chrono::milliseconds;
namespace asio_error = boost::asio::error;

namespace {

// Closes the client end of `old` and connects a new socket that has the same handle value.
// Empty when the OS would not reuse the handle (only possible on Windows).
std::optional<tcp_pair> reopen_client_at_same_handle(tcp_pair& old)
{
  const socket_t h = old.client.get();
  old.client.reset();
  unique_socket fresh = make_socket_at(h);
  if (!fresh)
    return std::nullopt;
  tcp_pair c = connect_pair(std::move(fresh));
  BOOST_TEST_REQUIRE(c.client.get() == h);
  return c;
}

// Dequeues until a packet satisfying `pred` arrives, calling `between` before each try.
template <class Pred>
std::optional<an::packet> wait_for(an::port& p, Pred pred, const std::function<void()>& between)
{
  const auto end = clock_type::now() + must_arrive;
  while (clock_type::now() < end)
  {
    between();
    for (const an::packet& pk : dequeue_once(p, milliseconds(20)))
      if (pred(pk))
        return pk;
  }
  return std::nullopt;
}

} // namespace

BOOST_AUTO_TEST_SUITE(port_rules)

// ---- rule 1: one port per socket; registering again overwrites -------------------------

BOOST_AUTO_TEST_CASE(rule1_socket_registered_on_one_port_only)
{
  an::port a, b;
  tcp_pair c = make_tcp_pair();
  const auto s = c.client.native();
  int ka = 0, kb = 0;
  BOOST_TEST_REQUIRE(!apply(a, enable(s, &ka, events::in)));
  BOOST_TEST(refused_by_other_port(apply(b, enable(s, &kb, events::in))));
  BOOST_TEST(refused_by_other_port(apply(b, enable(s, &ka, events::in))));
  BOOST_TEST(apply(b, disable(s, &kb)) == asio_error::not_found);
  BOOST_TEST(apply(b, remove(s, &kb)) == asio_error::not_found);

  // Port A's registration is intact; port B sees nothing.
  send_bytes(c.server.get());
  expect_notification(a, &ka, events::in);
  expect_nothing(b);

  // Disabled on A, the socket still belongs to A.
  BOOST_TEST_REQUIRE(!apply(a, disable(s, &ka)));
  BOOST_TEST(refused_by_other_port(apply(b, enable(s, &kb, events::in))));

  // Removed from A (and its remove packet seen), it may join B.
  BOOST_TEST_REQUIRE(!apply(a, remove(s, &ka)));
  expect_remove(a, &ka);
  BOOST_TEST_REQUIRE(!apply(b, enable(s, &kb, events::in)));
  expect_notification(b, &kb, events::in);
  BOOST_TEST(refused_by_other_port(apply(a, enable(s, &ka, events::in))));
  expect_nothing(a);
}

BOOST_FIXTURE_TEST_CASE(rule1_registering_again_overwrites, port_and_pair)
{
  const auto s = c.client.native();
  int key = 0;
  // Filter `in` on a writable socket with nothing to read: silent.
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::in, level_oneshot)));
  expect_nothing(p);
  // Overwritten with `out`: the writable socket reports out (only).
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::out, level_oneshot)));
  expect_notification(p, &key, events::out);
  expect_nothing(p);
  // Back to `in`: out is no longer reported, in is.
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::in, level_oneshot)));
  expect_nothing(p);
  send_bytes(c.server.get());
  expect_notification(p, &key, events::in);
  expect_nothing(p);
  // The trigger is overwritten too: one-shot becomes persistent and keeps reporting.
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::in, level)));
  for (int i = 0; i < 3; ++i)
    expect_notification(p, &key, events::in);
}

// ---- rule 2: the key cannot change on a live registration ------------------------------

BOOST_FIXTURE_TEST_CASE(rule2_key_change_requires_remove, port_and_pair)
{
  const auto s = c.client.native();
  int k1 = 1, k2 = 2;
  // Whatever the answer to a key change, no packet ever carries the new key, and where the
  // change was refused the registration is untouched (nothing for the old key either).
  const auto change_key = [&] {
    const boost::system::error_code ec = apply(p, enable(s, &k2, events::in, level_oneshot));
    BOOST_TEST(key_change_refused_or_ignored(p, ec), ec.message());
    for (const an::packet& pk : collect_for(p, milliseconds(60)))
    {
      BOOST_TEST(pk.key == &k1, "a packet for the key the registration never had");
      BOOST_TEST(!ec, "a refused change re-enabled the registration");
    }
  };
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &k1, events::in, level_oneshot)));
  change_key();
  send_bytes(c.server.get());
  expect_notification(p, &k1, events::in); // still the old key
  // The one-shot has fired (registration disabled, not gone): still not the new key.
  change_key();
  // Explicitly disabled: still not.
  BOOST_TEST_REQUIRE(!apply(p, disable(s, &k1)));
  change_key();
  BOOST_TEST_REQUIRE(!apply(p, disable(s, &k1)));
  expect_nothing(p);
  // Remove, wait for the remove packet, register with the new key.
  BOOST_TEST_REQUIRE(!apply(p, remove(s, &k1)));
  expect_remove(p, &k1);
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &k2, events::in, level_oneshot)));
  expect_notification(p, &k2, events::in);
  expect_nothing(p);
}

// What the reactor relies on for a released socket assigned again (release() + assign()):
// a registration made with a new key right after `remove`, before its packet is dequeued, is
// a new registration. The old key's `remove` packet still comes, once, and every packet of the
// new registration carries the new key. An assumption on PSN (doc/port_contract.md, rule 2),
// which the Windows job's run of this suite on the real function decides.
BOOST_FIXTURE_TEST_CASE(rule2_new_key_right_after_remove, port_and_pair)
{
  const auto s = c.client.native();
  int k1 = 1, k2 = 2;
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &k1, events::in, level_oneshot)));
  BOOST_TEST_REQUIRE(!apply(p, remove(s, &k1)));
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &k2, events::in, level_oneshot)));
  send_bytes(c.server.get());
  int removes = 0, new_key = 0;
  for (const an::packet& pk : collect_for(p, milliseconds(200)))
  {
    if (pk.key == &k1)
    {
      BOOST_TEST(pk.events == events::remove, "a packet for the removed key after its remove");
      ++removes;
    }
    else
    {
      BOOST_TEST(pk.key == &k2);
      BOOST_TEST(has_any(pk.events, events::in));
      ++new_key;
    }
  }
  BOOST_TEST(removes == 1);
  BOOST_TEST(new_key == 1);
}

// ---- rule 3: exactly one remove packet, the last one -----------------------------------

BOOST_FIXTURE_TEST_CASE(rule3_exactly_one_remove_packet_and_nothing_after, port_and_pair)
{
  int key = 0;
  BOOST_TEST_REQUIRE(!apply(p, enable(c.client.native(), &key, events::in | events::out)));
  send_bytes(c.server.get());
  expect_notification(p, &key);
  expect_notification(p, &key); // level, persistent: packets keep being queued
  BOOST_TEST_REQUIRE(!apply(p, remove(c.client.native(), &key)));
  expect_remove(p, &key);
  // Nothing after it, not even while data keeps arriving on the still-open socket.
  expect_nothing(p, milliseconds(100), [&] { send_bytes(c.server.get()); });
}

// A remove packet comes whatever state the registration is in, and exactly one.
BOOST_AUTO_TEST_CASE(rule3_remove_packet_in_every_registration_state)
{
  an::port p;
  constexpr int n = 6;
  std::vector<tcp_pair> c;
  int keys[n] = {};
  for (int i = 0; i < n; ++i)
  {
    c.push_back(make_tcp_pair());
    send_bytes(c[i].server.get());
    BOOST_TEST_REQUIRE(wait_readable(c[i].client.get()));
  }
  auto s = [&](int i) {
    return c[i].client.native();
  };
  BOOST_TEST_REQUIRE(!apply(p, enable(s(0), &keys[0], events::in)));                // level, ready
  BOOST_TEST_REQUIRE(!apply(p, enable(s(1), &keys[1], events::in, level_oneshot))); // fired below
  BOOST_TEST_REQUIRE(!apply(p, enable(s(2), &keys[2], events::in)));
  BOOST_TEST_REQUIRE(!apply(p, disable(s(2), &keys[2])));                  // disabled
  BOOST_TEST_REQUIRE(!apply(p, enable(s(3), &keys[3], events::in, edge))); // edge
  BOOST_TEST_REQUIRE(!apply(p, enable(s(4), &keys[4], events::none)));     // errors only
  BOOST_TEST_REQUIRE(!apply(p, enable(s(5), &keys[5], events::hangup)));   // hangup only
  {
    // Let the one-shot fire before removing it.
    std::optional<an::packet> fired = wait_for(
        p, [&](const an::packet& pk) { return pk.key == &keys[1]; }, [] {});
    BOOST_TEST_REQUIRE(fired.has_value());
  }
  std::vector<an::registration> batch;
  for (int i = 0; i < n; ++i)
    batch.push_back(remove(s(i), &keys[i]));
  boost::system::error_code ec;
  p.apply(batch, ec);
  BOOST_TEST(!ec);
  for (const an::registration& r : batch)
    BOOST_TEST(!r.result);

  std::map<void*, int> removes;
  for (const an::packet& pk : collect_for(p, milliseconds(120), [&] {
         for (int i = 0; i < n; ++i)
           send_bytes(c[i].server.get());
       }))
  {
    BOOST_TEST(pk.kind == an::packet_kind::notification);
    BOOST_TEST(removes[pk.key] == 0, "a packet after the remove packet of key " << pk.key);
    if (an::has_any(pk.events, events::remove))
    {
      BOOST_TEST(pk.events == events::remove);
      ++removes[pk.key];
    }
  }
  for (int i = 0; i < n; ++i)
    BOOST_TEST(removes[&keys[i]] == 1, "remove packets for registration " << i);
}

// The reactor's close order: remove, then close the socket at once, without waiting for the
// remove packet. Its memory is freed only at that packet, so the packet must still come
// after the close, in every registration state. (On Windows this is the one test that
// decides whether that order is safe with the real ProcessSocketNotifications, where
// Microsoft does not say; Pony waits for REMOVE before closing.)
BOOST_AUTO_TEST_CASE(rule3_remove_packet_comes_when_the_socket_is_closed_at_once)
{
  an::port p;
  const an::trigger modes[] = {level, level_oneshot, edge};
  for (an::trigger mode : modes)
  {
    BOOST_TEST_CONTEXT("triggers " << static_cast<unsigned>(mode))
    {
      tcp_pair c = make_tcp_pair();
      int key = 0;
      BOOST_TEST_REQUIRE(
          !apply(p, enable(c.client.native(), &key, events::in | events::out, mode)));
      send_bytes(c.server.get()); // packets may be queued or in flight
      BOOST_TEST_REQUIRE(!apply(p, remove(c.client.native(), &key)));
      c.client.reset();
      expect_remove(p, &key);
      expect_nothing(p);
    }
  }
}

// ---- rule 4: close deregisters silently; the handle may be reused -----------------------

BOOST_FIXTURE_TEST_CASE(rule4_close_deregisters_without_remove_packet, port_and_pair)
{
  int key = 0;
  const auto s = c.client.native();
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::in | events::hangup)));
  expect_nothing(p); // nothing queued before the close
  c.client.reset();
  // No remove packet, nothing else, while the peer keeps sending into the closed socket.
  expect_nothing(p, milliseconds(100), [&] { send_bytes(c.server.get()); });
  // The registration went with the socket: a remove finds nothing to remove.
  BOOST_TEST(apply(p, remove(s, &key)) != boost::system::error_code());
  expect_nothing(p);
}

BOOST_AUTO_TEST_CASE(rule4_reused_handle_same_key_same_port)
{
  an::port p;
  tcp_pair old = make_tcp_pair();
  int key = 0;
  BOOST_TEST_REQUIRE(!apply(p, enable(old.client.native(), &key, events::in)));
  std::optional<tcp_pair> c = reopen_client_at_same_handle(old);
  if (!c)
  {
    BOOST_TEST_MESSAGE("the OS did not reuse the handle; skipped");
    return;
  }
  BOOST_TEST_REQUIRE(!apply(p, enable(c->client.native(), &key, events::in)));
  expect_nothing(p);
  send_bytes(c->server.get());
  expect_notification(p, &key, events::in);
  BOOST_TEST_REQUIRE(!apply(p, remove(c->client.native(), &key)));
  expect_remove(p, &key);
  expect_nothing(p);
}

BOOST_AUTO_TEST_CASE(rule4_reused_handle_new_key_same_port)
{
  an::port p;
  tcp_pair old = make_tcp_pair();
  int k1 = 1, k2 = 2;
  BOOST_TEST_REQUIRE(!apply(p, enable(old.client.native(), &k1, events::in, level_oneshot)));
  std::optional<tcp_pair> c = reopen_client_at_same_handle(old);
  if (!c)
  {
    BOOST_TEST_MESSAGE("the OS did not reuse the handle; skipped");
    return;
  }
  BOOST_TEST_REQUIRE(!apply(p, enable(c->client.native(), &k2, events::in, level_oneshot)));
  send_bytes(c->server.get());
  expect_notification(p, &k2, events::in);
  BOOST_TEST_REQUIRE(!apply(p, remove(c->client.native(), &k2)));
  expect_remove(p, &k2); // only k2's: the closed socket's registration ended silently
  expect_nothing(p);
}

BOOST_AUTO_TEST_CASE(rule4_reused_handle_on_another_port)
{
  an::port a, b;
  tcp_pair old = make_tcp_pair();
  int ka = 1, kb = 2;
  BOOST_TEST_REQUIRE(!apply(a, enable(old.client.native(), &ka, events::in)));
  std::optional<tcp_pair> c = reopen_client_at_same_handle(old);
  if (!c)
  {
    BOOST_TEST_MESSAGE("the OS did not reuse the handle; skipped");
    return;
  }
  const auto s = c->client.native();
  BOOST_TEST_REQUIRE(!apply(b, enable(s, &kb, events::in)));
  send_bytes(c->server.get());
  expect_notification(b, &kb, events::in);
  expect_nothing(a);
  // Port A has nothing of the new socket: it cannot remove, disable or take it.
  BOOST_TEST(apply(a, remove(s, &ka)) != boost::system::error_code());
  BOOST_TEST(apply(a, disable(s, &ka)) != boost::system::error_code());
  BOOST_TEST(refused_by_other_port(apply(a, enable(s, &ka, events::in))));
  expect_nothing(a);
  // ...and B's registration is untouched by those attempts.
  expect_notification(b, &kb, events::in);
  BOOST_TEST_REQUIRE(!apply(b, remove(s, &kb)));
  expect_remove(b, &kb);
}

// ---- rule 5: disable keeps the registration and queues nothing -------------------------

BOOST_AUTO_TEST_CASE(rule5_disable_is_silent_until_enabled)
{
  an::port p, other;
  tcp_pair c = make_tcp_pair();
  const auto s = c.client.native();
  int key = 0, k2 = 0;
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::in | events::hangup)));
  BOOST_TEST_REQUIRE(!apply(p, disable(s, &key)));
  expect_nothing(p, milliseconds(100), [&] { send_bytes(c.server.get()); });
  // Still registered: the key cannot change and no other port can take the socket.
  BOOST_TEST(apply(p, enable(s, &k2, events::in)) == asio_error::invalid_argument);
  BOOST_TEST(refused_by_other_port(apply(other, enable(s, &k2, events::in))));
  // Enabled again: the data that arrived meanwhile is reported.
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::in | events::hangup, level_oneshot)));
  expect_notification(p, &key, events::in);
  // Disable of a fired one-shot and of a disabled registration are fine too.
  BOOST_TEST(!apply(p, disable(s, &key)));
  BOOST_TEST(!apply(p, disable(s, &key)));
  expect_nothing(p);
}

// A disabled registration reports no error or hangup either; enabling reports them.
BOOST_FIXTURE_TEST_CASE(rule5_disable_silences_errors_too, port_and_pair)
{
  int key = 0;
  BOOST_TEST_REQUIRE(!apply(p, enable(c.client.native(), &key, events::in | events::hangup)));
  BOOST_TEST_REQUIRE(!apply(p, disable(c.client.native(), &key)));
  abort_close(c.server); // RST
  BOOST_TEST_REQUIRE(wait_readable(c.client.get()));
  expect_nothing(p);
  BOOST_TEST_REQUIRE(
      !apply(p, enable(c.client.native(), &key, events::in | events::hangup, level_oneshot)));
  an::packet pk = expect_notification(p, &key);
  BOOST_TEST(an::has_any(pk.events, events::error));
}

// ---- rule 6: level-triggered persistent keeps reporting while the condition holds ------

BOOST_FIXTURE_TEST_CASE(rule6_level_persistent_repeats_while_condition_holds, port_and_pair)
{
  int key = 0;
  BOOST_TEST_REQUIRE(!apply(p, enable(c.client.native(), &key, events::in)));
  expect_nothing(p);
  send_bytes(c.server.get(), 3);
  for (int i = 0; i < 4; ++i) // one packet per dequeue, again and again, data unread
    expect_notification(p, &key, events::in);
  BOOST_TEST(drain(c.client.get()) == 3u);
  expect_nothing(p); // the condition no longer holds
  send_bytes(c.server.get());
  expect_notification(p, &key, events::in);
  expect_notification(p, &key, events::in);
}

BOOST_FIXTURE_TEST_CASE(rule6_level_persistent_out, port_and_pair)
{
  int key = 0;
  BOOST_TEST_REQUIRE(!apply(p, enable(c.client.native(), &key, events::out)));
  for (int i = 0; i < 4; ++i) // always writable
    expect_notification(p, &key, events::out);
  BOOST_TEST_REQUIRE(!apply(p, remove(c.client.native(), &key)));
  expect_remove(p, &key);
  expect_nothing(p);
}

// Several threads dequeuing, a one-shot level registration: a state change is seen by one
// thread only (the pattern the contract recommends for multi-threaded servers).
BOOST_FIXTURE_TEST_CASE(rule6_oneshot_with_many_dequeuers_one_packet, port_and_pair)
{
  int key = 0, stop = 0;
  std::atomic<int> notifications{0}, others{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 3; ++i)
    threads.emplace_back([&] {
      an::packet pk[1];
      for (;;)
      {
        if (p.dequeue(pk, an::port::infinite) != 1)
          continue;
        if (pk[0].kind == an::packet_kind::user && pk[0].key == &stop)
          return;
        if (pk[0].key == &key && pk[0].events == events::in)
          ++notifications;
        else
          ++others;
      }
    });
  std::this_thread::sleep_for(milliseconds(30)); // let them block
  BOOST_TEST(!apply(
      p, enable(c.client.native(), &key, events::in, level_oneshot))); // no REQUIRE: threads run
  send_bytes(c.server.get());
  std::this_thread::sleep_for(milliseconds(100));
  send_bytes(c.server.get()); // more data: still nothing until re-armed
  std::this_thread::sleep_for(milliseconds(50));
  const int before_rearm = notifications.load();
  BOOST_TEST(!apply(
      p, enable(c.client.native(), &key, events::in, level_oneshot))); // no REQUIRE: threads run
  std::this_thread::sleep_for(milliseconds(100));
  for (std::size_t i = 0; i < threads.size(); ++i)
    p.post(&stop);
  for (std::thread& t : threads)
    t.join();
  BOOST_TEST(before_rearm == 1);
  BOOST_TEST(notifications.load() == 2);
  BOOST_TEST(others.load() == 0);
}

// ---- rule 7: one-shot reports once, then is disabled (not removed) until re-enabled ----

BOOST_AUTO_TEST_CASE(rule7_oneshot_reports_once_until_reenabled)
{
  an::port p, other;
  tcp_pair c = make_tcp_pair();
  const auto s = c.client.native();
  int key = 0, k2 = 0;
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::in, level_oneshot)));
  send_bytes(c.server.get());
  expect_notification(p, &key, events::in);
  // The condition still holds and more data arrives: nothing.
  expect_nothing(p, milliseconds(100), [&] { send_bytes(c.server.get()); });
  // Disabled, not removed.
  BOOST_TEST(refused_by_other_port(apply(other, enable(s, &k2, events::in))));
  BOOST_TEST(apply(p, enable(s, &k2, events::in, level_oneshot)) == asio_error::invalid_argument);
  // Re-armed by registering again: once more, and once only.
  for (int i = 0; i < 2; ++i)
  {
    BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::in, level_oneshot)));
    expect_notification(p, &key, events::in);
    expect_nothing(p);
  }
  BOOST_TEST_REQUIRE(!apply(p, remove(s, &key)));
  expect_remove(p, &key);
  expect_nothing(p);
}

// ---- the unready hint: a re-enable of a one-shot level registration after would-block ----

// The reactor's re-arm after a read would block: what arrives after it is reported, once.
BOOST_FIXTURE_TEST_CASE(hinted_rearm_reports_what_arrives_after_it, port_and_pair)
{
  int key = 0;
  const auto s = c.client.native();
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::in | events::hangup, level_oneshot)));
  for (int round = 0; round < 3; ++round)
  {
    send_bytes(c.server.get());
    expect_notification(p, &key, events::in);
    BOOST_TEST(drain(c.client.get()) == 1u); // to would-block: the hint holds
    BOOST_TEST_REQUIRE(!apply(p, hinted_enable(s, &key, events::in | events::hangup)));
    expect_nothing(p);
  }
  c.server.reset(); // the peer's close after the hint: reported too
  const an::packet pk = expect_notification(p, &key);
  BOOST_TEST(an::has_any(pk.events, events::in | events::hangup));
  expect_nothing(p);
}

// Data that arrives between the would-block and the re-enable, while the registration is
// disabled, is reported at the re-enable, whether a dequeue saw the kernel's event for it
// meanwhile (the epoll backend then asks the kernel again) or not.
BOOST_FIXTURE_TEST_CASE(hinted_rearm_reports_what_arrived_while_disabled, port_and_pair)
{
  int key = 0;
  const auto s = c.client.native();
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::in | events::hangup, level_oneshot)));
  for (const bool dequeue_between : {true, false, true})
  {
    send_bytes(c.server.get());
    expect_notification(p, &key, events::in);
    BOOST_TEST(drain(c.client.get()) == 1u);
    send_bytes(c.server.get());
    BOOST_TEST_REQUIRE(wait_readable(c.client.get()));
    if (dequeue_between)
      expect_nothing(p); // disabled: nothing, though the kernel may report it
    BOOST_TEST_REQUIRE(!apply(p, hinted_enable(s, &key, events::in | events::hangup)));
    expect_notification(p, &key, events::in);
    expect_nothing(p);
    BOOST_TEST(drain(c.client.get()) == 1u);
    BOOST_TEST_REQUIRE(!apply(p, hinted_enable(s, &key, events::in | events::hangup)));
  }
}

// ---- rule 8: edge-triggered reports changes, not states --------------------------------

BOOST_FIXTURE_TEST_CASE(rule8_edge_one_packet_per_change, port_and_pair)
{
  int key = 0;
  BOOST_TEST_REQUIRE(!apply(p, enable(c.client.native(), &key, events::in | events::hangup, edge)));
  expect_nothing(p);
  send_bytes(c.server.get());
  expect_notification(p, &key, events::in);
  expect_no_new_edge(p, &key, events::in); // data unread, nothing new: no repeat
  BOOST_TEST(drain(c.client.get()) == 1u);
  expect_no_new_edge(p, &key, events::in); // (a repeat may have been queued before the drain)
  send_bytes(c.server.get());              // drained, then new data: a new edge
  expect_notification(p, &key, events::in);
  expect_no_new_edge(p, &key, events::in);
  BOOST_TEST(drain(c.client.get()) == 1u);
  c.server.reset(); // the peer closes: one packet with hangup, not repeated
  std::optional<an::packet> pk = wait_for(
      p,
      [&](const an::packet& x) {
        const bool hangup = an::has_any(x.events, events::hangup);
        BOOST_TEST((hangup || held_edge_may_repeat(p)),
                   "a packet before the hangup, events " << static_cast<unsigned>(x.events));
        return hangup;
      },
      [] {});
  BOOST_TEST_REQUIRE(pk.has_value());
  BOOST_TEST(pk->key == &key);
  BOOST_TEST(within(pk->events, events::in | events::hangup));
  expect_no_new_edge(p, &key, events::in | events::hangup);
}

BOOST_FIXTURE_TEST_CASE(rule8_edge_out_after_send_buffer_drains, port_and_pair)
{
  int key = 0;
  BOOST_TEST_REQUIRE(!apply(p, enable(c.client.native(), &key, events::out, edge)));
  // Already writable at registration: a packet may or may not come (rule 8); skip it.
  collect_for(p, milliseconds(50));
  // Fill the send buffer until it stays full: while the peer's kernel still acknowledges
  // data, space keeps freeing up (and edges are reported); packets from then are dropped.
  std::size_t sent = 0;
  for (int round = 0; round < 100; ++round)
  {
    std::size_t now = 0;
    while (std::size_t n = send_bytes(c.client.get(), 65536))
      now += n;
    sent += now;
    collect_for(p, milliseconds(20));
    if (now == 0 && round > 0)
      break;
  }
  BOOST_TEST_REQUIRE(sent > 0u);
  expect_nothing(p); // full, nothing changes: no packet
  // The peer reads: the socket becomes writable again, an edge.
  std::optional<an::packet> pk = wait_for(
      p, [&](const an::packet& x) { return x.key == &key; }, [&] { drain(c.server.get()); });
  BOOST_TEST_REQUIRE(pk.has_value());
  BOOST_TEST(pk->events == events::out);
}

// ---- rule 9: error is reported whatever the filter -------------------------------------

BOOST_AUTO_TEST_CASE(rule9_error_with_empty_filter_on_refused_connect)
{
  an::port p;
  refused_connect rc = start_refused_connect();
  int key = 0;
  BOOST_TEST_REQUIRE(!apply(p, enable(rc.socket.native(), &key, events::none, level_oneshot)));
  expect_notification(p, &key, events::error);
}

BOOST_AUTO_TEST_CASE(rule9_error_with_in_filter_on_refused_connect)
{
  an::port p;
  refused_connect rc = start_refused_connect();
  int key = 0;
  BOOST_TEST_REQUIRE(!apply(p, enable(rc.socket.native(), &key, events::in, level_oneshot)));
  an::packet pk = expect_notification(p, &key);
  BOOST_TEST(an::has_any(pk.events, events::error));
  BOOST_TEST(within(pk.events, events::in | events::error));
}

BOOST_AUTO_TEST_CASE(rule9_error_on_reset_whatever_the_filter)
{
  for (events filter : {events::none, events::in, events::out, events::hangup})
  {
    BOOST_TEST_CONTEXT("filter " << static_cast<unsigned>(filter))
    {
      an::port p;
      tcp_pair c = make_tcp_pair();
      int key = 0;
      BOOST_TEST_REQUIRE(!apply(p, enable(c.client.native(), &key, filter, level_oneshot)));
      if (filter == events::out)
        expect_notification(p, &key, events::out); // writable at once: fire the one-shot
      else
        expect_nothing(p, milliseconds(50)); // a live, quiet connection
      abort_close(c.server);                 // RST
      BOOST_TEST_REQUIRE(wait_readable(c.client.get()));
      BOOST_TEST_REQUIRE(!apply(p, enable(c.client.native(), &key, filter, level_oneshot)));
      an::packet pk = expect_notification(p, &key);
      BOOST_TEST(an::has_any(pk.events, events::error));
      BOOST_TEST(within(pk.events, filter | events::error));
    }
  }
}

// An empty filter waits for errors only, and level-triggered persistent it reports a pending
// error again and again, like any condition that holds (rules 6 and 9). The epoll backend
// once made an empty filter edge-triggered: the error came once, then never again.
BOOST_FIXTURE_TEST_CASE(rule9_error_with_empty_filter_repeats_while_pending, port_and_pair)
{
  int key = 0;
  BOOST_TEST_REQUIRE(!apply(p, enable(c.client.native(), &key, events::none, level)));
  expect_nothing(p, milliseconds(50)); // a live, quiet connection
  abort_close(c.server);               // RST: an error is pending until read
  BOOST_TEST_REQUIRE(wait_readable(c.client.get()));
  for (int i = 0; i < 3; ++i)
    BOOST_TEST_CONTEXT("error packet #" << i) { expect_notification(p, &key, events::error); }
}

// ---- rule 10: UDP never reports hangup; TCP does ----------------------------------------

BOOST_AUTO_TEST_CASE(rule10_udp_never_reports_hangup)
{
  an::port p;
  udp_pair u = make_udp_pair();
  const auto s = u.a.native();
  int key = 0;
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::in | events::hangup, level_oneshot)));
  send_bytes(u.b.get());
  expect_notification(p, &key, events::in);
  drain(u.a.get());
  shutdown_socket(u.a.get(), shut_both); // on Linux the kernel now says EPOLLHUP|EPOLLRDHUP
  u.b.reset();
  for (int i = 0; i < 3; ++i)
  {
    BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::in | events::hangup, level_oneshot)));
    for (const an::packet& pk : collect_for(p, milliseconds(30)))
    {
      BOOST_TEST(pk.key == &key);
      BOOST_TEST(within(pk.events, events::in),
                 "UDP packet with events " << static_cast<unsigned>(pk.events));
    }
  }
  // Asking for hangup alone: nothing at all.
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::hangup, level_oneshot)));
  expect_nothing(p);
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::hangup, edge)));
  expect_nothing(p);
}

BOOST_FIXTURE_TEST_CASE(tcp_hangup_on_peer_close, port_and_pair)
{
  int key = 0;
  BOOST_TEST_REQUIRE(!apply(p, enable(c.client.native(), &key, events::hangup, level_oneshot)));
  send_bytes(c.server.get()); // readable, but that is not a hangup
  expect_nothing(p);
  c.server.reset();
  if (disconnect_waits_for_unread_data(p))
  {
    BOOST_TEST_MESSAGE("Wine's AFD: the hangup shows once the unread data is read");
    expect_nothing(p); // the gap itself: when Wine closes it, this fails and the mark goes
    BOOST_TEST(drain(c.client.get()) == 1u);
  }
  expect_notification(p, &key, events::hangup);
  // Level: re-armed, the condition still holds.
  BOOST_TEST_REQUIRE(!apply(p, enable(c.client.native(), &key, events::hangup, level_oneshot)));
  expect_notification(p, &key, events::hangup);
}

BOOST_FIXTURE_TEST_CASE(tcp_hangup_when_both_directions_are_shut, port_and_pair)
{
  int key = 0;
  BOOST_TEST_REQUIRE(!apply(p, enable(c.client.native(), &key, events::hangup, level_oneshot)));
  BOOST_TEST(shutdown_socket(c.client.get(), shut_send) == 0); // our half: not a hangup
  expect_nothing(p);
  BOOST_TEST(shutdown_socket(c.server.get(), shut_send) == 0); // the peer's half too
  expect_notification(p, &key, events::hangup);
}

// ---- rule 11: accept on notification (a listener reports pending connections as in) ----

BOOST_AUTO_TEST_CASE(rule11_listener_reports_pending_connection)
{
  an::port p;
  unique_socket l = make_listener();
  int key = 0;
  BOOST_TEST_REQUIRE(!apply(p, enable(l.native(), &key, events::in, level_oneshot)));
  expect_nothing(p);
  for (int i = 0; i < 2; ++i)
  {
    unique_socket client = make_socket(SOCK_STREAM);
    connect_blocking(client.get(), l.get());
    expect_notification(p, &key, events::in);
    unique_socket accepted = accept_one(l.get());
    // Re-armed with nothing pending: silent.
    BOOST_TEST_REQUIRE(!apply(p, enable(l.native(), &key, events::in, level_oneshot)));
    expect_nothing(p);
  }
}

// ---- rule 12: one port, many dequeuing threads -----------------------------------------

BOOST_AUTO_TEST_CASE(rule12_many_dequeuers_each_packet_once)
{
  an::port p;
  constexpr std::uint32_t count = 4000;
  constexpr int thread_count = 4;
  int key = 0, stop = 0;
  std::vector<std::atomic<int>> seen(count);
  std::atomic<int> foreign{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < thread_count; ++i)
    threads.emplace_back([&] {
      an::packet pk[8];
      int stops = 0;
      while (stops == 0)
      {
        const std::size_t n = p.dequeue(pk, an::port::infinite);
        for (std::size_t j = 0; j < n; ++j)
        {
          if (pk[j].key == &stop)
            ++stops;
          else if (pk[j].key == &key && pk[j].kind == an::packet_kind::user && pk[j].value < count)
            ++seen[pk[j].value];
          else
            ++foreign;
        }
      }
      for (; stops > 1; --stops) // one stop per thread: hand the others back
        p.post(&stop);
    });
  for (std::uint32_t v = 0; v < count; ++v)
    p.post(&key, v);
  // Wait until everything is consumed, then stop the threads.
  const auto end = clock_type::now() + must_arrive;
  auto total = [&] {
    int t = 0;
    for (auto& s : seen)
      t += s.load();
    return t;
  };
  while (total() < static_cast<int>(count) && clock_type::now() < end)
    std::this_thread::sleep_for(milliseconds(5));
  for (int i = 0; i < thread_count; ++i)
    p.post(&stop);
  for (std::thread& t : threads)
    t.join();
  int wrong = 0;
  for (auto& s : seen)
    wrong += s.load() != 1;
  BOOST_TEST(wrong == 0);
  BOOST_TEST(foreign.load() == 0);
  expect_nothing(p, milliseconds(20));
}

BOOST_AUTO_TEST_SUITE_END()
