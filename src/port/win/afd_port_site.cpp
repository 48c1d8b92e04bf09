//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The AFD engine's polls on one helper handle associated with a completion port that the
// engine's user dequeues: the AFD backend's and the PSN test double's site.

#include "afd.hpp"
#include "afd_poll_site.hpp"
#include "psn.hpp"
#include "system.hpp"

#include <memory>

namespace boost {
namespace asio_notify {
namespace detail {
namespace win {
namespace {

// The completion key of the helper handle, and the lpOverlapped of a REMOVE packet that is
// posted because no poll was in flight, and of a wake: addresses nothing else produces.
char afd_completion_key;
OVERLAPPED remove_packet_marker{};
OVERLAPPED wake_packet_marker{};

class port_site final : public afd_poll_site
{
public:
  explicit port_site(HANDLE iocp) noexcept : iocp_(iocp) {}

  ~port_site() override
  {
    if (helper_)
      ::CloseHandle(helper_);
  }

  bool open(boost::system::error_code& ec) noexcept
  {
    helper_ = open_afd_helper(ec);
    if (!helper_)
      return false;
    if (!::CreateIoCompletionPort(helper_, iocp_, reinterpret_cast<ULONG_PTR>(&afd_completion_key),
                                  0) ||
        !::SetFileCompletionNotificationModes(helper_, FILE_SKIP_SET_EVENT_ON_HANDLE))
    {
      ec = last_error();
      return false;
    }
    return true;
  }

  afd_registration* make_registration(boost::system::error_code&) override
  {
    auto* reg = new afd_registration;
    reg->helper = helper_;
    return reg;
  }

  void free_registration(afd_registration* reg) noexcept override { delete reg; }

  // The completion's lpOverlapped is the IO_STATUS_BLOCK, the registration's first member.
  NTSTATUS issue(afd_registration& reg) noexcept override
  {
    return nt().device_io_control_file(helper_, nullptr, nullptr, &reg.iosb, &reg.iosb,
                                       ioctl_afd_poll, &reg.info, sizeof(reg.info), &reg.info,
                                       sizeof(reg.info));
  }

  void cancel(afd_registration& reg) noexcept override
  {
    IO_STATUS_BLOCK cancel_iosb{};
    nt().cancel_io_file_ex(helper_, &reg.iosb, &cancel_iosb); // STATUS_NOT_FOUND: done already
  }

  void post_remove(void* key) noexcept override
  {
    ::PostQueuedCompletionStatus(iocp_, psn::event_remove, reinterpret_cast<ULONG_PTR>(key),
                                 &remove_packet_marker);
  }

  void post_wake() noexcept override
  {
    ::PostQueuedCompletionStatus(iocp_, 0, 0, &wake_packet_marker);
  }

  bool is_wake(const OVERLAPPED_ENTRY& e) const noexcept override
  {
    return e.lpOverlapped == &wake_packet_marker;
  }

  // Cancels every poll and waits (bounded) for their completions, so no registration is
  // freed while the kernel may still write into it. One that never completes is leaked
  // rather than freed under the kernel.
  void abandon(std::size_t in_flight) noexcept override
  {
    IO_STATUS_BLOCK cancel_iosb{};
    nt().cancel_io_file_ex(helper_, nullptr, &cancel_iosb);
    for (int quiet_rounds = 0; in_flight != 0 && quiet_rounds < 50;)
    {
      OVERLAPPED_ENTRY entries[drain_batch];
      ULONG received = 0;
      if (!::GetQueuedCompletionStatusEx(iocp_, entries, drain_batch, &received, 100, FALSE))
      {
        ++quiet_rounds;
        continue;
      }
      for (ULONG i = 0; i < received; ++i)
        if (entries[i].lpCompletionKey == reinterpret_cast<ULONG_PTR>(&afd_completion_key) &&
            entries[i].lpOverlapped)
        {
          --in_flight;
          delete registration_of(entries[i].lpOverlapped); // dropped or removed by now
        }
    }
  }

  bool classify(const OVERLAPPED_ENTRY& e, void*& key, afd_registration*& reg) noexcept override
  {
    key = nullptr;
    reg = nullptr;
    if (e.lpOverlapped == &remove_packet_marker)
    {
      key = reinterpret_cast<void*>(e.lpCompletionKey);
      return true;
    }
    if (e.lpCompletionKey == reinterpret_cast<ULONG_PTR>(&afd_completion_key) && e.lpOverlapped)
      reg = registration_of(e.lpOverlapped);
    return false;
  }

private:
  static constexpr std::size_t drain_batch = 64;

  const HANDLE iocp_;
  HANDLE helper_ = nullptr;
};

} // namespace

std::unique_ptr<afd_poll_site> open_port_site(HANDLE iocp, boost::system::error_code& ec)
{
  auto site = std::make_unique<port_site>(iocp);
  if (!site->open(ec))
    return nullptr;
  return site;
}

} // namespace win
} // namespace detail
} // namespace asio_notify
} // namespace boost
