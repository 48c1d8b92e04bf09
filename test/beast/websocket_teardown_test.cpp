//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The WebSocket suite (websocket_support.hpp): the closing handshake against a peer that never
// closes, ended by a timeout or a cancellation; the idle timeout; tcp_stream's timeouts; the
// customisation points called directly.
#include "websocket_support.hpp"

BOOST_AUTO_TEST_SUITE(websocket_over_notify)

BOOST_AUTO_TEST_CASE_TEMPLATE(websocket_timeout_ends_a_teardown_the_peer_never_ends, Kind,
                              all_kinds)
{
  for (auto closer : {client_role, server_role})
    close_against_a_peer_that_never_closes<Kind>(closer, cut::websocket_timeout);
}

// Not on stock Beast (beast_websocket_test_default), whose teardown of an Asio socket
// (websocket/impl/teardown.hpp's teardown_tcp_op, Boost 1.81 to 1.91 alike) drops the error
// its wait for readability completes with: after a cancellation it reads, finds nothing and
// waits again, so against this peer its close never completes. Ours must complete.
#if !defined(BOOST_ASIO_NOTIFY_DEFAULT_BACKEND)
BOOST_AUTO_TEST_CASE_TEMPLATE(cancel_ends_a_teardown_the_peer_never_ends, Kind, cancellable_kinds)
{
  for (auto closer : {client_role, server_role})
    close_against_a_peer_that_never_closes<Kind>(closer, cut::lowest_cancel);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(cancellation_slot_ends_a_teardown_the_peer_never_ends, Kind,
                              cancellable_kinds)
{
  for (auto closer : {client_role, server_role})
    close_against_a_peer_that_never_closes<Kind>(closer, cut::cancellation_slot);
}
#endif

// WebSocket's idle timeout closes the lowest layer (beast::close_socket, which finds
// beast_close_socket for our socket or tcp_stream by argument-dependent lookup): a read
// waiting on a silent peer completes with beast::error::timeout.
BOOST_AUTO_TEST_CASE_TEMPLATE(websocket_idle_timeout_closes_the_socket, Kind, all_kinds)
{
  for_each_configuration([&](asio::io_context& ioc) {
    auto [client, server] = make_ws_pair<Kind>(ioc);
    async_open_pair<Kind>(ioc, client, server);
    if constexpr (Kind::timed)
      beast::get_lowest_layer(server).expires_never();
    const auto start = std::chrono::steady_clock::now();
    websocket::stream_base::timeout opt{};
    opt.handshake_timeout = generous;
    opt.idle_timeout = cut_after;
    opt.keep_alive_pings = false;
    server.set_option(opt);
    beast::flat_buffer b;
    result read;
    server.async_read(b, recorder{&read});
    BOOST_TEST_REQUIRE(run_until(ioc, [&] { return read.done(); }), "the idle timeout never fired");
    CHECK_EC(read.ec, beast::error::timeout);
    BOOST_TEST((read.at - start >= cut_after));
    BOOST_TEST(!Kind::socket(server).is_open(), "the timeout left the socket open");
  });
}

// tcp_stream's own timeouts, during WebSocket's operations.

BOOST_AUTO_TEST_CASE(tcp_stream_times_out_a_websocket_read)
{
  for_each_configuration([&](asio::io_context& ioc) {
    auto [client, server] = make_ws_pair<timed_stream>(ioc);
    async_open_pair<timed_stream>(ioc, client, server);
    const auto start = std::chrono::steady_clock::now();
    beast::get_lowest_layer(client).expires_after(cut_after);
    beast::flat_buffer b;
    result read;
    client.async_read(b, recorder{&read}); // the server says nothing
    BOOST_TEST_REQUIRE(run_until(ioc, [&] { return read.done(); }), "the timeout never fired");
    CHECK_EC(read.ec, beast::error::timeout);
    BOOST_TEST((read.at - start >= cut_after));
    BOOST_TEST((read.at - start < generous / 2));
    BOOST_TEST(!timed_stream::socket(client).is_open(), "the timeout left the socket open");
  });
}

BOOST_AUTO_TEST_CASE(tcp_stream_times_out_a_websocket_handshake)
{
  for_each_configuration([&](asio::io_context& ioc) {
    auto [socket, silent] = connected_sockets(ioc); // `silent` never answers the upgrade
    auto client = timed_stream::make(std::move(socket), client_role);
    const auto start = std::chrono::steady_clock::now();
    beast::get_lowest_layer(client).expires_after(cut_after);
    result handshake;
    client.async_handshake("localhost", "/", recorder{&handshake});
    BOOST_TEST_REQUIRE(run_until(ioc, [&] { return handshake.done(); }), "the timeout never fired");
    CHECK_EC(handshake.ec, beast::error::timeout);
    BOOST_TEST((handshake.at - start >= cut_after));
    BOOST_TEST(!client.is_open());
  });
}

BOOST_AUTO_TEST_CASE(tcp_stream_times_out_a_websocket_write)
{
  for_each_configuration([&](asio::io_context& ioc) {
    auto [client, server] = make_ws_pair<timed_stream>(ioc);
    async_open_pair<timed_stream>(ioc, client, server);
    // The server reads nothing: a message of many socket buffers cannot be sent.
    const std::string message(8 * 1024 * 1024, 'x');
    const auto start = std::chrono::steady_clock::now();
    beast::get_lowest_layer(client).expires_after(cut_after);
    client.binary(true);
    result write;
    client.async_write(asio::buffer(message), recorder{&write});
    BOOST_TEST_REQUIRE(run_until(ioc, [&] { return write.done(); }), "the timeout never fired");
    CHECK_EC(write.ec, beast::error::timeout);
    BOOST_TEST((write.at - start >= cut_after));
    BOOST_TEST(write.bytes < message.size());
  });
}

BOOST_AUTO_TEST_SUITE_END()

// ---- teardown, async_teardown and beast_close_socket, called as Beast calls them ---------------

BOOST_AUTO_TEST_SUITE(customisation_points)

// Not on stock Beast (beast_websocket_test_default): its async_teardown of an Asio socket
// (teardown_tcp_op, Boost 1.81 to 1.91 alike) tests the bytes_transferred it was resumed with,
// never what its read_some returned, so it ends the drain after its first read that returns
// data and closes the socket with the rest unread, before the peer's end of stream (the
// peer sees a reset). Ours must read to the end.
#if !defined(BOOST_ASIO_NOTIFY_DEFAULT_BACKEND)
BOOST_AUTO_TEST_CASE_TEMPLATE(async_teardown_reads_to_the_end_and_closes, Layer, layers)
{
  with_unread_data<Layer>(
      [&](beast::role_type role, asio::io_context& ioc, auto& layer, tcp::socket& peer) {
        async_peer p(peer, role);
        result done;
        using boost::beast::websocket::async_teardown;
        async_teardown(role, layer, recorder{&done});
        BOOST_TEST(done.calls == 0, "completed inside the initiating function");
        BOOST_TEST_REQUIRE(run_until(ioc, [&] { return done.done() && p.closed; }),
                           "teardown " << done.calls << ", peer closed " << p.closed);
        BOOST_TEST(done.calls == 1);
        CHECK_OK(done.ec);
        CHECK_OK(p.shutdown_ec);
        CHECK_EC(p.end.ec, asio::error::eof);
        BOOST_TEST((done.at >= p.end_of_stream), "the teardown completed before the peer's end");
        BOOST_TEST(!Layer::socket(layer).is_open());
      });
}
#endif

BOOST_AUTO_TEST_CASE_TEMPLATE(teardown_reads_to_the_end_and_closes, Layer, layers)
{
  with_unread_data<Layer>(
      [&](beast::role_type role, asio::io_context&, auto& layer, tcp::socket& peer) {
        error_code peer_ec;
        std::chrono::steady_clock::time_point end_of_stream;
        std::thread peer_thread([&peer = peer, &peer_ec, &end_of_stream, role] {
          // As async_peer, synchronously.
          if (role == client_role)
          {
            std::this_thread::sleep_for(peer_delay);
            end_of_stream = std::chrono::steady_clock::now();
            peer.shutdown(asio::socket_base::shutdown_send, peer_ec);
          }
          char buffer[256];
          while (!peer_ec)
            peer.read_some(asio::buffer(buffer), peer_ec);
          if (role == server_role)
          {
            std::this_thread::sleep_for(peer_delay);
            end_of_stream = std::chrono::steady_clock::now();
          }
          error_code ignored;
          peer.close(ignored);
        });
        error_code ec;
        std::chrono::steady_clock::time_point done;
        {
          watchdog dog(Layer::socket(layer), peer);
          using boost::beast::websocket::teardown;
          teardown(role, layer, ec);
          done = std::chrono::steady_clock::now();
          peer_thread.join();
          BOOST_TEST(!dog.fired(), "the teardown hung: the watchdog shut it down");
        }
        CHECK_OK(ec);
        CHECK_EC(peer_ec, asio::error::eof);
        BOOST_TEST((done >= end_of_stream), "the teardown completed before the peer's end");
        BOOST_TEST(!Layer::socket(layer).is_open());
      });
}

BOOST_AUTO_TEST_CASE_TEMPLATE(close_socket_closes, Layer, layers)
{
  for_each_configuration([&](asio::io_context& ioc) {
    auto [mine, peer] = connected_sockets(ioc);
    auto layer = Layer::make(std::move(mine));
    char buffer[16];
    result read;
    Layer::socket(layer).async_read_some(asio::buffer(buffer), recorder{&read});
    beast::close_socket(layer);
    BOOST_TEST(!Layer::socket(layer).is_open());
    BOOST_TEST_REQUIRE(run_until(ioc, [&] { return read.done(); }));
    CHECK_EC(read.ec, asio::error::operation_aborted);
  });
}

BOOST_AUTO_TEST_SUITE_END()
