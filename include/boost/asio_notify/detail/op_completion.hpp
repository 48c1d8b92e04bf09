//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What is scheduled when an operation finishes, and where it is allocated: room inside the
// operation, so that the operation's own allocation through its handler's allocator is the
// only one, as with Asio's own operations.
#ifndef BOOST_ASIO_NOTIFY_DETAIL_OP_COMPLETION_HPP
#define BOOST_ASIO_NOTIFY_DETAIL_OP_COMPLETION_HPP

#include <boost/asio/associated_allocator.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/recycling_allocator.hpp>
#include <boost/system/error_code.hpp>

#include <cstddef>
#include <tuple>
#include <utility>

namespace boost {
namespace asio_notify {
namespace detail {

/// Room for one object Asio allocates to schedule a handler (see arena_allocator).
template <std::size_t Size>
struct basic_arena
{
  static constexpr std::size_t size = Size;

  // Pointer-aligned, not max_align_t: what Asio queues holds pointers and integers, and
  // the arena with its flags then takes 48 bytes, not 64 (allocate() checks each type).
  alignas(void*) unsigned char bytes[Size];
  bool used = false;
  /// A request missed the arena: the object lives elsewhere, and no later request (a
  /// strand's invoker, say) may take the arena, which goes when its owner is freed.
  bool spent = false;
};

/// Room inside an operation for the one object Asio allocates to schedule its completion;
/// a larger or a second request goes to Asio's recycling allocator. Why and how large:
/// doc/design.md, "The completion arena".
#if defined(BOOST_ASIO_ENABLE_HANDLER_TRACKING)
constexpr std::size_t tracking_room = 8; // Asio's queued operations carry a tracking id
#else
constexpr std::size_t tracking_room = 0;
#endif
#if defined(_WIN32)
using completion_arena = basic_arena<72 + tracking_room>;
#else
using completion_arena = basic_arena<40 + tracking_room>;
#endif

/// The allocator of a handler scheduled in an arena (an `op_completion`: its operation's),
/// else Asio's recycling one.
template <class T, class Arena = completion_arena>
class arena_allocator
{
public:
  using value_type = T;

  explicit arena_allocator(Arena& arena) noexcept : arena_(&arena) {}
  template <class U>
  arena_allocator(const arena_allocator<U, Arena>& other) noexcept : arena_(other.arena_)
  {
  }

  T* allocate(std::size_t n)
  {
    const bool fits = n * sizeof(T) <= Arena::size && alignof(T) <= alignof(Arena);
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
  template <class U, class A>
  friend class arena_allocator;
  Arena* arena_;
};

/// An operation owned on its way through an executor: destroyed without being invoked (the
/// context shut down), it frees the operation.
template <class Op>
class owned_op
{
public:
  explicit owned_op(Op* op) noexcept : op_(op) {}
  owned_op(owned_op&& other) noexcept : op_(std::exchange(other.op_, nullptr)) {}
  owned_op& operator=(owned_op&&) = delete;
  ~owned_op()
  {
    if (op_)
      Op::discard(op_);
  }

  /// The operation, for the associated_allocator and associated_executor specialisations.
  Op& op() const noexcept { return *op_; }

protected:
  Op* release() noexcept { return std::exchange(op_, nullptr); }

private:
  Op* op_;
};

/** What is scheduled on the handler's executor when an operation finishes: it owns the
    operation (its handler and results still inside), and when invoked frees it and calls
    the handler. It is allocated for in the operation's arena (see the associated_allocator
    specialisation at the end of this file). It carries no executor when scheduled on the
    handler's executor (an associated executor would make Asio wrap it once more);
    `WithHandlerExecutor` gives it the handler's, for a dispatch through an immediate
    executor, which goes on to the handler's executor as Asio's own immediate completions
    do. */
template <class Op, bool WithHandlerExecutor = false>
class op_completion : public owned_op<Op>
{
public:
  using owned_op<Op>::owned_op;

  void operator()() { Op::invoke(this->release()); }
};

/** An aborted operation on its way to its handler's executor through the io_context
    (completion_mode::aborted): posted there in the operation's arena, so that the close,
    release or cancel that aborted it allocates nothing; invoked inside run(), it completes
    the operation on the handler's executor, which may allocate there. */
template <class Op>
class op_hop : public owned_op<Op>
{
public:
  using owned_op<Op>::owned_op;

  void operator()() { Op::complete_after_hop(this->release()); }
};

/** The completion of an operation already freed: its handler and what makes the handler's
    arguments (the performer and its results), scheduled where the handler's executor is
    not an io_context's (see handler_op::do_complete). The executor allocates its queue
    entry for it with the handler's allocator, as for Asio's own completions. */
template <class Handler, class Performer>
class handler_completion
{
public:
  handler_completion(Handler&& h, Performer&& perf, const boost::system::error_code& ec,
                     std::size_t bytes)
      : handler_(std::move(h)), performer_(std::move(perf)), ec_(ec), bytes_(bytes)
  {
  }

  void operator()() { std::apply(std::move(handler_), performer_.results(ec_, bytes_)); }

  /// For the associated_allocator specialisation.
  const Handler& handler() const noexcept { return handler_; }

private:
  Handler handler_;
  Performer performer_;
  boost::system::error_code ec_;
  std::size_t bytes_;
};

} // namespace detail
} // namespace asio_notify

namespace asio {

/// A freed operation's completion is allocated with its handler's allocator.
template <class Handler, class Performer, class DefaultAllocator>
struct associated_allocator<asio_notify::detail::handler_completion<Handler, Performer>,
                            DefaultAllocator>
{
  using type = associated_allocator_t<Handler, DefaultAllocator>;

  static type get(const asio_notify::detail::handler_completion<Handler, Performer>& c,
                  const DefaultAllocator& a = DefaultAllocator()) noexcept
  {
    return get_associated_allocator(c.handler(), a);
  }
};

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

/// An aborted operation's hop through the io_context is allocated for in its arena.
template <class Op, class DefaultAllocator>
struct associated_allocator<asio_notify::detail::op_hop<Op>, DefaultAllocator>
{
  using type = asio_notify::detail::arena_allocator<void>;

  static type get(const asio_notify::detail::op_hop<Op>& h,
                  const DefaultAllocator& = DefaultAllocator()) noexcept
  {
    return type(h.op().arena());
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
