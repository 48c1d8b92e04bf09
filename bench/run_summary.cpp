//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
#include "run_summary.hpp"

#include "backends.hpp"
#include "child_protocol.hpp"
#include "process.hpp"
#include "rounds.hpp"
#include "text.hpp"

#include <boost/version.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <thread>

namespace bench {

namespace {

std::string platform_name()
{
#if defined(__linux__)
  std::string p = "Linux";
#elif defined(_WIN32)
  const std::string wine = wine_version();
  std::string p = wine.empty()
                      ? "Windows"
                      : "Windows under " + wine + " (Wine's figures: not Windows performance)";
#else
  std::string p = "unknown OS";
#endif
  return p + ", Boost " + std::to_string(BOOST_VERSION / 100000) + "." +
         std::to_string(BOOST_VERSION / 100 % 1000);
}

std::string compiler_name()
{
#if defined(__clang__)
  return std::string("Clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("GCC ") + __VERSION__;
#elif defined(_MSC_VER)
  return "MSVC " + std::to_string(_MSC_FULL_VER);
#else
  return "unknown compiler";
#endif
}

std::string build_type()
{
#if defined(BOOST_ASIO_NOTIFY_BENCH_BUILD_TYPE)
  std::string type = BOOST_ASIO_NOTIFY_BENCH_BUILD_TYPE;
#else
  std::string type;
#endif
  if (type.empty())
    type = "build type not set";
#if defined(NDEBUG)
  type += " (NDEBUG)";
#endif
#if defined(BOOST_ASIO_NOTIFY_BENCH_STATIC)
  type += ", statically linked";
#endif
  return type;
}

std::string json_counts(const std::vector<std::size_t>& values)
{
  return "[" + join(values, ", ") + "]";
}

} // namespace

std::vector<std::pair<std::string, std::string>> describe_options(const config& c)
{
  auto number = [](double v) {
    return json_number(v);
  };
  std::vector<std::pair<std::string, std::string>> o{
      {"quick", c.quick ? "true" : "false"},
      {"rounds", number(c.rounds)},
      {"variants", c.variants ? "true" : "false"},
      {"psn_double", psn_on_double ? "true" : "false"},
      {"out", json_string(c.out)},
      {"latency_round_trips", number(static_cast<double>(c.latency_round_trips))},
      {"latency_warmup_round_trips", number(static_cast<double>(c.latency_warmup))},
      {"latency_time_limit_ms", number(static_cast<double>(c.latency_time_limit.count()))},
      {"latency_message_bytes", number(latency_message)},
      {"throughput_connections", number(static_cast<double>(c.throughput_connections))},
      {"throughput_message_bytes", number(throughput_message)},
      {"throughput_duration_ms", number(static_cast<double>(c.throughput_duration.count()))}};
  if (c.scaling)
  {
    o.emplace_back("io_threads_asked", json_counts(c.io_threads_asked));
    o.emplace_back("io_threads", json_counts(c.io_threads));
    o.emplace_back("child_processes", can_spawn_children() ? "true" : "false");
  }
  else
  {
    std::string only;
    for (const std::string& s : c.only)
      only += (only.empty() ? "" : ",") + s;
    o.emplace_back("throughput_threads", json_counts(c.throughput_threads));
    o.emplace_back("only", json_string(only));
  }
  return o;
}

run_info make_run_info(const config& c)
{
  run_info info;
  info.mode = std::string(c.scaling ? "scaling " : "") + (c.quick ? "quick" : "full");
  info.rounds = c.rounds;
  info.platform = platform_name();
  info.hardware_threads = std::thread::hardware_concurrency();
  info.load_start = load_average();
  info.compiler = compiler_name();
  info.build_type = build_type();
  info.notes.push_back("timings from a machine shared with other work are noisy; compare ratios, "
                       "and the min/max spread");
  if (!wine_version().empty())
    info.notes.push_back("under Wine: not Windows performance. These are Wine's figures (its "
                         "emulation of IOCP, AFD and the sockets), only to show that every row "
                         "runs; measure on Windows (doc/performance.md, Comparing with IOCP)");
  if (psn_on_double)
    info.notes.push_back("psn (double): the PSN backend ran on the test double of "
                         "ProcessSocketNotifications (test/windows/psn_double.hpp, --psn-double), "
                         "built on the AFD engine, since this system has no PSN");
  for (const backend& b : make_backends(c.variants))
    if (b.notify && !an::is_supported(b.options.backend))
      info.notes.push_back("not run: " + b.label + ": " + unsupported_cause(b.options.backend));
  return info;
}

int conclude(const std::string& stem, run_info& info, clock_type::time_point t0,
             const std::vector<backend>& backends, const std::vector<metric>& metrics,
             const std::function<void(std::ostream&, const run_info&)>& table,
             const std::function<std::string(const std::string&)>& chart)
{
  set_activity("writing the results");
  info.elapsed_s = seconds_since(t0);
  info.load_end = load_average();
  for (const std::string& w : driver_warnings)
    if (std::find(info.notes.begin(), info.notes.end(), w) == info.notes.end())
      info.notes.push_back(w);
  check_sanity(metrics);

  table(std::cout, info);
  {
    std::ofstream file(stem + ".txt");
    table(file, info);
  }
  if (!write_json(stem + ".json", info, backends, metrics))
    failures.push_back("could not write " + stem + ".json");
  else
    std::cout << "results: " << stem << ".json\n";
  std::cout << chart(stem) << '\n';

  for (const std::string& f : failures)
    std::cout << "FAILED: " << f << '\n';
  return failures.empty() ? 0 : 1;
}

} // namespace bench
