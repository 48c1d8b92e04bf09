//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// When a socket state removed from the port may be freed (design.md, "REMOVE-synchronised
// teardown"): once no dequeue round that began before its `remove` packet was handled is
// still running. Such a round may hold an older packet for the same key: rule 3 orders
// dequeues, not the handling of packets that other threads dequeued.
#ifndef BOOST_ASIO_NOTIFY_SRC_STATE_RECLAIMER_HPP
#define BOOST_ASIO_NOTIFY_SRC_STATE_RECLAIMER_HPP

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

namespace boost {
namespace asio_notify {
namespace detail {

/* Epoch-based reclamation. Every dequeue, on every thread, begins and ends a round, so
   those two must not take a lock shared by all threads (they did: two lock round trips per
   wake-up on one mutex, the same for every io thread). A round is counted, with one atomic
   increment, in the slot of the epoch it began in; epochs alternate between two slots.

   The epoch advances from E to E+1 only when every round of E-1 has ended (its slot, which
   E+1 reuses, is empty). So while the epoch is E, only rounds of E-1 and E can be running,
   and an object retired in epoch R may be freed
   - at once when the epoch is R+2 or later;
   - when the epoch is R+1 and R's slot is empty (it holds only rounds of R then).
   Retiring is rare (a socket's close); it and the advancing take the mutex. A round that
   empties its slot while objects wait collects them, so nothing waits longer than the
   rounds that may still see it. */
template <class T>
class state_reclaimer
{
public:
  explicit state_reclaimer(std::function<void(T*)> free) : free_(std::move(free)) {}

  state_reclaimer(const state_reclaimer&) = delete;
  state_reclaimer& operator=(const state_reclaimer&) = delete;

  /// A dequeue round begins; returns what `end_round` takes.
  std::uint64_t begin_round()
  {
    for (;;)
    {
      const std::uint64_t epoch = epoch_.load();
      active_[epoch & 1].fetch_add(1);
      // Seen unchanged after the increment: an advance past `epoch` has to see this round.
      if (epoch_.load() == epoch)
        return epoch;
      end_round(epoch); // it moved on meanwhile: count the round in the new epoch
    }
  }

  /// The round that `begin_round` returned `round` for has ended.
  void end_round(std::uint64_t round)
  {
    if (active_[round & 1].fetch_sub(1) == 1 && waiting_.load() != 0)
      collect();
  }

  /// Free `object` once every round running now has ended (at once if none is running).
  void retire(T* object)
  {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      retired_.push_back({epoch_.load(), object});
      waiting_.store(retired_.size());
    }
    collect();
  }

  /// Objects retired and not yet freed (for tests).
  std::size_t waiting() const noexcept { return waiting_.load(); }

private:
  struct retired
  {
    std::uint64_t epoch; // when it was retired
    T* object;
  };

  bool slot_empty(std::uint64_t epoch) const noexcept { return active_[epoch & 1].load() == 0; }

  // Free what no running round can see, advancing the epoch while that frees more.
  void collect()
  {
    std::vector<T*> ready;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (;;)
      {
        const std::uint64_t epoch = epoch_.load();
        const bool previous_done = slot_empty(epoch - 1); // every round of epoch - 1 ended
        auto keep = retired_.begin();
        for (auto it = retired_.begin(); it != retired_.end(); ++it)
          if (it->epoch + 2 <= epoch || (it->epoch + 1 == epoch && previous_done))
            ready.push_back(it->object);
          else
            *keep++ = *it;
        retired_.erase(keep, retired_.end());
        waiting_.store(retired_.size());
        // Objects of this epoch wait for an advance, which needs epoch - 1's slot empty.
        if (retired_.empty() || !previous_done)
          break;
        epoch_.store(epoch + 1);
      }
    }
    for (T* object : ready)
      free_(object);
  }

  std::atomic<std::uint64_t> epoch_{2}; // from 2: `epoch - 1` of the first is a real slot
  std::atomic<std::size_t> active_[2] = {};
  std::atomic<std::size_t> waiting_{0}; // retired_.size(), read without the mutex
  std::mutex mutex_;
  std::vector<retired> retired_;
  std::function<void(T*)> free_;
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
