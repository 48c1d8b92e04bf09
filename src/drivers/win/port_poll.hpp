//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// An AFD poll whose completion the io_context's own run() dequeues and completes as one of
// Asio's operations: the io_context_port driver's polls and async_wait's on Asio's sockets.
#ifndef BOOST_ASIO_NOTIFY_SRC_DRIVERS_WIN_PORT_POLL_HPP
#define BOOST_ASIO_NOTIFY_SRC_DRIVERS_WIN_PORT_POLL_HPP

#include "../../port/win/afd.hpp"

namespace boost {
namespace asio_notify {
namespace detail {
namespace win {

/** Issues `info`'s poll on `device` (a handle associated with `scheduler`'s port), its
    OVERLAPPED `op` and its IO_STATUS_BLOCK `iosb` kept apart, since Asio writes the
    OVERLAPPED's Internal and Offset. The poll counts as work as Asio's own overlapped
    operations count (work_started before, on_pending after). On failure no completion
    comes and the count is the caller's to settle: work_finished() or on_completion(). */
template <class Scheduler, class Operation>
NTSTATUS issue_port_poll(Scheduler& scheduler, Operation& op, HANDLE device, IO_STATUS_BLOCK& iosb,
                         afd_poll_info& info) noexcept
{
  op.reset();
  scheduler.work_started(); // before the completion can be dequeued and counted off
  const NTSTATUS status =
      nt().device_io_control_file(device, nullptr, nullptr, static_cast<OVERLAPPED*>(&op), &iosb,
                                  ioctl_afd_poll, &info, sizeof(info), &info, sizeof(info));
  if (status != status_pending && !nt_success(status))
    return status;
  scheduler.on_pending(&op); // run() may complete it from now on
  return status;
}

} // namespace win
} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
