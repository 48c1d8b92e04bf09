//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The io_context_port driver's transfer channels: a stream read that would block goes on as
// an overlapped WSARecv into its own buffers, a stream write as an overlapped WSASend from
// its own, their OVERLAPPEDs operations of Asio's that io_context::run() completes, as Asio's
// own transfers are. Why: design.md, "Transfers on the io_context's port".
#ifndef BOOST_ASIO_NOTIFY_SRC_DRIVERS_WIN_OVERLAPPED_TRANSFERS_HPP
#define BOOST_ASIO_NOTIFY_SRC_DRIVERS_WIN_OVERLAPPED_TRANSFERS_HPP

#include "../../socket_ops/overlapped_transfer_win.hpp"
#include "../reactor_driver.hpp"
#include "../../reactor/reactor_impl.hpp"

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
    the socket leaves the reactor, and by each of its transfers in flight; the last to let go
    frees it. A transfer in flight is counted as work, as Asio counts its own. */
template <class Scheduler, class Operation>
class transfer_channels final : public channel_issuer
{
public:
  transfer_channels(Scheduler& scheduler, driven_reactor& reactor) noexcept
      : scheduler_(scheduler), reactor_(reactor)
  {
  }

  transfer_channels(const transfer_channels&) = delete;
  transfer_channels& operator=(const transfer_channels&) = delete;
  ~transfer_channels() { stop(); }

  transfer_channel* open(native_socket_type socket, void* key) noexcept override
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

  /// The io_context's shutdown, after the reactor closed every channel: the transfers still
  /// in flight are cancelled, and Asio's shutdown dequeues them and destroys their
  /// operations; no channel calls into the reactor from now on.
  void stop() noexcept
  {
    std::lock_guard<std::mutex> lock(mutex_);
    while (channel* c = channels_)
    {
      c->unlink(channels_);
      c->owner.store(nullptr, std::memory_order_release);
      c->cancel(read_op);
      c->cancel(write_op);
    }
  }

private:
  class channel;

  /// The OVERLAPPED of a channel's transfers in one direction, and what they need to live
  /// as long as they are in flight.
  struct transfer_op final : Operation
  {
    transfer_op(channel& c, op_type d) : Operation(&do_complete), owner(c), direction(d) {}

    // In run() (`io` set) or in the io_context's shutdown (`io` null).
    static void do_complete(void* io, Operation* base, const boost::system::error_code& ec,
                            std::size_t bytes)
    {
      transfer_op& t = *static_cast<transfer_op*>(base);
      channel& c = t.owner;
      transfer_channels* transfers = c.owner.load(std::memory_order_acquire);
      if (io && transfers)
        return transfers->completed(t, ec, bytes);
      if (reactor_op* op = c.orphans[t.direction].exchange(nullptr, std::memory_order_acq_rel))
        op->complete(completion_mode::destroy);
      c.release();
    }

    channel& owner;
    const op_type direction;
    unsigned long flags = 0; // a receive's, in and out: Winsock may write them when it completes
    std::size_t capacity = 0;
    std::atomic<bool> cancelled{false};
  };

  class channel final : public transfer_channel
  {
  public:
    channel(transfer_channels& r, native_socket_type s, void* key) noexcept
        : transfer_channel(key), owner(&r), socket_(s), ops_{{*this, read_op}, {*this, write_op}}
    {
    }

    bool issue(op_type direction, socket_ops::native_buffer* bufs, std::size_t count,
               socket_ops::message_flags flags) noexcept override
    {
      transfer_channels& r = *owner.load(std::memory_order_relaxed); // set while open
      transfer_op& t = ops_[direction];
      t.reset();
      t.cancelled.store(false, std::memory_order_relaxed);
      t.flags = static_cast<unsigned long>(flags);
      const bool receive = direction == read_op;
      t.capacity = receive ? socket_ops::capacity_of(bufs, count) : 0; // a receive's drained test
      refs_.fetch_add(1, std::memory_order_relaxed);
      r.scheduler_.work_started(); // before its completion can be dequeued and counted off
      if (const unsigned long error =
              receive ? socket_ops::recv_overlapped(socket_, bufs, count, t.flags, &t)
                      : socket_ops::send_overlapped(socket_, bufs, count, t.flags, &t))
        r.scheduler_.on_completion(&t, error, 0); // the transfer fails through the port
      else
        r.scheduler_.on_pending(&t); // run() may complete it from now on
      reactor_counters::add(receive ? r.reactor_.counters.overlapped_receives
                                    : r.reactor_.counters.overlapped_sends);
      return true;
    }

    void cancel(op_type direction) noexcept override
    {
      transfer_op& t = ops_[direction];
      t.cancelled.store(true, std::memory_order_relaxed);
      ::CancelIoEx(reinterpret_cast<HANDLE>(socket_), &t); // ERROR_NOT_FOUND: done already
    }

    void close(reactor_op* const (&in_flight)[2]) noexcept override
    {
      for (const op_type direction : {read_op, write_op})
        if (in_flight[direction])
        {
          orphans[direction].store(in_flight[direction], std::memory_order_release);
          cancel(direction); // a released socket stays open: the transfer must end
        }
      release();
    }

    // One holder lets go (the state, or a transfer in flight); the last frees it.
    void release() noexcept
    {
      if (refs_.fetch_sub(1, std::memory_order_acq_rel) != 1)
        return;
      if (transfer_channels* r = owner.load(std::memory_order_acquire))
      {
        std::lock_guard<std::mutex> lock(r->mutex_);
        unlink(r->channels_);
      }
      delete this;
    }

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

    std::atomic<transfer_channels*> owner; // null once the driver stopped

  private:
    const native_socket_type socket_;
    transfer_op ops_[2];       // by direction
    std::atomic<int> refs_{1}; // the state's
    channel* prev_ = nullptr;  // the owner's list, under its mutex
    channel* next_ = nullptr;
  };

  // In run(): the reactor finishes the transfer's operation and lets the next go on.
  void completed(transfer_op& t, const boost::system::error_code& ec, std::size_t bytes)
  {
    const bool receive = t.direction == read_op;
    const auto result = socket_ops::overlapped_result(
        ec, bytes, t.cancelled.load(std::memory_order_relaxed), receive);
    const bool drained = receive && !result && bytes < t.capacity;
    op_queue done;
    reactor_.transfer_completed(t.owner, t.direction, result, bytes, drained, done);
    t.owner.release(); // the transfer's hold, before handlers that may throw
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
