//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The statistics behind every report: medians, the sign test's interval of a median, the
// ratios to stock paired by round, and the verdicts on them.
#include "report.hpp"

#include <algorithm>
#include <cmath>

namespace bench {

namespace {

/// P(X <= k) for X binomial(n, 1/2).
double binomial_half_cdf(std::size_t k, std::size_t n)
{
  double term = std::pow(0.5, static_cast<double>(n)); // P(X = 0)
  double sum = term;
  for (std::size_t i = 1; i <= k; ++i)
  {
    term = term * static_cast<double>(n - i + 1) / static_cast<double>(i);
    sum += term;
  }
  return sum;
}

} // namespace

double median_of(std::vector<double> v)
{
  if (v.empty())
    return NAN;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

interval median_interval(std::vector<double> v)
{
  if (v.empty())
    return {NAN, NAN};
  std::sort(v.begin(), v.end());
  // The k-th smallest and largest cover the median with probability 1 - 2 P(X <= k - 1).
  std::size_t k = 1;
  while (k < v.size() / 2 && 2 * binomial_half_cdf(k, v.size()) <= 0.05)
    ++k;
  return {v[k - 1], v[v.size() - k]};
}

double row::median() const { return median_of(samples); }

double row::min() const
{
  return samples.empty() ? NAN : *std::min_element(samples.begin(), samples.end());
}

double row::max() const
{
  return samples.empty() ? NAN : *std::max_element(samples.begin(), samples.end());
}

const row* metric::stock() const
{
  for (const row& r : rows)
    if (!r.on->notify)
      return &r;
  return nullptr;
}

std::vector<double> metric::ratios(const row& r) const
{
  const row* s = stock();
  std::vector<double> q;
  if (!s || !r.on->notify)
    return q;
  for (std::size_t k = 0; k < r.samples.size(); ++k)
    for (std::size_t j = 0; j < s->samples.size(); ++j)
      if (s->rounds[j] == r.rounds[k] && s->samples[j] > 0)
        q.push_back(r.samples[k] / s->samples[j]);
  return q;
}

double metric::ratio(const row& r) const
{
  const std::vector<double> q = ratios(r);
  return q.empty() ? -1 : median_of(q);
}

interval metric::ratio_interval(const row& r) const { return median_interval(ratios(r)); }

std::string metric::comparison(const row& r) const
{
  const interval i = ratio_interval(r);
  if (!std::isfinite(i.low))
    return "";
  if (i.contains(1.0))
    return "equal";
  return (i.high < 1.0) == lower_is_better ? "better" : "worse";
}

std::string metric::verdict(const row& r) const
{
  const double q = ratio(r);
  if (r.target <= 0 || q < 0)
    return "";
  const auto meets = [&](double v) {
    return lower_is_better ? v <= r.target : v >= r.target;
  };
  return meets(q) || (ratio_interval(r).contains(1.0) && meets(1.0)) ? "PASS" : "MISS";
}

bool metric::has_target() const
{
  return std::any_of(rows.begin(), rows.end(), [](const row& r) { return r.target > 0; });
}

} // namespace bench
