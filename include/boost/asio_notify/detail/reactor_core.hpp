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
#include <boost/asio_notify/flags.hpp>
#include <boost/asio_notify/reactor.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/system/error_code.hpp>

#include <memory>
#include <mutex>

namespace boost {
namespace asio_notify {
namespace detail {

/** The reactor's state of one open socket. Its address is the socket's completion key,
    so it lives until the port's `remove` packet for it has been dequeued (and no
    dequeue round that could still hold an older packet for it is running). */
struct socket_state
{
  explicit socket_state(native_socket_type s) noexcept : socket(s) {}

  native_socket_type socket;

  // Guarded by `mutex`: touched by the reactor and by cancel/close from any thread.
  std::mutex mutex;
  op_queue ops[max_ops];
  events armed = events::none; // what the port reports for this socket right now
  bool registered = false;     // a registration exists: removal must wait for `remove`
  bool closed = false;
  // Reads skip the speculative attempt while `read_drained`: the last read left the
  // receive queue empty, and whatever arrives after it comes with a packet. Never set
  // once a hang-up or error was reported (those are not data the hint counts).
  bool drained_hint = false; // reads tell whether they emptied the queue (TCP_INQ)
  bool read_drained = false;
  bool hangup_seen = false;

  // Touched only by the owning I/O object (Asio's rule: one thread at a time). Asio's state
  // bits: the descriptor is non-blocking while either mode is set.
  bool user_non_blocking = false;     // non_blocking(): synchronous calls never wait
  bool internal_non_blocking = false; // native_non_blocking(): set for async operations
  bool user_set_linger = false;       // set_option(linger): the destructor turns it off

  // The reactor's list of every state, for shutdown.
  socket_state* prev = nullptr;
  socket_state* next = nullptr;
};

/** The machinery of the `reactor` service: sockets, operations, the port and the driver.
    Implemented in src/reactor.cpp; used by the I/O object templates. */
class reactor_core
{
public:
  BOOST_ASIO_NOTIFY_DECL explicit reactor_core(const reactor_options& options);
  BOOST_ASIO_NOTIFY_DECL ~reactor_core();

  reactor_core(const reactor_core&) = delete;
  reactor_core& operator=(const reactor_core&) = delete;

  /// Stop the driver and destroy every pending operation without invoking it.
  BOOST_ASIO_NOTIFY_DECL void shutdown();

  BOOST_ASIO_NOTIFY_DECL const reactor_options& options() const noexcept;
  BOOST_ASIO_NOTIFY_DECL reactor_statistics statistics() const noexcept;

  /// Called by every I/O object with its executor: the first one starts the driver
  /// (the inline driver needs the io_context behind it).
  BOOST_ASIO_NOTIFY_DECL void attach(const boost::asio::any_io_executor& io_executor);

  /// Track an open socket; no system call.
  BOOST_ASIO_NOTIFY_DECL socket_state* adopt(native_socket_type s);

  /// Abort every operation with `operation_aborted`, end the registration (REMOVE
  /// handshake) and close the socket. `s` becomes null whatever the outcome.
  BOOST_ASIO_NOTIFY_DECL void close(socket_state*& s, boost::system::error_code& ec);

  /// Like `close`, but hand the socket back open instead of closing it.
  BOOST_ASIO_NOTIFY_DECL native_socket_type release(socket_state*& s,
                                                    boost::system::error_code& ec);

  /// Start an operation: try it at once unless others of its type are queued, else queue it
  /// and make sure the port reports the readiness it waits for. The handler runs inside
  /// this call only where its associated immediate executor (Boost 1.82+) runs it there.
  /// `s` may be null (closed socket): completes with `bad_descriptor`.
  BOOST_ASIO_NOTIFY_DECL void start_op(socket_state* s, op_type type, reactor_op* op);

  /// Complete every queued operation of `s` with `operation_aborted`.
  BOOST_ASIO_NOTIFY_DECL void cancel(socket_state& s);

  /// Complete the operation queued with cancellation key `key`, if any, with
  /// `operation_aborted` (per-operation cancellation).
  BOOST_ASIO_NOTIFY_DECL void cancel_op(socket_state& s, op_type type, const void* key);

  /// Make the socket's descriptor non-blocking if neither mode made it so yet (asynchronous
  /// operations need it).
  BOOST_ASIO_NOTIFY_DECL void ensure_non_blocking(socket_state& s, boost::system::error_code& ec);

  struct impl;

private:
  void complete_immediately(op_queue& finished);

  std::unique_ptr<impl> impl_;
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
