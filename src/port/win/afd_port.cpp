//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The AFD backend of the Windows port: a completion port the AFD engine (afd_engine.cpp)
// fills, for systems without ProcessSocketNotifications (Windows 10, Server 2019, Wine).

#include "afd.hpp"
#include "afd_engine.hpp"
#include "backends.hpp"
#include "completion_port.hpp"
#include "system.hpp"

#include <algorithm>
#include <memory>

namespace boost {
namespace asio_notify {
namespace detail {
namespace win {

using boost::system::error_code;

namespace {

class afd_port final : public completion_port
{
public:
  bool open(error_code& ec) noexcept
  {
    if (!open_completion_port(ec))
      return false;
    engine_ = open_afd_engine(iocp, ec);
    return engine_ != nullptr;
  }

  port_backend backend() const noexcept override { return port_backend::afd; }

  std::size_t process(boost::span<registration> regs, boost::span<packet> packets,
                      std::chrono::milliseconds timeout, error_code& ec) override
  {
    if (!regs.empty())
      engine_->apply(regs);
    if (packets.empty())
      return 0;
    const wait_budget budget(timeout);
    OVERLAPPED_ENTRY entries[packet_batch];
    packet translated[packet_batch];
    afd_engine::entry_kind kinds[packet_batch];
    const ULONG wanted = static_cast<ULONG>(std::min(packets.size(), packet_batch));
    for (;;)
    {
      ULONG received = 0;
      const DWORD e =
          wait_once(*engine_, iocp, budget.left_ms(), entries, wanted, received, translated, kinds);
      if (e != ERROR_SUCCESS && e != WAIT_TIMEOUT)
      {
        ec = win32_error(e);
        return 0;
      }
      std::size_t n = 0;
      for (ULONG i = 0; i < received; ++i)
        if (kinds[i] == afd_engine::entry_kind::packet)
          packets[n++] = translated[i];
        else if (kinds[i] == afd_engine::entry_kind::foreign &&
                 translate_user_packet(entries[i], packets[n]))
          ++n;
      if (n != 0 || budget.expired())
        return n;
    }
  }

private:
  static constexpr std::size_t packet_batch = 64;

  // Destroyed before the base class closes the completion port it drains.
  std::unique_ptr<afd_engine> engine_;
};

} // namespace

bool afd_available() noexcept
{
  static const bool available = []() noexcept {
    if (start_winsock())
      return false;
    error_code ec;
    const HANDLE helper = open_afd_helper(ec);
    if (!helper)
      return false;
    ::CloseHandle(helper);
    return true;
  }();
  return available;
}

std::unique_ptr<port::impl, port::impl_deleter> open_afd_port(error_code& ec)
{
  std::unique_ptr<afd_port, port::impl_deleter> p(new afd_port);
  if (!p->open(ec))
    return nullptr;
  return std::unique_ptr<port::impl, port::impl_deleter>(p.release());
}

} // namespace win
} // namespace detail
} // namespace asio_notify
} // namespace boost
