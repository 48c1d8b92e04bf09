//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What the reactor asks of a driver that issues stream transfers as overlapped receives and
// sends (the io_context_port driver: src/drivers/win/overlapped_transfers.hpp). Why and how:
// design.md, "Transfers on the io_context's port".
#ifndef BOOST_ASIO_NOTIFY_SRC_REACTOR_TRANSFER_CHANNEL_HPP
#define BOOST_ASIO_NOTIFY_SRC_REACTOR_TRANSFER_CHANNEL_HPP

#include <boost/asio_notify/detail/reactor_op.hpp>
#include <boost/asio_notify/detail/socket_ops.hpp>

#include <atomic>
#include <cstddef>

namespace boost {
namespace asio_notify {
namespace detail {

/** One socket's overlapped transfers, at most one receive and one send in flight: the
    operation at the front of the socket's read (write) queue is in it, and its completion
    finishes that operation. `read_op` and `write_op` name the two directions. */
class transfer_channel
{
public:
  /// Issues a receive into (`read_op`) or a send from (`write_op`) `bufs`; true when it is
  /// in flight (its completion comes to the reactor's `transfer_completed`), false when none
  /// was issued. With the state's lock held.
  virtual bool issue(op_type direction, socket_ops::native_buffer* bufs, std::size_t count,
                     socket_ops::message_flags flags) noexcept = 0;

  /// Asks the system to end the transfer in flight in `direction` early; its completion
  /// still comes.
  virtual void cancel(op_type direction) noexcept = 0;

  /// The socket leaves the reactor (close, release, shutdown): the transfers in flight are
  /// cancelled and their operations (`in_flight`, null where none) kept in `orphans` for
  /// their completions to finish; the channel goes after those completions, or now when
  /// there are none. With the state's lock held; the state forgets the channel.
  virtual void close(reactor_op* const (&in_flight)[2]) noexcept = 0;

  /// The key of the socket's state (descriptor_state_table::key_of).
  void* const key;

  /// After `close`: the operations of the transfers in flight, by direction, for their
  /// completions to take.
  std::atomic<reactor_op*> orphans[2] = {};

protected:
  explicit transfer_channel(void* k) noexcept : key(k) {}
  ~transfer_channel() = default;
};

/// Opens the transfer channels of a driver that has them.
class channel_issuer
{
public:
  /// A channel for `socket`, whose state's key is `key`; null where it can have none (no
  /// memory, or a handle the io_context's port does not take): its transfers go through
  /// readiness.
  virtual transfer_channel* open(native_socket_type socket, void* key) noexcept = 0;

protected:
  ~channel_issuer() = default;
};

/// Where a socket's transfers go on: its driver's issuer (null: nowhere, they go through
/// readiness), which directions it takes, and the key its channel is opened with.
struct channel_site
{
  channel_issuer* issuer = nullptr;
  bool receives = false;
  bool sends = false;
  void* key = nullptr;

  bool takes(op_type direction) const noexcept
  {
    return direction == read_op ? receives : direction == write_op && sends;
  }
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
