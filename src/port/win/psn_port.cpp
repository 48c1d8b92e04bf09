//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The ProcessSocketNotifications (PSN) backend of the Windows port.
//
// PSN applies a batch of registrations and dequeues a batch of packets in one call; the
// contract is the operating system's, and this file only translates. Microsoft documents
// less than a backend needs, so every place that relies on more says so, marked
//   DOCUMENTED: what Microsoft's reference pages say, and
//   ASSUMED:    what the code takes for granted beyond them, and why it is safe either way.
// The questions are listed in doc/port_contract.md ("Points Microsoft leaves open"); tests
// that pin them accept every answer the documentation allows (test/windows/port_win_test.cpp).
//
// PSN exists from build 20348 and is resolved at run time, so one binary loads everywhere;
// where it is missing the automatic choice is AFD.

#include "backends.hpp"
#include "completion_port.hpp"
#include "psn.hpp"
#include "system.hpp"

#include <boost/asio/error.hpp>
#include <boost/assert/source_location.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>

namespace boost {
namespace asio_notify {
namespace detail {
namespace win {

using boost::system::error_code;

// The port's flag values are PSN's, so entries and packets convert by value.
static_assert(detail::to_bits(events::in) == detail::psn::register_event_in &&
                  detail::to_bits(events::out) == detail::psn::register_event_out &&
                  detail::to_bits(events::hangup) == detail::psn::register_event_hangup &&
                  detail::to_bits(events::error) == detail::psn::event_err &&
                  detail::to_bits(events::remove) == detail::psn::event_remove,
              "events values are SOCK_NOTIFY_* values");
static_assert(detail::to_bits(operation::enable) == detail::psn::op_enable &&
                  detail::to_bits(operation::disable) == detail::psn::op_disable &&
                  detail::to_bits(operation::remove) == detail::psn::op_remove,
              "operation values are SOCK_NOTIFY_OP_* values");
static_assert(detail::to_bits(trigger::oneshot) == detail::psn::trigger_oneshot &&
                  detail::to_bits(trigger::persistent) == detail::psn::trigger_persistent &&
                  detail::to_bits(trigger::level) == detail::psn::trigger_level &&
                  detail::to_bits(trigger::edge) == detail::psn::trigger_edge,
              "trigger values are SOCK_NOTIFY_TRIGGER_* values");
static_assert(sizeof(native_socket_type) == sizeof(SOCKET), "native_socket_type holds a SOCKET");

namespace {

// --- finding ProcessSocketNotifications ---------------------------------------------------

process_socket_notifications_fn system_psn() noexcept
{
  // DOCUMENTED: exported by ws2_32.dll (loaded: this library imports it). It is implemented
  // in mswsock.dll and ws2_32 forwards to it (ponyc PR #5685); GetProcAddress follows the
  // forwarder.
  static const process_socket_notifications_fn resolved =
      system_function<process_socket_notifications_fn>(L"ws2_32.dll", "ProcessSocketNotifications");
  return resolved;
}

std::atomic<process_socket_notifications_fn> psn_for_testing{nullptr};

process_socket_notifications_fn current_psn() noexcept
{
  const process_socket_notifications_fn substitute =
      psn_for_testing.load(std::memory_order_acquire);
  return substitute ? substitute : system_psn();
}

// The error for a system without PSN: boost::asio::error::operation_not_supported, with a
// source location that names the requirement. system_error::what() (the throwing port
// constructor) prints the location, so the message says which Windows build is needed
// while the code still compares equal to operation_not_supported.
error_code require_windows_build_20348() noexcept
{
  static const boost::source_location requirement(
      __FILE__, __LINE__,
      "requires ProcessSocketNotifications: Windows build 20348 or later "
      "(Windows Server 2022, Windows 11)");
  return error_code(
      boost::asio::error::make_error_code(boost::asio::error::operation_not_supported),
      &requirement);
}

// --- results and packets ------------------------------------------------------------------

// PSN's answer as an error_code: an entry's registrationResult, and a call's return value
// when it fails as a whole (one mapping, so an entry's error does not depend on whether it
// came back alone or with the call).
// DOCUMENTED: "the result of the registration", next to Win32 codes everywhere else.
// ASSUMED: nothing about the family. An unofficial header says per-entry results are
// NTSTATUS values, so a value with the NTSTATUS error severity (0xC0000000) is converted by
// ntdll's RtlNtStatusToDosError; any other value is taken as a Win32 or Winsock code. Codes
// that say the same in both families give the same error: "not a socket" is bad_descriptor,
// "not registered" not_found, an invalid parameter invalid_argument (Winsock's WSAEINVAL).
error_code psn_error(DWORD result) noexcept
{
  if (result == ERROR_SUCCESS)
    return {};
  const error_code ec = (result & 0xC0000000u) == 0xC0000000u
                            ? nt_status_error(static_cast<LONG>(result))
                            : socket_error(result);
  if (ec == error_code(ERROR_INVALID_PARAMETER, boost::system::system_category()))
    return boost::asio::error::invalid_argument;
  return ec;
}

// Whether a call with one entry that failed as a whole failed for its entry (a bad socket or
// parameter), not for a reason of the call's own.
// ASSUMED: nothing documents which errors a bad entry gives the call; these are the codes
// that name an argument.
bool entry_caused(const error_code& ec) noexcept
{
  return ec == boost::asio::error::invalid_argument || ec == boost::asio::error::bad_descriptor;
}

// Whether a dequeue's return value means "nothing arrived in time".
// DOCUMENTED: the reference page names WAIT_TIMEOUT in one place and ERROR_TIMEOUT in
// another; both are accepted.
bool is_timeout(DWORD rc) noexcept { return rc == WAIT_TIMEOUT || rc == ERROR_TIMEOUT; }

constexpr DWORD known_events = detail::psn::register_event_in | detail::psn::register_event_out |
                               detail::psn::register_event_hangup | detail::psn::event_err |
                               detail::psn::event_remove;

// Turns one dequeued entry into a packet; false when it carries nothing for the port.
// DOCUMENTED: a notification's events are in dwNumberOfBytesTransferred
// (SocketNotificationRetrieveEvents reads that field); its lpOverlapped is "reserved".
// So lpOverlapped is never read: a user packet is recognised by the marker this library
// itself puts there (PostQueuedCompletionStatus), everything else is a notification whose
// key is the registration's. Bits outside SOCK_NOTIFY_EVENTS_ALL are dropped, and an entry
// without any known bit reports nothing.
bool translate(const OVERLAPPED_ENTRY& e, packet& out) noexcept
{
  if (translate_user_packet(e, out))
    return true;
  out.key = reinterpret_cast<void*>(e.lpCompletionKey);
  const DWORD bits = e.dwNumberOfBytesTransferred & known_events;
  if (bits == 0)
    return false;
  out.events = static_cast<events>(bits);
  out.value = 0;
  out.kind = packet_kind::notification;
  return true;
}

detail::sock_notify_registration to_native(const registration& r) noexcept
{
  detail::sock_notify_registration n{};
  n.socket = static_cast<SOCKET>(r.socket);
  n.completion_key = r.key;
  n.operation = detail::to_bits(r.operation);
  if (r.operation == operation::enable)
  {
    // The filter and the triggers mean something to enable only; the others get zeros.
    // ASSUMED: whether PSN accepts LEVEL or EDGE without ONESHOT/PERSISTENT is open
    // (Microsoft's samples do it; an unofficial header says it needs exactly one). The port
    // lets callers leave it out, meaning persistent, and always sends PERSISTENT then: the
    // form every known user sends, so PSN's answer to the short form does not matter.
    trigger t = r.triggers;
    if (!has_any(t, trigger::oneshot | trigger::persistent))
      t = t | trigger::persistent;
    n.event_filter = detail::to_bits(r.filter);
    n.trigger_flags = detail::to_bits(t);
  }
  return n;
}

// --- the PSN backend ----------------------------------------------------------------------

class psn_port final : public completion_port
{
public:
  explicit psn_port(process_socket_notifications_fn f) noexcept : psn_(f) {}

  bool open(error_code& ec) noexcept { return open_completion_port(ec); }

  port_backend backend() const noexcept override { return port_backend::psn; }

  std::size_t process(boost::span<registration> regs, boost::span<packet> packets,
                      std::chrono::milliseconds timeout, error_code& ec) override
  {
    const wait_budget budget(timeout);
    std::size_t next = 0;
    // Registrations go in chunks; the last chunk travels with the first dequeue.
    for (;;)
    {
      chunk c;
      next = c.fill(regs, next);
      const bool last_chunk = next == regs.size();
      if (!last_chunk || packets.empty())
      {
        apply(c, regs, ec);
        if (ec)
        {
          for (std::size_t i = next; i < regs.size(); ++i)
            regs[i].result = ec; // not attempted
          return 0;
        }
        if (last_chunk)
          return 0;
        continue;
      }
      return apply_and_dequeue(c, regs, packets, budget, ec);
    }
  }

private:
  // Entries applied per PSN call, and packets dequeued per PSN call: bounded stack
  // buffers, so a call allocates nothing.
  static constexpr std::size_t registration_batch = 64;
  static constexpr std::size_t packet_batch = 64;

  // One call's worth of valid entries, with the index of each in the caller's span.
  struct chunk
  {
    detail::sock_notify_registration native[registration_batch];
    std::size_t index[registration_batch];
    UINT32 count = 0;

    // Takes entries from `next` on until the chunk is full; invalid entries get their
    // result and never reach PSN. Returns where the next chunk starts.
    std::size_t fill(boost::span<registration> regs, std::size_t next) noexcept
    {
      for (; next < regs.size() && count < registration_batch; ++next)
      {
        registration& r = regs[next];
        r.result = validate(r);
        if (!r.result)
        {
          native[count] = to_native(r);
          index[count++] = next;
        }
      }
      return next;
    }
  };

  // One PSN call. Entries' results are written back to `regs`; the return value is PSN's.
  DWORD call(chunk& c, boost::span<registration> regs, OVERLAPPED_ENTRY* entries, ULONG wanted,
             DWORD wait_ms, UINT32& received) noexcept
  {
    received = 0;
    const DWORD rc = psn_(iocp, c.count, c.count ? c.native : nullptr, wanted ? wait_ms : 0, wanted,
                          wanted ? entries : nullptr, wanted ? &received : nullptr);
    if (rc == ERROR_SUCCESS || is_timeout(rc))
      for (UINT32 i = 0; i < c.count; ++i)
        regs[c.index[i]].result = psn_error(c.native[i].registration_result);
    return rc;
  }

  // Applies a chunk without dequeuing. A call that fails as a whole with several entries
  // is repeated entry by entry.
  // ASSUMED: nothing documents whether one bad entry fails its own result or the whole
  // call, nor whether a call that fails as a whole changed nothing. When the whole call
  // fails, each entry is applied alone, so good entries take effect and each reports its
  // own outcome either way. Applying an entry twice is an overwrite for ENABLE and DISABLE;
  // a REMOVE that the failed call had applied (ponyc #5738 saw such calls) reports not_found
  // when repeated, while its REMOVE packet still comes: the reactor reads no result of a
  // REMOVE, and a key names its socket's state through a generation check, so a packet for
  // a closed socket finds a stranger. Entries after a call that failed for its own reason
  // are not attempted and report that reason.
  void apply(chunk& c, boost::span<registration> regs, error_code& ec) noexcept
  {
    if (c.count == 0)
      return;
    UINT32 received = 0;
    const DWORD rc = call(c, regs, nullptr, 0, 0, received);
    if (rc == ERROR_SUCCESS)
      return;
    if (c.count == 1)
      return fail_alone(c, regs, psn_error(rc), ec);
    for (UINT32 i = 0; i < c.count; ++i)
    {
      if (ec)
      {
        regs[c.index[i]].result = ec; // not attempted
        continue;
      }
      chunk one;
      one.native[0] = c.native[i];
      one.index[0] = c.index[i];
      one.count = 1;
      apply(one, regs, ec);
    }
  }

  // The outcome of a one-entry call that failed as a whole with `failure`: the entry's, or
  // the call's too.
  static void fail_alone(const chunk& c, boost::span<registration> regs, const error_code& failure,
                         error_code& ec) noexcept
  {
    regs[c.index[0]].result = failure;
    if (!entry_caused(failure))
      ec = failure;
  }

  // The last chunk and the dequeue in one call; the wait goes on (without entries) after an
  // early timeout or a dequeue of nothing the port's, until the time is up.
  std::size_t apply_and_dequeue(chunk& c, boost::span<registration> regs,
                                boost::span<packet> packets, const wait_budget& budget,
                                error_code& ec) noexcept
  {
    OVERLAPPED_ENTRY entries[packet_batch];
    const ULONG wanted = static_cast<ULONG>(std::min(packets.size(), packet_batch));
    for (;;)
    {
      const DWORD wait = budget.left_ms();
      UINT32 received = 0;
      const DWORD rc = call(c, regs, entries, wanted, wait, received);
      if (rc != ERROR_SUCCESS && !is_timeout(rc))
      {
        // The call failed: its entries are applied again (see apply), and the dequeue is
        // tried alone; a dequeue that fails alone reports the failure.
        if (c.count == 0)
        {
          ec = psn_error(rc);
          return 0;
        }
        apply(c, regs, ec);
        if (ec)
          return 0;
        c.count = 0;
        continue;
      }
      c.count = 0; // applied by the first call
      std::size_t n = 0;
      for (UINT32 i = 0; i < received && i < wanted; ++i)
        if (translate(entries[i], packets[n]))
          ++n;
      // DOCUMENTED: WAIT_TIMEOUT when nothing arrived in time. ASSUMED: the wait may end
      // early (seen by smol-rs/polling and wepoll2), so the rest of the time is waited.
      if (n != 0 || wait == 0 || budget.expired())
        return n;
    }
  }

  process_socket_notifications_fn psn_;
};

} // namespace

bool psn_available() noexcept { return current_psn() != nullptr; }

std::unique_ptr<port::impl, port::impl_deleter> open_psn_port(error_code& ec)
{
  const process_socket_notifications_fn psn = current_psn();
  if (!psn)
  {
    ec = require_windows_build_20348();
    return nullptr;
  }
  std::unique_ptr<psn_port, port::impl_deleter> p(new psn_port(psn));
  if (!p->open(ec))
    return nullptr;
  return std::unique_ptr<port::impl, port::impl_deleter>(p.release());
}

} // namespace win

void set_process_socket_notifications_for_testing(process_socket_notifications_fn fn) noexcept
{
  win::psn_for_testing.store(fn, std::memory_order_release);
}

} // namespace detail
} // namespace asio_notify
} // namespace boost
