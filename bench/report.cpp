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
#include <fstream>
#include <iomanip>
#include <sstream>

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

} // namespace

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
  out << "\nBoost.AsioNotify vs stock Boost.Asio: " << info.mode << " run, " << info.rounds
      << " round(s), " << info.platform << ", " << info.hardware_threads << " hardware threads";
  if (info.load_start >= 0)
    out << ", load average " << format_number(info.load_start) << " at start, "
        << format_number(info.load_end) << " at end";
  out << ", " << format_number(info.elapsed_s) << " s\n";
  out << "ratio = median(notify) / median(stock); targets apply to the ratio\n\n";
  const std::string header = pad("metric", 34) + pad("backend", 33) + pad_left("median", 10) +
                             pad_left("min", 10) + pad_left("max", 10) + pad_left("ratio", 8) +
                             pad_left("target", 9) + pad_left("result", 8);
  out << header << '\n' << std::string(header.size(), '-') << '\n';
  for (const metric& m : metrics)
  {
    bool first = true;
    for (const row& r : m.rows)
    {
      out << pad(first ? m.title : "", 34) << pad(r.on->label, 33);
      if (r.available())
      {
        const double q = m.ratio(r);
        out << pad_left(format_number(r.median()), 10) << pad_left(format_number(r.min()), 10)
            << pad_left(format_number(r.max()), 10)
            << pad_left(q < 0 ? "-" : format_number(q), 8)
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
            << (v.empty() ? "n/a (" + r.note + ")" : v + "  (ratio " + format_number(m.ratio(r)) + ")")
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
      << ",\n  \"elapsed_s\": " << json_number(info.elapsed_s) << ",\n  \"notes\": [";
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
    out << "    {\n      \"key\": " << json_string(m.key) << ",\n      \"title\": " << json_string(m.title)
        << ",\n      \"unit\": " << json_string(m.unit)
        << ",\n      \"lower_is_better\": " << (m.lower_is_better ? "true" : "false")
        << ",\n      \"target_ratio\": " << (m.target > 0 ? json_number(m.target) : "null")
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
          << ", \"max\": " << json_number(r.max()) << ", \"ratio\": " << (q < 0 ? "null" : json_number(q))
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
  const std::size_t slash = stem.find_last_of("/\\");
  const std::string dir = slash == std::string::npos ? "." : stem.substr(0, slash);
  const std::string base = slash == std::string::npos ? stem : stem.substr(slash + 1);
  {
    std::ofstream gp(stem + ".gp");
    const std::size_t target_column = columns.size() + 2;
    gp << "# Drawn by asio_notify_bench; run in this directory: gnuplot " << base << ".gp\n"
       << "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
       << "  set terminal pngcairo size 1400,700 font ',10'\n"
       << "} else {\n  set terminal png size 1400,700\n}\n"
       << "set output '" << base << ".png'\n"
       << "set title 'Boost.AsioNotify / stock Boost.Asio: ratio of medians (log scale); red bars: targets, bound under each name'\n"
       << "set ylabel 'notify / stock'\n"
       << "set style data histograms\nset style histogram clustered gap 1\n"
       << "set style fill solid 0.8 border -1\nset boxwidth 0.9\n"
       << "set termoption noenhanced\nset bmargin 5\n"
       << "set logscale y 2\nset yrange [0.125:*]\nset grid ytics\nset key outside right top\n"
       << "set datafile missing 'NaN'\nset key autotitle columnheader\n"
       << "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb 'gray40'\n"
       << "plot ";
    for (std::size_t i = 0; i < columns.size(); ++i)
      gp << "'" << base << ".dat' using " << i + 2 << (i == 0 ? ":xtic(1)" : "")
         << ", ";
    // Clustered bars of n columns (gap 1) sit 1/(n+1) apart around each cluster's centre.
    const double step = 1.0 / static_cast<double>(columns.size() + 1);
    for (std::size_t i = 0; i < columns.size(); ++i)
    {
      const double offset = (static_cast<double>(i) - static_cast<double>(columns.size() - 1) / 2) * step;
      gp << "'" << base << ".dat' using ($0" << (offset < 0 ? "" : "+") << offset << "):" << i + 2
         << ":(sprintf('%.2f', column(" << i + 2 << "))) with labels offset 0,0.7 font ',8' notitle, ";
    }
    gp << "'" << base << ".dat' using ($0-0.45):" << target_column
       << ":(0.9):(0) with vectors nohead lw 3 lc rgb 'red' title 'target'\n";
    if (!gp)
      return "could not write " + stem + ".gp";
  }
#if defined(_WIN32)
  const std::string command = "cd /d \"" + dir + "\" && gnuplot \"" + base + ".gp\"";
#else
  const std::string command = "cd \"" + dir + "\" && gnuplot \"" + base + ".gp\"";
#endif
  if (std::system(command.c_str()) != 0)
    return "no chart: gnuplot failed or is not installed (the script is " + stem + ".gp)";
  return "chart: " + stem + ".png";
}

} // namespace bench
