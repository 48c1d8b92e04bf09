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
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/strand.hpp>

#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

namespace boost {
namespace asio_notify {
namespace detail {

namespace {

// One dequeue and the handling of what it returned. Returns the number of packets.
std::size_t run_round(port& p, packet_handler& handler, std::vector<packet>& buffer,
                      std::chrono::milliseconds timeout, const void* exit_key, bool& exit_seen)
{
  const std::uint64_t round = handler.begin_round();
  boost::system::error_code ec;
  const std::size_t n = p.dequeue(buffer, timeout, ec);
  handler.dequeued(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    if (buffer[i].kind == packet_kind::user && buffer[i].key == exit_key)
      exit_seen = true;
    else
      handler.handle(buffer[i]);
  }
  handler.end_round(round);
  if (ec && n == 0) // cannot happen short of a broken port: do not spin on it
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return n;
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
      run_round(port_, handler_, buffer, port::infinite, &exit_key_, exit_seen);
    port_.post(&exit_key_, 0); // pass the exit on to the next thread
  }

  port& port_;
  packet_handler& handler_;
  std::mutex stop_mutex_;
  std::vector<std::thread> threads_;
  char exit_key_ = 0;
};

#if defined(BOOST_ASIO_HAS_POSIX_STREAM_DESCRIPTOR) && !defined(BOOST_ASIO_NO_TS_EXECUTORS)
#define BOOST_ASIO_NOTIFY_HAS_INLINE_DRIVER 1

/* The io_context's threads wait for the port's descriptor with async_wait and dequeue
   without blocking. One wait is kept pending from the first operation on, re-armed
   before each dequeue so no readiness is missed (Asio registers descriptors
   edge-triggered, so a wait started after the last dequeue could miss an edge).

   That wait must not keep io_context::run() from returning when no operation is pending,
   just as Asio's own reactor task does not count as work: each arm is balanced with
   on_work_finished() and each completion with on_work_started() (public executor API). */
class inline_driver final : public reactor_driver
{
public:
  inline_driver(boost::asio::io_context& ioc, port& p, packet_handler& handler,
                const reactor_options& options)
      : ioc_(ioc), port_(p), handler_(handler), descriptor_(ioc, p.native_handle()),
        batch_(options.batch_size)
  {
  }

  ~inline_driver() override { stop(); }

  void operation_queued() override
  {
    // The first arm waits for an operation: its tracked work keeps the count above zero
    // while on_work_finished() balances the wait.
    if (!armed_once_.load(std::memory_order_acquire) && !armed_once_.exchange(true))
      arm();
  }

  void stop() override
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopped_)
      return;
    stopped_ = true;
    descriptor_.release(); // the port owns the descriptor
  }

private:
  void arm()
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopped_)
      return;
    descriptor_.async_wait(boost::asio::posix::stream_descriptor::wait_read,
                           [this](const boost::system::error_code& ec) { on_ready(ec); });
    ioc_.get_executor().on_work_finished();
  }

  void on_ready(const boost::system::error_code& ec)
  {
    ioc_.get_executor().on_work_started();
    if (ec)
      return;
    arm();
    thread_local std::vector<packet> buffer;
    buffer.resize(batch_);
    bool exit_seen = false;
    while (run_round(port_, handler_, buffer, std::chrono::milliseconds(0), nullptr, exit_seen) == batch_)
    {
    }
  }

  boost::asio::io_context& ioc_;
  port& port_;
  packet_handler& handler_;
  boost::asio::posix::stream_descriptor descriptor_;
  const std::size_t batch_;
  std::mutex mutex_;
  bool stopped_ = false;
  std::atomic<bool> armed_once_{false};
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
