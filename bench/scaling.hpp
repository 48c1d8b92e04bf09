//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// --scaling: throughput and ping-pong latency at each io thread count, on every backend.
#ifndef BOOST_ASIO_NOTIFY_BENCH_SCALING_HPP
#define BOOST_ASIO_NOTIFY_BENCH_SCALING_HPP

#include "command_line.hpp"

#include <cstddef>

namespace bench {

/// The --scaling run; returns the exit status.
int scaling_main(config& c, std::size_t fd_limit);

} // namespace bench

#endif
