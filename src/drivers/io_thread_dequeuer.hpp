//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The thread driver's io threads looking into the port themselves once they have done
// their share of a batch. Why: doc/design.md, "thread (the Windows default)".
#ifndef BOOST_ASIO_NOTIFY_SRC_DRIVERS_IO_THREAD_DEQUEUER_HPP
#define BOOST_ASIO_NOTIFY_SRC_DRIVERS_IO_THREAD_DEQUEUER_HPP

#include "shared_batch.hpp"

#include <boost/asio/defer.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <vector>

namespace boost {
namespace asio_notify {
namespace detail {

/// The io threads' own dequeues: each a look into the port without waiting, deferred behind
/// the handlers an io thread has queued; one io thread looks at a time, and looks that keep
/// finding nothing become rarer. `Reactor` is driven_reactor but in a test.
template <class Reactor>
class io_thread_dequeuer final : public batch_done_hook
{
public:
  /// `exit_key`: the reactor threads' exit packet, passed on to them when seen here;
  /// `lease` (may be null): the port the reactor threads lend, given back by a look that
  /// finds nothing.
  io_thread_dequeuer(port& p, Reactor& reactor, std::size_t batch_size,
                     boost::asio::any_io_executor context_executor, void* exit_key,
                     port_lease* lease = nullptr)
      : port_(p), reactor_(reactor),
        batch_size_(batch_size), target_{batch_site::this_thread, std::move(context_executor),
                                         nullptr, this},
        exit_key_(exit_key), lease_(lease)
  {
  }

  /// No look from now on (the driver is stopping).
  void stop() noexcept { stopped_.store(true, std::memory_order_release); }

  /// An io thread has done its share of a batch: look into the port once it has run what
  /// it queued, unless another io thread is about to, or recent looks found nothing while
  /// the port is not lent.
  void batch_done() noexcept override
  {
    int skip = lent() ? 0 : batches_to_skip_.load(std::memory_order_relaxed);
    while (skip > 0 &&
           !batches_to_skip_.compare_exchange_weak(skip, skip - 1, std::memory_order_relaxed))
    {
    }
    if (skip > 0 || looking_.exchange(true, std::memory_order_acq_rel))
      return;
    if (stopped_.load(std::memory_order_acquire))
      return give_back();
    try
    {
      boost::asio::defer(target_.executor, [this] { look(); });
    }
    catch (...)
    {
      // A look is only a shortcut: the reactor threads see the port all the same. (An
      // executor out of memory, or one refusing otherwise: nothing may leave here, which
      // runs as a thread leaves its share, a throwing handler's unwinding included.)
      give_back();
    }
  }

private:
  bool lent() const noexcept { return lease_ && lease_->held(); }

  // No look is deferred or running from here: the port goes back to the reactor threads.
  void give_back() noexcept
  {
    looking_.store(false, std::memory_order_release);
    if (lease_)
      lease_->give_back();
  }

  void look()
  {
    if (stopped_.load(std::memory_order_acquire))
      return give_back();
    thread_local std::vector<packet> buffer;
    thread_local std::vector<packet> io;
    boost::system::error_code ec;
    std::size_t n = 0;
    try
    {
      // Room for a whole batch before the dequeue: what it takes cannot be lost after it.
      buffer.resize(batch_size_);
      io.reserve(batch_size_);
      n = port_.dequeue(buffer, std::chrono::milliseconds(0), ec);
    }
    catch (...)
    {
      give_back(); // the next batch may look again
      throw;
    }
    reactor_counters::add(reactor_.counters.io_thread_looks);
    reactor_.counters.dequeued(n);
    // A single miss is no sign: a reactor thread may have taken what this look was for.
    misses_ = n == 0 ? std::min(misses_ + 1, 7) : 0; // only the looking thread writes it
    batches_to_skip_.store(misses_ < 2 ? 0 : (1 << (misses_ - 1)) - 1, std::memory_order_relaxed);
    looking_.store(false, std::memory_order_release); // its batch may look again
    const bool exit_seen = n != 0 && partition_dequeued(reactor_, buffer.data(), n, exit_key_, io);
    if (lease_) // only a look that found I/O has a batch after it, and looks again
      lease_->looked(n == 0 ? 0 : io.size());
    if (n == 0)
      return;
    if (exit_seen)
      post_exit(port_, exit_key_); // the reactor threads' exit: theirs to see
    perform_dequeued(reactor_, io, target_);
  }

  port& port_;
  Reactor& reactor_;
  const std::size_t batch_size_;
  const batch_target target_; // performed in the looking thread
  void* const exit_key_;
  port_lease* const lease_;
  std::atomic<bool> stopped_{false};
  std::atomic<bool> looking_{false};    // a look into the port is deferred or running
  std::atomic<int> batches_to_skip_{0}; // before the next look, after looks that missed
  int misses_ = 0;                      // guarded by `looking_`
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
