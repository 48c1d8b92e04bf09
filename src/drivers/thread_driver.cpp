//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The thread driver: reactor threads block in the port and hand what they dequeue to the
// context's threads. Why: doc/design.md, "thread (the Windows default)".

#include "exception_mailbox.hpp"
#include "io_thread_dequeuer.hpp"
#include "reactor_driver.hpp"
#include "shared_batch.hpp"
#include "../reactor/reactor_impl.hpp"

#include <boost/asio/error.hpp>

#include <chrono>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace boost {
namespace asio_notify {
namespace detail {

namespace {

class thread_driver final : public reactor_driver
{
public:
  thread_driver(port& p, driven_reactor& reactor, const reactor_options& options,
                boost::asio::any_io_executor context_executor)
      : port_(p), reactor_(reactor), batch_size_(options.batch_size),
        io_dequeuer_(p, reactor, options.batch_size, context_executor, &exit_key_, &lease_),
        target_{context_executor ? batch_site::context : batch_site::reactor_thread,
                context_executor, std::make_shared<handoff_gate>(options.threads), &io_dequeuer_,
                context_executor ? &lease_ : nullptr}
  {
    try
    {
      threads_.reserve(options.threads);
      for (std::size_t i = 0; i < options.threads; ++i)
        threads_.emplace_back([this, b = std::make_unique<buffers>(batch_size_)] { run(*b); });
    }
    catch (...)
    {
      stop(); // the threads that did start use `this`: they end before it does
      throw;
    }
  }

  ~thread_driver() override { stop(); }

  // The reactor threads dequeue from the start: nothing to arm.
  bool operation_queued() override { return false; }

  void stop() override
  {
    std::lock_guard<std::mutex> lock(stop_mutex_);
    io_dequeuer_.stop();
    lease_.close(); // a reactor thread waiting for a look goes back to the port
    if (threads_.empty())
      return;
    target_.gate->open(); // a context that no longer runs must not hold a thread back
    post_exit(port_, &exit_key_);
    for (std::thread& t : threads_)
      t.join();
    threads_.clear();
  }

private:
  // Made before the thread starts, so that a reactor thread never allocates to partition.
  struct buffers
  {
    explicit buffers(std::size_t batch) : dequeued(batch) { io.reserve(batch); }
    std::vector<packet> dequeued;
    std::vector<packet> io;
  };

  void run(buffers& b)
  {
    bool exit_seen = false;
    while (!exit_seen)
    {
      boost::system::error_code ec;
      std::size_t n = dequeue(b, ec);
      reactor_.counters.dequeued(n);
      exit_seen = partition_dequeued(reactor_, b.dequeued.data(), n, &exit_key_, b.io);
      try
      {
        perform_dequeued(reactor_, b.io, target_);
      }
      catch (...)
      {
        deliver(std::current_exception());
      }
      if (ec && n == 0) // cannot happen short of a broken port: do not spin on it
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    post_exit(port_, &exit_key_); // pass the exit on to the next thread
  }

  // The ports report failures as error codes; an exception all the same (a port that ran
  // out of memory) goes to run() like any other, rather than end the process.
  std::size_t dequeue(buffers& b, boost::system::error_code& ec) noexcept
  {
    std::size_t n = 0;
    try
    {
      lease_.wait_for_return();
      n = port_.dequeue(b.dequeued, port::infinite, ec);
      if (target_.gate->wait_for_room() && n < batch_size_) // what became ready meanwhile
        n += port_.dequeue(boost::span<packet>(b.dequeued).subspan(n), std::chrono::milliseconds(0),
                           ec);
    }
    catch (...)
    {
      deliver(std::current_exception());
      ec = boost::asio::error::no_memory;
    }
    return n;
  }

  // An exception on a reactor thread (an executor that refused a handler, which went with
  // its operation) is rethrown from the io_context's run(), as Asio's would be; the thread
  // goes on. Without an io_context to give it to it is dropped.
  void deliver(std::exception_ptr e) noexcept
  {
    if (target_.executor)
      thrown_->deliver(std::move(e), target_.executor);
  }

  port& port_;
  driven_reactor& reactor_;
  const std::size_t batch_size_;
  char exit_key_ = 0;
  port_lease lease_; // lent to the io threads with each batch handed over
  io_thread_dequeuer<driven_reactor> io_dequeuer_; // what an io thread does after its share
  const batch_target target_;                      // a reactor thread's batches: to the context
  // Made before the threads: it delivers their exceptions without allocating.
  const std::shared_ptr<exception_mailbox> thrown_ = std::make_shared<exception_mailbox>();
  std::mutex stop_mutex_;
  std::vector<std::thread> threads_;
};

} // namespace

std::unique_ptr<reactor_driver> make_thread_driver(port& p, driven_reactor& reactor,
                                                   const reactor_options& options,
                                                   boost::asio::any_io_executor context_executor)
{
  return std::make_unique<thread_driver>(p, reactor, options, std::move(context_executor));
}

} // namespace detail
} // namespace asio_notify
} // namespace boost
