//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The PSN backend of the port (src/port/win/psn_port.cpp):
// - against scripted fakes of ProcessSocketNotifications, what exactly it passes to PSN and
//   how it reads the answer (entries, results, timeouts, call failures, packet kinds);
// - against the PSN double (psn_double.hpp, installed for the whole executable by
//   psn_double_fixture.cpp), the basic life of a registration on real loopback sockets.
// The portable conformance suite (test/port) covers the contract itself.
#include "port/sockets.hpp" // first: winsock2.h before windows.h
#include "psn_double.hpp"
#include "port/win/afd_engine.hpp" // the library's private AFD engine (src/)

#include <boost/asio_notify/port.hpp>

#include <boost/asio/error.hpp>
#include <boost/system/system_error.hpp>
#include <boost/test/unit_test.hpp>

#include <winsock2.h>

#include <array>
#include <chrono>
#include <memory>
#include <ostream>
#include <thread>
#include <utility>
#include <vector>

namespace boost {
namespace asio_notify {
// Test diagnostics for the port's enums (found by Boost.Test through ADL).
inline std::ostream& boost_test_print_type(std::ostream& os, events e)
{
  return os << "events(0x" << std::hex << static_cast<unsigned>(e) << std::dec << ")";
}
inline std::ostream& boost_test_print_type(std::ostream& os, port_backend b)
{
  return os << to_string(b);
}
inline std::ostream& boost_test_print_type(std::ostream& os, packet_kind k)
{
  return os << (k == packet_kind::user ? "user" : "notification");
}
} // namespace asio_notify
} // namespace boost

namespace an = boost::asio_notify;
namespace psn = boost::asio_notify::detail::psn;
using boost::asio_notify::detail::sock_notify_registration;
using std::chrono::milliseconds;

namespace {

struct winsock
{
  winsock()
  {
    WSADATA data;
    BOOST_TEST_REQUIRE(::WSAStartup(MAKEWORD(2, 2), &data) == 0);
  }
  ~winsock() { ::WSACleanup(); }
};

BOOST_TEST_GLOBAL_FIXTURE(winsock);

boost::system::error_code win32(DWORD e)
{
  return boost::system::error_code(static_cast<int>(e), boost::system::system_category());
}

// ---- scripted fakes of ProcessSocketNotifications ---------------------------------------

// What the fake saw in its calls, and what it answers. One fake at a time (tests run in
// sequence); the port under test is created while it is installed.
struct fake_call
{
  UINT32 registration_count = 0;
  bool registrations_null = false;
  std::vector<sock_notify_registration> registrations;
  UINT32 timeout_ms = 0;
  ULONG completion_count = 0;
  bool entries_null = false;
  bool received_null = false;
};

struct fake_script
{
  std::vector<fake_call> calls;
  DWORD return_value = ERROR_SUCCESS;
  std::vector<DWORD> registration_results; // by entry index of each call; default success
  std::vector<OVERLAPPED_ENTRY> entries;   // returned by the first dequeuing call
  DWORD fail_calls_with_more_than_one_entry = ERROR_SUCCESS; // a whole-batch failure
  // The return values of the first calls, in order, given after their entries' results are
  // written: a call that took effect and failed as a whole.
  std::vector<DWORD> failures_after_effect;
  int early_returns = 0; // dequeuing calls that return a timeout at once, packets or not
};

fake_script* script = nullptr;

DWORD WSAAPI fake_psn(HANDLE, UINT32 count, sock_notify_registration* regs, UINT32 timeout_ms,
                      ULONG completion_count, OVERLAPPED_ENTRY* entries, UINT32* received)
{
  fake_call c;
  c.registration_count = count;
  c.registrations_null = regs == nullptr;
  c.registrations.assign(regs, regs + count);
  c.timeout_ms = timeout_ms;
  c.completion_count = completion_count;
  c.entries_null = entries == nullptr;
  c.received_null = received == nullptr;
  script->calls.push_back(c);
  if (count > 1 && script->fail_calls_with_more_than_one_entry != ERROR_SUCCESS)
    return script->fail_calls_with_more_than_one_entry;
  for (UINT32 i = 0; i < count; ++i)
    regs[i].registration_result =
        i < script->registration_results.size() ? script->registration_results[i] : ERROR_SUCCESS;
  if (script->return_value != ERROR_SUCCESS)
    return script->return_value;
  if (script->calls.size() <= script->failures_after_effect.size() &&
      script->failures_after_effect[script->calls.size() - 1] != ERROR_SUCCESS)
    return script->failures_after_effect[script->calls.size() - 1];
  if (completion_count == 0)
    return ERROR_SUCCESS;
  if (script->early_returns > 0 && timeout_ms != 0)
    return script->early_returns-- % 2 ? WAIT_TIMEOUT : ERROR_TIMEOUT;
  if (script->entries.empty())
  {
    // Nothing to dequeue: a timeout, early (after half the wait, as real waits may end
    // early) and with either code the documentation names.
    if (timeout_ms != INFINITE)
      std::this_thread::sleep_for(milliseconds(timeout_ms / 2));
    return script->calls.size() % 2 ? WAIT_TIMEOUT : ERROR_TIMEOUT;
  }
  const ULONG n = std::min<ULONG>(completion_count, static_cast<ULONG>(script->entries.size()));
  std::copy_n(script->entries.begin(), n, entries);
  script->entries.erase(script->entries.begin(), script->entries.begin() + n);
  *received = n;
  return ERROR_SUCCESS;
}

// A port wired to `fake_psn` and `s`; the double is back for everything else afterwards.
struct faked_port
{
  fake_script s;
  std::unique_ptr<an::port> port;

  faked_port()
  {
    script = &s;
    boost::asio_notify::detail::set_process_socket_notifications_for_testing(&fake_psn);
    port = std::make_unique<an::port>(an::port_backend::psn);
    psn_double::install();
  }
  ~faked_port() { script = nullptr; }
};

an::registration entry(an::native_socket_type s, void* key, an::events filter,
                       an::operation op = an::operation::enable,
                       an::trigger t = an::trigger::level | an::trigger::oneshot)
{
  an::registration r;
  r.socket = s;
  r.key = key;
  r.filter = filter;
  r.operation = op;
  r.triggers = t;
  return r;
}

OVERLAPPED_ENTRY notification_entry(void* key, DWORD events)
{
  OVERLAPPED_ENTRY e{};
  e.lpCompletionKey = reinterpret_cast<ULONG_PTR>(key);
  e.dwNumberOfBytesTransferred = events;
  return e;
}

// ---- real sockets for the double: port_test's (test/port/sockets.hpp) ----------------------

/// A UDP socket bound to loopback.
port_test::unique_socket udp_socket()
{
  port_test::unique_socket u = port_test::make_socket(SOCK_DGRAM);
  port_test::bind_loopback(u.get());
  return u;
}

} // namespace

// =========================================================================================

BOOST_AUTO_TEST_SUITE(port_windows_translation)

// Entries reach PSN with the documented layout and values; disable and remove carry no
// filter or trigger; each registrationResult comes back as a system_category error_code.
BOOST_AUTO_TEST_CASE(entries_and_results)
{
  faked_port f;
  int k1 = 0, k2 = 0, k3 = 0;
  std::array<an::registration, 4> batch = {
      entry(11, &k1, an::events::in | an::events::hangup),
      entry(22, &k2, an::events::out, an::operation::enable, an::trigger::edge),
      entry(33, &k3, an::events::in, an::operation::disable, an::trigger::edge),
      entry(44, &k3, an::events::out, an::operation::remove, an::trigger::level)};
  f.s.registration_results = {ERROR_SUCCESS, WSAENOTSOCK, ERROR_NOT_FOUND, WSAEINVAL};
  boost::system::error_code ec;
  f.port->apply(batch, ec);
  BOOST_TEST(!ec);
  BOOST_TEST_REQUIRE(f.s.calls.size() == 1u);
  const fake_call& c = f.s.calls[0];
  BOOST_TEST(c.registration_count == 4u);
  BOOST_TEST(c.completion_count == 0u);
  BOOST_TEST(c.timeout_ms == 0u);
  BOOST_TEST(c.entries_null);
  BOOST_TEST_REQUIRE(c.registrations.size() == 4u);
  const sock_notify_registration& r0 = c.registrations[0];
  BOOST_TEST(r0.socket == SOCKET(11));
  BOOST_TEST(r0.completion_key == &k1);
  BOOST_TEST(r0.event_filter == (psn::register_event_in | psn::register_event_hangup));
  BOOST_TEST(r0.operation == psn::op_enable);
  BOOST_TEST(r0.trigger_flags == (psn::trigger_level | psn::trigger_oneshot));
  // Neither one-shot nor persistent means persistent, and PSN is told so explicitly.
  BOOST_TEST(c.registrations[1].trigger_flags == (psn::trigger_edge | psn::trigger_persistent));
  BOOST_TEST(c.registrations[2].operation == psn::op_disable);
  BOOST_TEST(c.registrations[2].event_filter == 0);
  BOOST_TEST(c.registrations[2].trigger_flags == 0);
  BOOST_TEST(c.registrations[3].operation == psn::op_remove);
  BOOST_TEST(c.registrations[3].event_filter == 0);

  BOOST_TEST(!batch[0].result);
  BOOST_TEST(batch[1].result == boost::asio::error::bad_descriptor); // WSAENOTSOCK: not a socket
  BOOST_TEST(batch[2].result ==
             boost::asio::error::not_found); // ERROR_NOT_FOUND, as the contract names it
  BOOST_TEST(batch[3].result == boost::asio::error::invalid_argument); // WSAEINVAL
}

// Invalid entries never reach PSN; the valid ones keep their own results.
BOOST_AUTO_TEST_CASE(invalid_entries_are_not_passed)
{
  faked_port f;
  int k = 0;
  std::array<an::registration, 3> batch = {
      entry(11, &k, an::events::in),
      entry(22, &k, an::events::in, an::operation::enable, an::trigger::level | an::trigger::edge),
      entry(33, &k, an::events::in, an::operation::none)};
  f.s.registration_results = {WSAENOTSOCK};
  boost::system::error_code ec;
  f.port->apply(batch, ec);
  BOOST_TEST(!ec);
  BOOST_TEST_REQUIRE(f.s.calls.size() == 1u);
  BOOST_TEST_REQUIRE(f.s.calls[0].registration_count == 1u);
  BOOST_TEST(f.s.calls[0].registrations[0].socket == SOCKET(11));
  BOOST_TEST(batch[0].result == boost::asio::error::bad_descriptor); // WSAENOTSOCK
  BOOST_TEST(batch[1].result == boost::asio::error::invalid_argument);
  BOOST_TEST(batch[2].result == boost::asio::error::invalid_argument);

  // Nothing valid at all, nothing to dequeue: no call.
  f.s.calls.clear();
  f.port->apply(boost::span<an::registration>(&batch[1], 2), ec);
  BOOST_TEST(f.s.calls.empty());
}

// Batches larger than one PSN call's buffer go in several calls; the last one dequeues.
BOOST_AUTO_TEST_CASE(large_batches_are_chunked)
{
  faked_port f;
  int k = 0;
  std::vector<an::registration> batch;
  for (int i = 0; i < 150; ++i)
    batch.push_back(entry(static_cast<an::native_socket_type>(1000 + i), &k, an::events::in));
  f.s.entries = {notification_entry(&k, psn::register_event_in)};
  boost::system::error_code ec;
  std::array<an::packet, 4> out;
  BOOST_TEST(f.port->process(batch, out, milliseconds(0), ec) == 1u);
  BOOST_TEST(!ec);
  UINT32 total = 0;
  for (std::size_t i = 0; i < f.s.calls.size(); ++i)
  {
    const bool last = i + 1 == f.s.calls.size();
    BOOST_TEST(f.s.calls[i].completion_count == (last ? 4u : 0u));
    for (const sock_notify_registration& r : f.s.calls[i].registrations)
      BOOST_TEST(r.socket == SOCKET(1000 + total++)); // in order
  }
  BOOST_TEST(f.s.calls.size() >= 3u);
  BOOST_TEST(total == 150u);
  for (const an::registration& r : batch)
    BOOST_TEST(!r.result);
}

// When every PSN call fails as a whole, ec says why and so does every entry, mapped as an
// entry's own result would be (ERROR_INVALID_HANDLE: bad_descriptor).
BOOST_AUTO_TEST_CASE(call_failure_reaches_ec_and_every_entry)
{
  faked_port f;
  f.s.return_value = ERROR_INVALID_HANDLE;
  int k = 0;
  std::array<an::registration, 2> batch = {entry(1, &k, an::events::in),
                                           entry(2, &k, an::events::in, an::operation::remove)};
  std::array<an::packet, 2> out;
  boost::system::error_code ec;
  BOOST_TEST(f.port->process(batch, out, milliseconds(100), ec) == 0u);
  BOOST_TEST(ec == boost::asio::error::bad_descriptor);
  BOOST_TEST(batch[0].result == boost::asio::error::bad_descriptor);
  BOOST_TEST(batch[1].result == boost::asio::error::bad_descriptor);
  BOOST_CHECK_THROW(f.port->dequeue(out, milliseconds(0)), boost::system::system_error);
}

// A call with one entry that fails as a whole gives the entry the error its own result
// would give, whichever family: an error that names the entry (a bad socket or parameter)
// is the entry's alone; any other is the call's too.
BOOST_AUTO_TEST_CASE(one_entry_call_failure_is_mapped_as_an_entry_result)
{
  const std::pair<DWORD, boost::system::error_code> cases[] = {
      {WSAENOTSOCK, boost::asio::error::bad_descriptor},
      {0xC0000008 /* STATUS_INVALID_HANDLE */, boost::asio::error::bad_descriptor},
      {ERROR_INVALID_PARAMETER, boost::asio::error::invalid_argument},
      {0xC000000D /* STATUS_INVALID_PARAMETER */, boost::asio::error::invalid_argument},
      {ERROR_NOT_ENOUGH_MEMORY, win32(ERROR_NOT_ENOUGH_MEMORY)},
      {0xC0000017 /* STATUS_NO_MEMORY */, win32(ERROR_NOT_ENOUGH_MEMORY)}};
  for (const auto& [failure, expected] : cases)
  {
    BOOST_TEST_CONTEXT("call failure 0x" << std::hex << failure)
    {
      faked_port f;
      f.s.return_value = failure;
      int k = 0;
      an::registration r = entry(1, &k, an::events::in);
      boost::system::error_code ec;
      f.port->apply({&r, 1}, ec);
      BOOST_TEST(r.result == expected);
      const bool entry_caused = expected == boost::asio::error::bad_descriptor ||
                                expected == boost::asio::error::invalid_argument;
      BOOST_TEST(ec == (entry_caused ? boost::system::error_code() : expected));
    }
  }
}

// A call that took effect and then failed as a whole: its entries are applied again (as a
// batch, then one by one if that fails too) and the dequeue goes on alone, so the caller
// sees the entries' outcomes and the packets, and no failure.
BOOST_AUTO_TEST_CASE(failed_call_that_took_effect_is_repeated)
{
  faked_port f;
  f.s.failures_after_effect = {ERROR_NOT_ENOUGH_MEMORY};
  int k = 0;
  f.s.entries = {notification_entry(&k, psn::register_event_in)};
  std::array<an::registration, 2> batch = {entry(1, &k, an::events::in),
                                           entry(2, &k, an::events::in, an::operation::remove)};
  std::array<an::packet, 2> out;
  boost::system::error_code ec;
  BOOST_TEST(f.port->process(batch, out, milliseconds(1000), ec) == 1u);
  BOOST_TEST(!ec);
  BOOST_TEST(!batch[0].result);
  BOOST_TEST(!batch[1].result);
  BOOST_TEST_REQUIRE(f.s.calls.size() == 3u); // with the dequeue, the batch alone, the dequeue
  BOOST_TEST(f.s.calls[0].registration_count == 2u);
  BOOST_TEST(f.s.calls[0].completion_count == 2u);
  BOOST_TEST(f.s.calls[1].registration_count == 2u);
  BOOST_TEST(f.s.calls[1].completion_count == 0u);
  BOOST_TEST(f.s.calls[2].registration_count == 0u);
  BOOST_TEST(f.s.calls[2].completion_count == 2u);
  BOOST_TEST(out[0].key == &k);
}

// When an entry repeated alone fails for a reason of the call's own, the entries after it
// are not attempted and report that reason, never a success they did not have.
BOOST_AUTO_TEST_CASE(entries_after_a_failed_repeat_report_its_reason)
{
  faked_port f;
  f.s.failures_after_effect = {WSAENOBUFS, ERROR_SUCCESS, WSAENOBUFS};
  int k = 0;
  std::array<an::registration, 3> batch = {
      entry(1, &k, an::events::in), entry(2, &k, an::events::in), entry(3, &k, an::events::out)};
  boost::system::error_code ec;
  f.port->apply(batch, ec);
  BOOST_TEST(ec == win32(WSAENOBUFS));
  BOOST_TEST(!batch[0].result);
  BOOST_TEST(batch[1].result == win32(WSAENOBUFS));
  BOOST_TEST(batch[2].result == win32(WSAENOBUFS)); // not attempted
  BOOST_TEST(f.s.calls.size() == 3u);
}

// Entry results that say the same thing in the two families give the same error.
BOOST_AUTO_TEST_CASE(entry_results_are_the_same_in_either_family)
{
  faked_port f;
  f.s.registration_results = {
      ERROR_NOT_FOUND,         0xC0000225 /* STATUS_NOT_FOUND */,         WSAEINVAL,
      ERROR_INVALID_PARAMETER, 0xC000000D /* STATUS_INVALID_PARAMETER */, WSAEBADF};
  int k = 0;
  std::array<an::registration, 6> batch;
  for (an::registration& r : batch)
    r = entry(1, &k, an::events::in, an::operation::disable);
  boost::system::error_code ec;
  f.port->apply(batch, ec);
  BOOST_TEST(!ec);
  BOOST_TEST(batch[0].result == boost::asio::error::not_found);
  BOOST_TEST(batch[1].result == boost::asio::error::not_found);
  for (std::size_t i = 2; i < 5; ++i)
    BOOST_TEST(batch[i].result == boost::asio::error::invalid_argument, "entry " << i);
  BOOST_TEST(batch[5].result == boost::asio::error::bad_descriptor);
}

// Timeouts: 0 polls, infinite is INFINITE, finite ones pass through (clamped below
// INFINITE); a timeout (WAIT_TIMEOUT or ERROR_TIMEOUT) is zero packets and no error. An empty
// packet span asks PSN to dequeue nothing and never to wait.
BOOST_AUTO_TEST_CASE(timeouts_are_mapped)
{
  faked_port f;
  std::array<an::packet, 3> out;
  int k = 0;
  boost::system::error_code ec = boost::asio::error::already_open;
  const auto first_timeout = [&](milliseconds timeout, bool with_packet) {
    f.s.calls.clear();
    if (with_packet) // the endless waits end with a packet
      f.s.entries = {notification_entry(&k, psn::register_event_in)};
    BOOST_TEST(f.port->dequeue(out, timeout, ec) == (with_packet ? 1u : 0u));
    BOOST_TEST(!ec);
    BOOST_TEST_REQUIRE(!f.s.calls.empty());
    for (const fake_call& c : f.s.calls)
    {
      BOOST_TEST(c.completion_count == 3u);
      BOOST_TEST(c.registration_count == 0u);
      BOOST_TEST(c.registrations_null);
      BOOST_TEST(!c.entries_null);
      BOOST_TEST(!c.received_null);
    }
    return f.s.calls.front().timeout_ms;
  };
  BOOST_TEST(first_timeout(milliseconds(0), false) == 0u);
  BOOST_TEST(f.s.calls.size() == 1u);
  BOOST_TEST(first_timeout(milliseconds(-5), false) == 0u);
  BOOST_TEST(f.s.calls.size() == 1u);
  BOOST_TEST(first_timeout(milliseconds(250), false) == 250u);
  BOOST_TEST(first_timeout(an::port::infinite, true) == INFINITE);
  BOOST_TEST(first_timeout(std::chrono::hours(24 * 365 * 200), true) == INFINITE - 1);
  f.s.calls.clear();
  an::registration r = entry(5, &k, an::events::in);
  BOOST_TEST(f.port->process({&r, 1}, {}, an::port::infinite, ec) == 0u);
  BOOST_TEST_REQUIRE(f.s.calls.size() == 1u);
  BOOST_TEST(f.s.calls[0].completion_count == 0u);
  BOOST_TEST(f.s.calls[0].timeout_ms == 0u);
}

// A wait that ends early (the fake returns after half of each wait) goes on for what is
// left, with the remaining time, and ends with zero packets and no error once it is spent.
BOOST_AUTO_TEST_CASE(early_timeouts_are_waited_out)
{
  faked_port f;
  std::array<an::packet, 2> out;
  boost::system::error_code ec;
  const auto start = std::chrono::steady_clock::now();
  BOOST_TEST(f.port->dequeue(out, milliseconds(200), ec) == 0u);
  BOOST_TEST(!ec);
  BOOST_TEST((std::chrono::steady_clock::now() - start >= milliseconds(150)));
  BOOST_TEST_REQUIRE(f.s.calls.size() >= 2u);
  BOOST_TEST(f.s.calls[0].timeout_ms == 200u);
  for (std::size_t i = 1; i < f.s.calls.size(); ++i)
    BOOST_TEST(f.s.calls[i].timeout_ms <= f.s.calls[i - 1].timeout_ms); // what is left
}

// A wait that ends at once with a timeout code while packets are queued (either code; also
// an infinite wait) goes on and gets them.
BOOST_AUTO_TEST_CASE(early_wakeups_with_packets_waiting_go_on)
{
  for (const milliseconds timeout : {milliseconds(2000), an::port::infinite})
  {
    faked_port f;
    int k = 0;
    f.s.early_returns = 3;
    f.s.entries = {notification_entry(&k, psn::register_event_in)};
    std::array<an::packet, 2> out;
    boost::system::error_code ec;
    BOOST_TEST(f.port->dequeue(out, timeout, ec) == 1u);
    BOOST_TEST(!ec);
    BOOST_TEST(f.s.calls.size() == 4u);
    BOOST_TEST(out[0].key == &k);
  }
}

// Packets: lpOverlapped of a notification is never read (documented only as reserved), so
// a notification whose lpOverlapped holds anything at all is still a notification, its
// events from dwNumberOfBytesTransferred with bits outside SOCK_NOTIFY_* dropped; the port's
// own marker makes a user packet; an entry without a known event bit reports nothing.
BOOST_AUTO_TEST_CASE(packets_are_translated)
{
  faked_port f;
  int k1 = 0, k2 = 0, k3 = 0;
  OVERLAPPED reserved{};
  OVERLAPPED_ENTRY with_reserved_field = notification_entry(&k3, psn::register_event_out);
  with_reserved_field.lpOverlapped = &reserved;
  f.s.entries = {notification_entry(&k1, psn::register_event_in | psn::event_err | 0x100),
                 with_reserved_field, notification_entry(&k2, 0), notification_entry(&k2, 0x200),
                 notification_entry(&k2, psn::event_remove)};
  std::array<an::packet, 8> out;
  BOOST_TEST_REQUIRE(f.port->dequeue(out, milliseconds(0)) == 3u);
  BOOST_TEST(out[0].key == &k1);
  BOOST_TEST(out[0].kind == an::packet_kind::notification);
  BOOST_TEST((out[0].events == (an::events::in | an::events::error)));
  BOOST_TEST(out[1].key == &k3);
  BOOST_TEST(out[1].kind == an::packet_kind::notification);
  BOOST_TEST((out[1].events == an::events::out));
  BOOST_TEST(out[2].key == &k2);
  BOOST_TEST((out[2].events == an::events::remove));
}

// A wait that dequeued only entries without events keeps waiting for the rest of its timeout.
BOOST_AUTO_TEST_CASE(entries_without_events_do_not_end_a_wait)
{
  faked_port f;
  int k = 0;
  f.s.entries = {notification_entry(&k, 0x200)};
  std::array<an::packet, 2> out;
  BOOST_TEST(f.port->dequeue(out, milliseconds(200)) == 0u);
  BOOST_TEST_REQUIRE(f.s.calls.size() >= 2u);
  BOOST_TEST(f.s.calls[1].timeout_ms <= 200u);
}

// A call that fails as a whole with several entries is repeated entry by entry, so one bad
// entry does not fail the others (whether PSN fails an entry or the call is undocumented).
BOOST_AUTO_TEST_CASE(whole_batch_failure_is_retried_entry_by_entry)
{
  faked_port f;
  f.s.fail_calls_with_more_than_one_entry = ERROR_INVALID_HANDLE;
  f.s.registration_results = {WSAENOTSOCK};
  int k = 0;
  std::array<an::registration, 3> batch = {
      entry(1, &k, an::events::in), entry(2, &k, an::events::in), entry(3, &k, an::events::out)};
  boost::system::error_code ec;
  f.port->apply(batch, ec);
  BOOST_TEST(!ec);
  BOOST_TEST_REQUIRE(f.s.calls.size() == 4u); // the batch, then each entry alone
  BOOST_TEST(f.s.calls[0].registration_count == 3u);
  for (std::size_t i = 1; i < 4; ++i)
  {
    BOOST_TEST(f.s.calls[i].registration_count == 1u);
    BOOST_TEST(f.s.calls[i].registrations[0].socket == static_cast<SOCKET>(i));
  }
  // Each alone got the fake's first result: WSAENOTSOCK, the contract's bad_descriptor.
  for (const an::registration& r : batch)
    BOOST_TEST(r.result == boost::asio::error::bad_descriptor);
}

// A per-entry result in the NTSTATUS family is converted to its Win32 code; "not a socket"
// is bad_descriptor in either family.
BOOST_AUTO_TEST_CASE(ntstatus_entry_results_are_converted)
{
  faked_port f;
  f.s.registration_results = {0xC0000022 /* STATUS_ACCESS_DENIED */, ERROR_NOT_FOUND,
                              0xC0000008 /* STATUS_INVALID_HANDLE */};
  int k = 0;
  std::array<an::registration, 3> batch = {entry(1, &k, an::events::in),
                                           entry(2, &k, an::events::in, an::operation::remove),
                                           entry(3, &k, an::events::in)};
  boost::system::error_code ec;
  f.port->apply(batch, ec);
  BOOST_TEST(!ec);
  BOOST_TEST(batch[0].result == win32(ERROR_ACCESS_DENIED));
  BOOST_TEST(batch[1].result == boost::asio::error::not_found);
  BOOST_TEST(batch[2].result == boost::asio::error::bad_descriptor); // not a socket, any family
}

BOOST_AUTO_TEST_SUITE_END()

// =========================================================================================

BOOST_AUTO_TEST_SUITE(port_windows_with_double)

BOOST_AUTO_TEST_CASE(port_is_a_completion_port)
{
  BOOST_TEST(an::is_supported());
  an::port p(an::port_backend::psn);
  BOOST_TEST(p.backend() == an::port_backend::psn);
  BOOST_TEST_REQUIRE(p.native_handle() != nullptr);
  // User packets come back through the port's own marker, value and key intact.
  int mine = 0;
  p.post(&mine, 0xfffffffe);
  std::array<an::packet, 4> out;
  BOOST_TEST_REQUIRE(p.dequeue(out, milliseconds(1000)) == 1u);
  BOOST_TEST(out[0].kind == an::packet_kind::user);
  BOOST_TEST(out[0].key == &mine);
  BOOST_TEST(out[0].value == 0xfffffffeu);
}

BOOST_AUTO_TEST_CASE(register_dequeue_oneshot_remove)
{
  an::port p(an::port_backend::psn);
  auto [client, server] = port_test::make_tcp_pair();
  int key = 0;
  an::registration r = entry(client.native(), &key, an::events::in | an::events::hangup);
  BOOST_TEST_REQUIRE(!p.apply(r));
  std::array<an::packet, 4> out;
  BOOST_TEST(p.dequeue(out, milliseconds(50)) == 0u);
  BOOST_TEST_REQUIRE(::send(server.get(), "x", 1, 0) == 1);
  BOOST_TEST_REQUIRE(p.dequeue(out, milliseconds(5000)) == 1u);
  BOOST_TEST(out[0].key == &key);
  BOOST_TEST((out[0].events == an::events::in));
  BOOST_TEST(p.dequeue(out, milliseconds(50)) == 0u); // one-shot
  BOOST_TEST_REQUIRE(!p.apply(r));                    // re-armed: the data is still there
  BOOST_TEST_REQUIRE(p.dequeue(out, milliseconds(5000)) == 1u);
  BOOST_TEST((out[0].events == an::events::in));

  an::registration rm = entry(client.native(), &key, an::events::none, an::operation::remove);
  std::size_t n = 0;
  boost::system::error_code ec;
  n = p.process({&rm, 1}, out, milliseconds(5000), ec);
  BOOST_TEST(!ec);
  BOOST_TEST(!rm.result);
  BOOST_TEST_REQUIRE(n == 1u);
  BOOST_TEST(out[0].key == &key);
  BOOST_TEST((out[0].events == an::events::remove));
  BOOST_TEST(p.dequeue(out, milliseconds(50)) == 0u);
  BOOST_TEST(psn_double::registration_count() == 0u);
}

// A batch of more registrations than one PSN call takes, with a dequeue in the same call,
// then as many remove packets, each exactly once.
BOOST_AUTO_TEST_CASE(many_registrations_and_removes)
{
  an::port p(an::port_backend::psn);
  constexpr int n = 100;
  std::vector<port_test::unique_socket> sockets;
  std::vector<int> keys(n);
  std::vector<an::registration> batch;
  for (int i = 0; i < n; ++i)
  {
    sockets.push_back(udp_socket());
    batch.push_back(entry(sockets.back().native(), &keys[i], an::events::in, an::operation::enable,
                          an::trigger::level | an::trigger::persistent));
  }
  boost::system::error_code ec;
  std::array<an::packet, 8> out;
  BOOST_TEST(p.process(batch, out, milliseconds(20), ec) == 0u); // nothing readable
  BOOST_TEST(!ec);
  for (const an::registration& r : batch)
    BOOST_TEST(!r.result);
  for (an::registration& r : batch)
    r.operation = an::operation::remove;
  p.apply(batch, ec);
  BOOST_TEST(!ec);
  std::vector<int> removes(n);
  std::vector<an::packet> many(70);
  for (int got = 0; got < n;)
  {
    const std::size_t k = p.dequeue(many, milliseconds(5000));
    BOOST_TEST_REQUIRE(k != 0u);
    for (std::size_t i = 0; i < k; ++i)
    {
      BOOST_TEST((many[i].events == an::events::remove));
      ++removes[static_cast<int*>(many[i].key) - keys.data()];
    }
    got += static_cast<int>(k);
  }
  for (int c : removes)
    BOOST_TEST(c == 1);
  BOOST_TEST(p.dequeue(out, milliseconds(50)) == 0u);
}

// A thread blocked with an infinite timeout wakes for a post and for socket readiness.
BOOST_AUTO_TEST_CASE(infinite_wait_wakes)
{
  an::port p(an::port_backend::psn);
  auto [client, server] = port_test::make_tcp_pair();
  int key = 0, user = 0;
  an::registration r =
      entry(client.native(), &key, an::events::in, an::operation::enable, an::trigger::edge);
  BOOST_TEST_REQUIRE(!p.apply(r));
  std::array<an::packet, 2> out;
  {
    std::thread t([&] {
      std::this_thread::sleep_for(milliseconds(50));
      p.post(&user, 1);
    });
    BOOST_TEST(p.dequeue(out, an::port::infinite) == 1u);
    t.join();
  }
  BOOST_TEST(out[0].key == &user);
  {
    std::thread t([&] {
      std::this_thread::sleep_for(milliseconds(50));
      ::send(server.get(), "y", 1, 0);
    });
    BOOST_TEST(p.dequeue(out, an::port::infinite) == 1u);
    t.join();
  }
  BOOST_TEST(out[0].key == &key);
  BOOST_TEST((out[0].events == an::events::in));
}

// A port's registrations go with it: the socket is free for another port afterwards.
// Rule 1 while a port lives; after it is destroyed its sockets may join another port. On AFD
// that is the port's own promise. Whether closing a PSN completion port ends its
// registrations is undocumented, so there a refusal after the close is accepted too.
BOOST_AUTO_TEST_CASE(destroyed_port_releases_its_sockets)
{
  for (an::port_backend backend : {an::port_backend::psn, an::port_backend::afd})
  {
    BOOST_TEST_CONTEXT(an::to_string(backend))
    {
      auto [client, server] = port_test::make_tcp_pair();
      int key = 0;
      an::registration r = entry(client.native(), &key, an::events::out);
      {
        an::port a(backend);
        BOOST_TEST_REQUIRE(!a.apply(r));
        an::port b(backend);
        BOOST_TEST(b.apply(r) != boost::system::error_code()); // rule 1, while `a` lives
      }
      an::port c(backend);
      const boost::system::error_code ec = c.apply(r);
      if (ec && backend == an::port_backend::psn)
      {
        BOOST_TEST_MESSAGE("PSN keeps a closed port's registrations: " << ec.message());
        continue;
      }
      BOOST_TEST_REQUIRE(!ec);
      std::array<an::packet, 2> out;
      BOOST_TEST_REQUIRE(c.dequeue(out, milliseconds(5000)) == 1u);
      BOOST_TEST((out[0].events == an::events::out));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

// The AFD engine with two threads dequeuing from its port: the thread driver's reactor
// thread, in a long wait, and an io thread's look, which does not wait.
BOOST_AUTO_TEST_SUITE(afd_engine_dequeuers)

// The look dequeues a completion after the reactor thread's before_wait and before its
// wait: the poll is submitted again, or the condition sampled, only by a later before_wait,
// so the long wait is woken for it. Without the wake it slept for good (the bench's
// ping-pong on the thread driver, AFD, persistent edge: 1 run in about 175 under Wine).
BOOST_AUTO_TEST_CASE(a_long_wait_is_woken_for_what_a_look_dequeued)
{
  namespace win = boost::asio_notify::detail::win;
  const HANDLE iocp = ::CreateIoCompletionPort(INVALID_HANDLE_VALUE, nullptr, 0, 1);
  BOOST_TEST_REQUIRE(iocp != nullptr);
  {
    boost::system::error_code ec;
    const std::unique_ptr<win::afd_engine> engine = win::open_afd_engine(iocp, ec);
    BOOST_TEST_REQUIRE(static_cast<bool>(engine), ec.message());
    auto [client, server] = port_test::make_tcp_pair();
    int key = 0;
    an::registration r = entry(client.native(), &key, an::events::in, an::operation::enable,
                               an::trigger::level | an::trigger::persistent);
    engine->apply({&r, 1});
    BOOST_TEST_REQUIRE(!r.result);
    BOOST_TEST_REQUIRE(::send(server.get(), "x", 1, 0) == 1);
    BOOST_TEST_REQUIRE(port_test::wait_readable(client.get()));

    std::array<OVERLAPPED_ENTRY, 4> entries{};
    std::array<an::packet, 4> out{};
    std::array<win::afd_engine::entry_kind, 4> kinds{};
    const DWORD long_wait = engine->before_wait(20000); // the reactor thread, about to wait

    ULONG looked = 0; // the look: no wait of its own, so it tries until the poll completes
    for (int tries = 0; tries < 500 && looked == 0; ++tries)
    {
      if (win::wait_once(*engine, iocp, 0, entries.data(), 4, looked, out.data(), kinds.data()) ==
          WAIT_TIMEOUT)
        std::this_thread::sleep_for(milliseconds(10));
    }
    BOOST_TEST_REQUIRE(looked == 1u);
    BOOST_TEST_REQUIRE((kinds[0] == win::afd_engine::entry_kind::packet));
    BOOST_TEST((out[0].events == an::events::in));

    // The reactor thread's wait: woken, not left to its 20 s.
    ULONG woken = 0;
    const bool got =
        ::GetQueuedCompletionStatusEx(iocp, entries.data(), 4, &woken, long_wait, FALSE) != FALSE;
    const DWORD error = got ? 0 : ::GetLastError();
    BOOST_TEST_REQUIRE(got, "the long wait was not woken: error " << error);
    engine->complete(entries.data(), woken, long_wait, out.data(), kinds.data());
    BOOST_TEST(woken == 1u);
    BOOST_TEST((kinds[0] == win::afd_engine::entry_kind::nothing));

    // Its next wait submits the poll again: the byte, still unread, is reported again.
    ULONG again = 0;
    BOOST_TEST_REQUIRE(win::wait_once(*engine, iocp, 5000, entries.data(), 4, again, out.data(),
                                      kinds.data()) == static_cast<DWORD>(ERROR_SUCCESS));
    BOOST_TEST_REQUIRE(again == 1u);
    BOOST_TEST((kinds[0] == win::afd_engine::entry_kind::packet));
    BOOST_TEST(out[0].key == &key);
  }
  ::CloseHandle(iocp);
}

BOOST_AUTO_TEST_SUITE_END()
