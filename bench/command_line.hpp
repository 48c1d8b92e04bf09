//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The options of a run (`config`) and the command line that sets them.
#ifndef BOOST_ASIO_NOTIFY_BENCH_COMMAND_LINE_HPP
#define BOOST_ASIO_NOTIFY_BENCH_COMMAND_LINE_HPP

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace bench {

struct config
{
  bool quick = false;
  bool scaling = false;              // --scaling
  int rounds = 7;                    // 7: the median's 95 % interval is the rounds' range
  int deterministic_rounds = 3;      // system call counts barely vary
  std::optional<std::uint64_t> seed; // --seed: of the backends' order; else a random one
  std::string out = "bench_results";
  bool variants = true;
  bool psn_double = false;    // --psn-double: install the test double where there is no PSN
  std::set<std::string> only; // empty: every scenario
  std::vector<std::size_t> io_threads_asked{1, 2, 4, 8, 16}; // --scaling --threads
  std::vector<std::size_t> io_threads;                       // those measured: capped, unique

  std::uint64_t latency_round_trips = 100000;
  std::uint64_t latency_warmup = 5000;                // untimed round trips before the timed ones
  std::chrono::milliseconds latency_time_limit{3000}; // for configurations 10x slower
  std::size_t throughput_connections = 256;
  std::chrono::milliseconds throughput_duration{2000};
  std::vector<std::size_t> throughput_threads{1, 2};
  std::size_t storm_sockets = 10000;
  std::size_t storm_subset = 1000;
  std::size_t storm_phases = 200;
  std::size_t write_storm_sockets = 1000; // many times FD_SETSIZE (64 on Windows)
  std::size_t write_storm_phases = 200;
  std::size_t idle_connections = 10000;
  std::uint64_t syscall_round_trips = 10000;

  void make_scaling()
  {
    scaling = true;
    rounds = 3;
    throughput_connections = 512;
  }

  void make_quick()
  {
    quick = true;
    rounds = 1;
    deterministic_rounds = 1;
    latency_round_trips = 2000;
    latency_warmup = 200;
    latency_time_limit = std::chrono::milliseconds(1000);
    throughput_connections = 32;
    throughput_duration = std::chrono::milliseconds(200);
    storm_sockets = 400;
    storm_subset = 100;
    storm_phases = 5;
    write_storm_sockets = 200;
    write_storm_phases = 5;
    idle_connections = 400;
    syscall_round_trips = 1000;
  }

  bool wants(const std::string& scenario) const
  {
    return only.empty() || only.count(scenario) != 0;
  }
};

/// Reads the options into `c`; returns 0, or 2 (after saying why) for a bad command line.
int parse_command_line(const std::vector<std::string>& args, config& c);

} // namespace bench

#endif
