//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A run as a whole, for its report: the platform, compiler, build and options it ran with,
// its notes, and its end (`conclude`: the table, the JSON file, the chart, the failures).
#ifndef BOOST_ASIO_NOTIFY_BENCH_RUN_SUMMARY_HPP
#define BOOST_ASIO_NOTIFY_BENCH_RUN_SUMMARY_HPP

#include "command_line.hpp"
#include "report.hpp"
#include "scenarios.hpp"

#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace bench {

/// The options of the run, for the JSON file.
std::vector<std::pair<std::string, std::string>> describe_options(const config& c);

/// What the report says of the run before it starts: mode, platform, compiler, notes.
run_info make_run_info(const config& c);

/** The end of a run: the table (standard output and `<stem>.txt`), `<stem>.json`, the
    chart, the failures. Returns the exit status. */
int conclude(const std::string& stem, run_info& info, clock_type::time_point t0,
             const std::vector<backend>& backends, const std::vector<metric>& metrics,
             const std::function<void(std::ostream&, const run_info&)>& table,
             const std::function<std::string(const std::string&)>& chart);

} // namespace bench

#endif
