//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Model-based randomized test of the port: random sequences of registrations, socket state
// changes, closes (with descriptor reuse) and user packets, applied to the real port and to
// the reference model of the contract (contract_model.hpp), compared after every step.
//
// Environment:
//   BOOST_ASIO_NOTIFY_MODEL_SEQUENCES  how many sequences (default 500)
//   BOOST_ASIO_NOTIFY_MODEL_STEPS      steps per sequence (default 100)
//   BOOST_ASIO_NOTIFY_MODEL_SEED       the first seed (default 1); sequence i uses seed + i
// A failure prints the seed, the failing sequence shrunk to the steps that still fail the
// same way, and the full sequence; rerun one with BOOST_ASIO_NOTIFY_MODEL_SEED=<seed>
// BOOST_ASIO_NOTIFY_MODEL_SEQUENCES=1.
#include "port_harness.hpp"

#include <boost/test/unit_test.hpp>

#include <fcntl.h>

#include <cstdlib>
#include <sstream>

using namespace port_model;

namespace {

std::uint64_t env_number(const char* name, std::uint64_t fallback)
{
  const char* v = std::getenv(name);
  if (!v || !*v)
    return fallback;
  return std::strtoull(v, nullptr, 0);
}

constexpr int slots = 4;

// Open descriptors of this process (the harness and the ports must not leak any).
std::size_t open_descriptors()
{
  std::size_t n = 0;
  for (int fd = 0; fd < 4096; ++fd)
    n += ::fcntl(fd, F_GETFD) != -1;
  return n;
}

an::packet notification(void* key, unsigned events)
{
  an::packet p;
  p.key = key;
  p.events = static_cast<an::events>(events);
  return p;
}

an::packet user(void* key, std::uint32_t value)
{
  an::packet p;
  p.key = key;
  p.value = value;
  p.kind = an::packet_kind::user;
  return p;
}

an::registration entry(void* key, unsigned op, unsigned filter = IN, unsigned triggers = LEVEL)
{
  an::registration r;
  r.key = key;
  r.operation = static_cast<an::operation>(op);
  r.filter = static_cast<an::events>(filter);
  r.triggers = static_cast<an::trigger>(triggers);
  return r;
}

// Posts a marker and delivers it, as the harness does at the end of a step.
void marker(contract_model& m, int port = 0)
{
  const std::uint32_t v = m.post_marker(port);
  BOOST_TEST_REQUIRE(m.packet(port, user(contract_model::marker_key(), v)).empty());
}

} // namespace

BOOST_AUTO_TEST_SUITE(port_model_test)

BOOST_AUTO_TEST_CASE(random_sequences_match_the_contract)
{
  const std::uint64_t sequences = env_number("BOOST_ASIO_NOTIFY_MODEL_SEQUENCES", 500);
  const std::uint64_t steps = env_number("BOOST_ASIO_NOTIFY_MODEL_STEPS", 100);
  const std::uint64_t first_seed = env_number("BOOST_ASIO_NOTIFY_MODEL_SEED", 1);
  std::vector<std::uint64_t> failed;
  std::size_t total_steps = 0;
  const std::size_t descriptors = open_descriptors();
  constexpr std::size_t max_failures = 10; // then stop: each failure costs waiting time
  for (std::uint64_t i = 0; i < sequences && failed.size() < max_failures; ++i)
  {
    const std::uint64_t seed = first_seed + i;
    prng_source src(seed);
    std::vector<op> ops;
    run_result r = run_generated(src, steps, slots, &ops);
    total_steps += r.steps.size();
    if (r.ok)
      continue;
    failed.push_back(seed);
    std::ostringstream msg;
    msg << "model violation, seed " << seed << " (BOOST_ASIO_NOTIFY_MODEL_SEED=" << seed
        << " BOOST_ASIO_NOTIFY_MODEL_SEQUENCES=1 BOOST_ASIO_NOTIFY_MODEL_STEPS=" << steps
        << "), step #" << r.failed_step << ":\n"
        << r.violation;
    if (failed.size() == 1)
    {
      ops.resize(r.failed_step + 1);
      const std::vector<op> small = shrink(ops, slots, violation_category(r.violation));
      run_result s = run_ops(small, slots);
      if (!s.ok)
        msg << "shrunk to " << small.size() << " steps:\n"
            << format_steps(s) << "fails with: " << s.violation;
    }
    if (failed.size() <= 3)
      msg << "full sequence:\n" << format_steps(r);
    BOOST_ERROR(msg.str());
  }
  BOOST_TEST_MESSAGE(sequences << " sequences, " << total_steps << " steps, " << failed.size()
                               << " failed");
  BOOST_TEST(open_descriptors() == descriptors, "descriptors leaked by the ports or the harness");
  BOOST_TEST(failed.empty(), failed.size()
                                 << " sequences broke the contract"
                                 << (failed.size() >= max_failures ? " (stopped there)" : ""));
}

// ---- the model itself: it must reject what the contract forbids --------------------------------

BOOST_AUTO_TEST_CASE(model_rejects_packets_for_disabled_registrations_after_the_marker)
{
  contract_model m(2, 1);
  m.socket_opened(0, sock_kind::unix_stream);
  m.socket_changed(0, change::peer_write);
  void* key = m.fresh_key();
  BOOST_TEST_REQUIRE(m.entry(0, 0, entry(key, 1)).success());
  BOOST_TEST_REQUIRE(m.entry(0, 0, entry(key, 2)).success()); // disable
  // Queued before the disable: still allowed until the marker posted after it.
  BOOST_TEST(m.packet(0, notification(key, IN)).empty());
  marker(m);
  BOOST_TEST(!m.packet(0, notification(key, IN)).empty());
}

BOOST_AUTO_TEST_CASE(model_rejects_anything_after_remove_and_dangling_keys_after_close)
{
  contract_model m(2, 2);
  m.socket_opened(0, sock_kind::tcp);
  m.socket_opened(1, sock_kind::tcp);
  void* k0 = m.fresh_key();
  void* k1 = m.fresh_key();
  BOOST_TEST_REQUIRE(m.entry(0, 0, entry(k0, 1, OUT)).success());
  BOOST_TEST_REQUIRE(m.entry(0, 1, entry(k1, 1, OUT)).success());
  BOOST_TEST_REQUIRE(m.entry(0, 0, entry(k0, 4)).success()); // remove
  BOOST_TEST(m.has_owed(0));                                 // the REMOVE packet
  BOOST_TEST(m.packet(0, notification(k0, OUT)).empty());    // queued before the remove
  BOOST_TEST(m.packet(0, notification(k0, REM)).empty());
  BOOST_TEST(!m.packet(0, notification(k0, OUT)).empty()); // after REMOVE: nothing
  BOOST_TEST(!m.packet(0, notification(k0, REM)).empty()); // and never a second REMOVE
  m.socket_closed(1);
  BOOST_TEST(m.packet(0, notification(k1, OUT)).empty());  // queued before the close
  BOOST_TEST(!m.packet(0, notification(k1, REM)).empty()); // no REMOVE for a close
  marker(m);
  BOOST_TEST(!m.packet(0, notification(k1, OUT)).empty()); // dangling
}

BOOST_AUTO_TEST_CASE(model_oneshot_level_and_edge_rules)
{
  contract_model m(2, 1);
  m.socket_opened(0, sock_kind::unix_stream);
  void* key = m.fresh_key();
  // One-shot: one packet per arming.
  BOOST_TEST_REQUIRE(m.entry(0, 0, entry(key, 1, OUT, LEVEL | ONESHOT)).success());
  marker(m);
  BOOST_TEST(m.has_owed(0));
  BOOST_TEST(m.packet(0, notification(key, OUT)).empty());
  BOOST_TEST(!m.has_owed(0));
  BOOST_TEST(!m.packet(0, notification(key, OUT)).empty());
  // Level persistent: at least two packets after the marker, each naming all that holds.
  BOOST_TEST_REQUIRE(m.entry(0, 0, entry(key, 1, IN | OUT, LEVEL)).success());
  m.socket_changed(0, change::peer_write);
  marker(m);
  BOOST_TEST(!m.packet(0, notification(key, OUT)).empty()); // in holds too
  BOOST_TEST(m.packet(0, notification(key, IN | OUT)).empty());
  BOOST_TEST(m.has_owed(0));
  BOOST_TEST(m.packet(0, notification(key, IN | OUT)).empty());
  BOOST_TEST(!m.has_owed(0));
  // Edge: a packet per cause, none without one; a rising condition is owed.
  BOOST_TEST_REQUIRE(m.entry(0, 0, entry(key, 1, IN, EDGE)).success());
  marker(m);
  m.socket_changed(0, change::drain);
  marker(m);
  BOOST_TEST(!m.packet(0, notification(key, IN)).empty()); // drained: no IN, no cause
  m.socket_changed(0, change::peer_write);
  marker(m);
  BOOST_TEST(m.has_owed(0));
  BOOST_TEST(m.packet(0, notification(key, IN)).empty());
  BOOST_TEST(!m.has_owed(0));
  BOOST_TEST(!m.packet(0, notification(key, IN)).empty()); // no second packet for one cause
}

BOOST_AUTO_TEST_CASE(model_entry_results)
{
  namespace ae = boost::asio::error;
  contract_model m(2, 2);
  m.socket_opened(0, sock_kind::udp);
  m.socket_opened(1, sock_kind::tcp);
  void* k = m.fresh_key();
  BOOST_TEST(m.entry(0, 0, entry(k, 1, IN, LEVEL | EDGE)).accepts(ae::invalid_argument));
  BOOST_TEST(m.entry(0, 0, entry(k, 2)).accepts(ae::not_found));
  BOOST_TEST(m.entry(0, -1, entry(k, 1)).accepts(ae::bad_descriptor));
  BOOST_TEST(m.entry(0, -1, entry(k, 4)).accepts(ae::not_found));
  BOOST_TEST(m.entry(0, 0, entry(k, 1, IN | HUP)).success());
  BOOST_TEST(m.entry(1, 0, entry(m.fresh_key(), 1)).accepts(ae::already_open));
  const contract_model::expected change_key = m.entry(0, 0, entry(m.fresh_key(), 1));
  BOOST_TEST(!change_key.accepts(error_code()));
  BOOST_TEST(change_key.accepts(ae::invalid_argument));
  // UDP never reports hangup (rule 10), even asked for and shut down.
  m.socket_changed(0, change::local_shutdown);
  BOOST_TEST(!m.packet(0, notification(k, IN | HUP)).empty());
  // A user packet must come as posted, in order.
  m.posted(0, k, 7);
  m.posted(0, k, 8);
  BOOST_TEST(!m.packet(0, user(k, 8)).empty());
}

BOOST_AUTO_TEST_SUITE_END()
