//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The completion port both Windows backends fill (completion_port.hpp).

#include "completion_port.hpp"

#include "system.hpp"

#include <algorithm>

namespace boost {
namespace asio_notify {
namespace detail {
namespace win {

using boost::system::error_code;

OVERLAPPED user_packet_marker{};

completion_port::~completion_port()
{
  if (iocp)
    ::CloseHandle(iocp);
}

bool completion_port::open_completion_port(error_code& ec) noexcept
{
  iocp = ::CreateIoCompletionPort(INVALID_HANDLE_VALUE, nullptr, 0, 0);
  if (!iocp)
    ec = last_error();
  return iocp != nullptr;
}

void completion_port::post(void* key, std::uint32_t value, error_code& ec)
{
  if (!::PostQueuedCompletionStatus(iocp, value, reinterpret_cast<ULONG_PTR>(key),
                                    &user_packet_marker))
    ec = last_error();
}

bool translate_user_packet(const OVERLAPPED_ENTRY& e, packet& out) noexcept
{
  if (e.lpOverlapped != &user_packet_marker)
    return false;
  out.key = reinterpret_cast<void*>(e.lpCompletionKey);
  out.events = events::none;
  out.value = e.dwNumberOfBytesTransferred;
  out.kind = packet_kind::user;
  return true;
}

DWORD to_wait_ms(std::chrono::milliseconds timeout) noexcept
{
  if (timeout == port::infinite)
    return INFINITE;
  if (timeout.count() <= 0)
    return 0;
  return static_cast<DWORD>(
      std::min<std::chrono::milliseconds::rep>(timeout.count(), INFINITE - 1));
}

DWORD wait_budget::left_ms() const noexcept
{
  if (timeout_ == port::infinite)
    return INFINITE;
  const auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start_);
  return spent >= timeout_ ? 0 : to_wait_ms(timeout_ - spent);
}

} // namespace win
} // namespace detail
} // namespace asio_notify
} // namespace boost
