//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
#include "scenario_runs.hpp"

#include "backends.hpp"
#include "child_protocol.hpp"
#include "process.hpp"
#include "rounds.hpp"
#include "run_summary.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace bench {

namespace {

/// ", 2 threads"; "" for 0 (the thread count is given elsewhere).
std::string threads_text(std::size_t threads)
{
  return threads == 0 ? ""
                      : ", " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

/// A scenario's CPU time per unit of work, user and system, from its child's getrusage
/// (GetProcessTimes on Windows): where a gain or a loss of its timings went.
struct cpu_metrics
{
  metric user;
  metric system;

  /// `key`_user_`unit_key` and `key`_system_`unit_key`; the default's user time has the
  /// target `user_target` (0: none).
  cpu_metrics(const std::vector<backend>& backends, const std::string& key,
              const std::string& title, const std::string& unit_key, const std::string& unit,
              double user_target)
      : user(make_metric(backends, key + "user_" + unit_key, title + ", user CPU", unit, true,
                         user_target)),
        system(make_metric(backends, key + "system_" + unit_key, title + ", system CPU", unit, true,
                           0))
  {
    user.may_be_zero = system.may_be_zero = true;
  }

  void add(std::size_t i, int round, double user_value, double system_value)
  {
    for (auto [m, v] : {std::pair{&user, user_value}, std::pair{&system, system_value}})
      if (std::isnan(v))
        m->rows[i].note = "not counted: no CPU time for this process";
      else
        m->rows[i].add(round, std::round(v * 100) / 100);
  }

  void append_to(std::vector<metric>& out)
  {
    out.push_back(std::move(user));
    out.push_back(std::move(system));
  }
};

void latency_scenario(const config& c, const std::vector<backend>& backends,
                      std::vector<metric>& out)
{
  metric mean = make_metric(backends, "latency_mean_us", "ping-pong latency, mean",
                            "us per round trip; " + latency_unit(c, 1), true, 1.05, 1.30);
  metric p50 = make_metric(backends, "latency_p50_us", "ping-pong latency, p50", "us", true, 0);
  metric p99 =
      make_metric(backends, "latency_p99_us", "ping-pong latency, p99", "us", true, 0, 1.30);
  // What carries over from Wine to Windows, where timings do not: how often a round trip
  // puts a thread to sleep (the reactor thread's hand-off costs a wake on each side).
  metric switches =
      make_metric(backends, "switches_per_round_trip", "context switches per round trip",
                  "voluntary, of this process's live threads (/proc/self/task/*/status; under Wine "
                  "through Z:), in the measured run",
                  true, 0);
  switches.may_be_zero = true;
  cpu_metrics cpu(backends, "", "ping-pong", "us_per_round_trip",
                  "us per round trip, of this process (both ends), in the measured run", 1.0);
  const latency_params params{c.latency_round_trips, c.latency_time_limit, 1, c.latency_warmup};
  shortfall limited;
  run_rounds("ping-pong latency", c.rounds, backends, [&](std::size_t i, int round) {
    const latency_result r = latency_isolated(backends[i], params);
    if (r.error.empty())
    {
      limited.record(backends[i].label, r.round_trips, params.round_trips);
      mean.rows[i].add(round, r.mean_us);
      p50.rows[i].add(round, r.p50_us);
      p99.rows[i].add(round, r.p99_us);
      if (std::isnan(r.switches_per_round_trip))
        switches.rows[i].note = "not counted: no /proc/self/task (Linux's, or Wine's Z:)";
      else
        switches.rows[i].add(round, std::round(r.switches_per_round_trip * 100) / 100);
      cpu.add(i, round, r.user_us_per_round_trip, r.system_us_per_round_trip);
    }
    return r.error;
  });
  mean.note = limited.note(c.latency_time_limit);
  out.push_back(mean);
  out.push_back(p50);
  out.push_back(p99);
  out.push_back(switches);
  cpu.append_to(out);
}

void throughput_scenario(const config& c, const std::vector<backend>& backends, std::size_t threads,
                         std::vector<metric>& out)
{
  const std::string title = "echo throughput" + threads_text(threads);
  const std::string key =
      "throughput_" + std::to_string(threads) + (threads == 1 ? "_thread" : "_threads") + "_";
  metric m = make_metric(backends, key + "mb_s", title, throughput_unit(c, 0), false, 1.0, 0.90);
  cpu_metrics cpu(backends, key, "echo" + threads_text(threads), "ms_per_mb",
                  "ms per MB echoed, of this process (both ends), in the measured run", 0);
  m.io_threads = threads;
  const throughput_params params{c.throughput_connections, c.throughput_duration, threads};
  run_rounds(title.c_str(), c.rounds, backends, [&](std::size_t i, int round) {
    const throughput_result r = throughput_isolated(backends[i], params);
    if (r.error.empty())
    {
      m.rows[i].add(round, r.mb_per_s);
      cpu.add(i, round, r.user_ms_per_mb, r.system_ms_per_mb);
    }
    return r.error;
  });
  out.push_back(m);
  cpu.append_to(out);
}

/// The read or the write storm, every round of it in a child.
metric storm_metric(const config& c, const std::vector<backend>& backends, metric m,
                    const storm_params& p)
{
  bool in_child = true;
  std::uint64_t spurious = 0;
  run_rounds(m.title.c_str(), c.rounds, backends, [&](std::size_t i, int round) {
    const storm_result r = storm_isolated(backends[i], p);
    if (!r.error.empty())
      return r.error;
    in_child = in_child && r.peers_in_child;
    spurious += r.spurious;
    m.rows[i].add(round, r.events_per_s / 1000);
    return r.error;
  });
  m.note = std::string("peers in ") + (in_child ? "a child process" : "this process") +
           (spurious ? "; " + std::to_string(spurious) + " spurious wake-ups" : "");
  return m;
}

void storm_scenario(const config& c, const std::vector<backend>& backends, std::size_t fd_limit,
                    std::vector<metric>& out, std::vector<std::string>& notes)
{
  std::size_t sockets = c.storm_sockets;
  if (!can_spawn_children() && fd_limit != 0 && 2 * sockets + 64 > fd_limit)
  {
    // Both ends in this process: two descriptors per connection.
    sockets = (fd_limit - 64) / 2 / 1000 * 1000;
    notes.push_back("async_wait storm: peers in this process, so " + std::to_string(sockets) +
                    " sockets instead of " + std::to_string(c.storm_sockets) +
                    " (descriptor limit " + std::to_string(fd_limit) + ")");
  }
  metric m = make_metric(backends, "storm_kevents_per_s", "async_wait storm",
                         "k readiness events/s; " + std::to_string(sockets) + " sockets, " +
                             std::to_string(c.storm_subset) + " written per phase, " +
                             std::to_string(c.storm_phases) + " phases",
                         false, 1.0, 0.90);
  m = storm_metric(c, backends, std::move(m), {false, sockets, c.storm_subset, c.storm_phases});
  m.note += "; only the io_context's runs are timed";
#if defined(_WIN32)
  m.note += "; stock Asio (IOCP) waits with a zero-byte overlapped WSARecv, cancelled before "
            "its socket closes: closed with it pending, Wine ends it with ERROR_HANDLES_CLOSED "
            "(676, from STATUS_HANDLES_CLOSED), which Asio does not map to operation_aborted "
            "as it does Windows' ERROR_OPERATION_ABORTED (995): Wine's difference, not a "
            "failure of either reactor (doc/performance.md)";
#endif
  out.push_back(m);
}

void write_storm_scenario(const config& c, const std::vector<backend>& backends,
                          std::vector<metric>& out)
{
  const std::size_t sockets = c.write_storm_sockets;
  metric m = make_metric(backends, "write_storm_kevents_per_s", "async_wait(write) storm",
                         "k writability events/s; " + std::to_string(sockets) +
                             " sockets waiting at once, " + std::to_string(c.write_storm_phases) +
                             " phases",
                         false, 1.0);
  m = storm_metric(c, backends, std::move(m), {true, sockets, 0, c.write_storm_phases});
  m.note += "; more sockets than FD_SETSIZE wait at once";
#if defined(_WIN32)
  m.note += "; stock Asio (IOCP) waits for writability on its select() thread, started on "
            "first use (doc/performance.md)";
#endif
  out.push_back(m);
}

void idle_scenario(const config& c, const std::vector<backend>& backends, std::vector<metric>& out)
{
  metric m = make_metric(backends, "idle_bytes_per_connection", "idle connection memory",
                         std::string("bytes of ") + resident_memory_counter() +
                             " per connection; " + std::to_string(c.idle_connections) +
                             " connections with a pending async_wait, fresh process each",
                         true, 1.0);
  if (!can_spawn_children() || resident_kib() < 0)
  {
    for (row& r : m.rows)
      r.note = "needs child processes and a resident memory counter (Linux, Windows)";
    out.push_back(m);
    return;
  }
  run_rounds("idle connections", c.rounds, backends, [&](std::size_t i, int round) {
    const idle_result r = isolated<idle_result>(
        "idle", backends[i], std::to_string(c.idle_connections), "bytes_per_connection",
        [] { return idle_result{"needs child processes"}; },
        [](const std::string& output, idle_result& result) {
          result.bytes_per_connection = output_value(output, "bytes_per_connection");
        });
    if (r.error.empty())
      m.rows[i].add(round, r.bytes_per_connection);
    return r.error;
  });
  out.push_back(m);
}

std::string file_name_for(const std::string& id)
{
  std::string s = id;
  for (char& ch : s)
    if (ch == ':' || ch == ',' || ch == '=')
      ch = '_';
  return s;
}

/// How a ping-pong child's work is counted: its system calls by strace (each call by name)
/// or by perf's tracepoints (no ptrace stop per call: futex as the program makes it
/// untraced), or its instructions by callgrind.
struct syscall_counter
{
  const char* key;
  const char* title;
  const char* how;
  const char* what;    // what is counted, in the unit: "calls", "instructions"
  const char* residue; // what set-up and tear-down leave in the difference
  const char* file_prefix;
  double target; // the default's bound on the ratio to stock; 0: none
  syscall_counts (*count)(const std::vector<std::string>&, const std::string&);
  const char* (*unavailable)(); // why it cannot count here, or ""
};

void syscall_scenario(const config& c, const std::vector<backend>& backends,
                      const syscall_counter& counter, std::vector<metric>& out)
{
  const std::uint64_t n = c.syscall_round_trips;
  metric m = make_metric(backends, counter.key, counter.title,
                         std::string(counter.how) + ": (" + counter.what + " of " +
                             std::to_string(n) + " round trips - " + counter.what + " of 0) / " +
                             std::to_string(n) + ", to 0.01 (" + counter.residue + "); both ends",
                         true, counter.target);
  const char* unavailable_here = counter.unavailable();
  if (!can_spawn_children() || *unavailable_here)
  {
    for (row& r : m.rows)
      r.note = *unavailable_here ? unavailable_here : "needs child processes";
    out.push_back(m);
    return;
  }
  std::string unavailable;
  run_rounds(
      counter.title, c.deterministic_rounds, backends,
      [&](std::size_t i, int round) -> std::string {
        if (!unavailable.empty())
          return "";
        const backend& b = backends[i];
        const std::string stem = c.out + "/" + counter.file_prefix + file_name_for(b.id);
        const syscall_counts full =
            counter.count({"--child", "pingpong", b.id, std::to_string(n)}, stem + ".txt");
        const syscall_counts base =
            counter.count({"--child", "pingpong", b.id, "0"}, stem + "_baseline.txt");
        if (!full.ok || !base.ok)
        {
          unavailable = full.ok ? base.error : full.error;
          return "";
        }
        const double made = static_cast<double>(full.total - base.total) / static_cast<double>(n);
        m.rows[i].add(round, std::round(made * 100) / 100);
        if (full.calls.empty()) // counted as a whole (instructions)
          return "";
        auto& by_name = m.breakdown[b.id];
        if (by_name.empty())
          for (const auto& [name, calls] : full.calls)
          {
            const auto it = base.calls.find(name);
            const double baseline = it == base.calls.end() ? 0.0 : static_cast<double>(it->second);
            const double per_round_trip =
                (static_cast<double>(calls) - baseline) / static_cast<double>(n);
            if (per_round_trip >= 0.005 || per_round_trip <= -0.005) // not set-up or tear-down
              by_name[name] = per_round_trip;
          }
        return "";
      });
  if (!unavailable.empty())
  {
    for (row& r : m.rows)
    {
      r.samples.clear();
      r.rounds.clear();
      r.note = unavailable;
    }
    m.breakdown.clear();
  }
  out.push_back(m);
}

const syscall_counter strace_counter{"syscalls_per_round_trip",
                                     "system calls per round trip",
                                     "strace -f -c",
                                     "calls",
                                     "what set-up and tear-down leave is less",
                                     "strace_",
                                     1.0,
                                     strace_self,
                                     syscalls_unavailable};
const syscall_counter perf_counter{"syscalls_per_round_trip_perf",
                                   "system calls per round trip, perf",
                                   "perf stat, system-call tracepoints",
                                   "calls",
                                   "what set-up and tear-down leave is less",
                                   "perf_",
                                   0,
                                   perf_count_self,
                                   syscalls_unavailable};
// A count of the program's own work that the machine's load does not move: the user CPU
// time rows' steady companion (the default's target is stock's user time, met at 1.00).
const syscall_counter callgrind_counter{"instructions_per_round_trip",
                                        "instructions per round trip",
                                        "valgrind --tool=callgrind, user space",
                                        "instructions",
                                        "two runs differ by a few instructions; the timing of "
                                        "each round trip is counted, alike for every backend",
                                        "callgrind_",
                                        1.0,
                                        callgrind_count_self,
                                        instructions_unavailable};

} // namespace

std::string latency_unit(const config& c, std::size_t threads)
{
  return std::to_string(latency_message) + " B messages, 1 connection, " +
         std::to_string(c.latency_round_trips) + " round trips" + threads_text(threads);
}

std::string throughput_unit(const config& c, std::size_t threads)
{
  return "MB/s echoed to the clients; " + std::to_string(c.throughput_connections) +
         " connections, " + std::to_string(throughput_message / 1024) + " KiB messages" +
         threads_text(threads) + ", " + std::to_string(c.throughput_duration.count()) + " ms";
}

int scenarios_main(config& c, std::size_t fd_limit)
{
  const std::vector<backend> backends = make_backends(c.variants);
  run_info info = make_run_info(c);
  info.options = describe_options(c);
  info.seed = seed_backend_order(c.seed);
  if (!can_spawn_children())
    info.notes.push_back("no child processes here: every measurement ran in this process");
  const auto t0 = clock_type::now();

  std::vector<metric> metrics;
  if (c.wants("latency"))
    latency_scenario(c, backends, metrics);
  if (c.wants("throughput"))
    for (const std::size_t threads : c.throughput_threads)
      throughput_scenario(c, backends, threads, metrics);
  if (c.wants("storm"))
    storm_scenario(c, backends, fd_limit, metrics, info.notes);
  if (c.wants("write_storm"))
    write_storm_scenario(c, backends, metrics);
  if (c.wants("idle"))
    idle_scenario(c, backends, metrics);
  if (c.wants("syscalls"))
  {
    syscall_scenario(c, backends, strace_counter, metrics);
    syscall_scenario(c, backends, perf_counter, metrics);
  }
  if (c.wants("instructions"))
    syscall_scenario(c, backends, callgrind_counter, metrics);

  return conclude(
      c.out + "/results", info, t0, backends, metrics,
      [&](std::ostream& out, const run_info& i) { print_table(out, i, metrics); },
      [&](const std::string& stem) { return write_chart(stem, backends, metrics); });
}

} // namespace bench
