//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The child-process protocol: each measurement runs in a copy of this program started as
// `--child <what> <backend id> <count>`, which prints its figures as `name=value`; here are
// the parameters of each measurement and their counts, the parent's side (`isolated`) and
// the child's (`child_main`).
#ifndef BOOST_ASIO_NOTIFY_BENCH_CHILD_PROTOCOL_HPP
#define BOOST_ASIO_NOTIFY_BENCH_CHILD_PROTOCOL_HPP

#include "backends.hpp"
#include "process.hpp"
#include "scenarios.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace bench {

// Message sizes, the same in this process and in the `--child` ones.
constexpr std::size_t latency_message = 64;
constexpr std::size_t throughput_message = 16 * 1024;

/// The fields of a child's count ("a/b/c"), as numbers; those missing are 0.
std::vector<std::uint64_t> count_fields(const std::string& count, std::size_t n);

/// "a/b/c" from the numbers a, b, c.
std::string count_of(std::initializer_list<std::uint64_t> fields);

struct throughput_params
{
  std::size_t connections = 256;
  std::chrono::milliseconds duration{2000};
  std::size_t threads = 2;

  /// The count of `--child throughput`: milliseconds[/threads[/connections]].
  std::string child_count() const
  {
    return count_of({static_cast<std::uint64_t>(duration.count()), threads, connections});
  }

  static throughput_params from_child_count(const std::string& count)
  {
    const std::vector<std::uint64_t> f = count_fields(count, 3);
    throughput_params p;
    p.duration = std::chrono::milliseconds(f[0]);
    p.threads = f[1] ? f[1] : p.threads;
    p.connections = f[2] ? f[2] : p.connections;
    return p;
  }
};

struct latency_params
{
  std::uint64_t round_trips = 100000;
  std::chrono::milliseconds time_limit = std::chrono::hours(24);
  std::size_t threads = 1;
  std::uint64_t warmup = 0; // untimed round trips first, on the same io_context

  /// The count of `--child pingpong`: round trips[/threads[/time limit in ms[/warm-up]]].
  std::string child_count() const
  {
    return count_of({round_trips, threads, static_cast<std::uint64_t>(time_limit.count()), warmup});
  }

  static latency_params from_child_count(const std::string& count)
  {
    const std::vector<std::uint64_t> f = count_fields(count, 4);
    latency_params p;
    p.round_trips = f[0];
    p.threads = f[1] ? f[1] : p.threads;
    p.time_limit = f[2] ? std::chrono::milliseconds(f[2]) : p.time_limit;
    p.warmup = f[3];
    return p;
  }
};

/// The async_wait storms: the read storm writes to `subset` sockets a phase; the write
/// storm (`write`) waits on every socket every phase.
struct storm_params
{
  bool write = false;
  std::size_t sockets = 10000;
  std::size_t subset = 1000;
  std::size_t phases = 200;

  const char* child_mode() const { return write ? "write_storm" : "storm"; }

  /// The count of `--child storm` (sockets[/subset[/phases]]) or `--child write_storm`
  /// (sockets[/phases]).
  std::string child_count() const
  {
    return write ? count_of({sockets, phases}) : count_of({sockets, subset, phases});
  }

  /// Missing fields: a tenth of the sockets written a phase, 200 phases.
  static storm_params from_child_count(bool write, const std::string& count)
  {
    const std::vector<std::uint64_t> f = count_fields(count, write ? 2 : 3);
    storm_params p;
    p.write = write;
    p.sockets = f[0];
    p.subset = write ? 0 : f[1] ? f[1] : std::max<std::size_t>(p.sockets / 10, 1);
    p.phases = f.back() ? f.back() : p.phases;
    return p;
  }
};

/** `--child <what> <b.id> <count>` in a process of its own. Its standard output and error
    go to `output`; its warnings (lines "warning: ...") to driver_warnings. Returns why
    it failed, or "". */
std::string run_child(const std::string& what, const backend& b, const std::string& count,
                      std::string& output);

/// The number after `<key>=` in a child's output, or NaN.
double output_value(const std::string& output, const std::string& key);

/** A measurement in a child process of its own (`--child what`), so that no measurement
    inherits another's heap or threads; in this process (`local()`) where there are no
    children. `read(output, result)` takes the figures from the child's output, and the
    result fails when `key` is not among them. */
template <class Result, class Local, class Read>
Result isolated(const char* what, const backend& b, const std::string& count, const char* key,
                Local local, Read read)
{
  if (!can_spawn_children())
    return local();
  Result r;
  std::string output;
  r.error = run_child(what, b, count, output);
  read(output, r);
  if (r.error.empty() && std::isnan(output_value(output, key)))
    r.error = std::string("no ") + key + " in the child's output: " + output;
  return r;
}

/// The three measurements of the scenarios, each in a child (isolated).
throughput_result throughput_isolated(const backend& b, const throughput_params& p);
latency_result latency_isolated(const backend& b, const latency_params& p);
storm_result storm_isolated(const backend& b, const storm_params& p);

/** `--child <what> <backend id> <count>`: one measurement on one backend, in a process of
    its own (every measurement runs so). `pingpong` (count: round trips[/threads[/time
    limit ms[/warm-up round trips]]]; prints the mean, p50 and p99; also run under strace
    for the system call counts), `throughput` (count: milliseconds[/threads[/connections]]),
    `storm` (count: sockets[/subset[/phases]]), `write_storm` (count: sockets[/phases]),
    `idle` (count: connections). A reactor that ran with another driver than asked for prints
    "warning: ...". */
int child_main(const std::string& what, const std::string& id, const std::string& count);

} // namespace bench

#endif
