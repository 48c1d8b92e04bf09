//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The reactor and the socket types on the Windows backend (Winsock socket operations, the
// completion port), under Wine with the PSN double installed by the fixture. Only public
// API; every case runs on the thread driver with both trigger strategies and, where the
// backend is AFD, on the io_context_port driver.

#include <boost/asio_notify.hpp>
#include <boost/asio_notify/detail/socket_ops.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/test/unit_test.hpp>

#include <array>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace an = boost::asio_notify;
namespace asio = boost::asio;
using boost::system::error_code;
using tcp = an::ip::tcp;
using udp = an::ip::udp;

namespace {

constexpr auto generous = std::chrono::seconds(20);
const auto loopback = asio::ip::address_v4::loopback();

std::vector<an::reactor_options> strategies()
{
  std::vector<an::reactor_options> v(2);
  v[0].trigger = an::trigger_strategy::oneshot_level;
  v[1].trigger = an::trigger_strategy::persistent_edge;
  for (an::reactor_options& o : v)
    o.driver = an::driver_kind::thread;
  if (an::default_driver_kind() == an::driver_kind::io_context_port)
    v.emplace_back(); // the AFD default: on the io_context's own port
  return v;
}

struct context
{
  explicit context(const an::reactor_options& o) : reactor(asio::make_service<an::reactor>(ioc, o))
  {
  }
  asio::io_context ioc;
  an::reactor& reactor;
};

// A connected TCP pair made with the asynchronous operations under test.
void connect_pair(asio::io_context& ioc, tcp::socket& client, tcp::socket& server)
{
  tcp::acceptor acceptor(ioc, tcp::endpoint(loopback, 0));
  error_code accept_ec = asio::error::would_block, connect_ec = asio::error::would_block;
  acceptor.async_accept(server, [&](error_code ec) { accept_ec = ec; });
  client.async_connect(acceptor.local_endpoint(), [&](error_code ec) { connect_ec = ec; });
  ioc.restart();
  ioc.run_for(generous);
  BOOST_REQUIRE(!accept_ec);
  BOOST_REQUIRE(!connect_ec);
}

} // namespace

// PSN keeps its own port and the thread driver; AFD polls on the io_context's port.
BOOST_AUTO_TEST_CASE(the_windows_default_driver_follows_the_backend)
{
  asio::io_context ioc;
  tcp::socket s(ioc);
  const an::reactor& r = asio::use_service<an::reactor>(ioc);
  const auto expected = r.options().backend == an::port_backend::psn
                            ? an::driver_kind::thread
                            : an::driver_kind::io_context_port;
  BOOST_TEST(an::to_string(r.options().driver) == an::to_string(expected));
  BOOST_TEST(an::to_string(an::default_driver_kind()) == an::to_string(expected));
  BOOST_TEST((r.options().trigger == an::trigger_strategy::oneshot_level));
  BOOST_TEST(!r.statistics().driver_note); // it runs as asked
}

BOOST_AUTO_TEST_CASE(tcp_echo_and_end_of_stream)
{
  for (const auto& o : strategies())
  {
    context c(o);
    tcp::socket client(c.ioc), server(c.ioc);
    connect_pair(c.ioc, client, server);
    std::array<char, 5> echoed{}, got{};
    asio::async_read(server, asio::buffer(got), [&](error_code ec, std::size_t n) {
      BOOST_TEST(!ec);
      asio::async_write(server, asio::buffer(got, n), [](error_code, std::size_t) {});
    });
    asio::async_write(client, asio::buffer("hello", 5), [](error_code, std::size_t) {});
    asio::async_read(client, asio::buffer(echoed), [&](error_code ec, std::size_t) {
      BOOST_TEST(!ec);
      client.shutdown(tcp::socket::shutdown_send);
    });
    error_code end;
    char c1;
    c.ioc.restart();
    c.ioc.run_for(generous);
    BOOST_TEST(std::string(echoed.data(), 5) == "hello");
    server.async_read_some(asio::buffer(&c1, 1), [&](error_code ec, std::size_t) { end = ec; });
    c.ioc.restart();
    c.ioc.run_for(generous);
    BOOST_TEST((end == asio::error::eof), end.message());
    BOOST_TEST(c.reactor.statistics().packets_dequeued > 0u);
  }
}

BOOST_AUTO_TEST_CASE(udp_echo)
{
  for (const auto& o : strategies())
  {
    context c(o);
    udp::socket a(c.ioc, udp::endpoint(loopback, 0)), b(c.ioc, udp::endpoint(loopback, 0));
    udp::endpoint from;
    std::array<char, 16> at_b{}, at_a{};
    std::size_t echoed = 0;
    b.async_receive_from(asio::buffer(at_b), from, [&](error_code ec, std::size_t n) {
      BOOST_TEST(!ec);
      b.async_send_to(asio::buffer(at_b, n), from, [](error_code, std::size_t) {});
    });
    a.async_receive(asio::buffer(at_a), [&](error_code ec, std::size_t n) {
      BOOST_TEST(!ec);
      echoed = n;
    });
    a.async_send_to(asio::buffer("datagram", 8), b.local_endpoint(),
                    [](error_code, std::size_t) {});
    c.ioc.run_for(generous);
    BOOST_TEST(echoed == 8u);
    BOOST_TEST(std::string(at_a.data(), 8) == "datagram");
  }
}

BOOST_AUTO_TEST_CASE(waits_and_null_buffers_complete_on_readiness)
{
  for (const auto& o : strategies())
  {
    context c(o);
    tcp::socket client(c.ioc), server(c.ioc);
    connect_pair(c.ioc, client, server);
    int writable = 0, readable = 0, null_read = 0;
    client.async_wait(tcp::socket::wait_write, [&](error_code ec) { writable += !ec; });
    server.async_wait(tcp::socket::wait_read, [&](error_code ec) { readable += !ec; });
    server.async_read_some(asio::null_buffers(),
                           [&](error_code ec, std::size_t n) { null_read += !ec && n == 0; });
    asio::write(client, asio::buffer("x", 1));
    c.ioc.restart();
    c.ioc.run_for(generous);
    BOOST_TEST(writable == 1);
    BOOST_TEST(readable == 1);
    BOOST_TEST(null_read == 1);
    char x = 0;
    BOOST_TEST(server.read_some(asio::buffer(&x, 1)) == 1u);
    BOOST_TEST(x == 'x');
  }
}

BOOST_AUTO_TEST_CASE(close_and_cancellation_abort_once)
{
  for (const auto& o : strategies())
  {
    context c(o);
    tcp::socket client(c.ioc), server(c.ioc);
    connect_pair(c.ioc, client, server);
    char buf[8];
    std::vector<error_code> results;
    asio::cancellation_signal signal;
    client.async_read_some(asio::buffer(buf), asio::bind_cancellation_slot(
                                                  signal.slot(), [&](error_code ec, std::size_t) {
                                                    results.push_back(ec);
                                                  }));
    server.async_read_some(asio::buffer(buf),
                           [&](error_code ec, std::size_t) { results.push_back(ec); });
    asio::post(c.ioc, [&] {
      signal.emit(asio::cancellation_type::terminal);
      server.close();
    });
    c.ioc.restart();
    c.ioc.run_for(generous);
    BOOST_REQUIRE(results.size() == 2u);
    for (const error_code& ec : results)
      BOOST_TEST((ec == asio::error::operation_aborted), ec.message());
    server.async_read_some(asio::buffer(buf),
                           [&](error_code ec, std::size_t) { results.push_back(ec); });
    c.ioc.restart();
    c.ioc.run_for(generous);
    BOOST_TEST((results.back() == asio::error::bad_descriptor));
  }
}

BOOST_AUTO_TEST_CASE(connect_to_a_closed_port_is_refused)
{
  for (const auto& o : strategies())
  {
    context c(o);
    tcp::endpoint nobody;
    {
      tcp::acceptor a(c.ioc, tcp::endpoint(loopback, 0));
      nobody = a.local_endpoint();
    }
    tcp::socket s(c.ioc);
    error_code result;
    s.async_connect(nobody, [&](error_code ec) { result = ec; });
    c.ioc.run_for(generous);
    BOOST_TEST((result == asio::error::connection_refused), result.message());
  }
}

// Windows has no TCP_INQ: a stream socket's receive that returns less than its buffers' size
// emptied the queue (socket_ops::recv's `drained`), so that the reactor's next read waits
// for the port without asking first. An exact read, a peek, the end of the stream and a
// datagram socket say nothing.
BOOST_AUTO_TEST_CASE(a_short_read_on_a_stream_socket_is_drained)
{
  namespace ops = an::detail::socket_ops;
  asio::io_context ioc;
  asio::ip::tcp::acceptor acceptor(ioc, {loopback, 0}); // Asio's own: plain handles
  asio::ip::tcp::socket client(ioc), server(ioc);
  client.connect(acceptor.local_endpoint());
  acceptor.accept(server);
  const an::native_socket_type s = server.native_handle();
  BOOST_REQUIRE(ops::set_drained_hint(s, true));
  server.non_blocking(true);
  char bytes[8];
  const auto read = [&](ops::message_flags flags, std::size_t size, bool& drained) {
    ops::native_buffer b{static_cast<unsigned long>(size), bytes};
    error_code ec;
    drained = true; // recv must say
    const std::size_t n = ops::recv(s, &b, 1, flags, ec, &drained);
    BOOST_TEST(!ec, ec.message());
    return n;
  };
  const auto arrived = [&](std::size_t n) {
    const auto deadline = std::chrono::steady_clock::now() + generous;
    while (server.available() < n && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    BOOST_REQUIRE(server.available() >= n);
  };
  asio::write(client, asio::buffer("0123456789", 10));
  arrived(10);
  bool drained = false;
  BOOST_TEST(read(MSG_PEEK, 8, drained) == 8u);
  BOOST_TEST(!drained); // a peek leaves the data
  BOOST_TEST(read(0, 4, drained) == 4u);
  BOOST_TEST(!drained); // exact: 6 bytes left
  BOOST_TEST(read(0, 8, drained) == 6u);
  BOOST_TEST(drained); // short: nothing left
  client.shutdown(asio::ip::tcp::socket::shutdown_send);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ops::native_buffer b{sizeof(bytes), bytes};
  error_code ec;
  drained = true;
  BOOST_TEST(ops::recv(s, &b, 1, 0, ec, &drained) == 0u); // the end of the stream
  BOOST_TEST(!drained);
  asio::ip::udp::socket datagrams(ioc, {loopback, 0});
  BOOST_TEST(!ops::set_drained_hint(datagrams.native_handle(), true));
}
