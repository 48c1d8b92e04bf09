//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// An executor over an io_context's whose execute() first asks a gate, which may throw: a
// program's executor that refuses work (out of memory, say), as any_io_executor can hold it.
#ifndef BOOST_ASIO_NOTIFY_TEST_SUPPORT_GATED_EXECUTOR_HPP
#define BOOST_ASIO_NOTIFY_TEST_SUPPORT_GATED_EXECUTOR_HPP

#include <boost/asio/execution.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/query.hpp>
#include <boost/asio/require.hpp>

#include <utility>

namespace test_support {

/// `Gate` is called (const) before each execute(); what it throws leaves execute() with the
/// work not taken.
template <class Gate>
class gated_executor
{
public:
  explicit gated_executor(boost::asio::io_context::executor_type inner, Gate gate = Gate())
      : inner_(inner), gate_(std::move(gate))
  {
  }

  boost::asio::execution_context& query(boost::asio::execution::context_t) const noexcept
  {
    return boost::asio::query(inner_, boost::asio::execution::context);
  }
  static constexpr boost::asio::execution::blocking_t::never_t
  query(boost::asio::execution::blocking_t) noexcept
  {
    return boost::asio::execution::blocking.never;
  }
  gated_executor require(boost::asio::execution::blocking_t::never_t) const noexcept
  {
    return *this; // for any_io_executor: a socket's own executor
  }
  template <class F>
  void execute(F&& f) const
  {
    gate_();
    boost::asio::require(inner_, boost::asio::execution::blocking.never)
        .execute(std::forward<F>(f));
  }
  bool operator==(const gated_executor& other) const noexcept { return inner_ == other.inner_; }
  bool operator!=(const gated_executor& other) const noexcept { return !(*this == other); }

private:
  boost::asio::io_context::executor_type inner_;
  Gate gate_;
};

} // namespace test_support

#endif
