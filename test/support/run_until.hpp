//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The bounded run of an io_context that the Asio-level suites (the socket suite, the
// WebSocket suite) wait with: a broken backend fails a test instead of hanging it. Each suite
// gives it its own default time limit.
#ifndef BOOST_ASIO_NOTIFY_TEST_SUPPORT_RUN_UNTIL_HPP
#define BOOST_ASIO_NOTIFY_TEST_SUPPORT_RUN_UNTIL_HPP

#include <chrono>

namespace test_support {

/// Runs `ioc` until `done()` holds or `timeout` passes; returns `done()`. Restarts a stopped
/// context first, so it can be called repeatedly within a test.
template <typename IoContext, typename Predicate>
bool run_until(IoContext& ioc, Predicate done, std::chrono::milliseconds timeout)
{
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done())
  {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline)
      break;
    if (ioc.stopped())
      ioc.restart();
    ioc.run_one_for(deadline - now);
  }
  return done();
}

} // namespace test_support

#endif
