//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The Linux backend of the port: the socket state notification contract emulated on
// epoll, with an eventfd that wakes dequeuers for packets the kernel does not produce
// (user packets and the `remove` packet that ends every removed registration).
//
// How the rules map onto epoll:
// - level / edge / one-shot are EPOLL(ET|ONESHOT); re-enabling is EPOLL_CTL_MOD. One-shot
//   level is persistent EPOLLET in the kernel and one-shot here, so that a re-enable the
//   caller's `unready` hint covers needs no system call (doc/port_contract.md, "Hints").
// - disable is EPOLL_CTL_DEL while the registration is kept in `entries`: epoll reports
//   EPOLLHUP and EPOLLERR even for an empty event mask, so DEL is the only silence.
// - every registration has a generation carried in epoll_data; events that were in flight
//   when a registration was removed or replaced fail the generation check and are dropped
//   under the same lock that queues the `remove` packet, so nothing follows it.
// - "one port per socket" is enforced by a process-wide table (socket_owners.hpp) that
//   knows sockets by identity (device and inode), so a closed and reused descriptor is not
//   mistaken for the socket it replaced.

#include "eventfd_queue.hpp"
#include "fd_table.hpp"
#include "../port_backend.hpp"
#include "socket_identity_posix.hpp"
#include "../socket_owners.hpp"

#include <boost/asio/error.hpp>

#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <mutex>
#include <memory>

namespace boost {
namespace asio_notify {

using boost::system::error_code;

namespace {

error_code last_error() { return error_code(errno, boost::system::system_category()); }

bool is_datagram_socket(int fd)
{
  int type = 0;
  socklen_t len = sizeof(type);
  return ::getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) == 0 && type == SOCK_DGRAM;
}

// Rule 1. The ports keep no identity of their own (an idle connection pays for one): `owns`
// tells them whether a registration of theirs is still their socket's.
using detail::identify_socket;
using detail::socket_identity;
using socket_owners = detail::socket_owners<int, socket_identity, detail::fd_table>;

constexpr std::uint64_t wakeup_tag = ~std::uint64_t(0);

std::uint64_t make_tag(int fd, std::uint32_t generation)
{
  return (std::uint64_t(generation) << 32) | std::uint32_t(fd);
}

// One-shot level registrations: armed edge-triggered and persistent in the kernel, their
// one-shot kept in the entry (`enabled`). An enable with epoll_ctl makes the kernel report
// what holds at once (ep_modify polls the socket), which is level triggering at arming; a
// hinted re-enable asks nothing, and the edges that come after the hint report the rest.
bool oneshot_over_edge(trigger triggers)
{
  return has_all(triggers, trigger::level | trigger::oneshot);
}

std::uint32_t epoll_mask(events filter, trigger triggers)
{
  std::uint32_t mask = 0;
  if (has_any(filter, events::in))
    mask |= EPOLLIN;
  if (has_any(filter, events::out))
    mask |= EPOLLOUT;
  if (has_any(filter, events::hangup))
    mask |= EPOLLRDHUP;
  // An empty filter waits for errors only. It stays level triggered when asked to be, so a
  // pending error is reported again after every dequeue; the unwanted EPOLLHUP that epoll
  // reports regardless of the mask is parked by translate().
  if (oneshot_over_edge(triggers))
    return mask | EPOLLET;
  if (has_any(triggers, trigger::edge))
    mask |= EPOLLET;
  if (has_any(triggers, trigger::oneshot))
    mask |= EPOLLONESHOT;
  return mask;
}

} // namespace

class epoll_port final : public port::impl
{
public:
  // 16 bytes: an idle connection pays for one. Value-initialise it (`entry{}`): the
  // bit-fields have no initialisers in C++17.
  struct entry
  {
    void* key = nullptr;
    std::uint32_t generation = 0;
    events filter = events::none;
    trigger triggers = trigger::none;
    bool datagram : 1; // rule 10: never report hangup
    bool in_epoll : 1; // false after disable (EPOLL_CTL_DEL)
    bool enabled : 1;  // false after disable, or after a one-shot packet
    bool parked : 1;   // level registration re-armed edge-triggered; see translate
    bool occupied : 1; // the slot holds a registration
    bool missed : 1;   // oneshot_over_edge: the kernel reported it while disabled

    bool used() const noexcept { return occupied; }
  };
  static_assert(sizeof(void*) != 8 || sizeof(entry) == 16, "an idle connection pays for it");

  int epoll_fd = -1;
  std::mutex mutex;
  // Counts the kernel writes made under `mutex` (ctl): apply_locking's re-arm, whose write
  // is not, compares it around its own to learn whether one of them may have come between.
  std::atomic<std::uint64_t> locked_kernel_writes{0};
  detail::fd_table<entry> entries;
  std::size_t registrations = 0;
  detail::eventfd_queue queued; // user and remove packets
  std::uint32_t next_generation = 1;

  ~epoll_port() override
  {
    entries.for_each([this](int fd, entry&) { socket_owners::instance().release(fd, this); });
    if (epoll_fd >= 0)
      ::close(epoll_fd);
  }
  port_backend backend() const noexcept override { return port_backend::epoll; }

  port::native_handle_type native_handle() const noexcept override { return epoll_fd; }

  std::size_t process(boost::span<registration> regs, boost::span<packet> packets,
                      std::chrono::milliseconds timeout, error_code& ec) override
  {
    for (registration& r : regs)
    {
      r.result = validate(r);
      if (!r.result)
        r.result = apply_locking(r);
    }
    if (packets.empty())
      return 0;
    return dequeue(packets.data(), packets.size(), timeout, ec);
  }

  void post(void* key, std::uint32_t value, error_code&) override
  {
    packet p;
    p.key = key;
    p.value = value;
    p.kind = packet_kind::user;
    std::lock_guard<std::mutex> lock(mutex);
    queue(p);
  }

  // Applies `r` under the lock, but for the hot path of a one-shot registration: re-enabling
  // it after its packet, filter and triggers unchanged, whose epoll_ctl runs outside the
  // lock, so a thread dequeuing meanwhile does not sleep on it (doc/performance.md,
  // "Counting system calls").
  error_code apply_locking(const registration& r)
  {
    std::unique_lock<std::mutex> lock(mutex);
    entry* e = entries.find(r.socket);
    if (!is_oneshot_rearm(r, e))
      return apply(r);
    const entry before = *e;
    e->enabled = true; // before the kernel re-arms it, so that translate keeps its first event
    if (is_quiet_rearm(r, before))
      return {}; // armed in the kernel all along: the edges after the hint are reported
    e->parked = false;
    e->missed = false;
    epoll_event ev = kernel_event(r.socket, *e);
    const std::uint64_t writes_before = locked_kernel_writes.load();
    lock.unlock();
    const bool armed = ::epoll_ctl(epoll_fd, EPOLL_CTL_MOD, r.socket, &ev) == 0;
    if (armed && locked_kernel_writes.load() == writes_before)
      return {};
    lock.lock();
    if (armed)
    {
      // A write under the lock came between: the kernel may hold this one, made for a
      // registration that has since been replaced or changed. Write what the entry says now.
      resync(r.socket);
      return {};
    }
    e = entries.find(r.socket);
    if (e && e->generation == before.generation && locked_kernel_writes.load() == writes_before)
      *e = before; // nothing changed it since: undone, for apply to find out why it failed
    return apply(r);
  }

  static bool is_oneshot_rearm(const registration& r, const entry* e)
  {
    return r.operation == operation::enable && has_any(r.triggers, trigger::oneshot) && e &&
           e->key == r.key && e->in_epoll && !e->enabled && e->filter == r.filter &&
           e->triggers == r.triggers;
  }

  // A one-shot re-arm (is_oneshot_rearm) the caller's hint covers: none of the filter's
  // conditions held after the last packet, and the kernel reported nothing since, so
  // whatever holds now came with an edge that is still to be dequeued.
  static bool is_quiet_rearm(const registration& r, const entry& e)
  {
    return oneshot_over_edge(e.triggers) && !e.missed && r.filter != events::none &&
           has_all(r.unready, r.filter);
  }

  // --- registration (called with `mutex` held) ---

  // Every write of the kernel's state for a registration made under the lock.
  int ctl(int op, int fd, epoll_event* ev)
  {
    locked_kernel_writes.fetch_add(1);
    return ::epoll_ctl(epoll_fd, op, fd, ev);
  }

  // What the kernel holds for `e` while it is in epoll: armed as asked, or parked.
  static epoll_event kernel_event(int fd, const entry& e)
  {
    epoll_event ev{};
    ev.events = epoll_mask(e.filter, e.triggers);
    if (e.parked)
      ev.events = (ev.events & ~std::uint32_t(EPOLLONESHOT)) | EPOLLET;
    ev.data.u64 = make_tag(fd, e.generation);
    return ev;
  }

  // Writes the entry's state to the kernel again, flags unchanged (a one-shot that has had
  // its packet is re-armed, and translate drops what it reports).
  void resync(int fd)
  {
    entry* e = entries.find(fd);
    if (!e || !e->in_epoll)
      return; // removed or disabled: out of epoll, where a write made outside the lock fails
    epoll_event ev = kernel_event(fd, *e);
    ctl(EPOLL_CTL_MOD, fd, &ev);
  }

  error_code apply(const registration& r)
  {
    switch (r.operation)
    {
    case operation::enable:
      return enable(r);
    case operation::disable:
      return disable(r.socket);
    default:
      return remove(r.socket);
    }
  }

  error_code enable(const registration& r)
  {
    entry* e = entries.find(r.socket);
    if (e && e->key == r.key && e->in_epoll)
    {
      // The hot path: re-arming or changing the filter of a live registration.
      error_code ec = arm(r.socket, *e, r.filter, r.triggers, EPOLL_CTL_MOD);
      if (ec != boost::system::errc::no_such_file_or_directory) // epoll_ctl's ENOENT
        return ec;
      // ENOENT: the socket was closed and the descriptor reused; register it afresh.
    }
    return enable_slow(r);
  }

  error_code enable_slow(const registration& r)
  {
    socket_identity id;
    if (error_code ec = identify_socket(r.socket, id))
      return ec;
    entry* old = entries.find(r.socket);
    if (old && !socket_owners::instance().owns(r.socket, this, id))
    {
      forget(r.socket, *old); // rule 4: the old socket was closed, its registration went with it
      old = nullptr;
    }
    if (old)
    {
      if (old->key != r.key)
        return boost::asio::error::invalid_argument; // rule 2
      return arm(r.socket, *old, r.filter, r.triggers,
                 old->in_epoll ? EPOLL_CTL_MOD : EPOLL_CTL_ADD);
    }
    // Everything that allocates comes before epoll_ctl(ADD): a throw leaves nothing behind.
    // The slot; room for the REMOVE packet the registration will queue (remove() then never
    // allocates, and a close cannot fail for want of memory); the owner table's slot.
    entry& slot = entries.slot(r.socket);
    reserve_queue(1 + user_packet_room);
    if (error_code ec = socket_owners::instance().claim(r.socket, id, this))
      return ec;
    entry e{};
    e.key = r.key;
    e.generation = next_generation++;
    e.datagram = is_datagram_socket(r.socket);
    e.occupied = true;
    if (error_code ec = arm(r.socket, e, r.filter, r.triggers, EPOLL_CTL_ADD))
    {
      socket_owners::instance().release(r.socket, this);
      return ec;
    }
    slot = e;
    ++registrations;
    return {};
  }

  error_code arm(int fd, entry& e, events filter, trigger triggers, int op)
  {
    epoll_event ev{};
    ev.events = epoll_mask(filter, triggers);
    ev.data.u64 = make_tag(fd, e.generation);
    if (ctl(op, fd, &ev) != 0)
    {
      const int err = errno;
      // A descriptor already in the set (or missing from it) only means our view lagged.
      if (err == EEXIST && op == EPOLL_CTL_ADD)
        return arm(fd, e, filter, triggers, EPOLL_CTL_MOD);
      return error_code(err, boost::system::system_category());
    }
    e.filter = filter;
    e.triggers = triggers;
    e.in_epoll = true;
    e.enabled = true;
    e.parked = false;
    e.missed = false;
    return {};
  }

  // Re-arms `e` edge-triggered and persistent: the kernel reports it again only when the
  // socket's state changes (re-arming a one-shot would report what holds at once).
  void park(int fd, entry& e)
  {
    entry parked = e;
    parked.parked = true;
    epoll_event ev = kernel_event(fd, parked);
    if (ctl(EPOLL_CTL_MOD, fd, &ev) == 0)
      e.parked = true;
  }

  // Finds the live registration of `fd`, dropping one whose socket was closed.
  error_code find_live(int fd, entry*& e)
  {
    e = entries.find(fd);
    if (!e)
      return boost::asio::error::not_found;
    socket_identity id;
    error_code ec = identify_socket(fd, id);
    if (!ec && !socket_owners::instance().owns(fd, this, id))
      ec = boost::asio::error::not_found;
    if (ec)
      forget(fd, *e);
    return ec;
  }

  error_code disable(int fd)
  {
    entry* e;
    if (error_code ec = find_live(fd, e))
      return ec;
    if (e->in_epoll && ctl(EPOLL_CTL_DEL, fd, nullptr) != 0)
      return last_error();
    e->in_epoll = false;
    e->enabled = false;
    return {};
  }

  error_code remove(int fd)
  {
    entry* e;
    if (error_code ec = find_live(fd, e))
      return ec;
    if (e->in_epoll && ctl(EPOLL_CTL_DEL, fd, nullptr) != 0)
      return last_error();
    packet p;
    p.key = e->key;
    p.events = events::remove;
    forget(fd, *e);
    queue(p);
    return {};
  }

  void forget(int fd, entry& e)
  {
    socket_owners::instance().release(fd, this);
    e = entry{};
    --registrations;
  }

  // --- packets produced here rather than by the kernel (called with `mutex` held) ---

  // Room kept for user packets (a driver's wake-up or exit, one at a time): posting them does
  // not allocate unless more than this many wait at once.
  static constexpr std::size_t user_packet_room = 4;

  // Room in `queued` for `more` packets besides one REMOVE per registration (throws
  // std::bad_alloc, having changed nothing).
  void reserve_queue(std::size_t more) { queued.reserve(queued.size() + registrations + more); }

  // Never allocates for a REMOVE packet (reserve_queue made its room at registration).
  void queue(const packet& p)
  {
    if (p.kind == packet_kind::user)
      reserve_queue(1);
    queued.push(p);
  }

  // Turns one epoll event into a packet; false when it must be dropped.
  bool translate(const epoll_event& ev, packet& out)
  {
    const int fd = static_cast<int>(ev.data.u64 & 0xffffffffu);
    entry* found_entry = entries.find(fd);
    if (!found_entry || found_entry->generation != (ev.data.u64 >> 32))
      return false; // removed or replaced since the kernel queued it
    entry& e = *found_entry;
    if (!e.enabled)
    {
      // Disabled since the kernel queued it, or a one-shot over edge after its packet: the
      // next re-enable asks the kernel what holds.
      if (e.in_epoll && oneshot_over_edge(e.triggers))
        e.missed = true;
      return false;
    }
    events found = events::none;
    if ((ev.events & EPOLLIN) && has_any(e.filter, events::in))
      found |= events::in;
    if ((ev.events & EPOLLOUT) && has_any(e.filter, events::out))
      found |= events::out;
    if ((ev.events & (EPOLLRDHUP | EPOLLHUP)) && has_any(e.filter, events::hangup) && !e.datagram)
      found |= events::hangup;
    if (ev.events & EPOLLERR)
      found |= events::error;
    const bool oneshot = has_any(e.triggers, trigger::oneshot);
    if (found == events::none)
    {
      // Only what epoll reports whatever the mask holds (EPOLLHUP, or a datagram socket's
      // hang-up). Level-triggered or re-armed one-shot, the kernel would report it again
      // at once: dequeue would spin and the port's descriptor would stay readable. Park
      // the registration until the socket's state changes.
      const std::uint32_t kernel = epoll_mask(e.filter, e.triggers);
      if (!e.parked && ((kernel & EPOLLONESHOT) || !(kernel & EPOLLET)))
        park(fd, e);
      return false;
    }
    // Back to level: what still holds is reported again. (A parked one-shot stays parked;
    // after this packet it is disabled, and whatever the kernel reports is dropped.)
    if (e.parked && !oneshot)
      arm(fd, e, e.filter, e.triggers, EPOLL_CTL_MOD);
    if (oneshot)
      e.enabled = false; // rule 7; EPOLLONESHOT disarmed it in the kernel, if it has it
    out.key = e.key;
    out.events = found;
    out.value = 0;
    out.kind = packet_kind::notification;
    return true;
  }

  // --- dequeue ---

  std::size_t dequeue(packet* out, std::size_t capacity, std::chrono::milliseconds timeout,
                      error_code& ec)
  {
    using clock = std::chrono::steady_clock;
    const bool forever = timeout == port::infinite;
    const bool poll_only = !forever && timeout.count() <= 0;
    const clock::time_point deadline =
        forever || poll_only ? clock::time_point::max() : clock::now() + timeout;
    constexpr std::size_t max_batch = 128;
    epoll_event evs[max_batch];
    std::size_t n = 0;
    std::size_t dropped = 0;
    for (;;)
    {
      if (queued.maybe_waiting())
      {
        std::lock_guard<std::mutex> lock(mutex);
        n += queued.take(out + n, capacity - n);
      }
      if (n == capacity)
        return n;
      const int wait_ms = n != 0 || poll_only ? 0 : forever ? -1 : remaining_ms(deadline);
      const int max = static_cast<int>(std::min(capacity - n, max_batch));
      const int got = ::epoll_wait(epoll_fd, evs, max, wait_ms);
      if (got < 0)
      {
        if (errno == EINTR)
          continue;
        ec = last_error();
        return n;
      }
      const std::size_t before = n;
      std::size_t budget;
      {
        std::lock_guard<std::mutex> lock(mutex);
        bool wakeup = false;
        std::size_t translated = 0;
        for (int i = 0; i < got; ++i)
        {
          if (evs[i].data.u64 == wakeup_tag)
            wakeup = true;
          else if (translate(evs[i], out[n]))
          {
            ++n;
            ++translated;
          }
        }
        // The kernel's events that became no packet (the queued packets taken below are
        // not the kernel's: counting them would make this wrap around).
        dropped += static_cast<std::size_t>(got) - translated - (wakeup ? 1 : 0);
        if (wakeup) // after the kernel's events, which were given room for
          n += queued.take(out + n, capacity - n);
        // Each registration drops at most one event before it is parked, disarmed or out
        // of epoll, and a one-shot over edge one more while disabled (it comes back only
        // with a new edge, which wakes the port's descriptor again); a batch's worth more
        // are events of sockets removed while this thread waited for the lock (gone from
        // epoll, they do not come back). Only a closed descriptor's stale events can come
        // back beyond that.
        budget = 2 * registrations + static_cast<std::size_t>(max) + 1;
      }
      // A poll that does not wait returns fewer packets than asked only when nothing more
      // was ready (the inline driver relies on it): when epoll filled the batch, or
      // dropped events (stale, parked, disabled) took the place of ready ones, poll again.
      const bool maybe_more = got == max || (got > 0 && n == before);
      if (wait_ms == 0 && n < capacity && maybe_more && dropped <= budget)
        continue;
      if (n != 0 || wait_ms == 0 || (got == 0 && !forever))
        return n;
      if (!forever && clock::now() >= deadline)
        return n;
      // Everything the kernel reported was stale; wait again for the time that is left.
    }
  }

  static int remaining_ms(std::chrono::steady_clock::time_point deadline)
  {
    const auto left =
        std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    return static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, 0x7fffffff));
  }
};

namespace detail {

std::unique_ptr<port::impl, port::impl_deleter> open_port_impl(port_backend b, error_code& ec)
{
  if (!is_supported(b))
  {
    ec = boost::asio::error::operation_not_supported; // psn and afd are Windows'
    return nullptr;
  }
  std::unique_ptr<epoll_port, port::impl_deleter> p(new epoll_port);
  p->reserve_queue(epoll_port::user_packet_room);
  p->epoll_fd = ::epoll_create1(EPOLL_CLOEXEC);
  if (p->epoll_fd < 0)
  {
    ec = last_error();
    return nullptr;
  }
  if (!p->queued.open())
  {
    ec = last_error();
    return nullptr;
  }
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.u64 = wakeup_tag;
  if (::epoll_ctl(p->epoll_fd, EPOLL_CTL_ADD, p->queued.fd(), &ev) != 0)
  {
    ec = last_error();
    return nullptr;
  }
  ec = {};
  return std::unique_ptr<port::impl, port::impl_deleter>(p.release());
}

} // namespace detail

bool is_supported() noexcept { return true; }

bool is_supported(port_backend b) noexcept
{
  return b == port_backend::automatic || b == port_backend::epoll;
}

} // namespace asio_notify
} // namespace boost
