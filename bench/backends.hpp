//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The backends a run compares: stock Asio and the notify reactor in each driver/trigger
// configuration (and, on Windows, on each port backend), and `on_backend`, which runs a
// scenario on a fresh io_context with one backend's sockets.
#ifndef BOOST_ASIO_NOTIFY_BENCH_BACKENDS_HPP
#define BOOST_ASIO_NOTIFY_BENCH_BACKENDS_HPP

#include "report.hpp"

#include <boost/asio_notify/ip/tcp.hpp>
#include <boost/asio_notify/port.hpp>
#include <boost/asio_notify/reactor.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <string>
#include <vector>

namespace bench {

namespace an = boost::asio_notify;

/// Whether this Windows program runs under Wine (whose ntdll exports wine_get_version), and
/// which Wine; "" on Windows and elsewhere.
std::string wine_version();

/// Whether the PSN rows run on the test double (--psn-double where the system has no PSN).
extern bool psn_on_double;

#if defined(BOOST_ASIO_NOTIFY_BENCH_PSN_DOUBLE)
/// Set for the child processes of a run on the double, which install it too.
inline constexpr const char* psn_double_variable = "BOOST_ASIO_NOTIFY_BENCH_PSN_DOUBLE";

/// Installs the double for every port created from now on; sets psn_on_double.
void install_psn_double();
#endif

/// Why a port on `b` cannot be created here, or "" when it can.
std::string unsupported_cause(an::port_backend b);

/// The driver a reactor on `port` gets by default: on Windows, the thread driver on PSN and
/// io_context_port on AFD (reactor.hpp, default_driver_kind).
an::driver_kind default_driver_on(an::port_backend port);

/** Stock Asio, then the notify reactor's default configuration, then the other ones. On
    Windows the notify rows come for each port backend, PSN and AFD (the default
    configuration on each, then the variants on each); elsewhere the one backend (epoll)
    goes unnamed. */
std::vector<backend> make_backends(bool variants);

/// The backend an id names ("stock" or "notify:<spec>"), for child processes.
backend backend_from_id(const std::string& id);

template <class Protocol>
struct protocol_tag
{
  using type = Protocol;
};

/// What the drivers did otherwise than asked, for the notes ("warning: " lines of a child).
extern std::vector<std::string> driver_warnings;
/// Of the last notify run of on_backend.
extern an::reactor_statistics last_statistics;

/// The statistics in one line, as a child prints them.
std::string describe(const an::reactor_statistics& s);

/** Run `f(ioc, protocol_tag<Tcp>)` on a fresh io_context whose sockets are `b`'s: stock
    Asio's, or the notify reactor's, installed with b's options before any socket exists
    (which throws, operation_not_supported, for a backend this system lacks). A run on
    another port backend than the one asked for is that run's failure. */
template <class F>
auto on_backend(const backend& b, F&& f)
{
  boost::asio::io_context ioc;
  if (!b.notify)
    return f(ioc, protocol_tag<boost::asio::ip::tcp>{});
  auto& reactor = boost::asio::make_service<an::reactor>(ioc, b.options);
  auto result = f(ioc, protocol_tag<an::ip::tcp>{});
  last_statistics = reactor.statistics();
  const an::reactor_options used = reactor.options();
  if (used.driver != b.options.driver)
    driver_warnings.push_back(b.label + " ran with another driver than asked for");
  if (b.options.backend != an::port_backend::automatic && used.backend != b.options.backend &&
      result.error.empty())
    result.error = std::string("ran on the ") + an::to_string(used.backend) +
                   " backend, not on the " + an::to_string(b.options.backend) + " one asked for";
  return result;
}

} // namespace bench

#endif
