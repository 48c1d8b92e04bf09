//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// <out>/results.json: the run, its backends, and every sample of every metric.
#include "report.hpp"

#include <cmath>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace bench {

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

} // namespace bench
