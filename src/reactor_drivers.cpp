//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The drivers: reactor threads blocking in the port, or the io_context's own threads
// waiting for the port's descriptor through the io_context itself, either as an operation
// of Asio's own reactor (inline_driver) or as a public async_wait (inline_portable).

#include "reactor_driver.hpp"
#include "inline_driver_shape.hpp"

#include <boost/asio/error.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <boost/system/system_error.hpp>

#if defined(BOOST_ASIO_NOTIFY_HAS_INLINE_DRIVERS) // see inline_driver_shape.hpp
#include <boost/asio/posix/stream_descriptor.hpp>
#endif

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace boost {
namespace asio_notify {
namespace detail {

namespace {

// Hands one dequeue's packets to the core and ends the round; `exit_seen` tells whether
// the user packet with `exit_key` was among them.
void handle_packets(packet_handler& handler, const packet* packets, std::size_t n,
                    std::uint64_t round, const void* exit_key, bool& exit_seen, op_queue& done)
{
  for (std::size_t i = 0; i < n; ++i)
  {
    if (packets[i].kind == packet_kind::user && packets[i].key == exit_key)
      exit_seen = true;
    else
      handler.handle(packets[i], done);
  }
  handler.end_round(round);
}

// Reactor threads block in the port and post completions to the handlers' executors.
class thread_driver final : public reactor_driver
{
public:
  thread_driver(port& p, packet_handler& handler, const reactor_options& options)
      : port_(p), handler_(handler)
  {
    for (std::size_t i = 0; i < options.threads; ++i)
      threads_.emplace_back([this, batch = options.batch_size] { run(batch); });
  }

  ~thread_driver() override { stop(); }

  void operation_queued() override {}

  void stop() override
  {
    std::lock_guard<std::mutex> lock(stop_mutex_);
    if (threads_.empty())
      return;
    port_.post(&exit_key_, 0);
    for (std::thread& t : threads_)
      t.join();
    threads_.clear();
  }

private:
  void run(std::size_t batch)
  {
    std::vector<packet> buffer(batch);
    bool exit_seen = false;
    while (!exit_seen)
    {
      const std::uint64_t round = handler_.begin_round();
      boost::system::error_code ec;
      const std::size_t n = port_.dequeue(buffer, port::infinite, ec);
      handler_.dequeued(n);
      op_queue done;
      handle_packets(handler_, buffer.data(), n, round, &exit_key_, exit_seen, done);
      handler_.complete(done, completion_mode::post);
      if (ec && n == 0) // cannot happen short of a broken port: do not spin on it
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    port_.post(&exit_key_, 0); // pass the exit on to the next thread
  }

  port& port_;
  packet_handler& handler_;
  std::mutex stop_mutex_;
  std::vector<std::thread> threads_;
  char exit_key_ = 0;
};

#if defined(BOOST_ASIO_NOTIFY_HAS_INLINE_DRIVERS)

/* What both inline drivers share: the io_context's threads dequeue the port, without
   waiting, when the io_context's reactor reports the port's descriptor readable, and handle
   the batch in the thread that dequeued it: no thread of ours, no thread switch, the first
   finished operation's handler run inline as Asio runs its own.

   The wait on the port is not work, just as Asio's reactor task is not: its count in the
   io_context is taken back once the wait is queued, and given again when it completes
   (the scheduler counts a finished operation off after its completion returns). */
class port_batch
{
public:
  port_batch(boost::asio::io_context& ioc, port& p, packet_handler& handler,
             std::size_t batch)
      : ioc_(ioc), port_(p), handler_(handler), packets_(batch)
  {
  }

  /// Dequeue what the port holds, without waiting. False when it held nothing.
  bool dequeue_now()
  {
    round_ = handler_.begin_round();
    boost::system::error_code ec;
    count_ = port_.dequeue(packets_, std::chrono::milliseconds(0), ec);
    handler_.dequeued(count_);
    if (count_ == 0)
      handler_.end_round(round_);
    return count_ != 0;
  }

  /// Whether the last dequeue took fewer packets than asked: the port had no more (the
  /// epoll port polls again rather than return a short batch while more may be ready).
  bool exhausted() const noexcept { return count_ < packets_.size(); }

  /// Handle the dequeued packets. `rearm(continuation)` queues the next wait first, so
  /// that another thread can dequeue and handle the next batch meanwhile; after a full
  /// batch the next wait is no continuation and its completion goes to the shared queue
  /// for an idle thread to take.
  template <class Rearm>
  void handle(Rearm&& rearm)
  {
    thread_local std::vector<packet> batch;
    batch.assign(packets_.begin(), packets_.begin() + static_cast<std::ptrdiff_t>(count_));
    const std::uint64_t round = round_;
    rearm(exhausted());
    op_queue done;
    bool exit_seen = false; // the inline drivers post no exit packet
    handle_packets(handler_, batch.data(), batch.size(), round, nullptr, exit_seen, done);
    handler_.complete(done, completion_mode::dispatch);
  }

  boost::asio::io_context& context() const noexcept { return ioc_; }
  port& the_port() const noexcept { return port_; }

private:
  boost::asio::io_context& ioc_;
  port& port_;
  packet_handler& handler_;
  std::vector<packet> packets_;
  std::size_t count_ = 0;
  std::uint64_t round_ = 0;
};

// ---- inline_driver: an operation of Asio's own epoll reactor ------------------------------

/* Why Asio's detail API (epoll_reactor, reactor_op, scheduler) rather than the public
   posix::stream_descriptor::async_wait of inline_portable: a public wait costs an
   epoll_ctl(MOD) per wait (Asio re-arms every non-speculative wait): half again a
   ping-pong's system calls. Our own operation stays queued on the port's descriptor while
   the port is empty (perform() says not_done), dequeues inside Asio's perform_io exactly
   when the descriptor is reported, and re-arms without a system call when the dequeue
   emptied the port (done_and_exhausted, as Asio's own reads do).

   Availability is decided from what the code uses, not from a version window:
   `asio_reactor_shape` (inline_driver_shape.hpp) checks every member, type and value this
   adapter names (they have had this shape from Boost 1.81 to 1.90 at least). A Boost
   where they differ gets inline_portable instead.

   perform_io and start_op of one descriptor never run at once: Asio's per-descriptor lock
   keeps them apart, or, where an io_context turns that lock off (concurrency hint
   BOOST_ASIO_CONCURRENCY_HINT_UNSAFE_IO, or from Boost 1.87 `reactor.io_locking=0`),
   Asio's rule for doing so: the io_context and its I/O objects (ours included) are used
   by one thread at a time. The waiter's own state is touched by perform and then by the
   completion, never by two threads at once either way. */
using asio_reactor = boost::asio::detail::epoll_reactor;
using asio_operation = boost::asio::detail::reactor_op;
using asio_scheduler = boost::asio::detail::scheduler;

template <class Reactor, class Operation, class Scheduler>
class asio_reactor_waiter final
    : public std::enable_shared_from_this<asio_reactor_waiter<Reactor, Operation, Scheduler>>
{
public:
  asio_reactor_waiter(boost::asio::io_context& ioc, port& p, packet_handler& handler,
                      std::size_t batch)
      : batch_(ioc, p, handler, batch), reactor_(boost::asio::use_service<Reactor>(ioc)),
        scheduler_(boost::asio::use_service<Scheduler>(ioc)), op_(*this)
  {
    reactor_.init_task();
    if (int err = reactor_.register_descriptor(p.native_handle(), descriptor_data_))
      throw boost::system::system_error(err, boost::system::system_category(),
                                        "boost::asio_notify::reactor: inline driver");
  }

  /// Queue the wait on the port's descriptor. `continuation`: called from our own
  /// completion, in a thread running the io_context.
  void arm(bool continuation)
  {
    op_.keep_alive = this->shared_from_this();
    reactor_.start_op(Reactor::read_op, batch_.the_port().native_handle(), descriptor_data_,
                      &op_, continuation, true);
    scheduler_.work_finished();
  }

  /// Take the wait out of Asio's reactor; it completes (aborted) or is destroyed later.
  /// The descriptor's state is released now, as Asio's own sockets release theirs on
  /// close: Asio's reactor frees every state it still holds when it shuts down.
  void stop()
  {
    stopped_ = true;
    reactor_.deregister_descriptor(batch_.the_port().native_handle(), descriptor_data_, false);
    reactor_.cleanup_descriptor_data(descriptor_data_);
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
      port_batch& batch = static_cast<wait_op*>(base)->waiter.batch_;
      if (!batch.dequeue_now())
        return Operation::not_done;
      return batch.exhausted() ? Operation::done_and_exhausted : Operation::done;
    }

    static void do_complete(void* owner, boost::asio::detail::scheduler_operation* base,
                            const boost::system::error_code& ec, std::size_t)
    {
      auto self = std::move(static_cast<wait_op*>(base)->keep_alive);
      if (owner && self) // else destroyed by the io_context's shutdown
        self->on_dequeued(ec);
    }

    asio_reactor_waiter& waiter;
    std::shared_ptr<asio_reactor_waiter> keep_alive;
  };

  void on_dequeued(const boost::system::error_code& ec)
  {
    scheduler_.work_started(); // for the scheduler's work_finished() after us
    if (ec || stopped_)
      return; // deregistered: the reactor is shutting down
    batch_.handle([this](bool continuation) { arm(continuation); });
  }

  port_batch batch_;
  Reactor& reactor_;
  Scheduler& scheduler_;
  typename Reactor::per_descriptor_data descriptor_data_ = nullptr;
  wait_op op_;
  bool stopped_ = false;
};

// ---- inline_portable: a public async_wait on the port's descriptor --------------------------

/* Built on Asio's public API alone, for a Boost whose reactor the adapter above does not
   recognise (and selectable, for tests and comparison). Costs one epoll_ctl per wake-up
   more than inline_driver, and a handler object per wait. The wait's count as work is
   taken back with the executor's on_work_finished(), a public member of io_context's
   executor that BOOST_ASIO_NO_TS_EXECUTORS removes: then this driver is unavailable
   (`has_work_counting`). */
template <class Executor>
class descriptor_waiter final : public std::enable_shared_from_this<descriptor_waiter<Executor>>
{
public:
  descriptor_waiter(boost::asio::io_context& ioc, port& p, packet_handler& handler,
                    std::size_t batch)
      : batch_(ioc, p, handler, batch), descriptor_(std::in_place, ioc, p.native_handle())
  {
  }

  void arm(bool)
  {
    descriptor_->async_wait(descriptor::wait_read,
                            [self = this->shared_from_this()](const boost::system::error_code& ec) {
                              self->on_ready(ec);
                            });
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
  Executor work() const { return batch_.context().get_executor(); }

  void on_ready(const boost::system::error_code& ec)
  {
    work().on_work_started(); // for the scheduler's count after this handler
    if (ec || stopped_)
      return;
    if (!batch_.dequeue_now())
      return arm(true); // nothing after all (another thread took it): wait again
    batch_.handle([this](bool continuation) { arm(continuation); });
  }

  // On the io_context's own executor type: no type-erased executor per wait.
  using descriptor = boost::asio::posix::basic_stream_descriptor<Executor>;

  port_batch batch_;
  std::optional<descriptor> descriptor_;
  bool stopped_ = false;
};

/// A driver around a waiter: arms it once, with the first operation to wait (its tracked
/// work keeps the io_context's count above zero while arm() takes the wait's back); from
/// then on the waiter re-arms itself.
template <class Waiter>
class inline_driver final : public reactor_driver
{
public:
  inline_driver(boost::asio::io_context& ioc, port& p, packet_handler& handler,
                const reactor_options& options)
      : waiter_(std::make_shared<Waiter>(ioc, p, handler, options.batch_size))
  {
  }

  ~inline_driver() override { stop(); }

  void operation_queued() override
  {
    if (!armed_once_.load(std::memory_order_acquire) && !armed_once_.exchange(true))
      waiter_->arm(false);
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

// The io_context behind an executor, where the executor says so through public API.
boost::asio::io_context* io_context_of(const boost::asio::any_io_executor& ex)
{
  using io_executor = boost::asio::io_context::executor_type;
  if (const auto* e = ex.target<io_executor>())
    return &e->context();
  if (const auto* s = ex.target<boost::asio::strand<io_executor>>())
    return &s->get_inner_executor().context();
  return nullptr;
}

// The inline driver `options.driver` asks for, or the next best one that this Boost and
// this io_context allow (options.driver says which); null where neither can run.
template <class Reactor, class Operation, class Scheduler, class Executor>
std::unique_ptr<reactor_driver> make_inline_driver(boost::asio::io_context& ioc,
                                                   reactor_options& options, port& p,
                                                   packet_handler& handler)
{
  if constexpr (asio_reactor_shape<Reactor, Operation, Scheduler>::value)
    if (options.driver == driver_kind::inline_driver)
      return std::make_unique<inline_driver<asio_reactor_waiter<Reactor, Operation, Scheduler>>>(
          ioc, p, handler, options);
  if constexpr (has_work_counting<Executor>::value)
  {
    options.driver = driver_kind::inline_portable;
    return std::make_unique<inline_driver<descriptor_waiter<Executor>>>(ioc, p, handler,
                                                                       options);
  }
  return nullptr;
}

#endif

} // namespace

std::unique_ptr<reactor_driver> make_driver(const boost::asio::any_io_executor& io_executor,
                                            reactor_options& options, port& p,
                                            packet_handler& handler)
{
#if defined(BOOST_ASIO_NOTIFY_HAS_INLINE_DRIVERS)
  if (options.driver != driver_kind::thread)
    if (boost::asio::io_context* ioc = io_context_of(io_executor))
      if (auto driver = make_inline_driver<asio_reactor, asio_operation, asio_scheduler,
                                           boost::asio::io_context::executor_type>(
              *ioc, options, p, handler))
        return driver;
#endif
  (void)io_executor;
  options.driver = driver_kind::thread;
  return std::make_unique<thread_driver>(p, handler, options);
}

} // namespace detail
} // namespace asio_notify
} // namespace boost
