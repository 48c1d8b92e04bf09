//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// For a call that would hang if the code under test were wrong (an io_context's run() or
// destruction): the test fails instead of hanging.
#ifndef BOOST_ASIO_NOTIFY_TEST_SUPPORT_RETURNS_IN_TIME_HPP
#define BOOST_ASIO_NOTIFY_TEST_SUPPORT_RETURNS_IN_TIME_HPP

#include <chrono>
#include <future>
#include <memory>
#include <thread>
#include <utility>

namespace test_support {

/// Runs `f` in a thread of its own; false when it has not returned within `limit` (the
/// thread is then left behind, and the test fails instead of hanging).
template <class F>
bool returns_in_time(F f, std::chrono::seconds limit = std::chrono::seconds(20))
{
  auto task = std::make_shared<std::packaged_task<void()>>(std::move(f));
  auto done = task->get_future();
  std::thread([task] { (*task)(); }).detach();
  return done.wait_for(limit) == std::future_status::ready;
}

} // namespace test_support

#endif
