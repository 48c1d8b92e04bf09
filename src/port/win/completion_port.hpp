//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The state both Windows backends of the port share: a completion port, filled by
// ProcessSocketNotifications (psn_port.cpp) or by IOCTL_AFD_POLL (afd_port.cpp); user
// packets and the time a wait has left are the same for both.
#ifndef BOOST_ASIO_NOTIFY_SRC_PORT_WIN_COMPLETION_PORT_HPP
#define BOOST_ASIO_NOTIFY_SRC_PORT_WIN_COMPLETION_PORT_HPP

#include "../port_backend.hpp"

#include <winsock2.h>
#include <windows.h>

#include <chrono>
#include <cstdint>

namespace boost {
namespace asio_notify {
namespace detail {
namespace win {

/// A Windows port: a completion port, filled with packets by the derived backend.
class completion_port : public port::impl
{
public:
  ~completion_port() override;

  /// Queue a user packet: the same for every backend (see user_packet_marker).
  void post(void* key, std::uint32_t value, boost::system::error_code& ec) override;

  port::native_handle_type native_handle() const noexcept override { return iocp; }

protected:
  /// Creates `iocp`; false (and `ec` set) on failure.
  bool open_completion_port(boost::system::error_code& ec) noexcept;

  HANDLE iocp = nullptr;
};

/// Turns a user packet (its lpOverlapped is user_packet_marker) into `out`; false for any
/// other entry.
bool translate_user_packet(const OVERLAPPED_ENTRY& e, packet& out) noexcept;

/// The `lpOverlapped` of every user packet: an address only this library produces, so a
/// user packet is recognised by a field the port sets itself. Never read or written through.
extern OVERLAPPED user_packet_marker;

/// A port timeout as a Win32 one: `port::infinite` -> INFINITE; otherwise clamped to
/// [0, INFINITE - 1].
DWORD to_wait_ms(std::chrono::milliseconds timeout) noexcept;

/// The time left of a wait that began at `start`; `port::infinite` stays infinite. Waits
/// may end early (smol-rs/polling saw a 1 s ProcessSocketNotifications return after 991 ms),
/// so a backend waits again for what is left rather than trusting one call.
class wait_budget
{
public:
  explicit wait_budget(std::chrono::milliseconds timeout) noexcept
      : timeout_(timeout), start_(std::chrono::steady_clock::now())
  {
  }

  /// What is left, as a Win32 timeout; 0 once the time is up.
  DWORD left_ms() const noexcept;

  /// Whether any time is left.
  bool expired() const noexcept { return left_ms() == 0; }

private:
  std::chrono::milliseconds timeout_;
  std::chrono::steady_clock::time_point start_;
};

} // namespace win
} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
