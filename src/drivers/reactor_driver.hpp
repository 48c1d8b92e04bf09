//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The drivers decide which threads dequeue the port (design.md, "Drivers").
#ifndef BOOST_ASIO_NOTIFY_SRC_DRIVERS_REACTOR_DRIVER_HPP
#define BOOST_ASIO_NOTIFY_SRC_DRIVERS_REACTOR_DRIVER_HPP

#include "../reactor/reactor_counters.hpp"
#include "../reactor/transfer_channel.hpp"

#include <boost/asio_notify/detail/reactor_core.hpp>
#include <boost/asio_notify/detail/reactor_op.hpp>
#include <boost/asio_notify/port.hpp>
#include <boost/asio_notify/reactor.hpp>

#include <boost/asio/any_io_executor.hpp>

#include <atomic>
#include <memory>
#include <optional>

namespace boost {
namespace asio {
class io_context;
} // namespace asio

namespace asio_notify {
namespace detail {

/// The reactor as its driver sees it: what the driver hands dequeued packets to
/// (`handle`, `complete`, `transfer_completed`) and what it counts in (`counters`). The
/// reactor itself (src/reactor/reactor_impl.hpp), called without a virtual call; the
/// parts a test gives a recording reactor to (shared_batch.hpp, io_thread_dequeuer.hpp)
/// take it as a template parameter.
using driven_reactor = reactor_core::impl;

/// The reactor's own port, opened when a driver first needs it: the io_context_port driver
/// polls through the io_context's completion port and needs none of its own.
class own_port
{
public:
  /// Opens the port now (`options.backend` then names what runs), unless `options` asks for
  /// the io_context_port driver on AFD and AFD is there: that driver may need none.
  explicit own_port(reactor_options& options);

  /// The port, opened now if it was not (then `options.backend` names what runs). Call under
  /// the lock that settles the driver.
  port& get();

  /// The port, or null while none was opened: then no socket is registered in it.
  port* opened() const noexcept { return opened_.load(std::memory_order_acquire); }

  /// The backend the port has, or will have when it is opened.
  port_backend backend() const noexcept { return options_.backend; }

private:
  reactor_options& options_;
  std::optional<port> port_;
  std::atomic<port*> opened_{nullptr};
};

/// A way of running the port's dequeue.
class reactor_driver
{
public:
  virtual ~reactor_driver() = default;
  /// An operation was queued: the driver must be (or become) able to see its packet.
  /// Returns whether it wants to be told again; once false, the reactor never calls it.
  virtual bool operation_queued() = 0;
  /// Stop dequeuing for good; returns when no driver thread touches the port any more.
  virtual void stop() = 0;

  /// Applies registrations where they are not the reactor's port's: the io_context_port
  /// driver polls through the io_context's port. False (nothing applied) otherwise.
  virtual bool apply(boost::span<registration> regs)
  {
    static_cast<void>(regs);
    return false;
  }

  /// Whether a registration left armed holds the io_context's work (a poll in flight is
  /// counted as Asio counts its own): the reactor then disarms what nothing waits for.
  virtual bool polls_hold_work() const noexcept { return false; }

  /// Where stream transfers go on as overlapped receives and sends; null where they go
  /// through readiness (every driver but io_context_port).
  virtual channel_issuer* channels() noexcept { return nullptr; }
};

/// Create the driver `options.driver` asks for, or the next that the sockets' executor
/// `io_executor`, this Boost and the port allow (then `options` says which runs and
/// `fallback` why). In driver_factory.cpp.
std::unique_ptr<reactor_driver> make_driver(const boost::asio::any_io_executor& io_executor,
                                            reactor_options& options, own_port& p,
                                            driven_reactor& reactor, const char*& fallback);

/// The io_context_port driver on `ioc`'s completion port; null where this Boost's io_context
/// is not of the shape it needs (io_context_port_shape.hpp) or not on Windows. In
/// win/io_context_port_driver.cpp (elsewhere driver_factory.cpp).
std::unique_ptr<reactor_driver> make_io_context_port_driver(boost::asio::io_context& ioc,
                                                            driven_reactor& reactor);

/// The inline driver `options.driver` asks for, or the next best one that this Boost and
/// this io_context allow (`options.driver` says which); null where neither can run. In
/// inline_drivers.cpp.
std::unique_ptr<reactor_driver> make_inline_driver(boost::asio::io_context& ioc,
                                                   reactor_options& options, port& p,
                                                   driven_reactor& reactor);

/// Reactor threads that hand their batches to `context_executor`'s threads, or perform
/// them where it is empty. In thread_driver.cpp.
std::unique_ptr<reactor_driver> make_thread_driver(port& p, driven_reactor& reactor,
                                                   const reactor_options& options,
                                                   boost::asio::any_io_executor context_executor);

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
