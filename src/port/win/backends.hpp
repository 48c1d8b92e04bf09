//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The Windows backends of the port, as the backend choice (backend_choice.cpp) sees them.
#ifndef BOOST_ASIO_NOTIFY_SRC_PORT_WIN_BACKENDS_HPP
#define BOOST_ASIO_NOTIFY_SRC_PORT_WIN_BACKENDS_HPP

#include "../port_backend.hpp"

#include <memory>

namespace boost {
namespace asio_notify {
namespace detail {
namespace win {

/// Whether ProcessSocketNotifications exists here, or a test installed a substitute.
bool psn_available() noexcept;

/// The PSN backend (psn_port.cpp), or null and `ec` set (`operation_not_supported`, naming
/// the Windows build required, where the system has no PSN).
std::unique_ptr<port::impl, port::impl_deleter> open_psn_port(boost::system::error_code& ec);

/// Whether an AFD helper handle can be opened here (checked once).
bool afd_available() noexcept;

/// The AFD backend (afd_port.cpp), or null and `ec` set (`operation_not_supported` where the
/// system has no usable `\Device\Afd`).
std::unique_ptr<port::impl, port::impl_deleter> open_afd_port(boost::system::error_code& ec);

} // namespace win
} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
