//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The executors of a pending operation: the outstanding work it keeps on the I/O executor
// and on its handler's executor, as Asio's own operations keep it, and how its completion
// is scheduled on them (posted, deferred, dispatched or through an immediate executor).
#ifndef BOOST_ASIO_NOTIFY_DETAIL_OP_WORK_HPP
#define BOOST_ASIO_NOTIFY_DETAIL_OP_WORK_HPP

#include <boost/asio_notify/detail/reactor_op.hpp>

#include <boost/asio/associated_executor.hpp>
#include <boost/asio/version.hpp>
#if BOOST_ASIO_VERSION >= 102800 // Boost 1.82
#include <boost/asio/associated_immediate_executor.hpp>
#endif
#include <boost/asio/defer.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/execution/blocking.hpp>
#include <boost/asio/execution/outstanding_work.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/prefer.hpp>
#include <boost/asio/query.hpp>
#include <boost/asio/recycling_allocator.hpp>
#include <boost/asio/require.hpp>
#include <boost/asio/strand.hpp>
#include <boost/config.hpp>

#include <optional>
#include <type_traits>
#include <utility>

namespace boost {
namespace asio_notify {
namespace detail {

/// The type of `prefer(e, outstanding_work.tracked)`.
template <class Executor>
using tracked_executor_t = std::decay_t<decltype(boost::asio::prefer(
    std::declval<const Executor&>(), boost::asio::execution::outstanding_work.tracked))>;

/// The io_context executor `ex` is, or holds type-erased; null for any other executor.
template <class Executor>
const boost::asio::io_context::executor_type* io_context_executor(const Executor& ex) noexcept
{
  using context_executor = boost::asio::io_context::executor_type;
  if constexpr (std::is_same_v<Executor, context_executor>)
    return &ex;
  else if constexpr (std::is_same_v<Executor, boost::asio::any_io_executor>)
    return ex.template target<context_executor>();
  else
    return nullptr;
}

/// The strand<Inner> `ex` is, or holds type-erased; null for any other executor.
template <class Inner, class Executor>
const boost::asio::strand<Inner>* strand_of(const Executor& ex) noexcept
{
  if constexpr (std::is_same_v<Executor, boost::asio::strand<Inner>>)
    return &ex;
  else if constexpr (std::is_same_v<Executor, boost::asio::any_io_executor>)
    return ex.template target<boost::asio::strand<Inner>>();
  else
    return nullptr;
}

/// The io_context executor that runs `ex`'s work: `ex` itself, or the one beneath a strand
/// of it (counting work or not); empty for any other executor.
template <class Executor>
std::optional<boost::asio::io_context::executor_type>
io_context_beneath(const Executor& ex) noexcept
{
  using context_executor = boost::asio::io_context::executor_type;
  using tracked_context = tracked_executor_t<context_executor>;
  if (const auto* e = io_context_executor(ex))
    return *e;
  if (const auto* s = strand_of<context_executor>(ex))
    return s->get_inner_executor();
  if (const auto* s = strand_of<tracked_context>(ex))
    return boost::asio::require(s->get_inner_executor(),
                                boost::asio::execution::outstanding_work.untracked);
  return std::nullopt;
}

/** The io_context executor of the reactor whose aborting completion is under way on this
    thread (set by the reactor around it), or null. An aborted operation whose executors
    lead to no io_context (a program's executor given to the socket) hops through it: every
    socket of a reactor runs on the reactor's execution context. */
class abort_hop_scope
{
public:
  explicit abort_hop_scope(const boost::asio::io_context::executor_type* hop) noexcept
      : previous_(current_)
  {
    current_ = hop;
  }
  abort_hop_scope(const abort_hop_scope&) = delete;
  abort_hop_scope& operator=(const abort_hop_scope&) = delete;
  ~abort_hop_scope() { current_ = previous_; }

  static const boost::asio::io_context::executor_type* current() noexcept { return current_; }

private:
  static inline thread_local const boost::asio::io_context::executor_type* current_ = nullptr;
  const boost::asio::io_context::executor_type* previous_;
};

/// An object allocated with Asio's recycling allocator: op_work's rarely needed parts,
/// kept out of line so that the common operation stays small.
template <class T>
class recycled_box
{
public:
  recycled_box() = default;
  template <class... Args>
  static recycled_box make(Args&&... args)
  {
    boost::asio::recycling_allocator<T> alloc;
    T* p = alloc.allocate(1);
    try
    {
      recycled_box box;
      box.p_ = new (p) T(std::forward<Args>(args)...);
      return box;
    }
    catch (...)
    {
      alloc.deallocate(p, 1);
      throw;
    }
  }
  recycled_box(recycled_box&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  recycled_box& operator=(recycled_box&& o) noexcept
  {
    std::swap(p_, o.p_);
    return *this;
  }
  // The test stays inline: an operation destroys two boxes, empty in the common case.
  ~recycled_box()
  {
    if (p_)
      destroy();
  }
  explicit operator bool() const noexcept { return p_ != nullptr; }
  const T& operator*() const noexcept { return *p_; }

private:
  BOOST_NOINLINE void destroy() noexcept
  {
    p_->~T();
    boost::asio::recycling_allocator<T>().deallocate(p_, 1);
  }

  T* p_ = nullptr;
};

/** The io_context executor of an operation on an io_context's executor, which counts the
    operation as work from `count()` on (op_work::count_queued). A tagged union: as a
    std::variant it cost a visit at every move and destruction of every operation. */
class io_context_work
{
public:
  using uncounted = boost::asio::io_context::executor_type;
  using counted = tracked_executor_t<uncounted>;

  io_context_work() noexcept {}
  io_context_work(io_context_work&& other) noexcept : state_(other.state_)
  {
    if (state_ == state::counted)
      new (&counted_) counted(std::move(other.counted_));
    else if (state_ == state::uncounted)
      new (&uncounted_) uncounted(std::move(other.uncounted_));
  }
  io_context_work& operator=(io_context_work&&) = delete;
  ~io_context_work() { reset(); }

  void hold(const uncounted& ex) noexcept
  {
    reset();
    new (&uncounted_) uncounted(ex);
    state_ = state::uncounted;
  }

  /// Counts the operation as work, if an executor is held and does not count it yet.
  void count()
  {
    if (state_ != state::uncounted)
      return;
    counted ex = boost::asio::prefer(uncounted_, boost::asio::execution::outstanding_work.tracked);
    reset();
    new (&counted_) counted(std::move(ex));
    state_ = state::counted;
  }

  /// Calls `f` with the executor held, counting or not.
  template <class Function>
  void use(Function&& f) const
  {
    if (state_ == state::counted)
      f(counted_);
    else if (state_ == state::uncounted)
      f(uncounted_);
  }

  /// Whether a dispatch through the executor held would run at once on this thread: it is
  /// not `blocking.never` and this thread is inside its io_context's `run()`.
  bool dispatches_here() const noexcept
  {
    if (state_ == state::counted)
      return runs_inline_here(counted_);
    if (state_ == state::uncounted)
      return runs_inline_here(uncounted_);
    return false;
  }

private:
  template <class ContextExecutor>
  static bool runs_inline_here(const ContextExecutor& ex) noexcept
  {
    return boost::asio::query(ex, boost::asio::execution::blocking) !=
               boost::asio::execution::blocking.never &&
           ex.running_in_this_thread();
  }

  void reset() noexcept
  {
    if (state_ == state::counted)
      counted_.~counted();
    else if (state_ == state::uncounted)
      uncounted_.~uncounted();
    state_ = state::none;
  }

  enum class state : unsigned char
  {
    none,
    uncounted,
    counted
  };
  union
  {
    uncounted uncounted_;
    counted counted_;
  };
  state state_ = state::none;
};

/** Whether `Handler` has no executor of its own, so that its associated executor is the
    default it is given, `IoExecutor`: then its work is the I/O executor's, decided at
    compile time, as Asio's handler_work is specialised. Why a detail name and its fallback:
    doc/design.md, "The path counted". */
template <class Handler, class IoExecutor, class = void>
struct handler_executor_is_default : std::false_type
{
};

template <class Handler, class IoExecutor>
struct handler_executor_is_default<
    Handler, IoExecutor,
    std::void_t<typename boost::asio::associated_executor<
        Handler, IoExecutor>::asio_associated_executor_is_unspecialised>>
    : std::is_same<boost::asio::associated_executor_t<Handler, IoExecutor>, IoExecutor>
{
};

/** Outstanding work on the I/O executor and on the handler's executor while an operation
    is pending, as Asio's own operations keep it, and the executor its handler runs on.
    The common case, a handler without an executor of its own on an io_context's executor,
    costs one io_context executor (a pointer): a type-erased executor is 56 bytes and
    copying one with `prefer` is an indirect call. An io_context counts the operation as
    work only once it is queued (`count_queued`), as Asio's reactor counts its own. */
template <class Handler, class IoExecutor>
class op_work
{
public:
  using handler_executor = boost::asio::associated_executor_t<Handler, IoExecutor>;

  op_work(const Handler& h, const IoExecutor& io)
  {
    const auto* context_ex = io_context_executor(io);
    if constexpr (may_hold_io_context_executor)
      if (context_ex)
        context_.hold(*context_ex);
    if (!context_ex)
      io_ = io_box::make(boost::asio::prefer(io, boost::asio::execution::outstanding_work.tracked));
    // Otherwise the I/O executor's work covers the handler.
    if constexpr (!handler_executor_is_default<Handler, IoExecutor>::value)
      track_handler_executor(h, io, context_ex);
  }

  /// Whether the handler's executor is an io_context's own: completions scheduled there
  /// are queued in the operation's arena (op_completion.hpp).
  bool schedules_on_io_context() const noexcept { return !handler_ && !io_; }

  /// Whether a completion dispatched now would run at once on this thread: the handler's
  /// executor is an io_context's own, not `blocking.never`, and this thread is inside its
  /// `run()`. The caller then calls it, as Asio's reactor calls its own handlers (a
  /// dispatch takes a dozen calls to do the same). Asked of the operation's own member,
  /// before its work moves.
  bool dispatches_here() const noexcept
  {
    if constexpr (may_hold_io_context_executor)
      if (schedules_on_io_context())
        return context_.dispatches_here();
    return false;
  }

  /// Whether the I/O executor's work runs on an io_context (its own, or beneath a strand),
  /// which a completion can be posted to without allocating (in the operation's arena).
  bool io_runs_on_io_context() const noexcept { return !io_ || io_context_beneath(*io_); }

  /// Post `f`, which holds the operation and so its work, to the io_context beneath the
  /// I/O executor (io_runs_on_io_context()) through an executor that counts none: nothing
  /// of the io_context is touched once `f` is queued, as Asio's reactor posts its operations.
  template <class Function>
  void post_on_io_context(Function&& f) const
  {
    if (io_)
      return boost::asio::post(*io_context_beneath(*io_), std::forward<Function>(f));
    with_io_executor([&](const auto& io) {
      boost::asio::post(boost::asio::prefer(io, boost::asio::execution::outstanding_work.untracked),
                        std::forward<Function>(f));
    });
  }

  /// Schedule `f` on the handler's executor: posted, deferred or dispatched (see
  /// completion_mode; `immediate` and `aborted` are posted).
  template <class Function>
  void schedule(Function&& f, completion_mode mode) const
  {
    if (handler_)
      schedule_on(*handler_, std::forward<Function>(f), mode);
    else
      schedule_on_io(std::forward<Function>(f), mode);
  }

  /// The operation waits in the reactor's queue now: from here on an io_context counts it
  /// as work. Not before: an operation that finishes inside its initiating function, its
  /// handler run there by an immediate executor, leaves the count as it found it (taking
  /// back the last count stops an io_context, even one that has not run yet).
  void count_queued()
  {
    if constexpr (may_hold_io_context_executor)
      context_.count();
  }

#if BOOST_ASIO_VERSION >= 102800 // Boost 1.82: associated immediate executors
  /// Dispatch `f` (which carries the handler's executor) through the handler's associated
  /// immediate executor, as Asio completes an operation that finished in its initiating
  /// function. The default immediate executor is the I/O executor with blocking.never (a
  /// post); one bound with `bind_immediate_executor` may run the handler at once.
  template <class Function, class HandlerType>
  void schedule_immediate(Function&& f, const HandlerType& handler) const
  {
    with_io_executor([&](const auto& io) {
      boost::asio::dispatch(boost::asio::get_associated_immediate_executor(handler, io),
                            std::forward<Function>(f));
    });
  }
#endif

private:
  /// Keeps work on the handler's associated executor unless it is `io`, which the I/O
  /// executor's work covers.
  void track_handler_executor(const Handler& h, const IoExecutor& io,
                              const boost::asio::io_context::executor_type* io_context_ex)
  {
    handler_executor ex = boost::asio::get_associated_executor(h, io);
    if constexpr (std::is_same_v<handler_executor, IoExecutor>)
      if (same_executor(ex, io, io_context_ex))
        return;
    handler_ = handler_box::make(
        boost::asio::prefer(ex, boost::asio::execution::outstanding_work.tracked));
  }

  /// `ex == io`, cheaply where `io` holds an io_context executor (the common case): two
  /// of them compare as their contexts and properties, where comparing two type-erased
  /// executors goes through Asio's dispatch on their types.
  static bool same_executor(const IoExecutor& ex, const IoExecutor& io,
                            const boost::asio::io_context::executor_type* io_context_ex)
  {
    if (io_context_ex)
      if (const auto* e = io_context_executor(ex))
        return *e == *io_context_ex;
    return ex == io;
  }

  // Whether `io_context_executor` can find an io_context executor in an IoExecutor. For
  // other executors (a strand, a user's own) the member below is not even declared: one
  // that never holds an executor still made GCC's -O2 flow analysis warn
  // (-Wmaybe-uninitialized) about reading its payload in the destructor.
  static constexpr bool may_hold_io_context_executor =
      std::is_same_v<IoExecutor, boost::asio::io_context::executor_type> ||
      std::is_same_v<IoExecutor, boost::asio::any_io_executor>;
  struct no_context_executor
  {
  };
  using io_box = recycled_box<tracked_executor_t<IoExecutor>>;
  using handler_box = recycled_box<tracked_executor_t<handler_executor>>;

  template <class Function>
  void schedule_on_io(Function&& f, completion_mode mode) const
  {
    with_io_executor([&](const auto& io) { schedule_on(io, std::forward<Function>(f), mode); });
  }

  /// Calls `use` with the tracked I/O executor, whichever member holds it.
  template <class Use>
  void with_io_executor(Use&& use) const
  {
    if (io_)
      use(*io_);
    else if constexpr (may_hold_io_context_executor)
      context_.use(use);
  }

  template <class Executor, class Function>
  static void schedule_on(const Executor& ex, Function&& f, completion_mode mode)
  {
    if (mode == completion_mode::dispatch)
      boost::asio::dispatch(ex, std::forward<Function>(f));
    else if (mode == completion_mode::defer)
      boost::asio::defer(ex, std::forward<Function>(f));
    else
      boost::asio::post(ex, std::forward<Function>(f));
  }

  std::conditional_t<may_hold_io_context_executor, io_context_work, no_context_executor> context_;
  io_box io_;
  handler_box handler_;
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
