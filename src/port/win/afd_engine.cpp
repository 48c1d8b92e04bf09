//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The AFD engine: the socket state notification contract emulated on IOCTL_AFD_POLL, the
// mechanism wepoll, libuv, mio and smol-rs/polling use. A registration has at most one poll
// in flight, whose memory lives in the registration, freed only once that poll's completion
// is dequeued. How each rule maps onto AFD, and where AFD cannot honour the contract exactly
// (edge triggering, sockets closed without remove, Wine): doc/windows.md, "The AFD backend".

#include "afd_engine.hpp"

#include "../socket_owners.hpp"
#include "afd.hpp"
#include "afd_poll_site.hpp"
#include "afd_registration.hpp"
#include "system.hpp"

#include <boost/asio/error.hpp>

#include <algorithm>
#include <limits>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace boost {
namespace asio_notify {
namespace detail {
namespace win {

namespace {

using boost::system::error_code;

// Rule 1: which port each registered socket belongs to, for the whole process.
template <class T>
using socket_table = detail::hashed_table<SOCKET, T>;
using socket_owners = detail::socket_owners<SOCKET, socket_identity, socket_table>;
socket_owners& owners() { return socket_owners::instance(); }

// How often a dequeuing thread samples reported edge conditions while it waits.
constexpr DWORD edge_sample_interval_ms = 10;

class afd_engine_impl final : public afd_engine
{
public:
  explicit afd_engine_impl(std::unique_ptr<afd_poll_site> site) noexcept : site_(std::move(site)) {}

  ~afd_engine_impl() override
  {
    std::lock_guard<std::mutex> lock(mutex_);
    rearm_.clear(); // first: it marks the registrations freed below
    edge_watch_.clear();
    for (auto& entry : table_)
    {
      afd_registration* r = entry.second;
      owners().release(r->socket, this);
      if (r->in_flight)
        r->end = fate::dropped; // freed when its completion comes back (the site's part)
      else
        site_->free_registration(r);
    }
    table_.clear();
    site_->abandon(in_flight_);
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
    if (!edge_watch_.empty())
    {
      sample_edges();
      wait = std::min(wait, edge_sample_interval_ms);
    }
    if (waits_long(wait))
      ++long_waits_;
    return wait;
  }

  void complete(const OVERLAPPED_ENTRY* entries, std::size_t count, DWORD waited, packet* out,
                entry_kind* kinds) override
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (waits_long(waited))
      --long_waits_;
    for (std::size_t i = 0; i < count; ++i)
      kinds[i] = complete_one(entries[i], out[i]);
    wake_a_long_wait();
  }

  bool poll_completed(afd_registration& reg, packet& out) override
  {
    std::lock_guard<std::mutex> lock(mutex_);
    out.value = 0;
    out.kind = packet_kind::notification;
    const bool report = poll_completed(&reg, out);
    arm_completed(); // after a completion on the io_context's port: no wait to come first
    return report;
  }

  std::size_t size() override
  {
    std::lock_guard<std::mutex> lock(mutex_);
    return table_.size();
  }

private:
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
      reg->enabled = false;
      unwatch(reg);
      cancel(reg); // a poll left in flight would hold the io_context's work for nothing
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
      site_->post_remove(reg->key);
      site_->free_registration(reg);
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
      const auto free = [this](afd_registration* p) {
        site_->free_registration(p);
      };
      std::unique_ptr<afd_registration, decltype(free)> fresh(site_->make_registration(ec), free);
      if (!fresh)
        return ec;
      reserve_room(table_.size() + 1);
      if ((ec = owners().claim(s, id, this)))
        return ec; // rule 1: another port's socket (already_open)
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
      site_->free_registration(reg);
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
    const NTSTATUS status = site_->issue(*reg);
    // Pending or done at once, the completion comes through the port (no helper skips the
    // port on success).
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
    site_->cancel(*reg);
    reg->cancel_sent = true;
  }

  // --- completions (mutex_ held) ---

  // What one dequeued entry is to the engine; a packet is written to `out`.
  entry_kind complete_one(const OVERLAPPED_ENTRY& e, packet& out)
  {
    void* remove_key = nullptr;
    afd_registration* reg = nullptr;
    out.value = 0;
    out.kind = packet_kind::notification;
    if (site_->is_wake(e))
    {
      wake_posted_ = false;
      return entry_kind::nothing;
    }
    if (site_->classify(e, remove_key, reg))
    {
      out.key = remove_key;
      out.events = events::remove;
      return entry_kind::packet;
    }
    if (!reg)
      return entry_kind::foreign;
    return poll_completed(reg, out) ? entry_kind::packet : entry_kind::nothing;
  }

  bool poll_completed(afd_registration* reg, packet& out)
  {
    site_->completed(*reg);
    reg->in_flight = false;
    --in_flight_;
    if (reg->end == fate::dropped)
    {
      site_->free_registration(reg);
      return false;
    }
    out.key = reg->key;
    if (reg->end == fate::removed)
    {
      out.events = events::remove; // rule 3: the last packet of the registration
      site_->free_registration(reg);
      return true;
    }
    const NTSTATUS status = reg->iosb.Status;
    const ULONG found =
        nt_success(status) && reg->info.number_of_handles != 0 ? reg->info.handles[0].events : 0;
    if ((found & afd_poll_local_close) || (!nt_success(status) && status != status_cancelled))
    {
      forget(reg); // rule 4: closed, and the registration went with it
      site_->free_registration(reg);
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

  // --- waits (mutex_ held) ---

  // A wait the engine is not called back from before it next needs to be.
  static bool waits_long(DWORD wait) noexcept { return wait > edge_sample_interval_ms; }

  // A completion dequeued by a thread that does not wait again (a look with no timeout)
  // leaves its poll to be submitted, or its condition to be sampled, by the next
  // before_wait. A thread already in a long wait would never make that call: it is woken,
  // as epoll wakes a waiter for a level condition another thread's wait left ready.
  void wake_a_long_wait()
  {
    if (long_waits_ == 0 || wake_posted_ || (rearm_.empty() && edge_watch_.empty()))
      return;
    wake_posted_ = true;
    site_->post_wake();
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

  std::mutex mutex_;
  const std::unique_ptr<afd_poll_site> site_; // destroyed after the registrations
  std::unordered_map<SOCKET, afd_registration*> table_;
  registration_list edge_watch_{&afd_registration::watched};
  registration_list rearm_{&afd_registration::rearming}; // completed, to be polled again
  std::size_t long_waits_ = 0; // threads between a long before_wait and its complete
  bool wake_posted_ = false;   // one wake in the port at a time
  std::vector<afd_registration*> sampled_;
  std::vector<afd_registration*> arming_;
  std::vector<WSAPOLLFD> poll_fds_;
  std::size_t in_flight_ = 0;
};

} // namespace

afd_engine::~afd_engine() = default;

DWORD wait_once(afd_engine& engine, HANDLE iocp, DWORD wait_ms, OVERLAPPED_ENTRY* entries,
                ULONG capacity, ULONG& received, packet* out, afd_engine::entry_kind* kinds)
{
  const DWORD wait = engine.before_wait(wait_ms);
  received = 0;
  const DWORD result =
      ::GetQueuedCompletionStatusEx(iocp, entries, capacity, &received, wait, FALSE)
          ? ERROR_SUCCESS
          : ::GetLastError();
  if (result != ERROR_SUCCESS)
    received = 0;
  engine.complete(entries, received, wait, out, kinds); // after a failure too: see complete
  return result;
}

std::unique_ptr<afd_engine> open_afd_engine(std::unique_ptr<afd_poll_site> site)
{
  return std::make_unique<afd_engine_impl>(std::move(site));
}

std::unique_ptr<afd_engine> open_afd_engine(HANDLE iocp, error_code& ec)
{
  auto site = open_port_site(iocp, ec);
  return site ? open_afd_engine(std::move(site)) : nullptr;
}

} // namespace win
} // namespace detail
} // namespace asio_notify
} // namespace boost
