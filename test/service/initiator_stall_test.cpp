//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Asio's rule for an initiating function: once its operation is queued, it touches nothing,
// since the operation's handler may run on another thread and end the program's use of the
// socket and its io_context (the last step of a composed operation). The test stops an
// initiating thread right after its last mutex release, lets the main thread complete the
// operation and destroy the socket and the io_context, then lets the initiator go on: freed
// memory is filled with a pattern that faults when read as a pointer. Linux only, and left
// out of the ThreadSanitizer build: it takes glibc's pthread_mutex_lock and _unlock, which
// ThreadSanitizer intercepts too.

#include "support/reactor_configs.hpp"
#include "support/replaced_new_delete.hpp"

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/test/unit_test.hpp>

#include <dlfcn.h>
#include <malloc.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <new>
#include <optional>
#include <thread>

// ---- a thread that stops at each release of its last mutex, when armed ------------------------

namespace {

using namespace std::chrono_literals;

// Whether this thread stops at each release that leaves it holding none of the mutexes it
// took since it was armed; how many it holds.
thread_local bool stops_at_last_release = false;
thread_local int mutexes_held = 0;

// The armed thread's stops so far, and how many of them the main thread has ended.
std::atomic<int> stops{0};
std::atomic<int> resumes{0};

using mutex_function = int (*)(pthread_mutex_t*);

/// glibc's `name`, which this program replaces (found once; finding it again is harmless).
mutex_function glibc_function(std::atomic<mutex_function>& cached, const char* name) noexcept
{
  mutex_function f = cached.load(std::memory_order_acquire);
  if (!f)
  {
    f = reinterpret_cast<mutex_function>(dlsym(RTLD_NEXT, name));
    cached.store(f, std::memory_order_release);
  }
  return f;
}

std::atomic<mutex_function> glibc_lock{nullptr};
std::atomic<mutex_function> glibc_unlock{nullptr};

void stop_until_resumed() noexcept
{
  int stop = ++stops;
  while (resumes < stop)
    std::this_thread::sleep_for(1ms);
}

} // namespace

extern "C" int pthread_mutex_lock(pthread_mutex_t* m) noexcept
{
  int result = glibc_function(glibc_lock, "pthread_mutex_lock")(m);
  if (result == 0 && stops_at_last_release)
    ++mutexes_held;
  return result;
}

extern "C" int pthread_mutex_unlock(pthread_mutex_t* m) noexcept
{
  int result = glibc_function(glibc_unlock, "pthread_mutex_unlock")(m);
  if (stops_at_last_release && mutexes_held > 0 && --mutexes_held == 0)
    stop_until_resumed();
  return result;
}

// ---- freed memory kept and filled with a faulting pattern, when armed ------------------------

namespace {

std::atomic<bool> poison_freed{false};
void* kept_blocks[16384];
std::atomic<std::size_t> kept_count{0};

void release(void* p) noexcept
{
  if (p && poison_freed.load(std::memory_order_relaxed))
  {
    std::size_t i = kept_count.fetch_add(1);
    if (i < std::size(kept_blocks))
    {
      // 0xA5 repeated is a non-canonical address on x86-64 and unmapped elsewhere.
      std::memset(p, 0xA5, malloc_usable_size(p));
      kept_blocks[i] = p;
      return;
    }
  }
  std::free(p);
}

void free_kept_blocks() noexcept
{
  std::size_t n = std::min(kept_count.exchange(0), std::size(kept_blocks));
  for (std::size_t i = 0; i < n; ++i)
    std::free(kept_blocks[i]);
}

} // namespace

void* test_support::replaced_allocate(std::size_t n) { return malloc_or_throw(n); }
void test_support::replaced_release(void* p) noexcept { release(p); }

namespace {

namespace an = boost::asio_notify;
namespace asio = boost::asio;
using tcp = an::ip::tcp;

/// Waits up to `limit` for `done()`; whether it came.
template <class Done>
bool wait_for(Done done, std::chrono::milliseconds limit)
{
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(1ms);
  return done();
}

/// What the thread under test does: start the wait, or cancel the wait the main thread
/// started.
enum class initiator_does
{
  the_wait,
  a_cancel
};

/// Where the wait's handler runs: on the io_context, or on a strand of it (an aborted
/// operation then hops through the io_context before the strand runs its handler).
enum class handler_runs
{
  on_the_io_context,
  on_a_strand
};

/** One configuration: the thread under test stops at each release of its last mutex. At
    its first stop the main thread makes the socket readable (for the wait); at each it
    polls the io_context (not run: a thread waiting in it would be signalled after the
    unlock, which Asio's own post does); once the handler has run, it destroys the socket
    and the io_context, and lets the thread go on. Returns the handler's error code. */
boost::system::error_code
run_stalled_initiation(const an::reactor_options& o, initiator_does what,
                       handler_runs where = handler_runs::on_the_io_context)
{
  stops = 0;
  resumes = 0;
  // On the heap, where its memory is filled when freed.
  auto ioc = std::make_unique<asio::io_context>();
  test_support::install(*ioc, o);
  std::optional<test_support::tcp_pair> pair(test_support::make_tcp_pair(*ioc));
  std::optional<asio::strand<asio::io_context::executor_type>> strand(asio::make_strand(*ioc));
  std::atomic<bool> handled{false};
  std::atomic<bool> returned{false};
  boost::system::error_code result;
  auto handler = [&](boost::system::error_code ec) {
    result = ec;
    handled = true;
  };
  auto start_wait = [&] {
    if (where == handler_runs::on_a_strand)
      pair->server.async_wait(tcp::socket::wait_read, asio::bind_executor(*strand, handler));
    else
      pair->server.async_wait(tcp::socket::wait_read, handler);
  };
  if (what == initiator_does::a_cancel)
    start_wait();
  std::thread initiator([&] {
    stops_at_last_release = true;
    mutexes_held = 0;
    if (what == initiator_does::the_wait)
      start_wait();
    else
      pair->server.cancel();
    stops_at_last_release = false;
    returned = true;
  });
  bool handled_while_stopped = false;
  for (int stop = 1; !handled_while_stopped; ++stop)
  {
    if (!wait_for([&] { return stops >= stop || returned; }, 10s) || stops < stop)
      break; // the initiator returned (or hangs): its operation never ran while it stood
    if (stop == 1 && what == initiator_does::the_wait)
    {
      char byte = 'x';
      asio::write(pair->client, asio::buffer(&byte, 1));
    }
    handled_while_stopped = wait_for(
        [&] {
          ioc->restart(); // a poll that finds no work stops the io_context
          ioc->poll();
          return handled.load();
        },
        200ms);
    if (handled_while_stopped)
    {
      // The handler has run: the program may end its use of the reactor.
      poison_freed = true;
      pair.reset();
      strand.reset(); // a strand outliving its io_context locks the context's freed service
      ioc.reset();
    }
    resumes = stop;
  }
  initiator.join();
  poison_freed = false;
  free_kept_blocks();
  BOOST_TEST(handled_while_stopped,
             "the operation did not complete while its initiator stood stopped after a release");
  return result;
}

} // namespace

BOOST_AUTO_TEST_CASE(an_initiator_touches_nothing_once_its_operation_is_queued)
{
  test_support::for_each_reactor_options([](const an::reactor_options& o) {
    BOOST_TEST(!run_stalled_initiation(o, initiator_does::the_wait));
  });
}

// A cancel on another thread posts the aborted operation, which a close, a cancel and a
// failed registration all do: the operation's work goes with it.
BOOST_AUTO_TEST_CASE(a_canceller_touches_nothing_once_the_aborted_operation_is_posted)
{
  test_support::for_each_reactor_options([](const an::reactor_options& o) {
    BOOST_TEST(run_stalled_initiation(o, initiator_does::a_cancel) ==
               boost::asio::error::operation_aborted);
  });
}

// The aborted operation of a handler bound to a strand is posted to the io_context first
// (its hop): that post, too, must leave nothing of the io_context to touch afterwards.
BOOST_AUTO_TEST_CASE(a_canceller_touches_nothing_once_the_hop_to_a_strand_is_posted)
{
  test_support::for_each_reactor_options([](const an::reactor_options& o) {
    BOOST_TEST(run_stalled_initiation(o, initiator_does::a_cancel, handler_runs::on_a_strand) ==
               boost::asio::error::operation_aborted);
  });
}
