//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// An operation's completion is queued in room the operation has for it (op_completion.hpp):
// what Asio allocates to queue a completion fits the arena on this platform, with this
// Boost, in every way the reactor schedules one. A completion that misses the arena still
// runs, from a second allocation per operation: only this test sees the difference.

#include <boost/asio_notify/detail/op_completion.hpp>

#include <boost/asio/defer.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/test/unit_test.hpp>

#include <functional>

namespace an = boost::asio_notify::detail;
namespace asio = boost::asio;

namespace {

/// The part of an operation op_completion uses: the arena, and what invoking it does.
struct fake_op
{
  using handler_type = std::function<void()>;

  an::completion_arena arena_;
  bool invoked = false;
  bool discarded = false;
  handler_type handler_;

  an::completion_arena& arena() noexcept { return arena_; }
  const handler_type& handler() const noexcept { return handler_; }
  static void invoke(fake_op* op) { op->invoked = true; }
  static void discard(fake_op* op) { op->discarded = true; }
};

/// Schedules a completion of `op` with `schedule`: its memory must come from the arena.
template <class Schedule>
void check_fits(fake_op& op, Schedule schedule)
{
  schedule(an::op_completion<fake_op>(&op));
  BOOST_TEST(op.arena_.used, "the completion was allocated elsewhere");
  BOOST_TEST(!op.arena_.spent);
}

} // namespace

BOOST_AUTO_TEST_SUITE(completion_arena)

BOOST_AUTO_TEST_CASE(completions_posted_to_an_io_context_fit)
{
  asio::io_context ioc;
  // (Not through an any_io_executor: Asio's type-erased executors take no allocator, so
  // the reactor schedules on the io_context executor one holds, see op_work.hpp.)
  fake_op posted, deferred;
  BOOST_TEST_CONTEXT("post")
  check_fits(posted, [&](auto c) { asio::post(ioc.get_executor(), std::move(c)); });
  BOOST_TEST_CONTEXT("defer")
  check_fits(deferred, [&](auto c) { asio::defer(ioc.get_executor(), std::move(c)); });
  ioc.run();
  for (fake_op* op : {&posted, &deferred})
  {
    BOOST_TEST(op->invoked);
    BOOST_TEST(!op->arena_.used); // given back before the operation's handler runs
  }
}

// From a thread running the context, as the reactor schedules the completions it finds.
BOOST_AUTO_TEST_CASE(completions_deferred_inside_the_context_fit)
{
  asio::io_context ioc;
  fake_op deferred, posted;
  asio::post(ioc, [&] {
    check_fits(deferred, [&](auto c) { asio::defer(ioc.get_executor(), std::move(c)); });
    check_fits(posted, [&](auto c) { asio::post(ioc.get_executor(), std::move(c)); });
  });
  ioc.run();
  BOOST_TEST(deferred.invoked);
  BOOST_TEST(posted.invoked);
}

BOOST_AUTO_TEST_CASE(completions_posted_to_a_thread_pool_fit)
{
  asio::thread_pool pool(1);
  fake_op op;
  // Held by the pool's thread until it runs: posted, then checked, from that thread.
  asio::post(pool, [&] {
    check_fits(op, [&](auto c) { asio::post(pool.get_executor(), std::move(c)); });
  });
  pool.join();
  BOOST_TEST(op.invoked);
}

BOOST_AUTO_TEST_CASE(a_completion_destroyed_unrun_discards_its_operation)
{
  fake_op op;
  {
    asio::io_context ioc;
    check_fits(op, [&](auto c) { asio::post(ioc, std::move(c)); });
  }
  BOOST_TEST(op.discarded);
  BOOST_TEST(!op.invoked);
  BOOST_TEST(!op.arena_.used);
}

BOOST_AUTO_TEST_SUITE_END()
