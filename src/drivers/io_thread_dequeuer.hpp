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
#include <new>
#include <vector>

namespace boost {
namespace asio_notify {
namespace detail {

/// The io threads' own dequeues: each a look into the port without waiting, deferred behind
/// the handlers an io thread has queued; one io thread looks at a time, and looks that keep
/// finding nothing become rarer.
class io_thread_dequeuer final : public batch_done_hook
{
public:
  /// `exit_key`: the reactor threads' exit packet, passed on to them when seen here.
  io_thread_dequeuer(port& p, driven_reactor& reactor, std::size_t batch_size,
                     boost::asio::any_io_executor context_executor, void* exit_key)
      : port_(p), reactor_(reactor),
        batch_size_(batch_size), target_{batch_site::this_thread, std::move(context_executor),
                                         nullptr, this},
        exit_key_(exit_key)
  {
  }

  /// No look from now on (the driver is stopping).
  void stop() noexcept { stopped_.store(true, std::memory_order_release); }

  /// An io thread has done its share of a batch: look into the port once it has run what
  /// it queued, unless another io thread is about to, or recent looks found nothing.
  void batch_done() override
  {
    int skip = batches_to_skip_.load(std::memory_order_relaxed);
    while (skip > 0 &&
           !batches_to_skip_.compare_exchange_weak(skip, skip - 1, std::memory_order_relaxed))
    {
    }
    if (skip > 0 || stopped_.load(std::memory_order_acquire) ||
        looking_.exchange(true, std::memory_order_acq_rel))
      return;
    try
    {
      boost::asio::defer(target_.executor, [this] { look(); });
    }
    catch (const std::bad_alloc&)
    {
      // A look is only a shortcut: the reactor threads see the port all the same.
      looking_.store(false, std::memory_order_release);
    }
  }

private:
  void look()
  {
    if (stopped_.load(std::memory_order_acquire))
      return;
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
      looking_.store(false, std::memory_order_release); // the next batch may look again
      throw;
    }
    reactor_counters::add(reactor_.counters.io_thread_looks);
    reactor_.counters.dequeued(n);
    // A single miss is no sign: a reactor thread may have taken what this look was for.
    misses_ = n == 0 ? std::min(misses_ + 1, 7) : 0; // only the looking thread writes it
    batches_to_skip_.store(misses_ < 2 ? 0 : (1 << (misses_ - 1)) - 1, std::memory_order_relaxed);
    looking_.store(false, std::memory_order_release); // its batch may look again
    if (n == 0)
      return;
    if (partition_dequeued(reactor_, buffer.data(), n, exit_key_, io))
      post_exit(port_, exit_key_); // the reactor threads' exit: theirs to see
    perform_dequeued(reactor_, io, target_);
  }

  port& port_;
  driven_reactor& reactor_;
  const std::size_t batch_size_;
  const batch_target target_; // performed in the looking thread
  void* const exit_key_;
  std::atomic<bool> stopped_{false};
  std::atomic<bool> looking_{false};    // a look into the port is deferred or running
  std::atomic<int> batches_to_skip_{0}; // before the next look, after looks that missed
  int misses_ = 0;                      // guarded by `looking_`
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
