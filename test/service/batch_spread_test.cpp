//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The work of a dequeued batch is spread over the execution context's threads (design.md,
// "Drivers"): the thread that dequeues does not perform the I/O of a whole batch by
// itself, reactor threads hand their batches to the context, and no packet is lost when a
// handler run inline throws.

#include "support/reactor_configs.hpp"
#include "support/wine.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/write.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

namespace an = boost::asio_notify;
namespace asio = boost::asio;
using boost::system::error_code;
using namespace test_support;

namespace {

constexpr int sockets = 16;
constexpr auto patience = std::chrono::seconds(10);
// A bound against a hang where many wake-ups must happen, not a measure of speed: under
// Wine each costs a trip through wineserver, and 2000 round trips took 4 to 10 s on a
// loaded machine.
constexpr auto long_patience = std::chrono::seconds(60);

/// `sockets` connected pairs; every `b` end has a byte waiting to be read once `ready()`.
struct ready_sockets
{
  explicit ready_sockets(asio::io_context& ioc)
  {
    for (int i = 0; i < sockets; ++i)
      pairs.push_back(std::make_unique<tcp_pair>(make_tcp_pair(ioc)));
  }

  /// Queue `handler(index, ec)` as an async_wait(wait_read) on every `b` end.
  template <class Handler>
  void wait_all(Handler handler)
  {
    for (int i = 0; i < sockets; ++i)
      pairs[i]->server.async_wait(tcp::socket::wait_read,
                                  [i, handler](error_code ec) mutable { handler(i, ec); });
  }

  /// Make every `b` end readable at once (before the io_context runs: one batch).
  void make_ready()
  {
    for (auto& p : pairs)
      asio::write(p->client, asio::buffer("x", 1));
  }

  std::vector<std::unique_ptr<tcp_pair>> pairs;
};

bool wait_until(const std::function<bool()>& done)
{
  const auto deadline = std::chrono::steady_clock::now() + patience;
  while (!done() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return done();
}

/// The thread driver with `reactor_threads` reactor threads, on `trigger`.
an::reactor_options thread_driver(an::trigger_strategy trigger, std::size_t reactor_threads = 1)
{
  an::reactor_options o;
  o.driver = an::driver_kind::thread;
  o.trigger = trigger;
  o.threads = reactor_threads;
  return o;
}

/// The triggers the thread driver is tested on: Microsoft's recommended one-shot level
/// registrations and the persistent edge ones.
constexpr an::trigger_strategy thread_driver_triggers[] = {an::trigger_strategy::oneshot_level,
                                                           an::trigger_strategy::persistent_edge};

void run_threads(asio::io_context& ioc, int n)
{
  std::vector<std::thread> threads;
  for (int i = 0; i < n; ++i)
    threads.emplace_back([&] { ioc.run_for(2 * patience); });
  for (auto& t : threads)
    t.join();
}

} // namespace

// The first handler blocks until another thread has performed a packet of the same batch:
// were the dequeuing thread to perform the whole batch itself, that could never happen
// while its handler blocks, and the test would fail after `patience`.
BOOST_AUTO_TEST_CASE(a_batch_is_performed_by_several_io_threads)
{
  for (const auto& o : all_configurations())
  {
    if (o.driver == an::driver_kind::io_context_port)
      continue; // no batches: each poll is its own completion, taken by any io thread
    BOOST_TEST_CONTEXT(describe(o))
    {
      asio::io_context ioc(4);
      an::reactor& r = install(ioc, o);
      ready_sockets s(ioc);
      std::atomic<int> invoked{0};
      std::atomic<int> errors{0}; // Boost.Test's checks are for the main thread only
      std::atomic<bool> first_seen{false};
      std::atomic<bool> shared_in_time{false};
      s.wait_all([&](int, error_code ec) {
        errors += ec ? 1 : 0;
        if (!first_seen.exchange(true))
          shared_in_time = wait_until([&] { return r.statistics().packets_handed_over > 0; });
        ++invoked;
      });
      s.make_ready();
      run_threads(ioc, 4);
      BOOST_TEST(shared_in_time.load());
      BOOST_TEST(errors == 0);
      BOOST_TEST(invoked == sockets);
      BOOST_TEST(r.statistics().packets_handed_over > 0u);
    }
  }
}

// A handler run inline (as the first finished handler of a packet is) throws out of
// io_context::run(); the packets of its batch not yet performed are performed when run()
// is called again, each handler exactly once.
BOOST_AUTO_TEST_CASE(a_throwing_handler_loses_no_packet_of_its_batch)
{
  for (const auto& o : all_configurations())
  {
    BOOST_TEST_CONTEXT(describe(o))
    {
      asio::io_context ioc(1);
      install(ioc, o);
      ready_sockets s(ioc);
      std::vector<std::atomic<int>> calls(sockets);
      std::atomic<bool> thrown{false};
      s.wait_all([&](int i, error_code ec) {
        BOOST_TEST(!ec);
        ++calls[static_cast<std::size_t>(i)];
        if (!thrown.exchange(true))
          throw std::runtime_error("handler failure");
      });
      s.make_ready();
      int exceptions = 0;
      const auto deadline = std::chrono::steady_clock::now() + patience;
      while (!ioc.stopped() && std::chrono::steady_clock::now() < deadline)
      {
        try
        {
          ioc.run_for(patience);
        }
        catch (const std::runtime_error&)
        {
          ++exceptions;
        }
      }
      BOOST_TEST(exceptions == 1);
      for (int i = 0; i < sockets; ++i)
        BOOST_TEST(calls[static_cast<std::size_t>(i)] == 1, "socket " << i);
    }
  }
}

// The thread driver's reactor threads only dequeue: the I/O is performed by the threads of
// the sockets' execution context, an io_context or a thread pool, several reactor threads
// sharing one port.
BOOST_AUTO_TEST_CASE(reactor_threads_hand_batches_to_the_sockets_context)
{
  for (const std::size_t reactor_threads : {std::size_t(1), std::size_t(4)})
    for (const auto trigger : thread_driver_triggers)
    {
      const an::reactor_options o = thread_driver(trigger, reactor_threads);
      BOOST_TEST_CONTEXT(describe(o) << ", " << reactor_threads << " reactor threads")
      {
        asio::thread_pool pool(2);
        an::reactor& r = asio::make_service<an::reactor>(pool, o);
        std::vector<std::unique_ptr<tcp::socket>> ends;
        tcp::acceptor acc(pool, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
        std::atomic<int> invoked{0};
        std::atomic<int> errors{0}; // Boost.Test's checks are for the main thread only
        for (int i = 0; i < sockets; ++i)
        {
          ends.push_back(std::make_unique<tcp::socket>(pool));
          ends.back()->connect(acc.local_endpoint());
          ends.push_back(std::make_unique<tcp::socket>(acc.accept()));
          ends.back()->async_wait(tcp::socket::wait_read, [&](error_code ec) {
            errors += ec ? 1 : 0;
            ++invoked;
          });
        }
        for (int i = 0; i < sockets; ++i)
          asio::write(*ends[static_cast<std::size_t>(2 * i)], asio::buffer("x", 1));
        BOOST_TEST(wait_until([&] { return invoked == sockets; }));
        BOOST_TEST(errors == 0);
        // The first batch comes from a reactor thread (no io thread has looked into the port
        // yet); later ones the pool's threads may take themselves (io_thread_looks).
        BOOST_TEST(r.statistics().packets_handed_over >= 1u);
        BOOST_TEST(r.options().threads == reactor_threads);
        ends.clear();
        pool.join();
      }
    }
}

// While the context's threads are busy, a reactor thread does not hand over one packet per
// wake-up: it waits until its last batch has been taken up, and the port gathers what
// becomes ready meanwhile into one batch. Sockets become ready one by one while the only io
// thread is blocked; without that wait each would be a wake-up of its own.
BOOST_AUTO_TEST_CASE(reactor_threads_gather_packets_while_the_context_is_busy,
                     *boost::unit_test::precondition(cooperative_port))
{
  for (const auto trigger : thread_driver_triggers)
  {
    const an::reactor_options o = thread_driver(trigger);
    BOOST_TEST_CONTEXT(describe(o))
    {
      asio::io_context ioc(1);
      an::reactor& r = install(ioc, o);
      ready_sockets s(ioc);
      std::atomic<int> invoked{0};
      s.wait_all([&](int, error_code) { ++invoked; });
      std::atomic<bool> busy{false}, release{false};
      asio::post(ioc, [&] {
        busy = true;
        wait_until([&] { return release.load(); });
      });
      std::thread io([&] { ioc.run_for(2 * patience); });
      BOOST_TEST(wait_until([&] { return busy.load(); }));
      std::this_thread::sleep_for(std::chrono::milliseconds(20)); // registrations' packets
      const std::uint64_t before = r.statistics().wakeups;
      for (auto& p : s.pairs)
      {
        asio::write(p->client, asio::buffer("x", 1));
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
      release = true;
      BOOST_TEST(wait_until([&] { return invoked == sockets; }));
      // One wake-up a packet would be 16; a quiet machine makes at most 3. Under Wine beside
      // the other Windows tests, where each system call goes through the wineserver, it made 4.
      const std::uint64_t most = under_wine() ? sockets / 2 - 1 : 3;
      BOOST_TEST(r.statistics().wakeups - before <= most);
      ioc.stop();
      io.join();
    }
  }
}

// An io thread that has done its share of a batch looks into the port itself: what its own
// handlers made ready (here the other end of a local exchange) is performed without a
// reactor thread's hand-over, and the two thread wake-ups that costs. Who takes a packet is
// a race with the reactor thread, which the port wakes too (an idle machine's io thread
// mostly wins it; a busy machine's reactor thread often does, cheaply then): so the test
// requires the looks, and reports what they found.
BOOST_AUTO_TEST_CASE(io_threads_take_what_their_own_handlers_made_ready)
{
  // Under Wine a round trip takes milliseconds (seconds for 2000 on an idle machine, more
  // than a minute on a loaded one): fewer there, the same checks.
  const int round_trips = under_wine() ? 300 : 2000;
  for (const auto trigger : thread_driver_triggers)
  {
    const an::reactor_options o = thread_driver(trigger);
    BOOST_TEST_CONTEXT(describe(o))
    {
      asio::io_context ioc(1);
      an::reactor& r = install(ioc, o);
      auto p = make_tcp_pair(ioc);
      char ping = 'p';
      char at_b = 0;
      char at_a = 0;
      int done = 0;
      error_code failed;
      // Each read is queued before the write it waits for: every one waits for a packet.
      std::function<void()> exchange = [&] {
        asio::async_read(p.server, asio::buffer(&at_b, 1), [&](error_code ec, std::size_t) {
          if (ec)
            return void(failed = ec);
          asio::async_read(p.client, asio::buffer(&at_a, 1), [&](error_code e, std::size_t) {
            if (e)
              return void(failed = e);
            if (++done < round_trips)
              exchange();
          });
          asio::async_write(p.server, asio::buffer(&at_b, 1),
                            [&](error_code e, std::size_t) { failed = e ? e : failed; });
        });
        asio::async_write(p.client, asio::buffer(&ping, 1),
                          [&](error_code ec, std::size_t) { failed = ec ? ec : failed; });
      };
      exchange();
      ioc.run_for(long_patience); // returns once the last round trip is done
      BOOST_TEST(!failed);
      BOOST_TEST(done == round_trips);
      const an::reactor_statistics st = r.statistics();
      BOOST_TEST_MESSAGE(describe(o)
                         << ": packets " << st.packets_dequeued << ", handed over "
                         << st.packets_handed_over << ", io thread looks " << st.io_thread_looks);
      BOOST_TEST(st.io_thread_looks > 0u);
      // Every packet a look did not find was handed over by the reactor thread, which lends
      // the port while the looks find packets: a few, where the io thread was kept from
      // looking for a whole patience (1 ms), not most. Under Wine, where each system call
      // goes through the wineserver, a loaded machine keeps it from looking that long for
      // a third to two thirds of the packets (once 1 of 600 on a quiet one): there the
      // lease only shortens the round trip.
      BOOST_TEST(st.packets_handed_over <= st.packets_dequeued);
      if (!under_wine())
        BOOST_TEST(st.packets_handed_over * 4 <= st.packets_dequeued);
    }
  }
}

BOOST_AUTO_TEST_CASE(the_default_number_of_reactor_threads_follows_the_cores)
{
  const std::size_t cores = std::thread::hardware_concurrency();
  const std::size_t n = an::default_reactor_threads();
  BOOST_TEST(n >= 1u);
  BOOST_TEST(n <= 4u);
  BOOST_TEST(n == (cores < 16 ? 1u : std::min<std::size_t>(cores / 8, 4)));
  BOOST_TEST(an::reactor_options().threads == n);
}

// A closed socket's slot is reused at once, whatever packets for it are still on their way
// (its key's generation changes with the close): sockets opened and closed one after the
// other, each registered, take the slots of the first ones however many there are, also
// with four reactor threads dequeuing.
BOOST_AUTO_TEST_CASE(closed_sockets_slots_are_reused_at_once)
{
  for (const auto trigger : thread_driver_triggers)
  {
    const an::reactor_options o = thread_driver(trigger, 4);
    BOOST_TEST_CONTEXT(describe(o))
    {
      asio::io_context ioc(1);
      an::reactor& r = install(ioc, o);
      auto work = asio::make_work_guard(ioc);
      std::thread io([&] { ioc.run_for(2 * patience); });
      {
        auto p = make_tcp_pair(ioc);
        std::atomic<bool> readable{false};
        p.server.async_wait(tcp::socket::wait_read, [&](error_code) { readable = true; });
        asio::write(p.client, asio::buffer("x", 1));
        BOOST_TEST(wait_until([&] { return readable.load(); })); // p.server is registered
        std::atomic<bool> closed{false}; // orders the close before p's destruction here
        asio::post(ioc, [&] {
          p.server.close();
          closed = true;
        });
        BOOST_TEST(wait_until([&] { return closed.load(); }));
        BOOST_TEST(r.statistics().registered_sockets == 0u);
      }
      std::uint64_t after_first = 0;
      for (int i = 0; i < 200; ++i)
      {
        {
          auto q = make_tcp_pair(ioc);
          std::atomic<bool> ready{false};
          q.server.async_wait(tcp::socket::wait_read, [&](error_code) { ready = true; });
          asio::write(q.client, asio::buffer("x", 1));
          BOOST_TEST_REQUIRE(wait_until([&] { return ready.load(); }));
        }
        if (i == 0)
          after_first = r.statistics().socket_states_allocated;
      }
      // As many slots as sockets were open at once (three at most; p's two were closed).
      BOOST_TEST(after_first > 0u);
      BOOST_TEST(after_first <= 3u);
      BOOST_TEST(r.statistics().socket_states_allocated == after_first);
      work.reset();
      ioc.stop();
      io.join();
    }
  }
}
