//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The results of a benchmark run and their three presentations: a table on standard
// output, <out>/results.json, and <out>/results.png (drawn by gnuplot when it is there);
// for --scaling, <out>/scaling.{txt,json,png}. Each has its own source file:
// report_statistics.cpp, report_tables.cpp, report_json.cpp and report_charts.cpp.
#ifndef BOOST_ASIO_NOTIFY_BENCH_REPORT_HPP
#define BOOST_ASIO_NOTIFY_BENCH_REPORT_HPP

#include <boost/asio_notify/reactor.hpp>

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace bench {

/// One way of running the scenarios: stock Asio, or the notify reactor with some options.
struct backend
{
  std::string id;    // "stock", or "notify:<options as parse_reactor_options reads them>"
  std::string label; // for people
  bool notify = false;
  bool is_default = false; // the notify reactor as configured by default on this platform
  boost::asio_notify::reactor_options options;
};

/// An interval around a median: `low` and `high` are NaN when there are no samples.
struct interval
{
  double low;
  double high;

  bool contains(double v) const { return low <= v && v <= high; }
};

/** The distribution-free interval of the median of `samples` (the order statistics that
    the sign test gives): at least 95 % confidence from 6 samples on, where it is the
    k-th smallest and k-th largest for the largest k allowed; below 6 samples no such
    interval exists and it is their range. doc/performance.md, "Reading the figures". */
interval median_interval(std::vector<double> samples);

/// The median of `samples`, NaN when empty.
double median_of(std::vector<double> samples);

/// The samples of one metric on one backend, one per round that measured it.
struct row
{
  const backend* on = nullptr;
  std::vector<double> samples;
  std::vector<int> rounds; // the round of each sample: a failed round has none
  std::string note;        // why there are no samples, or a remark
  double target = 0;       // bound on the ratio to stock for this backend; 0: none

  void add(int round, double sample)
  {
    rounds.push_back(round);
    samples.push_back(sample);
  }
  bool available() const { return !samples.empty(); }
  double median() const;
  double min() const;
  double max() const;
};

/// One measured quantity, with a row per backend (the stock row first).
struct metric
{
  std::string key;   // JSON name
  std::string title; // table and chart name
  std::string unit;
  bool lower_is_better = true;
  bool may_be_zero = false;   // a count a round can leave at 0 (a thread that never slept)
  std::size_t io_threads = 0; // --scaling: the threads that ran the io_context; 0: not set
  std::vector<row> rows;
  std::string note;
  // For system calls: calls per round trip by system call name, by backend id.
  std::map<std::string, std::map<std::string, double>> breakdown;

  const row* stock() const;
  /// The round-by-round ratios r / stock, of the rounds that measured both (each round
  /// measures every backend, in a shuffled order); empty for the stock row.
  std::vector<double> ratios(const row& r) const;
  /// The median of ratios(r), or a negative number when there are none.
  double ratio(const row& r) const;
  /// The interval of that median (median_interval).
  interval ratio_interval(const row& r) const;
  /// "better", "worse", or "equal" (the interval holds 1.0) than stock; "" without ratios.
  std::string comparison(const row& r) const;
  /** "PASS" when the ratio meets r.target, or when the interval holds 1.0 and 1.0 meets
      it (notify cannot be told from stock, which meets it); else "MISS"; "" without a
      target or ratios. */
  std::string verdict(const row& r) const;
  /// Whether any row has a target.
  bool has_target() const;
};

/// About the run as a whole.
struct run_info
{
  std::string mode;
  int rounds = 0;
  std::uint64_t seed = 0; // of the backends' order in each round
  std::string platform;
  unsigned hardware_threads = 0;
  double load_start = -1;
  double load_end = -1;
  double elapsed_s = 0;
  std::string compiler;
  std::string build_type;
  std::vector<std::pair<std::string, std::string>> options; // name, value as JSON text
  std::vector<std::string> notes;
};

/// --scaling: what was measured with the io_context run by `threads` threads.
struct scaling_point
{
  std::size_t threads = 0;
  metric throughput; // MB/s
  metric p50;        // ping-pong, us per round trip
  metric p99;
};

void print_table(std::ostream& out, const run_info& info, const std::vector<metric>& metrics);

/// The --scaling table: a block per thread count, a line per backend.
void print_scaling_table(std::ostream& out, const run_info& info,
                         const std::vector<scaling_point>& points);

std::string json_string(const std::string& s);
std::string json_number(double v); // null when not finite

/// Writes the JSON file; false on an I/O error.
bool write_json(const std::string& path, const run_info& info, const std::vector<backend>& backends,
                const std::vector<metric>& metrics);

/// Writes `<stem>.dat`, `<stem>.gp` and, when gnuplot runs, `<stem>.png`. Returns what
/// happened, for the log.
std::string write_chart(const std::string& stem, const std::vector<backend>& backends,
                        const std::vector<metric>& metrics);

/// The --scaling chart, likewise: throughput against io threads, a line per backend.
std::string write_scaling_chart(const std::string& stem, const std::vector<backend>& backends,
                                const std::vector<scaling_point>& points);

} // namespace bench

#endif
