//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The benchmark's statistics (report.hpp): the 95 % interval of a median, ratios paired by
// round, "equal" when the interval holds 1.0, and when a target counts as met. No timing.

#include "report.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace bench;

namespace {

backend stock_backend{"stock", "stock", false, false, {}};
backend notify_backend{"notify:x", "notify", true, true, {}};

/// A row of `samples`, one a round from round 0, but for the rounds in `failed`.
row make_row(const backend& b, const std::vector<double>& samples, double target,
             const std::vector<int>& failed = {})
{
  row r;
  r.on = &b;
  r.target = target;
  int round = 0;
  for (double v : samples)
  {
    while (std::find(failed.begin(), failed.end(), round) != failed.end())
      ++round;
    r.add(round++, v);
  }
  return r;
}

/// A metric with a stock row and a notify row of these samples, round by round.
metric two_rows(const std::vector<double>& stock, const std::vector<double>& notify,
                bool lower_is_better, double target)
{
  metric m;
  m.lower_is_better = lower_is_better;
  m.rows.push_back(make_row(stock_backend, stock, 0));
  m.rows.push_back(make_row(notify_backend, notify, target));
  return m;
}

} // namespace

BOOST_AUTO_TEST_SUITE(bench_report)

BOOST_AUTO_TEST_CASE(the_interval_of_seven_rounds_is_their_range)
{
  const interval i = median_interval({5, 1, 7, 3, 2, 6, 4});
  BOOST_TEST(i.low == 1);
  BOOST_TEST(i.high == 7);
  BOOST_TEST(median_of({5, 1, 7, 3, 2, 6, 4}) == 4);
}

BOOST_AUTO_TEST_CASE(nine_rounds_drop_the_extremes)
{
  // 1 - 2 P(X <= 1) = 96.1 % for n = 9: the second smallest and the second largest.
  const interval i = median_interval({9, 1, 8, 2, 7, 3, 6, 4, 5});
  BOOST_TEST(i.low == 2);
  BOOST_TEST(i.high == 8);
  // n = 20: 1 - 2 P(X <= 5) = 95.9 %, the sixth from each end.
  std::vector<double> twenty;
  for (int k = 1; k <= 20; ++k)
    twenty.push_back(k);
  BOOST_TEST(median_interval(twenty).low == 6);
  BOOST_TEST(median_interval(twenty).high == 15);
}

BOOST_AUTO_TEST_CASE(fewer_than_six_rounds_give_their_range_and_none_give_nothing)
{
  const interval i = median_interval({3, 1, 2});
  BOOST_TEST(i.low == 1);
  BOOST_TEST(i.high == 3);
  BOOST_TEST(std::isnan(median_interval({}).low));
}

BOOST_AUTO_TEST_CASE(ratios_pair_the_rounds)
{
  // Stock drifts from round to round and notify is 10 % slower in each: the rows' own
  // intervals overlap entirely, but the ratios paired by round are 1.10, every one.
  const metric m = two_rows({10, 20, 5, 40, 10, 8, 12}, {11, 22, 5.5, 44, 11, 8.8, 13.2}, true, 0);
  BOOST_TEST(m.ratio(m.rows[1]) == 1.1, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(m.ratio_interval(m.rows[1]).low == 1.1, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(m.comparison(m.rows[1]) == "worse");
  BOOST_TEST(m.ratio(m.rows[0]) < 0); // the stock row has none
  BOOST_TEST(m.comparison(m.rows[0]).empty());
}

BOOST_AUTO_TEST_CASE(a_failed_round_pairs_with_nothing)
{
  // Stock failed in round 1 and notify in round 3: rounds 0, 2 and 4 pair, each 2.0.
  metric m;
  m.rows.push_back(make_row(stock_backend, {10, 30, 40, 50}, 0, {1}));
  m.rows.push_back(make_row(notify_backend, {20, 40, 60, 100}, 1.0, {3}));
  BOOST_TEST(m.ratios(m.rows[1]) == std::vector<double>({2.0, 2.0, 2.0}),
             boost::test_tools::per_element());
  // No round in common: no ratio, no verdict.
  metric apart;
  apart.rows.push_back(make_row(stock_backend, {10}, 0));
  apart.rows.push_back(make_row(notify_backend, {10}, 1.0, {0}));
  BOOST_TEST(apart.ratio(apart.rows[1]) < 0);
  BOOST_TEST(apart.verdict(apart.rows[1]).empty());
}

BOOST_AUTO_TEST_CASE(an_interval_holding_one_is_equal)
{
  // Ratios 0.97, 1.02, 0.99, 1.03, 0.98, 1.01, 0.96: median 0.99, interval [0.96, 1.03].
  const metric m =
      two_rows({100, 100, 100, 100, 100, 100, 100}, {97, 102, 99, 103, 98, 101, 96}, false, 1.0);
  BOOST_TEST(m.comparison(m.rows[1]) == "equal");
  // A ratio below the >= 1.00 target, but not told apart from stock: met.
  BOOST_TEST(m.verdict(m.rows[1]) == "PASS");
}

BOOST_AUTO_TEST_CASE(a_ratio_beyond_its_target_misses_and_one_within_passes)
{
  const std::vector<double> stock{10, 10, 10, 10, 10, 10, 10};
  const metric slower = two_rows(stock, {12, 12.5, 11.8, 12.2, 12.1, 11.9, 12.3}, true, 1.05);
  BOOST_TEST(slower.comparison(slower.rows[1]) == "worse");
  BOOST_TEST(slower.verdict(slower.rows[1]) == "MISS");
  const metric faster = two_rows(stock, {9, 9.5, 9.2, 9.1, 9.4, 9.3, 9.6}, true, 1.05);
  BOOST_TEST(faster.comparison(faster.rows[1]) == "better");
  BOOST_TEST(faster.verdict(faster.rows[1]) == "PASS");
  // Within a looser target although worse than stock: met, and still "worse".
  const metric loose = two_rows(stock, {12, 12.5, 11.8, 12.2, 12.1, 11.9, 12.3}, true, 1.30);
  BOOST_TEST(loose.verdict(loose.rows[1]) == "PASS");
  BOOST_TEST(loose.comparison(loose.rows[1]) == "worse");
  BOOST_TEST(loose.has_target());
}

BOOST_AUTO_TEST_SUITE_END()
