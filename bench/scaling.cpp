//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
#include "scaling.hpp"

#include "backends.hpp"
#include "child_protocol.hpp"
#include "rounds.hpp"
#include "run_summary.hpp"
#include "scenario_runs.hpp"
#include "text.hpp"

#include <algorithm>
#include <iostream>
#include <set>
#include <string>
#include <vector>

namespace bench {

namespace {

/// Throughput and ping-pong latency with the io_context run by `threads` threads, each run
/// in a child process of its own where there are children.
scaling_point scaling_at(const config& c, const std::vector<backend>& backends, std::size_t threads)
{
  scaling_point p;
  p.threads = threads;
  const std::string on =
      ", " + std::to_string(threads) + " io " + (threads == 1 ? "thread" : "threads");
  // The units leave the thread count out: the table shows it apart, the JSON as io_threads.
  p.throughput = make_metric(backends, "throughput_mb_s", "echo throughput" + on,
                             throughput_unit(c, 0), false, 0);
  const std::string latency = "us per round trip; " + latency_unit(c, 0);
  p.p50 = make_metric(backends, "pingpong_p50_us", "ping-pong p50" + on, latency, true, 0);
  p.p99 = make_metric(backends, "pingpong_p99_us", "ping-pong p99" + on, latency, true, 0);
  for (metric* m : {&p.throughput, &p.p50, &p.p99})
    m->io_threads = threads;

  const throughput_params tp{c.throughput_connections, c.throughput_duration, threads};
  run_rounds(p.throughput.title.c_str(), c.rounds, backends, [&](std::size_t i, int round) {
    const throughput_result r = throughput_isolated(backends[i], tp);
    if (r.error.empty())
      p.throughput.rows[i].add(round, r.mb_per_s);
    return r.error;
  });
  const latency_params lp{c.latency_round_trips, c.latency_time_limit, threads, c.latency_warmup};
  shortfall limited;
  run_rounds(("ping-pong" + on).c_str(), c.rounds, backends, [&](std::size_t i, int round) {
    const latency_result r = latency_isolated(backends[i], lp);
    if (r.error.empty())
    {
      limited.record(backends[i].label, r.round_trips, lp.round_trips);
      p.p50.rows[i].add(round, r.p50_us);
      p.p99.rows[i].add(round, r.p99_us);
    }
    return r.error;
  });
  p.p50.note = limited.note(c.latency_time_limit);
  return p;
}

/** The thread counts to measure: each of `asked` capped at `hardware` (when known),
    duplicates dropped, in ascending order. What was capped or dropped goes to `notes`. */
std::vector<std::size_t> cap_thread_counts(const std::vector<std::size_t>& asked, unsigned hardware,
                                           std::vector<std::string>& notes)
{
  std::set<std::size_t> kept;
  std::vector<std::size_t> capped;
  for (std::size_t n : asked)
  {
    const std::size_t m = hardware != 0 ? std::min<std::size_t>(n, hardware) : n;
    if (m != n)
      capped.push_back(n);
    kept.insert(m);
  }
  std::vector<std::size_t> measured(kept.begin(), kept.end());
  if (!capped.empty())
    notes.push_back("--threads: " + join(capped, ", ") + " capped at " + std::to_string(hardware) +
                    ", the hardware threads of this machine");
  if (measured.size() < asked.size())
    notes.push_back(
        "--threads " + join(asked, ",") + ": " + std::to_string(asked.size() - measured.size()) +
        " duplicate(s) dropped after capping; measuring " + join(measured, ", ") + " io threads");
  return measured;
}

/// Connections for the throughput scenario that the descriptor limit allows (both ends
/// of each connection in one process); a note when that is fewer than `wanted`.
std::size_t fit_connections(std::size_t wanted, std::size_t fd_limit,
                            std::vector<std::string>& notes)
{
  if (fd_limit == 0 || 2 * wanted + 64 <= fd_limit)
    return wanted;
  const std::size_t fit = fd_limit > 66 ? (fd_limit - 64) / 2 : 1;
  notes.push_back("echo throughput: " + std::to_string(fit) + " connections instead of " +
                  std::to_string(wanted) + " (descriptor limit " + std::to_string(fd_limit) +
                  "; raise it with ulimit -n)");
  return fit;
}

} // namespace

int scaling_main(config& c, std::size_t fd_limit)
{
  const std::vector<backend> backends = make_backends(c.variants);
  run_info info = make_run_info(c);
  c.io_threads = cap_thread_counts(c.io_threads_asked, info.hardware_threads, info.notes);
  c.throughput_connections = fit_connections(c.throughput_connections, fd_limit, info.notes);
  info.options = describe_options(c);
  info.seed = seed_backend_order(c.seed);
  info.notes.push_back(can_spawn_children()
                           ? "each measurement ran in a child process of its own"
                           : "no child processes here: every measurement ran in this process");
  for (const std::string& note : info.notes)
    std::cout << "note: " << note << '\n';
  const auto t0 = clock_type::now();

  std::vector<scaling_point> points;
  std::vector<metric> metrics; // every point's, for the JSON file and the sanity check
  for (std::size_t threads : c.io_threads)
  {
    points.push_back(scaling_at(c, backends, threads));
    metrics.insert(metrics.end(), {points.back().throughput, points.back().p50, points.back().p99});
  }

  return conclude(
      c.out + "/scaling", info, t0, backends, metrics,
      [&](std::ostream& out, const run_info& i) { print_scaling_table(out, i, points); },
      [&](const std::string& stem) { return write_scaling_chart(stem, backends, points); });
}

} // namespace bench
