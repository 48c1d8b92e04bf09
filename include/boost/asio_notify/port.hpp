//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
#ifndef BOOST_ASIO_NOTIFY_PORT_HPP
#define BOOST_ASIO_NOTIFY_PORT_HPP

#include <boost/asio_notify/detail/config.hpp>
#include <boost/asio_notify/flags.hpp>
#include <boost/asio_notify/registration.hpp>

#include <boost/core/span.hpp>
#include <boost/system/error_code.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace boost {
namespace asio_notify {

/** The system facility a port is built on.

    - `psn`: Windows' `ProcessSocketNotifications` (build 20348 and later: Windows 11,
      Server 2022). The contract is the operating system's.
    - `afd`: Windows' `IOCTL_AFD_POLL` on a `\Device\Afd` helper handle, the readiness
      mechanism of wepoll, libuv and mio; for Windows 10, Server 2019 and Wine. The contract
      is emulated on polls that complete in the port; see doc/windows.md for the two things
      it does differently (edge triggering is emulated, so a condition that keeps holding may
      be reported again, but a rise is never lost; a socket closed without `remove` keeps its
      slot until its handle value is reused or the port is destroyed).
    - `epoll`: Linux; the contract emulated on an epoll instance and an eventfd.
    - `automatic`: on Windows the environment variable `BOOST_ASIO_NOTIFY_PORT` (`psn` or
      `afd`) when set, else `psn` where it exists, else `afd`; `epoll` on Linux.
*/
enum class port_backend
{
  automatic,
  psn,
  afd,
  epoll
};

/// The backend's name: `automatic`, `psn`, `afd` or `epoll`.
BOOST_ASIO_NOTIFY_DECL const char* to_string(port_backend b) noexcept;

/// The name of the environment variable that picks the `automatic` backend on Windows.
constexpr const char* port_backend_variable = "BOOST_ASIO_NOTIFY_PORT";

/// True when a port can be created here: always on Linux (emulated on epoll); on Windows
/// when `ProcessSocketNotifications` exists or AFD polling works.
BOOST_ASIO_NOTIFY_DECL bool is_supported() noexcept;

/// True when a port with backend `b` can be created here (`automatic`: see `is_supported()`).
BOOST_ASIO_NOTIFY_DECL bool is_supported(port_backend b) noexcept;

/** A notification port: the socket state notification contract of
    `ProcessSocketNotifications` on every platform.

    On Windows the port is an I/O completion port driven by `ProcessSocketNotifications`;
    on Linux it is an epoll instance plus an eventfd that emulate every rule of the
    contract, `events::remove` packets included.

    The rules, in short: a socket is registered with one port at most; registering it
    again overwrites the registration (that is how one-shot registrations are re-armed);
    after `operation::remove` exactly one `events::remove` packet arrives and nothing
    after it, so only then may the memory behind its key be freed; closing a socket
    deregisters it without a `remove` packet; `events::error` is reported whatever the
    filter.

    Thread safety: every member function may be called from any thread at any time,
    also while other threads are blocked in `dequeue` or `process`.
*/
class port
{
public:
  /// The handle of the underlying kernel object: the epoll descriptor on Linux (it becomes
  /// readable when a packet may be dequeued), the completion port `HANDLE` on Windows.
#if defined(_WIN32)
  using native_handle_type = void*;
#else
  using native_handle_type = int;
#endif

  /// A timeout meaning "wait until a packet arrives".
  static constexpr std::chrono::milliseconds infinite = std::chrono::milliseconds::max();

  /// Create a port. Throws `boost::system::system_error`, with
  /// `boost::asio::error::operation_not_supported` where `is_supported()` is false.
  BOOST_ASIO_NOTIFY_DECL port();

  /// Create a port, reporting failure in `ec`; the port is unusable when `ec` is set.
  BOOST_ASIO_NOTIFY_DECL explicit port(boost::system::error_code& ec);

  /// Create a port on backend `b`. Throws `boost::system::system_error`, with
  /// `boost::asio::error::operation_not_supported` where `is_supported(b)` is false.
  BOOST_ASIO_NOTIFY_DECL explicit port(port_backend b);

  /// Create a port on backend `b`, reporting failure in `ec`.
  BOOST_ASIO_NOTIFY_DECL port(port_backend b, boost::system::error_code& ec);

  /// Close the port. Outstanding registrations are dropped without `remove` packets.
  BOOST_ASIO_NOTIFY_DECL ~port();

  port(const port&) = delete;
  port& operator=(const port&) = delete;

  /** Apply a batch of registrations, then dequeue up to `packets.size()` packets.

      Each entry's own outcome is written to its `result`; an invalid entry (bad
      operation, filter or trigger combination) gets `boost::asio::error::invalid_argument`
      before any system call is made for it and leaves the port unchanged.
      With an empty `packets` nothing is dequeued and the call does not wait.
      Otherwise it waits up to `timeout` (zero polls, `infinite` waits for a packet)
      and returns the number of packets written; zero means the timeout expired.
      `ec` reports a failure of the call itself, not of an entry. */
  BOOST_ASIO_NOTIFY_DECL std::size_t process(boost::span<registration> registrations,
                                             boost::span<packet> packets,
                                             std::chrono::milliseconds timeout,
                                             boost::system::error_code& ec);

  /// Apply a batch of registrations without dequeuing; see `process`.
  BOOST_ASIO_NOTIFY_DECL void apply(boost::span<registration> registrations,
                                    boost::system::error_code& ec);

  /// Apply a single registration; its outcome is returned (also written to `r.result`).
  BOOST_ASIO_NOTIFY_DECL boost::system::error_code apply(registration& r);

  /// Dequeue up to `packets.size()` packets waiting up to `timeout`; see `process`.
  BOOST_ASIO_NOTIFY_DECL std::size_t dequeue(boost::span<packet> packets,
                                             std::chrono::milliseconds timeout,
                                             boost::system::error_code& ec);

  /// Dequeue, throwing `boost::system::system_error` when the call itself fails.
  BOOST_ASIO_NOTIFY_DECL std::size_t dequeue(boost::span<packet> packets,
                                             std::chrono::milliseconds timeout);

  /// Queue a user packet `{key, value}`; it wakes one blocked dequeue.
  BOOST_ASIO_NOTIFY_DECL void post(void* key, std::uint32_t value,
                                   boost::system::error_code& ec);

  /// Queue a user packet, throwing `boost::system::system_error` on failure.
  BOOST_ASIO_NOTIFY_DECL void post(void* key, std::uint32_t value = 0);

  /// The underlying kernel object; see `native_handle_type`. On Windows the completion
  /// port belongs to the port: wait on it or inspect it, but associate no other handle with
  /// it (the contract documents a notification's `lpOverlapped` only as reserved, so a
  /// completion of someone else's overlapped I/O could not be told from a notification).
  BOOST_ASIO_NOTIFY_DECL native_handle_type native_handle() const noexcept;

  /// The backend this port runs on (never `automatic`); `automatic` for a port whose
  /// construction failed.
  BOOST_ASIO_NOTIFY_DECL port_backend backend() const noexcept;

  /// The backend's internal state; defined in the backend's source file.
  struct impl;

  /// Destroys an `impl`; defined next to it so this header needs no complete type.
  struct impl_deleter
  {
    BOOST_ASIO_NOTIFY_DECL void operator()(impl* p) const noexcept;
  };

private:
  std::unique_ptr<impl, impl_deleter> impl_;
};

/// Check one registration entry against the contract's combination rules (used by every
/// backend before any system call): returns `invalid_argument` for a bad entry.
BOOST_ASIO_NOTIFY_DECL boost::system::error_code validate(const registration& r) noexcept;

} // namespace asio_notify
} // namespace boost

#endif
