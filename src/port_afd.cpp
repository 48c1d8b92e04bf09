//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The AFD backend of the Windows port: the socket state notification contract emulated on
// IOCTL_AFD_POLL, for systems without ProcessSocketNotifications (Windows 10, Server 2019,
// Wine). The mechanism is the one wepoll, libuv, mio and smol-rs/polling use:
//
// - a helper handle on `\Device\Afd` is associated with the port's completion port; a poll
//   (IOCTL_AFD_POLL through NtDeviceIoControlFile) names one socket's base handle and an
//   event mask, and completes through the port when one of those events holds;
// - a poll is one-shot by nature: persistent registrations submit their next poll when a
//   thread next dequeues (so a level-triggered condition is sampled then, as epoll's ready
//   list is); one-shot ones stop after the packet they report;
// - each registration has at most one poll in flight. Its memory (the IO_STATUS_BLOCK and
//   the AFD_POLL_INFO the kernel writes) lives in the registration, which is freed only when
//   that poll's completion has been dequeued, never while the kernel may still write it;
// - changing a registration narrows nothing in flight: a completion is filtered by the
//   registration's state when it is dequeued. A change that needs more events than the poll
//   in flight waits for cancels it, and the completion (STATUS_CANCELLED) submits the new one;
// - REMOVE: without a poll in flight the REMOVE packet is posted at once; with one, the poll
//   is cancelled and its completion becomes the REMOVE packet, so nothing follows it;
// - a close of the socket completes its poll with AFD_POLL_LOCAL_CLOSE whatever the mask:
//   the registration ends silently (rule 4).
//
// Where AFD cannot honour the contract exactly (doc/windows.md):
// - edge triggering: AFD reports states, not changes. An edge registration stops asking
//   for an event it has reported until the event is seen false again, which is sampled with
//   WSAPoll by dequeuing threads (at each dequeue and every edge_sample_interval while they
//   wait). A condition that fell and rose again between two samples looks as if it never
//   fell, so one that has held longer than a resample delay (10 ms, doubling up to 1 s while
//   it keeps holding) is reported again: a rise is never lost, it may come up to that delay
//   late, and a socket left undrained gets a repeated packet per delay where PSN would stay
//   silent. The reactor's default on Windows (one-shot level) never needs this;
// - a socket closed without `remove` while its registration has no poll in flight (a fired
//   one-shot, a disabled registration) leaves its slot in the port until the handle value
//   is registered again (the slot is recognised as stale by the socket's file identity) or
//   the port is destroyed; nothing is reported for it either way;
// - Wine (8.0) reports a peer's disconnect only once the data before it has been read, and
//   never reports ICMP errors on UDP sockets.
//
// The NT functions are resolved from ntdll.dll at run time and the AFD definitions are the
// project's own (no SDK header declares them), as in every other user of AFD polling.

#include "port_win_common.hpp"

#include <boost/asio_notify/detail/win_psn.hpp>

#include <boost/asio/error.hpp>

#include <mswsock.h> // SIO_BASE_HANDLE, SIO_BSP_HANDLE_POLL
#include <winternl.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <mutex>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace boost {
namespace asio_notify {
namespace detail {
namespace win {

namespace {

using boost::system::error_code;

// --- AFD and the NT functions -------------------------------------------------------------

constexpr ULONG ioctl_afd_poll = 0x00012024;

constexpr ULONG afd_poll_receive = 0x0001;
constexpr ULONG afd_poll_send = 0x0004;
constexpr ULONG afd_poll_disconnect = 0x0008;
constexpr ULONG afd_poll_abort = 0x0010;
constexpr ULONG afd_poll_local_close = 0x0020;
constexpr ULONG afd_poll_accept = 0x0080;
constexpr ULONG afd_poll_connect_fail = 0x0100;

constexpr NTSTATUS status_success = 0;
constexpr NTSTATUS status_pending = 0x00000103;
constexpr NTSTATUS status_cancelled = static_cast<NTSTATUS>(0xC0000120);

bool nt_success(NTSTATUS s) noexcept { return s >= 0; }

struct afd_poll_handle_info
{
  HANDLE handle;
  ULONG events;
  NTSTATUS status;
};

struct afd_poll_info
{
  LARGE_INTEGER timeout;
  ULONG number_of_handles;
  ULONG exclusive;
  afd_poll_handle_info handles[1];
};

using nt_create_file_fn = NTSTATUS(NTAPI*)(PHANDLE, ACCESS_MASK, POBJECT_ATTRIBUTES,
                                           PIO_STATUS_BLOCK, PLARGE_INTEGER, ULONG, ULONG, ULONG,
                                           ULONG, PVOID, ULONG);
using nt_device_io_control_file_fn = NTSTATUS(NTAPI*)(HANDLE, HANDLE, PVOID, PVOID,
                                                      PIO_STATUS_BLOCK, ULONG, PVOID, ULONG, PVOID,
                                                      ULONG);
using nt_cancel_io_file_ex_fn = NTSTATUS(NTAPI*)(HANDLE, PIO_STATUS_BLOCK, PIO_STATUS_BLOCK);

struct nt_functions
{
  nt_create_file_fn create_file = nullptr;
  nt_device_io_control_file_fn device_io_control_file = nullptr;
  nt_cancel_io_file_ex_fn cancel_io_file_ex = nullptr;

  bool complete() const noexcept
  {
    return create_file && device_io_control_file && cancel_io_file_ex;
  }
};

const nt_functions& nt() noexcept
{
  static const nt_functions functions = []() noexcept {
    nt_functions f;
    f.create_file = system_function<nt_create_file_fn>(L"ntdll.dll", "NtCreateFile");
    f.device_io_control_file =
        system_function<nt_device_io_control_file_fn>(L"ntdll.dll", "NtDeviceIoControlFile");
    f.cancel_io_file_ex =
        system_function<nt_cancel_io_file_ex_fn>(L"ntdll.dll", "NtCancelIoFileEx");
    return f;
  }();
  return functions;
}

// Opens a helper handle on \Device\Afd: the file the polls are issued on.
HANDLE open_afd_helper(error_code& ec) noexcept
{
  if (!nt().complete())
  {
    ec = boost::asio::error::operation_not_supported;
    return nullptr;
  }
  wchar_t name[] = L"\\Device\\Afd\\BoostAsioNotify";
  UNICODE_STRING path;
  path.Buffer = name;
  path.Length = static_cast<USHORT>((sizeof(name) / sizeof(name[0]) - 1) * sizeof(wchar_t));
  path.MaximumLength = static_cast<USHORT>(sizeof(name));
  OBJECT_ATTRIBUTES attributes{};
  attributes.Length = sizeof(attributes);
  attributes.ObjectName = &path;
  IO_STATUS_BLOCK iosb{};
  HANDLE helper = nullptr;
  const NTSTATUS status =
      nt().create_file(&helper, SYNCHRONIZE, &attributes, &iosb, nullptr, 0,
                       FILE_SHARE_READ | FILE_SHARE_WRITE, FILE_OPEN, 0, nullptr, 0);
  if (!nt_success(status))
  {
    ec = boost::asio::error::operation_not_supported; // no usable AFD (Wine before 7.13)
    return nullptr;
  }
  return helper;
}

// The handle AFD knows a socket by: the base provider's, beneath any layered provider.
SOCKET base_handle(SOCKET s, error_code& ec) noexcept
{
  for (DWORD ioctl : {DWORD(SIO_BASE_HANDLE), DWORD(SIO_BSP_HANDLE_POLL)})
  {
    SOCKET base = INVALID_SOCKET;
    DWORD bytes = 0;
    if (::WSAIoctl(s, ioctl, nullptr, 0, &base, sizeof(base), &bytes, nullptr, nullptr) == 0 &&
        base != INVALID_SOCKET)
      return base;
    if (::WSAGetLastError() == WSAENOTSOCK)
      break;
  }
  ec = boost::asio::error::bad_descriptor;
  return INVALID_SOCKET;
}

// --- registrations ------------------------------------------------------------------------

// What happens to a registration's poll when it completes.
enum class fate
{
  live,    // report what it found and poll again as the registration asks
  removed, // it becomes the REMOVE packet, then the registration is freed
  dropped  // the registration is freed silently (closed socket, stale handle, port closing)
};

struct afd_registration
{
  // The memory the kernel writes while a poll is in flight. The IO_STATUS_BLOCK comes first:
  // the completion's lpOverlapped points at it, and so at the registration.
  IO_STATUS_BLOCK iosb{};
  afd_poll_info info{};

  SOCKET socket = INVALID_SOCKET; // as registered
  SOCKET base = INVALID_SOCKET;   // as AFD knows it
  socket_identity identity;
  void* key = nullptr;
  events filter = events::none;
  trigger triggers = trigger::none;
  bool enabled = false;
  events reported = events::none; // edge: reported and not yet seen false
  ULONGLONG reported_at_ms = 0;   // edge: when what `reported` holds was first reported
  unsigned repeats = 0;           // edge: reports since a fall was last seen
  fate end = fate::live;
  bool in_flight = false;
  bool cancel_sent = false;
  ULONG in_flight_mask = 0;
  bool watched = false;  // in the engine's edge_watch_
  bool rearming = false; // in the engine's rearm_

  bool edge() const noexcept { return has_any(triggers, trigger::edge); }
  bool oneshot() const noexcept { return has_any(triggers, trigger::oneshot); }
};
static_assert(std::is_standard_layout<afd_registration>::value,
              "a completion's lpOverlapped is converted back to its registration");

afd_registration* registration_of(LPOVERLAPPED o) noexcept
{
  return reinterpret_cast<afd_registration*>(o);
}

/** Registrations marked by one of their flags, in room reserved for every registration of
    the engine (reserve()), so that adding one on the dequeue path never allocates. */
class registration_list
{
public:
  explicit registration_list(bool afd_registration::*member) noexcept : member_(member) {}

  void reserve(std::size_t n) { items_.reserve(n); }

  void insert(afd_registration* reg) noexcept
  {
    if (reg->*member_)
      return;
    reg->*member_ = true;
    items_.push_back(reg); // within the reserved room
  }

  void erase(afd_registration* reg) noexcept
  {
    if (!(reg->*member_))
      return;
    reg->*member_ = false;
    items_.erase(std::find(items_.begin(), items_.end(), reg));
  }

  /// Copies every member into `out` (whose room is reserved too).
  void copy_to(std::vector<afd_registration*>& out) const noexcept
  {
    out.assign(items_.begin(), items_.end());
  }

  /// Moves every member into `out` (whose room is reserved too), unmarked.
  void take(std::vector<afd_registration*>& out) noexcept
  {
    copy_to(out);
    clear();
  }

  void clear() noexcept
  {
    for (afd_registration* reg : items_)
      reg->*member_ = false;
    items_.clear();
  }

  bool empty() const noexcept { return items_.empty(); }

private:
  std::vector<afd_registration*> items_;
  bool afd_registration::*member_;
};

// The AFD events a registration asks for now; 0 when it asks for nothing. A closed socket
// completes any poll (AFD_POLL_LOCAL_CLOSE), so every poll also learns of closes.
ULONG wanted_mask(const afd_registration& r) noexcept
{
  if (r.end != fate::live || !r.enabled)
    return 0;
  const events wanted = r.filter & ~r.reported;
  ULONG mask = afd_poll_local_close;
  if (!has_any(r.reported, events::error))
    mask |= afd_poll_abort | afd_poll_connect_fail; // rule 9: whatever the filter
  if (has_any(wanted, events::in))
    mask |= afd_poll_receive | afd_poll_accept | afd_poll_disconnect;
  if (has_any(wanted, events::out))
    mask |= afd_poll_send;
  if (has_any(wanted, events::hangup))
    mask |= afd_poll_disconnect | afd_poll_abort;
  return mask;
}

// What a completed poll found, as the contract's events (before the registration's filter).
// A reset (ABORT) makes every direction ready and is an error, as a reset socket is on
// epoll; a failed connect is an error without OUT (what Pony saw from PSN); a graceful
// disconnect makes the socket readable (end of stream) and hung up.
events to_events(ULONG afd) noexcept
{
  events e = events::none;
  if (afd & (afd_poll_receive | afd_poll_accept))
    e = e | events::in;
  if (afd & afd_poll_send)
    e = e | events::out;
  if (afd & afd_poll_disconnect)
    e = e | events::in | events::hangup;
  if (afd & afd_poll_abort)
    e = e | events::in | events::out | events::hangup | events::error;
  if (afd & afd_poll_connect_fail)
    e = e | events::error;
  return e;
}

// --- one port per socket (rule 1) ---------------------------------------------------------

// Which port each registered socket belongs to, for the whole process. Locked after a
// port's own mutex, never before.
class socket_owners
{
public:
  // Claims `s` for `p`; false while another port holds the same socket.
  bool claim(SOCKET s, const socket_identity& id, const afd_engine* p)
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = owners_.find(s);
    if (it != owners_.end() && it->second.port != p && it->second.identity == id)
      return false;
    owners_[s] = owner{p, id}; // new, or a stale claim on a closed socket's handle value
    return true;
  }

  void release(SOCKET s, const afd_engine* p)
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = owners_.find(s);
    if (it != owners_.end() && it->second.port == p)
      owners_.erase(it);
  }

private:
  struct owner
  {
    const afd_engine* port;
    socket_identity identity;
  };
  std::mutex mutex_;
  std::unordered_map<SOCKET, owner> owners_;
};

socket_owners& owners()
{
  static socket_owners* table = new socket_owners; // never destroyed: ports may outlive statics
  return *table;
}

// The completion key of the helper handle, and the lpOverlapped of a REMOVE packet that is
// posted because no poll was in flight: addresses nothing else produces.
char afd_completion_key;
OVERLAPPED remove_packet_marker{};

// How often a dequeuing thread samples reported edge conditions while it waits.
constexpr DWORD edge_sample_interval_ms = 10;

// How long a reported edge condition may hold before it is reported again: the first delay,
// doubled after each repeat up to the last (see resample_delay_ms).
constexpr ULONGLONG edge_resample_first_ms = 10;
constexpr ULONGLONG edge_resample_last_ms = 1000;

// --- the engine ---------------------------------------------------------------------------

class afd_engine_impl final : public afd_engine
{
public:
  explicit afd_engine_impl(HANDLE iocp) noexcept : iocp_(iocp) {}

  bool open(error_code& ec) noexcept
  {
    helper_ = open_afd_helper(ec);
    if (!helper_)
      return false;
    if (!::CreateIoCompletionPort(helper_, iocp_, reinterpret_cast<ULONG_PTR>(&afd_completion_key),
                                  0) ||
        !::SetFileCompletionNotificationModes(helper_, FILE_SKIP_SET_EVENT_ON_HANDLE))
    {
      ec = last_error();
      return false;
    }
    return true;
  }

  ~afd_engine_impl() override
  {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      rearm_.clear(); // first: it marks the registrations freed below
      edge_watch_.clear();
      for (auto& entry : table_)
      {
        afd_registration* r = entry.second;
        owners().release(r->socket, this);
        if (r->in_flight)
          r->end = fate::dropped; // freed when its completion comes back, below
        else
          delete r;
      }
      table_.clear();
    }
    if (helper_)
    {
      drain_polls();
      ::CloseHandle(helper_);
    }
  }

  void apply(boost::span<registration> regs) override
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (registration& r : regs)
      if (!(r.result = validate(r)))
        r.result = apply_one(r);
  }

  DWORD before_wait(DWORD wait) override
  {
    std::lock_guard<std::mutex> lock(mutex_);
    arm_completed();
    if (edge_watch_.empty())
      return wait;
    sample_edges();
    return std::min(wait, edge_sample_interval_ms);
  }

  void complete(const OVERLAPPED_ENTRY* entries, std::size_t count, packet* out,
                entry_kind* kinds) override
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (std::size_t i = 0; i < count; ++i)
      kinds[i] = complete_one(entries[i], out[i]);
  }

  std::size_t size() override
  {
    std::lock_guard<std::mutex> lock(mutex_);
    return table_.size();
  }

private:
  static constexpr std::size_t drain_batch = 64;

  // --- registrations (mutex_ held) ---

  error_code apply_one(const registration& r)
  {
    const SOCKET s = static_cast<SOCKET>(r.socket);
    if (r.operation == operation::enable)
      return enable(s, r);
    afd_registration* reg = find(s);
    if (!reg)
      return boost::asio::error::not_found;
    if (r.operation == operation::disable)
    {
      reg->enabled = false; // a poll in flight is filtered when it completes
      unwatch(reg);
      return {};
    }
    forget(reg);
    if (reg->in_flight)
    {
      reg->end = fate::removed;
      cancel(reg);
    }
    else
    {
      post_remove(reg->key);
      delete reg;
    }
    return {};
  }

  error_code enable(SOCKET s, const registration& r)
  {
    afd_registration* reg = find(s);
    if (reg && reg->key != r.key)
      return boost::asio::error::invalid_argument; // rule 2: remove, then register anew
    if (!reg)
    {
      error_code ec;
      const SOCKET base = base_handle(s, ec);
      if (ec)
        return ec;
      const socket_identity id = identify(s);
      // Every allocation first: a bad_alloc leaves nothing claimed or registered.
      auto fresh = std::make_unique<afd_registration>();
      reserve_room(table_.size() + 1);
      if (!owners().claim(s, id, this))
        return boost::asio::error::already_open; // rule 1: another port's socket
      try
      {
        table_.emplace(s, fresh.get());
      }
      catch (...)
      {
        owners().release(s, this);
        throw;
      }
      reg = fresh.release();
      reg->socket = s;
      reg->base = base;
      reg->identity = id;
      reg->key = r.key;
    }
    reg->filter = r.filter;
    reg->triggers = r.triggers;
    reg->enabled = true;
    reg->reported = events::none;
    unwatch(reg);
    return arm_or_end(reg);
  }

  // Room for `n` registrations in what the dequeue path fills, so that it never allocates.
  void reserve_room(std::size_t n)
  {
    edge_watch_.reserve(n);
    rearm_.reserve(n);
    sampled_.reserve(n);
    arming_.reserve(n);
    poll_fds_.reserve(n);
  }

  // The live registration of `s`, or null. A registration whose handle value now names
  // another socket (closed without remove, then reused) is dropped on the way.
  afd_registration* find(SOCKET s)
  {
    const auto it = table_.find(s);
    if (it == table_.end())
      return nullptr;
    afd_registration* reg = it->second;
    if (identify(s) == reg->identity)
      return reg;
    forget(reg);
    drop(reg);
    return nullptr;
  }

  // Takes a registration out of the table (and the process-wide owners); it stays alive
  // for its poll in flight, if any.
  void forget(afd_registration* reg)
  {
    table_.erase(reg->socket);
    owners().release(reg->socket, this);
    unwatch(reg);
    rearm_.erase(reg);
  }

  // Frees a forgotten registration now, or when its poll in flight completes.
  void drop(afd_registration* reg)
  {
    if (reg->in_flight)
    {
      reg->end = fate::dropped;
      cancel(reg);
    }
    else
      delete reg;
  }

  // --- polls (mutex_ held) ---

  // Makes the poll in flight cover what the registration asks for.
  error_code arm(afd_registration* reg)
  {
    const ULONG mask = wanted_mask(*reg);
    if (reg->in_flight)
    {
      if ((mask & ~reg->in_flight_mask) != 0)
        cancel(reg); // its completion submits the wider poll
      return {};
    }
    return mask ? submit(reg, mask) : error_code();
  }

  // arm(), ending the registration when its socket can no longer be polled (closed).
  error_code arm_or_end(afd_registration* reg)
  {
    const error_code ec = arm(reg);
    if (ec)
    {
      forget(reg);
      drop(reg);
    }
    return ec;
  }

  error_code submit(afd_registration* reg, ULONG mask)
  {
    reg->info.timeout.QuadPart = (std::numeric_limits<LONGLONG>::max)();
    reg->info.number_of_handles = 1;
    reg->info.exclusive = FALSE;
    reg->info.handles[0].handle = reinterpret_cast<HANDLE>(reg->base);
    reg->info.handles[0].events = mask;
    reg->info.handles[0].status = 0;
    reg->iosb.Status = status_pending;
    const NTSTATUS status = nt().device_io_control_file(
        helper_, nullptr, nullptr, &reg->iosb, &reg->iosb, ioctl_afd_poll, &reg->info,
        sizeof(reg->info), &reg->info, sizeof(reg->info));
    // Pending or done at once, the completion comes through the port (the helper does not
    // skip the port on success).
    if (status != status_pending && !nt_success(status))
      return nt_status_error(status);
    reg->in_flight = true;
    reg->cancel_sent = false;
    reg->in_flight_mask = mask;
    ++in_flight_;
    return {};
  }

  void cancel(afd_registration* reg) noexcept
  {
    if (!reg->in_flight || reg->cancel_sent)
      return;
    IO_STATUS_BLOCK cancel_iosb{};
    nt().cancel_io_file_ex(helper_, &reg->iosb, &cancel_iosb); // STATUS_NOT_FOUND: done already
    reg->cancel_sent = true;
  }

  void post_remove(void* key) noexcept
  {
    ::PostQueuedCompletionStatus(iocp_, psn::event_remove, reinterpret_cast<ULONG_PTR>(key),
                                 &remove_packet_marker);
  }

  // --- completions (mutex_ held) ---

  // What one dequeued entry is to the engine; a packet is written to `out`.
  entry_kind complete_one(const OVERLAPPED_ENTRY& e, packet& out)
  {
    if (e.lpOverlapped == &remove_packet_marker)
    {
      out.key = reinterpret_cast<void*>(e.lpCompletionKey);
      out.value = 0;
      out.kind = packet_kind::notification;
      out.events = events::remove;
      return entry_kind::packet;
    }
    if (e.lpCompletionKey != reinterpret_cast<ULONG_PTR>(&afd_completion_key) || !e.lpOverlapped)
      return entry_kind::foreign;
    out.value = 0;
    out.kind = packet_kind::notification;
    return poll_completed(registration_of(e.lpOverlapped), out) ? entry_kind::packet
                                                                : entry_kind::nothing;
  }

  bool poll_completed(afd_registration* reg, packet& out)
  {
    reg->in_flight = false;
    --in_flight_;
    if (reg->end == fate::dropped)
    {
      delete reg;
      return false;
    }
    out.key = reg->key;
    if (reg->end == fate::removed)
    {
      out.events = events::remove; // rule 3: the last packet of the registration
      delete reg;
      return true;
    }
    const NTSTATUS status = reg->iosb.Status;
    const ULONG found =
        nt_success(status) && reg->info.number_of_handles != 0 ? reg->info.handles[0].events : 0;
    if ((found & afd_poll_local_close) || (!nt_success(status) && status != status_cancelled))
    {
      forget(reg); // rule 4: closed, and the registration went with it
      delete reg;
      return false;
    }
    const events now = to_events(found) & (reg->filter | events::error) & ~reg->reported;
    const bool report = reg->enabled && now != events::none;
    if (report)
    {
      out.events = now;
      if (reg->oneshot())
        reg->enabled = false; // rule 7
      if (reg->edge())
        watch(reg, now);
    }
    rearm_.insert(reg);
    return report;
  }

  // Polls again for the registrations whose poll completed. Not at once: a level-triggered
  // condition is sampled when a thread next dequeues, as epoll's ready list is, so data
  // read between two dequeues is not reported from a poll that completed before the read.
  void arm_completed()
  {
    rearm_.take(arming_);
    for (afd_registration* reg : arming_)
      arm_or_end(reg);
  }

  // --- edge emulation (mutex_ held) ---

  void watch(afd_registration* reg, events reported)
  {
    // The resample delay runs from the first report of what is held now: reports of other
    // events meanwhile must not postpone it (a toggling `out` would starve a held `in`).
    if (reg->reported == events::none)
    {
      const ULONGLONG now = ::GetTickCount64();
      if (now - reg->reported_at_ms > 2 * edge_resample_last_ms)
        reg->repeats = 0; // quiet long enough: earlier repeats say nothing about now
      reg->reported_at_ms = now;
    }
    reg->reported = reg->reported | reported;
    edge_watch_.insert(reg);
  }

  void unwatch(afd_registration* reg)
  {
    reg->reported = events::none;
    reg->repeats = 0;
    edge_watch_.erase(reg);
  }

  // Which reported conditions are asked for again, so that their next rise is reported:
  // those seen false, and those that have held for longer than the registration's resample
  // delay. AFD cannot tell "still unread" from "drained, then more arrived" between two
  // samples, and only the second is a rise; re-reporting a condition that held that long
  // (a spurious packet for a socket left undrained, at most one per delay, the delay
  // doubling) is what keeps the second from being lost.
  void sample_edges()
  {
    edge_watch_.copy_to(sampled_);
    poll_fds_.resize(sampled_.size()); // within the reserved room
    for (std::size_t i = 0; i < sampled_.size(); ++i)
      poll_fds_[i] = WSAPOLLFD{sampled_[i]->socket, POLLRDNORM | POLLWRNORM, 0};
    const bool polled =
        ::WSAPoll(poll_fds_.data(), static_cast<ULONG>(poll_fds_.size()), 0) != SOCKET_ERROR;
    const ULONGLONG now = ::GetTickCount64();
    for (std::size_t i = 0; i < sampled_.size(); ++i)
    {
      afd_registration* reg = sampled_[i];
      const SHORT r = polled ? poll_fds_[i].revents : 0;
      if (r & POLLNVAL)
        continue; // closed: its poll's LOCAL_CLOSE ends it
      events fallen = polled ? reg->reported & ~holding(r) : events::none;
      if (fallen == reg->reported)
        reg->repeats = 0; // all seen false: the socket was drained
      else if (now - reg->reported_at_ms >= resample_delay_ms(*reg))
      {
        fallen = reg->reported; // held past the delay: asked for again, fallen or not
        ++reg->repeats;
      }
      if (fallen == events::none)
        continue;
      reg->reported = reg->reported & ~fallen;
      if (reg->reported == events::none)
        edge_watch_.erase(reg);
      arm_or_end(reg);
    }
  }

  // The conditions WSAPoll's answer says hold.
  static events holding(SHORT r) noexcept
  {
    events e = events::none;
    if (r & (POLLRDNORM | POLLHUP | POLLERR))
      e = e | events::in;
    if (r & POLLWRNORM)
      e = e | events::out;
    if (r & POLLHUP)
      e = e | events::hangup;
    if (r & POLLERR)
      e = e | events::error;
    return e;
  }

  static ULONGLONG resample_delay_ms(const afd_registration& reg) noexcept
  {
    const unsigned doublings = std::min(reg.repeats, 7u); // 10 ms << 7 > 1 s
    return std::min(edge_resample_first_ms << doublings, edge_resample_last_ms);
  }

  // Cancels every poll and waits (bounded) for their completions, so no registration is
  // freed while the kernel may still write into it. One that never completes is leaked
  // rather than freed under the kernel.
  void drain_polls() noexcept
  {
    IO_STATUS_BLOCK cancel_iosb{};
    nt().cancel_io_file_ex(helper_, nullptr, &cancel_iosb);
    for (int quiet_rounds = 0; in_flight_ != 0 && quiet_rounds < 50;)
    {
      OVERLAPPED_ENTRY entries[drain_batch];
      ULONG received = 0;
      if (!::GetQueuedCompletionStatusEx(iocp_, entries, drain_batch, &received, 100, FALSE))
      {
        ++quiet_rounds;
        continue;
      }
      for (ULONG i = 0; i < received; ++i)
        if (entries[i].lpCompletionKey == reinterpret_cast<ULONG_PTR>(&afd_completion_key) &&
            entries[i].lpOverlapped)
        {
          afd_registration* reg = registration_of(entries[i].lpOverlapped);
          --in_flight_;
          delete reg; // every registration is dropped or removed by now
        }
    }
  }

  std::mutex mutex_;
  const HANDLE iocp_;
  HANDLE helper_ = nullptr;
  std::unordered_map<SOCKET, afd_registration*> table_;
  registration_list edge_watch_{&afd_registration::watched};
  registration_list rearm_{&afd_registration::rearming}; // completed, to be polled again
  std::vector<afd_registration*> sampled_;
  std::vector<afd_registration*> arming_;
  std::vector<WSAPOLLFD> poll_fds_;
  std::size_t in_flight_ = 0;
};

// --- the port -----------------------------------------------------------------------------

class afd_port final : public completion_port
{
public:
  bool open(error_code& ec) noexcept
  {
    if (!open_completion_port(ec))
      return false;
    engine_ = open_afd_engine(iocp, ec);
    return engine_ != nullptr;
  }

  port_backend backend() const noexcept override { return port_backend::afd; }

  std::size_t process(boost::span<registration> regs, boost::span<packet> packets,
                      std::chrono::milliseconds timeout, error_code& ec) override
  {
    if (!regs.empty())
      engine_->apply(regs);
    if (packets.empty())
      return 0;
    const wait_budget budget(timeout);
    OVERLAPPED_ENTRY entries[packet_batch];
    packet translated[packet_batch];
    afd_engine::entry_kind kinds[packet_batch];
    const ULONG wanted = static_cast<ULONG>(std::min(packets.size(), packet_batch));
    for (;;)
    {
      ULONG received = 0;
      if (!::GetQueuedCompletionStatusEx(iocp, entries, wanted, &received,
                                         engine_->before_wait(budget.left_ms()), FALSE))
      {
        const DWORD e = ::GetLastError();
        if (e != WAIT_TIMEOUT)
        {
          ec = win32_error(e);
          return 0;
        }
        received = 0;
      }
      engine_->complete(entries, received, translated, kinds);
      std::size_t n = 0;
      for (ULONG i = 0; i < received; ++i)
        if (kinds[i] == afd_engine::entry_kind::packet)
          packets[n++] = translated[i];
        else if (kinds[i] == afd_engine::entry_kind::foreign &&
                 translate_user_packet(entries[i], packets[n]))
          ++n;
      if (n != 0 || budget.expired())
        return n;
    }
  }

private:
  static constexpr std::size_t packet_batch = 64;

  // Destroyed before the base class closes the completion port it drains.
  std::unique_ptr<afd_engine> engine_;
};

} // namespace

afd_engine::~afd_engine() = default;

std::unique_ptr<afd_engine> open_afd_engine(HANDLE iocp, error_code& ec)
{
  auto engine = std::make_unique<afd_engine_impl>(iocp);
  if (!engine->open(ec))
    return nullptr;
  return engine;
}

bool afd_available() noexcept
{
  static const bool available = []() noexcept {
    if (start_winsock())
      return false;
    error_code ec;
    const HANDLE helper = open_afd_helper(ec);
    if (!helper)
      return false;
    ::CloseHandle(helper);
    return true;
  }();
  return available;
}

std::unique_ptr<port::impl, port::impl_deleter> open_afd_port(error_code& ec)
{
  std::unique_ptr<afd_port, port::impl_deleter> p(new afd_port);
  if (!p->open(ec))
    return nullptr;
  return std::unique_ptr<port::impl, port::impl_deleter>(p.release());
}

} // namespace win
} // namespace detail
} // namespace asio_notify
} // namespace boost
