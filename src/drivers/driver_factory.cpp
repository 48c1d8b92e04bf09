//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Which driver a reactor gets, from its first socket's executor (design.md, "Choosing").

#include "io_context_port_shape.hpp"
#include "reactor_driver.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>

namespace boost {
namespace asio_notify {
namespace detail {

namespace {

// The io_context behind an executor, where the executor says so through public API.
boost::asio::io_context* io_context_of(const boost::asio::any_io_executor& ex)
{
  using io_executor = boost::asio::io_context::executor_type;
  if (const auto* e = ex.target<io_executor>())
    return &e->context();
  if (const auto* s = ex.target<boost::asio::strand<io_executor>>())
    return &s->get_inner_executor().context();
  return nullptr;
}

// The executor of the context whose threads run an I/O executor's work (an io_context or a
// thread pool, directly or through a strand: the strand is the handlers' business, not
// the I/O's); empty where the executor does not say.
boost::asio::any_io_executor context_executor_of(const boost::asio::any_io_executor& ex)
{
  using pool_executor = boost::asio::thread_pool::executor_type;
  if (boost::asio::io_context* ioc = io_context_of(ex))
    return ioc->get_executor();
  if (const auto* e = ex.target<pool_executor>())
    return *e;
  if (const auto* s = ex.target<boost::asio::strand<pool_executor>>())
    return s->get_inner_executor();
  return {};
}

// The io_context_port driver where the executor, the port and this Boost allow it; else
// null, and `fallback` says why.
std::unique_ptr<reactor_driver>
io_context_port_driver(const boost::asio::any_io_executor& io_executor, reactor_options& options,
                       const own_port& p, driven_reactor& reactor, const char*& fallback)
{
  boost::asio::io_context* ioc = io_context_of(io_executor);
  if (!ioc)
  {
    fallback = "io_context_port needs an io_context (or a strand of one) as the sockets' executor";
    return nullptr;
  }
  if (p.backend() != port_backend::afd)
  {
    fallback = "io_context_port polls through AFD, and this reactor's port is not on AFD";
    return nullptr;
  }
  auto driver = make_io_context_port_driver(*ioc, reactor);
  if (!driver)
  {
    fallback = "io_context_port needs Asio's completion-port io_context, of the shape checked "
               "in src/drivers/io_context_port_shape.hpp";
    return nullptr;
  }
  if (options.trigger != trigger_strategy::oneshot_level)
  {
    options.trigger = trigger_strategy::oneshot_level;
    fallback = "io_context_port registers one-shot level: emulated edges need a thread that "
               "waits in the port to sample them";
  }
  return driver;
}

} // namespace

own_port::own_port(reactor_options& options) : options_(options)
{
  if (options.driver != driver_kind::io_context_port || options.backend != port_backend::afd ||
      !is_supported(port_backend::afd))
    get(); // fails here, where the reactor is made, as any port would
}

port& own_port::get()
{
  if (!port_)
  {
    port_.emplace(options_.backend, *options_.adversary);
    options_.backend = port_->backend(); // what runs, as options() reports the driver
    opened_.store(&*port_, std::memory_order_release);
  }
  return *port_;
}

std::unique_ptr<reactor_driver> make_driver(const boost::asio::any_io_executor& io_executor,
                                            reactor_options& options, own_port& p,
                                            driven_reactor& reactor, const char*& fallback)
{
  fallback = nullptr;
  if (options.driver == driver_kind::io_context_port)
  {
    if (auto driver = io_context_port_driver(io_executor, options, p, reactor, fallback))
      return driver;
    options.driver = driver_kind::inline_driver; // the next best where the platform has it
  }
  if (options.driver != driver_kind::thread)
    if (boost::asio::io_context* ioc = io_context_of(io_executor))
      if (auto driver = make_inline_driver(*ioc, options, p.get(), reactor))
        return driver;
  options.driver = driver_kind::thread;
  return make_thread_driver(p.get(), reactor, options, context_executor_of(io_executor));
}

#if !defined(BOOST_ASIO_NOTIFY_HAS_IOCP_TYPES)
// Asio's io_context runs on a completion port on Windows alone (src/drivers/win/ has the driver).
std::unique_ptr<reactor_driver> make_io_context_port_driver(boost::asio::io_context&,
                                                            driven_reactor&)
{
  return nullptr;
}
#endif

} // namespace detail
} // namespace asio_notify
} // namespace boost
