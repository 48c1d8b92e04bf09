//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The two drivers: reactor threads blocking in the port, or the io_context's own threads
// waiting for the port's descriptor through the io_context itself.

#include "reactor_driver.hpp"

#include <boost/asio/error.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <boost/system/system_error.hpp>
#include <boost/version.hpp>

#if defined(BOOST_ASIO_HAS_EPOLL)
// Asio's reactor interface: see the inline driver below for why.
#include <boost/asio/detail/epoll_reactor.hpp>
#include <boost/asio/detail/reactor_op.hpp>
#endif

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
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

#if defined(BOOST_ASIO_HAS_EPOLL) && !defined(BOOST_ASIO_HAS_IO_URING_AS_DEFAULT) \
    && !defined(BOOST_ASIO_NO_TS_EXECUTORS) && BOOST_VERSION >= 108100 && BOOST_VERSION < 108400
#define BOOST_ASIO_NOTIFY_HAS_INLINE_DRIVER 1

/* The io_context's own threads dequeue the port when its descriptor is readable, as seen by
   the io_context's reactor: no thread of ours, no thread switch, the first finished
   operation's handler run inline as Asio runs its own.

   Why Asio's detail API (epoll_reactor, reactor_op) rather than the public
   posix::stream_descriptor::async_wait: a public wait costs an epoll_ctl(MOD) per wait
   (Asio re-arms every non-speculative wait) and completes through a posted handler, which
   makes the io_context poll its epoll once more before any of our handlers runs: three
   system calls per wake-up, half again a ping-pong's count. Our own operation stays queued
   on the port's descriptor while the port is empty (perform() says not_done), dequeues
   inside Asio's perform_io exactly when the descriptor is reported, and re-arms without a
   system call when the dequeue emptied the port (done_and_exhausted, as Asio's own reads
   do). The members used (init_task, register_descriptor, start_op, deregister_descriptor,
   cleanup_descriptor_data, reactor_op) have this shape in Boost 1.81 to 1.83; with other
   versions the reactor uses the thread driver.

   The wait is not work, just as Asio's reactor task is not: each start_op's count is
   balanced with on_work_finished() and each completion with on_work_started(). */
class port_waiter final : public std::enable_shared_from_this<port_waiter>
{
  using asio_reactor = boost::asio::detail::epoll_reactor;

public:
  port_waiter(boost::asio::io_context& ioc, port& p, packet_handler& handler,
              std::size_t batch)
      : ioc_(ioc), reactor_(boost::asio::use_service<asio_reactor>(ioc)), port_(p),
        handler_(handler), op_(*this), packets_(batch)
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
    op_.keep_alive = shared_from_this();
    reactor_.start_op(asio_reactor::read_op, port_.native_handle(), descriptor_data_, &op_,
                      continuation, true);
    ioc_.get_executor().on_work_finished();
  }

  /// Take the wait out of Asio's reactor; it completes (aborted) or is destroyed later.
  /// The descriptor's state is released now, as Asio's own sockets release theirs on
  /// close: Asio's reactor frees every state it still holds when it shuts down.
  void stop()
  {
    stopped_ = true;
    reactor_.deregister_descriptor(port_.native_handle(), descriptor_data_, false);
    reactor_.cleanup_descriptor_data(descriptor_data_);
  }

private:
  // The operation Asio's reactor holds; it keeps the waiter alive while Asio has it.
  struct wait_op final : boost::asio::detail::reactor_op
  {
    explicit wait_op(port_waiter& w)
        : reactor_op(boost::system::error_code(), &do_perform, &do_complete), waiter(w)
    {
    }

    static status do_perform(reactor_op* base)
    {
      return static_cast<wait_op*>(base)->waiter.dequeue();
    }

    static void do_complete(void* owner, boost::asio::detail::scheduler_operation* base,
                            const boost::system::error_code& ec, std::size_t)
    {
      std::shared_ptr<port_waiter> self = std::move(static_cast<wait_op*>(base)->keep_alive);
      if (owner && self) // else destroyed by the io_context's shutdown
        self->on_dequeued(ec);
    }

    port_waiter& waiter;
    std::shared_ptr<port_waiter> keep_alive;
  };

  // In Asio's perform_io, under its descriptor lock: dequeue without waiting. Fewer
  // packets than asked means the port had nothing more (the epoll port polls again
  // rather than return a short batch while more may be ready).
  boost::asio::detail::reactor_op::status dequeue()
  {
    round_ = handler_.begin_round();
    boost::system::error_code ec;
    count_ = port_.dequeue(packets_, std::chrono::milliseconds(0), ec);
    handler_.dequeued(count_);
    if (count_ == 0)
    {
      handler_.end_round(round_);
      return boost::asio::detail::reactor_op::not_done;
    }
    return count_ < packets_.size() ? boost::asio::detail::reactor_op::done_and_exhausted
                                    : boost::asio::detail::reactor_op::done;
  }

  void on_dequeued(const boost::system::error_code& ec)
  {
    ioc_.get_executor().on_work_started(); // for the scheduler's work_finished() after us
    if (ec || stopped_)
      return; // deregistered: the reactor is shutting down
    // Re-arm before handling the packets, so that another thread can dequeue and handle
    // the next batch meanwhile; a full batch is dequeued again at once and its completion
    // goes to the shared queue (not a continuation) for an idle thread to take.
    thread_local std::vector<packet> batch;
    batch.assign(packets_.begin(), packets_.begin() + static_cast<std::ptrdiff_t>(count_));
    const std::uint64_t round = round_;
    arm(count_ < packets_.size());
    op_queue done;
    bool exit_seen = false; // this driver posts no exit packet
    handle_packets(handler_, batch.data(), batch.size(), round, nullptr, exit_seen, done);
    handler_.complete(done, completion_mode::dispatch);
  }

  boost::asio::io_context& ioc_;
  asio_reactor& reactor_;
  port& port_;
  packet_handler& handler_;
  asio_reactor::per_descriptor_data descriptor_data_ = nullptr;
  wait_op op_;
  std::vector<packet> packets_;
  std::size_t count_ = 0;
  std::uint64_t round_ = 0;
  bool stopped_ = false;
};

class inline_driver final : public reactor_driver
{
public:
  inline_driver(boost::asio::io_context& ioc, port& p, packet_handler& handler,
                const reactor_options& options)
      : waiter_(std::make_shared<port_waiter>(ioc, p, handler, options.batch_size))
  {
  }

  ~inline_driver() override { stop(); }

  void operation_queued() override
  {
    // Armed once, by the first operation to wait: its tracked work keeps the count above
    // zero while arm() balances the wait's. From then on the wait re-arms itself.
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
  std::shared_ptr<port_waiter> waiter_;
  std::atomic<bool> armed_once_{false};
  bool stopped_ = false;
};
#endif

} // namespace

#if defined(BOOST_ASIO_NOTIFY_HAS_INLINE_DRIVER)
namespace {

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

} // namespace
#endif

std::unique_ptr<reactor_driver> make_driver(const boost::asio::any_io_executor& io_executor,
                                            reactor_options& options, port& p,
                                            packet_handler& handler)
{
#if defined(BOOST_ASIO_NOTIFY_HAS_INLINE_DRIVER)
  if (options.driver == driver_kind::inline_driver)
    if (boost::asio::io_context* ioc = io_context_of(io_executor))
      return std::make_unique<inline_driver>(*ioc, p, handler, options);
#endif
  (void)io_executor;
  options.driver = driver_kind::thread;
  return std::make_unique<thread_driver>(p, handler, options);
}

} // namespace detail
} // namespace asio_notify
} // namespace boost
