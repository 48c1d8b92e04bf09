//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// When the reactor calls a dispatched completion itself (op_work::dispatches_here): only
// where a dispatch would run it at once, on this thread, inside its io_context's run(). And
// which handlers op_work knows at compile time to run on the I/O executor.

#include <boost/asio_notify/detail/op_work.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/execution/blocking.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/require.hpp>
#include <boost/asio/strand.hpp>
#include <boost/test/unit_test.hpp>

#include <functional>

namespace detail = boost::asio_notify::detail;
namespace asio = boost::asio;

namespace {

struct plain_handler
{
  void operator()() const {}
};

/// Names its executor as the default's type, but gives its own: the one it holds.
struct handler_holding_its_executor
{
  asio::any_io_executor ex;
  void operator()() const {}
};

/// Has an executor of its own through a member type, as Asio's coroutine handlers do.
struct handler_with_executor_type
{
  using executor_type = asio::any_io_executor;
  executor_type ex;
  executor_type get_executor() const noexcept { return ex; }
  void operator()() const {}
};

} // namespace

template <class Executor>
struct boost::asio::associated_executor<handler_holding_its_executor, Executor>
{
  using type = Executor;
  static type get(const handler_holding_its_executor& h) noexcept { return h.ex; }
  static type get(const handler_holding_its_executor& h, const Executor&) noexcept { return h.ex; }
};

namespace {

template <class Handler>
constexpr bool executor_is_default =
    detail::handler_executor_is_default<Handler, asio::any_io_executor>::value;

// Asio marks an associator that gives the default (op_work.hpp); a Boost without the mark
// would send every handler down the public path, slower but right: this says it is there.
static_assert(executor_is_default<plain_handler>);
static_assert(
    detail::handler_executor_is_default<plain_handler, asio::io_context::executor_type>::value);
// A wrapper that forwards the association passes the mark on, as Asio's composed
// operations (async_read's) do. (Boost 1.81's binders, bind_cancellation_slot's among
// them, do not: their handlers take the public path there.)
static_assert(executor_is_default<std::reference_wrapper<plain_handler>>);
static_assert(!executor_is_default<asio::executor_binder<plain_handler, asio::any_io_executor>>);
static_assert(!executor_is_default<handler_holding_its_executor>);
static_assert(!executor_is_default<handler_with_executor_type>);

/// Whether an operation with `handler` on `io` would have its completion called here, asked
/// inside `ioc.run()` (`inside`) or outside it, before and after it was queued.
template <class Handler, class IoExecutor>
bool called_here(asio::io_context& ioc, const Handler& handler, const IoExecutor& io, bool inside,
                 bool queued)
{
  bool result = false;
  auto ask = [&] {
    detail::op_work<Handler, IoExecutor> work(handler, io);
    if (queued)
      work.count_queued();
    result = work.dispatches_here();
  };
  if (!inside)
  {
    ask();
    return result;
  }
  asio::post(ioc, ask);
  ioc.restart();
  ioc.run();
  return result;
}

} // namespace

BOOST_AUTO_TEST_SUITE(op_work)

BOOST_AUTO_TEST_CASE(a_handler_on_the_io_context_is_called_here_inside_run)
{
  asio::io_context ioc;
  const asio::any_io_executor erased = ioc.get_executor();
  for (const bool queued : {false, true})
  {
    BOOST_TEST_CONTEXT("queued " << queued)
    {
      BOOST_TEST(called_here(ioc, plain_handler{}, erased, true, queued));
      BOOST_TEST(called_here(ioc, plain_handler{}, ioc.get_executor(), true, queued));
    }
  }
}

BOOST_AUTO_TEST_CASE(outside_run_a_dispatch_is_not_a_call)
{
  asio::io_context ioc;
  const asio::any_io_executor erased = ioc.get_executor();
  BOOST_TEST(!called_here(ioc, plain_handler{}, erased, false, false));
  BOOST_TEST(!called_here(ioc, plain_handler{}, erased, false, true));
}

// Another io_context's run() is not this one's.
BOOST_AUTO_TEST_CASE(inside_another_contexts_run_it_is_not_a_call)
{
  asio::io_context ioc;
  asio::io_context other;
  const asio::any_io_executor erased = other.get_executor();
  BOOST_TEST(!called_here(ioc, plain_handler{}, erased, true, true));
}

// A dispatch through a blocking.never executor posts: the reactor must not call it.
BOOST_AUTO_TEST_CASE(a_never_blocking_executor_is_posted_to)
{
  asio::io_context ioc;
  const asio::any_io_executor never =
      asio::require(ioc.get_executor(), asio::execution::blocking.never);
  BOOST_TEST(!called_here(ioc, plain_handler{}, never, true, false));
  BOOST_TEST(!called_here(ioc, plain_handler{}, never, true, true));
}

// A handler with an executor of its own (a strand) goes through it.
BOOST_AUTO_TEST_CASE(a_handler_with_its_own_executor_is_dispatched)
{
  asio::io_context ioc;
  const asio::any_io_executor erased = ioc.get_executor();
  auto stranded = asio::bind_executor(asio::make_strand(ioc), plain_handler{});
  BOOST_TEST(!called_here(ioc, stranded, erased, true, true));
  const asio::any_io_executor strand_io = asio::make_strand(ioc);
  BOOST_TEST(!called_here(ioc, plain_handler{}, strand_io, true, true));
}

// An executor of its own, of the default's type or named by a member type, is not taken
// for the I/O executor: inside the I/O executor's run() the completion belongs elsewhere.
BOOST_AUTO_TEST_CASE(a_handler_giving_another_executor_of_the_same_type_is_dispatched)
{
  asio::io_context ioc;
  asio::io_context other;
  const asio::any_io_executor erased = ioc.get_executor();
  BOOST_TEST(
      !called_here(ioc, handler_holding_its_executor{other.get_executor()}, erased, true, true));
  BOOST_TEST(
      !called_here(ioc, handler_with_executor_type{other.get_executor()}, erased, true, true));
  // Giving the I/O executor itself, it is called here, as a plain handler is.
  BOOST_TEST(called_here(ioc, handler_holding_its_executor{erased}, erased, true, true));
}

BOOST_AUTO_TEST_SUITE_END()
