//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Generic protocols (generic::stream_protocol, generic::datagram_protocol): sockets and an
// acceptor of any address family, whose family and protocol numbers come at run time, and
// the converting moves from sockets of a specific protocol (ip::tcp into generic).
#include "helpers.hpp"

#include <string>
#include <type_traits>
#include <typeinfo>

#if !defined(_WIN32)
#include <netinet/in.h>
#endif

namespace {

using stream_socket = generic::stream_protocol::socket;
using datagram_socket = generic::datagram_protocol::socket;
// Asio's generic stream protocol names no acceptor type; the template takes it.
using generic_acceptor = sockets::basic_socket_acceptor<generic::stream_protocol>;

generic::stream_protocol::endpoint generic_endpoint(const tcp::endpoint& e)
{
  return generic::stream_protocol::endpoint(e);
}

generic::datagram_protocol::endpoint generic_endpoint(const udp::endpoint& e)
{
  return generic::datagram_protocol::endpoint(e);
}

// The converting moves Asio has: from a socket (or acceptor) of the same kind whose protocol
// converts to this one, never from another kind nor back to the specific protocol.
static_assert(std::is_constructible_v<stream_socket, tcp::socket&&>);
static_assert(std::is_assignable_v<stream_socket&, tcp::socket&&>);
static_assert(std::is_constructible_v<datagram_socket, udp::socket&&>);
static_assert(std::is_assignable_v<datagram_socket&, udp::socket&&>);
static_assert(std::is_constructible_v<generic_acceptor, tcp::acceptor&&>);
static_assert(std::is_assignable_v<generic_acceptor&, tcp::acceptor&&>);
static_assert(!std::is_constructible_v<stream_socket, udp::socket&&>);
static_assert(!std::is_constructible_v<datagram_socket, tcp::socket&&>);
static_assert(!std::is_constructible_v<tcp::socket, stream_socket&&>);

// Of the same kind are also sockets of Asio's own protocol classes, and a program's class
// derived from a socket.
template <class Protocol, class Executor = asio::any_io_executor>
struct derived_stream_socket : sockets::basic_stream_socket<Protocol, Executor>
{
  using sockets::basic_stream_socket<Protocol, Executor>::basic_stream_socket;
};
static_assert(std::is_constructible_v<sockets::basic_stream_socket<asio::generic::stream_protocol>,
                                      sockets::basic_stream_socket<asio::ip::tcp>&&>);
static_assert(
    std::is_constructible_v<sockets::basic_datagram_socket<asio::generic::datagram_protocol>,
                            sockets::basic_datagram_socket<asio::ip::udp>&&>);
static_assert(std::is_constructible_v<stream_socket, derived_stream_socket<tcp>&&>);
static_assert(!std::is_constructible_v<datagram_socket, derived_stream_socket<tcp>&&>);

// A protocol need not name a socket type (Asio's requirements ask for none).
struct protocol_without_socket
{
  using endpoint = asio::ip::tcp::endpoint;
  int family() const { return AF_INET; }
  int type() const { return SOCK_STREAM; }
  int protocol() const { return IPPROTO_TCP; }
};
static_assert(std::is_constructible_v<sockets::basic_stream_socket<protocol_without_socket>,
                                      asio::io_context&>);
static_assert(
    std::is_nothrow_move_constructible_v<sockets::basic_stream_socket<protocol_without_socket>>);

// The protocols' own constructors (detail::generic_protocol_base), as Asio's: from numbers,
// or implicitly from any protocol object; never by default.
static_assert(std::is_constructible_v<generic::stream_protocol, int, int>);
static_assert(std::is_convertible_v<asio::generic::stream_protocol, generic::stream_protocol>);
static_assert(std::is_convertible_v<tcp, generic::stream_protocol>);
static_assert(std::is_convertible_v<asio::ip::udp, generic::datagram_protocol>);
static_assert(!std::is_default_constructible_v<generic::datagram_protocol>);
#if !defined(BOOST_ASIO_NOTIFY_DEFAULT_BACKEND)
// Unlike Asio's: noexcept, and not from what is no protocol (Asio's converting constructor
// is unconstrained).
static_assert(std::is_nothrow_constructible_v<generic::stream_protocol, int, int>);
static_assert(!std::is_convertible_v<std::string, generic::stream_protocol>);
static_assert(!std::is_convertible_v<int, generic::datagram_protocol>);
#endif

} // namespace

BOOST_AUTO_TEST_SUITE(generic_socket)

BOOST_AUTO_TEST_CASE(types)
{
  static_assert(
      std::is_same_v<stream_socket, sockets::basic_stream_socket<generic::stream_protocol>>);
  static_assert(
      std::is_same_v<datagram_socket, sockets::basic_datagram_socket<generic::datagram_protocol>>);
  static_assert(
      std::is_same_v<stream_socket::endpoint_type, asio::generic::stream_protocol::endpoint>);
  static_assert(
      std::is_same_v<datagram_socket::endpoint_type, asio::generic::datagram_protocol::endpoint>);
  static_assert(std::is_same_v<generic_acceptor::protocol_type, generic::stream_protocol>);
  const generic::stream_protocol stream(AF_INET, IPPROTO_TCP);
  BOOST_TEST(stream.family() == AF_INET);
  BOOST_TEST(stream.type() == SOCK_STREAM);
  BOOST_TEST(stream.protocol() == IPPROTO_TCP);
  const generic::datagram_protocol datagram(udp::v6());
  BOOST_TEST(datagram.family() == AF_INET6);
  BOOST_TEST(datagram.type() == SOCK_DGRAM);
  BOOST_CHECK_THROW(generic::stream_protocol{udp::v4()}, std::bad_cast);
}

BOOST_AUTO_TEST_CASE(closed_objects_need_no_protocol_object)
{
  // A generic protocol has neither a default constructor nor v4(): closed objects hold none.
  asio::io_context ioc;
  stream_socket s(ioc);
  datagram_socket d(ioc.get_executor());
  generic_acceptor a(ioc);
  BOOST_TEST(!s.is_open());
  BOOST_TEST(!d.is_open());
  BOOST_TEST(!a.is_open());
  error_code ec;
  s.set_option(asio::socket_base::keep_alive(true), ec);
  CHECK_EC(ec, asio::error::bad_descriptor);
  asio::socket_base::keep_alive keep_alive;
  d.get_option(keep_alive, ec);
  CHECK_EC(ec, asio::error::bad_descriptor);
  a.local_endpoint(ec);
  CHECK_EC(ec, asio::error::bad_descriptor);
  char buf[4];
  op_result r;
  s.async_read_some(asio::buffer(buf), capture(r));
  BOOST_TEST(run_until_done(ioc, r));
  CHECK_EC(r.ec, asio::error::bad_descriptor);

  // Asio's protocol classes themselves, as sockets::basic_*<Protocol> take any protocol.
  sockets::basic_stream_socket<asio::generic::stream_protocol> raw_stream(ioc);
  sockets::basic_datagram_socket<asio::generic::datagram_protocol> raw_datagram(ioc);
  sockets::basic_socket_acceptor<asio::generic::stream_protocol> raw_acceptor(ioc);
  BOOST_TEST(!raw_stream.is_open());
  raw_stream.open(asio::generic::stream_protocol(AF_INET, IPPROTO_TCP));
  raw_datagram.open(asio::generic::datagram_protocol(AF_INET, IPPROTO_UDP));
  raw_acceptor.open(asio::generic::stream_protocol(AF_INET, IPPROTO_TCP));
  BOOST_TEST(raw_stream.is_open());
  BOOST_TEST(raw_datagram.is_open());
  BOOST_TEST(raw_acceptor.is_open());
}

BOOST_AUTO_TEST_CASE(stream_connect_accept_transfer)
{
  asio::io_context ioc;
  generic_acceptor acceptor(ioc, generic_endpoint(loopback_tcp()));
  const generic::stream_protocol::endpoint listening = acceptor.local_endpoint();
  BOOST_TEST(listening.protocol().family() == AF_INET);

  stream_socket client(ioc); // connect opens it with the endpoint's protocol
  client.connect(listening);
  stream_socket server = acceptor.accept();
  BOOST_TEST((client.remote_endpoint() == server.local_endpoint()));
  BOOST_TEST((server.remote_endpoint() == client.local_endpoint()));
  asio::write(client, asio::buffer("ping", 4));
  BOOST_TEST(read_exactly(server, 4) == "ping");

  // Options need the protocol the socket was opened with.
  client.set_option(asio::ip::tcp::no_delay(true));
  asio::ip::tcp::no_delay no_delay;
  client.get_option(no_delay);
  BOOST_TEST(no_delay.value());

  // Asynchronously.
  stream_socket client2(ioc);
  stream_socket server2(ioc);
  op_result connected, accepted, written, read;
  client2.async_connect(listening, capture(connected));
  acceptor.async_accept(server2, capture(accepted));
  BOOST_TEST(run_until_done(ioc, connected, accepted));
  CHECK_OK(connected.ec);
  CHECK_OK(accepted.ec);
  char buf[4] = {};
  server2.async_read_some(asio::buffer(buf), capture(read));
  client2.async_write_some(asio::buffer("pong", 4), capture(written));
  BOOST_TEST(run_until_done(ioc, written, read));
  CHECK_OK(read.ec);
  BOOST_TEST(std::string(buf, read.bytes) == std::string("pong", read.bytes));
}

BOOST_AUTO_TEST_CASE(datagram_send_to_receive_from)
{
  asio::io_context ioc;
  datagram_socket a(ioc, generic_endpoint(loopback_udp()));
  datagram_socket b(ioc.get_executor(), generic::datagram_protocol(AF_INET, IPPROTO_UDP));
  b.bind(generic_endpoint(loopback_udp()));

  BOOST_TEST(a.send_to(asio::buffer("one", 3), b.local_endpoint()) == 3u);
  char buf[8] = {};
  generic::datagram_protocol::endpoint from;
  BOOST_TEST(b.receive_from(asio::buffer(buf), from) == 3u);
  BOOST_TEST(std::string(buf, 3) == "one");
  BOOST_TEST((from == a.local_endpoint()));

  op_result sent, received;
  generic::datagram_protocol::endpoint from2;
  b.async_receive_from(asio::buffer(buf), from2, capture(received));
  a.async_send_to(asio::buffer("two!", 4), b.local_endpoint(), capture(sent));
  BOOST_TEST(run_until_done(ioc, sent, received));
  CHECK_OK(received.ec);
  BOOST_TEST(received.bytes == 4u);
  BOOST_TEST((from2 == a.local_endpoint()));
}

BOOST_AUTO_TEST_CASE(converting_moves)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  char buf[8] = {};

  // A socket moves into a generic one, its pending operation with it.
  op_result pending;
  p.server.async_read_some(asio::buffer(buf), capture(pending));
  stream_socket server(std::move(p.server));
  BOOST_TEST(!p.server.is_open()); // NOLINT(bugprone-use-after-move)
  BOOST_TEST(server.is_open());
  asio::write(p.client, asio::buffer("x", 1));
  BOOST_TEST(run_until_done(ioc, pending));
  CHECK_OK(pending.ec);
  BOOST_TEST(pending.bytes == 1u);

  // Assignment: the generic socket closes what it held and takes the other.
  stream_socket client(ioc, generic::stream_protocol(AF_INET, IPPROTO_TCP));
  client = std::move(p.client);
  BOOST_TEST(!p.client.is_open()); // NOLINT(bugprone-use-after-move)
  BOOST_TEST((client.remote_endpoint() == server.local_endpoint()));
  client.set_option(asio::ip::tcp::no_delay(true)); // with the converted protocol
  asio::write(client, asio::buffer("yz", 2));
  BOOST_TEST(read_exactly(server, 2) == "yz");

  // A closed socket becomes a closed generic socket.
  tcp::socket closed(ioc);
  stream_socket still_closed(std::move(closed));
  BOOST_TEST(!still_closed.is_open());

  // Datagram sockets and acceptors the same way.
  auto u = make_udp_pair(ioc);
  datagram_socket a(std::move(u.a));
  BOOST_TEST(a.send(asio::buffer("d", 1)) == 1u);
  BOOST_TEST(u.b.receive(asio::buffer(buf)) == 1u);
  datagram_socket b(ioc);
  b = std::move(u.b);
  BOOST_TEST((b.remote_endpoint() == a.local_endpoint()));

  tcp::acceptor specific(ioc, loopback_tcp());
  const tcp::endpoint listening = specific.local_endpoint();
  generic_acceptor acceptor(std::move(specific));
  BOOST_TEST(!specific.is_open()); // NOLINT(bugprone-use-after-move)
  tcp::socket c(ioc);
  c.connect(listening);
  stream_socket accepted = acceptor.accept();
  BOOST_TEST((accepted.remote_endpoint() == generic_endpoint(c.local_endpoint())));
  generic_acceptor assigned(ioc);
  assigned = tcp::acceptor(ioc, loopback_tcp());
  BOOST_TEST(assigned.is_open());
}

#if !defined(BOOST_ASIO_NOTIFY_DEFAULT_BACKEND)

// Ours only: Asio's converting move takes the socket before it converts the protocol, and
// when that throws, its objects are left broken (Linux: the descriptor leaks; Windows: the
// heap is corrupted, and the test process crashes under Wine).
BOOST_AUTO_TEST_CASE(converting_move_from_another_socket_type_throws)
{
  // A generic protocol throws std::bad_cast for a protocol of another socket type (here a
  // datagram socket object holding a TCP socket). The protocol is converted first, so the
  // source keeps its socket.
  asio::io_context ioc;
  sockets::basic_datagram_socket<tcp> odd(ioc, tcp::v4());
  BOOST_CHECK_THROW(datagram_socket converted(std::move(odd)), std::bad_cast);
  BOOST_TEST(odd.is_open()); // NOLINT(bugprone-use-after-move)
  BOOST_TEST(socket_is_open(odd.native_handle()));
}

#endif // !BOOST_ASIO_NOTIFY_DEFAULT_BACKEND

BOOST_AUTO_TEST_SUITE_END()
