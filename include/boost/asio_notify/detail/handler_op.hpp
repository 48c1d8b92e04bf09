//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A concrete reactor operation: a completion handler plus a "performer" (performers.hpp)
// that knows the system call to try. The operation is allocated with the handler's
// associated allocator, keeps work on the I/O and handler executors while pending
// (op_work.hpp), plugs into the handler's cancellation slot, and is freed before its
// handler is called (op_completion.hpp).
#ifndef BOOST_ASIO_NOTIFY_DETAIL_HANDLER_OP_HPP
#define BOOST_ASIO_NOTIFY_DETAIL_HANDLER_OP_HPP

#include <boost/asio_notify/detail/op_completion.hpp>
#include <boost/asio_notify/detail/op_work.hpp>
#include <boost/asio_notify/detail/performers.hpp>
#include <boost/asio_notify/detail/reactor_core.hpp>
#include <boost/asio_notify/detail/reactor_op.hpp>

#include <boost/asio/associated_allocator.hpp>
#include <boost/asio/associated_cancellation_slot.hpp>
#include <boost/asio/cancellation_type.hpp>
#include <boost/asio/recycling_allocator.hpp>
#include <boost/asio/version.hpp>
#include <boost/system/error_code.hpp>

#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

namespace boost {
namespace asio_notify {
namespace detail {

/// Installed in a handler's cancellation slot: cancels the queued operation whose key is
/// this canceller's address (a stale canceller finds nothing, as in Asio's reactor).
class op_canceller
{
public:
  op_canceller(reactor_core& core, descriptor_state* const& state, op_type type) noexcept
      : core_(core), state_(state), type_(type)
  {
  }

  void operator()(boost::asio::cancellation_type_t type) const
  {
    using ct = boost::asio::cancellation_type;
    if ((type & (ct::terminal | ct::partial | ct::total)) == ct::none)
      return;
    if (descriptor_state* s = state_)
      core_.cancel_op(*s, type_, this);
  }

private:
  reactor_core& core_;
  descriptor_state* const& state_; // the I/O object's member: null once it is closed
  op_type type_;
};

/// The operation object: `Performer` supplies `perform(perform_context&, ec, bytes)`
/// and `results(ec, bytes)`, the arguments the handler is called with.
template <class Performer, class Handler, class IoExecutor>
class handler_op final : public reactor_op
{
public:
  using allocator_type = typename std::allocator_traits<boost::asio::associated_allocator_t<
      Handler, boost::asio::recycling_allocator<void>>>::template rebind_alloc<handler_op>;

  /// Allocate with the handler's associated allocator and construct.
  static handler_op* create(Handler&& h, const IoExecutor& io, Performer&& perf)
  {
    allocator_type alloc(
        boost::asio::get_associated_allocator(h, boost::asio::recycling_allocator<void>()));
    handler_op* mem = std::allocator_traits<allocator_type>::allocate(alloc, 1);
    try
    {
      return new (mem) handler_op(std::move(h), io, std::move(perf));
    }
    catch (...)
    {
      std::allocator_traits<allocator_type>::deallocate(alloc, mem, 1);
      throw;
    }
  }

private:
  handler_op(Handler&& h, const IoExecutor& io, Performer&& perf)
      : reactor_op(&do_perform, &do_notify), work_(h, io), handler_(std::move(h)),
        performer_(std::move(perf))
  {
  }

  static bool do_perform(reactor_op* base, perform_context& c)
  {
    auto* op = static_cast<handler_op*>(base);
    return op->performer_.perform(c, op->ec_, op->bytes_);
  }

  static void do_notify(reactor_op* base, op_event event, completion_mode mode)
  {
    auto* op = static_cast<handler_op*>(base);
    if (event == op_event::queued)
      return op->work_.count_queued();
    do_complete(op, mode);
  }

  static void do_complete(handler_op* op, completion_mode mode)
  {
    if (mode == completion_mode::destroy)
      return discard(op);
    // Posted from any thread (a cancel, a failed start): once queued, its handler may end
    // the program's use of the io_context, so the operation keeps its work until it runs.
    if ((mode == completion_mode::post || mode == completion_mode::aborted) &&
        op->work_.schedules_on_io_context())
      return op->work_.post_on_io_context(op_completion<handler_op>(op));
    if (mode == completion_mode::aborted)
    {
      if (op->work_.io_runs_on_io_context())
        return op->work_.post_on_io_context(op_hop<handler_op>(op));
      if (const auto* hop = abort_hop_scope::current())
        return boost::asio::post(*hop, op_hop<handler_op>(op));
    }
    const bool call_here = mode == completion_mode::dispatch && op->work_.dispatches_here();
    // The work moves out first: the handler may run (and free the operation) inside
    // schedule, and the work is kept until the completion is queued or has run.
    op_work<Handler, IoExecutor> work(std::move(op->work_));
    if (call_here)
      return op_completion<handler_op>(op)();
#if BOOST_ASIO_VERSION >= 102800
    if (mode == completion_mode::immediate)
      return work.schedule_immediate(op_completion<handler_op, true>(op), op->handler_);
#endif
    if (work.schedules_on_io_context())
      return work.schedule(op_completion<handler_op>(op), mode);
    // Any other executor (a strand, a program's own) allocates a queue entry of its own
    // around what it is given, as for Asio's completions. The operation is freed first,
    // as Asio frees its own, so that the entry can take its memory: kept alive until its
    // handler ran, it made the recycling allocator's per-thread cache (two blocks) miss,
    // several allocations per completion through a strand.
    handler_completion<Handler, Performer> c(std::move(op->handler_), std::move(op->performer_),
                                             op->ec_, op->bytes_);
    free(op, c.handler());
    work.schedule(std::move(c), mode);
  }

public:
  using handler_type = Handler;

  /// Where its completion is allocated (op_completion's associated allocator).
  completion_arena& arena() noexcept { return arena_; }

  /// Its handler, while it holds one (op_completion's associated executor).
  const Handler& handler() const noexcept { return handler_; }

  // Frees the operation, then calls its handler with its results (Asio's rule: the memory
  // is free before the upcall, so the handler can reuse it).
  static void invoke(handler_op* op)
  {
    Handler handler(std::move(op->handler_));
    Performer performer(std::move(op->performer_));
    const boost::system::error_code ec = op->ec_;
    const std::size_t bytes = op->bytes_;
    free(op, handler); // first: making the results may throw (an accepted socket's object)
    std::apply(std::move(handler), performer.results(ec, bytes));
  }

  // An aborted operation, posted to the io_context first (op_hop), goes on to its handler's
  // executor.
  static void complete_after_hop(handler_op* op) { do_complete(op, completion_mode::post); }

  // Frees the operation without calling its handler.
  static void discard(handler_op* op)
  {
    Handler handler(std::move(op->handler_));
    free(op, handler);
  }

private:
  static void free(handler_op* op, const Handler& handler)
  {
    allocator_type alloc(
        boost::asio::get_associated_allocator(handler, boost::asio::recycling_allocator<void>()));
    op->~handler_op();
    std::allocator_traits<allocator_type>::deallocate(alloc, op, 1);
  }

  completion_arena arena_;
  op_work<Handler, IoExecutor> work_;
  Handler handler_;
  Performer performer_;
};

/// True for performers with a `launched()` member: what Asio's operation does when it is
/// launched, whatever becomes of it (even on a closed socket).
template <class Performer, class = void>
struct has_launch_step : std::false_type
{
};

template <class Performer>
struct has_launch_step<Performer, std::void_t<decltype(std::declval<Performer&>().launched())>>
    : std::true_type
{
};

/// Create the operation for `handler`, hook it to the handler's cancellation slot and
/// hand it to the reactor. `state` is the I/O object's member (null when closed). Runs when
/// the operation is launched: in the initiating function, or later for a token such as
/// `deferred`.
template <class Performer, class Handler, class IoExecutor>
void start_operation(reactor_core& core, descriptor_state* const& state, op_type type,
                     Handler&& handler, const IoExecutor& io, Performer perf,
                     const boost::system::error_code& start_error)
{
  using handler_type = std::decay_t<Handler>;
  auto slot = boost::asio::get_associated_cancellation_slot(handler);
  handler_type h(std::forward<Handler>(handler));
  if constexpr (has_launch_step<Performer>::value)
    perf.launched();
  reactor_op* op =
      handler_op<Performer, handler_type, IoExecutor>::create(std::move(h), io, std::move(perf));
  if (slot.is_connected())
  {
    try
    {
      op->cancellation_key_ = &slot.template emplace<op_canceller>(core, state, type);
    }
    catch (...) // out of memory for the canceller: the operation goes, its handler unrun
    {
      op->complete(completion_mode::destroy);
      throw;
    }
  }
  core.start_op(state, type, op, start_error);
}

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
