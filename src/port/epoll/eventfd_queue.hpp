//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The packets the epoll port makes itself (user packets and REMOVE), with an eventfd that
// is readable while any wait: in the port's epoll set, it wakes dequeuers.
#ifndef BOOST_ASIO_NOTIFY_SRC_PORT_EPOLL_EVENTFD_QUEUE_HPP
#define BOOST_ASIO_NOTIFY_SRC_PORT_EPOLL_EVENTFD_QUEUE_HPP

#include <boost/asio_notify/port.hpp>

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace boost {
namespace asio_notify {
namespace detail {

/// A FIFO of packets and its eventfd. Not thread-safe but for `maybe_waiting`: the port
/// locks its mutex around the rest.
class eventfd_queue
{
public:
  eventfd_queue() = default;
  eventfd_queue(const eventfd_queue&) = delete;
  eventfd_queue& operator=(const eventfd_queue&) = delete;

  ~eventfd_queue()
  {
    if (fd_ >= 0)
      ::close(fd_);
  }

  /// Creates the eventfd; false (errno set) on failure.
  bool open() noexcept
  {
    fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    return fd_ >= 0;
  }

  int fd() const noexcept { return fd_; }

  std::size_t size() const noexcept { return packets_.size(); }

  /// Whether packets may wait, read without the port's mutex.
  bool maybe_waiting() const noexcept { return count_.load(std::memory_order_relaxed) != 0; }

  /// Room for `n` packets in all (throws std::bad_alloc, having changed nothing).
  void reserve(std::size_t n)
  {
    if (packets_.capacity() < n)
      packets_.reserve(std::max(n, 2 * packets_.capacity()));
  }

  /// Appends `p`; allocates only beyond the room `reserve` made.
  void push(const packet& p)
  {
    packets_.push_back(p);
    count_.store(packets_.size(), std::memory_order_relaxed);
    if (packets_.size() == 1)
    {
      const std::uint64_t one = 1;
      // Cannot fail short of a counter overflow, which a one-per-empty-queue write never reaches.
      [[maybe_unused]] ssize_t n = ::write(fd_, &one, sizeof(one));
    }
  }

  /// Moves up to `capacity` packets, oldest first, to `out`; returns how many.
  std::size_t take(packet* out, std::size_t capacity) noexcept
  {
    const std::size_t n = std::min(capacity, packets_.size());
    std::copy_n(packets_.begin(), n, out);
    packets_.erase(packets_.begin(), packets_.begin() + static_cast<std::ptrdiff_t>(n));
    count_.store(packets_.size(), std::memory_order_relaxed);
    if (n != 0 && packets_.empty())
    {
      std::uint64_t count;
      [[maybe_unused]] ssize_t r = ::read(fd_, &count, sizeof(count)); // level: quiet now
    }
    return n;
  }

private:
  int fd_ = -1;
  std::vector<packet> packets_;
  std::atomic<std::size_t> count_{0}; // packets_.size()
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
