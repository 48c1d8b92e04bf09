//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Where the AFD engine's polls are issued and where their completions come back: the
// engine's own completion port (afd_port_site.cpp) or the io_context's
// (io_context_port_driver.cpp). doc/windows.md, "The AFD backend".
#ifndef BOOST_ASIO_NOTIFY_SRC_PORT_WIN_AFD_POLL_SITE_HPP
#define BOOST_ASIO_NOTIFY_SRC_PORT_WIN_AFD_POLL_SITE_HPP

#include "afd_registration.hpp"

#include <boost/asio_notify/port.hpp>

#include <cstddef>

namespace boost {
namespace asio_notify {
namespace detail {
namespace win {

/// What the AFD engine asks of the place its polls complete in. Called with the engine's
/// lock held.
class afd_poll_site
{
public:
  virtual ~afd_poll_site() = default;

  /// A new registration with a helper handle to poll on; null and `ec` set when no helper
  /// can be had. Throws `bad_alloc`.
  virtual afd_registration* make_registration(boost::system::error_code& ec) = 0;

  /// Frees a registration with no poll in flight.
  virtual void free_registration(afd_registration* reg) noexcept = 0;

  /// Issues the poll `reg.info` describes on the registration's helper: STATUS_PENDING or
  /// a success when its completion will come, a failure when it will not.
  virtual NTSTATUS issue(afd_registration& reg) noexcept = 0;

  /// The poll in flight of `reg` completed (before the engine acts on it).
  virtual void completed(afd_registration& reg) noexcept { static_cast<void>(reg); }

  /// Asks for the poll in flight of `reg` to complete now.
  virtual void cancel(afd_registration& reg) noexcept = 0;

  /// The REMOVE packet of a registration with no poll in flight; a site whose user reads no
  /// REMOVE packet posts nothing.
  virtual void post_remove(void* key) noexcept = 0;

  /// Wakes one thread waiting on the engine's completion port, with an entry `is_wake`
  /// tells; a site whose user makes no waits of the engine's own has none to wake.
  virtual void post_wake() noexcept {}

  /// Whether `e` is what `post_wake` posted.
  virtual bool is_wake(const OVERLAPPED_ENTRY& e) const noexcept
  {
    static_cast<void>(e);
    return false;
  }

  /// The engine is going: `in_flight` polls of registrations it has given up are still in
  /// flight. Returns once none of them can touch the engine any more.
  virtual void abandon(std::size_t in_flight) noexcept = 0;

  /// What an entry of the engine's own completion port is: the REMOVE packet of `key` (true,
  /// `key` set), a poll of `reg` (false, `reg` set) or neither (false, both null).
  virtual bool classify(const OVERLAPPED_ENTRY& e, void*& key, afd_registration*& reg) noexcept
  {
    static_cast<void>(e);
    key = nullptr;
    reg = nullptr;
    return false;
  }
};

/// The site of the AFD backend and of the PSN test double: polls on one helper handle
/// associated with `iocp`, the caller's completion port, which it dequeues itself. Null and
/// `ec` set where no helper can be opened.
std::unique_ptr<afd_poll_site> open_port_site(HANDLE iocp, boost::system::error_code& ec);

} // namespace win
} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
