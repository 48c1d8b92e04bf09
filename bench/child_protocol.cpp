//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
#include "child_protocol.hpp"

#include "text.hpp"

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace bench {

namespace {

/** The throughput scenario on `b`, in this process, after a warm-up of a quarter of the
    duration (at most 500 ms) on the same io_context and connections' kind. */
namespace {

/// The CPU time between `before` and `after` (seconds) per `units` of work, in 1/`scale`
/// seconds; NaN where either is unknown or no work was done.
double cpu_per(double before, double after, double units, double scale)
{
  if (before < 0 || after < 0 || !(units > 0))
    return NAN;
  return (after - before) * scale / units;
}

} // namespace

throughput_result throughput_on(const backend& b, const throughput_params& p)
{
  return on_backend(b, [&](auto& ioc, auto tag) {
    using tcp = typename decltype(tag)::type;
    const auto warmup = std::min(p.duration / 4, std::chrono::milliseconds(500));
    throughput_result w =
        run_throughput<tcp>(ioc, p.connections, throughput_message, warmup, p.threads);
    if (!w.error.empty())
      return w;
    ioc.restart();
    const cpu_time before = process_cpu_time();
    throughput_result r =
        run_throughput<tcp>(ioc, p.connections, throughput_message, p.duration, p.threads);
    const cpu_time after = process_cpu_time();
    r.user_ms_per_mb = cpu_per(before.user_s, after.user_s, r.megabytes, 1e3);
    r.system_ms_per_mb = cpu_per(before.system_s, after.system_s, r.megabytes, 1e3);
    return r;
  });
}

/// The ping-pong scenario on `b`, in this process, every round trip timed after p.warmup
/// untimed ones.
latency_result latency_on(const backend& b, const latency_params& p)
{
  return on_backend(b, [&](auto& ioc, auto tag) {
    using tcp = typename decltype(tag)::type;
    if (p.warmup != 0)
    {
      latency_result w =
          run_latency<tcp>(ioc, p.warmup, latency_message, false, p.time_limit, p.threads);
      if (!w.error.empty())
        return w;
      ioc.restart();
    }
    const long long switched_before = voluntary_switches();
    const cpu_time cpu_before = process_cpu_time();
    latency_result r =
        run_latency<tcp>(ioc, p.round_trips, latency_message, true, p.time_limit, p.threads);
    const cpu_time cpu_after = process_cpu_time();
    const long long switched_after = voluntary_switches();
    const double trips = static_cast<double>(r.round_trips);
    r.user_us_per_round_trip = cpu_per(cpu_before.user_s, cpu_after.user_s, trips, 1e6);
    r.system_us_per_round_trip = cpu_per(cpu_before.system_s, cpu_after.system_s, trips, 1e6);
    if (switched_before >= 0 && switched_after >= 0 && r.round_trips != 0)
      r.switches_per_round_trip = static_cast<double>(switched_after - switched_before) /
                                  static_cast<double>(r.round_trips);
    return r;
  });
}

/// The read or the write storm on `b`, in this process; the first phase of each warms up.
storm_result storm_on(const backend& b, const storm_params& p)
{
  return on_backend(b, [&](auto& ioc, auto tag) {
    using tcp = typename decltype(tag)::type;
    return p.write ? run_write_storm<tcp>(ioc, p.sockets, p.phases)
                   : run_storm<tcp>(ioc, p.sockets, p.subset, p.phases);
  });
}

int child_pingpong(const backend& b, const latency_params& p)
{
  const latency_result r = latency_on(b, p);
  if (!r.error.empty())
  {
    std::cerr << "pingpong: " << r.error << '\n';
    return 1;
  }
  std::cout << "mean_us=" << r.mean_us << " p50_us=" << r.p50_us << " p99_us=" << r.p99_us
            << " round_trips=" << r.round_trips;
  if (!std::isnan(r.switches_per_round_trip))
    std::cout << " switches_per_round_trip=" << r.switches_per_round_trip;
  if (!std::isnan(r.user_us_per_round_trip))
    std::cout << " user_us_per_round_trip=" << r.user_us_per_round_trip
              << " system_us_per_round_trip=" << r.system_us_per_round_trip;
  std::cout << '\n';
  if (b.notify)
    std::cout << describe(last_statistics) << '\n';
  return 0;
}

// A child's report: `name=value`, or the error; then the reactor's statistics. The exit
// status says whether it ran.
int report_child(const backend& b, const std::string& error, const char* name, double value)
{
  std::cout << (error.empty() ? name + ("=" + std::to_string(value)) : "error: " + error) << '\n';
  if (b.notify)
    std::cout << describe(last_statistics) << '\n';
  return error.empty() ? 0 : 1;
}

int child_throughput(const backend& b, const throughput_params& p)
{
  const throughput_result r = throughput_on(b, p);
  if (r.error.empty() && !std::isnan(r.user_ms_per_mb))
    std::cout << "user_ms_per_mb=" << r.user_ms_per_mb << " system_ms_per_mb=" << r.system_ms_per_mb
              << ' ';
  return report_child(b, r.error, "MB/s", r.mb_per_s);
}

int child_storm(const backend& b, const storm_params& p)
{
  const storm_result r = storm_on(b, p);
  if (r.error.empty())
    std::cout << "spurious=" << r.spurious << " peers_in_child=" << r.peers_in_child << ' ';
  return report_child(b, r.error, "events_per_s", r.events_per_s);
}

int child_idle(const backend& b, std::size_t connections)
{
  const idle_result r = on_backend(
      b, [&](auto& ioc, auto p) { return run_idle<typename decltype(p)::type>(ioc, connections); });
  if (!r.error.empty())
  {
    std::cout << "error: " << r.error << '\n';
    return 1;
  }
  std::cout << "bytes_per_connection=" << r.bytes_per_connection
            << " rss_before_kib=" << r.rss_before_kib << " rss_after_kib=" << r.rss_after_kib
            << " connections=" << r.connections << '\n';
  return 0;
}

} // namespace

std::vector<std::uint64_t> count_fields(const std::string& count, std::size_t n)
{
  std::vector<std::uint64_t> v(n, 0);
  const std::vector<std::string> f = split(count, '/');
  for (std::size_t i = 0; i < n && i < f.size(); ++i)
    v[i] = f[i].empty() ? 0 : std::stoull(f[i]);
  return v;
}

std::string count_of(std::initializer_list<std::uint64_t> fields)
{
  std::string count;
  for (std::uint64_t f : fields)
    count += (count.empty() ? "" : "/") + std::to_string(f);
  return count;
}

std::string run_child(const std::string& what, const backend& b, const std::string& count,
                      std::string& output)
{
  const int status = run_self({"--child", what, b.id, count}, &output);
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);)
    if (line.compare(0, 9, "warning: ") == 0)
      driver_warnings.push_back(line.substr(9));
  if (status == 0)
    return "";
  const std::size_t end = output.find_last_not_of(" \n\r\t");
  return "child exited with " + std::to_string(status) + ": " +
         output.substr(0, end == std::string::npos ? 0 : end + 1);
}

double output_value(const std::string& output, const std::string& key)
{
  const auto at = output.find(key + "=");
  if (at == std::string::npos)
    return NAN;
  const char* begin = output.c_str() + at + key.size() + 1;
  char* end = nullptr;
  const double v = std::strtod(begin, &end);
  return end == begin ? NAN : v;
}

throughput_result throughput_isolated(const backend& b, const throughput_params& p)
{
  return isolated<throughput_result>(
      "throughput", b, p.child_count(), "MB/s", [&] { return throughput_on(b, p); },
      [](const std::string& out, throughput_result& r) {
        r.mb_per_s = output_value(out, "MB/s");
        r.user_ms_per_mb = output_value(out, "user_ms_per_mb");
        r.system_ms_per_mb = output_value(out, "system_ms_per_mb");
      });
}

latency_result latency_isolated(const backend& b, const latency_params& p)
{
  return isolated<latency_result>(
      "pingpong", b, p.child_count(), "p99_us", [&] { return latency_on(b, p); },
      [](const std::string& out, latency_result& r) {
        r.mean_us = output_value(out, "mean_us");
        r.p50_us = output_value(out, "p50_us");
        r.p99_us = output_value(out, "p99_us");
        r.switches_per_round_trip = output_value(out, "switches_per_round_trip");
        r.user_us_per_round_trip = output_value(out, "user_us_per_round_trip");
        r.system_us_per_round_trip = output_value(out, "system_us_per_round_trip");
        const double made = output_value(out, "round_trips");
        r.round_trips = std::isnan(made) ? 0 : static_cast<std::uint64_t>(made);
      });
}

storm_result storm_isolated(const backend& b, const storm_params& p)
{
  return isolated<storm_result>(
      p.child_mode(), b, p.child_count(), "events_per_s", [&] { return storm_on(b, p); },
      [](const std::string& out, storm_result& r) {
        r.events_per_s = output_value(out, "events_per_s");
        r.spurious = static_cast<std::uint64_t>(std::max(0.0, output_value(out, "spurious")));
        r.peers_in_child = output_value(out, "peers_in_child") == 1;
      });
}

int child_main(const std::string& what, const std::string& id, const std::string& count)
{
  const backend b = backend_from_id(id);
  int status = 2;
  if (what == "pingpong")
    status = child_pingpong(b, latency_params::from_child_count(count));
  else if (what == "throughput")
    status = child_throughput(b, throughput_params::from_child_count(count));
  else if (what == "storm" || what == "write_storm")
    status = child_storm(b, storm_params::from_child_count(what == "write_storm", count));
  else if (what == "idle")
    status = child_idle(b, static_cast<std::size_t>(std::stoull(count)));
  else
    std::cerr << "unknown child mode " << what << '\n';
  for (const std::string& w : driver_warnings)
    std::cout << "warning: " << w << '\n';
  return status;
}

} // namespace bench
