//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The adversarial port (adversary.hpp): a decorator over any backend's port::impl that
// produces what the contract allows and a cooperative backend never does. What each kind
// is and why the contract allows it: doc/port_contract.md, "The adversarial port".
// One idea in one file, over 500 lines: the decorator, its choices and counts, and the
// parsing of its options belong together.

#include "port_backend.hpp"

#include <boost/asio/error.hpp>
#include <boost/system/system_error.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <new>
#include <random>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace boost {
namespace asio_notify {

namespace {

using boost::system::error_code;

std::atomic<std::uint64_t> counts[adversity_kinds];

std::size_t index_of(adversity a) noexcept
{
  std::size_t i = 0;
  for (auto bits = detail::to_bits(a); bits > 1; bits >>= 1)
    ++i;
  return i;
}

adversity kind_at(std::size_t i) noexcept { return static_cast<adversity>(1u << i); }

[[noreturn]] void bad_spec(const std::string& what)
{
  throw boost::system::system_error(boost::asio::error::invalid_argument,
                                    std::string(adversary_variable) + ": " + what);
}

adversity parse_kinds(const std::string& text)
{
  if (text == "all")
    return adversity::all;
  adversity kinds = adversity::none;
  std::istringstream in(text);
  std::string name;
  while (std::getline(in, name, '+'))
  {
    std::size_t i = 0;
    while (i < adversity_kinds && name != to_string(kind_at(i)))
      ++i;
    if (i == adversity_kinds && name != "none")
      bad_spec("unknown adversity '" + name + "'");
    if (i < adversity_kinds)
      kinds |= kind_at(i);
  }
  return kinds;
}

std::uint64_t parse_seed(const std::string& text)
{
  std::size_t used = 0;
  std::uint64_t seed = 0;
  try
  {
    seed = std::stoull(text, &used);
  }
  catch (const std::exception&)
  {
    used = 0;
  }
  if (used == 0 || used != text.size())
    bad_spec("seed must be an unsigned integer, not '" + text + "'");
  return seed;
}

std::uint64_t random_seed()
{
  std::random_device device;
  return (std::uint64_t(device()) << 32) | device();
}

// Each port draws from its own generator: ports made in the same order make the same
// choices for the same calls.
std::uint64_t port_seed(std::uint64_t seed)
{
  static std::atomic<std::uint64_t> ports{0};
  return seed ^ (ports.fetch_add(1) * 0x9E3779B97F4A7C15ull);
}

/* The decorator. Packets it keeps back wait in `held_`, each for a number of dequeues; while
   any wait, one user packet of its own ("nudge") sits in the inner port, so a thread that
   waits on the port (or on its descriptor, edge-triggered, as the inline drivers do) comes
   back for them. The inner port is called outside the mutex when it may block. */
class adversarial_port final : public port::impl
{
public:
  adversarial_port(std::unique_ptr<port::impl, port::impl_deleter> inner, adversary_options o)
      : inner_(std::move(inner)), kinds_(o.kinds), random_(port_seed(o.seed))
  {
  }

  port_backend backend() const noexcept override { return inner_->backend(); }

  port::native_handle_type native_handle() const noexcept override
  {
    return inner_->native_handle();
  }

  void post(void* key, std::uint32_t value, error_code& ec) override
  {
    inner_->post(key, value, ec);
  }

  std::size_t process(boost::span<registration> regs, boost::span<packet> packets,
                      std::chrono::milliseconds timeout, error_code& ec) override
  {
    if (!regs.empty() && apply(regs, ec))
      return 0; // failed as a whole
    if (packets.empty())
      return 0;
    return dequeue(packets, timeout, ec);
  }

private:
  // Why a packet is kept back: what its delivery counts, if anything.
  enum class held_for
  {
    room,      // it did not fit the batch (or the batch was split): counts nothing
    duplicate, // a copy, delivered as well as the original
    staleness, // counts a stale packet only if its registration changed meanwhile
    remove     // a delayed REMOVE, counted when it was kept back
  };

  struct held_packet
  {
    packet p;
    int dequeues_left;     // delivered by the dequeue that finds it at zero
    std::uint64_t changes; // its key's change count when it was kept back
    held_for why;
  };

  struct key_state
  {
    std::uint64_t changes = 0; // enables and disables applied
  };

  // --- registrations ---

  // Applies `regs`; true when the call is made to fail as a whole after its entries (some,
  // at least one) took effect.
  bool apply(boost::span<registration> regs, error_code& ec)
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const bool fail = take(adversity::failed_call_took_effect, 16);
    const std::size_t applied = fail ? 1 + below(regs.size()) : regs.size();
    inner_->process(regs.first(applied), {}, std::chrono::milliseconds(0), ec);
    for (const registration& r : regs.first(applied))
      note_change(r);
    if (!fail || ec)
      return bool(ec);
    for (registration& r : regs.subspan(applied))
      r.result = boost::asio::error::no_buffer_space;
    ec = boost::asio::error::no_buffer_space;
    count(adversity::failed_call_took_effect);
    return true;
  }

  // Bookkeeping only: without memory for it a change goes unnoted, and a packet it made
  // stale is not counted as such, rather than a call that took effect failing.
  void note_change(const registration& r) noexcept
  {
    try
    {
      if (!r.result && r.operation != operation::remove)
        ++keys_[r.key].changes;
    }
    catch (const std::bad_alloc&)
    {
    }
  }

  std::uint64_t changes_of(void* key) const noexcept
  {
    const auto k = keys_.find(key);
    return k == keys_.end() ? 0 : k->second.changes;
  }

  // --- dequeues ---

  // Returns 0 only when a timed wait's time is up, or early (early_wakeup); an infinite
  // wait returns packets or an error, as every backend's does (port.hpp).
  std::size_t dequeue(boost::span<packet> out, std::chrono::milliseconds timeout, error_code& ec)
  {
    using clock = std::chrono::steady_clock;
    const bool forever = timeout == port::infinite;
    const clock::time_point deadline = clock::now() + (forever ? timeout.zero() : timeout);
    if (!forever && timeout.count() != 0 && wakes_early())
      return 0;
    for (;;)
    {
      const std::size_t n = dequeue_once(out, timeout, ec);
      if (n != 0 || ec || timeout.count() == 0)
        return n;
      if (!forever)
      {
        const clock::duration left = deadline - clock::now();
        if (left <= left.zero())
          return 0;
        timeout = std::chrono::ceil<std::chrono::milliseconds>(left);
      }
    }
  }

  bool wakes_early()
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!take(adversity::early_wakeup, 4))
      return false;
    count(adversity::early_wakeup);
    return true;
  }

  // A dequeue's part of taken_in_flight_, given back once it has admitted what it took (a
  // later reservation then sees those packets in held_ itself).
  struct in_flight_share
  {
    std::atomic<std::size_t>& in_flight;
    std::size_t taken;
    ~in_flight_share() { in_flight.fetch_sub(taken, std::memory_order_relaxed); }
  };

  // One dequeue of the inner port. Everything that holds the packets it takes is allocated
  // before it, so that no packet is lost to a failed allocation after it.
  std::size_t dequeue_once(boost::span<packet> out, std::chrono::milliseconds timeout,
                           error_code& ec)
  {
    std::vector<packet> fresh(out.size());
    std::vector<packet> more(out.size());
    std::vector<packet> ready;
    // The inner port gives at most out.size() and a top-up's worth (top_up), each packet
    // adding at most two held ones (a copy and itself); `ready` takes what was held, what was
    // taken and the copies, and what does not fit it goes back to `held_`.
    const std::size_t taken = out.size() + top_up_limit(out.size());
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ready.reserve(held_.size() + 2 * taken);
      // Room also for the dequeues of other threads between their reservation and their
      // admission: any of them may admit after this one.
      held_.reserve(2 * held_.size() + 4 * (taken + taken_in_flight_));
      taken_in_flight_ += taken;
      if (!held_.empty())
        timeout = std::chrono::milliseconds(0); // some may be due now
    }
    const in_flight_share share{taken_in_flight_, taken};
    fresh.resize(inner_->process({}, fresh, timeout, ec));
    std::lock_guard<std::mutex> lock(mutex_);
    take_due(ready);
    for (const packet& p : fresh)
      admit(p, ready);
    const bool exhausted = top_up(fresh.size() < out.size(), out.size(), more, ready, ec);
    const std::size_t n = deliver(ready, out, exhausted);
    if (!held_.empty() && !nudge_pending_)
      nudge(ec);
    return n;
  }

  /* A batch shorter than asked is read as "nothing more is ready" by callers that wait for
     the port's descriptor, edge-triggered (the inline drivers; port_epoll.cpp promises it).
     So while the inner port may hold more (its last batch was full) and packets were kept
     back, more is taken from it; returns whether it is exhausted. Kept-back packets then
     come with a nudge, which wakes such a caller only while the inner port holds nothing. */
  bool top_up(bool exhausted, std::size_t wanted, std::vector<packet>& more,
              std::vector<packet>& ready, error_code& ec)
  {
    std::size_t taken = 0;
    while (!exhausted && ready.size() < wanted && taken < top_up_limit(wanted) && !ec)
    {
      more.resize(std::min(wanted - ready.size(), top_up_limit(wanted) - taken));
      const std::size_t asked = more.size();
      more.resize(inner_->process({}, more, std::chrono::milliseconds(0), ec));
      exhausted = more.size() < asked;
      taken += more.size();
      for (const packet& p : more)
        admit(p, ready);
    }
    return exhausted;
  }

  // Packets kept back by choice (copies, would-be stale ones) are at most max_kept_back at a
  // time, so a top-up ends: past that, every packet it takes is ready. Removes it loses are
  // bounded by the limit itself.
  static constexpr std::size_t max_kept_back = 64;
  static std::size_t top_up_limit(std::size_t wanted) { return wanted + max_kept_back; }
  bool may_keep_back() const noexcept { return held_.size() < max_kept_back; }

  // Held packets whose wait is over, in the order they were kept back.
  void take_due(std::vector<packet>& ready)
  {
    for (auto it = held_.begin(); it != held_.end();)
      if (it->dequeues_left-- <= 0)
      {
        release(*it, ready);
        it = held_.erase(it);
      }
      else
        ++it;
  }

  // Counts what the delivery of `h` really is: a copy, or a packet its registration's change
  // has made stale since it was kept back.
  void release(const held_packet& h, std::vector<packet>& ready)
  {
    if (h.why == held_for::staleness && changes_of(h.p.key) != h.changes)
      count(adversity::stale_after_change);
    if (h.why == held_for::duplicate)
      count(adversity::duplicate);
    ready.push_back(h.p);
  }

  // One packet from the inner port: delivered now, kept back, duplicated or dropped.
  void admit(packet p, std::vector<packet>& ready)
  {
    if (p.kind == packet_kind::user)
    {
      if (p.key == &nudge_key_)
        nudge_pending_ = false;
      else
        ready.push_back(p); // never kept back on purpose: user packets keep their order
      return;
    }
    if (has_any(p.events, events::remove))
      return admit_remove(p, ready);
    if (has_all(p.events, events::error | events::out) && take(adversity::error_without_out, 2))
    {
      p.events = p.events & ~events::out;
      count(adversity::error_without_out);
    }
    const std::uint64_t changes = changes_of(p.key);
    if (may_keep_back() && take(adversity::duplicate, 8))
      held_.push_back({p, 1 + int(below(4)), changes, held_for::duplicate});
    // Held up to 16 dequeues: long enough for its registration to change meanwhile.
    if (may_keep_back() && take(adversity::stale_after_change, 8))
      held_.push_back({p, 1 + int(below(16)), changes, held_for::staleness});
    else
      ready.push_back(p);
  }

  // A `remove` packet stays its key's last (rule 3): whatever is held for the key goes first.
  void admit_remove(const packet& p, std::vector<packet>& ready)
  {
    flush_key(p.key, ready);
    if (take(adversity::lost_remove, 4))
    {
      count(adversity::lost_remove);
      keys_.erase(p.key);
      return;
    }
    if (take(adversity::delayed_remove, 2))
    {
      count(adversity::delayed_remove);
      held_.push_back({p, 2 + int(below(15)), 0, held_for::remove});
      return;
    }
    keys_.erase(p.key);
    ready.push_back(p);
  }

  void flush_key(void* key, std::vector<packet>& ready)
  {
    for (auto it = held_.begin(); it != held_.end();)
      if (it->p.key == key && !has_any(it->p.events, events::remove))
      {
        release(*it, ready);
        it = held_.erase(it);
      }
      else
        ++it;
  }

  // Up to `out.size()` of `ready` go out; a split batch (only once the inner port is
  // exhausted: see top_up), or what does not fit, is due at the next dequeue.
  std::size_t deliver(std::vector<packet>& ready, boost::span<packet> out, bool exhausted)
  {
    std::size_t n = std::min(ready.size(), out.size());
    if (n > 1 && exhausted && take(adversity::split_batch, 8))
    {
      n = 1 + below(n - 1);
      count(adversity::split_batch);
    }
    std::copy_n(ready.begin(), n, out.begin());
    for (std::size_t i = n; i < ready.size(); ++i)
    {
      const packet& p = ready[i];
      if (has_any(p.events, events::remove))
        keys_.erase(p.key); // delivered with the next dequeue: its key's packets are all out
      held_.push_back({p, 0, 0, held_for::room});
    }
    return n;
  }

  void nudge(error_code& ec)
  {
    error_code post_ec;
    inner_->post(&nudge_key_, 0, post_ec);
    if (post_ec)
      ec = post_ec; // the caller sees the port fail rather than wait for ever
    else
      nudge_pending_ = true;
  }

  // --- choices ---

  // Whether to produce `a` now: always until it has occurred once in this process (so that
  // every run shows each kind it enables), then once in `odds`.
  bool take(adversity a, std::uint32_t odds)
  {
    if (!has_any(kinds_, a))
      return false;
    return counts[index_of(a)].load(std::memory_order_relaxed) == 0 || below(odds) == 0;
  }

  std::size_t below(std::size_t n) { return n == 0 ? 0 : std::size_t(random_() % n); }

  static void count(adversity a) noexcept { count_adversity(a); }

  std::unique_ptr<port::impl, port::impl_deleter> inner_;
  const adversity kinds_;
  std::mutex mutex_; // guards everything below
  std::mt19937_64 random_;
  std::vector<held_packet> held_; // reserved before each dequeue
  // What the dequeues between their reservation and their admission may take: each adds
  // at most 4 held packets for each (their reservations keep room for all of them).
  std::atomic<std::size_t> taken_in_flight_{0};
  std::unordered_map<void*, key_state> keys_;
  bool nudge_pending_ = false;
  char nudge_key_ = 0;
};

} // namespace

const char* to_string(adversity a) noexcept
{
  switch (a)
  {
  case adversity::stale_after_change:
    return "stale_after_change";
  case adversity::duplicate:
    return "duplicate";
  case adversity::split_batch:
    return "split_batch";
  case adversity::early_wakeup:
    return "early_wakeup";
  case adversity::delayed_remove:
    return "delayed_remove";
  case adversity::lost_remove:
    return "lost_remove";
  case adversity::error_without_out:
    return "error_without_out";
  case adversity::failed_call_took_effect:
    return "failed_call_took_effect";
  case adversity::entry_error_family:
    return "entry_error_family";
  default:
    return "none";
  }
}

adversary_options parse_adversary_options(const std::string& spec)
{
  adversary_options o;
  bool seeded = false;
  std::istringstream in(spec);
  std::string item;
  while (std::getline(in, item, ','))
  {
    if (item.rfind("seed=", 0) == 0)
    {
      o.seed = parse_seed(item.substr(5));
      seeded = true;
    }
    else if (!item.empty())
      o.kinds |= parse_kinds(item);
  }
  if (!seeded)
    o.seed = random_seed();
  return o;
}

adversary_options adversary_from_environment()
{
  static const adversary_options from_environment = [] {
    const char* spec = std::getenv(adversary_variable);
    return spec ? parse_adversary_options(spec) : adversary_options();
  }();
  return from_environment;
}

adversity_counts adversity_statistics() noexcept
{
  adversity_counts c{};
  for (std::size_t i = 0; i < adversity_kinds; ++i)
    c[i] = counts[i].load(std::memory_order_relaxed);
  return c;
}

void count_adversity(adversity a) noexcept
{
  if (a != adversity::none && (detail::to_bits(a) & (detail::to_bits(a) - 1)) == 0 &&
      index_of(a) < adversity_kinds)
    counts[index_of(a)].fetch_add(1, std::memory_order_relaxed);
}

namespace detail {

std::unique_ptr<port::impl, port::impl_deleter>
open_adversarial_port_impl(port_backend b, const adversary_options& a, error_code& ec)
{
  auto inner = open_port_impl(b, ec);
  if (!inner || a.kinds == adversity::none)
    return inner;
  return std::unique_ptr<port::impl, port::impl_deleter>(new adversarial_port(std::move(inner), a));
}

} // namespace detail
} // namespace asio_notify
} // namespace boost
