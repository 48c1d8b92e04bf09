//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
#ifndef BOOST_ASIO_NOTIFY_DETAIL_REACTOR_CORE_HPP
#define BOOST_ASIO_NOTIFY_DETAIL_REACTOR_CORE_HPP

#include <boost/asio_notify/detail/config.hpp>
#include <boost/asio_notify/detail/reactor_op.hpp>
#include <boost/asio_notify/detail/socket_ops.hpp>
#include <boost/asio_notify/flags.hpp>
#include <boost/asio_notify/reactor.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/system/error_code.hpp>

#include <memory>

namespace boost {
namespace asio_notify {
namespace detail {

/// An open socket's state in the reactor, private to it (src/reactor/descriptor_state.hpp).
/// The I/O objects hold a pointer to it as an opaque handle, which the reactor's calls take.
struct descriptor_state;

/** The entry points the I/O object templates call on the `reactor` service's machinery
    (sockets, operations, the port and the driver). Each is the reactor's own function
    (`impl`, src/reactor/reactor_impl.hpp), exported: one call from the I/O object to the
    reactor's code. */
class reactor_core
{
public:
  BOOST_ASIO_NOTIFY_DECL explicit reactor_core(const reactor_options& options);
  BOOST_ASIO_NOTIFY_DECL ~reactor_core();

  reactor_core(const reactor_core&) = delete;
  reactor_core& operator=(const reactor_core&) = delete;

  /// Stop the driver and destroy every pending operation without invoking it.
  BOOST_ASIO_NOTIFY_DECL void shutdown();

  BOOST_ASIO_NOTIFY_DECL reactor_options options() const;
  BOOST_ASIO_NOTIFY_DECL reactor_statistics statistics() const noexcept;

  /// Called by every I/O object with its executor: the first one starts the driver
  /// (the inline driver needs the io_context behind it).
  BOOST_ASIO_NOTIFY_DECL void attach(const boost::asio::any_io_executor& io_executor);

  /// Track an open socket; no system call. Null with `no_memory` when the state table cannot
  /// grow: the socket is left as it was, for the caller to close or keep.
  BOOST_ASIO_NOTIFY_DECL descriptor_state* adopt(native_socket_type s,
                                                 boost::system::error_code& ec) noexcept;

  /// Abort every operation with `operation_aborted`, end the registration (REMOVE
  /// handshake) and close the socket. `s` becomes null whatever the outcome.
  BOOST_ASIO_NOTIFY_DECL void close(descriptor_state*& s, boost::system::error_code& ec);

  /// Like `close`, but hand the socket back open instead of closing it.
  BOOST_ASIO_NOTIFY_DECL native_socket_type release(descriptor_state*& s,
                                                    boost::system::error_code& ec);

  /// Start an operation: try it at once unless others of its type are queued, else queue it
  /// and make sure the port reports the readiness it waits for. The handler runs inside
  /// this call only where its associated immediate executor (Boost 1.82+) runs it there.
  /// `s` may be null (closed socket): completes with `bad_descriptor`; `start_error` is what
  /// preparing the socket failed with (making it non-blocking): completes with it.
  BOOST_ASIO_NOTIFY_DECL void start_op(descriptor_state* s, op_type type, reactor_op* op,
                                       const boost::system::error_code& start_error);

  /// One attempt of a synchronous receive on a socket whose descriptor is non-blocking,
  /// made under the socket's lock so that the reactor learns, as from its own reads,
  /// whether it left the receive queue empty: a readiness wait or read started next then
  /// waits for the port at once instead of asking the socket first (a `poll`, or a read
  /// that finds nothing). The caller ensures the descriptor cannot block.
  BOOST_ASIO_NOTIFY_DECL std::size_t receive_now(descriptor_state& s,
                                                 socket_ops::native_buffer* bufs, std::size_t count,
                                                 socket_ops::message_flags flags,
                                                 boost::system::error_code& ec);

  /// Complete every queued operation of `s` with `operation_aborted`.
  BOOST_ASIO_NOTIFY_DECL void cancel(descriptor_state& s);

  /// Complete the operation queued with cancellation key `key`, if any, with
  /// `operation_aborted` (per-operation cancellation).
  BOOST_ASIO_NOTIFY_DECL void cancel_op(descriptor_state& s, op_type type, const void* key);

  struct impl;

private:
  std::unique_ptr<impl> impl_;
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
