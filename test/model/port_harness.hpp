//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Drives a real port (two of them, on real sockets) and the reference model
// (contract_model.hpp) with the same operations, and compares: every entry's result, every
// dequeued packet, and the packets the port owes. Used by the randomized model test
// (model_test.cpp) and the fuzz target (test/fuzz/port_fuzz.cpp). POSIX only.
//
// One step: apply one operation to both sides (after a socket operation, wait until the
// kernel shows the state the model predicts), then for each port post a marker user packet
// and dequeue (batches of the step's capacity, zero timeout) until the marker has come, the
// port owes nothing, and it is empty or has been polled a few more times.
#ifndef BOOST_ASIO_NOTIFY_TEST_MODEL_PORT_HARNESS_HPP
#define BOOST_ASIO_NOTIFY_TEST_MODEL_PORT_HARNESS_HPP

// The parts, each by concern: operations.hpp (what a step does), choice_sources.hpp (where
// choices come from), harness.hpp with harness_sockets.hpp and harness_entries.hpp (one step
// on both sides, compared), generator.hpp (the next operation), sequences.hpp (running,
// replaying and shrinking sequences).
#include "../port/sockets.hpp" // first: see there
#include "choice_sources.hpp"
#include "generator.hpp"
#include "harness.hpp"
#include "operations.hpp"
#include "sequences.hpp"

#endif
