//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The benchmark scenarios, each written once as a template over the protocol class whose
// `socket` and `acceptor` it uses: `boost::asio::ip::tcp` (stock Asio, epoll reactor) or
// `boost::asio_notify::ip::tcp` (the notify reactor). Each runs on an io_context given by
// the caller, which has installed the reactor it wants beforehand.
#ifndef BOOST_ASIO_NOTIFY_BENCH_SCENARIOS_HPP
#define BOOST_ASIO_NOTIFY_BENCH_SCENARIOS_HPP

#include "process.hpp"

#include <boost/asio/error.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address_v4.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <limits>
#include <memory>
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

/** One echo connection: the client writes a message, the server reads it and writes it
    back, the client reads it; again until `round_trips` are done or `deadline` passes.
    When the client stops it shuts its sending side down, the server sees end of file, and
    no operation is left: the io_context runs out of work. */
template <class Socket>
class echo_link
{
public:
  echo_link(Socket client, Socket server, std::size_t message_size, std::uint64_t round_trips,
            std::vector<float>* samples, failure& failed)
      : client_(std::move(client)), server_(std::move(server)), client_buffer_(message_size, 'p'),
        server_buffer_(message_size), remaining_(round_trips), samples_(samples), failed_(failed)
  {
  }

  void start(clock_type::time_point deadline = clock_type::time_point::max())
  {
    deadline_ = deadline;
    server_read();
    client_next();
  }

  std::uint64_t bytes_echoed() const { return bytes_echoed_; }

private:
  void client_next()
  {
    if (remaining_ == 0 || clock_type::now() >= deadline_)
    {
      error_code ignored;
      client_.shutdown(boost::asio::socket_base::shutdown_send, ignored);
      return;
    }
    --remaining_;
    if (samples_)
      sent_at_ = clock_type::now();
    boost::asio::async_write(client_, boost::asio::buffer(client_buffer_),
                             [this](const error_code& ec, std::size_t) {
                               if (ec)
                                 return failed_.set("client write", ec);
                               client_read();
                             });
  }

  void client_read()
  {
    boost::asio::async_read(
        client_, boost::asio::buffer(client_buffer_), [this](const error_code& ec, std::size_t n) {
          if (ec)
            return failed_.set("client read", ec);
          bytes_echoed_ += n;
          if (samples_)
            samples_->push_back(
                std::chrono::duration<float, std::micro>(clock_type::now() - sent_at_).count());
          client_next();
        });
  }

  void server_read()
  {
    boost::asio::async_read(server_, boost::asio::buffer(server_buffer_),
                            [this](const error_code& ec, std::size_t) {
                              if (ec == boost::asio::error::eof)
                                return; // the client is done
                              if (ec)
                                return failed_.set("server read", ec);
                              server_write();
                            });
  }

  void server_write()
  {
    boost::asio::async_write(server_, boost::asio::buffer(server_buffer_),
                             [this](const error_code& ec, std::size_t) {
                               if (ec)
                                 return failed_.set("server write", ec);
                               server_read();
                             });
  }

  Socket client_;
  Socket server_;
  std::vector<char> client_buffer_;
  std::vector<char> server_buffer_;
  std::uint64_t remaining_;
  clock_type::time_point deadline_{};
  std::vector<float>* samples_;
  failure& failed_;
  clock_type::time_point sent_at_{};
  std::uint64_t bytes_echoed_ = 0;
};

// ---- 1. ping-pong latency -----------------------------------------------------------------

struct latency_result
{
  std::string error;
  double mean_us = 0; // wall time of the whole run / round trips
  double p50_us = 0;  // of the individually timed round trips
  double p99_us = 0;
  std::uint64_t round_trips = 0;        // made: fewer than asked for when the time limit struck
  double switches_per_round_trip = NAN; // voluntary context switches; NaN where not counted
};

/** One connection over loopback, both ends on the io_context (run by this thread alone,
    or by `threads` threads: the client's and the server's handlers may then run on
    different threads), `message_size`-byte messages, `round_trips` round trips or as many
    as `time_limit` allows. With `time_each`, every round trip is timed too (clock reads
    only: on Linux the clock is in the vDSO, no system call). */
template <class Tcp>
latency_result run_latency(boost::asio::io_context& ioc, std::uint64_t round_trips,
                           std::size_t message_size, bool time_each,
                           std::chrono::milliseconds time_limit = std::chrono::hours(24),
                           std::size_t threads = 1)
{
  using socket = typename Tcp::socket;
  latency_result r;
  typename Tcp::acceptor acceptor(ioc, loopback_any_port<Tcp>());
  socket client(ioc);
  socket server(ioc);
  connect_pair<Tcp>(acceptor, client, server);
  std::vector<float> samples;
  if (time_each)
    samples.reserve(static_cast<std::size_t>(round_trips));
  failure failed;
  echo_link<socket> link(std::move(client), std::move(server), message_size, round_trips,
                         time_each ? &samples : nullptr, failed);
  const auto t0 = clock_type::now();
  link.start(t0 + time_limit);
  {
    const hang_guard guard(ioc, failed, time_limit + std::chrono::seconds(60),
                           "no progress for 60 s past the time limit (a lost readiness event?)");
    run_threads(ioc, threads);
  }
  const double elapsed = seconds_since(t0);
  r.error = failed.what();
  r.round_trips = link.bytes_echoed() / message_size;
  if (r.error.empty() &&
      (link.bytes_echoed() % message_size != 0 || (round_trips != 0 && r.round_trips == 0)))
    r.error = "echoed " + std::to_string(link.bytes_echoed()) + " bytes in " +
              std::to_string(message_size) + "-byte messages";
  if (r.round_trips != 0)
    r.mean_us = elapsed * 1e6 / static_cast<double>(r.round_trips);
  if (!samples.empty())
  {
    auto at = [&](double q) {
      auto it = samples.begin() +
                static_cast<std::ptrdiff_t>(q * static_cast<double>(samples.size() - 1));
      std::nth_element(samples.begin(), it, samples.end());
      return static_cast<double>(*it);
    };
    r.p50_us = at(0.50);
    r.p99_us = at(0.99);
  }
  return r;
}

// ---- 2. throughput --------------------------------------------------------------------------

struct throughput_result
{
  std::string error;
  double mb_per_s = 0; // payload bytes echoed back to the clients per second, 1 MB = 1e6 B
};

/// `connections` echo connections over loopback (both ends on the io_context), `message_size`
/// messages, echoing for `duration`; the io_context is run by `threads` threads.
template <class Tcp>
throughput_result run_throughput(boost::asio::io_context& ioc, std::size_t connections,
                                 std::size_t message_size, std::chrono::milliseconds duration,
                                 std::size_t threads)
{
  using socket = typename Tcp::socket;
  throughput_result r;
  typename Tcp::acceptor acceptor(ioc, loopback_any_port<Tcp>());
  failure failed;
  std::vector<std::unique_ptr<echo_link<socket>>> links;
  for (std::size_t i = 0; i < connections; ++i)
  {
    socket client(ioc);
    socket server(ioc);
    connect_pair<Tcp>(acceptor, client, server);
    links.push_back(std::make_unique<echo_link<socket>>(
        std::move(client), std::move(server), message_size,
        std::numeric_limits<std::uint64_t>::max(), nullptr, failed));
  }
  const auto t0 = clock_type::now();
  for (auto& link : links)
    link->start(t0 + duration);
  {
    const hang_guard guard(ioc, failed, duration + std::chrono::seconds(60),
                           "not done 60 s past the duration (a lost readiness event?)");
    run_threads(ioc, threads);
  }
  const double elapsed = seconds_since(t0);
  r.error = failed.what();
  std::uint64_t bytes = 0;
  for (auto& link : links)
    bytes += link->bytes_echoed();
  if (r.error.empty() && bytes == 0)
    r.error = "no bytes echoed";
  r.mb_per_s = static_cast<double>(bytes) / elapsed / 1e6;
  return r;
}

// ---- 3. async_wait storms ------------------------------------------------------------------

struct storm_result
{
  std::string error;
  double events_per_s = 0;     // completions of async_wait(wait_read) per second
  std::size_t sockets = 0;     // how many sockets waited
  bool peers_in_child = false; // the writing ends lived in another process
  std::uint64_t spurious = 0;  // completions that found nothing to read
};

/// `count` sockets accepted on `ioc`, connected from peers in a child process where possible
/// (else on a thread). `error` says why not, when they could not all be made.
template <class Tcp>
struct storm_connections
{
  storm_connections(boost::asio::io_context& io, std::size_t count)
      : ioc(io), acceptor(io, loopback_any_port<Tcp>()),
        peers(start_peers(acceptor.local_endpoint().port(), count))
  {
    sockets.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
    {
      sockets.emplace_back(ioc);
      acceptor.accept(sockets.back());
    }
    if (!peers->wait_connected())
      error = "the peers could not connect";
  }

  /// What a storm over these connections starts from: their count, where the peers are, and
  /// why the connections could not be made, if so.
  storm_result result() const
  {
    storm_result r;
    r.sockets = sockets.size();
    r.peers_in_child = peers->separate_process();
    r.error = error;
    return r;
  }

  /// Cancels every socket's waits before closing it, then runs the aborted handlers, so that
  /// every pending wait ends with operation_aborted on every system. Closed with a wait
  /// pending, stock Asio's socket on Windows (a zero-byte overlapped WSARecv) completes with
  /// ERROR_OPERATION_ABORTED (995) or ERROR_NETNAME_DELETED (64), which Asio maps to
  /// operation_aborted; under Wine with ERROR_HANDLES_CLOSED (676): Wine's server ends the
  /// I/O of a closed handle with STATUS_HANDLES_CLOSED (server/async.c, free_async_queue),
  /// which Asio passes on unmapped. The cancel (CancelIoEx) gives STATUS_CANCELLED, so 995,
  /// on both.
  void close_all()
  {
    for (auto& s : sockets)
    {
      error_code ignored;
      s.cancel(ignored);
      s.close(ignored);
    }
    ioc.restart();
    ioc.run();
  }

  boost::asio::io_context& ioc;
  typename Tcp::acceptor acceptor;
  std::unique_ptr<peer_group> peers;
  std::vector<typename Tcp::socket> sockets;
  std::string error;
};

/// A timer that fails a storm making no progress for 120 s (a lost readiness event) instead of
/// letting it hang.
inline boost::asio::steady_timer storm_watchdog(boost::asio::io_context& ioc, failure& failed)
{
  boost::asio::steady_timer watchdog(ioc, std::chrono::seconds(120));
  watchdog.async_wait([&ioc, &failed](const error_code& ec) {
    if (!ec)
    {
      failed.set("lost readiness events: the storm made no progress for 120 s");
      ioc.stop();
    }
  });
  return watchdog;
}

/// `count` sockets each with a pending async_wait(wait_read); the handler reads its byte
/// and waits again. See run_storm.
template <class Socket>
class storm_waiters
{
public:
  storm_waiters(boost::asio::io_context& ioc, std::vector<Socket>& sockets, failure& failed)
      : ioc_(ioc), sockets_(sockets), failed_(failed)
  {
  }

  void arm(std::size_t i)
  {
    sockets_[i].async_wait(boost::asio::socket_base::wait_read,
                           [this, i](const error_code& ec) { ready(i, ec); });
  }

  /// Run the io_context until `events` more sockets have been found readable and read.
  void run_until(std::uint64_t events)
  {
    target_ += events;
    if (completed_ >= target_)
      return;
    ioc_.restart();
    ioc_.run(); // the handler that reaches the target stops it
  }

  std::uint64_t completed() const { return completed_; }
  std::uint64_t spurious() const { return spurious_; }

private:
  void ready(std::size_t i, const error_code& ec)
  {
    if (ec)
    {
      if (ec != boost::asio::error::operation_aborted)
        failed_.set(ec.value() == 676 && ec.category() == boost::system::system_category()
                        ? "async_wait (ERROR_HANDLES_CLOSED: under Wine, a wait pending on a "
                          "socket when it is closed ends so, where Windows says "
                          "ERROR_OPERATION_ABORTED, which Asio maps to operation_aborted)"
                        : "async_wait",
                    ec);
      return;
    }
    char byte;
    error_code read_ec;
    const std::size_t n = sockets_[i].read_some(boost::asio::buffer(&byte, 1), read_ec);
    if (read_ec == boost::asio::error::would_block)
      ++spurious_;
    else if (read_ec || n != 1)
    {
      failed_.set("read", read_ec);
      ioc_.stop();
      return;
    }
    else
      ++completed_;
    arm(i);
    if (completed_ == target_)
      ioc_.stop();
  }

  boost::asio::io_context& ioc_;
  std::vector<Socket>& sockets_;
  failure& failed_;
  std::uint64_t completed_ = 0;
  std::uint64_t target_ = 0;
  std::uint64_t spurious_ = 0;
};

/** `count` accepted sockets on the io_context each wait for readability; their peers (in a
    child process where possible) write one byte to `subset` sockets chosen at random, then
    the io_context runs (this thread) until all of them were reported and read; `phases`
    times, after one untimed warm-up phase. Only the io_context's runs are timed: the
    peers are idle meanwhile, so the writer's cost is not measured. */
template <class Tcp>
storm_result run_storm(boost::asio::io_context& ioc, std::size_t count, std::size_t subset,
                       std::size_t phases)
{
  using socket = typename Tcp::socket;
  storm_connections<Tcp> connections(ioc, count);
  storm_result r = connections.result();
  if (!r.error.empty())
    return r;
  std::vector<socket>& sockets = connections.sockets;
  for (socket& s : sockets)
    s.non_blocking(true); // a read finding nothing must not wait
  failure failed;
  storm_waiters<socket> waiters(ioc, sockets, failed);
  for (std::size_t i = 0; i < count; ++i)
    waiters.arm(i);
  boost::asio::steady_timer watchdog = storm_watchdog(ioc, failed);

  double timed = 0;
  std::uint64_t timed_events = 0;
  for (std::size_t phase = 0; phase <= phases && failed.what().empty(); ++phase)
  {
    if (!connections.peers->write_random(subset, static_cast<std::uint32_t>(phase * 7919 + 1)))
    {
      failed.set("the peers could not write");
      break;
    }
    const std::uint64_t before = waiters.completed();
    const auto t0 = clock_type::now();
    waiters.run_until(std::min(subset, count));
    if (phase != 0) // phase 0 warms up
    {
      timed += seconds_since(t0);
      timed_events += waiters.completed() - before;
    }
  }
  watchdog.cancel();
  connections.close_all();
  r.error = failed.what();
  r.spurious = waiters.spurious();
  if (r.error.empty() && timed_events == 0)
    r.error = "no events";
  if (timed > 0)
    r.events_per_s = static_cast<double>(timed_events) / timed;
  return r;
}

/** `count` connected sockets all wait for writability at once, `phases` times after one
    untimed warm-up phase: each phase starts an async_wait(wait_write) on every socket (each
    has room in its send buffer, so each is ready at once) and runs the io_context until all
    have completed. More sockets than FD_SETSIZE (64 on Windows) wait together: on stock
    Asio's IOCP backend these waits go through the select() thread Asio starts on first use,
    which must call select() over all of them (doc/performance.md). */
template <class Tcp>
storm_result run_write_storm(boost::asio::io_context& ioc, std::size_t count, std::size_t phases)
{
  storm_connections<Tcp> connections(ioc, count);
  storm_result r = connections.result();
  if (!r.error.empty())
    return r;
  failure failed;
  boost::asio::steady_timer watchdog = storm_watchdog(ioc, failed);
  std::size_t waiting = 0;
  auto ready = [&](const error_code& ec) {
    if (ec)
      failed.set("async_wait(wait_write)", ec);
    if (--waiting == 0 || ec)
      ioc.stop();
  };
  double timed = 0;
  for (std::size_t phase = 0; phase <= phases && failed.what().empty(); ++phase)
  {
    const auto t0 = clock_type::now();
    waiting = count;
    for (auto& s : connections.sockets)
      s.async_wait(boost::asio::socket_base::wait_write, ready);
    ioc.restart();
    ioc.run();
    if (phase != 0) // phase 0 warms up
      timed += seconds_since(t0);
  }
  watchdog.cancel();
  connections.close_all();
  r.error = failed.what();
  if (r.error.empty() && timed > 0)
    r.events_per_s = static_cast<double>(count * phases) / timed;
  return r;
}

// ---- 4. idle connections ----------------------------------------------------------------------

struct idle_result
{
  std::string error;
  double bytes_per_connection = 0;
  long rss_before_kib = 0;
  long rss_after_kib = 0;
  std::size_t connections = 0;
};

/** Resident memory of `count` accepted connections each holding a pending
    async_wait(wait_read), the peers in another process. Meant for a fresh process:
    everything allocated once per process (the reactor, its threads, first-use caches) is
    created by one warm-up connection before the first measurement. */
template <class Tcp>
idle_result run_idle(boost::asio::io_context& ioc, std::size_t count)
{
  using socket = typename Tcp::socket;
  idle_result r;
  r.connections = count;
  auto ignore = [](const error_code&) {
  };
  typename Tcp::acceptor acceptor(ioc, loopback_any_port<Tcp>());
  {
    socket client(ioc);
    socket server(ioc);
    connect_pair<Tcp>(acceptor, client, server);
    server.async_wait(boost::asio::socket_base::wait_read, ignore);
    ioc.restart();
    ioc.poll();
    server.close();
    client.close();
    ioc.restart();
    ioc.run();
  }
  r.rss_before_kib = resident_kib();
  std::unique_ptr<peer_group> peers = start_peers(acceptor.local_endpoint().port(), count);
  if (!peers->separate_process())
  {
    r.error = "needs the peers in a child process";
    return r;
  }
  std::vector<socket> sockets;
  sockets.reserve(count);
  for (std::size_t i = 0; i < count; ++i)
  {
    sockets.emplace_back(ioc);
    acceptor.accept(sockets.back());
    sockets.back().async_wait(boost::asio::socket_base::wait_read, ignore);
  }
  if (!peers->wait_connected())
  {
    r.error = "the peers could not connect";
    return r;
  }
  ioc.restart();
  ioc.poll(); // whatever the waits still had to do to be registered
  r.rss_after_kib = resident_kib();
  if (r.rss_before_kib < 0 || r.rss_after_kib < 0)
    r.error = "no resident memory counter here";
  r.bytes_per_connection =
      static_cast<double>(r.rss_after_kib - r.rss_before_kib) * 1024.0 / static_cast<double>(count);
  for (socket& s : sockets)
    s.close();
  ioc.restart();
  ioc.run();
  return r;
}

} // namespace bench

#endif
