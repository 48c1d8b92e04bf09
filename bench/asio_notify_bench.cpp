//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// asio_notify_bench: every scenario on stock Boost.Asio and on the notify reactor (in each
// of its driver/trigger configurations), alternately, in one invocation. See README.md.
//
//   asio_notify_bench [--quick] [--out DIR] [--rounds N] [--only LIST] [--no-variants]
//
// Exit status: 0 when every scenario ran and produced sane numbers, whatever the timings;
// 1 when one failed; 2 for a bad command line.

#include "process.hpp"
#include "report.hpp"
#include "scenarios.hpp"

#include <boost/asio_notify/ip/tcp.hpp>
#include <boost/asio_notify/port.hpp>
#include <boost/asio_notify/reactor.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/version.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace bench;
namespace an = boost::asio_notify;

// ---- configuration ------------------------------------------------------------------------

struct config
{
  bool quick = false;
  int rounds = 5;
  int deterministic_rounds = 3; // memory and system call counts barely vary
  std::string out = "bench_results";
  bool variants = true;
  std::set<std::string> only; // empty: every scenario

  std::uint64_t latency_round_trips = 100000;
  std::chrono::milliseconds latency_time_limit{3000}; // for configurations 10x slower
  std::size_t latency_message = 64;
  std::size_t throughput_connections = 256;
  std::size_t throughput_message = 16 * 1024;
  std::chrono::milliseconds throughput_duration{2000};
  std::size_t throughput_threads = 2;
  std::size_t storm_sockets = 10000;
  std::size_t storm_subset = 1000;
  std::size_t storm_phases = 200;
  std::size_t idle_connections = 10000;
  std::uint64_t syscall_round_trips = 10000;

  void make_quick()
  {
    quick = true;
    rounds = 1;
    deterministic_rounds = 1;
    latency_round_trips = 2000;
    latency_time_limit = std::chrono::milliseconds(1000);
    throughput_connections = 32;
    throughput_duration = std::chrono::milliseconds(200);
    storm_sockets = 400;
    storm_subset = 100;
    storm_phases = 5;
    idle_connections = 400;
    syscall_round_trips = 1000;
  }

  bool wants(const std::string& scenario) const { return only.empty() || only.count(scenario) != 0; }
};

// ---- backends -------------------------------------------------------------------------------

std::string options_spec(const an::reactor_options& o)
{
  return std::string("driver=") + an::to_string(o.driver) +
         ",trigger=" + (o.trigger == an::trigger_strategy::persistent_edge ? "persistent_edge" : "oneshot_level");
}

backend notify_backend(const an::reactor_options& o)
{
  const an::reactor_options defaults;
  backend b;
  b.notify = true;
  b.options = o;
  b.is_default = o.driver == defaults.driver && o.trigger == defaults.trigger;
  b.id = "notify:" + options_spec(o);
  b.label = std::string("notify ") + an::to_string(o.driver) + "/" +
            (o.trigger == an::trigger_strategy::persistent_edge ? "edge" : "oneshot") +
            (b.is_default ? " (default)" : "");
  return b;
}

/// Stock Asio, then the notify reactor's default configuration, then the other three.
std::vector<backend> make_backends(bool variants)
{
  std::vector<backend> all;
  backend stock;
  stock.id = "stock";
#if defined(_WIN32)
  stock.label = "stock Asio (IOCP)";
#else
  stock.label = "stock Asio (epoll)";
#endif
  all.push_back(stock);
  const an::reactor_options defaults;
  all.push_back(notify_backend(defaults));
#if defined(_WIN32)
  const an::driver_kind drivers[] = {an::driver_kind::thread}; // inline needs a POSIX io_context
#else
  const an::driver_kind drivers[] = {an::driver_kind::inline_driver, an::driver_kind::inline_portable,
                                     an::driver_kind::thread};
#endif
  if (variants)
    for (auto driver : drivers)
      for (auto trigger : {an::trigger_strategy::persistent_edge, an::trigger_strategy::oneshot_level})
      {
        an::reactor_options o = defaults;
        o.driver = driver;
        o.trigger = trigger;
        if (!(driver == defaults.driver && trigger == defaults.trigger))
          all.push_back(notify_backend(o));
      }
  return all;
}

/// The backend an id names ("stock" or "notify:<spec>"), for child processes.
backend backend_from_id(const std::string& id)
{
  if (id == "stock")
    return make_backends(false).front();
  if (id.compare(0, 7, "notify:") != 0)
    throw std::invalid_argument("unknown backend " + id);
  return notify_backend(an::parse_reactor_options(id.substr(7)));
}

template <class Protocol>
struct protocol_tag
{
  using type = Protocol;
};

std::vector<std::string> driver_warnings;
an::reactor_statistics last_statistics; // of the last notify run of on_backend

std::string describe(const an::reactor_statistics& s)
{
  std::ostringstream out;
  out << "packets " << s.packets_dequeued << ", wake-ups " << s.wakeups << ", operations "
      << s.operations_completed;
  if (s.operations_completed)
    out << ", packets/operation " << static_cast<double>(s.packets_dequeued) / static_cast<double>(s.operations_completed);
  return out.str();
}

/** Run `f(ioc, protocol_tag<Tcp>)` on a fresh io_context whose sockets are `b`'s: stock
    Asio's, or the notify reactor's, installed with b's options before any socket exists. */
template <class F>
auto on_backend(const backend& b, F&& f)
{
  boost::asio::io_context ioc;
  if (!b.notify)
    return f(ioc, protocol_tag<boost::asio::ip::tcp>{});
  auto& reactor = boost::asio::make_service<an::reactor>(ioc, b.options);
  auto result = f(ioc, protocol_tag<an::ip::tcp>{});
  last_statistics = reactor.statistics();
  if (reactor.options().driver != b.options.driver)
    driver_warnings.push_back(b.label + " ran with another driver than asked for");
  return result;
}

// ---- running rounds ---------------------------------------------------------------------------

std::vector<std::string> failures;

metric make_metric(const std::vector<backend>& backends, std::string key, std::string title,
                   std::string unit, bool lower_is_better, double target)
{
  metric m;
  m.key = std::move(key);
  m.title = std::move(title);
  m.unit = std::move(unit);
  m.lower_is_better = lower_is_better;
  m.target = target;
  for (const backend& b : backends)
  {
    row r;
    r.on = &b;
    if (b.notify && !an::is_supported())
      r.note = "this system lacks socket state notifications";
    m.rows.push_back(r);
  }
  return m;
}

/** `rounds` rounds; in each, `one(backend)` on every backend, starting one further along
    each round so that no backend always runs first. `one` returns an error or "". */
void run_rounds(const char* scenario, int rounds, const std::vector<backend>& backends,
                const std::function<std::string(std::size_t)>& one)
{
  for (int round = 0; round < rounds; ++round)
  {
    std::cout << scenario << ", round " << round + 1 << '/' << rounds << ':' << std::flush;
    for (std::size_t k = 0; k < backends.size(); ++k)
    {
      const std::size_t i = (k + static_cast<std::size_t>(round)) % backends.size();
      if (backends[i].notify && !an::is_supported())
        continue; // reported as n/a
      std::string error;
      try
      {
        error = one(i);
      }
      catch (const std::exception& e)
      {
        error = e.what();
      }
      if (!error.empty())
      {
        failures.push_back(std::string(scenario) + " on " + backends[i].label + ": " + error);
        std::cout << "\n  FAILED on " << backends[i].label << ": " << error << '\n';
      }
      std::cout << '.' << std::flush;
    }
    std::cout << '\n';
  }
}

void latency_scenario(const config& c, const std::vector<backend>& backends, std::vector<metric>& out)
{
  const std::string unit = std::to_string(c.latency_message) + " B messages, 1 connection, " +
                           std::to_string(c.latency_round_trips) + " round trips, 1 thread";
  metric mean = make_metric(backends, "latency_mean_us", "ping-pong latency, mean", "us per round trip; " + unit,
                            true, 1.05);
  metric p50 = make_metric(backends, "latency_p50_us", "ping-pong latency, p50", "us", true, 0);
  metric p99 = make_metric(backends, "latency_p99_us", "ping-pong latency, p99", "us", true, 0);
  std::map<std::string, std::uint64_t> limited; // label -> fewest round trips made
  run_rounds("ping-pong latency", c.rounds, backends, [&](std::size_t i) {
    const latency_result r = on_backend(backends[i], [&](auto& ioc, auto p) {
      return run_latency<typename decltype(p)::type>(ioc, c.latency_round_trips, c.latency_message, true,
                                                     c.latency_time_limit);
    });
    if (r.round_trips < c.latency_round_trips)
    {
      auto [it, fresh] = limited.emplace(backends[i].label, r.round_trips);
      if (!fresh)
        it->second = std::min(it->second, r.round_trips);
    }
    if (r.error.empty())
    {
      mean.rows[i].samples.push_back(r.mean_us);
      p50.rows[i].samples.push_back(r.p50_us);
      p99.rows[i].samples.push_back(r.p99_us);
    }
    return r.error;
  });
  for (const auto& [label, made] : limited)
    mean.note += std::string(mean.note.empty() ? "" : "; ") + label + ": stopped by the " +
                 std::to_string(c.latency_time_limit.count()) + " ms limit after " + std::to_string(made) +
                 " round trips (fewest)";
  out.push_back(mean);
  out.push_back(p50);
  out.push_back(p99);
}

void throughput_scenario(const config& c, const std::vector<backend>& backends, std::vector<metric>& out)
{
  metric m = make_metric(backends, "throughput_mb_s", "echo throughput",
                         "MB/s echoed to the clients; " + std::to_string(c.throughput_connections) +
                             " connections, " + std::to_string(c.throughput_message / 1024) + " KiB messages, " +
                             std::to_string(c.throughput_threads) + " threads, " +
                             std::to_string(c.throughput_duration.count()) + " ms",
                         false, 0.95);
  run_rounds("echo throughput", c.rounds, backends, [&](std::size_t i) {
    const throughput_result r = on_backend(backends[i], [&](auto& ioc, auto p) {
      return run_throughput<typename decltype(p)::type>(ioc, c.throughput_connections, c.throughput_message,
                                                        c.throughput_duration, c.throughput_threads);
    });
    if (r.error.empty())
      m.rows[i].samples.push_back(r.mb_per_s);
    return r.error;
  });
  out.push_back(m);
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
                    " sockets instead of " + std::to_string(c.storm_sockets) + " (descriptor limit " +
                    std::to_string(fd_limit) + ")");
  }
  metric m = make_metric(backends, "storm_kevents_per_s", "async_wait storm",
                         "k readiness events/s; " + std::to_string(sockets) + " sockets, " +
                             std::to_string(c.storm_subset) + " written per phase, " +
                             std::to_string(c.storm_phases) + " phases",
                         false, 1.0);
  bool in_child = true;
  std::uint64_t spurious = 0;
  run_rounds("async_wait storm", c.rounds, backends, [&](std::size_t i) {
    const storm_result r = on_backend(backends[i], [&](auto& ioc, auto p) {
      return run_storm<typename decltype(p)::type>(ioc, sockets, c.storm_subset, c.storm_phases);
    });
    in_child = in_child && r.peers_in_child;
    spurious += r.spurious;
    if (r.error.empty())
      m.rows[i].samples.push_back(r.events_per_s / 1000);
    return r.error;
  });
  m.note = std::string("peers in ") + (in_child ? "a child process" : "this process") +
           "; only the io_context's runs are timed" +
           (spurious ? "; " + std::to_string(spurious) + " spurious wake-ups" : "");
  out.push_back(m);
}

void idle_scenario(const config& c, const std::vector<backend>& backends, std::vector<metric>& out)
{
  metric m = make_metric(backends, "idle_bytes_per_connection", "idle connection memory",
                         "bytes RSS per connection; " + std::to_string(c.idle_connections) +
                             " connections with a pending async_wait, fresh process each",
                         true, 1.0);
  if (!can_spawn_children() || resident_kib() < 0)
  {
    for (row& r : m.rows)
      r.note = "needs Linux (fork/exec, /proc)";
    out.push_back(m);
    return;
  }
  run_rounds("idle connections", c.deterministic_rounds, backends, [&](std::size_t i) -> std::string {
    std::string output;
    const int status = run_self({"--child", "idle", backends[i].id, std::to_string(c.idle_connections)}, &output);
    const auto at = output.find("bytes_per_connection=");
    if (status != 0 || at == std::string::npos)
      return "child exited with " + std::to_string(status) + ": " + output;
    m.rows[i].samples.push_back(std::stod(output.substr(at + 21)));
    return "";
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

void syscall_scenario(const config& c, const std::vector<backend>& backends, std::vector<metric>& out)
{
  const std::uint64_t n = c.syscall_round_trips;
  metric m = make_metric(backends, "syscalls_per_round_trip", "system calls per round trip",
                         "strace -f -c: (calls of " + std::to_string(n) + " round trips - calls of 0) / " +
                             std::to_string(n) + "; both ends",
                         true, 1.0);
  if (!can_spawn_children())
  {
    for (row& r : m.rows)
      r.note = "needs Linux and strace";
    out.push_back(m);
    return;
  }
  std::string unavailable;
  run_rounds("system calls", c.deterministic_rounds, backends, [&](std::size_t i) -> std::string {
    if (!unavailable.empty())
      return "";
    const backend& b = backends[i];
    const std::string stem = c.out + "/strace_" + file_name_for(b.id);
    const syscall_counts full = strace_self({"--child", "pingpong", b.id, std::to_string(n)}, stem + ".txt");
    const syscall_counts base = strace_self({"--child", "pingpong", b.id, "0"}, stem + "_baseline.txt");
    if (!full.ok || !base.ok)
    {
      unavailable = full.ok ? base.error : full.error;
      return "";
    }
    m.rows[i].samples.push_back(static_cast<double>(full.total - base.total) / static_cast<double>(n));
    auto& by_name = m.breakdown[b.id];
    if (by_name.empty())
      for (const auto& [name, calls] : full.calls)
      {
        const auto it = base.calls.find(name);
        const double baseline = it == base.calls.end() ? 0.0 : static_cast<double>(it->second);
        const double per_round_trip = (static_cast<double>(calls) - baseline) / static_cast<double>(n);
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
      r.note = unavailable;
    }
    m.breakdown.clear();
  }
  out.push_back(m);
}

/// Every sample finite and positive: anything else means a scenario misbehaved.
void check_sanity(const std::vector<metric>& metrics)
{
  for (const metric& m : metrics)
    for (const row& r : m.rows)
      for (double v : r.samples)
        if (!std::isfinite(v) || v <= 0)
          failures.push_back(m.title + " on " + r.on->label + ": insane value " + std::to_string(v));
}

// ---- child modes ----------------------------------------------------------------------------

/** `--child <what> <backend id> <count>`: one scenario on one backend, in a process of its
    own. `pingpong` (count: round trips) runs under strace for the system call counts,
    `idle` (count: connections) measures memory in a fresh process; `throughput` (count:
    milliseconds[/threads[/connections]]) and `storm` (count: sockets) are there to
    profile one backend alone. */
int child_main(const std::string& what, const std::string& id, const std::string& count)
{
  const backend b = backend_from_id(id);
  const auto n = static_cast<std::size_t>(std::stoull(count));
  if (what == "pingpong")
  {
    const latency_result r = on_backend(b, [&](auto& ioc, auto p) {
      return run_latency<typename decltype(p)::type>(ioc, n, 64, false);
    });
    if (!r.error.empty())
      std::cerr << "pingpong: " << r.error << '\n';
    return r.error.empty() ? 0 : 1;
  }
  if (what == "throughput") // count: milliseconds[/threads[/connections]]; to profile one backend
  {
    std::size_t threads = 2;
    std::size_t connections = 256;
    std::istringstream fields(count);
    std::string field;
    std::getline(fields, field, '/');
    if (std::getline(fields, field, '/'))
      threads = std::stoul(field);
    if (std::getline(fields, field, '/'))
      connections = std::stoul(field);
    const throughput_result r = on_backend(b, [&](auto& ioc, auto p) {
      return run_throughput<typename decltype(p)::type>(ioc, connections, 16 * 1024, std::chrono::milliseconds(n),
                                                        threads);
    });
    std::cout << (r.error.empty() ? "MB/s=" + std::to_string(r.mb_per_s) : "error: " + r.error) << '\n';
    if (b.notify)
      std::cout << describe(last_statistics) << '\n';
    return r.error.empty() ? 0 : 1;
  }
  if (what == "storm") // count: sockets; for profiling one backend
  {
    const storm_result r = on_backend(b, [&](auto& ioc, auto p) {
      return run_storm<typename decltype(p)::type>(ioc, n, std::max<std::size_t>(n / 10, 1), 200);
    });
    std::cout << (r.error.empty() ? "events/s=" + std::to_string(r.events_per_s) : "error: " + r.error) << '\n';
    if (b.notify)
      std::cout << describe(last_statistics) << '\n';
    return r.error.empty() ? 0 : 1;
  }
  if (what == "idle")
  {
    const idle_result r = on_backend(b, [&](auto& ioc, auto p) {
      return run_idle<typename decltype(p)::type>(ioc, n);
    });
    if (!r.error.empty())
    {
      std::cout << "error: " << r.error << '\n';
      return 1;
    }
    std::cout << "bytes_per_connection=" << r.bytes_per_connection << " rss_before_kib=" << r.rss_before_kib
              << " rss_after_kib=" << r.rss_after_kib << " connections=" << r.connections << '\n';
    return 0;
  }
  std::cerr << "unknown child mode " << what << '\n';
  return 2;
}

int usage()
{
  std::cerr << "usage: asio_notify_bench [--quick] [--out DIR] [--rounds N] [--no-variants]\n"
               "                         [--only latency,throughput,storm,idle,syscalls]\n";
  return 2;
}

std::string platform_name()
{
#if defined(__linux__)
  std::string p = "Linux";
#elif defined(_WIN32)
  std::string p = "Windows";
#else
  std::string p = "unknown OS";
#endif
  return p + ", Boost " + std::to_string(BOOST_VERSION / 100000) + "." + std::to_string(BOOST_VERSION / 100 % 1000);
}

} // namespace

int main(int argc, char** argv)
{
  set_program_path(argc > 0 ? argv[0] : nullptr);
  const std::size_t fd_limit = raise_descriptor_limit();
  const std::vector<std::string> args(argv + 1, argv + argc);
  try
  {
    if (args.size() == 5 && args[0] == "--peer")
      return peer_main(static_cast<unsigned short>(std::stoul(args[1])), std::stoull(args[2]),
                       std::stoi(args[3]), std::stoi(args[4]));
    if (args.size() == 4 && args[0] == "--child")
      return child_main(args[1], args[2], args[3]);

    config c;
    for (std::size_t i = 0; i < args.size(); ++i)
    {
      const std::string& a = args[i];
      const bool has_value = i + 1 < args.size();
      if (a == "--quick")
        c.make_quick();
      else if (a == "--out" && has_value)
        c.out = args[++i];
      else if (a == "--rounds" && has_value)
        c.rounds = c.deterministic_rounds = std::max(1, std::stoi(args[++i]));
      else if (a == "--no-variants")
        c.variants = false;
      else if (a == "--only" && has_value)
      {
        std::istringstream list(args[++i]);
        for (std::string s; std::getline(list, s, ',');)
          c.only.insert(s);
      }
      else
        return usage();
    }
    c.deterministic_rounds = std::min(c.deterministic_rounds, c.rounds);
    std::filesystem::create_directories(c.out);

    const std::vector<backend> backends = make_backends(c.variants);
    run_info info;
    info.mode = c.quick ? "quick" : "full";
    info.rounds = c.rounds;
    info.platform = platform_name();
    info.hardware_threads = std::thread::hardware_concurrency();
    info.load_start = load_average();
    info.notes.push_back("timings from a machine shared with other work are noisy; compare ratios, "
                         "and the min/max spread");
    const auto t0 = clock_type::now();

    std::vector<metric> metrics;
    if (c.wants("latency"))
      latency_scenario(c, backends, metrics);
    if (c.wants("throughput"))
      throughput_scenario(c, backends, metrics);
    if (c.wants("storm"))
      storm_scenario(c, backends, fd_limit, metrics, info.notes);
    if (c.wants("idle"))
      idle_scenario(c, backends, metrics);
    if (c.wants("syscalls"))
      syscall_scenario(c, backends, metrics);

    info.elapsed_s = seconds_since(t0);
    info.load_end = load_average();
    info.notes.insert(info.notes.end(), driver_warnings.begin(), driver_warnings.end());
    check_sanity(metrics);

    print_table(std::cout, info, metrics);
    const std::string stem = c.out + "/results";
    {
      std::ofstream table(stem + ".txt");
      print_table(table, info, metrics);
    }
    if (!write_json(stem + ".json", info, backends, metrics))
      failures.push_back("could not write " + stem + ".json");
    else
      std::cout << "results: " << stem << ".json\n";
    std::cout << write_chart(stem, backends, metrics) << '\n';

    for (const std::string& f : failures)
      std::cout << "FAILED: " << f << '\n';
    return failures.empty() ? 0 : 1;
  }
  catch (const std::exception& e)
  {
    std::cerr << "asio_notify_bench: " << e.what() << '\n';
    return 1;
  }
}
