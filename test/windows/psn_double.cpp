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
//   a handle that is not an open socket           WSAEBADF (not WSAENOTSOCK: the double
//                                                 allocates handles itself, so a closed
//                                                 socket's value may name one of them)
#include "psn_double.hpp"

#include <boost/asio_notify/detail/win_psn.hpp>

#include "port_win_common.hpp" // the library's private Windows helpers (src/)

#include <winsock2.h>
#include <ws2tcpip.h>
#include <iphlpapi.h>
#include <windows.h>
#include <winternl.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace psn_double {

namespace {

namespace psn = boost::asio_notify::detail::psn;
using boost::asio_notify::detail::sock_notify_registration;

// --- identities of kernel objects, robust against handle values being reused ------------

// Sockets are told apart by the library's own file identity (port_win_common.hpp), the one
// its AFD backend uses.
using boost::asio_notify::detail::win::identify;
using boost::asio_notify::detail::win::socket_identity;
using boost::asio_notify::detail::win::system_function;

// Kernel functions looked up at run time: CompareObjectHandles (kernelbase, Windows 10) and
// NtQueryObject (ntdll), neither in MinGW's import libraries.
using compare_object_handles_fn = BOOL(WINAPI*)(HANDLE, HANDLE);
using nt_query_object_fn = NTSTATUS(NTAPI*)(HANDLE, OBJECT_INFORMATION_CLASS, PVOID, ULONG, PULONG);

bool same_object(HANDLE a, HANDLE b)
{
  static const auto compare = system_function<compare_object_handles_fn>(L"kernelbase.dll", "CompareObjectHandles");
  return compare ? compare(a, b) != FALSE : a == b;
}

// How many handles refer to the object of `h` (0 when unknown).
ULONG handle_count(HANDLE h)
{
  static const auto query = system_function<nt_query_object_fn>(L"ntdll.dll", "NtQueryObject");
  PUBLIC_OBJECT_BASIC_INFORMATION info{};
  if (!query || query(h, ObjectBasicInformation, &info, sizeof(info), nullptr) < 0)
    return 0;
  return info.HandleCount;
}

// --- what WSAPoll does not say -----------------------------------------------------------

template <class Table>
bool read_table(std::vector<unsigned char>& buffer, DWORD (WINAPI* get)(Table*, PULONG, BOOL))
{
  ULONG size = static_cast<ULONG>(buffer.size());
  for (int attempt = 0; attempt < 4; ++attempt)
  {
    const DWORD e = get(buffer.empty() ? nullptr : reinterpret_cast<Table*>(buffer.data()), &size, FALSE);
    if (e == NO_ERROR)
      return true;
    if (e != ERROR_INSUFFICIENT_BUFFER)
      return false;
    buffer.resize(size + 4096); // connections come and go meanwhile
    size = static_cast<ULONG>(buffer.size());
  }
  return false;
}

bool fin_received(DWORD state)
{
  return state == MIB_TCP_STATE_CLOSE_WAIT || state == MIB_TCP_STATE_LAST_ACK ||
         state == MIB_TCP_STATE_CLOSING || state == MIB_TCP_STATE_TIME_WAIT ||
         state == MIB_TCP_STATE_CLOSED;
}

// Whether the peer of a connected TCP socket has closed its side (its FIN arrived), from the
// system's TCP connection table. WSAPoll (Wine's, at least) reports POLLHUP only once the
// data that came before the FIN has been read; the contract's HANGUP does not wait for that.
bool peer_closed(SOCKET s)
{
  sockaddr_storage local{}, remote{};
  int local_len = sizeof(local), remote_len = sizeof(remote);
  if (::getsockname(s, reinterpret_cast<sockaddr*>(&local), &local_len) != 0 ||
      ::getpeername(s, reinterpret_cast<sockaddr*>(&remote), &remote_len) != 0)
    return false;
  std::vector<unsigned char> buffer;
  if (local.ss_family == AF_INET)
  {
    const auto& l = reinterpret_cast<const sockaddr_in&>(local);
    const auto& r = reinterpret_cast<const sockaddr_in&>(remote);
    if (!read_table<MIB_TCPTABLE2>(buffer, &::GetTcpTable2))
      return false;
    const auto* table = reinterpret_cast<const MIB_TCPTABLE2*>(buffer.data());
    for (DWORD i = 0; i < table->dwNumEntries; ++i)
    {
      const MIB_TCPROW2& row = table->table[i];
      if (row.dwLocalAddr == l.sin_addr.s_addr && static_cast<u_short>(row.dwLocalPort) == l.sin_port &&
          row.dwRemoteAddr == r.sin_addr.s_addr && static_cast<u_short>(row.dwRemotePort) == r.sin_port)
        return fin_received(row.dwState);
    }
  }
  else if (local.ss_family == AF_INET6)
  {
    const auto& l = reinterpret_cast<const sockaddr_in6&>(local);
    const auto& r = reinterpret_cast<const sockaddr_in6&>(remote);
    if (!read_table<MIB_TCP6TABLE2>(buffer, &::GetTcp6Table2))
      return false;
    const auto* table = reinterpret_cast<const MIB_TCP6TABLE2*>(buffer.data());
    for (DWORD i = 0; i < table->dwNumEntries; ++i)
    {
      const MIB_TCP6ROW2& row = table->table[i];
      if (std::memcmp(&row.LocalAddr, &l.sin6_addr, sizeof(l.sin6_addr)) == 0 &&
          static_cast<u_short>(row.dwLocalPort) == l.sin6_port &&
          std::memcmp(&row.RemoteAddr, &r.sin6_addr, sizeof(r.sin6_addr)) == 0 &&
          static_cast<u_short>(row.dwRemotePort) == r.sin6_port)
        return fin_received(row.State);
    }
  }
  return false;
}

// --- the registration table -----------------------------------------------------------

// A completion port the double has seen. It keeps a duplicate handle so the port object is
// recognised (and packets go to it) whatever happens to the caller's handle value; when the
// duplicate is the last handle, the port was closed and its registrations are dropped.
struct port_record
{
  HANDLE handle = nullptr;
};

struct registration_state
{
  socket_identity id;
  port_record* port = nullptr;
  void* key = nullptr;
  UINT16 filter = 0;
  UINT8 triggers = 0;
  bool datagram = false;
  bool peer_closed = false; // a FIN arrived (sticky: it cannot be taken back)
  bool enabled = false;
  bool queued = false;    // a packet of this generation is in the port's queue
  UINT32 generation = 0;  // changes on every enable / disable: older packets are stale
  UINT16 last = 0;        // edge: the conditions seen at the last sample
  UINT16 pending = 0;     // edge: changes seen while a packet was queued
};

constexpr UINT32 generation_shift = 8; // below: the events (SOCK_NOTIFY_* fit in 8 bits)
constexpr UINT32 generation_mask = 0xffffffu;
constexpr UINT16 filter_bits = psn::register_event_in | psn::register_event_out | psn::register_event_hangup;
constexpr UINT8 trigger_bits = psn::trigger_oneshot | psn::trigger_persistent | psn::trigger_level | psn::trigger_edge;

class table
{
public:
  std::mutex mutex;

  // The record of the port `h` refers to; null (and `error`) for a handle that is not open.
  port_record* find_port(HANDLE h, DWORD& error)
  {
    drop_closed_ports();
    for (const auto& p : ports_)
      if (same_object(h, p->handle))
        return p.get();
    auto p = std::make_unique<port_record>();
    if (!::DuplicateHandle(::GetCurrentProcess(), h, ::GetCurrentProcess(), &p->handle, 0, FALSE,
                           DUPLICATE_SAME_ACCESS))
    {
      error = ::GetLastError();
      return nullptr;
    }
    ports_.push_back(std::move(p));
    return ports_.back().get();
  }

  DWORD apply(port_record* port, sock_notify_registration& r)
  {
    if (r.operation != psn::op_enable && r.operation != psn::op_disable && r.operation != psn::op_remove)
      return ERROR_INVALID_PARAMETER;
    if (r.operation == psn::op_enable && !valid_enable(r))
      return ERROR_INVALID_PARAMETER;

    auto it = registrations_.find(r.socket);
    int type = 0;
    int len = sizeof(type);
    if (::getsockopt(r.socket, SOL_SOCKET, SO_TYPE, reinterpret_cast<char*>(&type), &len) != 0)
    {
      if (it != registrations_.end())
        forget(it); // rule 4: closed, and the registration went with it
      return WSAEBADF;
    }
    const socket_identity id = identify(r.socket);
    if (it != registrations_.end() && it->second.id != id)
    {
      forget(it); // rule 4: closed, and the handle value now names another socket
      it = registrations_.end();
    }

    if (r.operation == psn::op_enable)
    {
      if (it == registrations_.end())
      {
        registration_state fresh;
        fresh.id = id;
        fresh.port = port;
        fresh.key = r.completion_key;
        fresh.datagram = type == SOCK_DGRAM;
        it = registrations_.emplace(r.socket, fresh).first;
      }
      else if (it->second.port != port)
        return ERROR_INVALID_PARAMETER; // rule 1
      else if (it->second.key != r.completion_key)
        return WSAEINVAL; // rule 2
      registration_state& s = it->second;
      s.filter = r.event_filter;
      s.triggers = r.trigger_flags;
      s.enabled = true;
      s.pending = 0;
      // Rule 8: an edge registration reports changes from now on, not what already holds.
      s.last = (s.triggers & psn::trigger_edge) ? sample(r.socket, s) : 0;
      new_generation(it);
      return ERROR_SUCCESS;
    }

    if (it == registrations_.end() || it->second.port != port)
      return ERROR_NOT_FOUND;
    if (r.operation == psn::op_disable)
    {
      it->second.enabled = false;
      it->second.pending = 0;
      new_generation(it); // rule 5: what was queued before is not delivered either
      return ERROR_SUCCESS;
    }
    // Rule 3: one REMOVE packet (generation 0: never stale), and the registration is gone,
    // so nothing of it can be queued or delivered after it.
    if (!::PostQueuedCompletionStatus(port->handle, psn::event_remove,
                                      reinterpret_cast<ULONG_PTR>(it->second.key), nullptr))
      return ::GetLastError();
    forget(it);
    return ERROR_SUCCESS;
  }

  // Samples the port's enabled registrations and queues the packets they call for.
  void evaluate(port_record* port)
  {
    std::vector<SOCKET> sockets;
    std::vector<WSAPOLLFD> fds;
    for (auto it = registrations_.begin(); it != registrations_.end();)
    {
      registration_state& s = it->second;
      if (s.port != port || !s.enabled)
      {
        ++it;
        continue;
      }
      if (identify(it->first) != s.id)
      {
        it = forget(it); // rule 4: closed (maybe reused): silently gone
        continue;
      }
      // Level registrations with a packet queued need no sample; edge ones do (to see a
      // condition go away, so its return is an edge).
      if (!s.queued || (s.triggers & psn::trigger_edge))
      {
        sockets.push_back(it->first);
        fds.push_back(poll_entry(it->first, s));
      }
      ++it;
    }
    if (fds.empty())
      return;
    if (::WSAPoll(fds.data(), static_cast<ULONG>(fds.size()), 0) == SOCKET_ERROR)
      for (WSAPOLLFD& fd : fds) // one bad socket fails the whole call: poll them one by one
        if (::WSAPoll(&fd, 1, 0) == SOCKET_ERROR)
          fd.revents = POLLNVAL;
    for (std::size_t i = 0; i < fds.size(); ++i)
    {
      auto it = registrations_.find(sockets[i]);
      if (fds[i].revents & POLLNVAL)
      {
        forget(it); // rule 4
        continue;
      }
      update(it, observe(it->first, it->second, fds[i].revents));
    }
  }

  // Strips the generation from the notification packets just dequeued and drops stale ones;
  // returns how many entries remain (compacted).
  ULONG filter_dequeued(OVERLAPPED_ENTRY* entries, ULONG count)
  {
    ULONG kept = 0;
    for (ULONG i = 0; i < count; ++i)
    {
      OVERLAPPED_ENTRY e = entries[i];
      const UINT32 generation = (e.dwNumberOfBytesTransferred >> generation_shift) & generation_mask;
      if (e.lpOverlapped == nullptr && generation != 0)
      {
        auto g = by_generation_.find(generation);
        if (g == by_generation_.end())
          continue; // disabled, re-registered, removed or closed since it was queued
        registrations_.at(g->second).queued = false;
        e.dwNumberOfBytesTransferred &= (1u << generation_shift) - 1;
      }
      entries[kept++] = e;
    }
    return kept;
  }

  std::size_t size() const { return registrations_.size(); }

private:
  using iterator = std::unordered_map<SOCKET, registration_state>::iterator;

  static bool valid_enable(const sock_notify_registration& r)
  {
    const UINT8 t = r.trigger_flags;
    const bool level = (t & psn::trigger_level) != 0;
    const bool edge = (t & psn::trigger_edge) != 0;
    return (r.event_filter & ~filter_bits) == 0 && (t & ~trigger_bits) == 0 && level != edge &&
           (t & (psn::trigger_oneshot | psn::trigger_persistent)) !=
               (psn::trigger_oneshot | psn::trigger_persistent);
  }

  static WSAPOLLFD poll_entry(SOCKET socket, const registration_state& s)
  {
    WSAPOLLFD fd{};
    fd.fd = socket;
    // Errors and hang-ups are reported by WSAPoll whatever is asked for.
    if (s.filter & (psn::register_event_in | psn::register_event_hangup))
      fd.events |= POLLRDNORM;
    if (s.filter & psn::register_event_out)
      fd.events |= POLLWRNORM;
    return fd;
  }

  // WSAPoll's answer as SOCK_NOTIFY_* conditions (before the filter).
  static UINT16 conditions(SHORT revents, const registration_state& s)
  {
    UINT16 c = 0;
    if (revents & (POLLRDNORM | POLLRDBAND))
      c |= psn::register_event_in;
    if (revents & POLLWRNORM)
      c |= psn::register_event_out;
    if (revents & POLLHUP) // the peer closed: reading no longer blocks either
      c |= psn::register_event_in | psn::register_event_hangup;
    if (revents & POLLERR)
      c |= psn::event_err;
    if (s.datagram)
      c &= ~psn::register_event_hangup; // rule 10
    return c;
  }

  // The conditions of a registration's socket given WSAPoll's answer: a hang-up hidden
  // behind unread data is looked up when the registration asks for hang-ups.
  static UINT16 observe(SOCKET socket, registration_state& s, SHORT revents)
  {
    UINT16 c = conditions(revents, s);
    const bool hidden_hangup_possible = !s.datagram && (s.filter & psn::register_event_hangup) &&
                                        (c & psn::register_event_in) && !(c & psn::register_event_hangup);
    if (hidden_hangup_possible && (s.peer_closed || (s.peer_closed = peer_closed(socket))))
      c |= psn::register_event_hangup;
    return c;
  }

  static UINT16 sample(SOCKET socket, registration_state& s)
  {
    WSAPOLLFD fd = poll_entry(socket, s);
    if (::WSAPoll(&fd, 1, 0) == SOCKET_ERROR)
      return 0;
    return observe(socket, s, fd.revents);
  }

  void update(iterator it, UINT16 now)
  {
    registration_state& s = it->second;
    const UINT16 wanted = now & (s.filter | psn::event_err); // rule 9: ERR whatever the filter
    UINT16 report = 0;
    if (s.triggers & psn::trigger_edge)
    {
      s.pending |= static_cast<UINT16>(wanted & ~s.last);
      s.last = now;
      if (!s.queued)
      {
        report = s.pending;
        s.pending = 0;
      }
    }
    else if (!s.queued)
      report = wanted;
    if (report == 0)
      return;
    const DWORD bytes = (s.generation << generation_shift) | report;
    if (!::PostQueuedCompletionStatus(s.port->handle, bytes, reinterpret_cast<ULONG_PTR>(s.key), nullptr))
      return; // the port is going away; nothing to deliver to
    s.queued = true;
    if (s.triggers & psn::trigger_oneshot)
      s.enabled = false; // rule 7: disabled (not removed) until enabled again
  }

  void new_generation(iterator it)
  {
    registration_state& s = it->second;
    if (s.generation != 0)
      by_generation_.erase(s.generation);
    do
      next_generation_ = (next_generation_ + 1) & generation_mask;
    while (next_generation_ == 0 || by_generation_.count(next_generation_) != 0);
    s.generation = next_generation_;
    s.queued = false; // whatever is queued is stale now
    by_generation_.emplace(s.generation, it->first);
  }

  iterator forget(iterator it)
  {
    by_generation_.erase(it->second.generation);
    return registrations_.erase(it);
  }

  void drop_closed_ports()
  {
    for (auto p = ports_.begin(); p != ports_.end();)
    {
      if (handle_count((*p)->handle) != 1)
      {
        ++p;
        continue;
      }
      // Only the double's duplicate is left: the port was closed, taking its registrations.
      for (auto it = registrations_.begin(); it != registrations_.end();)
        it = it->second.port == p->get() ? forget(it) : std::next(it);
      ::CloseHandle((*p)->handle);
      p = ports_.erase(p);
    }
  }

  std::vector<std::unique_ptr<port_record>> ports_;
  std::unordered_map<SOCKET, registration_state> registrations_;
  std::unordered_map<UINT32, SOCKET> by_generation_;
  UINT32 next_generation_ = 0;
};

// Never destroyed: ports may still be closed (and call in) during static destruction.
table& the_table()
{
  static table* t = new table;
  return *t;
}

} // namespace

DWORD WSAAPI process_socket_notifications(HANDLE completion_port, UINT32 registration_count,
                                          sock_notify_registration* registration_infos,
                                          UINT32 timeout_ms, ULONG completion_count,
                                          OVERLAPPED_ENTRY* completion_port_entries,
                                          UINT32* received_entry_count)
{
  if ((registration_count == 0) != (registration_infos == nullptr))
    return ERROR_INVALID_PARAMETER;
  if (completion_count != 0 && (completion_port_entries == nullptr || received_entry_count == nullptr))
    return ERROR_INVALID_PARAMETER;

  table& t = the_table();
  port_record* port = nullptr;
  {
    std::lock_guard<std::mutex> lock(t.mutex);
    DWORD error = ERROR_SUCCESS;
    port = t.find_port(completion_port, error);
    if (!port)
      return error; // the call fails as a whole: no entry is applied
    for (UINT32 i = 0; i < registration_count; ++i)
      registration_infos[i].registration_result = t.apply(port, registration_infos[i]);
  }
  if (completion_count == 0)
    return ERROR_SUCCESS;

  // Dequeue: sample, then wait on the port for a slice, until a packet or the timeout.
  using clock = std::chrono::steady_clock;
  const bool forever = timeout_ms == INFINITE;
  const clock::time_point deadline = clock::now() + std::chrono::milliseconds(forever ? 0 : timeout_ms);
  DWORD slice = 1;
  for (;;)
  {
    {
      std::lock_guard<std::mutex> lock(t.mutex);
      t.evaluate(port);
    }
    DWORD wait = slice;
    if (!forever)
    {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - clock::now()).count();
      wait = static_cast<DWORD>(std::clamp<long long>(left, 0, slice));
    }
    ULONG got = 0;
    if (::GetQueuedCompletionStatusEx(completion_port, completion_port_entries, completion_count,
                                      &got, wait, FALSE))
    {
      std::lock_guard<std::mutex> lock(t.mutex);
      got = t.filter_dequeued(completion_port_entries, got);
      if (got != 0)
      {
        *received_entry_count = got;
        return ERROR_SUCCESS;
      }
    }
    else if (const DWORD error = ::GetLastError(); error != WAIT_TIMEOUT)
      return error;
    if (!forever && clock::now() >= deadline)
    {
      *received_entry_count = 0;
      return WAIT_TIMEOUT;
    }
    slice = std::min<DWORD>(slice * 2, 8); // idle: sample less often, up to every 8 ms
  }
}

void install() noexcept
{
  boost::asio_notify::detail::set_process_socket_notifications_for_testing(&process_socket_notifications);
}

void uninstall() noexcept
{
  boost::asio_notify::detail::set_process_socket_notifications_for_testing(nullptr);
}

std::size_t registration_count()
{
  table& t = the_table();
  std::lock_guard<std::mutex> lock(t.mutex);
  return t.size();
}

} // namespace psn_double
