//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    The notification port: the socket state notification contract of Windows'
    `ProcessSocketNotifications` as a class, natively on Windows and emulated on Linux
    (epoll), usable on its own (doc/port_contract.md; examples in `example/port/`). */
#ifndef BOOST_ASIO_NOTIFY_PORT_HPP
#define BOOST_ASIO_NOTIFY_PORT_HPP

#include <boost/asio_notify/adversary.hpp>
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
    - `afd`: Windows' `IOCTL_AFD_POLL` on a helper handle of the AFD device, the readiness
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
  /// `BOOST_ASIO_NOTIFY_PORT` when set (Windows), else PSN where it exists, else AFD;
  /// epoll on Linux.
  automatic,
  /// Windows' `ProcessSocketNotifications` (build 20348 and later).
  psn,
  /// Windows' `IOCTL_AFD_POLL` (Windows 10, Server 2019, Wine).
  afd,
  /// Linux's epoll.
  epoll
};

/// The backend's name: `automatic`, `psn`, `afd` or `epoll`, as `BOOST_ASIO_NOTIFY_PORT` and
/// `parse_reactor_options` spell it.
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

    @par Thread safety
    Every member function may be called from any thread at any time, also while other
    threads are blocked in `dequeue` or `process`.

    @par Example
    @code
    boost::asio_notify::port port;
    boost::asio_notify::registration r;
    r.socket = fd;
    r.key = &my_context;
    r.filter = boost::asio_notify::events::in | boost::asio_notify::events::hangup;
    r.triggers = boost::asio_notify::trigger::level | boost::asio_notify::trigger::oneshot;
    if (auto ec = port.apply(r))
      std::cerr << "registration failed: " << ec.message() << '\n';
    boost::asio_notify::packet packets[64];
    std::size_t n = port.dequeue(packets, std::chrono::milliseconds(100));
    @endcode
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

  /** Create a port on the `automatic` backend.

      @throws boost::system::system_error Thrown on failure:
      `boost::asio::error::operation_not_supported` where `is_supported()` is false, the
      system's error otherwise. */
  BOOST_ASIO_NOTIFY_DECL port();

  /** Create a port on the `automatic` backend, reporting failure in `ec`.

      @param ec Set on failure (`operation_not_supported` where `is_supported()` is false);
      the port is then unusable: its calls report `bad_descriptor`. */
  BOOST_ASIO_NOTIFY_DECL explicit port(boost::system::error_code& ec);

  /** Create a port on backend `b`.

      @param b The backend; `automatic` as for the default constructor.

      @throws boost::system::system_error Thrown on failure:
      `boost::asio::error::operation_not_supported` where `is_supported(b)` is false (on
      Windows its message names the build PSN needs), the system's error otherwise. */
  BOOST_ASIO_NOTIFY_DECL explicit port(port_backend b);

  /** Create a port on backend `b`, reporting failure in `ec`.

      @param b The backend.
      @param ec Set on failure (`operation_not_supported` where `is_supported(b)` is false);
      the port is then unusable: its calls report `bad_descriptor`. */
  BOOST_ASIO_NOTIFY_DECL port(port_backend b, boost::system::error_code& ec);

  /** Create a port on backend `b` that produces the adversities `a` asks for
      (adversary.hpp); with `a.kinds` none, a plain port as `port(b)`.

      @param b The backend.
      @param a The adversities and their seed.

      @throws boost::system::system_error Thrown as `port(b)` throws. */
  BOOST_ASIO_NOTIFY_DECL port(port_backend b, const adversary_options& a);

  /// Close the port. Outstanding registrations are dropped without `remove` packets.
  BOOST_ASIO_NOTIFY_DECL ~port();

  port(const port&) = delete;
  port& operator=(const port&) = delete;

  /** Apply a batch of registrations, then dequeue up to `packets.size()` packets.

      Each entry's own outcome is written to its `result`; an invalid entry (bad
      operation, filter or trigger combination) gets `boost::asio::error::invalid_argument`
      before any system call is made for it and leaves the port unchanged.
      With an empty `packets` nothing is dequeued and the call does not wait.
      Otherwise it waits up to `timeout` (zero polls, `infinite` waits for a packet; a wait
      that returns early waits again for what is left) and returns the number of packets
      written; zero means the timeout expired. Each packet is dequeued by one caller only,
      whichever thread dequeues.

      @param registrations The entries to apply, in order; each entry's `result` is set.
      @param packets Where the packets go; its size is the most to dequeue.
      @param timeout How long to wait for a packet.
      @param ec Set when the call itself fails (`bad_descriptor` for a port whose
      construction failed), not when an entry does.

      @returns The number of packets written to `packets`.

      @par Errors of an entry
      `boost::asio::error::invalid_argument` for an entry
      `validate` refuses, or one that changes the key of a live registration (epoll and AFD:
      doc/port_contract.md, rule 2); `not_found` for `disable` or `remove` of a socket
      without a registration on this port; `bad_descriptor` for a handle that is not an open
      socket (on Linux `not_socket` for a descriptor of another kind); on Linux
      `already_open` for a socket registered with another port (rule 1); the system's error
      otherwise. A port whose construction failed gives every entry `bad_descriptor`. */
  BOOST_ASIO_NOTIFY_DECL std::size_t process(boost::span<registration> registrations,
                                             boost::span<packet> packets,
                                             std::chrono::milliseconds timeout,
                                             boost::system::error_code& ec);

  /** Apply a batch of registrations without dequeuing; see `process`.

      @param registrations The entries to apply, in order; each entry's `result` is set (see
      `process` for the errors).
      @param ec Set when the call itself fails, not when an entry does. */
  BOOST_ASIO_NOTIFY_DECL void apply(boost::span<registration> registrations,
                                    boost::system::error_code& ec);

  /** Apply a single registration.

      @param r The entry; its `result` is set.
      @returns The entry's outcome, also written to `r.result` (see `process` for the
      errors); the call's own failure, if any, is returned the same way. */
  BOOST_ASIO_NOTIFY_DECL boost::system::error_code apply(registration& r);

  /** Dequeue up to `packets.size()` packets, waiting up to `timeout`; see `process`.

      @param packets Where the packets go; its size is the most to dequeue.
      @param timeout How long to wait: zero polls, `port::infinite` waits for a packet.
      @param ec Set when the call fails (`bad_descriptor` for a port whose construction
      failed).
      @returns The number of packets written; zero when the timeout expired. */
  BOOST_ASIO_NOTIFY_DECL std::size_t dequeue(boost::span<packet> packets,
                                             std::chrono::milliseconds timeout,
                                             boost::system::error_code& ec);

  /** Dequeue up to `packets.size()` packets, waiting up to `timeout`; see `process`.

      @param packets Where the packets go; its size is the most to dequeue.
      @param timeout How long to wait: zero polls, `port::infinite` waits for a packet.
      @returns The number of packets written; zero when the timeout expired.
      @throws boost::system::system_error Thrown when the call itself fails. */
  BOOST_ASIO_NOTIFY_DECL std::size_t dequeue(boost::span<packet> packets,
                                             std::chrono::milliseconds timeout);

  /** Queue a user packet `{key, value}` (`packet_kind::user`); it wakes one blocked
      dequeue. User packets are delivered once each, in the order they were posted.

      @param key The packet's key.
      @param value The packet's value.
      @param ec Set on failure (`bad_descriptor` for a port whose construction failed). */
  BOOST_ASIO_NOTIFY_DECL void post(void* key, std::uint32_t value, boost::system::error_code& ec);

  /** Queue a user packet `{key, value}` (`packet_kind::user`); it wakes one blocked
      dequeue.

      @param key The packet's key.
      @param value The packet's value.
      @throws boost::system::system_error Thrown on failure. */
  BOOST_ASIO_NOTIFY_DECL void post(void* key, std::uint32_t value = 0);

  /// The underlying kernel object (invalid for a port whose construction failed); see
  /// `native_handle_type`. On Windows the completion
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
    /// Destroy `p`, closing the backend's kernel objects.
    /// @param p The state to destroy.
    BOOST_ASIO_NOTIFY_DECL void operator()(impl* p) const noexcept;
  };

private:
  std::unique_ptr<impl, impl_deleter> impl_;
};

/** Check one registration entry against the contract's combination rules, as every
    backend does before any system call: the operation is exactly one of `enable`,
    `disable` and `remove`; an `enable` has a filter within `filter_events`, exactly one of
    `trigger::level` and `trigger::edge`, and at most one of `oneshot` and `persistent`.

    @param r The entry.
    @returns `boost::asio::error::invalid_argument` for a bad entry, else no error. */
BOOST_ASIO_NOTIFY_DECL boost::system::error_code validate(const registration& r) noexcept;

} // namespace asio_notify
} // namespace boost

#endif
