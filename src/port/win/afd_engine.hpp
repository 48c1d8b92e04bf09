//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The AFD engine: the port contract emulated on IOCTL_AFD_POLL (afd_engine.cpp), shared by
// the AFD backend (afd_port.cpp) and the tests' ProcessSocketNotifications double.
#ifndef BOOST_ASIO_NOTIFY_SRC_PORT_WIN_AFD_ENGINE_HPP
#define BOOST_ASIO_NOTIFY_SRC_PORT_WIN_AFD_ENGINE_HPP

#include <boost/asio_notify/port.hpp>

#include <winsock2.h>
#include <windows.h>

#include <cstddef>
#include <memory>

namespace boost {
namespace asio_notify {
namespace detail {
namespace win {

class afd_poll_site;
struct afd_registration;

/// The port contract emulated on IOCTL_AFD_POLL for one completion port, which the engine
/// does not own (it must outlive the engine): what the AFD backend runs on, and what the
/// tests' ProcessSocketNotifications double runs on, so that both see real readiness.
/// Thread-safe. The caller waits on the completion port itself, calling `before_wait` before
/// each wait and passing what it dequeued to `complete`.
class afd_engine
{
public:
  /// What an entry dequeued from the completion port was to the engine.
  enum class entry_kind
  {
    packet,  ///< a packet for the port's user (a notification or a REMOVE)
    nothing, ///< the engine's, reporting nothing (filtered, closed socket, stale poll)
    foreign  ///< not the engine's (a user packet, or something else posted to the port)
  };

  virtual ~afd_engine();

  /// Applies each entry, setting its `result` (validated as the contract says).
  virtual void apply(boost::span<registration> regs) = 0;

  /// Polls again for what completed since the last call and samples edge conditions: call
  /// it before each wait on the completion port. Returns `wait` (milliseconds) shortened to
  /// when the engine needs to be called again; wait that long, then call `complete`.
  virtual DWORD before_wait(DWORD wait) = 0;

  /// Sorts `count` entries dequeued in a wait of `waited` ms (what `before_wait` returned;
  /// also after a failed wait, with no entries) into `kinds`, writing `out[i]` for each
  /// `packet`. Wakes a thread in a long wait when what was dequeued leaves it work: polls
  /// to submit again, conditions to sample (doc/windows.md, "The AFD backend").
  virtual void complete(const OVERLAPPED_ENTRY* entries, std::size_t count, DWORD waited,
                        packet* out, entry_kind* kinds) = 0;

  /// The poll of `reg` completed where the site's completions come (the io_context's port):
  /// true when it makes the packet `out`. Polls again for what completed at once: there is
  /// no wait of the engine's own to do it before.
  virtual bool poll_completed(afd_registration& reg, packet& out) = 0;

  /// How many registrations the engine holds.
  virtual std::size_t size() = 0;
};

/// One wait of up to `wait_ms` on `iocp`, the port of `engine`'s polls: before_wait, the
/// dequeue of up to `capacity` entries into `entries` (`received` of them), complete.
/// Returns ERROR_SUCCESS, WAIT_TIMEOUT (nothing dequeued) or the dequeue's failure.
DWORD wait_once(afd_engine& engine, HANDLE iocp, DWORD wait_ms, OVERLAPPED_ENTRY* entries,
                ULONG capacity, ULONG& received, packet* out, afd_engine::entry_kind* kinds);

/// An AFD engine on `iocp`, or null and `ec` set (`operation_not_supported` where the system
/// has no usable `\Device\Afd`).
std::unique_ptr<afd_engine> open_afd_engine(HANDLE iocp, boost::system::error_code& ec);

/// An AFD engine whose polls go through `site`.
std::unique_ptr<afd_engine> open_afd_engine(std::unique_ptr<afd_poll_site> site);

} // namespace win
} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
