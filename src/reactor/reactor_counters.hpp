//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What the reactor and its drivers count, read by reactor::statistics().
#ifndef BOOST_ASIO_NOTIFY_SRC_REACTOR_REACTOR_COUNTERS_HPP
#define BOOST_ASIO_NOTIFY_SRC_REACTOR_REACTOR_COUNTERS_HPP

#include <boost/asio_notify/reactor.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace boost {
namespace asio_notify {
namespace detail {

/// The counters behind reactor_statistics; relaxed, as they order nothing.
struct reactor_counters
{
  using counter = std::atomic<std::uint64_t>;

  static void add(counter& c, std::uint64_t n = 1) noexcept
  {
    c.fetch_add(n, std::memory_order_relaxed);
  }

  /// A dequeue returned `packets` packets (counted before any is handled).
  void dequeued(std::size_t packets) noexcept
  {
    if (packets == 0)
      return;
    add(wakeups);
    add(packets_dequeued, packets);
  }

  /// Every counter but `socket_states_allocated`, which the state table knows.
  reactor_statistics read() const noexcept
  {
    reactor_statistics s;
    s.registered_sockets = registered_sockets.load(std::memory_order_relaxed);
    s.packets_dequeued = packets_dequeued.load(std::memory_order_relaxed);
    s.wakeups = wakeups.load(std::memory_order_relaxed);
    s.packets_handed_over = packets_handed_over.load(std::memory_order_relaxed);
    s.io_thread_looks = io_thread_looks.load(std::memory_order_relaxed);
    s.operations_completed = operations_completed.load(std::memory_order_relaxed);
    s.stale_packets_dropped = stale_packets.load(std::memory_order_relaxed);
    s.overlapped_receives = overlapped_receives.load(std::memory_order_relaxed);
    s.overlapped_sends = overlapped_sends.load(std::memory_order_relaxed);
    return s;
  }

  counter registered_sockets{0};
  counter packets_dequeued{0};
  counter wakeups{0};
  counter packets_handed_over{0}; // performed by another thread than the one that dequeued
  counter io_thread_looks{0};     // the thread driver's io threads looking into the port
  counter operations_completed{0};
  counter stale_packets{0};
  counter overlapped_receives{0};
  counter overlapped_sends{0};
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
