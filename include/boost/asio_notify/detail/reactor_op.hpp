//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
#ifndef BOOST_ASIO_NOTIFY_DETAIL_REACTOR_OP_HPP
#define BOOST_ASIO_NOTIFY_DETAIL_REACTOR_OP_HPP

#include <boost/asio_notify/registration.hpp>
#include <boost/system/error_code.hpp>

#include <cstddef>
#include <exception>

namespace boost {
namespace asio_notify {
namespace detail {

/// The queues of a socket: what readiness an operation waits for.
enum op_type : int
{
  read_op = 0,   // readable / connection to accept
  write_op = 1,  // writable / connect finished
  except_op = 2, // error or hang-up (async_wait(wait_error))
  max_ops = 3
};

/// Where a finished operation's handler is scheduled from.
enum class completion_mode
{
  post,      // schedule the handler on its executor; never run it inline
  defer,     // as post, from a thread running the I/O executor's context: the handler is a
             // continuation of the current work, which Asio queues without its lock or a
             // wake-up until that work returns (boost::asio::defer)
  dispatch,  // the caller runs the I/O executor's context outside any initiating function:
             // the handler may run inline, as Asio runs its reactor's completions
  immediate, // the operation finished inside its initiating function: the handler goes
             // through its associated immediate executor (Boost 1.82+; a post by default,
             // and before 1.82 always a post), as Asio's own immediate completions do
  aborted,   // as post, from a close, a release, a cancel or a failed registration, which
             // must not allocate: a handler whose executor is not the io_context's is posted
             // to the io_context beneath the I/O executor (itself or a strand's) first, in
             // the operation's arena, and goes on to its executor from there, inside run()
             // (op_hop, handler_op.hpp)
  destroy    // the reactor is shutting down: destroy the handler without invoking it
};

/// What the reactor tells an operation through its one function besides `perform`.
enum class op_event : unsigned char
{
  queued,  // it waits in a socket's queue now (reactor_op::queued)
  finished // its handler is to be scheduled as the completion_mode says (reactor_op::complete)
};

class overlapped_transfers; // performers.hpp

/// What the reactor tells an operation's attempt at its system call, and learns from it.
struct perform_context
{
  native_socket_type socket;
  bool from_packet;          // the port has just reported the readiness waited for
  bool nothing_to_read;      // a read emptied the queue and no packet came since: a read
                             // would block, no need to ask the system
  bool want_drained = false; // the socket can tell whether a read emptied its queue
  bool drained = false;      // out: a read left nothing to read (see socket_ops::recv)
  // Where a stream read that would block, or a stream write, goes on as an overlapped
  // transfer on its own buffers (the io_context_port driver on Windows); null: neither does.
  overlapped_transfers* overlapped = nullptr;
  bool issued = false; // out: it went on so, and that transfer's completion finishes it
};

/** A queued asynchronous operation, type-erased. The concrete operation (handler_op.hpp)
    owns the handler and the buffers; the reactor only performs and completes it. */
class reactor_op
{
public:
  /// Try the non-blocking system call; false means "would block, keep waiting".
  bool perform(perform_context& c) { return perform_(this, c); }

  /// Schedule the handler with `ec_` and `bytes_` (or destroy it), then free the operation.
  void complete(completion_mode mode) { notify_(this, op_event::finished, mode); }

  /// The operation is queued to wait for readiness: its io_context counts it as work from
  /// now on, as Asio's reactor counts the operations it queues (and not those that finish
  /// inside their initiating functions). Through the same function as `complete`, which
  /// knows the operation's type, so that no operation carries another function pointer.
  void queued() { notify_(this, op_event::queued, completion_mode::post); }

  reactor_op* next_ = nullptr;             // intrusive queue link
  const void* cancellation_key_ = nullptr; // the slot's canceller, when one is installed
  boost::system::error_code ec_;           // the result
  std::size_t bytes_ = 0;                  // the result

protected:
  using perform_fn = bool (*)(reactor_op*, perform_context&);
  // `completion_mode` is read for op_event::finished only.
  using notify_fn = void (*)(reactor_op*, op_event, completion_mode);

  reactor_op(perform_fn p, notify_fn n) noexcept : perform_(p), notify_(n) {}
  ~reactor_op() = default;

private:
  perform_fn perform_;
  notify_fn notify_;
};

/// An intrusive FIFO of operations; no allocation.
class op_queue
{
public:
  bool empty() const noexcept { return head_ == nullptr; }
  reactor_op* front() const noexcept { return head_; }

  void push(reactor_op* op) noexcept
  {
    op->next_ = nullptr;
    if (tail_)
      tail_->next_ = op;
    else
      head_ = op;
    tail_ = op;
  }

  reactor_op* pop() noexcept
  {
    reactor_op* op = head_;
    if (op)
    {
      head_ = op->next_;
      if (!head_)
        tail_ = nullptr;
      op->next_ = nullptr;
    }
    return op;
  }

  /// Move every operation of `other` to the back of this queue.
  void splice(op_queue& other) noexcept
  {
    while (reactor_op* op = other.pop())
      push(op);
  }

  /// Unlink `op`, which is in this queue.
  void remove(reactor_op* op) noexcept
  {
    unlink_first([op](const reactor_op& p) { return &p == op; });
  }

  /// Unlink the operation with cancellation key `key`; returns it, or null.
  reactor_op* erase(const void* key) noexcept
  {
    return unlink_first([key](const reactor_op& p) { return p.cancellation_key_ == key; });
  }

  /// Complete and remove every operation, in order. One whose completion throws (its
  /// executor refused the handler, which then goes with the operation, or a handler run
  /// inline threw) does not stop the others: the first exception is rethrown after all.
  void complete_all(completion_mode mode)
  {
    std::exception_ptr first;
    while (reactor_op* op = pop())
    {
      try
      {
        op->complete(mode);
      }
      catch (...)
      {
        if (!first)
          first = std::current_exception();
      }
    }
    if (first)
      std::rethrow_exception(first);
  }

private:
  template <class Predicate>
  reactor_op* unlink_first(Predicate matches) noexcept
  {
    reactor_op* prev = nullptr;
    for (reactor_op* p = head_; p; prev = p, p = p->next_)
    {
      if (!matches(*p))
        continue;
      (prev ? prev->next_ : head_) = p->next_;
      if (tail_ == p)
        tail_ = prev;
      p->next_ = nullptr;
      return p;
    }
    return nullptr;
  }

  reactor_op* head_ = nullptr;
  reactor_op* tail_ = nullptr;
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
