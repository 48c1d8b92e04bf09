//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The Windows backend of the port: an I/O completion port driven by
// ProcessSocketNotifications (PSN), which applies a batch of registrations and dequeues a
// batch of packets in one call. The contract is the operating system's; this file only
// translates between the port's types and PSN's, and tells the two kinds of packet apart:
// - notification packets carry no OVERLAPPED (lpOverlapped is null) and their events in
//   dwNumberOfBytesTransferred;
// - user packets are posted with lpOverlapped set to the address of a private marker and
//   their value in dwNumberOfBytesTransferred.
// Anything else on the port (the completion of overlapped I/O on a handle someone
// associated with it through native_handle()) is not the port's and is skipped.
//
// PSN exists from build 20348 and is resolved at run time, so one binary loads everywhere
// and reports operation_not_supported where it is missing.

#include "port_backend.hpp"

#include <boost/asio_notify/detail/win_psn.hpp>

#include <boost/asio/error.hpp>
#include <boost/assert/source_location.hpp>

#include <winsock2.h>
#include <windows.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>

namespace boost {
namespace asio_notify {

using boost::system::error_code;
using detail::process_socket_notifications_fn;

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

// A registration's result as an error_code. "Not registered" is reported as the
// contract's (and the Linux backend's) `not_found`; other codes keep their Win32 value.
error_code win32_error(DWORD code)
{
  if (code == ERROR_NOT_FOUND)
    return boost::asio::error::not_found;
  return error_code(static_cast<int>(code), boost::system::system_category());
}

error_code last_error() { return win32_error(::GetLastError()); }

// --- finding ProcessSocketNotifications ---------------------------------------------------

process_socket_notifications_fn system_psn() noexcept
{
  static const process_socket_notifications_fn resolved = []() noexcept {
    // ws2_32.dll is loaded: this library imports it (WSAStartup below).
    const HMODULE ws2 = ::GetModuleHandleW(L"ws2_32.dll");
    if (!ws2)
      return process_socket_notifications_fn(nullptr);
    // Through void(*)(), the type GCC accepts as a cast between unrelated function types.
    return reinterpret_cast<process_socket_notifications_fn>(
        reinterpret_cast<void (*)()>(::GetProcAddress(ws2, "ProcessSocketNotifications")));
  }();
  return resolved;
}

std::atomic<process_socket_notifications_fn> psn_for_testing{nullptr};

process_socket_notifications_fn current_psn() noexcept
{
  const process_socket_notifications_fn substitute = psn_for_testing.load(std::memory_order_acquire);
  return substitute ? substitute : system_psn();
}

// The error for a system without PSN: boost::asio::error::operation_not_supported, with a
// source location that names the requirement. system_error::what() (the throwing port
// constructor) prints the location, so the message says which Windows build is needed
// while the code still compares equal to operation_not_supported.
error_code require_windows_build_20348(process_socket_notifications_fn psn)
{
  if (psn)
    return {};
  static const boost::source_location requirement(
      __FILE__, __LINE__,
      "requires ProcessSocketNotifications: Windows build 20348 or later "
      "(Windows Server 2022, Windows 11)");
  return error_code(boost::asio::error::make_error_code(boost::asio::error::operation_not_supported),
                    &requirement);
}

// --- Winsock ------------------------------------------------------------------------------

// Winsock started once for the process and cleaned up at exit, as Asio's own
// winsock_init does (that class is in boost::asio::detail, so it is not used here).
error_code start_winsock()
{
  struct session
  {
    int result;
    session() noexcept
    {
      WSADATA data;
      result = ::WSAStartup(MAKEWORD(2, 2), &data);
    }
    ~session()
    {
      if (result == 0)
        ::WSACleanup();
    }
  };
  static const session winsock;
  return winsock.result == 0 ? error_code() : win32_error(static_cast<DWORD>(winsock.result));
}

// --- packets ------------------------------------------------------------------------------

// The lpOverlapped of every user packet: an address nothing else can produce. It is never
// read or written through.
OVERLAPPED user_packet_marker{};

constexpr DWORD known_events = detail::psn::register_event_in | detail::psn::register_event_out |
                               detail::psn::register_event_hangup | detail::psn::event_err |
                               detail::psn::event_remove;

// Turns one dequeued entry into a packet; false when the entry is not the port's.
bool translate(const OVERLAPPED_ENTRY& e, packet& out) noexcept
{
  out.key = reinterpret_cast<void*>(e.lpCompletionKey);
  if (e.lpOverlapped == &user_packet_marker)
  {
    out.events = events::none;
    out.value = e.dwNumberOfBytesTransferred;
    out.kind = packet_kind::user;
    return true;
  }
  if (e.lpOverlapped != nullptr)
    return false; // overlapped I/O completion on a handle someone else associated
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
    n.event_filter = detail::to_bits(r.filter);
    n.trigger_flags = detail::to_bits(r.triggers);
  }
  return n;
}

// A port timeout as PSN's: infinite -> INFINITE; otherwise clamped below INFINITE.
DWORD to_wait_ms(std::chrono::milliseconds timeout) noexcept
{
  if (timeout == port::infinite)
    return INFINITE;
  if (timeout.count() <= 0)
    return 0;
  return static_cast<DWORD>(std::min<std::chrono::milliseconds::rep>(timeout.count(), INFINITE - 1));
}

using clock = std::chrono::steady_clock;

} // namespace

struct port::impl
{
  HANDLE iocp = nullptr;
  process_socket_notifications_fn psn = nullptr;

  ~impl()
  {
    if (iocp)
      ::CloseHandle(iocp);
  }

  // Entries applied per PSN call, and packets dequeued per PSN call: bounded stack
  // buffers, so a call allocates nothing.
  static constexpr std::size_t registration_batch = 64;
  static constexpr std::size_t packet_batch = 64;

  // One PSN call: applies `count` entries (written back to `regs` through `index`) and, when
  // `capacity` is not zero, dequeues into `out`. Returns the number of packets written;
  // `dequeued` tells whether PSN returned any entry at all (some may not be the port's).
  std::size_t call(detail::sock_notify_registration* native, const std::size_t* index,
                   UINT32 count, boost::span<registration> regs, packet* out,
                   std::size_t capacity, DWORD wait_ms, bool& dequeued, error_code& ec)
  {
    dequeued = false;
    OVERLAPPED_ENTRY entries[packet_batch];
    const ULONG wanted = static_cast<ULONG>(std::min(capacity, packet_batch));
    UINT32 received = 0;
    const DWORD rc = psn(iocp, count, count ? native : nullptr, wanted ? wait_ms : 0, wanted,
                         wanted ? entries : nullptr, wanted ? &received : nullptr);
    if (rc != ERROR_SUCCESS && rc != WAIT_TIMEOUT)
    {
      // The call failed as a whole and changed nothing: every entry reports why.
      ec = win32_error(rc);
      for (UINT32 i = 0; i < count; ++i)
        regs[index[i]].result = ec;
      return 0;
    }
    for (UINT32 i = 0; i < count; ++i)
      regs[index[i]].result = native[i].registration_result == ERROR_SUCCESS
                                  ? error_code()
                                  : win32_error(native[i].registration_result);
    if (rc == WAIT_TIMEOUT || wanted == 0)
      return 0;
    dequeued = received != 0;
    std::size_t n = 0;
    for (UINT32 i = 0; i < received && i < wanted; ++i)
      if (translate(entries[i], out[n]))
        ++n;
    return n;
  }

  std::size_t process(boost::span<registration> regs, boost::span<packet> packets,
                      std::chrono::milliseconds timeout, error_code& ec)
  {
    const bool forever = timeout == port::infinite;
    const clock::time_point start = clock::now();
    detail::sock_notify_registration native[registration_batch];
    std::size_t index[registration_batch];
    std::size_t next = 0;
    // Registrations go in chunks; the last chunk travels with the first dequeue.
    for (;;)
    {
      UINT32 count = 0;
      while (next < regs.size() && count < registration_batch)
      {
        registration& r = regs[next];
        r.result = validate(r); // invalid entries never reach PSN
        if (!r.result)
        {
          native[count] = to_native(r);
          index[count++] = next;
        }
        ++next;
      }
      const bool last_chunk = next == regs.size();
      if (!last_chunk || packets.empty())
      {
        bool dequeued = false;
        if (count != 0)
          call(native, index, count, regs, nullptr, 0, 0, dequeued, ec);
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
      // The dequeue. A wait that dequeued only entries that are not the port's goes on
      // for the rest of its timeout; WAIT_TIMEOUT ends it.
      DWORD wait = to_wait_ms(timeout);
      for (;;)
      {
        bool dequeued = false;
        const std::size_t n = call(native, index, count, regs, packets.data(), packets.size(),
                                   wait, dequeued, ec);
        if (n != 0 || ec || !dequeued || wait == 0)
          return n;
        count = 0; // applied by the first call
        if (!forever)
        {
          const auto spent =
              std::chrono::duration_cast<std::chrono::milliseconds>(clock::now() - start);
          if (spent >= timeout)
            return 0;
          wait = to_wait_ms(timeout - spent);
        }
      }
    }
  }
};

namespace detail {

void set_process_socket_notifications_for_testing(process_socket_notifications_fn fn) noexcept
{
  psn_for_testing.store(fn, std::memory_order_release);
}

std::unique_ptr<port::impl, port::impl_deleter> open_port_impl(error_code& ec)
{
  ec = {};
  const process_socket_notifications_fn psn = current_psn();
  if ((ec = require_windows_build_20348(psn)))
    return nullptr;
  if ((ec = start_winsock()))
    return nullptr;
  std::unique_ptr<port::impl, port::impl_deleter> p(new port::impl);
  p->psn = psn;
  p->iocp = ::CreateIoCompletionPort(INVALID_HANDLE_VALUE, nullptr, 0, 0);
  if (!p->iocp)
  {
    ec = last_error();
    return nullptr;
  }
  return p;
}

} // namespace detail

bool is_supported() noexcept { return current_psn() != nullptr; }

void port::impl_deleter::operator()(impl* p) const noexcept { delete p; }

std::size_t port::process(boost::span<registration> registrations, boost::span<packet> packets,
                          std::chrono::milliseconds timeout, error_code& ec)
{
  ec = {};
  if (!impl_)
  {
    ec = boost::asio::error::bad_descriptor;
    for (registration& r : registrations)
      r.result = ec;
    return 0;
  }
  return impl_->process(registrations, packets, timeout, ec);
}

void port::post(void* key, std::uint32_t value, error_code& ec)
{
  ec = {};
  if (!impl_)
  {
    ec = boost::asio::error::bad_descriptor;
    return;
  }
  if (!::PostQueuedCompletionStatus(impl_->iocp, value, reinterpret_cast<ULONG_PTR>(key),
                                    &user_packet_marker))
    ec = last_error();
}

port::native_handle_type port::native_handle() const noexcept
{
  return impl_ ? impl_->iocp : nullptr;
}

} // namespace asio_notify
} // namespace boost
