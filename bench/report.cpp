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

bool write_json(const std::string& path, const run_info& info, const std::vector<backend>& backends,
                const std::vector<metric>& metrics)
{
  std::ofstream out(path);
  out << "{\n  \"benchmark\": \"Boost.AsioNotify vs stock Boost.Asio\",\n"
      << "  \"mode\": " << json_string(info.mode) << ",\n  \"rounds\": " << info.rounds
      << ",\n  \"seed\": " << info.seed << ",\n  \"platform\": " << json_string(info.platform)
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
        << (m.io_threads ? ",\n      \"io_threads\": " + std::to_string(m.io_threads) : "")
        << ",\n      \"note\": " << json_string(m.note) << ",\n      \"rows\": [\n";
    for (std::size_t j = 0; j < m.rows.size(); ++j)
    {
      const row& r = m.rows[j];
      const double q = m.ratio(r);
      const std::string v = m.verdict(r);
      const interval spread = median_interval(r.samples);
      const interval q_spread = m.ratio_interval(r);
      out << "        {\"backend\": " << json_string(r.on->id) << ", \"samples\": [";
      for (std::size_t k = 0; k < r.samples.size(); ++k)
        out << (k ? ", " : "") << json_number(r.samples[k]);
      out << "], \"rounds\": [";
      for (std::size_t k = 0; k < r.rounds.size(); ++k)
        out << (k ? ", " : "") << r.rounds[k];
      out << "], \"median\": " << json_number(r.median()) << ", \"min\": " << json_number(r.min())
          << ", \"max\": " << json_number(r.max()) << ", \"median_interval\": ["
          << json_number(spread.low) << ", " << json_number(spread.high)
          << "], \"ratio\": " << (q < 0 ? "null" : json_number(q)) << ", \"ratio_interval\": ["
          << json_number(q_spread.low) << ", " << json_number(q_spread.high)
          << "], \"vs_stock\": " << json_string(m.comparison(r))
          << ", \"target_ratio\": " << (r.target > 0 ? json_number(r.target) : "null")
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
  // One cluster per metric with a target, one bar per notify backend: the ratio, the ends
  // of its interval and the backend's target (NaN: none).
  std::vector<bool> targeted(columns.size(), false); // a column with a target somewhere
  {
    std::ofstream dat(stem + ".dat");
    dat << "# metric, then for each notify backend: ratio, interval low and high, target:";
    for (const backend* b : columns)
      dat << " \"" << b->label << '"';
    dat << '\n';
    for (const metric& m : metrics)
    {
      if (!m.has_target())
        continue;
      dat << '"' << m.title << "\\n(" << (m.lower_is_better ? "lower" : "higher") << " better)\"";
      for (std::size_t k = 0; k < columns.size(); ++k)
        for (const row& r : m.rows)
          if (r.on == columns[k])
          {
            const double q = m.ratio(r);
            const interval i = m.ratio_interval(r);
            for (double v : {q < 0 ? NAN : q, i.low, i.high, r.target > 0 ? r.target : NAN})
              dat << ' ' << (std::isfinite(v) ? json_number(v) : std::string("NaN"));
            targeted[k] = targeted[k] || r.target > 0;
          }
      dat << '\n';
    }
    if (!dat)
      return "could not write " + stem + ".dat";
  }
  // The script names its files relative to its own directory (where gnuplot is run).
  const std::string base = split_stem(stem).second;
  {
    std::vector<std::string> plots;
    const std::string file = "'" + base + ".dat' using ";
    for (std::size_t i = 0; i < columns.size(); ++i)
    {
      const std::size_t c = 2 + 4 * i;
      plots.push_back(file + std::to_string(c) + ':' + std::to_string(c + 1) + ':' +
                      std::to_string(c + 2) + (i == 0 ? ":xtic(1)" : "") + " title '" +
                      columns[i]->label + "'");
    }
    // Clustered bars of n columns (gap 1) sit 1/(n+1) apart around each cluster's centre.
    const double step = 1.0 / static_cast<double>(columns.size() + 1);
    bool target_titled = false;
    for (std::size_t i = 0; i < columns.size(); ++i)
    {
      const std::string c = std::to_string(2 + 4 * i);
      const double offset =
          (static_cast<double>(i) - static_cast<double>(columns.size() - 1) / 2) * step;
      const std::string x = "($0" + std::string(offset < 0 ? "" : "+") + json_number(offset) + ")";
      plots.push_back(file + x + ':' + c + ":(sprintf('%.2f', column(" + c +
                      "))) with labels offset 0,0.7 font ',7' notitle");
      if (targeted[i])
        plots.push_back(file + x + ':' + std::to_string(2 + 4 * i + 3) +
                        " with points pt 9 ps 1.2 lc rgb 'red' " +
                        (std::exchange(target_titled, true) ? "notitle" : "title 'target'"));
    }
    std::ofstream gp(stem + ".gp");
    gp << gnuplot_preamble(base, 1800, 700)
       << "set title 'Boost.AsioNotify / stock Boost.Asio: median ratio of the rounds, bars "
          "from its 95 % interval (log scale); red marks: targets'\n"
       << "set ylabel 'notify / stock'\n"
       << "set style data histograms\nset style histogram errorbars gap 1 lw 1\n"
       << "set style fill solid 0.8 border -1\nset boxwidth 0.9\n"
       << "set bmargin 5\nset xtics font ',8'\n"
       << "set logscale y 2\nset yrange [0.125:*]\nset grid ytics\nset key outside right top\n"
       << "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb 'gray40'\n"
       << "plot ";
    for (std::size_t i = 0; i < plots.size(); ++i)
      gp << (i ? ", \\\n     " : "") << plots[i];
    gp << '\n';
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
