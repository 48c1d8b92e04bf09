//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    The entries and packets of the notification port: `registration` (one entry of a
    registration batch, with its own result), `packet` (one dequeued packet) and
    `native_socket_type`. */
#ifndef BOOST_ASIO_NOTIFY_REGISTRATION_HPP
#define BOOST_ASIO_NOTIFY_REGISTRATION_HPP

#include <boost/asio_notify/flags.hpp>
#include <boost/system/error_code.hpp>

#include <cstdint>

namespace boost {
namespace asio_notify {

/// The operating system's socket handle: `SOCKET` on Windows, a file descriptor elsewhere.
#if defined(_WIN32)
using native_socket_type = std::uintptr_t;
#else
using native_socket_type = int;
#endif

/** One entry of a registration batch given to `port::process` or `port::apply` (Windows:
    `SOCK_NOTIFY_REGISTRATION`). Each entry gets its own outcome in `result`.

    @par Example
    @code
    boost::asio_notify::registration r;
    r.socket = fd;
    r.key = &connection;
    r.filter = boost::asio_notify::events::in | boost::asio_notify::events::hangup;
    r.triggers = boost::asio_notify::trigger::level | boost::asio_notify::trigger::oneshot;
    if (boost::system::error_code ec = port.apply(r))
      report(ec); // this entry's own error
    @endcode */
struct registration
{
  /// The socket whose registration the entry acts on.
  native_socket_type socket{};

  /// The value packets for this registration carry back. It cannot change while the
  /// registration exists: remove, wait for the `events::remove` packet, then register again.
  void* key = nullptr;

  /// The conditions of interest; a subset of `filter_events`.
  asio_notify::events filter = asio_notify::events::none;

  /// What to do: exactly one of `enable`, `disable` and `remove`.
  asio_notify::operation operation = asio_notify::operation::enable;

  /// How packets are produced; see `trigger`. Read by `operation::enable` only.
  asio_notify::trigger triggers = asio_notify::trigger::level;

  /// A hint for re-enabling a one-shot level registration: the conditions of `filter` the
  /// caller has seen not to hold since the registration's last packet (a call on the socket
  /// would have blocked). Where it names the whole filter, the epoll backend re-arms without
  /// a system call and reports the conditions when they next become true; a condition named
  /// here that does hold then goes unreported until the socket's state changes. Windows'
  /// backends re-arm within the next dequeue and ignore it (doc/port_contract.md, "Hints").
  asio_notify::events unready = asio_notify::events::none;

  /// Written by `port::process`: the outcome of this entry alone (see `port::process` for
  /// the errors).
  boost::system::error_code result;
};

/// Whether a dequeued packet reports socket conditions or was posted with `port::post`.
enum class packet_kind : std::uint8_t
{
  notification, ///< From a registration: `events` is set.
  user          ///< From `port::post`: `value` is set.
};

/// One dequeued packet (Windows: an `OVERLAPPED_ENTRY`): a notification for a registration,
/// or a user packet queued with `port::post`.
struct packet
{
  /// The registration's key, or the key given to `port::post`.
  void* key = nullptr;

  /// Notification packets: the conditions that hold (never `none`).
  asio_notify::events events = asio_notify::events::none;

  /// User packets: the value given to `port::post`.
  std::uint32_t value = 0;

  /// Which of the two kinds this packet is.
  packet_kind kind = packet_kind::notification;
};

} // namespace asio_notify
} // namespace boost

#endif
