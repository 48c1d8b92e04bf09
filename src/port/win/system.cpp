//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The Windows helpers both backends of the port use (system.hpp).

#include "system.hpp"

#include <boost/asio/error.hpp>

#include <cstring>

namespace boost {
namespace asio_notify {
namespace detail {
namespace win {

using boost::system::error_code;

error_code win32_error(DWORD code) noexcept
{
  if (code == ERROR_NOT_FOUND)
    return boost::asio::error::not_found;
  return error_code(static_cast<int>(code), boost::system::system_category());
}

error_code last_error() noexcept { return win32_error(::GetLastError()); }

error_code socket_error(DWORD code) noexcept
{
  if (code == ERROR_INVALID_HANDLE || code == WSAENOTSOCK || code == WSAEBADF)
    return boost::asio::error::bad_descriptor;
  return win32_error(code);
}

error_code nt_status_error(LONG status) noexcept
{
  using convert_fn = ULONG(WINAPI*)(LONG);
  static const convert_fn convert =
      system_function<convert_fn>(L"ntdll.dll", "RtlNtStatusToDosError");
  return socket_error(convert ? convert(status) : ERROR_MR_MID_NOT_FOUND);
}

bool socket_identity::operator==(const socket_identity& o) const noexcept
{
  return std::memcmp(&id, &o.id, sizeof(id)) == 0;
}

socket_identity identify(SOCKET s) noexcept
{
  socket_identity i;
  if (!::GetFileInformationByHandleEx(reinterpret_cast<HANDLE>(s), FileIdInfo, &i.id, sizeof(i.id)))
    i = socket_identity{};
  return i;
}

error_code start_winsock() noexcept
{
  // Started once for the process and cleaned up at exit, as Asio's own winsock_init does
  // (that class is in boost::asio::detail, so it is not used here).
  struct session
  {
    int result;
    session() noexcept
    {
      WSADATA data;
      result = ::WSAStartup(MAKEWORD(2, 2), &data);
    }
    ~session()
    {
      if (result == 0)
        ::WSACleanup();
    }
  };
  static const session winsock;
  return winsock.result == 0 ? error_code() : win32_error(static_cast<DWORD>(winsock.result));
}

} // namespace win
} // namespace detail
} // namespace asio_notify
} // namespace boost
