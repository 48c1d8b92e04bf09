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

// One direction's deadline. An operation that ends bumps the generation, so that a timer
// which fired too late to be cancelled cannot close the socket under the next operation.
template <class Executor>
struct stream_deadline
{
  explicit stream_deadline(const Executor& executor) : timer(executor) {}

  bool armed() const { return timer.expiry() != never(); }

  static std::chrono::steady_clock::time_point never()
  {
    return (std::chrono::steady_clock::time_point::max)();
  }

  stream_timer<Executor> timer;
  std::uint64_t generation = 0;
  bool pending = false;
  bool timed_out = false;
};

// What basic_stream's operations share; they hold it by shared_ptr so that it outlives a
// stream destroyed while they are still queued.
template <class Socket, class RatePolicy>
class stream_state : public std::enable_shared_from_this<stream_state<Socket, RatePolicy>>
{
public:
  using executor_type = typename Socket::executor_type;
  using deadline_type = stream_deadline<executor_type>;

  template <class Policy, class... Args>
  explicit stream_state(Policy&& policy, Args&&... args)
      : socket(std::forward<Args>(args)...), read(socket.get_executor()),
        write(socket.get_executor()), rate_timer(socket.get_executor()),
        policy(std::forward<Policy>(policy))
  {
    expire_never();
  }

  // A moved stream starts with timers of its own: what waits on `other`'s stays counted there
  // (it holds `other`); `other` keeps no timeouts and its rate tick stops.
  stream_state(stream_state&& other)
      : socket(std::move(other.socket)), read(socket.get_executor()), write(socket.get_executor()),
        rate_timer(socket.get_executor()), policy(std::move(other.policy))
  {
    read.timer.expires_at(other.read.timer.expiry());
    write.timer.expires_at(other.write.timer.expiry());
    other.expire_never();
    other.cancel_rate_wait();
  }

  void expire_at(std::chrono::steady_clock::time_point when)
  {
    BOOST_ASSERT(!read.pending || !write.pending);
    // A deadline applies to the next operation; the one in progress keeps its own.
    for (deadline_type* deadline : {&read, &write})
      if (!deadline->pending)
        deadline->timer.expires_at(when);
  }

  void expire_never() { expire_at(deadline_type::never()); }

  void close() noexcept
  {
    boost::system::error_code ignored;
    socket.close(ignored);
    cancel_rate_wait();
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

// A deadline's expiry, run on the executor of the operation it guards: it closes the
// socket, which ends that operation, and leaves the mark that turns its error into
// beast::error::timeout.
template <class State, class HandlerExecutor>
struct stream_timeout
{
  using executor_type = HandlerExecutor;
  executor_type get_executor() const noexcept { return executor; }

  void operator()(const boost::system::error_code& ec)
  {
    if (ec == boost::asio::error::operation_aborted)
      return;
    auto state = weak_state.lock();
    if (!state)
      return;
    auto& deadline = (*state).*direction;
    if (deadline.generation != generation)
      return;
    state->close();
    deadline.timed_out = true;
  }

  std::weak_ptr<State> weak_state;
  typename State::deadline_type State::*direction;
  std::uint64_t generation;
  HandlerExecutor executor;
};

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

  void arm_deadline()
  {
    if (!deadline().armed())
      return;
    armed_ = true;
    deadline().timer.async_wait(stream_timeout<State, decltype(this->get_executor())>{
        state_, direction_, deadline().generation, this->get_executor()});
  }

  // Ends the deadline's watch over this operation; an expiry that came first makes the
  // operation's result beast::error::timeout.
  void settle_deadline(boost::system::error_code& ec)
  {
    if (!armed_)
      return;
    armed_ = false;
    auto& watched = deadline();
    ++watched.generation;
    if (watched.timer.cancel() == 0 && watched.timed_out)
    {
      watched.timed_out = false;
      ec = boost::beast::error::timeout;
    }
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
      if (this->deadline().timer.expiry() <= std::chrono::steady_clock::now())
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
    this->arm_deadline();
    const std::size_t allowance = available();
    if (allowance == 0)
      return wait_for_allowance();
    transfer(allowance);
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
    this->complete_now(ec, bytes);
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
    this->arm_deadline();
    auto& socket = this->state_->socket;
    std::forward<Start>(start)(socket, std::move(*this));
  }

  stream_connect_op(stream_connect_op&&) = default;

  template <class... Result>
  void operator()(boost::system::error_code ec, Result&&... result)
  {
    this->settle_deadline(ec);
    read_pending_.reset();
    write_pending_.reset();
    this->complete_now(ec, std::forward<Result>(result)...);
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
