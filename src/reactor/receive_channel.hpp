//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What the reactor asks of a driver that issues stream reads as overlapped receives (the
// io_context_port driver: src/drivers/win/overlapped_receives.hpp). Why and how: design.md,
// "Receiving on the io_context's port".
#ifndef BOOST_ASIO_NOTIFY_SRC_REACTOR_RECEIVE_CHANNEL_HPP
#define BOOST_ASIO_NOTIFY_SRC_REACTOR_RECEIVE_CHANNEL_HPP

#include <boost/asio_notify/detail/reactor_op.hpp>
#include <boost/asio_notify/detail/socket_ops.hpp>

#include <atomic>
#include <cstddef>

namespace boost {
namespace asio_notify {
namespace detail {

/** One socket's overlapped receives, one in flight at a time: the operation at the front of
    the socket's read queue is in it, and its completion finishes that operation. */
class receive_channel
{
public:
  /// Issues a receive into `bufs`; true when it is in flight (its completion comes to the
  /// reactor's `receive_completed`), false when none was issued. With the state's lock held.
  virtual bool issue(socket_ops::native_buffer* bufs, std::size_t count,
                     socket_ops::message_flags flags) noexcept = 0;

  /// Asks the system to end the receive in flight early; its completion still comes.
  virtual void cancel() noexcept = 0;

  /// The socket leaves the reactor (close, release, shutdown): the receive in flight, if
  /// any, is cancelled and `in_flight`, its operation, is kept in `orphan` for its
  /// completion to finish; the channel goes after that completion, or now when there is
  /// none. With the state's lock held; the state forgets the channel.
  virtual void close(reactor_op* in_flight) noexcept = 0;

  /// The key of the socket's state (descriptor_state_table::key_of).
  void* const key;

  /// After `close`: the operation of the receive in flight, for its completion to take.
  std::atomic<reactor_op*> orphan{nullptr};

protected:
  explicit receive_channel(void* k) noexcept : key(k) {}
  ~receive_channel() = default;
};

/// Opens the receive channels of a driver that has them.
class receive_issuer
{
public:
  /// A channel for `socket`, whose state's key is `key`; null where it can have none (no
  /// memory, or a handle the io_context's port does not take): its reads wait for readiness.
  virtual receive_channel* open(native_socket_type socket, void* key) noexcept = 0;

protected:
  ~receive_issuer() = default;
};

/// Where a socket's reads that would block go on: its driver's issuer (null: nowhere, they
/// wait for readiness), and the key its channel is opened with.
struct receive_site
{
  receive_issuer* issuer = nullptr;
  void* key = nullptr;
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
