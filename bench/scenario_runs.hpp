//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The six scenarios (those --only names), each in rounds on every backend, into metrics
// with their units and targets; `scenarios_main`, the run of them all.
#ifndef BOOST_ASIO_NOTIFY_BENCH_SCENARIO_RUNS_HPP
#define BOOST_ASIO_NOTIFY_BENCH_SCENARIO_RUNS_HPP

#include "command_line.hpp"

#include <cstddef>
#include <string>

namespace bench {

/// The units of the latency and throughput metrics (`threads` 0: said elsewhere).
std::string latency_unit(const config& c, std::size_t threads);
std::string throughput_unit(const config& c, std::size_t threads);

/// The six scenarios (those --only names), each on every backend.
int scenarios_main(config& c, std::size_t fd_limit);

} // namespace bench

#endif
