//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
#include "rounds.hpp"

#include "backends.hpp"

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <numeric>
#include <random>
#include <thread>

namespace bench {

namespace {

std::mutex activity_mutex;
std::string activity = "starting"; // what the run is doing, for the quick mode's deadline

/// Whether `b` is the notify reactor as Windows configures it by default on the port it
/// runs on (the thread driver on PSN, io_context_port on AFD; one-shot level). On Linux,
/// the stand-in of PSN's: the thread driver, one-shot level.
bool is_windows_default(const backend& b)
{
#if defined(_WIN32)
  const an::driver_kind driver = default_driver_on(b.options.backend);
#else
  const an::driver_kind driver = an::driver_kind::thread;
#endif
  return b.notify && b.options.driver == driver &&
         b.options.trigger == an::trigger_strategy::oneshot_level;
}

std::mt19937_64 backend_order; // seeded from the printed seed

} // namespace

std::vector<std::string> failures;

void set_activity(std::string what)
{
  std::lock_guard<std::mutex> lock(activity_mutex);
  activity = std::move(what);
}

void start_quick_deadline(std::chrono::seconds limit)
{
  std::thread([limit] {
    std::this_thread::sleep_for(limit);
    std::string where;
    {
      std::lock_guard<std::mutex> lock(activity_mutex);
      where = activity;
    }
    std::cout << std::flush;
    std::cerr << "\nasio_notify_bench: FAILED: quick run not done after " << limit.count()
              << " s, stuck in: " << where << std::endl;
    std::_Exit(1);
  }).detach();
}

metric make_metric(const std::vector<backend>& backends, std::string key, std::string title,
                   std::string unit, bool lower_is_better, double target, double windows_target)
{
  metric m;
  m.key = std::move(key);
  m.title = std::move(title);
  m.unit = std::move(unit);
  m.lower_is_better = lower_is_better;
  for (const backend& b : backends)
  {
    row r;
    r.on = &b;
    if (b.notify)
      r.note = unsupported_cause(b.options.backend);
    r.target = is_windows_default(b) && windows_target > 0 ? windows_target
               : b.is_default                              ? target
                                                           : 0;
    m.rows.push_back(r);
  }
  return m;
}

std::uint64_t seed_backend_order(std::optional<std::uint64_t> asked)
{
  std::random_device entropy;
  const std::uint64_t seed =
      asked ? *asked
            : std::uniform_int_distribution<std::uint32_t>(1, UINT32_MAX)(entropy); // as --seed
  backend_order.seed(seed);
  std::cout << "backend order: shuffled in each round, seed " << seed << '\n';
  return seed;
}

void run_rounds(const char* scenario, int rounds, const std::vector<backend>& backends,
                const std::function<std::string(std::size_t, int)>& one)
{
  std::vector<std::size_t> order(backends.size());
  for (int round = 0; round < rounds; ++round)
  {
    std::cout << scenario << ", round " << round + 1 << '/' << rounds << ':' << std::flush;
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::shuffle(order.begin(), order.end(), backend_order);
    for (const std::size_t i : order)
    {
      if (backends[i].notify && !an::is_supported(backends[i].options.backend))
        continue; // reported as n/a, with the cause
      std::string error;
      set_activity(std::string(scenario) + " on " + backends[i].label);
      try
      {
        error = one(i, round);
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

void check_sanity(const std::vector<metric>& metrics)
{
  for (const metric& m : metrics)
    for (const row& r : m.rows)
      for (double v : r.samples)
        if (!std::isfinite(v) || v < 0 || (v == 0 && !m.may_be_zero))
          failures.push_back(m.title + " on " + r.on->label + ": insane value " +
                             std::to_string(v));
}

} // namespace bench
