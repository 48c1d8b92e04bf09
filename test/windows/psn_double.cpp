//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The ProcessSocketNotifications test double; see psn_double.hpp for what and why.
//
// Error codes of refused entries (Windows documents none; these are the closest Win32 /
// Winsock codes, chosen to read as what happened):
//   invalid operation, filter or trigger          ERROR_INVALID_PARAMETER
//   socket registered on another port (rule 1)    ERROR_INVALID_PARAMETER (what associating a
//                                                 handle with a second completion port gives)
//   key change on a live registration (rule 2)    WSAEINVAL
//   disable / remove of an unregistered socket    ERROR_NOT_FOUND
//   a handle that is not an open socket           WSAEBADF
//
// Adversities (BOOST_ASIO_NOTIFY_ADVERSARY, adversary.hpp): what the function's reference
// page does not rule out and a cooperative double never does, for the PSN backend
// (src/port/win/psn_port.cpp) to meet, each counted with count_adversity:
//   early_wakeup             a wait returns empty before its time, with WAIT_TIMEOUT and
//                            ERROR_TIMEOUT in turn (the page names both)
//   entry_error_family       a failing entry's registrationResult in the other family: a
//                            Win32 / Winsock code as the matching NTSTATUS and the reverse
//                            (the page says neither; an unofficial header says NTSTATUS)
//   failed_call_took_effect  a call with entries applies some of them (one at least), then
//                            fails as a whole (ERROR_NOT_ENOUGH_MEMORY or WSAENOBUFS), as
//                            ponyc #5738 saw
// Each is produced at every opportunity until the double has produced it once, then at
// random (seeded with the environment's seed, so a run can be repeated threads aside).
#include "psn_double.hpp"

#include <boost/asio_notify/adversary.hpp>

#include "port/win/afd_engine.hpp" // the library's private Windows parts (src/)
#include "port/win/completion_port.hpp"
#include "port/win/system.hpp"

#include <boost/asio/error.hpp>

#include <winsock2.h>
#include <windows.h>
#include <winternl.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <random>
#include <vector>

namespace psn_double {

namespace {

namespace an = boost::asio_notify;
namespace psn = an::detail::psn;
namespace win = an::detail::win;
using an::detail::sock_notify_registration;
using boost::system::error_code;

// --- completion ports, robust against handle values being reused ------------------------

// Kernel functions looked up at run time: CompareObjectHandles (kernelbase, Windows 10) and
// NtQueryObject (ntdll), neither in MinGW's import libraries.
using compare_object_handles_fn = BOOL(WINAPI*)(HANDLE, HANDLE);
using nt_query_object_fn = NTSTATUS(NTAPI*)(HANDLE, OBJECT_INFORMATION_CLASS, PVOID, ULONG, PULONG);

bool same_object(HANDLE a, HANDLE b)
{
  static const auto compare =
      win::system_function<compare_object_handles_fn>(L"kernelbase.dll", "CompareObjectHandles");
  return compare ? compare(a, b) != FALSE : a == b;
}

// How many handles refer to the object of `h` (0 when unknown).
ULONG handle_count(HANDLE h)
{
  static const auto query = win::system_function<nt_query_object_fn>(L"ntdll.dll", "NtQueryObject");
  PUBLIC_OBJECT_BASIC_INFORMATION info{};
  if (!query || query(h, ObjectBasicInformation, &info, sizeof(info), nullptr) < 0)
    return 0;
  return info.HandleCount;
}

// A completion port the double has seen, and the engine that puts its notifications into
// it. The double keeps a duplicate of the port's handle, so the port object is recognised
// (and stays alive for the engine's polls) whatever happens to the caller's handle value;
// when the duplicate is the last handle, the port was closed and the record goes, taking its
// registrations with it.
struct port_record
{
  HANDLE handle = nullptr;
  std::unique_ptr<win::afd_engine> engine;

  port_record() = default;
  port_record(const port_record&) = delete;
  port_record& operator=(const port_record&) = delete;
  ~port_record()
  {
    engine.reset(); // drains its polls from the port first
    if (handle)
      ::CloseHandle(handle);
  }
};

// --- entries -----------------------------------------------------------------------------

constexpr UINT16 filter_bits =
    psn::register_event_in | psn::register_event_out | psn::register_event_hangup;
constexpr UINT8 trigger_bits =
    psn::trigger_oneshot | psn::trigger_persistent | psn::trigger_level | psn::trigger_edge;

// ERROR_SUCCESS, or why ProcessSocketNotifications itself refuses the entry before any
// registration is looked at.
DWORD refusal(const sock_notify_registration& r)
{
  if (r.operation != psn::op_enable && r.operation != psn::op_disable &&
      r.operation != psn::op_remove)
    return ERROR_INVALID_PARAMETER;
  if (r.operation == psn::op_enable)
  {
    const UINT8 t = r.trigger_flags;
    const bool level = (t & psn::trigger_level) != 0;
    const bool edge = (t & psn::trigger_edge) != 0;
    const bool both_modes = (t & (psn::trigger_oneshot | psn::trigger_persistent)) ==
                            (psn::trigger_oneshot | psn::trigger_persistent);
    if ((r.event_filter & ~filter_bits) != 0 || (t & ~trigger_bits) != 0 || level == edge ||
        both_modes)
      return ERROR_INVALID_PARAMETER;
  }
  int type = 0;
  int length = sizeof(type);
  if (::getsockopt(r.socket, SOL_SOCKET, SO_TYPE, reinterpret_cast<char*>(&type), &length) != 0)
    return WSAEBADF;
  return ERROR_SUCCESS;
}

// The port's entry for a PSN one (the flag values are PSN's: see src/port/win/psn_port.cpp).
an::registration to_registration(const sock_notify_registration& r)
{
  an::registration out;
  out.socket = static_cast<an::native_socket_type>(r.socket);
  out.key = r.completion_key;
  out.operation = static_cast<an::operation>(r.operation);
  out.filter = static_cast<an::events>(r.event_filter);
  out.triggers = static_cast<an::trigger>(r.trigger_flags);
  return out;
}

// The engine's answer to an entry as the Win32 code the double reports (see the top).
DWORD registration_result(const error_code& ec)
{
  if (!ec)
    return ERROR_SUCCESS;
  if (ec == boost::asio::error::not_found)
    return ERROR_NOT_FOUND;
  if (ec == boost::asio::error::already_open)
    return ERROR_INVALID_PARAMETER; // rule 1
  if (ec.category() == boost::system::system_category())
    return static_cast<DWORD>(ec.value());
  return ERROR_INVALID_PARAMETER;
}

// A notification as ProcessSocketNotifications delivers it: the registration's key, the
// events in dwNumberOfBytesTransferred, lpOverlapped reserved (null here).
OVERLAPPED_ENTRY notification_entry(const an::packet& pk)
{
  OVERLAPPED_ENTRY e{};
  e.lpCompletionKey = reinterpret_cast<ULONG_PTR>(pk.key);
  e.dwNumberOfBytesTransferred = an::detail::to_bits(pk.events);
  return e;
}

// --- adversities -------------------------------------------------------------------------

// Win32 / Winsock codes the double reports and their NTSTATUS twins (RtlNtStatusToDosError
// turns each NTSTATUS back into the first Win32 code of its row).
struct error_twin
{
  DWORD win32;
  DWORD nt_status;
};
constexpr error_twin error_twins[] = {
    {ERROR_NOT_FOUND, 0xC0000225},         // STATUS_NOT_FOUND
    {ERROR_INVALID_PARAMETER, 0xC000000D}, // STATUS_INVALID_PARAMETER
    {WSAEINVAL, 0xC000000D},
    {ERROR_INVALID_HANDLE, 0xC0000008}, // STATUS_INVALID_HANDLE
    {WSAEBADF, 0xC0000008},
    {WSAENOTSOCK, 0xC0000008},
};

bool is_nt_status(DWORD code) { return (code & 0xC0000000u) == 0xC0000000u; }

// `code` in the other family; itself where the table has no twin.
DWORD other_family(DWORD code)
{
  for (const error_twin& t : error_twins)
    if (code == (is_nt_status(code) ? t.nt_status : t.win32))
      return is_nt_status(code) ? t.win32 : t.nt_status;
  return code;
}

class adversary
{
public:
  adversary() : kinds_(kinds_from_environment()), random_(seed_from_environment()) {}

  // Whether to produce `a` now: at every opportunity until the double has, then once in
  // `odds`.
  bool take(an::adversity a, std::uint32_t odds)
  {
    if (!has_any(kinds_, a))
      return false;
    std::lock_guard<std::mutex> lock(mutex_);
    bool& produced = produced_[index_of(a)];
    if (produced && random_() % odds != 0)
      return false;
    produced = true;
    an::count_adversity(a);
    return true;
  }

  // A number in [0, n).
  std::uint32_t below(std::uint32_t n)
  {
    std::lock_guard<std::mutex> lock(mutex_);
    return n == 0 ? 0 : static_cast<std::uint32_t>(random_() % n);
  }

  // Every other call true: for the two timeout codes and the two call failures.
  bool alternate() { return flip_.fetch_xor(1) != 0; }

private:
  static an::adversity kinds_from_environment() noexcept
  {
    try
    {
      return an::adversary_from_environment().kinds;
    }
    catch (...)
    {
      return an::adversity::none; // a bad variable fails the reactor that reads it
    }
  }

  // The environment's seed, made different from the adversarial port's own choices.
  static std::uint64_t seed_from_environment() noexcept
  {
    try
    {
      return an::adversary_from_environment().seed ^ 0x5053'4E44'6F75'626Cull;
    }
    catch (...)
    {
      return 0;
    }
  }

  static std::size_t index_of(an::adversity a)
  {
    std::size_t i = 0;
    for (auto bits = an::detail::to_bits(a); bits > 1; bits >>= 1)
      ++i;
    return i;
  }

  const an::adversity kinds_;
  std::mutex mutex_;
  std::mt19937_64 random_;
  bool produced_[an::adversity_kinds] = {};
  std::atomic<unsigned> flip_{0};
};

// Made on first use: the environment is read once the test's main has started.
adversary& the_adversary()
{
  static adversary* a = new adversary; // never destroyed, as the_table()
  return *a;
}

// A failing entry's result, in the other family now and then.
DWORD with_family_adversity(DWORD result)
{
  if (result == ERROR_SUCCESS || other_family(result) == result ||
      !the_adversary().take(an::adversity::entry_error_family, 2))
    return result;
  return other_family(result);
}

// --- the ports ---------------------------------------------------------------------------

class table
{
public:
  // The record of the port `h` refers to, made on first sight; null (and `error`) for a
  // handle that is not an open completion port. Shared: a call in progress keeps its
  // record (and engine) alive while another call finds the port closed and drops it.
  std::shared_ptr<port_record> find_port(HANDLE h, DWORD& error)
  {
    std::vector<std::shared_ptr<port_record>> closed;
    std::lock_guard<std::mutex> lock(mutex_);
    closed = take_closed_ports();
    for (const auto& p : ports_)
      if (same_object(h, p->handle))
        return p;
    auto p = std::make_shared<port_record>();
    if (!::DuplicateHandle(::GetCurrentProcess(), h, ::GetCurrentProcess(), &p->handle, 0, FALSE,
                           DUPLICATE_SAME_ACCESS))
    {
      error = ::GetLastError();
      return nullptr;
    }
    error_code ec;
    p->engine = win::open_afd_engine(p->handle, ec);
    if (!p->engine)
    {
      error = ERROR_NOT_SUPPORTED; // no usable \Device\Afd: the double cannot work here
      return nullptr;
    }
    ports_.push_back(p);
    return p;
  } // `closed` goes after the lock: an engine drains its port (up to seconds) as it goes

  std::size_t registrations()
  {
    std::vector<std::shared_ptr<port_record>> closed;
    std::lock_guard<std::mutex> lock(mutex_);
    closed = take_closed_ports();
    std::size_t n = 0;
    for (const auto& p : ports_)
      n += p->engine->size();
    return n;
  }

private:
  // The records of ports that were closed (only the double's duplicate is left), out of the
  // table: their registrations end with them.
  std::vector<std::shared_ptr<port_record>> take_closed_ports()
  {
    std::vector<std::shared_ptr<port_record>> closed;
    for (auto p = ports_.begin(); p != ports_.end();)
      if (handle_count((*p)->handle) == 1)
      {
        closed.push_back(std::move(*p));
        p = ports_.erase(p);
      }
      else
        ++p;
    return closed;
  }

  std::mutex mutex_;
  std::vector<std::shared_ptr<port_record>> ports_;
};

// Never destroyed: ports may still be closed (and call in) during static destruction.
table& the_table()
{
  static table* t = new table;
  return *t;
}

// Applies the entries in order, each with its own result.
void apply(win::afd_engine& engine, sock_notify_registration* infos, UINT32 count)
{
  for (UINT32 i = 0; i < count; ++i)
  {
    sock_notify_registration& info = infos[i];
    info.registration_result = refusal(info);
    if (info.registration_result == ERROR_SUCCESS)
    {
      an::registration r = to_registration(info);
      engine.apply({&r, 1});
      info.registration_result = registration_result(r.result);
    }
    info.registration_result = with_family_adversity(info.registration_result);
  }
}

// Whether a call with `count` entries applies `applied` of them (one at least) and then
// fails as a whole (failed_call_took_effect).
bool fails_after_applying(UINT32 count, UINT32& applied)
{
  applied = count;
  if (count == 0 || !the_adversary().take(an::adversity::failed_call_took_effect, 16))
    return false;
  applied = 1 + the_adversary().below(count);
  return true;
}

// Waits on the port for what the engine makes of its polls' completions and for user
// packets (passed through as they were posted), until one or more arrive or `timeout_ms`.
DWORD dequeue(HANDLE port, win::afd_engine& engine, UINT32 timeout_ms, OVERLAPPED_ENTRY* out,
              ULONG capacity, UINT32* received)
{
  const win::wait_budget budget(timeout_ms == INFINITE ? an::port::infinite
                                                       : std::chrono::milliseconds(timeout_ms));
  if (timeout_ms != 0 && the_adversary().take(an::adversity::early_wakeup, 8))
  {
    *received = 0;
    return the_adversary().alternate() ? ERROR_TIMEOUT : WAIT_TIMEOUT;
  }
  // Kept by each thread and only grown: a dequeue allocates nothing once warm, as the
  // system's would not (alloc_failure_test counts every allocation of the process).
  static thread_local std::vector<an::packet> translated;
  static thread_local std::vector<win::afd_engine::entry_kind> kinds;
  if (translated.size() < capacity)
    translated.resize(capacity);
  if (kinds.size() < capacity) // apart: either may fail
    kinds.resize(capacity);
  for (;;)
  {
    ULONG got = 0;
    const DWORD error = win::wait_once(engine, port, budget.left_ms(), out, capacity, got,
                                       translated.data(), kinds.data());
    if (error != ERROR_SUCCESS && error != WAIT_TIMEOUT)
      return error;
    ULONG kept = 0;
    for (ULONG i = 0; i < got; ++i)
      if (kinds[i] == win::afd_engine::entry_kind::packet)
        out[kept++] = notification_entry(translated[i]);
      else if (kinds[i] == win::afd_engine::entry_kind::foreign)
        out[kept++] = out[i];
    if (kept != 0)
    {
      *received = kept;
      return ERROR_SUCCESS;
    }
    if (budget.expired())
    {
      *received = 0;
      return WAIT_TIMEOUT;
    }
  }
}

} // namespace

DWORD process_socket_notifications_or_throw(HANDLE completion_port, UINT32 registration_count,
                                            sock_notify_registration* registration_infos,
                                            UINT32 timeout_ms, ULONG completion_count,
                                            OVERLAPPED_ENTRY* completion_port_entries,
                                            UINT32* received_entry_count)
{
  if ((registration_count == 0) != (registration_infos == nullptr))
    return ERROR_INVALID_PARAMETER;
  if (completion_count != 0 &&
      (completion_port_entries == nullptr || received_entry_count == nullptr))
    return ERROR_INVALID_PARAMETER;
  DWORD error = ERROR_SUCCESS;
  const std::shared_ptr<port_record> port = the_table().find_port(completion_port, error);
  if (!port)
    return error; // the call fails as a whole: no entry is applied
  UINT32 applied = 0;
  const bool fail = fails_after_applying(registration_count, applied);
  apply(*port->engine, registration_infos, applied);
  if (fail)
    return the_adversary().alternate() ? ERROR_NOT_ENOUGH_MEMORY : WSAENOBUFS;
  if (completion_count == 0)
    return ERROR_SUCCESS;
  return dequeue(completion_port, *port->engine, timeout_ms, completion_port_entries,
                 completion_count, received_entry_count);
}

// The double's memory is the system's: a call that cannot have it fails as a whole, as
// ProcessSocketNotifications does, and never throws into the port.
DWORD WSAAPI process_socket_notifications(HANDLE completion_port, UINT32 registration_count,
                                          sock_notify_registration* registration_infos,
                                          UINT32 timeout_ms, ULONG completion_count,
                                          OVERLAPPED_ENTRY* completion_port_entries,
                                          UINT32* received_entry_count)
{
  try
  {
    return process_socket_notifications_or_throw(completion_port, registration_count,
                                                 registration_infos, timeout_ms, completion_count,
                                                 completion_port_entries, received_entry_count);
  }
  catch (const std::bad_alloc&)
  {
    return ERROR_NOT_ENOUGH_MEMORY;
  }
}

void install() noexcept
{
  an::detail::set_process_socket_notifications_for_testing(&process_socket_notifications);
}

void uninstall() noexcept { an::detail::set_process_socket_notifications_for_testing(nullptr); }

std::size_t registration_count() { return the_table().registrations(); }

} // namespace psn_double
