//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Shared by the reactor-level suites (service, fault, soak): every reactor configuration,
// a connected pair of sockets on one io_context, and a read pending on such a pair.
#ifndef BOOST_ASIO_NOTIFY_TEST_SUPPORT_REACTOR_CONFIGS_HPP
#define BOOST_ASIO_NOTIFY_TEST_SUPPORT_REACTOR_CONFIGS_HPP

#include "support/tcp_pair.hpp"

#include <boost/asio_notify.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/test/unit_test.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace test_support {

namespace an = boost::asio_notify;
using tcp = an::ip::tcp;

/// The drivers an io_context can run on this platform: the inline ones wait through the
/// io_context's epoll reactor (POSIX only).
inline std::vector<an::driver_kind> platform_drivers()
{
#if defined(_WIN32)
  return {an::driver_kind::thread, an::driver_kind::io_context_port};
#else
  return {an::driver_kind::inline_driver, an::driver_kind::inline_portable,
          an::driver_kind::thread};
#endif
}

/// Every driver of this platform times both trigger strategies.
inline std::vector<an::reactor_options> all_configurations()
{
  std::vector<an::reactor_options> v;
  for (auto d : platform_drivers())
    for (auto t : {an::trigger_strategy::oneshot_level, an::trigger_strategy::persistent_edge})
    {
      an::reactor_options o;
      o.driver = d;
      o.trigger = t;
      if (d == an::driver_kind::io_context_port)
      {
        if (t != an::trigger_strategy::oneshot_level)
          continue; // it registers one-shot level only (reactor_statistics::driver_note)
        o.backend = an::port_backend::afd; // whatever the run's port: its only backend
      }
      v.push_back(o);
    }
  return v;
}

/// Whether a configuration's packets pass the port's dequeue, which the adversarial port
/// decorates: io_context_port's polls complete inside run() without it.
inline bool meets_the_adversary(const an::reactor_options& o)
{
  return o.driver != an::driver_kind::io_context_port;
}

inline std::string describe(const an::reactor_options& o)
{
  return std::string(an::to_string(o.driver)) + "/" +
         (o.trigger == an::trigger_strategy::oneshot_level ? "oneshot_level" : "persistent_edge");
}

/// Runs `body(o)` for every configuration `o` (all_configurations), each in a test context
/// that names it.
template <class Body>
void for_each_reactor_options(Body body)
{
  for (const an::reactor_options& o : all_configurations())
    BOOST_TEST_CONTEXT(describe(o)) { body(o); }
}

/// Create the io_context's reactor with `o` (before any socket).
inline an::reactor& install(boost::asio::io_context& ioc, const an::reactor_options& o)
{
  return boost::asio::make_service<an::reactor>(ioc, o);
}

/// Whether `r` reads through overlapped receives (the io_context_port driver): they need no
/// readiness packet, and hear a peer's reset as Windows reports it, where Wine's
/// non-blocking receive reports end of file.
inline bool reads_overlapped(const an::reactor& r)
{
  const an::reactor_options o = r.options();
  return o.driver == an::driver_kind::io_context_port && o.overlapped_receives;
}

/// Whether this run's reactors use the adversarial port (BOOST_ASIO_NOTIFY_ADVERSARY).
inline bool on_adversarial_port()
{
  return an::adversary_from_environment().kinds != an::adversity::none;
}

/// A Boost.Test precondition for cases that measure what a cooperative port does (how
/// packets gather into wake-ups): an adversarial port splits batches and wakes early on
/// purpose (doc/port_contract.md, "The adversarial port").
inline boost::test_tools::assertion_result cooperative_port(boost::unit_test::test_unit_id)
{
  boost::test_tools::assertion_result r(!on_adversarial_port());
  r.message() << "measures a cooperative port's batching; this run's port is adversarial";
  return r;
}

/// A connected pair of our sockets over loopback.
using tcp_pair = basic_tcp_pair<tcp::socket>;

inline tcp_pair make_tcp_pair(boost::asio::io_context& ioc)
{
  return make_basic_tcp_pair<tcp>(ioc);
}

/// Starts a read of one byte into `c` on `s` whose handler checks that it succeeded and
/// counts its calls in `calls`.
template <class Socket>
void start_counted_read(Socket& s, char& c, int& calls)
{
  s.async_read_some(boost::asio::buffer(&c, 1),
                    [&calls](boost::system::error_code ec, std::size_t) {
                      BOOST_TEST(!ec);
                      ++calls;
                    });
}

/// An io_context whose reactor runs with given options, a connected pair on it, and a
/// counted read of one byte into `c` (start_counted_read) pending on the pair's server: where
/// the service and fault suites check when such a read completes.
struct counted_read_fixture
{
  explicit counted_read_fixture(const an::reactor_options& o)
      : reactor(install(ioc, o)), p(make_tcp_pair(ioc))
  {
    start_read();
  }

  /// Starts the next counted read, once the last one has completed.
  void start_read() { start_counted_read(p.server, c, calls); }

  boost::asio::io_context ioc;
  an::reactor& reactor;
  tcp_pair p;
  char c = 0;
  int calls = 0;
};

} // namespace test_support

#endif
