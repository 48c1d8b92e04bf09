//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What each OS backend of the port (port_epoll.cpp; on Windows src/port/win/, chosen in
// backend_choice.cpp) defines for the platform-neutral part (port_common.cpp).
#ifndef BOOST_ASIO_NOTIFY_SRC_PORT_PORT_BACKEND_HPP
#define BOOST_ASIO_NOTIFY_SRC_PORT_PORT_BACKEND_HPP

#include <boost/asio_notify/port.hpp>

#include <chrono>
#include <cstdint>
#include <memory>

namespace boost {
namespace asio_notify {

/// A port's state: one derived class per system facility (epoll on Linux; PSN and AFD on a
/// completion port on Windows). `port`'s members check for a port that failed to open and
/// delegate the rest here (port_common.cpp), so that each backend writes only what differs.
struct port::impl
{
  impl() = default;
  impl(const impl&) = delete;
  impl& operator=(const impl&) = delete;
  virtual ~impl() = default;

  /// Which backend this is.
  virtual port_backend backend() const noexcept = 0;

  /// `port::process`, with `ec` cleared by the caller.
  virtual std::size_t process(boost::span<registration> regs, boost::span<packet> packets,
                              std::chrono::milliseconds timeout, boost::system::error_code& ec) = 0;

  /// `port::post`, with `ec` cleared by the caller.
  virtual void post(void* key, std::uint32_t value, boost::system::error_code& ec) = 0;

  /// `port::native_handle`.
  virtual port::native_handle_type native_handle() const noexcept = 0;
};

namespace detail {

/// Create the backend state of a port on backend `b`; returns null and sets `ec` on
/// failure (`operation_not_supported` for a backend this system does not have).
std::unique_ptr<port::impl, port::impl_deleter> open_port_impl(port_backend b,
                                                               boost::system::error_code& ec);

#if defined(_WIN32)
/// What `automatic` names here: the environment's choice (`BOOST_ASIO_NOTIFY_PORT`), else
/// PSN where the system has it, else AFD. In win/backend_choice.cpp.
port_backend automatic_backend() noexcept;
#endif

/// The same, decorated by the adversarial port (port_adversary.cpp) when `a` asks for any
/// adversity.
std::unique_ptr<port::impl, port::impl_deleter>
open_adversarial_port_impl(port_backend b, const adversary_options& a,
                           boost::system::error_code& ec);

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
