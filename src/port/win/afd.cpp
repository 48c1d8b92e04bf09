//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The NT and AFD bindings (afd.hpp).

#include "afd.hpp"

#include "system.hpp"

#include <boost/asio/error.hpp>

#include <mswsock.h> // SIO_BASE_HANDLE, SIO_BSP_HANDLE_POLL

namespace boost {
namespace asio_notify {
namespace detail {
namespace win {

using boost::system::error_code;

const nt_functions& nt() noexcept
{
  static const nt_functions functions = []() noexcept {
    nt_functions f;
    f.create_file = system_function<nt_create_file_fn>(L"ntdll.dll", "NtCreateFile");
    f.device_io_control_file =
        system_function<nt_device_io_control_file_fn>(L"ntdll.dll", "NtDeviceIoControlFile");
    f.cancel_io_file_ex =
        system_function<nt_cancel_io_file_ex_fn>(L"ntdll.dll", "NtCancelIoFileEx");
    return f;
  }();
  return functions;
}

HANDLE open_afd_helper(error_code& ec) noexcept
{
  if (!nt().complete())
  {
    ec = boost::asio::error::operation_not_supported;
    return nullptr;
  }
  wchar_t name[] = L"\\Device\\Afd\\BoostAsioNotify";
  UNICODE_STRING path;
  path.Buffer = name;
  path.Length = static_cast<USHORT>((sizeof(name) / sizeof(name[0]) - 1) * sizeof(wchar_t));
  path.MaximumLength = static_cast<USHORT>(sizeof(name));
  OBJECT_ATTRIBUTES attributes{};
  attributes.Length = sizeof(attributes);
  attributes.ObjectName = &path;
  IO_STATUS_BLOCK iosb{};
  HANDLE helper = nullptr;
  const NTSTATUS status =
      nt().create_file(&helper, SYNCHRONIZE, &attributes, &iosb, nullptr, 0,
                       FILE_SHARE_READ | FILE_SHARE_WRITE, FILE_OPEN, 0, nullptr, 0);
  if (!nt_success(status))
  {
    ec = boost::asio::error::operation_not_supported; // no usable AFD (Wine before 7.13)
    return nullptr;
  }
  return helper;
}

SOCKET base_handle(SOCKET s, error_code& ec) noexcept
{
  for (DWORD ioctl : {DWORD(SIO_BASE_HANDLE), DWORD(SIO_BSP_HANDLE_POLL)})
  {
    SOCKET base = INVALID_SOCKET;
    DWORD bytes = 0;
    if (::WSAIoctl(s, ioctl, nullptr, 0, &base, sizeof(base), &bytes, nullptr, nullptr) == 0 &&
        base != INVALID_SOCKET)
      return base;
    if (::WSAGetLastError() == WSAENOTSOCK)
      break;
  }
  ec = boost::asio::error::bad_descriptor;
  return INVALID_SOCKET;
}

} // namespace win
} // namespace detail
} // namespace asio_notify
} // namespace boost
