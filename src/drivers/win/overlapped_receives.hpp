//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The io_context_port driver's receive channels: a stream read that would block goes on as
// an overlapped WSARecv into its own buffers, its OVERLAPPED an operation of Asio's that
// io_context::run() completes, as Asio's own reads do. Why: design.md, "Receiving on the
// io_context's port".
#ifndef BOOST_ASIO_NOTIFY_SRC_DRIVERS_WIN_OVERLAPPED_RECEIVES_HPP
#define BOOST_ASIO_NOTIFY_SRC_DRIVERS_WIN_OVERLAPPED_RECEIVES_HPP

#include "../../socket_ops/overlapped_recv_win.hpp"
#include "../reactor_driver.hpp"

#include <boost/system/error_code.hpp>

#include <winsock2.h>

#include <atomic>
#include <cstddef>
#include <mutex>
#include <new>

namespace boost {
namespace asio_notify {
namespace detail {
namespace win {

/** The channels of one io_context's sockets. A channel is held by its socket's state until
    the socket leaves the reactor, and by its receive while one is in flight; the last to let
    go frees it. A receive in flight is counted as work, as Asio counts its own. */
template <class Scheduler, class Operation>
class overlapped_receives final : public receive_issuer
{
public:
  overlapped_receives(Scheduler& scheduler, driven_reactor& reactor) noexcept
      : scheduler_(scheduler), reactor_(reactor)
  {
  }

  overlapped_receives(const overlapped_receives&) = delete;
  overlapped_receives& operator=(const overlapped_receives&) = delete;
  ~overlapped_receives() { stop(); }

  receive_channel* open(native_socket_type socket, void* key) noexcept override
  {
    channel* c = new (std::nothrow) channel(*this, socket, key);
    if (!c)
      return nullptr;
    // For good, as Asio's own sockets: a handle that has a port already is refused.
    boost::system::error_code ec;
    scheduler_.register_handle(reinterpret_cast<HANDLE>(socket), ec);
    if (ec)
    {
      delete c;
      return nullptr;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    c->link(channels_);
    return c;
  }

  /// The io_context's shutdown, after the reactor closed every channel: the receives still
  /// in flight are cancelled, and Asio's shutdown dequeues them and destroys their
  /// operations; no channel calls into the reactor from now on.
  void stop() noexcept
  {
    std::lock_guard<std::mutex> lock(mutex_);
    while (channel* c = channels_)
    {
      c->unlink(channels_);
      c->owner.store(nullptr, std::memory_order_release);
      c->cancel();
    }
  }

private:
  class channel;

  /// The OVERLAPPED of a channel's receives.
  struct receive_op final : Operation
  {
    explicit receive_op(channel& c) : Operation(&do_complete), owner(c) {}

    // In run() (`io` set) or in the io_context's shutdown (`io` null).
    static void do_complete(void* io, Operation* base, const boost::system::error_code& ec,
                            std::size_t bytes)
    {
      channel& c = static_cast<receive_op*>(base)->owner;
      overlapped_receives* receives = c.owner.load(std::memory_order_acquire);
      if (io && receives)
        return receives->completed(c, ec, bytes);
      if (reactor_op* op = c.orphan.exchange(nullptr, std::memory_order_acq_rel))
        op->complete(completion_mode::destroy);
      c.release();
    }

    channel& owner;
  };

  class channel final : public receive_channel
  {
  public:
    channel(overlapped_receives& r, native_socket_type s, void* key) noexcept
        : receive_channel(key), owner(&r), op_(*this), socket_(s)
    {
    }

    bool issue(socket_ops::native_buffer* bufs, std::size_t count,
               socket_ops::message_flags flags) noexcept override
    {
      if (flags & MSG_OOB)
        return false; // urgent data is read when the poll reports it, as everywhere else
      overlapped_receives& r = *owner.load(std::memory_order_relaxed); // set while open
      op_.reset();
      cancelled_.store(false, std::memory_order_relaxed);
      flags_ = static_cast<unsigned long>(flags);
      capacity_ = socket_ops::capacity_of(bufs, count);
      refs_.fetch_add(1, std::memory_order_relaxed);
      r.scheduler_.work_started(); // before its completion can be dequeued and counted off
      if (const unsigned long error =
              socket_ops::recv_overlapped(socket_, bufs, count, flags_, &op_))
        r.scheduler_.on_completion(&op_, error, 0); // the read fails through the port
      else
        r.scheduler_.on_pending(&op_); // run() may complete it from now on
      reactor_counters::add(r.reactor_.counters.overlapped_receives);
      return true;
    }

    void cancel() noexcept override
    {
      cancelled_.store(true, std::memory_order_relaxed);
      ::CancelIoEx(reinterpret_cast<HANDLE>(socket_), &op_); // ERROR_NOT_FOUND: done already
    }

    void close(reactor_op* in_flight) noexcept override
    {
      if (in_flight)
      {
        orphan.store(in_flight, std::memory_order_release);
        cancel(); // a released socket stays open: the receive must end
      }
      release();
    }

    // One holder lets go (the state, or the receive in flight); the last frees it.
    void release() noexcept
    {
      if (refs_.fetch_sub(1, std::memory_order_acq_rel) != 1)
        return;
      if (overlapped_receives* r = owner.load(std::memory_order_acquire))
      {
        std::lock_guard<std::mutex> lock(r->mutex_);
        unlink(r->channels_);
      }
      delete this;
    }

    bool cancelled() const noexcept { return cancelled_.load(std::memory_order_relaxed); }
    std::size_t capacity() const noexcept { return capacity_; }

    void link(channel*& head) noexcept
    {
      next_ = head;
      if (head)
        head->prev_ = this;
      head = this;
    }

    void unlink(channel*& head) noexcept
    {
      (prev_ ? prev_->next_ : head) = next_;
      if (next_)
        next_->prev_ = prev_;
      prev_ = next_ = nullptr;
    }

    std::atomic<overlapped_receives*> owner; // null once the driver stopped

  private:
    receive_op op_;
    const native_socket_type socket_;
    unsigned long flags_ = 0; // in and out: Winsock may write it when the receive completes
    std::size_t capacity_ = 0;
    std::atomic<bool> cancelled_{false};
    std::atomic<int> refs_{1}; // the state's
    channel* prev_ = nullptr;  // the owner's list, under its mutex
    channel* next_ = nullptr;
  };

  // In run(): the reactor finishes the receive's operation and lets the next reads go on.
  void completed(channel& c, const boost::system::error_code& ec, std::size_t bytes)
  {
    const auto result = socket_ops::overlapped_recv_result(ec, bytes, c.cancelled());
    const bool drained = !result && bytes < c.capacity();
    op_queue done;
    reactor_.receive_completed(c, result, bytes, drained, done);
    c.release(); // the receive's hold, before handlers that may throw
    reactor_.complete(done, completion_mode::dispatch, completion_mode::defer);
  }

  Scheduler& scheduler_;
  driven_reactor& reactor_;
  std::mutex mutex_;
  channel* channels_ = nullptr; // every channel open
};

} // namespace win
} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
