//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// How many batches a reactor thread may have handed over and not yet taken up.
#ifndef BOOST_ASIO_NOTIFY_SRC_DRIVERS_HANDOFF_GATE_HPP
#define BOOST_ASIO_NOTIFY_SRC_DRIVERS_HANDOFF_GATE_HPP

#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace boost {
namespace asio_notify {
namespace detail {

/// Makes a reactor thread wait, after its dequeue, while `limit` handed-over batches wait
/// to be taken up. Why: doc/design.md, "The hand-off gate".
class handoff_gate
{
public:
  explicit handoff_gate(std::size_t limit) : limit_(limit) {}

  /// Block until fewer than `limit` batches wait to be taken up, or the gate is opened.
  /// Returns whether it had to wait.
  bool wait_for_room()
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (has_room())
      return false;
    room_.wait(lock, [this] { return has_room(); });
    return true;
  }

  /// A batch is about to be handed over.
  void handing_over()
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++waiting_;
  }

  /// A context thread claimed a handed-over batch's last packet.
  void taken_up()
  {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      --waiting_;
    }
    room_.notify_one();
  }

  /// Let every reactor thread through from now on (the driver is stopping).
  void open()
  {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      opened_ = true;
    }
    room_.notify_all();
  }

private:
  bool has_room() const noexcept { return waiting_ < limit_ || opened_; }

  std::mutex mutex_;
  std::condition_variable room_;
  std::size_t waiting_ = 0;
  const std::size_t limit_;
  bool opened_ = false;
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
