//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
#include "command_line.hpp"

#include "text.hpp"

#include <algorithm>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace bench {

namespace {

constexpr std::size_t max_io_threads = 1024; // for --threads

int usage()
{
  std::cerr
      << "usage: asio_notify_bench [--quick] [--out DIR] [--rounds N] [--seed N] [--no-variants]\n"
         "                         [--only latency,throughput,storm,write_storm,idle,syscalls,\n"
         "                                 instructions]\n"
#if defined(BOOST_ASIO_NOTIFY_BENCH_PSN_DOUBLE)
         "                         [--psn-double]\n"
#endif
         "       asio_notify_bench --scaling [--threads 1,2,4,8,16] [--quick] [--out DIR]\n"
         "                         [--rounds N] [--seed N] [--no-variants]\n";
  return 2;
}

int bad_command_line(const std::string& why)
{
  std::cerr << "asio_notify_bench: " << why << '\n';
  return usage();
}

/// The scenarios --only can name.
const char* const scenario_list = "latency,throughput,storm,write_storm,idle,syscalls,instructions";

bool is_scenario(const std::string& name)
{
  for (const std::string& known : split(scenario_list, ','))
    if (name == known)
      return true;
  return false;
}

/// A whole number from 1 to `max` written in decimal digits only, or nothing.
std::optional<std::size_t> parse_count(const std::string& s, std::size_t max)
{
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  const std::size_t n = std::stoul(s);
  if (n == 0 || n > max)
    return std::nullopt;
  return n;
}

/// "1,2,4": thread counts from 1 to max_io_threads; nothing when any is not.
std::optional<std::vector<std::size_t>> parse_thread_list(const std::string& list)
{
  std::vector<std::size_t> counts;
  for (const std::string& field : split(list, ','))
  {
    const std::optional<std::size_t> n = parse_count(field, max_io_threads);
    if (!n)
      return std::nullopt;
    counts.push_back(*n);
  }
  return counts;
}

} // namespace

int parse_command_line(const std::vector<std::string>& args, config& c)
{
  bool quick = false;
  bool scaling = false;
  std::optional<std::size_t> rounds;
  std::optional<std::vector<std::size_t>> threads;
  for (std::size_t i = 0; i < args.size(); ++i)
  {
    const std::string& a = args[i];
    const bool has_value = i + 1 < args.size();
    if (a == "--quick")
      quick = true;
    else if (a == "--scaling")
      scaling = true;
    else if (a == "--out" && has_value)
      c.out = args[++i];
    else if (a == "--rounds" && has_value)
    {
      if (!(rounds = parse_count(args[++i], 1000)))
        return bad_command_line("--rounds takes a whole number from 1 to 1000, not \"" + args[i] +
                                "\"");
    }
    else if (a == "--threads" && has_value)
    {
      if (!(threads = parse_thread_list(args[++i])))
        return bad_command_line(
            "bad --threads list \"" + args[i] + "\": give io thread counts from 1 to " +
            std::to_string(max_io_threads) + " separated by commas, such as 1,2,4,8,16");
    }
    else if (a == "--seed" && has_value)
    {
      const std::optional<std::size_t> seed =
          parse_count(args[++i], std::numeric_limits<std::uint32_t>::max());
      if (!seed)
        return bad_command_line("--seed takes a whole number from 1 to 4294967295, not \"" +
                                args[i] + "\"");
      c.seed = *seed;
    }
    else if (a == "--no-variants")
      c.variants = false;
    else if (a == "--psn-double")
    {
#if defined(BOOST_ASIO_NOTIFY_BENCH_PSN_DOUBLE)
      c.psn_double = true;
#else
      return bad_command_line("--psn-double: this build has no PSN test double (it comes with "
                              "the Windows builds that build the tests)");
#endif
    }
    else if (a == "--only" && has_value)
    {
      for (const std::string& s : split(args[++i], ','))
      {
        if (!is_scenario(s))
          return bad_command_line("--only: no scenario \"" + s + "\" (" + scenario_list + ")");
        c.only.insert(s);
      }
    }
    else
      return bad_command_line("unknown option or missing value: " + a);
  }
  if (threads && !scaling)
    return bad_command_line("--threads goes with --scaling");
  if (scaling && !c.only.empty())
    return bad_command_line("--only does not go with --scaling");
  if (scaling)
    c.make_scaling();
  if (quick)
    c.make_quick();
  if (rounds)
    c.rounds = c.deterministic_rounds = static_cast<int>(*rounds);
  if (threads)
    c.io_threads_asked = *threads;
  c.deterministic_rounds = std::min(c.deterministic_rounds, c.rounds);
  return 0;
}

} // namespace bench
