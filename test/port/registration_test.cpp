//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Registration entries: validation, per-entry results of a batch, error paths, and
// `process` applying registrations and dequeuing in one call.
#include "sockets.hpp"
#include "port_helpers.hpp"

#include <boost/test/unit_test.hpp>

#include <array>
#include <map>

using namespace port_test;
namespace asio_error = boost::asio::error;

namespace {

using an::events;
using an::operation;
using an::trigger;

struct bad_entry
{
  const char* what;
  events filter;
  operation op;
  trigger triggers;
  events unready = events::none;
};

// Every combination the contract forbids, each given with an otherwise valid entry.
const bad_entry bad_entries[] = {
    {"level|edge", events::in, operation::enable, trigger::level | trigger::edge},
    {"level|edge|oneshot", events::in, operation::enable,
     trigger::level | trigger::edge | trigger::oneshot},
    {"oneshot|persistent", events::in, operation::enable,
     trigger::level | trigger::oneshot | trigger::persistent},
    {"trigger none on enable", events::in, operation::enable, trigger::none},
    {"oneshot without level or edge", events::in, operation::enable, trigger::oneshot},
    {"persistent without level or edge", events::in, operation::enable, trigger::persistent},
    {"unknown trigger bit", events::in, operation::enable,
     trigger::level | static_cast<trigger>(0x10)},
    {"error in the filter", events::in | events::error, operation::enable, level},
    {"remove in the filter", events::in | events::remove, operation::enable, level},
    {"error alone in the filter", events::error, operation::enable, level},
    {"unknown filter bit", events::in | static_cast<events>(0x08), operation::enable, level},
    {"operation none", events::in, operation::none, level},
    {"enable|remove", events::in, operation::enable | operation::remove, level},
    {"enable|disable", events::in, operation::enable | operation::disable, level},
    {"disable|remove", events::in, operation::disable | operation::remove, level},
    {"unknown operation bit", events::in, static_cast<operation>(0x08), level},
    {"error in the unready hint", events::in, operation::enable, level_oneshot,
     events::in | events::error},
    {"unknown unready bit", events::in, operation::enable, level_oneshot,
     events::in | static_cast<events>(0x08)},
};

an::registration make(const bad_entry& b, an::native_socket_type s, void* key)
{
  an::registration r = enable(s, key, b.filter, b.triggers);
  r.operation = b.op;
  r.unready = b.unready;
  return r;
}

} // namespace

BOOST_AUTO_TEST_SUITE(port_registration)

// Every valid combination of trigger bits is accepted (the rejections below are not a
// validator that rejects everything).
BOOST_FIXTURE_TEST_CASE(valid_combinations_are_accepted, port_and_pair)
{
  int key = 0;
  for (trigger t : {trigger::level, trigger::edge, level, edge, level_oneshot,
                    trigger::edge | trigger::oneshot})
  {
    for (events f : {events::none, events::in, events::out, events::hangup,
                     events::in | events::out | events::hangup})
    {
      an::registration r = enable(c.client.native(), &key, f, t);
      BOOST_TEST(!an::validate(r));
      BOOST_TEST(!p.apply(r),
                 "filter " << static_cast<unsigned>(f) << " trigger " << static_cast<unsigned>(t));
    }
  }
  // disable and remove ignore the trigger ("read by operation::enable only").
  an::registration d = disable(c.client.native(), &key);
  d.triggers = trigger::none;
  BOOST_TEST(!an::validate(d));
  BOOST_TEST(!p.apply(d));
  an::registration rm = remove(c.client.native(), &key);
  rm.triggers = trigger::level | trigger::edge;
  BOOST_TEST(!an::validate(rm));
  BOOST_TEST(!p.apply(rm));
  expect_remove(p, &key);
  expect_nothing(p);
}

// Each forbidden combination gets invalid_argument, from validate() and from the port, and
// the port is left without a registration: the socket is readable and writable, so any
// entry applied by mistake would produce packets (and would make remove succeed).
BOOST_FIXTURE_TEST_CASE(invalid_combinations_are_rejected, port_and_pair)
{
  send_bytes(c.server.get(), 10);
  BOOST_TEST_REQUIRE(wait_readable(c.client.get()));
  int key = 0;
  for (const bad_entry& b : bad_entries)
  {
    BOOST_TEST_CONTEXT(b.what)
    {
      an::registration r = make(b, c.client.native(), &key);
      BOOST_TEST(an::validate(r) == asio_error::invalid_argument);
      r.result = asio_error::already_open; // must be overwritten
      BOOST_TEST(p.apply(r) == asio_error::invalid_argument);
      BOOST_TEST(r.result == asio_error::invalid_argument);
    }
  }
  expect_nothing(p);
  BOOST_TEST(apply(p, remove(c.client.native(), &key)) == asio_error::not_found);
  expect_nothing(p);
}

// "Before any system call": an invalid entry for a handle that is not a socket at all
// reports invalid_argument, not bad_descriptor.
BOOST_AUTO_TEST_CASE(invalid_entry_is_rejected_before_any_syscall)
{
  an::port p;
  const an::native_socket_type closed = closed_handle();
  int key = 0;
  for (an::native_socket_type bad : {closed, static_cast<an::native_socket_type>(invalid_socket)})
  {
    for (const bad_entry& b : bad_entries)
    {
      BOOST_TEST_CONTEXT(b.what << " on handle " << bad)
      {
        an::registration r = make(b, bad, &key);
        BOOST_TEST(p.apply(r) == asio_error::invalid_argument);
      }
    }
    // The same handles with valid entries do reach the system and fail differently.
    BOOST_TEST(apply(p, enable(bad, &key, events::in)) == asio_error::bad_descriptor);
  }
}

// An invalid entry leaves an existing registration as it was: not overwritten (the filter
// stays `in`, so the writable socket reports nothing), not removed (data still reports).
BOOST_FIXTURE_TEST_CASE(invalid_entry_leaves_live_registration_unchanged, port_and_pair)
{
  int key = 0;
  BOOST_TEST_REQUIRE(!apply(p, enable(c.client.native(), &key, events::in)));
  for (const bad_entry& b : bad_entries)
  {
    an::registration r = make(b, c.client.native(), &key);
    if (r.filter == events::in)
      r.filter = events::out | events::in; // would report at once if applied
    BOOST_TEST(p.apply(r) == asio_error::invalid_argument, b.what);
  }
  expect_nothing(p);
  send_bytes(c.server.get());
  expect_notification(p, &key, events::in);
}

// A batch mixing good and bad entries: each entry has its own result, the good ones are
// applied, the bad ones are not, and the call itself succeeds.
BOOST_AUTO_TEST_CASE(batch_with_per_entry_results)
{
  an::port p;
  tcp_pair c1 = make_tcp_pair(), c2 = make_tcp_pair(), c3 = make_tcp_pair(), c4 = make_tcp_pair();
  for (tcp_pair* c : {&c1, &c2, &c3, &c4})
  {
    send_bytes(c->server.get());
    BOOST_TEST_REQUIRE(wait_readable(c->client.get()));
  }
  const an::native_socket_type closed = closed_handle();

  int k1 = 1, k2 = 2, k3 = 3, k4 = 4, k5 = 5;
  std::array<an::registration, 6> batch = {
      enable(c1.client.native(), &k1, events::in, level_oneshot),
      enable(c2.client.native(), &k2, events::in, trigger::level | trigger::edge), // invalid
      enable(c3.client.native(), &k3, events::in, level_oneshot),
      remove(c4.client.native(), &k4),                // not registered
      enable(closed, &k5, events::in, level_oneshot), // bad handle
      disable(c2.client.native(), &k2),               // not registered
  };
  for (an::registration& r : batch)
    r.result = asio_error::already_open; // every result must be written
  boost::system::error_code ec;
  p.apply(batch, ec);
  BOOST_TEST(!ec);
  BOOST_TEST(!batch[0].result);
  BOOST_TEST(batch[1].result == asio_error::invalid_argument);
  BOOST_TEST(!batch[2].result);
  BOOST_TEST(batch[3].result == asio_error::not_found);
  BOOST_TEST(batch[4].result == asio_error::bad_descriptor);
  BOOST_TEST(batch[5].result == asio_error::not_found);

  // Exactly the two good registrations report (one-shot: once each).
  std::map<void*, int> seen;
  for (const an::packet& pk : collect_for(p, std::chrono::milliseconds(150)))
  {
    BOOST_TEST(pk.events == events::in);
    ++seen[pk.key];
  }
  BOOST_TEST(seen.size() == 2u);
  BOOST_TEST(seen[&k1] == 1);
  BOOST_TEST(seen[&k3] == 1);

  // Entries of one batch apply in order: enable then disable then remove of one socket.
  int k6 = 6;
  std::array<an::registration, 3> ordered = {enable(c4.client.native(), &k6, events::in),
                                             disable(c4.client.native(), &k6),
                                             remove(c4.client.native(), &k6)};
  p.apply(ordered, ec);
  BOOST_TEST(!ec);
  for (const an::registration& r : ordered)
    BOOST_TEST(!r.result);
  expect_remove(p, &k6);
  expect_nothing(p);
}

// apply(registration&) returns the entry's result and writes it into the entry.
BOOST_FIXTURE_TEST_CASE(single_apply_returns_and_writes_result, port_and_pair)
{
  int key = 0;
  an::registration r = remove(c.client.native(), &key);
  const boost::system::error_code ec = p.apply(r);
  BOOST_TEST(ec == asio_error::not_found);
  BOOST_TEST(r.result == ec);
  r = enable(c.client.native(), &key, events::in);
  r.result = asio_error::invalid_argument;
  BOOST_TEST(!p.apply(r));
  BOOST_TEST(!r.result);
}

// process(): registrations and dequeue in one call; the packets may come from the very
// registrations the call applied (an enable on a readable socket, a remove).
BOOST_FIXTURE_TEST_CASE(process_registers_and_dequeues_in_one_call, port_and_pair)
{
  send_bytes(c.server.get());
  BOOST_TEST_REQUIRE(wait_readable(c.client.get()));
  int key = 0;
  boost::system::error_code ec;
  std::array<an::packet, 4> out;

  an::registration r = enable(c.client.native(), &key, events::in, level_oneshot);
  std::size_t n = p.process({&r, 1}, out, must_arrive, ec);
  BOOST_TEST(!ec);
  BOOST_TEST(!r.result);
  BOOST_TEST_REQUIRE(n == 1u);
  BOOST_TEST(out[0].key == &key);
  BOOST_TEST(out[0].events == events::in);

  // Re-arm the one-shot and dequeue in the same call.
  r.result = asio_error::already_open;
  n = p.process({&r, 1}, out, must_arrive, ec);
  BOOST_TEST(!ec);
  BOOST_TEST(!r.result);
  BOOST_TEST_REQUIRE(n == 1u);
  BOOST_TEST(out[0].key == &key);

  // Remove and receive the remove packet in the same call.
  an::registration rm = remove(c.client.native(), &key);
  n = p.process({&rm, 1}, out, must_arrive, ec);
  BOOST_TEST(!ec);
  BOOST_TEST(!rm.result);
  BOOST_TEST_REQUIRE(n == 1u);
  BOOST_TEST(out[0].key == &key);
  BOOST_TEST(out[0].events == events::remove);
  expect_nothing(p);
}

// process() with no room for packets applies the registrations and returns at once, even
// with an infinite timeout, and consumes no packet.
BOOST_FIXTURE_TEST_CASE(process_without_packets_does_not_wait, port_and_pair)
{
  int key = 0, user = 0;
  p.post(&user, 7);
  an::registration r = enable(c.client.native(), &key, events::in);
  boost::system::error_code ec;
  const auto start = clock_type::now();
  BOOST_TEST(p.process({&r, 1}, {}, an::port::infinite, ec) == 0u);
  BOOST_TEST(ms_since(start) < 1000);
  BOOST_TEST(!ec);
  BOOST_TEST(!r.result);
  std::optional<an::packet> pk = dequeue_one(p, std::chrono::milliseconds(0));
  BOOST_TEST_REQUIRE(pk.has_value());
  BOOST_TEST(pk->key == &user);
  BOOST_TEST(pk->value == 7u);
  // The enable did apply.
  send_bytes(c.server.get());
  expect_notification(p, &key, events::in);
}

// Error paths of entries that pass validation.
BOOST_FIXTURE_TEST_CASE(remove_or_disable_of_unregistered_socket_is_not_found, port_and_pair)
{
  int key = 0;
  BOOST_TEST(apply(p, remove(c.client.native(), &key)) == asio_error::not_found);
  BOOST_TEST(apply(p, disable(c.client.native(), &key)) == asio_error::not_found);
  // Registered once and removed: not found again, and no second remove packet.
  BOOST_TEST_REQUIRE(!apply(p, enable(c.client.native(), &key, events::in)));
  BOOST_TEST(!apply(p, remove(c.client.native(), &key)));
  BOOST_TEST(apply(p, remove(c.client.native(), &key)) == asio_error::not_found);
  BOOST_TEST(apply(p, disable(c.client.native(), &key)) == asio_error::not_found);
  expect_remove(p, &key);
  expect_nothing(p);
}

BOOST_AUTO_TEST_CASE(enable_of_bad_handle_is_bad_descriptor)
{
  an::port p;
  const an::native_socket_type closed = closed_handle();
  int key = 0;
  BOOST_TEST(apply(p, enable(closed, &key, events::in)) == asio_error::bad_descriptor);
  BOOST_TEST(apply(p, enable(static_cast<an::native_socket_type>(invalid_socket), &key,
                             events::in)) == asio_error::bad_descriptor);
  // Nothing was registered.
  BOOST_TEST(apply(p, remove(closed, &key)) != boost::system::error_code());
  expect_nothing(p);
}

BOOST_AUTO_TEST_SUITE_END()
