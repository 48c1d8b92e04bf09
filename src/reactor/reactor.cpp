//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The `reactor` service object and its options.

#include <boost/asio_notify/detail/reactor_core.hpp>
#include <boost/asio_notify/reactor.hpp>

#include "../port/port_backend.hpp"

#include <boost/asio/error.hpp>
#include <boost/system/system_error.hpp>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <thread>

namespace boost {
namespace asio_notify {

namespace {

[[noreturn]] void bad_option(const std::string& what)
{
  throw boost::system::system_error(boost::asio::error::invalid_argument,
                                    std::string(reactor_options_variable) + ": " + what);
}

std::size_t parse_positive(const std::string& key, const std::string& value)
{
  std::size_t used = 0;
  unsigned long n = 0;
  try
  {
    n = std::stoul(value, &used);
  }
  catch (const std::exception&)
  {
    used = 0;
  }
  if (used != value.size() || n == 0 || n > 1u << 20)
    bad_option(key + " must be a positive integer, not '" + value + "'");
  return n;
}

bool parse_backend(const std::string& value, port_backend& b)
{
  for (port_backend candidate :
       {port_backend::automatic, port_backend::psn, port_backend::afd, port_backend::epoll})
    if (value == to_string(candidate))
    {
      b = candidate;
      return true;
    }
  return false;
}

// `adversary=KINDS` and `adversary_seed=N`, in either order (adversary.hpp).
void apply_adversary(reactor_options& o, const std::string& key, const std::string& value)
{
  try
  {
    adversary_options a = o.adversary ? *o.adversary : parse_adversary_options("");
    if (key == "adversary")
      a.kinds = parse_adversary_options(value).kinds;
    else
      a.seed = parse_adversary_options("seed=" + value).seed;
    o.adversary = a;
  }
  catch (const boost::system::system_error& e)
  {
    bad_option(key + ": " + e.what());
  }
}

void apply_option(reactor_options& o, const std::string& key, const std::string& value)
{
  if (key == "driver" && value == to_string(driver_kind::inline_driver))
    o.driver = driver_kind::inline_driver;
  else if (key == "driver" && value == to_string(driver_kind::inline_portable))
    o.driver = driver_kind::inline_portable;
  else if (key == "driver" && value == to_string(driver_kind::thread))
    o.driver = driver_kind::thread;
  else if (key == "driver" && value == to_string(driver_kind::io_context_port))
    o.driver = driver_kind::io_context_port;
  else if (key == "trigger" && (value == "oneshot_level" || value == "persistent_edge"))
    o.trigger = value == "oneshot_level" ? trigger_strategy::oneshot_level
                                         : trigger_strategy::persistent_edge;
  else if (key == "backend" && parse_backend(value, o.backend))
    ;
  else if (key == "adversary" || key == "adversary_seed")
    apply_adversary(o, key, value);
  else if (key == "receives" && (value == "overlapped" || value == "readiness"))
    o.overlapped_receives = value == "overlapped";
  else if (key == "sends" && (value == "overlapped" || value == "readiness"))
    o.overlapped_sends = value == "overlapped";
  else if (key == "batch")
    o.batch_size = parse_positive(key, value);
  else if (key == "threads")
    o.threads = parse_positive(key, value);
  else
    bad_option("unknown setting '" + key + "=" + value +
               "' (driver=inline|inline_portable|thread|io_context_port, "
               "trigger=oneshot_level|persistent_edge, batch=N, threads=N, "
               "backend=automatic|psn|afd|epoll, receives=overlapped|readiness, "
               "sends=overlapped|readiness, "
               "adversary=KIND+KIND, "
               "adversary_seed=N)");
}

} // namespace

trigger_strategy default_trigger_strategy() noexcept
{
#if defined(_WIN32)
  return trigger_strategy::oneshot_level;
#else
  return trigger_strategy::persistent_edge;
#endif
}

const char* to_string(driver_kind d) noexcept
{
  switch (d)
  {
  case driver_kind::inline_driver:
    return "inline";
  case driver_kind::inline_portable:
    return "inline_portable";
  case driver_kind::io_context_port:
    return "io_context_port";
  case driver_kind::thread:
    break;
  }
  return "thread";
}

std::size_t default_reactor_threads() noexcept
{
  // A reactor thread only dequeues and hands batches over: one keeps up with the I/O of
  // several io_context threads. Beyond 8 cores a second one (up to 4) keeps a dequeue
  // always waiting while another thread is handing a batch over.
  const std::size_t cores = std::thread::hardware_concurrency();
  return std::clamp<std::size_t>(cores / 8, 1, 4);
}

driver_kind default_driver_kind() noexcept
{
#if defined(_WIN32)
  // PSN, the documented API, keeps its second port; AFD polls on the io_context's own.
  return detail::automatic_backend() == port_backend::afd ? driver_kind::io_context_port
                                                          : driver_kind::thread;
#else
  return driver_kind::inline_driver;
#endif
}

reactor_options parse_reactor_options(const std::string& spec, reactor_options base)
{
  std::istringstream in(spec);
  std::string item;
  while (std::getline(in, item, ','))
  {
    if (item.empty())
      continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos)
      bad_option("expected key=value, not '" + item + "'");
    apply_option(base, item.substr(0, eq), item.substr(eq + 1));
  }
  return base;
}

reactor_options reactor_options_from_environment(reactor_options base)
{
  const char* spec = std::getenv(reactor_options_variable);
  return spec ? parse_reactor_options(spec, base) : base;
}

boost::asio::execution_context::id reactor::id;

reactor::reactor(boost::asio::execution_context& context)
    : reactor(context, reactor_options_from_environment())
{
}

reactor::reactor(boost::asio::execution_context& context, reactor_options options)
    : boost::asio::execution_context::service(context), core_(new detail::reactor_core(options))
{
}

reactor::~reactor() = default;

void reactor::shutdown() { core_->shutdown(); }

reactor_options reactor::options() const { return core_->options(); }

reactor_statistics reactor::statistics() const noexcept { return core_->statistics(); }

} // namespace asio_notify
} // namespace boost
