//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// What an accept loop does when async_accept fails, written once for every server here.
//
// Most accept errors concern one connection only (the client gave up before we accepted
// it: connection_aborted): the next accept may well succeed, so accept again at once. But
// when the process is out of descriptors (EMFILE), the system is (ENFILE) or the kernel is
// out of memory (ENOBUFS, ENOMEM), the failed connection stays in the listen queue, the
// acceptor stays readable, and accepting again at once fails again at once: a loop that
// retries immediately burns a whole core and, if it logs, floods the log until some
// connection closes. So after those errors the loop pauses (10 ms, doubling up to 1 s,
// back to 10 ms after a success) and logs at most one line a second, with the number of
// failures it did not log. Where connections keep closing, it runs out again after each
// accept: its lines saying it accepts again are limited to one a second as well.
// operation_aborted means the acceptor was closed: stop.
//
// With completion handlers:
//
//     acceptor_.async_accept([this](error_code ec, tcp::socket socket)
//     {
//         if(!ec)
//             start_session(std::move(socket));
//         backoff_.then(ec, [this] { accept(); }); // at once, later, or never
//     });
//
// With coroutines (C++20):
//
//     auto [ec, socket] = co_await acceptor.async_accept(net::as_tuple(net::use_awaitable));
//     if(ec == net::error::operation_aborted)
//         co_return;
//     ...
//     co_await backoff.pause(ec);
//
// The loop must have one accept outstanding at a time (as these examples do): the object
// is not protected against concurrent use.
//
#ifndef BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_ACCEPT_BACKOFF_HPP
#define BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_ACCEPT_BACKOFF_HPP

#include <boost/asio.hpp>

#if defined(BOOST_ASIO_HAS_CO_AWAIT)
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/use_awaitable.hpp>
#endif

#include "limits.hpp"

#include <algorithm>
#include <chrono>
#include <string>

class accept_backoff
{
public:
  static constexpr std::chrono::milliseconds first_pause{10};
  static constexpr std::chrono::milliseconds longest_pause{1000};
  static constexpr std::chrono::seconds log_interval{1};

  /// `name` starts every log line, e.g. "accept".
  template <class Executor>
  accept_backoff(Executor const& ex, char const* name) : timer_(ex), name_(name)
  {
  }

  /// True for the errors after which an immediate retry fails the same way.
  static bool out_of_resources(boost::system::error_code const& ec)
  {
    namespace errc = boost::system::errc;
    return ec == boost::asio::error::no_descriptors     // EMFILE
           || ec == errc::too_many_files_open_in_system // ENFILE
           || ec == boost::asio::error::no_buffer_space // ENOBUFS
           || ec == boost::asio::error::no_memory;      // ENOMEM
  }

  /// After an accept completed with `ec`, calls `next()` to accept again: at once after a
  /// success or a transient error, after a pause when out of resources, and never after
  /// operation_aborted (the acceptor was closed) or when the pause is cancelled.
  template <class Next>
  void then(boost::system::error_code const& ec, Next next)
  {
    auto const delay = record(ec);
    if (ec == boost::asio::error::operation_aborted)
      return;
    if (delay == std::chrono::milliseconds::zero())
      return next();
    timer_.expires_after(delay);
    timer_.async_wait([next = std::move(next)](boost::system::error_code wait_ec) mutable {
      if (!wait_ec)
        next();
    });
  }

#if defined(BOOST_ASIO_HAS_CO_AWAIT)
  /// The same for a coroutine's loop: returns once it may accept again. Never throws, so
  /// that no accept error can end the listener; the caller handles operation_aborted.
  boost::asio::awaitable<void> pause(boost::system::error_code ec)
  {
    auto const delay = record(ec);
    if (delay == std::chrono::milliseconds::zero())
      co_return;
    timer_.expires_after(delay);
    co_await timer_.async_wait(boost::asio::as_tuple(boost::asio::use_awaitable));
  }
#endif

  /// Stops a pending pause (e.g. at shutdown): `then` does not call `next`.
  void cancel() { timer_.cancel(); }

private:
  // Counts and logs the outcome; returns how long to wait before the next accept.
  std::chrono::milliseconds record(boost::system::error_code const& ec)
  {
    if (!ec)
    {
      if (pause_ != first_pause) // recovered from running out: worth a line
        recovery_log_.write(name_ + ": accepting again after " + std::to_string(failures_) +
                            " failure(s)");
      failures_ = 0;
      pause_ = first_pause;
      return std::chrono::milliseconds::zero();
    }
    if (ec == boost::asio::error::operation_aborted)
      return std::chrono::milliseconds::zero();

    ++failures_;
    bool const exhausted = out_of_resources(ec);
    std::string line = name_ + (": " + ec.message());
    if (exhausted)
      line += " (pausing " + std::to_string(pause_.count()) + " ms)";
    log_.write(line);

    if (!exhausted)
      return std::chrono::milliseconds::
          zero(); // concerned one connection only: accept the next at once
    auto const delay = pause_;
    pause_ = std::min(pause_ * 2, longest_pause);
    return delay;
  }

  boost::asio::steady_timer timer_;
  std::string name_;
  std::chrono::milliseconds pause_ = first_pause;
  rate_limited_log log_{log_interval}; // see limits.hpp
  rate_limited_log recovery_log_{log_interval};
  unsigned long failures_ = 0; // since the last success
};

#endif
