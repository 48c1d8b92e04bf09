//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The drivers decide which threads dequeue the port (design.md, "Drivers").
#ifndef BOOST_ASIO_NOTIFY_SRC_REACTOR_DRIVER_HPP
#define BOOST_ASIO_NOTIFY_SRC_REACTOR_DRIVER_HPP

#include <boost/asio_notify/detail/reactor_op.hpp>
#include <boost/asio_notify/port.hpp>
#include <boost/asio_notify/reactor.hpp>

#include <boost/asio/any_io_executor.hpp>

#include <cstdint>
#include <memory>

namespace boost {
namespace asio_notify {
namespace detail {

/// What a driver hands dequeued packets to (the reactor core).
class packet_handler
{
public:
  /// The dequeue returned `packets` packets (counted before any is handled).
  virtual void dequeued(std::size_t packets) = 0;
  /// `packets` packets were performed by another thread than the one that dequeued them.
  virtual void handed_over(std::size_t packets) = 0;
  /// An io thread looked into the port without waiting (the thread driver's speculation).
  virtual void io_thread_looked() = 0;
  /// Act on one packet, however late or stale; operations it finishes are appended to
  /// `done`.
  virtual void handle(const packet& p, op_queue& done) = 0;
  /// Schedule the handlers of `done`: the first with `first`, the others with `rest`.
  virtual void complete(op_queue& done, completion_mode first, completion_mode rest) = 0;

protected:
  ~packet_handler() = default;
};

/// A way of running the port's dequeue.
class reactor_driver
{
public:
  virtual ~reactor_driver() = default;
  /// An operation was queued: the driver must be (or become) able to see its packet.
  virtual void operation_queued() = 0;
  /// Stop dequeuing for good; returns when no driver thread touches the port any more.
  virtual void stop() = 0;
};

/// Create the driver `options.driver` asks for, or the thread driver where the sockets'
/// executor `io_executor` does not belong to an io_context (then `options.driver` is
/// updated to say so).
std::unique_ptr<reactor_driver> make_driver(const boost::asio::any_io_executor& io_executor,
                                            reactor_options& options, port& p,
                                            packet_handler& handler);

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
