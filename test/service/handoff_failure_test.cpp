//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The thread driver's hand-off when memory runs out (doc/design.md, "Exception safety"): a
// batch whose worker cannot be posted, an io thread's look whose allocation fails, and a
// driver whose second reactor thread cannot start lose no packet, leak no hand-off and end
// in an exception, not in terminate(). The driver's parts are taken one at a time (src/),
// with a recording reactor (the thread driver's construction with a real one), so that
// each failure is injected where it is meant.
#include "drivers/io_thread_dequeuer.hpp"
#include "drivers/reactor_driver.hpp"
#include "drivers/shared_batch.hpp"
#include "reactor/reactor_impl.hpp"

#include "support/gated_executor.hpp"
#include "support/replaced_new_delete.hpp"
#include "support/tcp_pair.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <future>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

// ---- allocations that fail on one thread, when armed -----------------------------------------

namespace {

// Allocations this thread makes before one fails; -1: none fails.
thread_local long allocations_before_failure = -1;

} // namespace

void* test_support::replaced_allocate(std::size_t n)
{
  if (allocations_before_failure >= 0 && allocations_before_failure-- == 0)
    throw std::bad_alloc();
  return malloc_or_throw(n);
}

void test_support::replaced_release(void* p) noexcept { std::free(p); }

namespace {

namespace an = boost::asio_notify;
namespace asio = boost::asio;
namespace detail = boost::asio_notify::detail;
using tcp = asio::ip::tcp;

/// A reactor for the driver's parts (their `Reactor`) that records the keys of the packets
/// it is given and finishes no operation.
class recording_handler final
{
public:
  recording_handler() { keys_.reserve(64); } // recording allocates nothing
  void handle(const an::packet& p, detail::op_queue&)
  {
    std::lock_guard<std::mutex> lock(mutex_);
    keys_.push_back(p.key);
  }
  /// Throws, when asked to, as a handler called from inside it may.
  void complete(detail::op_queue&, detail::completion_mode, detail::completion_mode)
  {
    if (throw_from_complete)
      throw std::runtime_error("a handler threw");
  }

  detail::reactor_counters counters;
  bool throw_from_complete = false;

  std::vector<void*> keys() const
  {
    std::lock_guard<std::mutex> lock(mutex_);
    return keys_;
  }

private:
  mutable std::mutex mutex_;
  std::vector<void*> keys_;
};

/// Counts the threads that said they had done their share of a batch.
struct counting_hook final : detail::batch_done_hook
{
  void batch_done() noexcept override { ++told; }
  std::atomic<int> told{0};
};

/// Refuses one execution, the `refused`th, with bad_alloc (an executor out of memory).
struct refuse_one
{
  int refused;
  std::shared_ptr<std::atomic<int>> calls = std::make_shared<std::atomic<int>>(0);
  void operator()() const
  {
    if (++*calls == refused)
      throw std::bad_alloc();
  }
};

asio::any_io_executor refusing(asio::io_context& ioc, int refused)
{
  return test_support::gated_executor<refuse_one>(ioc.get_executor(), refuse_one{refused});
}

constexpr int batch = 8;

std::vector<an::packet> notifications(int (&keys)[batch])
{
  std::vector<an::packet> io(batch);
  for (int i = 0; i < batch; ++i)
  {
    io[i].kind = an::packet_kind::notification;
    io[i].key = &keys[i];
    io[i].events = an::events::in;
  }
  return io;
}

/// Each of `keys` handled exactly once.
void check_each_handled_once(const recording_handler& h, int (&keys)[batch])
{
  const std::vector<void*> got = h.keys();
  BOOST_TEST(got.size() == std::size_t(batch));
  const std::set<void*> distinct(got.begin(), got.end());
  BOOST_TEST(distinct.size() == std::size_t(batch));
  for (int& k : keys)
    BOOST_TEST(distinct.count(&k) == 1u);
}

} // namespace

BOOST_AUTO_TEST_SUITE(handoff_failure)

// An io thread that claims the first packet of a batch of 8 cannot post a worker for the
// rest: it performs them itself.
BOOST_AUTO_TEST_CASE(a_batch_whose_worker_cannot_be_posted_loses_no_packet)
{
  asio::io_context ioc;
  recording_handler h;
  int keys[batch];
  const detail::batch_target to{detail::batch_site::this_thread, refusing(ioc, 1), nullptr,
                                nullptr};
  detail::perform_dequeued(h, notifications(keys), to);
  ioc.run();
  check_each_handled_once(h, keys);
}

// A reactor thread's batch is handed over, and the io thread that takes it up cannot post a
// worker: every packet is performed and the hand-off is taken up, so a reactor thread that
// waits for room (threads=1) is not blocked for good.
BOOST_AUTO_TEST_CASE(a_handed_over_batch_whose_worker_cannot_be_posted_loses_no_packet)
{
  asio::io_context ioc;
  recording_handler h;
  int keys[batch];
  auto gate = std::make_shared<detail::handoff_gate>(1);
  // The hand-over's post is taken; the worker's own invitation is refused.
  const detail::batch_target to{detail::batch_site::context, refusing(ioc, 2), gate, nullptr};
  detail::perform_dequeued(h, notifications(keys), to);
  ioc.run();
  check_each_handled_once(h, keys);
  // A reactor thread finds room at once: the batch was taken up.
  auto reactor_thread = std::async(std::launch::async, [&] { return gate->wait_for_room(); });
  const bool room = reactor_thread.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
  gate->open();
  BOOST_TEST(room);
  BOOST_TEST(!reactor_thread.get());
}

// An io thread's look into the port, the Nth of its allocations failing, for every N: what
// it dequeued is performed (one-shot registrations do not queue it again), and the next
// batch may look again. Each look runs on a new thread, whose buffers are not yet made.
BOOST_AUTO_TEST_CASE(a_look_whose_allocation_fails_loses_no_packet)
{
  bool failed = true;
  for (long n = 0; failed; ++n)
  {
    BOOST_TEST_CONTEXT("allocation " << n << " fails")
    {
      asio::io_context ioc;
      an::port p;
      recording_handler h;
      char exit_key = 0;
      detail::io_thread_dequeuer<recording_handler> look(p, h, 16, ioc.get_executor(), &exit_key);
      std::vector<test_support::basic_tcp_pair<tcp::socket>> pairs;
      int keys[batch];
      for (int& k : keys)
      {
        pairs.push_back(test_support::make_basic_tcp_pair<tcp>(ioc));
        asio::write(pairs.back().client, asio::buffer("x", 1));
        an::registration r;
        r.socket = static_cast<an::native_socket_type>(pairs.back().server.native_handle());
        r.key = &k;
        r.filter = an::events::in;
        r.operation = an::operation::enable;
        r.triggers = an::trigger::level | an::trigger::oneshot;
        BOOST_TEST_REQUIRE(!p.apply(r));
      }
      bool threw = false;
      look.batch_done();
      std::thread([&] {
        allocations_before_failure = n;
        try
        {
          ioc.run();
        }
        catch (const std::bad_alloc&)
        {
          threw = true;
        }
        failed = allocations_before_failure < 0;
        allocations_before_failure = -1;
      }).join();
      BOOST_TEST((!threw || failed));
      look.batch_done(); // the next batch's look: it finds what is left
      ioc.restart();
      std::thread([&] { ioc.run(); }).join();
      check_each_handled_once(h, keys);
      look.stop();
    }
  }
}

// A thread driver with 2 reactor threads, the Nth allocation of its construction failing
// for every N (the second thread's among them): it ends in bad_alloc, having stopped the
// threads it started, and never in terminate().
BOOST_AUTO_TEST_CASE(a_thread_driver_whose_thread_cannot_start_throws)
{
  asio::io_context ioc;
  an::port p;
  an::reactor_options options;
  options.threads = 2;
  detail::driven_reactor reactor(options); // what the driver's threads would hand packets to
  bool failed = true;
  for (long n = 0; failed; ++n)
  {
    BOOST_TEST_CONTEXT("allocation " << n << " fails")
    {
      std::unique_ptr<detail::reactor_driver> driver;
      allocations_before_failure = n;
      try
      {
        driver = detail::make_thread_driver(p, reactor, options, ioc.get_executor());
      }
      catch (const std::bad_alloc&)
      {
      }
      failed = allocations_before_failure < 0;
      allocations_before_failure = -1;
      BOOST_TEST(bool(driver) != failed);
    }
  }
}

// A handler that throws out of an io thread's share of a batch (called directly, inside
// the reactor's completion) still lets the thread tell it has done its share: the next look
// into the port is not left to a reactor thread's patience. One packet (performed in
// place) and a batch of 8 (shared).
BOOST_AUTO_TEST_CASE(a_share_a_handler_throws_out_of_is_still_done)
{
  for (const int packets : {1, batch})
  {
    BOOST_TEST_CONTEXT(packets << " packets")
    {
      asio::io_context ioc;
      recording_handler h;
      h.throw_from_complete = true;
      counting_hook hook;
      int keys[batch];
      std::vector<an::packet> io = notifications(keys);
      io.resize(static_cast<std::size_t>(packets));
      const detail::batch_target to{detail::batch_site::this_thread, ioc.get_executor(), nullptr,
                                    &hook};
      BOOST_CHECK_THROW(detail::perform_dequeued(h, io, to), std::runtime_error);
      for (;;) // the shared batch's workers throw out of run() too
      {
        try
        {
          ioc.run();
          break;
        }
        catch (const std::runtime_error&)
        {
        }
      }
      BOOST_TEST(hook.told.load() >= 1);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
