//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Running rounds: every backend once a round, in an order shuffled anew each round, the
// samples filed into metrics with a row per backend; the failures and the sanity check of
// the samples; the quick mode's deadline.
#ifndef BOOST_ASIO_NOTIFY_BENCH_ROUNDS_HPP
#define BOOST_ASIO_NOTIFY_BENCH_ROUNDS_HPP

#include "report.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bench {

/// What failed, scenario and backend, for the end of the run (whose exit status is 1 then).
extern std::vector<std::string> failures;

/// Says what the run is doing now, for the quick mode's deadline.
void set_activity(std::string what);

/** --quick: a run not done after `limit` is stuck somewhere no scenario's own guard
    reaches (a teardown, say); say where, and exit with 1 before ctest's time-out kills it
    without a word. */
void start_quick_deadline(std::chrono::seconds limit);

/** A metric with a row per backend. The default configuration's row gets `target` (its
    bound on the ratio to stock), a row of the Windows default configuration (which is
    the default one on Windows) `windows_target` where there is one; 0: none. */
metric make_metric(const std::vector<backend>& backends, std::string key, std::string title,
                   std::string unit, bool lower_is_better, double target,
                   double windows_target = 0);

/// The seed of backend_order: `asked`, or a random one; printed, so that --seed repeats it.
std::uint64_t seed_backend_order(std::optional<std::uint64_t> asked);

/** `rounds` rounds; in each, `one(backend, round)` on every backend, in an order shuffled
    anew each round (backend_order), so that no backend runs in the same place each time.
    `one` returns an error or "", and files its samples under the round (rows pair by it). */
void run_rounds(const char* scenario, int rounds, const std::vector<backend>& backends,
                const std::function<std::string(std::size_t, int)>& one);

/// The backends that a time limit stopped short of the round trips asked for, for a note.
class shortfall
{
public:
  void record(const std::string& label, std::uint64_t made, std::uint64_t asked)
  {
    if (made >= asked)
      return;
    auto [it, fresh] = fewest_.emplace(label, made);
    if (!fresh)
      it->second = std::min(it->second, made);
  }

  std::string note(std::chrono::milliseconds limit) const
  {
    std::string note;
    for (const auto& [label, made] : fewest_)
      note += std::string(note.empty() ? "" : "; ") + label + ": stopped by the " +
              std::to_string(limit.count()) + " ms limit after " + std::to_string(made) +
              " round trips (fewest)";
    return note;
  }

private:
  std::map<std::string, std::uint64_t> fewest_; // label -> fewest round trips made
};

/// Every sample finite and positive: anything else means a scenario misbehaved.
void check_sanity(const std::vector<metric>& metrics);

} // namespace bench

#endif
