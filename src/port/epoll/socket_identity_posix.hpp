//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What identifies an open socket across descriptor reuse on POSIX systems: the epoll port
// tells a closed and reused descriptor from the socket it replaced by it (socket_owners.hpp).
#ifndef BOOST_ASIO_NOTIFY_SRC_PORT_EPOLL_SOCKET_IDENTITY_POSIX_HPP
#define BOOST_ASIO_NOTIFY_SRC_PORT_EPOLL_SOCKET_IDENTITY_POSIX_HPP

#include <boost/asio/error.hpp>
#include <boost/system/error_code.hpp>

#include <sys/stat.h>

#include <cerrno>

namespace boost {
namespace asio_notify {
namespace detail {

/// A socket's device and inode.
struct socket_identity
{
  dev_t device = 0;
  ino_t inode = 0;
  bool operator==(const socket_identity& o) const { return device == o.device && inode == o.inode; }
};

/// The identity of the socket `fd` names now; `not_socket` for another kind of file.
inline boost::system::error_code identify_socket(int fd, socket_identity& id)
{
  struct stat st;
  if (::fstat(fd, &st) != 0)
    return boost::system::error_code(errno, boost::system::system_category());
  if (!S_ISSOCK(st.st_mode))
    return boost::asio::error::not_socket;
  id = {st.st_dev, st.st_ino};
  return {};
}

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
