//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// TCP acceptor: construction, open/bind/listen, every accept form (into a socket, move-accept,
// for another io_context or executor), readiness, cancellation, errors that leave it usable.
#include "helpers.hpp"

#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace {

void check_connected(tcp::socket& accepted, tcp::socket& client)
{
  BOOST_TEST(accepted.is_open());
  BOOST_TEST(accepted.remote_endpoint() == client.local_endpoint());
  asio::write(client, asio::buffer("a", 1));
  char c = 0;
  asio::read(accepted, asio::buffer(&c, 1));
  BOOST_TEST(c == 'a');
}

template <typename Socket>
std::string round_trip(Socket& accepted, tcp::socket& client)
{
  asio::write(client, asio::buffer("rt", 2));
  std::string data(2, '\0');
  asio::read(accepted, asio::buffer(data));
  return data;
}

} // namespace

BOOST_AUTO_TEST_SUITE(acceptor)

BOOST_AUTO_TEST_CASE(types_and_construction)
{
  static_assert(std::is_same_v<tcp::acceptor::executor_type, asio::any_io_executor>);
  static_assert(std::is_same_v<tcp::acceptor, sockets::basic_socket_acceptor<tcp>>);
  using strand_type = asio::strand<asio::io_context::executor_type>;
  static_assert(std::is_same_v<tcp::acceptor::rebind_executor<strand_type>::other,
                               sockets::basic_socket_acceptor<tcp, strand_type>>);
  static_assert(std::is_nothrow_move_constructible_v<tcp::acceptor>);

  asio::io_context ioc;
  check_constructions_without_endpoint<tcp::acceptor>(ioc, tcp::v4());

  // With an endpoint: open, SO_REUSEADDR, bound and listening.
  tcp::acceptor c(ioc, loopback_tcp());
  BOOST_TEST(c.is_open());
  BOOST_TEST(c.local_endpoint().port() != 0);
  asio::socket_base::reuse_address ra;
  c.get_option(ra);
  BOOST_TEST(ra.value());
  tcp::socket client(ioc);
  client.connect(c.local_endpoint());

  tcp::acceptor d(ioc, loopback_tcp(), false);
  d.get_option(ra);
  BOOST_TEST(!ra.value());

  // From a native listening socket.
  tcp::acceptor e = adopt_native_socket<tcp::acceptor>(ioc, tcp::v4(), SOCK_STREAM);
  e.bind(loopback_tcp());
  e.listen();
  tcp::socket client2(ioc);
  client2.connect(e.local_endpoint());
  tcp::socket accepted = e.accept();
  check_connected(accepted, client2);

  // With a strand executor.
  strand_type strand = asio::make_strand(ioc);
  tcp::acceptor::rebind_executor<strand_type>::other f(strand, loopback_tcp());
  BOOST_TEST((f.get_executor() == strand));

  // Moves.
  const native_socket cfd = c.native_handle();
  tcp::acceptor moved(std::move(c));
  BOOST_TEST(moved.native_handle() == cfd);
  BOOST_TEST(!c.is_open()); // NOLINT(bugprone-use-after-move)
  tcp::socket accepted2 = moved.accept();
  check_connected(accepted2, client);
  tcp::acceptor target(ioc); // closed: move assignment opens it
  target = std::move(moved);
  BOOST_TEST(target.native_handle() == cfd);
}

BOOST_AUTO_TEST_CASE(open_bind_listen_step_by_step)
{
  asio::io_context ioc;
  tcp::acceptor a(ioc);
  a.open(tcp::v4());
  error_code ec;
  a.open(tcp::v4(), ec);
  CHECK_EC(ec, asio::error::already_open);
  a.set_option(asio::socket_base::reuse_address(true));
  a.bind(loopback_tcp());
  a.listen(16);
  a.listen(asio::socket_base::max_listen_connections, ec);
  CHECK_OK(ec);
  tcp::socket client(ioc);
  client.connect(a.local_endpoint());
  tcp::socket accepted(ioc);
  a.accept(accepted);
  check_connected(accepted, client);

  a.close();
  BOOST_TEST(!a.is_open());
  a.close(ec);
  CHECK_OK(ec);
}

BOOST_AUTO_TEST_CASE(address_in_use)
{
  asio::io_context ioc;
  tcp::acceptor a(ioc, loopback_tcp());
#if !defined(_WIN32) // Windows' SO_REUSEADDR may bind a port in use (Wine: WSAEACCES)
  CHECK_THROWS_EC(tcp::acceptor(ioc, a.local_endpoint()), asio::error::address_in_use);
#endif
  tcp::acceptor b(ioc, tcp::v4());
  error_code ec;
  b.bind(a.local_endpoint(), ec);
  CHECK_EC(ec, asio::error::address_in_use);
  CHECK_THROWS_EC(b.bind(a.local_endpoint()), asio::error::address_in_use);
  BOOST_TEST(b.is_open());
}

BOOST_AUTO_TEST_CASE(closed_acceptor_errors)
{
  asio::io_context ioc;
  tcp::acceptor a(ioc);
  tcp::socket peer(ioc);
  const auto bad = asio::error::bad_descriptor;
  error_code ec;

  a.listen(5, ec);
  CHECK_EC(ec, bad);
  a.accept(peer, ec);
  CHECK_EC(ec, bad);
  a.local_endpoint(ec);
  CHECK_EC(ec, bad);
  a.set_option(asio::socket_base::reuse_address(true), ec);
  CHECK_EC(ec, bad);
  a.cancel(ec);
  CHECK_EC(ec, bad);
  a.non_blocking(true, ec);
  CHECK_EC(ec, bad);
  a.wait(tcp::acceptor::wait_read, ec);
  CHECK_EC(ec, bad);
  a.release(ec);
  CHECK_EC(ec, bad);
  a.bind(loopback_tcp(), ec);
  CHECK_EC(ec, bad);
  CHECK_THROWS_EC(a.listen(), bad);
  CHECK_THROWS_EC(a.accept(peer), bad);
  CHECK_THROWS_EC(a.accept(), bad);
  CHECK_THROWS_EC(a.local_endpoint(), bad);
  asio::socket_base::reuse_address ra;
  CHECK_THROWS_EC(a.get_option(ra), bad);
  CHECK_THROWS_EC(a.cancel(), bad);
  CHECK_THROWS_EC(a.wait(tcp::acceptor::wait_read), bad);
  BOOST_TEST(!peer.is_open());

  op_result r1, r2, r3;
  int calls_move = 0;
  error_code ec_move;
  a.async_accept(peer, capture(r1));
  a.async_accept([&](error_code e, tcp::socket s) {
    ++calls_move;
    ec_move = e;
    BOOST_TEST(!s.is_open());
  });
  a.async_wait(tcp::acceptor::wait_read, capture(r2));
  tcp::endpoint ep;
  a.async_accept(peer, ep, capture(r3));
  BOOST_TEST(!r1.done());
  BOOST_TEST(run_until(ioc, [&] { return r1.done() && r2.done() && r3.done() && calls_move; }));
  CHECK_EC(r1.ec, bad);
  CHECK_EC(r2.ec, bad);
  CHECK_EC(r3.ec, bad);
  CHECK_EC(ec_move, bad);
  drain(ioc);
  BOOST_TEST(r1.calls == 1);
  BOOST_TEST(calls_move == 1);
}

BOOST_AUTO_TEST_CASE(sync_accept_forms)
{
  asio::io_context ioc;
  asio::io_context other;
  tcp::acceptor a(ioc, loopback_tcp());

  auto connect_one = [&] {
    tcp::socket c(ioc);
    c.connect(a.local_endpoint());
    return c;
  };

  {
    tcp::socket c = connect_one();
    tcp::socket s(ioc);
    tcp::endpoint peer;
    a.accept(s, peer);
    BOOST_TEST(peer == c.local_endpoint());
    check_connected(s, c);
  }
  {
    tcp::socket c = connect_one();
    tcp::socket s(ioc);
    error_code ec;
    a.accept(s, ec);
    CHECK_OK(ec);
    check_connected(s, c);
    // Into an already open socket.
    tcp::socket c2 = connect_one();
    a.accept(s, ec);
    CHECK_EC(ec, asio::error::already_open);
    CHECK_THROWS_EC(a.accept(s), asio::error::already_open);
    // The pending connection is still there.
    tcp::socket s2 = a.accept();
    check_connected(s2, c2);
  }
  {
    tcp::socket c = connect_one();
    tcp::endpoint peer;
    tcp::socket s = a.accept(peer);
    BOOST_TEST(peer == c.local_endpoint());
    check_connected(s, c);
  }
  {
    tcp::socket c = connect_one();
    auto s = a.accept(other);
    using other_socket = sockets::basic_stream_socket<tcp, asio::io_context::executor_type>;
    static_assert(std::is_same_v<decltype(s), other_socket>);
    BOOST_TEST((s.get_executor() == other.get_executor()));
    BOOST_TEST(round_trip(s, c) == "rt");
  }
  {
    // (Stock Asio 1.81's accept(executor, endpoint&, error_code&) cannot deduce its executor
    // type, so the error_code form is used with the context, the throwing one with the executor.)
    tcp::socket c = connect_one();
    tcp::endpoint peer;
    error_code ec;
    auto s = a.accept(other, peer, ec);
    CHECK_OK(ec);
    BOOST_TEST(peer == c.local_endpoint());
    BOOST_TEST((s.get_executor() == other.get_executor()));
    BOOST_TEST(round_trip(s, c) == "rt");
    tcp::socket c2 = connect_one();
    tcp::endpoint peer2;
    auto s2 = a.accept(other.get_executor(), peer2);
    BOOST_TEST(peer2 == c2.local_endpoint());
    BOOST_TEST((s2.get_executor() == other.get_executor()));
    BOOST_TEST(round_trip(s2, c2) == "rt");
    tcp::socket c3 = connect_one();
    auto s3 = a.accept(other.get_executor(), ec);
    CHECK_OK(ec);
    BOOST_TEST(round_trip(s3, c3) == "rt");
    tcp::socket c4 = connect_one();
    auto s4 = a.accept(other, ec);
    CHECK_OK(ec);
    BOOST_TEST(round_trip(s4, c4) == "rt");
  }
}

BOOST_AUTO_TEST_CASE(async_accept_forms)
{
  asio::io_context ioc;
  asio::io_context other;
  tcp::acceptor a(ioc, loopback_tcp());
  once_tracker once;

  // Into a socket, with and without the peer endpoint.
  tcp::socket s1(ioc);
  tcp::socket s2(other); // the peer socket may belong to another context
  tcp::endpoint peer2;
  error_code e1, e2;
  a.async_accept(s1, once.wrap([&](error_code e) { e1 = e; }));
  a.async_accept(s2, peer2, once.wrap([&](error_code e) { e2 = e; }));
  tcp::socket c1(ioc), c2(ioc);
  c1.connect(a.local_endpoint());
  c2.connect(a.local_endpoint());
  BOOST_TEST(run_until(ioc, [&] { return once.invoked() == 2; }));
  CHECK_OK(e1);
  CHECK_OK(e2);
  // Pending accepts complete in order of initiation.
  BOOST_TEST(s1.remote_endpoint() == c1.local_endpoint());
  BOOST_TEST(s2.remote_endpoint() == c2.local_endpoint());
  BOOST_TEST(peer2 == c2.local_endpoint());

  // Move-accept forms.
  std::optional<tcp::socket> m1;
  std::optional<sockets::basic_stream_socket<tcp, asio::io_context::executor_type>> m2, m3;
  std::optional<tcp::socket> m4;
  tcp::endpoint peer4;
  a.async_accept(once.wrap([&](error_code e, tcp::socket s) {
    CHECK_OK(e);
    m1.emplace(std::move(s));
  }));
  a.async_accept(other, once.wrap([&](error_code e, auto s) {
    CHECK_OK(e);
    m2.emplace(std::move(s));
  }));
  a.async_accept(other.get_executor(), once.wrap([&](error_code e, auto s) {
    CHECK_OK(e);
    m3.emplace(std::move(s));
  }));
  a.async_accept(peer4, once.wrap([&](error_code e, tcp::socket s) {
    CHECK_OK(e);
    m4.emplace(std::move(s));
  }));
  tcp::socket c3(ioc), c4(ioc), c5(ioc), c6(ioc);
  for (tcp::socket* c : {&c3, &c4, &c5, &c6})
    c->connect(a.local_endpoint());
  BOOST_TEST(run_until(ioc, [&] { return once.invoked() == 6; }));
  BOOST_REQUIRE(m1 && m2 && m3 && m4);
  BOOST_TEST(m1->remote_endpoint() == c3.local_endpoint());
  BOOST_TEST(m2->remote_endpoint() == c4.local_endpoint());
  BOOST_TEST(m3->remote_endpoint() == c5.local_endpoint());
  BOOST_TEST(m4->remote_endpoint() == c6.local_endpoint());
  BOOST_TEST(peer4 == c6.local_endpoint());
  BOOST_TEST((m2->get_executor() == other.get_executor()));
  BOOST_TEST((m3->get_executor() == other.get_executor()));

  // A socket accepted for another context runs its operations there.
  char buf[4] = {};
  op_result r;
  m2->async_read_some(asio::buffer(buf), capture(r));
  asio::write(c4, asio::buffer("o", 1));
  drain(ioc, 50ms);
  BOOST_TEST(!r.done());
  BOOST_TEST(run_until_done(other, r));
  CHECK_OK(r.ec);
  BOOST_TEST(buf[0] == 'o');

  // Into an already open socket: already_open reaches the handler at once, even while
  // another accept waits for a connection that never comes (not behind it).
  tcp::socket waiting_peer(ioc);
  op_result waiting;
  a.async_accept(waiting_peer, capture(waiting));
  tcp::socket open(ioc, tcp::v4());
  op_result ao;
  a.async_accept(open, capture(ao));
  BOOST_TEST(run_until_done(ioc, ao));
  CHECK_EC(ao.ec, asio::error::already_open);
  BOOST_TEST(!waiting.done());
  a.cancel();
  BOOST_TEST(run_until_done(ioc, waiting));
  CHECK_EC(waiting.ec, asio::error::operation_aborted);

  drain(ioc);
  drain(other);
  BOOST_TEST(once.all_once());
  BOOST_TEST(ao.calls == 1);
}

BOOST_AUTO_TEST_CASE(readiness_and_non_blocking)
{
  asio::io_context ioc;
  tcp::acceptor a(ioc, loopback_tcp());

  a.non_blocking(true);
  BOOST_TEST(a.non_blocking());
  tcp::socket s(ioc);
  error_code ec;
  a.accept(s, ec);
  CHECK_EC(ec, asio::error::would_block);
  a.non_blocking(false);

  op_result w;
  a.async_wait(tcp::acceptor::wait_read, capture(w));
  drain(ioc);
  BOOST_TEST(!w.done());
  tcp::socket c(ioc);
  c.connect(a.local_endpoint());
  BOOST_TEST(run_until_done(ioc, w));
  CHECK_OK(w.ec);
  a.accept(s); // the wait consumed nothing
  check_connected(s, c);

  // Blocking wait.
  tcp::socket c2(ioc);
  std::thread connector([&] {
    std::this_thread::sleep_for(20ms);
    c2.connect(a.local_endpoint());
  });
  a.wait(tcp::acceptor::wait_read);
  connector.join();
  tcp::socket s2 = a.accept();
  check_connected(s2, c2);
}

BOOST_AUTO_TEST_CASE(cancel_close_pending_accepts)
{
  asio::io_context ioc;
  tcp::acceptor a(ioc, loopback_tcp());
  tcp::socket s(ioc);
  op_result r1, r2;
  int move_calls = 0;
  error_code move_ec;
  a.async_accept(s, capture(r1));
  a.async_accept([&](error_code e, tcp::socket) {
    ++move_calls;
    move_ec = e;
  });
  a.async_wait(tcp::acceptor::wait_read, capture(r2));
  drain(ioc);
  BOOST_TEST(!r1.done());
  a.cancel();
  BOOST_TEST(run_until(ioc, [&] { return r1.done() && r2.done() && move_calls; }));
  CHECK_EC(r1.ec, asio::error::operation_aborted);
  CHECK_EC(r2.ec, asio::error::operation_aborted);
  CHECK_EC(move_ec, asio::error::operation_aborted);
  BOOST_TEST(!s.is_open());

  // Still usable.
  op_result r3;
  a.async_accept(s, capture(r3));
  tcp::socket c(ioc);
  c.connect(a.local_endpoint());
  BOOST_TEST(run_until_done(ioc, r3));
  CHECK_OK(r3.ec);
  check_connected(s, c);

  // Close with pending accepts.
  tcp::socket s2(ioc);
  op_result r4, r5;
  a.async_accept(s2, capture(r4));
  a.async_wait(tcp::acceptor::wait_read, capture(r5));
  drain(ioc);
  a.close();
  BOOST_TEST(run_until_done(ioc, r4, r5));
  CHECK_EC(r4.ec, asio::error::operation_aborted);
  CHECK_EC(r5.ec, asio::error::operation_aborted);

  drain(ioc);
  for (const op_result* x : {&r1, &r2, &r3, &r4, &r5})
    BOOST_TEST(x->calls == 1);
  BOOST_TEST(move_calls == 1);
}

BOOST_AUTO_TEST_CASE(release_and_assign)
{
  asio::io_context ioc;
  tcp::acceptor a(ioc, loopback_tcp());
  const tcp::endpoint ep = a.local_endpoint();
  op_result pending;
  tcp::socket s(ioc);
  a.async_accept(s, capture(pending));
  drain(ioc);
  const native_socket fd = a.release();
  BOOST_TEST(!a.is_open());
  BOOST_TEST(socket_is_open(fd));
  BOOST_TEST(run_until_done(ioc, pending));
  CHECK_EC(pending.ec, asio::error::operation_aborted);

  tcp::acceptor b(ioc);
  b.assign(tcp::v4(), fd);
  BOOST_TEST(b.local_endpoint() == ep);
  tcp::socket c(ioc);
  c.connect(ep);
  tcp::socket accepted = b.accept();
  check_connected(accepted, c);

  tcp::acceptor bad(ioc);
  error_code ec;
  bad.assign(tcp::v4(), -1, ec);
  CHECK_EC(ec, asio::error::bad_descriptor);
  BOOST_TEST(!bad.is_open());
  b.assign(tcp::v4(), fd, ec);
  CHECK_EC(ec, asio::error::already_open);
}

#if !defined(_WIN32) // provoked through RLIMIT_NOFILE, which Windows does not have
BOOST_AUTO_TEST_CASE(accept_error_leaves_acceptor_usable)
{
  // With the descriptor limit at the lowest free descriptor, accept fails with EMFILE
  // (no_descriptors); the connection stays queued and is accepted once the limit is raised.
  asio::io_context ioc;
  tcp::acceptor a(ioc, loopback_tcp());
  tcp::socket c1(ioc), c2(ioc), c3(ioc);
  c1.connect(a.local_endpoint());
  c2.connect(a.local_endpoint());
  c3.connect(a.local_endpoint());
  tcp::socket s(ioc);
  // Let everything the backend creates lazily exist before the limit drops.
  op_result warm;
  a.async_wait(tcp::acceptor::wait_read, capture(warm));
  BOOST_TEST(run_until_done(ioc, warm));

  error_code sync_ec;
  op_result into;
  int move_calls = 0;
  error_code move_ec;
  {
    nofile_limit_guard limit;
    BOOST_REQUIRE(limit.set_soft(static_cast<rlim_t>(lowest_free_fd())));

    a.accept(s, sync_ec);
    CHECK_THROWS_EC(a.accept(), asio::error::no_descriptors);
    a.async_accept(s, capture(into));
    a.async_accept([&](error_code e, tcp::socket peer) {
      ++move_calls;
      move_ec = e;
      BOOST_TEST(!peer.is_open());
    });
    BOOST_TEST(run_until(ioc, [&] { return into.done() && move_calls > 0; }));
  } // limit restored
  CHECK_EC(sync_ec, asio::error::no_descriptors);
  CHECK_EC(into.ec, asio::error::no_descriptors);
  CHECK_EC(move_ec, asio::error::no_descriptors);
  BOOST_TEST(!s.is_open());
  BOOST_TEST(a.is_open());

  // Usable again: the queued connections are all there, in order.
  op_result again;
  a.async_accept(s, capture(again));
  BOOST_TEST(run_until_done(ioc, again));
  CHECK_OK(again.ec);
  BOOST_TEST(s.remote_endpoint() == c1.local_endpoint());
  tcp::socket s2 = a.accept();
  BOOST_TEST(s2.remote_endpoint() == c2.local_endpoint());
  std::optional<tcp::socket> s3;
  a.async_accept([&](error_code e, tcp::socket peer) {
    CHECK_OK(e);
    s3.emplace(std::move(peer));
  });
  BOOST_TEST(run_until(ioc, [&] { return s3.has_value(); }));
  BOOST_REQUIRE(s3);
  check_connected(*s3, c3);

  drain(ioc);
  BOOST_TEST(into.calls == 1);
  BOOST_TEST(move_calls == 1);
  BOOST_TEST(again.calls == 1);
}
#endif

BOOST_AUTO_TEST_CASE(accept_loop)
{
  // A chain of accepts, each started from the previous handler.
  asio::io_context ioc;
  tcp::acceptor a(ioc, loopback_tcp());
  constexpr int n = 50;
  std::vector<tcp::socket> accepted;
  std::vector<tcp::socket> clients;
  clients.reserve(n); // no socket moves while its connect is pending
  std::function<void()> next = [&] {
    a.async_accept([&](error_code e, tcp::socket s) {
      CHECK_OK(e);
      accepted.push_back(std::move(s));
      if (static_cast<int>(accepted.size()) < n)
        next();
    });
  };
  next();
  for (int i = 0; i < n; ++i)
  {
    clients.emplace_back(ioc);
    clients.back().async_connect(a.local_endpoint(), [](error_code e) { CHECK_OK(e); });
  }
  BOOST_TEST(run_until(ioc, [&] { return static_cast<int>(accepted.size()) == n; }));
  for (auto& s : accepted)
    BOOST_TEST(s.is_open());
}

BOOST_AUTO_TEST_SUITE_END()
