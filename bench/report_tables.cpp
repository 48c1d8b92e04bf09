//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The tables on standard output (and in <out>/results.txt): the scenarios' and --scaling's.
#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>
#include <utility>

namespace bench {

namespace {

std::string format_number(double v)
{
  if (!std::isfinite(v))
    return "n/a";
  char buffer[64];
  const double a = std::fabs(v);
  std::snprintf(buffer, sizeof(buffer), a >= 1000 ? "%.0f" : a >= 100 ? "%.1f" : "%.2f", v);
  return buffer;
}

std::string bound(const metric& m, const row& r)
{
  if (r.target <= 0)
    return "";
  std::ostringstream s;
  s << (m.lower_is_better ? "<=" : ">=") << std::fixed << std::setprecision(2) << r.target;
  return s.str();
}

std::string pad(std::string s, std::size_t width)
{
  if (s.size() < width)
    s.append(width - s.size(), ' ');
  return s;
}

std::string pad_left(const std::string& s, std::size_t width)
{
  return s.size() < width ? std::string(width - s.size(), ' ') + s : s;
}

/// The width of the backend column: 33, or more for longer labels (Windows' name their
/// backend, "notify psn (double) thread/oneshot (default)").
std::size_t label_width(const std::vector<const metric*>& metrics)
{
  std::size_t width = 33;
  for (const metric* m : metrics)
    for (const row& r : m->rows)
      width = std::max(width, r.on->label.size() + 2);
  return width;
}

void print_header(std::ostream& out, const run_info& info, const char* what)
{
  out << "\nBoost.AsioNotify vs stock Boost.Asio" << what << ": " << info.mode << " run, "
      << info.rounds << " round(s), " << info.platform << ", " << info.hardware_threads
      << " hardware threads";
  if (info.load_start >= 0)
    out << ", load average " << format_number(info.load_start) << " at start, "
        << format_number(info.load_end) << " at end";
  out << ", " << format_number(info.elapsed_s) << " s\n";
  if (!info.compiler.empty())
    out << "built with " << info.compiler << (info.build_type.empty() ? "" : ", " + info.build_type)
        << '\n';
}

/// The median of `r` as the table shows it, or "n/a".
std::string median_cell(const row& r) { return r.available() ? format_number(r.median()) : "n/a"; }

/// The ratio to stock as the tables show it: "-" for the stock row or no data.
std::string ratio_cell(const metric& m, const row& r)
{
  const double q = m.ratio(r);
  return q < 0 ? "-" : format_number(q);
}

/// "[low-high]", or "" when `i` is empty.
std::string interval_cell(const interval& i)
{
  return std::isfinite(i.low) ? "[" + format_number(i.low) + "-" + format_number(i.high) + "]" : "";
}

} // namespace

void print_table(std::ostream& out, const run_info& info, const std::vector<metric>& metrics)
{
  print_header(out, info, "");
  out << "median [interval]: of the rounds, with its 95 % interval (their range below 6 "
         "rounds); ratio: the median of\neach round's notify / stock, with its interval; vs "
         "stock: \"equal\" when that interval holds 1.0;\ntargets apply to the ratio "
         "(doc/performance.md)\n\n";
  std::vector<const metric*> all;
  for (const metric& m : metrics)
    all.push_back(&m);
  const std::size_t backend_width = label_width(all);
  const std::string header = pad("metric", 34) + pad("backend", backend_width) +
                             pad_left("median", 9) + ' ' + pad("[interval]", 18) +
                             pad_left("ratio", 6) + ' ' + pad("[interval]", 13) +
                             pad("vs stock", 9) + pad("target", 7) + pad("result", 6);
  out << header << '\n' << std::string(header.size(), '-') << '\n';
  for (const metric& m : metrics)
  {
    bool first = true;
    for (const row& r : m.rows)
    {
      out << pad(first ? m.title : "", 34) << pad(r.on->label, backend_width);
      if (r.available())
        out << pad_left(format_number(r.median()), 9) << ' '
            << pad(interval_cell(median_interval(r.samples)), 18) << pad_left(ratio_cell(m, r), 6)
            << ' ' << pad(interval_cell(m.ratio_interval(r)), 13) << pad(m.comparison(r), 9)
            << pad(bound(m, r), 7) << m.verdict(r);
      else
        out << pad_left("n/a", 9) << "  " << r.note;
      out << '\n';
      if (first && !m.unit.empty())
        out << pad("  (" + m.unit + ")", 34) << '\n';
      first = false;
    }
    if (!m.note.empty())
      out << "  note: " << m.note << '\n';
    for (const auto& [id, calls] : m.breakdown)
    {
      std::vector<std::pair<double, std::string>> sorted;
      for (const auto& [name, n] : calls)
        if (std::fabs(n) >= 0.005)
          sorted.emplace_back(-n, name);
      if (sorted.empty()) // none worth a line (a counter that names only futex, say)
        continue;
      std::sort(sorted.begin(), sorted.end());
      out << "  per round trip, " << id << ":";
      for (const auto& [n, name] : sorted)
        out << ' ' << name << '=' << format_number(-n);
      out << '\n';
    }
    out << '\n';
  }
  out << "Targets (ratio notify / stock, median [interval]):\n";
  for (const metric& m : metrics)
    for (const row& r : m.rows)
      if (r.target > 0)
      {
        const std::string v = m.verdict(r);
        out << "  " << pad(m.title, 34) << pad(r.on->label, backend_width) << pad(bound(m, r), 7)
            << (v.empty() ? "n/a (" + r.note + ")"
                          : v + "  (" + ratio_cell(m, r) + " " +
                                interval_cell(m.ratio_interval(r)) + ", " + m.comparison(r) + ")")
            << '\n';
      }
  out << "backend order: shuffled in each round from seed " << info.seed << " (--seed " << info.seed
      << " repeats it)\n";
  for (const std::string& n : info.notes)
    out << "note: " << n << '\n';
}

// ---- --scaling ------------------------------------------------------------------------------

namespace {

/// One line of the scaling table: `r` (the i-th row of each metric of `p`), `first` the
/// same backend's throughput with the fewest threads (for the speed-up).
void print_scaling_row(std::ostream& out, const scaling_point& p, std::size_t i, const row& first,
                       bool first_line, std::size_t backend_width)
{
  const row& t = p.throughput.rows[i];
  out << pad(first_line ? std::to_string(p.threads) : "", 9) << pad(t.on->label, backend_width)
      << pad_left(median_cell(t), 9) << ' '
      << pad(t.available() ? "[" + format_number(t.min()) + "-" + format_number(t.max()) + "]" : "",
             16)
      << pad_left(ratio_cell(p.throughput, t), 6)
      << pad_left(t.available() && first.available() ? format_number(t.median() / first.median())
                                                     : "-",
                  9)
      << pad_left(median_cell(p.p50.rows[i]), 10) << pad_left(ratio_cell(p.p50, p.p50.rows[i]), 7)
      << pad_left(median_cell(p.p99.rows[i]), 10) << pad_left(ratio_cell(p.p99, p.p99.rows[i]), 7);
  if (!t.available() && !t.note.empty())
    out << "  " << t.note;
  out << '\n';
}

} // namespace

void print_scaling_table(std::ostream& out, const run_info& info,
                         const std::vector<scaling_point>& points)
{
  print_header(out, info, ", io thread scaling");
  if (points.empty())
    return;
  out << "throughput: " << points.front().throughput.unit
      << "\nping-pong:  " << points.front().p50.unit
      << "\nratio = the median of each round's notify / stock; speed-up = median MB/s / the "
         "same backend's median MB/s"
      << " with " << points.front().threads << " io thread(s)\n\n";
  std::vector<const metric*> all;
  for (const scaling_point& p : points)
    all.push_back(&p.throughput);
  const std::size_t backend_width = label_width(all);
  const std::string header =
      pad("threads", 9) + pad("backend", backend_width) + pad_left("MB/s", 9) + ' ' +
      pad("[min-max]", 16) + pad_left("ratio", 6) + pad_left("speed-up", 9) +
      pad_left("p50 us", 10) + pad_left("ratio", 7) + pad_left("p99 us", 10) + pad_left("ratio", 7);
  out << header << '\n' << std::string(header.size(), '-') << '\n';
  for (const scaling_point& p : points)
  {
    for (std::size_t i = 0; i < p.throughput.rows.size(); ++i)
      print_scaling_row(out, p, i, points.front().throughput.rows[i], i == 0, backend_width);
    for (const metric* m : {&p.throughput, &p.p50, &p.p99})
      if (!m->note.empty())
        out << "  note (" << m->title << "): " << m->note << '\n';
    out << '\n';
  }
  for (const std::string& n : info.notes)
    out << "note: " << n << '\n';
}

} // namespace bench
