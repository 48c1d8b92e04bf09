//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The Windows helpers both backends of the port use: error conversions, run-time lookups of
// functions only some builds have, a socket's file identity, Winsock start-up.
#ifndef BOOST_ASIO_NOTIFY_SRC_PORT_WIN_SYSTEM_HPP
#define BOOST_ASIO_NOTIFY_SRC_PORT_WIN_SYSTEM_HPP

#include <boost/system/error_code.hpp>

#include <winsock2.h>
#include <windows.h>

namespace boost {
namespace asio_notify {
namespace detail {
namespace win {

/// A Win32 error as an error_code; "not registered" is the contract's `not_found`.
boost::system::error_code win32_error(DWORD code) noexcept;

/// `GetLastError()` as an error_code.
boost::system::error_code last_error() noexcept;

/// A socket call's Win32 result as an error_code: every code that means "no such socket"
/// (an invalid handle, not a socket) is the contract's `bad_descriptor`.
boost::system::error_code socket_error(DWORD code) noexcept;

/// An NTSTATUS as an error_code, through ntdll's RtlNtStatusToDosError and socket_error.
boost::system::error_code nt_status_error(LONG status) noexcept;

/// A function exported by a module this process has loaded (ws2_32, ntdll, kernelbase), or
/// null: the APIs that exist only on some Windows builds are looked up at run time.
template <class F>
F system_function(const wchar_t* module, const char* name) noexcept
{
  const HMODULE m = ::GetModuleHandleW(module);
  // Through void(*)(), the type GCC accepts as a cast between unrelated function types.
  return m ? reinterpret_cast<F>(reinterpret_cast<void (*)()>(::GetProcAddress(m, name))) : nullptr;
}

/// A socket's file identity (Wine: the Unix socket's inode), so that a handle value that was
/// closed and reused is not mistaken for the socket it named before. All zero where the
/// system gives none; then only handle values tell sockets apart.
struct socket_identity
{
  FILE_ID_INFO id{};

  bool operator==(const socket_identity& o) const noexcept;
  bool operator!=(const socket_identity& o) const noexcept { return !(*this == o); }
};

/// The identity of socket `s` now.
socket_identity identify(SOCKET s) noexcept;

/// Starts Winsock once for the process (cleaned up at exit).
boost::system::error_code start_winsock() noexcept;

} // namespace win
} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
