//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The state of beast::basic_stream that its operations share (stream_ops.hpp): the socket,
// the deadlines and their timer, the rate policy and its timer. doc/beast.md says how
// timeouts and rate limits work.
#ifndef BOOST_ASIO_NOTIFY_BEAST_DETAIL_STREAM_STATE_HPP
#define BOOST_ASIO_NOTIFY_BEAST_DETAIL_STREAM_STATE_HPP

#include <boost/asio_notify/beast/detail/rate_policy.hpp>

#include <boost/asio/basic_waitable_timer.hpp>
#include <boost/asio/error.hpp>
#include <boost/assert.hpp>

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

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
