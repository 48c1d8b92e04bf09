//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Whether the thread driver's io threads hold the port, lent by the reactor threads.
#ifndef BOOST_ASIO_NOTIFY_SRC_DRIVERS_PORT_LEASE_HPP
#define BOOST_ASIO_NOTIFY_SRC_DRIVERS_PORT_LEASE_HPP

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace boost {
namespace asio_notify {
namespace detail {

/// A reactor thread that hands a batch over lends the port to the io threads: it stays out
/// of the port while their looks keep finding packets, so that what their own handlers made
/// ready is performed by them, with no thread woken. Why: doc/design.md, "Lending the port".
class port_lease
{
public:
  /// How long a reactor thread waits for a look before it takes the port back.
  static constexpr std::chrono::microseconds patience{1000};

  /// The most packets a batch handed over, or a look, may hold for the port to stay lent:
  /// what the io threads' own handlers made ready is a few; more is a stream from afar,
  /// which a reactor thread dequeuing alongside the io threads keeps flowing.
  static constexpr std::size_t few = 4;

  /// A batch of `n` packets is about to be handed over: a few lend the port to the io
  /// threads until a look finds nothing, or a crowd.
  void lend(std::size_t n) noexcept
  {
    if (n <= few && !closed_.load(std::memory_order_acquire))
      held_.store(true, std::memory_order_release);
  }

  /// Whether the io threads hold the port: their looks must not be skipped.
  bool held() const noexcept { return held_.load(std::memory_order_acquire); }

  /// An io thread looked into the port and dequeued `n` packets; a miss or a crowd gives
  /// it back.
  void looked(std::size_t n) noexcept
  {
    looks_.fetch_add(1, std::memory_order_relaxed);
    if (n == 0 || n > few)
      give_back();
  }

  /// The port goes back to the reactor threads (a look found nothing or cannot be made).
  void give_back() noexcept
  {
    if (!held_.exchange(false, std::memory_order_acq_rel))
      return;
    std::lock_guard<std::mutex> lock(mutex_); // a waiter checks `held_` under it
    if (waiting_ != 0)
      returned_.notify_all();
  }

  /// No lending from now on (the driver is stopping).
  void close() noexcept
  {
    closed_.store(true, std::memory_order_release);
    give_back();
  }

  /// A reactor thread, before it dequeues: wait while the io threads hold the port and
  /// look; a `patience` with no look takes the port back (the io threads are in long
  /// handlers, or nobody runs the context).
  void wait_for_return()
  {
    if (!held())
      return;
    std::unique_lock<std::mutex> lock(mutex_);
    ++waiting_;
    for (;;)
    {
      const std::uint64_t looks = looks_.load(std::memory_order_relaxed);
      if (returned_.wait_for(lock, patience, [this] { return !held(); }))
        break;
      if (looks_.load(std::memory_order_relaxed) == looks)
      {
        held_.store(false, std::memory_order_release);
        break;
      }
    }
    --waiting_;
  }

private:
  std::atomic<bool> held_{false};
  std::atomic<bool> closed_{false};
  std::atomic<std::uint64_t> looks_{0};
  std::mutex mutex_;
  std::condition_variable returned_;
  std::size_t waiting_ = 0; // reactor threads in wait_for_return, guarded by `mutex_`
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
