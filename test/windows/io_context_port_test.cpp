//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The io_context_port driver (src/drivers/win/io_context_port_driver.cpp): readiness completed by
// io_context::run() itself, with no thread of the reactor's; the io_context's work counted
// right through cancellation, stop() and restart(); its destruction with polls in flight
// neither hanging nor leaking. Under Wine on AFD's real readiness.

#include <boost/asio_notify.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/asio/write.hpp>
#include <boost/test/unit_test.hpp>

#include "../support/open_descriptors.hpp"
#include "../support/returns_in_time.hpp"
#include "../support/thread_count.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <thread>
#include <vector>

namespace an = boost::asio_notify;
namespace asio = boost::asio;
using boost::system::error_code;
using tcp = an::ip::tcp;

using test_support::returns_in_time;
using test_support::thread_count;

namespace {

constexpr auto generous = std::chrono::seconds(20);
const auto loopback = asio::ip::address_v4::loopback();

an::reactor_options on_the_io_context_port()
{
  an::reactor_options o;
  o.driver = an::driver_kind::io_context_port;
  o.backend = an::port_backend::afd;
  return o;
}

struct context
{
  context() : reactor(asio::make_service<an::reactor>(ioc, on_the_io_context_port())) {}
  asio::io_context ioc;
  an::reactor& reactor;
};

// `n` connected pairs, accepted and connected with the operations under test.
void connect_pairs(asio::io_context& ioc, std::vector<tcp::socket>& clients,
                   std::vector<tcp::socket>& servers, std::size_t n)
{
  tcp::acceptor acceptor(ioc, tcp::endpoint(loopback, 0));
  std::size_t accepted = 0, connected = 0;
  for (std::size_t i = 0; i < n; ++i)
  {
    clients.emplace_back(ioc);
    servers.emplace_back(ioc);
  }
  for (std::size_t i = 0; i < n; ++i)
  {
    acceptor.async_accept(servers[i], [&](error_code ec) { accepted += !ec; });
    clients[i].async_connect(acceptor.local_endpoint(), [&](error_code ec) { connected += !ec; });
  }
  ioc.restart();
  ioc.run_for(generous);
  BOOST_REQUIRE_EQUAL(accepted, n);
  BOOST_REQUIRE_EQUAL(connected, n);
}

} // namespace

BOOST_AUTO_TEST_CASE(runs_as_asked_and_starts_no_thread)
{
  const std::size_t before = thread_count();
  context c;
  std::vector<tcp::socket> clients, servers;
  connect_pairs(c.ioc, clients, servers, 1);
  BOOST_TEST(an::to_string(c.reactor.options().driver) == "io_context_port");
  BOOST_TEST(!c.reactor.statistics().driver_note);
  BOOST_TEST(c.reactor.statistics().packets_dequeued > 0u);
  BOOST_TEST(thread_count() == before);
}

// Its polls go through the io_context's port: the reactor opens no completion port (nor AFD
// helper) of its own, unless the driver falls back to one that dequeues a port.
BOOST_AUTO_TEST_CASE(the_reactor_opens_no_port_of_its_own)
{
  BOOST_REQUIRE(an::is_supported(an::port_backend::afd)); // its first call opens a helper once
  {
    asio::io_context ioc;
    const long before = test_support::open_descriptors();
    auto& r = asio::make_service<an::reactor>(ioc, on_the_io_context_port());
    BOOST_TEST((r.options().backend == an::port_backend::afd));
    BOOST_TEST(test_support::open_descriptors() == before);
  }
  asio::thread_pool pool(1); // no io_context: the thread driver, on a port of the reactor's
  const long before = test_support::open_descriptors();
  auto& r = asio::make_service<an::reactor>(pool, on_the_io_context_port());
  BOOST_TEST(test_support::open_descriptors() == before);
  tcp::acceptor acceptor(pool, tcp::endpoint(loopback, 0));
  tcp::socket client(pool);
  std::future<void> connected = client.async_connect(acceptor.local_endpoint(), asio::use_future);
  tcp::socket server = acceptor.accept();
  BOOST_TEST((connected.wait_for(generous) == std::future_status::ready));
  connected.get();
  BOOST_TEST(an::to_string(r.options().driver) == "thread");
  BOOST_TEST(test_support::open_descriptors() > before);
}

BOOST_AUTO_TEST_CASE(edges_asked_for_are_one_shot_level_with_the_reason)
{
  an::reactor_options o = on_the_io_context_port();
  o.trigger = an::trigger_strategy::persistent_edge;
  asio::io_context ioc;
  auto& r = asio::make_service<an::reactor>(ioc, o);
  tcp::socket s(ioc);
  BOOST_TEST(an::to_string(r.options().driver) == "io_context_port");
  BOOST_TEST((r.options().trigger == an::trigger_strategy::oneshot_level));
  BOOST_REQUIRE(r.statistics().driver_note);
  BOOST_TEST_MESSAGE(r.statistics().driver_note);
}

BOOST_AUTO_TEST_CASE(a_psn_port_falls_back_to_the_thread_driver_with_the_reason)
{
  an::reactor_options o = on_the_io_context_port();
  o.backend = an::port_backend::psn; // the test double under Wine
  asio::io_context ioc;
  auto& r = asio::make_service<an::reactor>(ioc, o);
  tcp::socket s(ioc);
  BOOST_TEST(an::to_string(r.options().driver) == "thread");
  BOOST_REQUIRE(r.statistics().driver_note);
}

// 100 sockets waiting at once (several helpers of 32), on 1 to 4 threads: every read
// completes, each once.
BOOST_AUTO_TEST_CASE(many_sockets_on_one_to_four_threads)
{
  constexpr std::size_t n = 100;
  for (std::size_t threads = 1; threads <= 4; ++threads)
  {
    context c;
    std::vector<tcp::socket> clients, servers;
    connect_pairs(c.ioc, clients, servers, n);
    std::vector<std::array<char, 4>> got(n);
    std::atomic<std::size_t> read{0};
    for (std::size_t i = 0; i < n; ++i)
      asio::async_read(servers[i], asio::buffer(got[i]),
                       [&](error_code ec, std::size_t k) { read += !ec && k == 4; });
    for (std::size_t i = 0; i < n; ++i)
      asio::write(clients[i], asio::buffer("ping", 4));
    c.ioc.restart();
    std::vector<std::thread> pool;
    for (std::size_t t = 0; t < threads; ++t)
      pool.emplace_back([&] { c.ioc.run_for(generous); });
    for (std::thread& t : pool)
      t.join();
    BOOST_TEST(read.load() == n, threads << " threads");
  }
}

// A poll in flight counts as the io_context's work only while an operation waits for it:
// once the operation is cancelled, run() returns, as it does with Asio's own sockets.
BOOST_AUTO_TEST_CASE(run_returns_once_nothing_waits)
{
  context c;
  std::vector<tcp::socket> clients, servers;
  connect_pairs(c.ioc, clients, servers, 1);
  char buf[4];
  error_code result;
  asio::cancellation_signal signal;
  servers[0].async_read_some(asio::buffer(buf),
                             asio::bind_cancellation_slot(
                                 signal.slot(), [&](error_code ec, std::size_t) { result = ec; }));
  asio::post(c.ioc, [&] { signal.emit(asio::cancellation_type::terminal); });
  c.ioc.restart();
  BOOST_REQUIRE(returns_in_time([&] { c.ioc.run(); }));
  BOOST_TEST((result == asio::error::operation_aborted), result.message());
  // The same after cancel(): the socket's registration no longer holds the context.
  servers[0].async_read_some(asio::buffer(buf), [&](error_code ec, std::size_t) { result = ec; });
  asio::post(c.ioc, [&] { servers[0].cancel(); });
  c.ioc.restart();
  BOOST_REQUIRE(returns_in_time([&] { c.ioc.run(); }));
  BOOST_TEST((result == asio::error::operation_aborted), result.message());
}

// stop() leaves the polls in flight counted; after restart() they complete as before.
BOOST_AUTO_TEST_CASE(stop_and_restart_keep_the_count)
{
  context c;
  std::vector<tcp::socket> clients, servers;
  connect_pairs(c.ioc, clients, servers, 1);
  std::array<char, 4> got{};
  std::size_t read = 0;
  asio::async_read(servers[0], asio::buffer(got), [&](error_code ec, std::size_t) { read += !ec; });
  c.ioc.restart();
  c.ioc.stop();
  BOOST_TEST(c.ioc.run() == 0u);
  asio::write(clients[0], asio::buffer("ping", 4));
  c.ioc.restart();
  BOOST_REQUIRE(returns_in_time([&] { c.ioc.run(); })); // the read, then nothing pending
  BOOST_TEST(read == 1u);
}

// The io_context destroyed with polls in flight: Asio's shutdown waits for each counted
// poll (an infinite wait), so a poll left uncancelled or miscounted would hang here. Every
// handler is destroyed, none invoked.
BOOST_AUTO_TEST_CASE(destruction_with_polls_in_flight_neither_hangs_nor_leaks)
{
  auto alive = std::make_shared<int>(0);
  std::size_t invoked = 0;
  BOOST_REQUIRE(returns_in_time([&] {
    context c;
    std::vector<tcp::socket> clients, servers;
    connect_pairs(c.ioc, clients, servers, 40);
    static char buf[4];
    for (tcp::socket& s : servers)
    {
      // Owned by its handlers, as in a server: it goes when they are destroyed.
      auto owned = std::make_shared<tcp::socket>(std::move(s));
      owned->async_read_some(asio::buffer(buf),
                             [&, alive, owned](error_code, std::size_t) { ++invoked; });
      owned->async_wait(tcp::socket::wait_error, [&, alive, owned](error_code) { ++invoked; });
    }
    c.ioc.restart();
    c.ioc.poll(); // the polls are issued and in flight
    BOOST_TEST(alive.use_count() == 81);
    clients.erase(clients.begin() + 20,
                  clients.end()); // and some complete meanwhile (end of stream), not yet dequeued
  }));
  BOOST_TEST(invoked == 0u);
  BOOST_TEST(alive.use_count() == 1);
}
