//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The NT and AFD bindings the AFD engine polls with: IOCTL_AFD_POLL's definitions, which no
// SDK header declares (the project's own, as in every other user of AFD polling), and the
// NT functions, resolved from ntdll.dll at run time.
#ifndef BOOST_ASIO_NOTIFY_SRC_PORT_WIN_AFD_HPP
#define BOOST_ASIO_NOTIFY_SRC_PORT_WIN_AFD_HPP

#include <boost/system/error_code.hpp>

#include <winsock2.h>
#include <windows.h>
#include <winternl.h>

namespace boost {
namespace asio_notify {
namespace detail {
namespace win {

constexpr ULONG ioctl_afd_poll = 0x00012024;

constexpr ULONG afd_poll_receive = 0x0001;
constexpr ULONG afd_poll_send = 0x0004;
constexpr ULONG afd_poll_disconnect = 0x0008;
constexpr ULONG afd_poll_abort = 0x0010;
constexpr ULONG afd_poll_local_close = 0x0020;
constexpr ULONG afd_poll_accept = 0x0080;
constexpr ULONG afd_poll_connect_fail = 0x0100;

constexpr NTSTATUS status_success = 0;
constexpr NTSTATUS status_pending = 0x00000103;
constexpr NTSTATUS status_cancelled = static_cast<NTSTATUS>(0xC0000120);

inline bool nt_success(NTSTATUS s) noexcept { return s >= 0; }

struct afd_poll_handle_info
{
  HANDLE handle;
  ULONG events;
  NTSTATUS status;
};

struct afd_poll_info
{
  LARGE_INTEGER timeout;
  ULONG number_of_handles;
  ULONG exclusive;
  afd_poll_handle_info handles[1];
};

using nt_create_file_fn = NTSTATUS(NTAPI*)(PHANDLE, ACCESS_MASK, POBJECT_ATTRIBUTES,
                                           PIO_STATUS_BLOCK, PLARGE_INTEGER, ULONG, ULONG, ULONG,
                                           ULONG, PVOID, ULONG);
using nt_device_io_control_file_fn = NTSTATUS(NTAPI*)(HANDLE, HANDLE, PVOID, PVOID,
                                                      PIO_STATUS_BLOCK, ULONG, PVOID, ULONG, PVOID,
                                                      ULONG);
using nt_cancel_io_file_ex_fn = NTSTATUS(NTAPI*)(HANDLE, PIO_STATUS_BLOCK, PIO_STATUS_BLOCK);

struct nt_functions
{
  nt_create_file_fn create_file = nullptr;
  nt_device_io_control_file_fn device_io_control_file = nullptr;
  nt_cancel_io_file_ex_fn cancel_io_file_ex = nullptr;

  bool complete() const noexcept
  {
    return create_file && device_io_control_file && cancel_io_file_ex;
  }
};

/// The NT functions, looked up once.
const nt_functions& nt() noexcept;

/// Opens a helper handle on `\Device\Afd`: the file the polls are issued on. Null and
/// `operation_not_supported` where the system has no usable AFD.
HANDLE open_afd_helper(boost::system::error_code& ec) noexcept;

/// The handle AFD knows a socket by: the base provider's, beneath any layered provider.
SOCKET base_handle(SOCKET s, boost::system::error_code& ec) noexcept;

} // namespace win
} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
