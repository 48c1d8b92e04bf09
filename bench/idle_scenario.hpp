//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Scenario 4: the resident memory of idle connections, each with a pending wait.
#ifndef BOOST_ASIO_NOTIFY_BENCH_IDLE_SCENARIO_HPP
#define BOOST_ASIO_NOTIFY_BENCH_IDLE_SCENARIO_HPP

#include "peers.hpp"
#include "process.hpp"
#include "scenario_support.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/socket_base.hpp>

#include <memory>
#include <string>
#include <vector>

namespace bench {

// ---- 4. idle connections ----------------------------------------------------------------------

struct idle_result
{
  std::string error;
  double bytes_per_connection = 0;
  long rss_before_kib = 0;
  long rss_after_kib = 0;
  std::size_t connections = 0;
};

/** Resident memory of `count` accepted connections each holding a pending
    async_wait(wait_read), the peers in another process. Meant for a fresh process:
    everything allocated once per process (the reactor, its threads, first-use caches) is
    created by one warm-up connection before the first measurement. */
template <class Tcp>
idle_result run_idle(boost::asio::io_context& ioc, std::size_t count)
{
  using socket = typename Tcp::socket;
  idle_result r;
  r.connections = count;
  auto ignore = [](const error_code&) {
  };
  typename Tcp::acceptor acceptor(ioc, loopback_any_port<Tcp>());
  {
    socket client(ioc);
    socket server(ioc);
    connect_pair<Tcp>(acceptor, client, server);
    server.async_wait(boost::asio::socket_base::wait_read, ignore);
    ioc.restart();
    ioc.poll();
    server.close();
    client.close();
    ioc.restart();
    ioc.run();
  }
  r.rss_before_kib = resident_kib();
  std::unique_ptr<peer_group> peers = start_peers(acceptor.local_endpoint().port(), count);
  if (!peers->separate_process())
  {
    r.error = "needs the peers in a child process";
    return r;
  }
  std::vector<socket> sockets;
  sockets.reserve(count);
  for (std::size_t i = 0; i < count; ++i)
  {
    sockets.emplace_back(ioc);
    acceptor.accept(sockets.back());
    sockets.back().async_wait(boost::asio::socket_base::wait_read, ignore);
  }
  if (!peers->wait_connected())
  {
    r.error = "the peers could not connect";
    return r;
  }
  ioc.restart();
  ioc.poll(); // whatever the waits still had to do to be registered
  r.rss_after_kib = resident_kib();
  if (r.rss_before_kib < 0 || r.rss_after_kib < 0)
    r.error = "no resident memory counter here";
  r.bytes_per_connection =
      static_cast<double>(r.rss_after_kib - r.rss_before_kib) * 1024.0 / static_cast<double>(count);
  for (socket& s : sockets)
    s.close();
  ioc.restart();
  ioc.run();
  return r;
}

} // namespace bench

#endif
