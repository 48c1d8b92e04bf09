//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// How an exception thrown on a reactor thread reaches io_context::run() without memory of
// its own (doc/design.md, "Exception safety").
#ifndef BOOST_ASIO_NOTIFY_SRC_DRIVERS_EXCEPTION_MAILBOX_HPP
#define BOOST_ASIO_NOTIFY_SRC_DRIVERS_EXCEPTION_MAILBOX_HPP

#include <boost/asio_notify/detail/op_completion.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include <exception>
#include <memory>
#include <mutex>
#include <utility>

namespace boost {
namespace asio_notify {
namespace detail {

/** Holds one exception from a reactor thread until a thread running the io_context
    rethrows it. The handler that carries it there is posted in the mailbox's own slot,
    so a reactor thread that has run out of memory still delivers it. While one waits,
    later ones are dropped: the first is rethrown, as op_queue::complete_all rethrows its
    first. Made before the reactor threads start; shared with the posted handler, which
    may outlive the driver (destroyed with the io_context's queue). */
class exception_mailbox : public std::enable_shared_from_this<exception_mailbox>
{
public:
  /// Posts `e` to `executor`'s context, there to be rethrown; false when it was dropped.
  bool deliver(std::exception_ptr e, const boost::asio::any_io_executor& executor) noexcept
  {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (waiting_)
        return false;
      waiting_ = std::move(e);
    }
    try
    {
      // In the slot only through the io_context's own executor, which allocates once; a
      // type-erased one (a thread pool's) wraps the handler again, with memory of its own.
      if (const auto* io = executor.target<boost::asio::io_context::executor_type>())
        boost::asio::post(*io, carrier{shared_from_this()});
      else
        boost::asio::post(executor, [box = shared_from_this()] { box->rethrow(); });
      return true;
    }
    catch (...)
    {
      std::lock_guard<std::mutex> lock(mutex_);
      waiting_ = nullptr;
      return false;
    }
  }

private:
  // Asio's queued operation around a carrier: 40 bytes on POSIX, 80 on Windows.
  using slot = basic_arena<128>;

  struct carrier
  {
    using allocator_type = arena_allocator<void, slot>;
    allocator_type get_allocator() const noexcept { return allocator_type(box->slot_); }
    void operator()() const { box->rethrow(); }
    std::shared_ptr<exception_mailbox> box;
  };

  void rethrow()
  {
    std::exception_ptr e;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      e = std::exchange(waiting_, nullptr);
    }
    if (e)
      std::rethrow_exception(e);
  }

  std::mutex mutex_;
  std::exception_ptr waiting_;
  slot slot_; // one carrier at a time: `waiting_` is set from its post to its call
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
