//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A concrete reactor operation: a completion handler plus a "performer" that knows the
// system call to try. The operation is allocated with the handler's associated allocator,
// keeps work on the I/O and handler executors while pending, plugs into the handler's
// cancellation slot, and is freed before its handler is scheduled.
#ifndef BOOST_ASIO_NOTIFY_DETAIL_HANDLER_OP_HPP
#define BOOST_ASIO_NOTIFY_DETAIL_HANDLER_OP_HPP

#include <boost/asio_notify/detail/null_buffers.hpp>
#include <boost/asio_notify/detail/reactor_core.hpp>
#include <boost/asio_notify/detail/reactor_op.hpp>
#include <boost/asio_notify/detail/socket_ops.hpp>

#include <boost/asio/associated_allocator.hpp>
#include <boost/asio/associated_cancellation_slot.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/version.hpp>
#if BOOST_ASIO_VERSION >= 102800 // Boost 1.82
#include <boost/asio/associated_immediate_executor.hpp>
#endif
#include <boost/asio/buffer.hpp>
#include <boost/asio/cancellation_type.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/execution/outstanding_work.hpp>
#include <boost/asio/defer.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/prefer.hpp>
#include <boost/asio/recycling_allocator.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

namespace boost {
namespace asio_notify {
namespace detail {

/// A buffer sequence flattened for one scatter/gather system call.
struct buffer_array
{
  template <class BufferSequence>
  explicit buffer_array(const BufferSequence& buffers)
  {
    auto it = boost::asio::buffer_sequence_begin(buffers);
    const auto end = boost::asio::buffer_sequence_end(buffers);
    for (; it != end && count < socket_ops::max_buffers; ++it)
    {
      const boost::asio::const_buffer b(*it);
      bufs[count].data = const_cast<void*>(b.data());
      bufs[count].size = static_cast<decltype(bufs[count].size)>(b.size());
      total += b.size();
      ++count;
    }
  }

  socket_ops::native_buffer bufs[socket_ops::max_buffers];
  std::size_t count = 0;
  std::size_t total = 0;
};

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
  ~recycled_box()
  {
    if (!p_)
      return;
    p_->~T();
    boost::asio::recycling_allocator<T>().deallocate(p_, 1);
  }
  explicit operator bool() const noexcept { return p_ != nullptr; }
  const T& operator*() const noexcept { return *p_; }

private:
  T* p_ = nullptr;
};

/** Outstanding work on the I/O executor and on the handler's executor while an operation
    is pending, as Asio's own operations keep it, and the executor its handler runs on.
    The common case, a handler without an executor of its own on an io_context's executor,
    costs one tracked io_context executor (a pointer): a type-erased executor is 56 bytes
    and copying one with `prefer` is an indirect call. */
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
        context_.emplace(
            boost::asio::prefer(*context_ex, boost::asio::execution::outstanding_work.tracked));
    if (!context_ex)
      io_ = io_box::make(boost::asio::prefer(io, boost::asio::execution::outstanding_work.tracked));
    handler_executor ex = boost::asio::get_associated_executor(h, io);
    if constexpr (std::is_same_v<handler_executor, IoExecutor>)
      if (ex == io)
        return; // the I/O executor's work covers the handler
    handler_ = handler_box::make(
        boost::asio::prefer(ex, boost::asio::execution::outstanding_work.tracked));
  }

  /// Schedule `f` on the handler's executor: posted, deferred or dispatched (see
  /// completion_mode; `immediate` is posted).
  template <class Function>
  void schedule(Function&& f, completion_mode mode) const
  {
    if (handler_)
      schedule_on(*handler_, std::forward<Function>(f), mode);
    else
      schedule_on_io(std::forward<Function>(f), mode);
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
  using context_executor = tracked_executor_t<boost::asio::io_context::executor_type>;

  // Whether `io_context_executor` can find an io_context executor in an IoExecutor. For
  // other executors (a strand, a user's own) the member below is not even declared: an
  // optional that is never engaged still makes GCC's -O2 flow analysis warn
  // (-Wmaybe-uninitialized) about reading its payload in the destructor.
  static constexpr bool may_hold_io_context_executor =
      std::is_same_v<IoExecutor, boost::asio::io_context::executor_type>
      || std::is_same_v<IoExecutor, boost::asio::any_io_executor>;
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
      use(*context_);
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

  std::conditional_t<may_hold_io_context_executor, std::optional<context_executor>,
                     no_context_executor>
      context_;
  io_box io_;
  handler_box handler_;
};

/** Room inside an operation for the one object Asio allocates to schedule its completion
    (an executor's queued function holding an `op_completion`), so that the operation's own
    allocation, through its handler's allocator, is the only one (Asio's own operations
    allocate once). A larger or a second request goes to Asio's recycling allocator. */
struct completion_arena
{
  /// Asio queues a completion as {its queue links, the function, the allocator}: 40 bytes
  /// on 64-bit systems, in every executor of Boost 1.81 to 1.90; room to spare.
  static constexpr std::size_t size = 96;

  alignas(std::max_align_t) unsigned char bytes[size];
  bool used = false;
  /// A request missed the arena: the completion lives elsewhere, and no later request (a
  /// strand's invoker, say) may take the arena, which goes when the operation is freed.
  bool spent = false;
};

/// The allocator of an `op_completion`: its operation's arena, else Asio's recycling one.
template <class T>
class arena_allocator
{
public:
  using value_type = T;

  explicit arena_allocator(completion_arena& arena) noexcept : arena_(&arena) {}
  template <class U>
  arena_allocator(const arena_allocator<U>& other) noexcept : arena_(other.arena_)
  {
  }

  T* allocate(std::size_t n)
  {
    const bool fits = n * sizeof(T) <= completion_arena::size && alignof(T) <= alignof(std::max_align_t);
    if (!arena_->used && !arena_->spent && fits)
    {
      arena_->used = true;
      return reinterpret_cast<T*>(arena_->bytes);
    }
    if (!arena_->used)
      arena_->spent = true;
    return boost::asio::recycling_allocator<T>().allocate(n);
  }

  void deallocate(T* p, std::size_t n)
  {
    if (reinterpret_cast<unsigned char*>(p) == arena_->bytes)
      arena_->used = false;
    else
      boost::asio::recycling_allocator<T>().deallocate(p, n);
  }

  friend bool operator==(const arena_allocator& a, const arena_allocator& b) noexcept
  {
    return a.arena_ == b.arena_;
  }
  friend bool operator!=(const arena_allocator& a, const arena_allocator& b) noexcept
  {
    return a.arena_ != b.arena_;
  }

private:
  template <class U>
  friend class arena_allocator;
  completion_arena* arena_;
};

/** What is scheduled on the handler's executor when an operation finishes: it owns the
    operation (its handler and results still inside), and when invoked frees it and calls
    the handler; destroyed without being invoked (the context shut down), it frees it. It is
    allocated for in the operation's arena (see the associated_allocator specialisation at
    the end of this file). It carries no executor when scheduled on the handler's executor
    (an associated executor would make Asio wrap it once more); `WithHandlerExecutor` gives
    it the handler's, for a dispatch through an immediate executor, which goes on to the
    handler's executor as Asio's own immediate completions do. */
template <class Op, bool WithHandlerExecutor = false>
class op_completion
{
public:
  explicit op_completion(Op* op) noexcept : op_(op) {}
  op_completion(op_completion&& other) noexcept : op_(std::exchange(other.op_, nullptr)) {}
  op_completion& operator=(op_completion&&) = delete;
  ~op_completion()
  {
    if (op_)
      Op::discard(op_);
  }

  void operator()() { Op::invoke(std::exchange(op_, nullptr)); }

  /// The operation, for the associated_allocator and associated_executor specialisations.
  Op& op() const noexcept { return *op_; }

private:
  Op* op_;
};

/// Installed in a handler's cancellation slot: cancels the queued operation whose key is
/// this canceller's address (a stale canceller finds nothing, as in Asio's reactor).
class op_canceller
{
public:
  op_canceller(reactor_core& core, socket_state* const& state, op_type type) noexcept
      : core_(core), state_(state), type_(type)
  {
  }

  void operator()(boost::asio::cancellation_type_t type) const
  {
    using ct = boost::asio::cancellation_type;
    if ((type & (ct::terminal | ct::partial | ct::total)) == ct::none)
      return;
    if (socket_state* s = state_)
      core_.cancel_op(*s, type_, this);
  }

private:
  reactor_core& core_;
  socket_state* const& state_; // the I/O object's member: null once it is closed
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
      : reactor_op(&do_perform, &do_complete), work_(h, io), handler_(std::move(h)),
        performer_(std::move(perf))
  {
  }

  static bool do_perform(reactor_op* base, perform_context& c)
  {
    auto* op = static_cast<handler_op*>(base);
    return op->performer_.perform(c, op->ec_, op->bytes_);
  }

  static void do_complete(reactor_op* base, completion_mode mode)
  {
    auto* op = static_cast<handler_op*>(base);
    if (mode == completion_mode::destroy)
      return discard(op);
    // The work moves out first: the handler may run (and free the operation) inside
    // schedule, and the work is kept until the completion is queued.
    op_work<Handler, IoExecutor> work(std::move(op->work_));
#if BOOST_ASIO_VERSION >= 102800
    if (mode == completion_mode::immediate)
      return work.schedule_immediate(op_completion<handler_op, true>(op), op->handler_);
#endif
    work.schedule(op_completion<handler_op>(op), mode);
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
void start_operation(reactor_core& core, socket_state* const& state, op_type type,
                     Handler&& handler, const IoExecutor& io, Performer perf,
                     const boost::system::error_code& not_ready)
{
  using handler_type = std::decay_t<Handler>;
  auto slot = boost::asio::get_associated_cancellation_slot(handler);
  handler_type h(std::forward<Handler>(handler));
  if constexpr (has_launch_step<Performer>::value)
    perf.launched();
  reactor_op* op =
      handler_op<Performer, handler_type, IoExecutor>::create(std::move(h), io, std::move(perf));
  if (slot.is_connected())
    op->cancellation_key_ = &slot.template emplace<op_canceller>(core, state, type);
  core.start_op(state, type, op, not_ready);
}

// ---- performers -----------------------------------------------------------------------

/// Performs nothing: readiness is the result (async_wait and null_buffers operations).
/// `WithBytes` adds the `bytes_transferred` argument (always 0) of null_buffers forms.
template <bool WithBytes>
struct wait_performer
{
  socket_ops::wait_for what;

  bool perform(perform_context& c, boost::system::error_code& ec,
               std::size_t&) const
  {
    if (c.from_packet)
      return true;
    if (what == socket_ops::wait_for::read && c.nothing_to_read)
      return false;
    return socket_ops::poll(c.socket, what, 0, ec) || ec;
  }

  auto results(const boost::system::error_code& ec, std::size_t) const
  {
    if constexpr (WithBytes)
      return std::make_tuple(ec, std::size_t(0));
    else
      return std::make_tuple(ec);
  }
};

/// The performer of a transfer on `Buffers`: `Transfer`, or with `null_buffers` a readiness
/// wait that completes with 0 bytes.
template <class Buffers, class Transfer>
using transfer_or_wait_t = std::conditional_t<is_null_buffers<Buffers>(), wait_performer<true>, Transfer>;

/// A `null_buffers` receive_from: a readiness wait that resets the sender endpoint when it is
/// launched, as Asio's (no datagram is received, so it comes from nowhere).
template <class Endpoint>
struct readiness_from_performer : wait_performer<true>
{
  Endpoint* sender;

  void launched() const { *sender = Endpoint(); }
};

/// A performer that completes at once with `error` when one is set (an operation that
/// could not even start, such as a connect whose socket failed to open), else `inner`.
template <class Performer>
struct unless_failed
{
  Performer inner;
  boost::system::error_code error;

  bool perform(perform_context& c, boost::system::error_code& ec,
               std::size_t& bytes)
  {
    if (!error)
      return inner.perform(c, ec, bytes);
    ec = error;
    return true;
  }

  // `error` wins over the `bad_descriptor` the reactor reports for the unopened socket.
  auto results(const boost::system::error_code& ec, std::size_t bytes)
  {
    return inner.results(error ? error : ec, bytes);
  }
};

/// Results `(ec, bytes_transferred)` shared by the data transfer performers.
struct transfer_results
{
  auto results(const boost::system::error_code& ec, std::size_t bytes) const
  {
    return std::make_tuple(ec, bytes);
  }
};

template <class MutableBufferSequence>
struct receive_performer : transfer_results
{
  MutableBufferSequence buffers;
  socket_ops::message_flags flags;
  bool stream; // a stream reports end of file; a datagram of zero bytes is data

  bool perform(perform_context& c, boost::system::error_code& ec,
               std::size_t& bytes) const
  {
    buffer_array a(buffers);
    if (stream && a.total == 0)
    {
      ec = {};
      bytes = 0;
      return true; // Asio: an empty read completes at once
    }
    if (c.nothing_to_read)
      return false;
    bytes = socket_ops::recv(c.socket, a.bufs, a.count, flags, ec,
                             c.want_drained ? &c.drained : nullptr);
    if (socket_ops::would_block(ec))
      return false;
    if (!ec && bytes == 0 && stream)
      ec = boost::asio::error::eof;
    return true;
  }
};

template <class ConstBufferSequence>
struct send_performer : transfer_results
{
  ConstBufferSequence buffers;
  socket_ops::message_flags flags;
  bool stream;

  bool perform(perform_context& c, boost::system::error_code& ec,
               std::size_t& bytes) const
  {
    buffer_array a(buffers);
    if (stream && a.total == 0)
    {
      ec = {};
      bytes = 0;
      return true;
    }
    bytes = socket_ops::send(c.socket, a.bufs, a.count, flags, ec);
    return !socket_ops::would_block(ec);
  }
};

template <class MutableBufferSequence, class Endpoint>
struct receive_from_performer : transfer_results
{
  MutableBufferSequence buffers;
  Endpoint* sender;
  socket_ops::message_flags flags;

  bool perform(perform_context& c, boost::system::error_code& ec,
               std::size_t& bytes) const
  {
    buffer_array a(buffers);
    std::size_t len = sender->capacity();
    bytes = socket_ops::recvfrom(c.socket, a.bufs, a.count, flags, sender->data(), len, ec);
    if (socket_ops::would_block(ec))
      return false;
    if (!ec)
      sender->resize(len);
    return true;
  }
};

/// The performer of a receive_from on `Buffers`: the transfer, or with `null_buffers` the
/// readiness wait that resets the sender.
template <class Buffers, class Endpoint>
using receive_from_or_wait_t =
    std::conditional_t<is_null_buffers<Buffers>(), readiness_from_performer<Endpoint>,
                       receive_from_performer<Buffers, Endpoint>>;

template <class ConstBufferSequence, class Endpoint>
struct send_to_performer : transfer_results
{
  ConstBufferSequence buffers;
  Endpoint destination;
  socket_ops::message_flags flags;

  bool perform(perform_context& c, boost::system::error_code& ec,
               std::size_t& bytes) const
  {
    buffer_array a(buffers);
    bytes = socket_ops::sendto(c.socket, a.bufs, a.count, flags, destination.data(),
                               destination.size(), ec);
    return !socket_ops::would_block(ec);
  }
};

/// Starts the connect on its first attempt, then waits for writability and reads SO_ERROR.
template <class Endpoint>
struct connect_performer
{
  Endpoint peer;
  bool started = false;

  bool perform(perform_context& c, boost::system::error_code& ec,
               std::size_t&)
  {
    if (!started)
    {
      started = true;
      socket_ops::connect(c.socket, peer.data(), peer.size(), ec);
      return !socket_ops::would_block(ec);
    }
    ec = {}; // forget the first attempt's would_block
    if (!c.from_packet && !socket_ops::poll(c.socket, socket_ops::wait_for::write, 0, ec) && !ec)
      return false;
    if (!ec)
      socket_ops::connect_result(c.socket, ec);
    return true;
  }

  auto results(const boost::system::error_code& ec, std::size_t) const { return std::make_tuple(ec); }
};

/// Accepts one connection. `Finish` turns the accepted handle into the handler's
/// arguments: it assigns it to a socket given by the caller, or creates a new one.
template <class Endpoint, class Finish>
struct accept_performer
{
  Endpoint* peer_endpoint; // may be null
  Finish finish;
  // The acceptor's enable_connection_aborted when the operation started (Asio's accept
  // operation keeps the acceptor's state the same way).
  bool report_aborted;
  native_socket_type accepted = socket_ops::invalid_socket;

  bool perform(perform_context& c, boost::system::error_code& ec, std::size_t&)
  {
    for (;;)
    {
      Endpoint ep;
      std::size_t len = ep.capacity();
      accepted = socket_ops::accept(c.socket, ep.data(), &len, ec);
      // A connection aborted before it was accepted is not the acceptor's error (Asio
      // hides it too unless enable_connection_aborted is set): try the next one.
      if (socket_ops::accept_next_instead(ec, report_aborted))
        continue;
      if (socket_ops::would_block(ec))
        return false;
      if (!ec && peer_endpoint)
      {
        ep.resize(len);
        *peer_endpoint = ep;
      }
      return true;
    }
  }

  auto results(boost::system::error_code ec, std::size_t)
  {
    native_socket_type s = accepted;
    accepted = socket_ops::invalid_socket;
    return finish(ec, s);
  }

  accept_performer(Endpoint* ep, Finish f, bool report_aborted_connections)
      : peer_endpoint(ep), finish(std::move(f)), report_aborted(report_aborted_connections)
  {
  }
  accept_performer(accept_performer&& o) noexcept
      : peer_endpoint(o.peer_endpoint), finish(std::move(o.finish)),
        report_aborted(o.report_aborted), accepted(o.accepted)
  {
    o.accepted = socket_ops::invalid_socket;
  }
  accept_performer& operator=(accept_performer&&) = delete;
  ~accept_performer()
  {
    if (accepted != socket_ops::invalid_socket) // never handed to a socket: do not leak it
    {
      boost::system::error_code ignored;
      socket_ops::close(accepted, ignored);
    }
  }
};

} // namespace detail
} // namespace asio_notify

namespace asio {

/// An operation's completion is allocated for in the operation's arena.
template <class Op, bool WithHandlerExecutor, class DefaultAllocator>
struct associated_allocator<asio_notify::detail::op_completion<Op, WithHandlerExecutor>,
                            DefaultAllocator>
{
  using type = asio_notify::detail::arena_allocator<void>;

  static type get(const asio_notify::detail::op_completion<Op, WithHandlerExecutor>& c,
                  const DefaultAllocator& = DefaultAllocator()) noexcept
  {
    return type(c.op().arena());
  }
};

/// Dispatched through an immediate executor, a completion goes on to its handler's executor.
template <class Op, class DefaultExecutor>
struct associated_executor<asio_notify::detail::op_completion<Op, true>, DefaultExecutor>
{
  using type = associated_executor_t<typename Op::handler_type, DefaultExecutor>;

  static type get(const asio_notify::detail::op_completion<Op, true>& c,
                  const DefaultExecutor& e = DefaultExecutor()) noexcept
  {
    return get_associated_executor(c.op().handler(), e);
  }
};

} // namespace asio
} // namespace boost

#endif
