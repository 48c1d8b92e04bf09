//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The inline drivers: the io_context's own threads wait for the port's descriptor through
// the io_context, as an operation of Asio's own reactor (inline_driver) or as a public
// async_wait (inline_portable). Why: doc/design.md, "Drivers".

#include "inline_driver_shape.hpp"
#include "reactor_driver.hpp"
#include "shared_batch.hpp"
#include "../reactor/reactor_impl.hpp"

#include <boost/asio_notify/detail/op_completion.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/system/system_error.hpp>

#if defined(BOOST_ASIO_NOTIFY_HAS_INLINE_DRIVERS) // see inline_driver_shape.hpp
#include <boost/asio/posix/stream_descriptor.hpp>
#endif

#include <atomic>
#include <chrono>
#include <memory>
#include <new>
#include <optional>
#include <utility>
#include <vector>

namespace boost {
namespace asio_notify {
namespace detail {

namespace {

#if defined(BOOST_ASIO_NOTIFY_HAS_INLINE_DRIVERS)

/// What both inline drivers share: a dequeue without waiting, handled in the thread that
/// made it. Why: doc/design.md, "inline_driver (the Linux default)".
class inline_dequeuer
{
public:
  inline_dequeuer(boost::asio::io_context& ioc, port& p, driven_reactor& reactor, std::size_t batch)
      : ioc_(ioc), target_{batch_site::this_thread, ioc.get_executor(), nullptr}, port_(p),
        reactor_(reactor), packets_(batch)
  {
  }

  /// Dequeue what the port holds, without waiting. False when it held nothing.
  bool dequeue_now()
  {
    boost::system::error_code ec;
    count_ = port_.dequeue(packets_, std::chrono::milliseconds(0), ec);
    reactor_.counters.dequeued(count_);
    return count_ != 0;
  }

  /// Whether the last dequeue took fewer packets than asked: the port had no more (the
  /// epoll port polls again rather than return a short batch while more may be ready).
  bool exhausted() const noexcept { return count_ < packets_.size(); }

  /// Handle the dequeued packets (see partition_dequeued). `rearm(continuation)` queues the
  /// next wait once they are out of the port's buffer, so that another thread can dequeue
  /// the next batch meanwhile; after a full batch the next wait is no continuation and its
  /// completion goes to the shared queue for an idle thread to take.
  template <class Rearm>
  void handle(Rearm&& rearm)
  {
    if (count_ == 1 && is_io_packet(packets_[0]))
      return handle_one(rearm);
    thread_local std::vector<packet> io;
    try
    {
      if (io.capacity() < count_) // the call costs more than the check, every wake-up
        io.reserve(count_);       // partition_dequeued then cannot fail
    }
    catch (const std::bad_alloc&)
    {
      return handle_in_place(rearm);
    }
    partition_dequeued(reactor_, packets_.data(), count_, nullptr, io);
    rearm(exhausted());
    perform_dequeued(reactor_, io, target_);
  }

  boost::asio::io_context& context() const noexcept { return ioc_; }
  port& the_port() const noexcept { return port_; }

private:
  // The usual wake-up: one I/O packet, which no other thread could share. Copied out of the
  // port's buffer, which the next wait may fill as soon as it is queued.
  template <class Rearm>
  void handle_one(Rearm& rearm)
  {
    const packet p = packets_[0];
    rearm(exhausted());
    op_queue done;
    reactor_.handle(p, done);
    reactor_.complete(done, completion_mode::dispatch, completion_mode::defer);
  }

  // Without memory to copy the packets out of the port's buffer: every packet is handled
  // from it before the next wait is queued (which lets the buffer be reused), on this thread.
  template <class Rearm>
  void handle_in_place(Rearm& rearm)
  {
    op_queue done;
    for (std::size_t i = 0; i < count_; ++i)
      reactor_.handle(packets_[i], done);
    rearm(exhausted());
    reactor_.complete(done, completion_mode::dispatch, completion_mode::defer);
  }

private:
  boost::asio::io_context& ioc_;
  const batch_target target_; // made once: helpers are posted to its executor
  port& port_;
  driven_reactor& reactor_;
  std::vector<packet> packets_;
  std::size_t count_ = 0;
};

// ---- inline_driver: an operation of Asio's own epoll reactor ------------------------------

// Asio's detail API, checked member by member (asio_reactor_shape), and its locking rule.
// Why: doc/design.md, "Asio's reactor, not a public wait".
using asio_reactor = boost::asio::detail::epoll_reactor;
using asio_operation = boost::asio::detail::reactor_op;
using asio_scheduler = boost::asio::detail::scheduler;

template <class Reactor, class Operation, class Scheduler>
class asio_reactor_waiter final
    : public std::enable_shared_from_this<asio_reactor_waiter<Reactor, Operation, Scheduler>>
{
public:
  asio_reactor_waiter(boost::asio::io_context& ioc, port& p, driven_reactor& reactor,
                      std::size_t batch)
      : dequeuer_(ioc, p, reactor, batch), asio_reactor_(boost::asio::use_service<Reactor>(ioc)),
        scheduler_(boost::asio::use_service<Scheduler>(ioc)), op_(*this)
  {
    asio_reactor_.init_task();
    if (int err = asio_reactor_.register_descriptor(p.native_handle(), descriptor_data_))
      throw boost::system::system_error(err, boost::system::system_category(),
                                        "boost::asio_notify::reactor: inline driver");
  }

  /// Queue the first wait on the port's descriptor (the next ones: requeue).
  void arm(bool)
  {
    requeue(false);
    scheduler_.work_finished(); // the wait on the port is not work
  }

  /// Take the wait out of Asio's reactor; it completes (aborted) or is destroyed later.
  /// The descriptor's state is released now, as Asio's own sockets release theirs on
  /// close: Asio's reactor frees every state it still holds when it shuts down.
  void stop()
  {
    stopped_ = true;
    asio_reactor_.deregister_descriptor(dequeuer_.the_port().native_handle(), descriptor_data_,
                                        false);
    asio_reactor_.cleanup_descriptor_data(descriptor_data_);
  }

private:
  // The operation Asio's reactor holds; it keeps the waiter alive while Asio has it.
  struct wait_op final : Operation
  {
    explicit wait_op(asio_reactor_waiter& w)
        : Operation(boost::system::error_code(), &do_perform, &do_complete), waiter(w)
    {
    }

    // In Asio's perform_io.
    static typename Operation::status do_perform(boost::asio::detail::reactor_op* base)
    {
      inline_dequeuer& dequeuer = static_cast<wait_op*>(base)->waiter.dequeuer_;
      if (!dequeuer.dequeue_now())
        return Operation::not_done;
      return dequeuer.exhausted() ? Operation::done_and_exhausted : Operation::done;
    }

    // The wait holds its waiter from the first wait on (keep_alive); one that ends without
    // a next (the driver stopped) or that the io_context's shutdown destroys lets it go.
    static void do_complete(void* owner, boost::asio::detail::scheduler_operation* base,
                            const boost::system::error_code& ec, std::size_t)
    {
      wait_op& op = *static_cast<wait_op*>(base);
      if (owner && !ec && !op.waiter.stopped_)
        return op.waiter.on_dequeued();
      auto self = std::move(op.keep_alive);
      if (owner && self)
        self->scheduler_.work_started(); // for the scheduler's work_finished() after us
    }

    asio_reactor_waiter& waiter;
    std::shared_ptr<asio_reactor_waiter> keep_alive;
  };

  // Queues the wait. Queued from the last wait's completion, the count Asio's start_op
  // gives it stands for the one the scheduler takes off after that completion; the first
  // wait gives it back (arm).
  void requeue(bool continuation)
  {
    if (!op_.keep_alive)
      op_.keep_alive = this->shared_from_this();
    asio_reactor_.start_op(Reactor::read_op, dequeuer_.the_port().native_handle(), descriptor_data_,
                           &op_, continuation, true);
  }

  void on_dequeued()
  {
    dequeuer_.handle([this](bool continuation) { requeue(continuation); });
  }

  inline_dequeuer dequeuer_;
  Reactor& asio_reactor_;
  Scheduler& scheduler_;
  typename Reactor::per_descriptor_data descriptor_data_ = nullptr;
  wait_op op_;
  bool stopped_ = false;
};

// ---- inline_portable: a public async_wait on the port's descriptor --------------------------

// On Asio's public API alone: one epoll_ctl per wake-up more than inline_driver. Why:
// doc/design.md, "inline_portable".
template <class Executor>
class descriptor_waiter final : public std::enable_shared_from_this<descriptor_waiter<Executor>>
{
public:
  descriptor_waiter(boost::asio::io_context& ioc, port& p, driven_reactor& reactor,
                    std::size_t batch)
      : dequeuer_(ioc, p, reactor, batch), descriptor_(std::in_place, ioc, p.native_handle())
  {
  }

  // The wait's memory is the slot's, so that arming, in an initiating function or in the
  // handler that re-arms, cannot fail for want of memory (which would stop the driver).
  void arm(bool)
  {
    descriptor_->async_wait(descriptor::wait_read, ready_handler{this->shared_from_this()});
    work().on_work_finished();
  }

  /// Hand the port's descriptor back (the port owns it) and drop the wait: it completes
  /// aborted, or is destroyed with the io_context's queue.
  void stop()
  {
    stopped_ = true;
    descriptor_->release();
    descriptor_.reset();
  }

private:
  Executor work() const { return dequeuer_.context().get_executor(); }

  void on_ready(const boost::system::error_code& ec)
  {
    work().on_work_started(); // for the scheduler's count after this handler
    if (ec || stopped_)
      return;
    if (!dequeuer_.dequeue_now())
      return arm(true); // nothing after all (another thread took it): wait again
    dequeuer_.handle([this](bool continuation) { arm(continuation); });
  }

  struct ready_handler
  {
    using allocator_type = arena_allocator<void, basic_arena<256>>;
    allocator_type get_allocator() const noexcept { return allocator_type(self->slot_); }
    void operator()(const boost::system::error_code& ec) const { self->on_ready(ec); }
    std::shared_ptr<descriptor_waiter> self;
  };

  // On the io_context's own executor type: no type-erased executor per wait.
  using descriptor = boost::asio::posix::basic_stream_descriptor<Executor>;

  inline_dequeuer dequeuer_;
  std::optional<descriptor> descriptor_;
  basic_arena<256> slot_; // one wait at a time
  bool stopped_ = false;
};

/// A driver around a waiter: arms it once, with the first operation to wait (its tracked
/// work keeps the io_context's count above zero while arm() takes the wait's back); from
/// then on the waiter re-arms itself.
template <class Waiter>
class inline_driver_with final : public reactor_driver
{
public:
  inline_driver_with(boost::asio::io_context& ioc, port& p, driven_reactor& reactor,
                     const reactor_options& options)
      : waiter_(std::make_shared<Waiter>(ioc, p, reactor, options.batch_size))
  {
  }

  ~inline_driver_with() override { stop(); }

  // Only the first wait is armed from here: the waiter queues every next one itself.
  bool operation_queued() override
  {
    if (!armed_once_.load(std::memory_order_acquire) && !armed_once_.exchange(true))
      waiter_->arm(false);
    return false;
  }

  void stop() override
  {
    if (std::exchange(stopped_, true))
      return;
    waiter_->stop();
  }

private:
  std::shared_ptr<Waiter> waiter_;
  std::atomic<bool> armed_once_{false};
  bool stopped_ = false;
};

/// inline_driver: the wait is an operation of Asio's own epoll reactor.
template <class Reactor, class Operation, class Scheduler>
using inline_driver = inline_driver_with<asio_reactor_waiter<Reactor, Operation, Scheduler>>;

/// inline_portable: the wait is a public async_wait on the port's descriptor.
template <class Executor>
using inline_portable_driver = inline_driver_with<descriptor_waiter<Executor>>;

// The inline driver the sockets' io_context gets: see make_inline_driver.
template <class Reactor, class Operation, class Scheduler, class Executor>
std::unique_ptr<reactor_driver> choose_inline_driver(boost::asio::io_context& ioc,
                                                     reactor_options& options, port& p,
                                                     driven_reactor& reactor)
{
  if constexpr (asio_reactor_shape<Reactor, Operation, Scheduler>::value)
    if (options.driver == driver_kind::inline_driver)
      return std::make_unique<inline_driver<Reactor, Operation, Scheduler>>(ioc, p, reactor,
                                                                            options);
  if constexpr (has_work_counting<Executor>::value)
  {
    options.driver = driver_kind::inline_portable;
    return std::make_unique<inline_portable_driver<Executor>>(ioc, p, reactor, options);
  }
  return nullptr;
}

#endif

} // namespace

std::unique_ptr<reactor_driver> make_inline_driver(boost::asio::io_context& ioc,
                                                   reactor_options& options, port& p,
                                                   driven_reactor& reactor)
{
#if defined(BOOST_ASIO_NOTIFY_HAS_INLINE_DRIVERS)
  return choose_inline_driver<asio_reactor, asio_operation, asio_scheduler,
                              boost::asio::io_context::executor_type>(ioc, options, p, reactor);
#else
  static_cast<void>(ioc);
  static_cast<void>(options);
  static_cast<void>(p);
  static_cast<void>(reactor);
  return nullptr; // the thread driver, then
#endif
}

} // namespace detail
} // namespace asio_notify
} // namespace boost
