//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The operations of beast::basic_stream and their initiations, over the state they share
// (stream_state.hpp). doc/beast.md says how timeouts and rate limits work.
#ifndef BOOST_ASIO_NOTIFY_BEAST_DETAIL_STREAM_OPS_HPP
#define BOOST_ASIO_NOTIFY_BEAST_DETAIL_STREAM_OPS_HPP

#include <boost/asio_notify/beast/detail/rate_policy.hpp>
#include <boost/asio_notify/beast/detail/stream_state.hpp>

#include <boost/asio/buffer.hpp>
#include <boost/asio/cancellation_type.hpp>
#include <boost/beast/core/async_base.hpp>
#include <boost/beast/core/buffers_prefix.hpp>
#include <boost/beast/core/error.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

namespace boost {
namespace asio_notify {
namespace detail {

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
