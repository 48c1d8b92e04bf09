//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The results of a benchmark run and their three presentations: a table on standard
// output, <out>/results.json, and <out>/results.png (drawn by gnuplot when it is there);
// for --scaling, <out>/scaling.{txt,json,png}.
#ifndef BOOST_ASIO_NOTIFY_BENCH_REPORT_HPP
#define BOOST_ASIO_NOTIFY_BENCH_REPORT_HPP

#include <boost/asio_notify/reactor.hpp>

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

/// The samples of one metric on one backend, one per round.
struct row
{
  const backend* on = nullptr;
  std::vector<double> samples;
  std::string note; // why there are no samples, or a remark

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
  double target = 0;          // bound on the notify/stock ratio of medians; 0: none
  std::size_t io_threads = 0; // --scaling: the threads that ran the io_context; 0: not set
  std::vector<row> rows;
  std::string note;
  // For system calls: calls per round trip by system call name, by backend id.
  std::map<std::string, std::map<std::string, double>> breakdown;

  const row* stock() const;
  /// median(r) / median(stock), or a negative number when either is missing.
  double ratio(const row& r) const;
  /// "PASS", "MISS", or "" (no target, stock row, or missing data).
  std::string verdict(const row& r) const;
};

/// About the run as a whole.
struct run_info
{
  std::string mode;
  int rounds = 0;
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
