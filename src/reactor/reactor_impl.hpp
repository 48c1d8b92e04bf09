//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The reactor itself, reactor_core's implementation: what the I/O objects call (through
// reactor_core's exported entry points) and what the drivers hand packets to, both
// without a virtual call. Defined in reactor_core.cpp (design.md, "The reactor").
#ifndef BOOST_ASIO_NOTIFY_SRC_REACTOR_REACTOR_IMPL_HPP
#define BOOST_ASIO_NOTIFY_SRC_REACTOR_REACTOR_IMPL_HPP

#include <boost/asio_notify/detail/reactor_core.hpp>
#include <boost/asio_notify/detail/reactor_op.hpp>
#include <boost/asio_notify/port.hpp>
#include <boost/asio_notify/reactor.hpp>

#include "descriptor_state.hpp"
#include "descriptor_state_table.hpp"
#include "reactor_counters.hpp"
#include "transfer_channel.hpp"
#include "../drivers/reactor_driver.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/system/error_code.hpp>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

namespace boost {
namespace asio_notify {
namespace detail {

/// Sockets, operations, the port and the driver: operations started, performed, cancelled
/// and completed on per-socket queues, with the sockets' registrations and teardown.
struct reactor_core::impl final
{
  explicit impl(const reactor_options& o);
  ~impl();

  impl(const impl&) = delete;
  impl& operator=(const impl&) = delete;

  // --- what the I/O objects call (see reactor_core's declarations) ---

  void attach(const boost::asio::any_io_executor& io_executor);
  descriptor_state* adopt(native_socket_type s, boost::system::error_code& ec) noexcept;
  void close(descriptor_state*& s, boost::system::error_code& ec);
  native_socket_type release(descriptor_state*& s, boost::system::error_code& ec);
  void start_op(descriptor_state* s, op_type type, reactor_op* op,
                const boost::system::error_code& start_error);
  std::size_t receive_now(descriptor_state& s, socket_ops::native_buffer* bufs, std::size_t count,
                          socket_ops::message_flags flags, boost::system::error_code& ec);
  void cancel(descriptor_state& s);
  void cancel_op(descriptor_state& s, op_type type, const void* key);
  void shutdown();
  reactor_options current_options() const;
  reactor_statistics statistics() const noexcept;

  /// Runs `d` as this reactor's driver, before any operation starts: from `attach`, with the
  /// driver's mutex held, or from a test with a driver of its own.
  void install_driver(std::unique_ptr<reactor_driver> d);

  // --- what the drivers call ---

  /// Act on one packet, however late or stale; operations it finishes are appended to
  /// `done`.
  void handle(const packet& p, op_queue& done);

  /// Schedule the handlers of `done`: the first with `first`, the others with `rest` and
  /// before the first (as Asio's reactor does: nothing is lost if the first handler throws).
  void complete(op_queue& done, completion_mode first, completion_mode rest);

  /// A transfer of `channel` in `direction` (`read_op`: a receive, `write_op`: a send)
  /// completed with `ec` (eof for a receive's end of stream) and `bytes`; `drained` when a
  /// receive left nothing to read. Its operation, and the operations it let go on, are
  /// appended to `done`.
  void transfer_completed(transfer_channel& channel, op_type direction,
                          const boost::system::error_code& ec, std::size_t bytes, bool drained,
                          op_queue& done);

  /// What the drivers count: dequeues, hand-overs, io threads' looks.
  reactor_counters counters;

private:
  void learn_abort_hop(const boost::asio::any_io_executor& io_executor);
  const boost::asio::io_context::executor_type* abort_hop_executor() const noexcept;
  boost::system::error_code apply_entry(registration& r);
  void end_registration(native_socket_type socket, void* key);
  native_socket_type detach(descriptor_state*& s, bool handing_back);
  // Make the port report what the queued operations wait for (the state's mutex held);
  // operations that finish or fail on the way are moved to `done`. Inline for the common
  // case: a persistent edge registration, made once, never changes.
  void update_registration(descriptor_state& s, op_queue& done)
  {
    if (!(options.trigger == trigger_strategy::persistent_edge && s.registered))
      change_registration(s, done);
  }
  void change_registration(descriptor_state& s, op_queue& done);
  void disarm_if_idle(descriptor_state& s);
  void rearm(descriptor_state& s, op_queue& done);
  channel_site channels_for(const descriptor_state& s) const noexcept;
  void drop_stale();
  void complete(op_queue& done, completion_mode mode) { complete(done, mode, mode); }
  void complete_immediately(op_queue& finished);

  reactor_options options;
  own_port the_port; // after `options`, which it reads and completes
  descriptor_state_table states;
  mutable std::mutex driver_mutex;
  std::unique_ptr<reactor_driver> driver;
  std::atomic<bool> driver_ready{false};
  std::atomic<bool> tell_driver_queued{false};      // until its operation_queued() says no more
  std::atomic<bool> registrations_by_driver{false}; // the driver applies them (apply())
  std::atomic<channel_issuer*> issuer{nullptr};     // the driver's, set once with it, if asked
  const char* driver_note = nullptr;                // set once, under driver_mutex
  std::atomic<bool> shut_down{false};
  std::optional<boost::asio::io_context::executor_type> abort_hop; // set once, under driver_mutex
  std::atomic<bool> abort_hop_known{false};
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
