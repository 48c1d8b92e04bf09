//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// async_wait on Asio's own sockets: an AFD poll issued on the socket's own handle, which Asio
// associated with its context's completion port, its OVERLAPPED an operation of Asio's that
// run() completes. The socket's cancel() (CancelIoEx on the handle) and close() end it.
// Why and how: doc/windows.md, "Asio's own sockets".

#include <boost/asio_notify/detail/socket_wait.hpp>

#include "../io_context_port_shape.hpp"
#include "../../port/win/afd.hpp"
#include "port_poll.hpp"
#include "../../port/win/system.hpp"

#include <boost/asio/error.hpp>

#include <cstdint>
#include <limits>
#include <new>

#if defined(BOOST_ASIO_NOTIFY_HAS_IOCP_TYPES)

namespace boost {
namespace asio_notify {
namespace detail {
namespace win {
namespace {

using wait_type = boost::asio::socket_base::wait_type;
using boost::system::error_code;

constexpr ULONG afd_poll_receive_expedited = 0x0002;

/// The AFD events that end a wait for `w`. A reset or a failed connect ends every wait (a
/// socket with an error is ready for everything, as on epoll); a close ends every poll.
ULONG events_for(wait_type w) noexcept
{
  const ULONG always = afd_poll_abort | afd_poll_connect_fail | afd_poll_local_close;
  switch (w)
  {
  case boost::asio::socket_base::wait_read:
    return always | afd_poll_receive | afd_poll_accept | afd_poll_disconnect;
  case boost::asio::socket_base::wait_write:
    return always | afd_poll_send;
  default: // wait_error: an error, a hang-up or urgent data
    return always | afd_poll_disconnect | afd_poll_receive_expedited;
  }
}

/// One wait's poll, built in the wait operation's room: the Asio operation run() completes.
template <class Operation>
struct socket_poll final : Operation
{
  socket_poll(socket_wait_base& w, HANDLE s, wait_type type) noexcept
      : Operation(&do_complete), waiter(w), socket(s)
  {
    info.timeout.QuadPart = (std::numeric_limits<LONGLONG>::max)();
    info.number_of_handles = 1;
    info.exclusive = FALSE;
    info.handles[0].handle = s;
    info.handles[0].events = events_for(type);
  }

  // In run() (`owner` set) or in the io_context's shutdown (`owner` null).
  static void do_complete(void* owner, Operation* base, const error_code&, std::size_t)
  {
    auto* poll = static_cast<socket_poll*>(base);
    socket_wait_base& waiter = poll->waiter;
    const error_code ec = poll->result();
    poll->~socket_poll();
    if (owner)
      waiter.complete(ec);
    else
      waiter.discard();
  }

  /// The wait's result: readiness (whichever event), or operation_aborted when the poll was
  /// cancelled or the socket closed.
  error_code result() const noexcept
  {
    const NTSTATUS status = iosb.Status;
    if (status == status_cancelled)
      return boost::asio::error::operation_aborted;
    if (!nt_success(status))
      return nt_status_error(status);
    if (info.number_of_handles == 0 || (info.handles[0].events & afd_poll_local_close))
      return boost::asio::error::operation_aborted;
    return error_code();
  }

  socket_wait_base& waiter;
  HANDLE socket;
  IO_STATUS_BLOCK iosb{};
  afd_poll_info info{};
};

// Where this Boost's scheduler is not of the checked shape, socket_waits_poll_port() says no
// and nothing calls this.
template <class Scheduler, class Operation>
void* start_on(boost::asio::execution_context& context, HANDLE socket, wait_type w,
               socket_wait_base& op)
{
  if constexpr (!has_io_context_port)
    return nullptr;
  else
  {
    using poll_type = socket_poll<Operation>;
    static_assert(sizeof(poll_type) <= sizeof(op.poll_room) &&
                      alignof(poll_type) <= alignof(std::max_align_t),
                  "detail::socket_poll_room is too small for this Boost's operation");
    Scheduler& scheduler = boost::asio::use_service<Scheduler>(context);
    auto* poll = new (op.poll_room) poll_type(op, socket, w);
    const NTSTATUS status = issue_port_poll(scheduler, *poll, socket, poll->iosb, poll->info);
    if (status != status_pending && !nt_success(status))
    {
      // Completed through the port all the same, as Asio completes a failed start: the
      // handler is never called from inside the initiating function.
      poll->iosb.Status = status;
      scheduler.on_completion(poll);
    }
    return &poll->iosb;
  }
}

} // namespace
} // namespace win

bool socket_waits_poll_port() noexcept { return has_io_context_port && win::nt().complete(); }

void* start_socket_wait(boost::asio::execution_context& context, std::uintptr_t socket,
                        boost::asio::socket_base::wait_type w, socket_wait_base& op)
{
  return win::start_on<asio_iocp_scheduler, asio_iocp_operation>(
      context, reinterpret_cast<HANDLE>(socket), w, op);
}

void cancel_socket_wait(std::uintptr_t socket, void* key) noexcept
{
  IO_STATUS_BLOCK cancel_iosb{};
  win::nt().cancel_io_file_ex(reinterpret_cast<HANDLE>(socket), static_cast<IO_STATUS_BLOCK*>(key),
                              &cancel_iosb);
}

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
