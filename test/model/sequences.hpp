//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Running sequences of operations on a fresh harness (generated or replayed), and shrinking
// a failing one to the shortest that still fails the same way.
#ifndef BOOST_ASIO_NOTIFY_TEST_MODEL_SEQUENCES_HPP
#define BOOST_ASIO_NOTIFY_TEST_MODEL_SEQUENCES_HPP

#include "choice_sources.hpp"
#include "generator.hpp"
#include "harness.hpp"
#include "operations.hpp"

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace port_model {

struct run_result
{
  bool ok = true;
  std::size_t failed_step = 0;
  std::string violation;
  std::vector<std::string> steps; // one line per step: the operation and what it did
};

/// What kind of violation `v` is (its first line without numbers or details), to shrink a
/// failing sequence without drifting to another failure.
inline std::string violation_category(const std::string& v)
{
  std::string c;
  for (char ch : v.substr(0, v.find_first_of("\n{(")))
    if (ch < '0' || ch > '9')
      c += ch;
  return c;
}

/// Runs operations on a fresh harness until `next(harness, op&)` has none left or one breaks
/// the contract.
template <class Next>
run_result run(int slots, std::chrono::milliseconds patience, Next next)
{
  run_result res;
  harness h(slots, patience);
  for (op o; next(h, o);)
  {
    const std::string v = h.step(o);
    res.steps.push_back(describe(o) + " => " + h.trace());
    if (!v.empty())
    {
      res.ok = false;
      res.failed_step = res.steps.size() - 1;
      res.violation = v + "\nstate:\n" + h.model().describe_all();
      break;
    }
  }
  return res;
}

/// Generates and runs up to `max_steps` operations from `src`; records them in `ops`.
inline run_result run_generated(source& src, std::size_t max_steps, int slots,
                                std::vector<op>* ops = nullptr)
{
  std::size_t n = 0;
  return run(slots, default_patience, [&](const harness& h, op& o) {
    if (n++ == max_steps)
      return false;
    o = generate(src, h);
    if (src.exhausted())
      return false;
    if (ops)
      ops->push_back(o);
    return true;
  });
}

/// Replays recorded operations.
inline run_result run_ops(const std::vector<op>& ops, int slots,
                          std::chrono::milliseconds patience = default_patience)
{
  std::size_t i = 0;
  return run(slots, patience, [&](const harness&, op& o) {
    if (i == ops.size())
      return false;
    o = ops[i++];
    return true;
  });
}

/// Removes operations while the replay still fails the same way; returns the shortest found.
/// Bounded in runs and in time: a failure that makes every replay wait for missing packets
/// must not hold the test up for minutes.
inline std::vector<op> shrink(std::vector<op> ops, int slots, const std::string& category,
                              int max_runs = 3000,
                              std::chrono::seconds max_time = std::chrono::seconds(30))
{
  const auto deadline = std::chrono::steady_clock::now() + max_time;
  int runs = 0;
  auto budget_left = [&] {
    return runs < max_runs && std::chrono::steady_clock::now() < deadline;
  };
  auto still_fails = [&](std::vector<op>& candidate) {
    ++runs;
    run_result r = run_ops(candidate, slots, std::chrono::milliseconds(150));
    if (r.ok || violation_category(r.violation) != category)
      return false;
    candidate.resize(r.failed_step + 1);
    return true;
  };
  for (bool progress = true; progress && budget_left();)
  {
    progress = false;
    // Whole steps, from the end.
    for (std::size_t i = ops.size(); i-- > 0 && budget_left();)
    {
      std::vector<op> candidate = ops;
      candidate.erase(candidate.begin() + static_cast<std::ptrdiff_t>(i));
      if (still_fails(candidate))
      {
        ops = std::move(candidate);
        progress = true;
        i = std::min(i, ops.size());
      }
    }
    // Entries of batches.
    for (std::size_t i = 0; i < ops.size() && budget_left(); ++i)
      for (std::size_t j = ops[i].entries.size();
           ops[i].kind == op_kind::batch && j-- > 0 && budget_left();)
      {
        if (ops[i].entries.size() < 2)
          break;
        std::vector<op> candidate = ops;
        candidate[i].entries.erase(candidate[i].entries.begin() + static_cast<std::ptrdiff_t>(j));
        if (still_fails(candidate) && i < candidate.size())
        {
          ops = std::move(candidate);
          progress = true;
        }
      }
  }
  return ops;
}

inline std::string format_steps(const run_result& r)
{
  std::string out;
  for (std::size_t i = 0; i < r.steps.size(); ++i)
    out += "  #" + std::to_string(i) + " " + r.steps[i] + "\n";
  return out;
}

} // namespace port_model

#endif
