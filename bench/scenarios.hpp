//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The benchmark scenarios, each written once as a template over the protocol class whose
// `socket` and `acceptor` it uses: `boost::asio::ip::tcp` (stock Asio, epoll reactor) or
// `boost::asio_notify::ip::tcp` (the notify reactor). Each runs on an io_context given by
// the caller, which has installed the reactor it wants beforehand. Each family has a header
// of its own (echo_scenarios.hpp, storm_scenarios.hpp, idle_scenario.hpp), which share
// scenario_support.hpp; this header gathers them.
#ifndef BOOST_ASIO_NOTIFY_BENCH_SCENARIOS_HPP
#define BOOST_ASIO_NOTIFY_BENCH_SCENARIOS_HPP

#include "echo_scenarios.hpp"
#include "idle_scenario.hpp"
#include "storm_scenarios.hpp"

#endif
