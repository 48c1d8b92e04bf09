//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The charts: a .dat file of the figures and a gnuplot script, run when gnuplot is there.
#include "report.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <utility>

namespace bench {

namespace {

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
} // namespace

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
