//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
#include "backends.hpp"

#if defined(BOOST_ASIO_NOTIFY_BENCH_PSN_DOUBLE)
#include "psn_double.hpp" // test/windows: ProcessSocketNotifications where Wine has none
#endif

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench {

namespace {

/// The backend the notify reactor picks by default here (`automatic`), or `automatic`
/// when it cannot run at all.
an::port_backend automatic_backend()
{
#if defined(_WIN32)
  try
  {
    boost::asio::io_context ioc;
    return boost::asio::make_service<an::reactor>(ioc, an::reactor_options{}).options().backend;
  }
  catch (const std::exception&)
  {
    return an::port_backend::automatic;
  }
#else
  return an::port_backend::automatic; // epoll, left unnamed in the rows on Linux
#endif
}

/// "driver=...,trigger=...", preceded by "backend=...," when a backend is named (Windows).
std::string options_spec(const an::reactor_options& o)
{
  return (o.backend == an::port_backend::automatic
              ? std::string()
              : std::string("backend=") + an::to_string(o.backend) + ",") +
         "driver=" + an::to_string(o.driver) + ",trigger=" +
         (o.trigger == an::trigger_strategy::persistent_edge ? "persistent_edge" : "oneshot_level");
}

/// `o` on the notify reactor. Rows for a named backend (Windows: psn, afd) name it, and
/// the default one is the backend `automatic` picks here.
backend notify_backend(const an::reactor_options& o,
                       an::port_backend default_backend = an::port_backend::automatic)
{
  const an::reactor_options defaults;
  backend b;
  b.notify = true;
  b.options = o;
  b.is_default =
      o.driver == defaults.driver && o.trigger == defaults.trigger && o.backend == default_backend;
  b.id = "notify:" + options_spec(o);
  std::string on;
  if (o.backend != an::port_backend::automatic)
    on = std::string(an::to_string(o.backend)) +
         (o.backend == an::port_backend::psn && psn_on_double ? " (double)" : "") + " ";
  b.label = "notify " + on + an::to_string(o.driver) + "/" +
            (o.trigger == an::trigger_strategy::persistent_edge ? "edge" : "oneshot") +
            (b.is_default ? " (default)" : "");
  return b;
}

} // namespace

std::string wine_version()
{
#if defined(_WIN32)
  const HMODULE ntdll = ::GetModuleHandleA("ntdll.dll");
  const FARPROC f = ntdll ? ::GetProcAddress(ntdll, "wine_get_version") : nullptr;
  if (!f)
    return "";
  using version_fn = const char* (*)();
  // Through void(*)(), which every compiler accepts as a generic function pointer.
  const char* v = reinterpret_cast<version_fn>(reinterpret_cast<void (*)()>(f))();
  return std::string("Wine ") + (v ? v : "");
#else
  return "";
#endif
}

bool psn_on_double = false;

#if defined(BOOST_ASIO_NOTIFY_BENCH_PSN_DOUBLE)
void install_psn_double()
{
  psn_double::install(); // for every port created from now on
  psn_on_double = true;
}
#endif

std::string unsupported_cause(an::port_backend b)
{
  if (an::is_supported(b))
    return "";
  try
  {
    static_cast<void>(an::port(b)); // throws, saying why
  }
  catch (const std::exception& e)
  {
    return std::string("this system lacks ") +
           (b == an::port_backend::automatic ? "socket state notifications" : an::to_string(b)) +
           ": " + e.what();
  }
  return std::string("this system lacks ") + an::to_string(b);
}

an::driver_kind default_driver_on(an::port_backend port)
{
#if defined(_WIN32)
  return port == an::port_backend::psn ? an::driver_kind::thread : an::driver_kind::io_context_port;
#else
  static_cast<void>(port);
  return an::default_driver_kind();
#endif
}

std::vector<backend> make_backends(bool variants)
{
  std::vector<backend> all;
  backend stock;
  stock.id = "stock";
#if defined(_WIN32)
  stock.label = "stock Asio (IOCP)";
  const an::port_backend ports[] = {an::port_backend::psn, an::port_backend::afd};
  // inline needs a POSIX io_context; io_context_port polls on AFD, one-shot level
  const an::driver_kind drivers[] = {an::driver_kind::thread, an::driver_kind::io_context_port};
#else
  stock.label = "stock Asio (epoll)";
  const an::port_backend ports[] = {an::port_backend::automatic};
  const an::driver_kind drivers[] = {an::driver_kind::inline_driver,
                                     an::driver_kind::inline_portable, an::driver_kind::thread};
#endif
  all.push_back(stock);
  const an::port_backend default_backend = automatic_backend();
  an::reactor_options defaults;
  for (auto port : ports)
  {
    defaults.backend = port;
    defaults.driver = default_driver_on(port);
    all.push_back(notify_backend(defaults, default_backend));
  }
  if (variants)
    for (auto port : ports)
      for (auto driver : drivers)
        for (auto trigger :
             {an::trigger_strategy::persistent_edge, an::trigger_strategy::oneshot_level})
        {
          an::reactor_options o = defaults;
          o.backend = port;
          o.driver = driver;
          o.trigger = trigger;
          const bool runs_as_asked =
              driver != an::driver_kind::io_context_port ||
              (port == an::port_backend::afd && trigger == an::trigger_strategy::oneshot_level);
          if (runs_as_asked && !(driver == default_driver_on(port) && trigger == defaults.trigger))
            all.push_back(notify_backend(o, default_backend));
        }
  return all;
}

backend backend_from_id(const std::string& id)
{
  if (id == "stock")
    return make_backends(false).front();
  if (id.compare(0, 7, "notify:") != 0)
    throw std::invalid_argument("unknown backend " + id);
  return notify_backend(an::parse_reactor_options(id.substr(7)), automatic_backend());
}

std::vector<std::string> driver_warnings;
an::reactor_statistics last_statistics;

std::string describe(const an::reactor_statistics& s)
{
  std::ostringstream out;
  out << "packets " << s.packets_dequeued << ", wake-ups " << s.wakeups << ", handed over "
      << s.packets_handed_over << ", io thread looks " << s.io_thread_looks << ", operations "
      << s.operations_completed;
  if (s.operations_completed)
    out << ", packets/operation "
        << static_cast<double>(s.packets_dequeued) / static_cast<double>(s.operations_completed);
  return out.str();
}

} // namespace bench
