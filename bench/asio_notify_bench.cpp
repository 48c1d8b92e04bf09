//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// asio_notify_bench: every scenario on stock Boost.Asio and on the notify reactor (in each
// of its driver/trigger configurations) in one invocation: each measurement in a child
// process of its own, after a warm-up, the backends in a shuffled order each round. See
// README.md.
//
//   asio_notify_bench [--quick] [--out DIR] [--rounds N] [--seed N] [--only LIST] [--no-variants]
//                     [--psn-double]   (Windows builds with the tests' PSN double)
//   asio_notify_bench --scaling [--threads 1,2,4,8,16] [--quick] [--out DIR] [--rounds N] [--seed N]
//                     [--no-variants]
//
// Exit status: 0 when every scenario ran and produced sane numbers, whatever the timings;
// 1 when one failed; 2 for a bad command line.
//
// The program's parts: backends.{hpp,cpp} (what a run compares), child_protocol.{hpp,cpp}
// (each measurement in a child process), rounds.{hpp,cpp} (rounds, metrics, failures),
// scenario_runs.{hpp,cpp} (the six scenarios), scaling.{hpp,cpp} (--scaling),
// command_line.{hpp,cpp}, run_summary.{hpp,cpp} (the report of a run); under them
// scenarios.hpp (the scenarios themselves, one header a family), peers.{hpp,cpp},
// process.hpp (child_processes, process and process_resources .cpp) and report.hpp
// (report_statistics, report_tables, report_json and report_charts .cpp).

#include "backends.hpp"
#include "child_protocol.hpp"
#include "command_line.hpp"
#include "peers.hpp"
#include "process.hpp"
#include "rounds.hpp"
#include "scaling.hpp"
#include "scenario_runs.hpp"

#include <chrono>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

using namespace bench;

int main(int argc, char** argv)
{
  set_program_path(argc > 0 ? argv[0] : nullptr);
  const std::size_t fd_limit = raise_descriptor_limit();
  const std::vector<std::string> args(argv + 1, argv + argc);
  try
  {
#if defined(BOOST_ASIO_NOTIFY_BENCH_PSN_DOUBLE)
    if (std::getenv(psn_double_variable)) // a child of a --psn-double run
      install_psn_double();
#endif
    if (args.size() == 5 && args[0] == "--peer")
      return peer_main(static_cast<unsigned short>(std::stoul(args[1])), std::stoull(args[2]),
                       args[3], args[4]);
    if (args.size() == 4 && args[0] == "--child")
      return child_main(args[1], args[2], args[3]);

    config c;
    if (const int status = parse_command_line(args, c))
      return status;
#if defined(BOOST_ASIO_NOTIFY_BENCH_PSN_DOUBLE)
    if (c.psn_double && !an::is_supported(an::port_backend::psn))
    {
      install_psn_double();
      ::_putenv_s(psn_double_variable, "1"); // for the child processes
    }
#endif
    std::filesystem::create_directories(c.out);
    if (c.quick)
      start_quick_deadline(std::chrono::seconds(240)); // ctest's limit is 300 s
    return c.scaling ? scaling_main(c, fd_limit) : scenarios_main(c, fd_limit);
  }
  catch (const std::exception& e)
  {
    std::cerr << "asio_notify_bench: " << e.what() << '\n';
    return 1;
  }
}
