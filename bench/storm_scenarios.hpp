//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Scenario 3, the async_wait storms: many accepted sockets wait for readability (their
// peers write to a few at random), or all wait for writability at once.
#ifndef BOOST_ASIO_NOTIFY_BENCH_STORM_SCENARIOS_HPP
#define BOOST_ASIO_NOTIFY_BENCH_STORM_SCENARIOS_HPP

#include "peers.hpp"
#include "scenario_support.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/socket_base.hpp>
#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bench {

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

} // namespace bench

#endif
