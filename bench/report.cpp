//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <system_error>

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

std::string bound(const metric& m)
{
  if (m.target <= 0)
    return "";
  std::ostringstream s;
  s << (m.lower_is_better ? "<=" : ">=") << std::fixed << std::setprecision(2) << m.target;
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

/// `stem`'s directory ("." when none) and file name.
std::pair<std::string, std::string> split_stem(const std::string& stem)
{
  const std::size_t slash = stem.find_last_of("/\\");
  if (slash == std::string::npos)
    return {".", stem};
  return {stem.substr(0, slash), stem.substr(slash + 1)};
}

/// The start of a gnuplot script writing `<base>.png`.
std::string gnuplot_preamble(const std::string& base, int width, int height)
{
  const std::string size = " size " + std::to_string(width) + "," + std::to_string(height);
  return "# Drawn by asio_notify_bench; run in this directory: gnuplot " + base + ".gp\n" +
         "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n  set terminal pngcairo" + size +
         " font ',10'\n} else {\n  set terminal png" + size + "\n}\n" + "set output '" + base +
         ".png'\n" + "set termoption noenhanced\nset datafile missing 'NaN'\n";
}

/// Whether a gnuplot program is in one of the PATH directories.
bool gnuplot_on_path()
{
#if defined(_WIN32)
  const char separator = ';';
  const char* const name = "gnuplot.exe";
#else
  const char separator = ':';
  const char* const name = "gnuplot";
#endif
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, separator);)
  {
    std::error_code ec;
    if (std::filesystem::is_regular_file(std::filesystem::path(dir.empty() ? "." : dir) / name, ec))
      return true;
  }
  return false;
}

/// Runs `<stem>.gp` in its directory; says what happened, for the log.
std::string run_gnuplot(const std::string& stem)
{
  const auto [dir, base] = split_stem(stem);
#if defined(_WIN32)
  const std::string command = "cd /d \"" + dir + "\" && gnuplot \"" + base + ".gp\"";
#else
  const std::string command = "cd \"" + dir + "\" && gnuplot \"" + base + ".gp\"";
#endif
  if (!gnuplot_on_path())
    return "no chart: gnuplot is not installed. With it, `gnuplot " + base + ".gp` run in " + dir +
           " draws " + base + ".png from " + base + ".dat (the figures of " + base + ".json)";
  if (std::system(command.c_str()) != 0)
    return "no chart: gnuplot failed (the script is " + stem + ".gp)";
  return "chart: " + stem + ".png";
}

/// The median of `r` as the table shows it, or "n/a".
std::string median_cell(const row& r) { return r.available() ? format_number(r.median()) : "n/a"; }

/// median(notify) / median(stock) as the table shows it: "-" for the stock row or no data.
std::string ratio_cell(const metric& m, const row& r)
{
  const double q = m.ratio(r);
  return q < 0 ? "-" : format_number(q);
}

} // namespace

std::string json_string(const std::string& s)
{
  std::string out = "\"";
  for (char c : s)
  {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n')
    {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string json_number(double v)
{
  if (!std::isfinite(v))
    return "null";
  std::ostringstream s;
  s << std::setprecision(6) << v;
  return s.str();
}

double row::median() const
{
  if (samples.empty())
    return NAN;
  std::vector<double> v(samples);
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

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

double metric::ratio(const row& r) const
{
  const row* s = stock();
  if (!s || !r.on->notify || !r.available() || !s->available() || s->median() == 0)
    return -1;
  return r.median() / s->median();
}

std::string metric::verdict(const row& r) const
{
  const double q = ratio(r);
  if (target <= 0 || q < 0)
    return "";
  return (lower_is_better ? q <= target : q >= target) ? "PASS" : "MISS";
}

void print_table(std::ostream& out, const run_info& info, const std::vector<metric>& metrics)
{
  print_header(out, info, "");
  out << "ratio = median(notify) / median(stock); targets apply to the ratio\n\n";
  std::vector<const metric*> all;
  for (const metric& m : metrics)
    all.push_back(&m);
  const std::size_t backend_width = label_width(all);
  const std::string header = pad("metric", 34) + pad("backend", backend_width) +
                             pad_left("median", 10) + pad_left("min", 10) + pad_left("max", 10) +
                             pad_left("ratio", 8) + pad_left("target", 9) + pad_left("result", 8);
  out << header << '\n' << std::string(header.size(), '-') << '\n';
  for (const metric& m : metrics)
  {
    bool first = true;
    for (const row& r : m.rows)
    {
      out << pad(first ? m.title : "", 34) << pad(r.on->label, backend_width);
      if (r.available())
      {
        const double q = m.ratio(r);
        out << pad_left(format_number(r.median()), 10) << pad_left(format_number(r.min()), 10)
            << pad_left(format_number(r.max()), 10) << pad_left(q < 0 ? "-" : format_number(q), 8)
            << pad_left(r.on->notify ? bound(m) : "", 9) << pad_left(m.verdict(r), 8);
      }
      else
        out << pad_left("n/a", 10) << "  " << r.note;
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
      std::sort(sorted.begin(), sorted.end());
      out << "  per round trip, " << id << ":";
      for (const auto& [n, name] : sorted)
        out << ' ' << name << '=' << format_number(-n);
      out << '\n';
    }
    out << '\n';
  }
  out << "Targets (the default notify configuration against stock Asio):\n";
  for (const metric& m : metrics)
  {
    if (m.target <= 0)
      continue;
    for (const row& r : m.rows)
      if (r.on->is_default)
      {
        const std::string v = m.verdict(r);
        out << "  " << pad(m.title, 34) << pad(bound(m), 8)
            << (v.empty() ? "n/a (" + r.note + ")"
                          : v + "  (ratio " + format_number(m.ratio(r)) + ")")
            << '\n';
      }
  }
  for (const std::string& n : info.notes)
    out << "note: " << n << '\n';
}

bool write_json(const std::string& path, const run_info& info, const std::vector<backend>& backends,
                const std::vector<metric>& metrics)
{
  std::ofstream out(path);
  out << "{\n  \"benchmark\": \"Boost.AsioNotify vs stock Boost.Asio\",\n"
      << "  \"mode\": " << json_string(info.mode) << ",\n  \"rounds\": " << info.rounds
      << ",\n  \"platform\": " << json_string(info.platform)
      << ",\n  \"hardware_threads\": " << info.hardware_threads
      << ",\n  \"load_average_start\": " << json_number(info.load_start)
      << ",\n  \"load_average_end\": " << json_number(info.load_end)
      << ",\n  \"elapsed_s\": " << json_number(info.elapsed_s)
      << ",\n  \"compiler\": " << json_string(info.compiler)
      << ",\n  \"build_type\": " << json_string(info.build_type) << ",\n  \"options\": {";
  for (std::size_t i = 0; i < info.options.size(); ++i)
    out << (i ? ", " : "") << json_string(info.options[i].first) << ": " << info.options[i].second;
  out << "},\n  \"notes\": [";
  for (std::size_t i = 0; i < info.notes.size(); ++i)
    out << (i ? ", " : "") << json_string(info.notes[i]);
  out << "],\n  \"backends\": [\n";
  for (std::size_t i = 0; i < backends.size(); ++i)
  {
    const backend& b = backends[i];
    out << "    {\"id\": " << json_string(b.id) << ", \"label\": " << json_string(b.label)
        << ", \"notify\": " << (b.notify ? "true" : "false")
        << ", \"default\": " << (b.is_default ? "true" : "false") << "}"
        << (i + 1 < backends.size() ? ",\n" : "\n");
  }
  out << "  ],\n  \"metrics\": [\n";
  for (std::size_t i = 0; i < metrics.size(); ++i)
  {
    const metric& m = metrics[i];
    out << "    {\n      \"key\": " << json_string(m.key)
        << ",\n      \"title\": " << json_string(m.title)
        << ",\n      \"unit\": " << json_string(m.unit)
        << ",\n      \"lower_is_better\": " << (m.lower_is_better ? "true" : "false")
        << ",\n      \"target_ratio\": " << (m.target > 0 ? json_number(m.target) : "null")
        << (m.io_threads ? ",\n      \"io_threads\": " + std::to_string(m.io_threads) : "")
        << ",\n      \"note\": " << json_string(m.note) << ",\n      \"rows\": [\n";
    for (std::size_t j = 0; j < m.rows.size(); ++j)
    {
      const row& r = m.rows[j];
      const double q = m.ratio(r);
      const std::string v = m.verdict(r);
      out << "        {\"backend\": " << json_string(r.on->id) << ", \"samples\": [";
      for (std::size_t k = 0; k < r.samples.size(); ++k)
        out << (k ? ", " : "") << json_number(r.samples[k]);
      out << "], \"median\": " << json_number(r.median()) << ", \"min\": " << json_number(r.min())
          << ", \"max\": " << json_number(r.max())
          << ", \"ratio\": " << (q < 0 ? "null" : json_number(q))
          << ", \"result\": " << (v.empty() ? "null" : json_string(v))
          << ", \"note\": " << json_string(r.note) << "}" << (j + 1 < m.rows.size() ? ",\n" : "\n");
    }
    out << "      ]";
    if (!m.breakdown.empty())
    {
      out << ",\n      \"per_round_trip_by_syscall\": {";
      bool first_backend = true;
      for (const auto& [id, calls] : m.breakdown)
      {
        out << (first_backend ? "\n" : ",\n") << "        " << json_string(id) << ": {";
        bool first_call = true;
        for (const auto& [name, n] : calls)
        {
          out << (first_call ? "" : ", ") << json_string(name) << ": " << json_number(n);
          first_call = false;
        }
        out << "}";
        first_backend = false;
      }
      out << "\n      }";
    }
    out << "\n    }" << (i + 1 < metrics.size() ? ",\n" : "\n");
  }
  out << "  ]\n}\n";
  return static_cast<bool>(out);
}

std::string write_chart(const std::string& stem, const std::vector<backend>& backends,
                        const std::vector<metric>& metrics)
{
  std::vector<const backend*> columns;
  for (const backend& b : backends)
    if (b.notify)
      columns.push_back(&b);
  // One cluster per metric with a target, one bar per notify backend.
  {
    std::ofstream dat(stem + ".dat");
    dat << "metric";
    for (const backend* b : columns)
      dat << " \"" << b->label << '"';
    dat << " target\n";
    for (const metric& m : metrics)
    {
      if (m.target <= 0)
        continue;
      dat << '"' << m.title << "\\n(" << bound(m) << ")\"";
      for (const backend* b : columns)
      {
        double q = -1;
        for (const row& r : m.rows)
          if (r.on == b)
            q = m.ratio(r);
        dat << ' ' << (q < 0 ? std::string("NaN") : json_number(q));
      }
      dat << ' ' << json_number(m.target) << '\n';
    }
    if (!dat)
      return "could not write " + stem + ".dat";
  }
  // The script names its files relative to its own directory (where gnuplot is run).
  const std::string base = split_stem(stem).second;
  {
    std::ofstream gp(stem + ".gp");
    const std::size_t target_column = columns.size() + 2;
    gp << gnuplot_preamble(base, 1400, 700)
       << "set title 'Boost.AsioNotify / stock Boost.Asio: ratio of medians (log scale); red bars: "
          "targets, bound under each name'\n"
       << "set ylabel 'notify / stock'\n"
       << "set style data histograms\nset style histogram clustered gap 1\n"
       << "set style fill solid 0.8 border -1\nset boxwidth 0.9\n"
       << "set bmargin 5\n"
       << "set logscale y 2\nset yrange [0.125:*]\nset grid ytics\nset key outside right top\n"
       << "set key autotitle columnheader\n"
       << "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb 'gray40'\n"
       << "plot ";
    for (std::size_t i = 0; i < columns.size(); ++i)
      gp << "'" << base << ".dat' using " << i + 2 << (i == 0 ? ":xtic(1)" : "") << ", ";
    // Clustered bars of n columns (gap 1) sit 1/(n+1) apart around each cluster's centre.
    const double step = 1.0 / static_cast<double>(columns.size() + 1);
    for (std::size_t i = 0; i < columns.size(); ++i)
    {
      const double offset =
          (static_cast<double>(i) - static_cast<double>(columns.size() - 1) / 2) * step;
      gp << "'" << base << ".dat' using ($0" << (offset < 0 ? "" : "+") << offset << "):" << i + 2
         << ":(sprintf('%.2f', column(" << i + 2
         << "))) with labels offset 0,0.7 font ',8' notitle, ";
    }
    gp << "'" << base << ".dat' using ($0-0.45):" << target_column
       << ":(0.9):(0) with vectors nohead lw 3 lc rgb 'red' title 'target'\n";
    if (!gp)
      return "could not write " + stem + ".gp";
  }
  return run_gnuplot(stem);
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
      << "\nratio = median(notify) / median(stock); speed-up = median MB/s / the same backend's "
         "median MB/s"
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

std::string write_scaling_chart(const std::string& stem, const std::vector<backend>& backends,
                                const std::vector<scaling_point>& points)
{
  // A line per thread count: the threads, then median, min and max MB/s of each backend.
  {
    std::ofstream dat(stem + ".dat");
    dat << "# io_threads, then MB/s median min max of each backend:";
    for (const backend& b : backends)
      dat << " \"" << b.label << '"';
    dat << '\n';
    for (const scaling_point& p : points)
    {
      dat << p.threads;
      for (const row& r : p.throughput.rows)
        for (double v : {r.median(), r.min(), r.max()})
          dat << ' ' << (std::isfinite(v) ? json_number(v) : std::string("NaN"));
      dat << '\n';
    }
    if (!dat)
      return "could not write " + stem + ".dat";
  }
  if (points.empty())
    return "no chart: nothing measured";
  const std::string base = split_stem(stem).second;
  {
    std::ofstream gp(stem + ".gp");
    const double low = static_cast<double>(points.front().threads);
    const double high = static_cast<double>(points.back().threads);
    gp << gnuplot_preamble(base, 1200, 700)
       << "set title 'echo throughput against io threads: median, bars from min to max'\n"
       << "set xlabel 'threads running the io_context (log2 scale)'\nset ylabel 'MB/s'\n"
       << "set logscale x 2\nset xrange [" << json_number(low / 1.3) << ":"
       << json_number(high * 1.3) << "]\n"
       << "set yrange [0:*]\nset grid\nset key outside right top\nset xtics (";
    for (std::size_t i = 0; i < points.size(); ++i)
      gp << (i ? ", " : "") << points[i].threads;
    gp << ")\nplot ";
    for (std::size_t i = 0; i < backends.size(); ++i)
    {
      const std::size_t column = 2 + 3 * i;
      gp << (i ? ", \\\n     " : "") << "'" << base << ".dat' using 1:" << column << ':'
         << column + 1 << ':' << column + 2 << " with yerrorlines lw "
         << (backends[i].notify ? 2 : 3) << (backends[i].notify ? "" : " lc rgb 'black'")
         << " title '" << backends[i].label << "'";
    }
    gp << '\n';
    if (!gp)
      return "could not write " + stem + ".gp";
  }
  return run_gnuplot(stem);
}

} // namespace bench
