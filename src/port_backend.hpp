//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What each OS backend of the port (port_epoll.cpp, port_win.cpp) defines for the
// platform-neutral part (port_common.cpp).
#ifndef BOOST_ASIO_NOTIFY_SRC_PORT_BACKEND_HPP
#define BOOST_ASIO_NOTIFY_SRC_PORT_BACKEND_HPP

#include <boost/asio_notify/port.hpp>

#include <memory>

namespace boost {
namespace asio_notify {
namespace detail {

/// Create the backend state of a port on backend `b`; returns null and sets `ec` on
/// failure (`operation_not_supported` for a backend this system does not have).
std::unique_ptr<port::impl, port::impl_deleter> open_port_impl(port_backend b,
                                                               boost::system::error_code& ec);

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
