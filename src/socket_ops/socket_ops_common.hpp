//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What the two system-call units (socket_ops_posix.cpp, socket_ops_win.cpp) read the same
// way from their OS's answers.
#ifndef BOOST_ASIO_NOTIFY_SRC_SOCKET_OPS_SOCKET_OPS_COMMON_HPP
#define BOOST_ASIO_NOTIFY_SRC_SOCKET_OPS_SOCKET_OPS_COMMON_HPP

#include <boost/asio/error.hpp>
#include <boost/system/error_code.hpp>

#include <cstring>

namespace boost {
namespace asio_notify {
namespace detail {
namespace socket_ops {

using boost::system::error_code;

/// Whether `command` is `fionbio` (with an argument), and if so the mode it sets.
template <typename FionbioArgument>
bool reads_fionbio(long command, long fionbio, const void* arg, bool& on) noexcept
{
  if (command != fionbio || !arg)
    return false;
  FionbioArgument value;
  std::memcpy(&value, arg, sizeof(value));
  on = value != 0;
  return true;
}

/// The poll event that stands for `w`, in the OS's names for reading, writing and urgent data.
constexpr short poll_event(wait_for w, short read, short write, short urgent) noexcept
{
  return w == wait_for::read ? read : w == wait_for::write ? write : urgent;
}

/// socket_ops::poll's result from the OS's poll of one socket: `n` its return value, `revents`
/// the socket's events, `invalid` the OS's POLLNVAL.
inline bool readiness_polled(int n, long revents, long invalid, error_code& ec)
{
  if (n > 0 && (revents & invalid))
    ec = boost::asio::error::bad_descriptor;
  return n > 0 && !ec;
}

} // namespace socket_ops
} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
