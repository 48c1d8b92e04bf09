//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What every scenario uses: the clock, the first failure of a run, a guard against a run
// that hangs, the io_context's threads, and a connected pair of sockets over loopback.
#ifndef BOOST_ASIO_NOTIFY_BENCH_SCENARIO_SUPPORT_HPP
#define BOOST_ASIO_NOTIFY_BENCH_SCENARIO_SUPPORT_HPP

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address_v4.hpp>
#include <boost/system/error_code.hpp>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace bench {

using clock_type = std::chrono::steady_clock;
using boost::system::error_code;

inline double seconds_since(clock_type::time_point t0)
{
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

/// The first failure of a run, from any thread.
class failure
{
public:
  void set(const std::string& what)
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (what_.empty())
      what_ = what;
  }

  void set(const char* where, const error_code& ec)
  {
    set(std::string(where) + ": " + ec.message());
  }

  std::string what() const
  {
    std::lock_guard<std::mutex> lock(mutex_);
    return what_;
  }

private:
  mutable std::mutex mutex_;
  std::string what_;
};

/** While it lives, a thread that stops `ioc` with `what` as the run's failure once `limit`
    has passed: a lost readiness event or completion then fails the run, with its cause,
    instead of hanging it (the storm has a timer of its own). */
class hang_guard
{
public:
  hang_guard(boost::asio::io_context& ioc, failure& failed, clock_type::duration limit,
             std::string what)
      : thread_([this, &ioc, &failed, limit, what] {
          std::unique_lock<std::mutex> lock(mutex_);
          if (!done_changed_.wait_for(lock, limit, [this] { return done_; }))
          {
            failed.set(what);
            ioc.stop();
          }
        })
  {
  }

  hang_guard(const hang_guard&) = delete;
  hang_guard& operator=(const hang_guard&) = delete;

  ~hang_guard()
  {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    done_changed_.notify_all();
    thread_.join();
  }

private:
  std::mutex mutex_;
  std::condition_variable done_changed_;
  bool done_ = false;
  std::thread thread_; // last: it uses the members above
};

/// Run `ioc` on this thread and `threads - 1` more until it runs out of work.
inline void run_threads(boost::asio::io_context& ioc, std::size_t threads)
{
  std::vector<std::thread> helpers;
  for (std::size_t i = 1; i < threads; ++i)
    helpers.emplace_back([&ioc] { ioc.run(); });
  ioc.run();
  for (std::thread& t : helpers)
    t.join();
}

template <class Tcp>
typename Tcp::endpoint loopback_any_port()
{
  return typename Tcp::endpoint(boost::asio::ip::address_v4::loopback(), 0);
}

/// Make a connection over loopback: both ends on the backend under test, no_delay set.
template <class Tcp>
void connect_pair(typename Tcp::acceptor& acceptor, typename Tcp::socket& client,
                  typename Tcp::socket& server)
{
  client.connect(acceptor.local_endpoint());
  acceptor.accept(server);
  client.set_option(typename Tcp::no_delay(true));
  server.set_option(typename Tcp::no_delay(true));
}

} // namespace bench

#endif
