//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Scenarios 1 and 2, ping-pong latency and throughput: echo connections over loopback with
// both ends on the backend under test.
#ifndef BOOST_ASIO_NOTIFY_BENCH_ECHO_SCENARIOS_HPP
#define BOOST_ASIO_NOTIFY_BENCH_ECHO_SCENARIOS_HPP

#include "scenario_support.hpp"

#include <boost/asio/error.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/socket_base.hpp>
#include <boost/asio/write.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace bench {

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
  std::uint64_t round_trips = 0;         // made: fewer than asked for when the time limit struck
  double switches_per_round_trip = NAN;  // voluntary context switches; NaN where not counted
  double user_us_per_round_trip = NAN;   // this process's CPU time (process_cpu_time); NaN
  double system_us_per_round_trip = NAN; // where not counted
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
  double megabytes = 0;
  double user_ms_per_mb = NAN;   // this process's CPU time (process_cpu_time); NaN where not
  double system_ms_per_mb = NAN; // counted
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
  r.megabytes = static_cast<double>(bytes) / 1e6;
  r.mb_per_s = r.megabytes / elapsed;
  return r;
}

} // namespace bench

#endif
