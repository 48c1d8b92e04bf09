//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The state of beast::basic_stream that its operations share, and those operations.
// doc/beast.md says how timeouts and rate limits work.
#ifndef BOOST_ASIO_NOTIFY_BEAST_DETAIL_STREAM_STATE_HPP
#define BOOST_ASIO_NOTIFY_BEAST_DETAIL_STREAM_STATE_HPP

#include <boost/asio_notify/beast/detail/rate_policy.hpp>

#include <boost/asio/basic_waitable_timer.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/cancellation_type.hpp>
#include <boost/asio/error.hpp>
#include <boost/assert.hpp>
#include <boost/beast/core/async_base.hpp>
#include <boost/beast/core/buffers_prefix.hpp>
#include <boost/beast/core/error.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

namespace boost {
namespace asio_notify {
namespace detail {

template <class Executor>
using stream_timer = boost::asio::basic_waitable_timer<
    std::chrono::steady_clock, boost::asio::wait_traits<std::chrono::steady_clock>, Executor>;

// Marks one direction busy for the life of the operation that holds it, moves with it, and
// clears the mark when that operation ends, however it ends.
class pending_mark
{
public:
  pending_mark() = default;

  explicit pending_mark(bool& pending) noexcept : pending_(&pending)
  {
    BOOST_ASSERT(!pending); // one read and one write at a time, as with Beast
    pending = true;
  }

  pending_mark(pending_mark&& other) noexcept : pending_(std::exchange(other.pending_, nullptr)) {}
  pending_mark& operator=(pending_mark&& other) noexcept
  {
    if (this != &other)
    {
      reset();
      pending_ = std::exchange(other.pending_, nullptr);
    }
    return *this;
  }
  ~pending_mark() { reset(); }

  void reset() noexcept
  {
    if (pending_)
      *pending_ = false;
    pending_ = nullptr;
  }

private:
  bool* pending_ = nullptr;
};

// One direction's timeout: the deadline of its next operation (never: none), and what the
// stream's deadline timer knows of the operation in progress.
struct stream_deadline
{
  bool armed() const { return expiry != never(); }

  static std::chrono::steady_clock::time_point never()
  {
    return (std::chrono::steady_clock::time_point::max)();
  }

  std::chrono::steady_clock::time_point expiry = never();
  bool pending = false;
  bool watched = false;   // the operation in progress times out at `expiry`
  bool timed_out = false; // the timer closed the socket under it
};

// What basic_stream's operations share; they hold it by shared_ptr so that it outlives a
// stream destroyed while they are still queued.
template <class Socket, class RatePolicy>
class stream_state : public std::enable_shared_from_this<stream_state<Socket, RatePolicy>>
{
public:
  using executor_type = typename Socket::executor_type;
  using deadline_type = stream_deadline;

  template <class Policy, class... Args>
  explicit stream_state(Policy&& policy, Args&&... args)
      : socket(std::forward<Args>(args)...), deadline_timer(socket.get_executor()),
        rate_timer(socket.get_executor()), policy(std::forward<Policy>(policy))
  {
  }

  // A moved stream starts with timers of its own: what waits on `other`'s stays counted there
  // (it holds `other`); `other` keeps no timeouts and its rate tick stops.
  stream_state(stream_state&& other)
      : socket(std::move(other.socket)), deadline_timer(socket.get_executor()),
        rate_timer(socket.get_executor()), policy(std::move(other.policy))
  {
    read.expiry = other.read.expiry;
    write.expiry = other.write.expiry;
    other.expire_never();
    other.cancel_rate_wait();
  }

  void expire_at(std::chrono::steady_clock::time_point when)
  {
    BOOST_ASSERT(!read.pending || !write.pending);
    // A deadline applies to the next operation; the one in progress keeps its own.
    for (deadline_type* deadline : {&read, &write})
      if (!deadline->pending)
        deadline->expiry = when;
  }

  void expire_never() { expire_at(deadline_type::never()); }

  void close() noexcept
  {
    boost::system::error_code ignored;
    socket.close(ignored);
    cancel_rate_wait();
  }

  // The deadline timer: one wait at most, shared by both directions, left in place from one
  // operation to the next while one is watched, so that an operation's timeout costs no
  // timer update and no cancelled wait (doc/beast.md, "The stream").

  // `deadline`'s operation starts: the timer fires by its expiry, then looks again.
  void watch(deadline_type& deadline);

  // The timer fired: a watched operation whose deadline passed has the socket closed under
  // it; the timer waits again for the next one.
  void on_deadline_timer();

  // The timer waits until `when`, replacing the wait it had. Where it cannot (no memory),
  // the operations it watched end now, as at their deadline, rather than never.
  void wait_until(std::chrono::steady_clock::time_point when);

  // After an operation's handler: nothing watched is left, so the wait, which keeps the
  // context's work, goes.
  void release_deadline_timer() noexcept
  {
    if (!deadline_waiting || read.watched || write.watched)
      return;
    deadline_waiting = false;
    ++deadline_wait_id;
    try
    {
      deadline_timer.cancel();
    }
    catch (...)
    {
      // Only the platform's timer queue can fail here; the wait then ends when it fires,
      // finding nothing watched.
    }
  }

  void cancel_rate_wait() noexcept
  {
    try
    {
      rate_timer.cancel();
    }
    catch (...)
    {
      // The timer's cancel reports failures of the platform's timer queue only; a stream
      // being closed has nothing better to do with one.
    }
  }

  // Called by each operation woken by the rate timer, and by the timer's own tick: the
  // last of them refills the policy and arms the next second.
  template <class HandlerExecutor>
  void on_rate_timer(const HandlerExecutor& executor);

  Socket socket;
  deadline_type read;
  deadline_type write;
  stream_timer<executor_type> deadline_timer;
  bool deadline_waiting = false;      // a wait is outstanding on deadline_timer
  std::uint64_t deadline_wait_id = 0; // of the outstanding wait; older ones find another
  stream_timer<executor_type> rate_timer;
  int rate_waiters = 0;
  RatePolicy policy;
};

// The rate timer's once-a-second tick, run on the executor of the operation that armed it.
template <class State, class HandlerExecutor>
struct rate_tick
{
  using executor_type = HandlerExecutor;
  executor_type get_executor() const noexcept { return executor; }

  void operator()(const boost::system::error_code& ec)
  {
    auto state = weak_state.lock();
    if (!state)
      return;
    // A cancelled tick counts itself out, or the next wait could never be the last.
    if (ec == boost::asio::error::operation_aborted)
      --state->rate_waiters;
    else
      state->on_rate_timer(executor);
  }

  std::weak_ptr<State> weak_state;
  HandlerExecutor executor;
};

template <class Socket, class RatePolicy>
template <class HandlerExecutor>
void stream_state<Socket, RatePolicy>::on_rate_timer(const HandlerExecutor& executor)
{
  BOOST_ASSERT(rate_waiters > 0);
  if (--rate_waiters > 0)
    return;
  rate_timer.expires_after(std::chrono::seconds(1));
  rate_policy::on_timer(policy);
  rate_timer.async_wait(rate_tick<stream_state, HandlerExecutor>{this->weak_from_this(), executor});
  ++rate_waiters;
}

// The deadline timer's wait, run on the stream's executor: it outlives the operation that
// started it and watches the ones after.
template <class State>
struct stream_timeout
{
  using executor_type = typename State::executor_type;
  executor_type get_executor() const noexcept { return executor; }

  void operator()(const boost::system::error_code& ec)
  {
    auto state = weak_state.lock();
    if (!state || state->deadline_wait_id != wait_id)
      return; // the stream is gone, or this wait was replaced or released
    state->deadline_waiting = false;
    if (ec != boost::asio::error::operation_aborted)
      state->on_deadline_timer();
  }

  std::weak_ptr<State> weak_state;
  std::uint64_t wait_id;
  executor_type executor;
};

template <class Socket, class RatePolicy>
void stream_state<Socket, RatePolicy>::watch(deadline_type& deadline)
{
  if (!deadline_waiting || deadline_timer.expiry() > deadline.expiry)
    wait_until(deadline.expiry); // may throw: the operation then never started
  deadline.watched = true;
}

template <class Socket, class RatePolicy>
void stream_state<Socket, RatePolicy>::wait_until(std::chrono::steady_clock::time_point when)
{
  // A new expiry cancels the wait there was, whose handler then finds another wait id.
  deadline_waiting = false;
  try
  {
    deadline_timer.expires_at(when);
    deadline_timer.async_wait(stream_timeout<stream_state>{
        this->weak_from_this(), ++deadline_wait_id, socket.get_executor()});
  }
  catch (...)
  {
    bool watched = false;
    for (deadline_type* deadline : {&read, &write})
      watched = (deadline->timed_out = deadline->watched) || watched;
    if (watched)
      close();
    throw;
  }
  deadline_waiting = true;
}

template <class Socket, class RatePolicy>
void stream_state<Socket, RatePolicy>::on_deadline_timer()
{
  const auto now = std::chrono::steady_clock::now();
  auto next = deadline_type::never();
  bool passed = false;
  for (deadline_type* deadline : {&read, &write})
  {
    if (!deadline->watched)
      continue;
    if (deadline->expiry <= now)
      passed = deadline->timed_out = true;
    else
      next = (std::min)(next, deadline->expiry);
  }
  if (passed)
    return close(); // ends both directions' operations, each releasing its watch
  if (next == deadline_type::never())
    return;
  try
  {
    wait_until(next);
  }
  catch (...)
  {
    // The watched operations were ended (wait_until); a handler has no one to tell.
  }
}

// What the read, write and connect operations share: the state, the deadline of their
// direction, and arming and settling that deadline around the socket operation.
template <class State, class Handler>
class stream_op_base : public boost::beast::async_base<Handler, typename State::executor_type>
{
  using base = boost::beast::async_base<Handler, typename State::executor_type>;

protected:
  using deadline_member = typename State::deadline_type State::*;

  template <class Handler_>
  stream_op_base(Handler_&& handler, std::shared_ptr<State> state, deadline_member direction)
      : base(std::forward<Handler_>(handler), state->socket.get_executor()),
        state_(std::move(state)), direction_(direction)
  {
    this->set_allowed_cancellation(boost::asio::cancellation_type::all);
  }

  typename State::deadline_type& deadline() const { return (*state_).*direction_; }

  // Arms the deadline, then starts the operation with `start`, which may move `*this`
  // away. A start that throws began nothing, so it leaves no watch behind.
  template <class Start>
  void start_watched(Start&& start)
  {
    if (!deadline().armed())
      return start();
    auto& watched = deadline();
    const std::shared_ptr<State> state = state_;
    state->watch(watched);
    armed_ = true;
    try
    {
      start();
    }
    catch (...)
    {
      watched.watched = false;
      state->release_deadline_timer();
      throw;
    }
  }

  // Ends the deadline's watch over this operation; an expiry that came first makes the
  // operation's result beast::error::timeout. The timer's wait stays for the next one.
  void settle_deadline(boost::system::error_code& ec)
  {
    if (!armed_)
      return;
    armed_ = false;
    auto& watched = deadline();
    watched.watched = false;
    if (std::exchange(watched.timed_out, false))
      ec = boost::beast::error::timeout;
  }

  // The handler, then: whatever it started keeps the deadline timer's wait, or it goes,
  // also when the handler throws.
  template <class... Args>
  void complete_and_release(Args&&... args)
  {
    struct release_after
    {
      std::shared_ptr<State> state;
      ~release_after() { state->release_deadline_timer(); }
    } release{state_};
    this->complete_now(std::forward<Args>(args)...);
  }

  std::shared_ptr<State> state_;

private:
  deadline_member direction_;
  bool armed_ = false;
};

// async_read_some and async_write_some: wait for the rate policy's allowance if it has
// none, transfer at most that much, and watch the direction's deadline meanwhile.
template <bool Reading, class State, class Buffers, class Handler>
class stream_transfer_op : public stream_op_base<State, Handler>
{
  using base = stream_op_base<State, Handler>;

public:
  template <class Handler_>
  stream_transfer_op(Handler_&& handler, std::shared_ptr<State> state, const Buffers& buffers)
      : base(std::forward<Handler_>(handler), std::move(state),
             Reading ? &State::read : &State::write),
        buffers_(buffers)
  {
    const bool empty = boost::asio::buffer_size(buffers_) == 0;
    if (empty && this->deadline().pending)
      this->complete(false, boost::system::error_code(), std::size_t(0));
    else
      start(empty);
  }

  stream_transfer_op(stream_transfer_op&&) = default;

  void operator()(boost::system::error_code ec, std::size_t bytes = 0)
  {
    switch (step_)
    {
    case step::empty_transfer:
      // An empty transfer is not watched; one that finds the deadline passed still reports it.
      if (this->deadline().expiry <= std::chrono::steady_clock::now())
      {
        this->state_->close();
        ec = boost::beast::error::timeout;
      }
      return upcall(ec, bytes);
    case step::allowance_wait:
      if (ec)
      {
        --this->state_->rate_waiters;
        return settle_and_upcall(ec, 0);
      }
      this->state_->on_rate_timer(this->get_executor()); // counts this waiter out
      return transfer((std::max)(available(), std::size_t(1)));
    case step::transfer:
      return settle_and_upcall(ec, bytes);
    }
  }

private:
  enum class step
  {
    empty_transfer,
    allowance_wait,
    transfer
  };

  std::size_t available() { return rate_policy::available_bytes(this->state_->policy, Reading); }

  void start(bool empty)
  {
    pending_ = pending_mark(this->deadline().pending);
    if (empty)
      return start_empty();
    this->start_watched([this] {
      const std::size_t allowance = available();
      if (allowance == 0)
        return wait_for_allowance();
      transfer(allowance);
    });
  }

  void start_empty()
  {
    step_ = step::empty_transfer;
    perform(0);
  }

  void wait_for_allowance()
  {
    step_ = step::allowance_wait;
    auto& state = *this->state_;
    state.rate_timer.async_wait(std::move(*this));
    ++state.rate_waiters; // after the wait, which may throw and never completes inline
  }

  void transfer(std::size_t allowance)
  {
    step_ = step::transfer;
    perform(allowance);
  }

  void perform(std::size_t allowance)
  {
    auto& socket = this->state_->socket;
    auto prefix = boost::beast::buffers_prefix(allowance, buffers_);
    if constexpr (Reading)
      socket.async_read_some(prefix, std::move(*this));
    else
      socket.async_write_some(prefix, std::move(*this));
  }

  void settle_and_upcall(boost::system::error_code ec, std::size_t bytes)
  {
    this->settle_deadline(ec);
    upcall(ec, bytes);
  }

  void upcall(const boost::system::error_code& ec, std::size_t bytes)
  {
    pending_.reset();
    rate_policy::transfer_bytes(this->state_->policy, Reading, bytes);
    this->complete_and_release(ec, bytes);
  }

  Buffers buffers_;
  pending_mark pending_;
  step step_ = step::transfer;
};

// async_connect in all its forms: both directions are busy while it runs, and the write
// direction's deadline watches it, as with Beast.
template <class State, class Handler>
class stream_connect_op : public stream_op_base<State, Handler>
{
  using base = stream_op_base<State, Handler>;

public:
  template <class Handler_, class Start>
  stream_connect_op(Handler_&& handler, std::shared_ptr<State> state, Start&& start)
      : base(std::forward<Handler_>(handler), std::move(state), &State::write),
        read_pending_(this->state_->read.pending), write_pending_(this->state_->write.pending)
  {
    auto& socket = this->state_->socket;
    this->start_watched([&] { std::forward<Start>(start)(socket, std::move(*this)); });
  }

  stream_connect_op(stream_connect_op&&) = default;

  template <class... Result>
  void operator()(boost::system::error_code ec, Result&&... result)
  {
    this->settle_deadline(ec);
    read_pending_.reset();
    write_pending_.reset();
    this->complete_and_release(ec, std::forward<Result>(result)...);
  }

private:
  pending_mark read_pending_;
  pending_mark write_pending_;
};

// The initiations of basic_stream's operations. They name the stream's executor, as Asio's
// own do, for the completion token adapters that ask for it (cancel_after, cancel_at).
template <class State>
struct stream_initiation
{
  using executor_type = typename State::executor_type;
  executor_type get_executor() const noexcept { return state->socket.get_executor(); }
  std::shared_ptr<State> state;
};

template <class State, bool Reading>
struct initiate_stream_transfer : stream_initiation<State>
{
  template <class Handler, class Buffers>
  void operator()(Handler&& handler, const Buffers& buffers) const
  {
    stream_transfer_op<Reading, State, Buffers, std::decay_t<Handler>>(
        std::forward<Handler>(handler), this->state, buffers);
  }
};

template <class State>
struct initiate_stream_connect : stream_initiation<State>
{
  template <class Handler, class Start>
  void operator()(Handler&& handler, Start start) const
  {
    stream_connect_op<State, std::decay_t<Handler>>(std::forward<Handler>(handler), this->state,
                                                    std::move(start));
  }
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
