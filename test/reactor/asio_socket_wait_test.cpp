//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// boost::asio_notify::async_wait on Asio's own sockets (include/boost/asio_notify/async_wait.hpp):
// every wait type, cancellation through the slot, the socket's cancel() and close(), the
// tokens, many sockets on one to four threads with no thread started, and the io_context's
// destruction with waits pending. On Linux it is the socket's own async_wait; under Wine an
// AFD poll that the io_context's run() completes (src/drivers/win/socket_wait.cpp).

#include <boost/asio_notify/async_wait.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/deferred.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ip/udp.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/asio/write.hpp>
#include <boost/test/unit_test.hpp>

#include "../support/tcp_pair.hpp"
#include "../support/thread_count.hpp"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace an = boost::asio_notify;
namespace asio = boost::asio;
using boost::system::error_code;
using tcp = asio::ip::tcp;
using wait = asio::socket_base::wait_type;
using test_support::thread_count;

namespace {

// One wait's result, once run() has completed it.
struct outcome
{
  std::optional<error_code> ec;
  auto handler()
  {
    return [this](error_code e) {
      ec = e;
    };
  }
};

// Runs `ioc` until `done` or a generous time has passed.
template <class Done>
void run_until(asio::io_context& ioc, Done done)
{
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  ioc.restart();
  while (!done() && std::chrono::steady_clock::now() < deadline)
  {
    ioc.run_for(std::chrono::milliseconds(20));
    ioc.restart();
  }
}

// The error code `o` completes with, run() running until it does.
error_code result_of(asio::io_context& ioc, const outcome& o)
{
  run_until(ioc, [&] { return o.ec.has_value(); });
  BOOST_REQUIRE(o.ec);
  return *o.ec;
}

// Whether a wait stays pending while run() has the time to complete it.
bool stays_pending(asio::io_context& ioc, const outcome& o)
{
  ioc.restart();
  ioc.run_for(std::chrono::milliseconds(200));
  return !o.ec;
}

// Starts a wait for `w` on `s`, sees it stay pending until `event` is made to happen, and
// returns the error code it then completes with.
template <class Socket, class Event>
error_code wait_across(asio::io_context& ioc, Socket& s, wait w, Event event)
{
  outcome o;
  an::async_wait(s, w, o.handler());
  BOOST_TEST(stays_pending(ioc, o));
  event();
  return result_of(ioc, o);
}

struct pair_fixture
{
  asio::io_context ioc;
  test_support::basic_tcp_pair<tcp::socket> pair = test_support::make_basic_tcp_pair<tcp>(ioc);
};

} // namespace

BOOST_AUTO_TEST_SUITE(asio_socket_wait)

BOOST_FIXTURE_TEST_CASE(wait_write_completes_on_a_connected_socket, pair_fixture)
{
  outcome o;
  an::async_wait(pair.client, wait::wait_write, o.handler());
  BOOST_TEST(!o.ec); // never from inside the initiating function
  const error_code ec = result_of(ioc, o);
  BOOST_TEST(!ec, ec.message());
}

BOOST_FIXTURE_TEST_CASE(wait_read_completes_when_data_comes, pair_fixture)
{
  const error_code ec = wait_across(ioc, pair.client, wait::wait_read,
                                    [&] { asio::write(pair.server, asio::buffer("x", 1)); });
  BOOST_TEST(!ec, ec.message());
  BOOST_TEST(pair.client.available() == 1u); // nothing was read
}

BOOST_FIXTURE_TEST_CASE(wait_read_completes_at_end_of_stream, pair_fixture)
{
  const error_code ec = wait_across(ioc, pair.client, wait::wait_read,
                                    [&] { pair.server.shutdown(tcp::socket::shutdown_send); });
  BOOST_TEST(!ec, ec.message());
}

BOOST_FIXTURE_TEST_CASE(wait_error_completes_on_a_reset, pair_fixture)
{
  const error_code ec = wait_across(ioc, pair.client, wait::wait_error, [&] {
    pair.server.set_option(asio::socket_base::linger(true, 0));
    pair.server.close(); // a reset
  });
  BOOST_TEST(!ec, ec.message());
}

BOOST_FIXTURE_TEST_CASE(wait_error_completes_on_urgent_data, pair_fixture)
{
  const error_code ec = wait_across(ioc, pair.client, wait::wait_error, [&] {
    pair.server.send(asio::buffer("!", 1), asio::socket_base::message_out_of_band);
  });
  BOOST_TEST(!ec, ec.message());
}

BOOST_AUTO_TEST_CASE(wait_read_on_a_datagram_socket)
{
  asio::io_context ioc;
  asio::ip::udp::socket receiver(ioc, {asio::ip::address_v4::loopback(), 0});
  asio::ip::udp::socket sender(ioc, {asio::ip::address_v4::loopback(), 0});
  const error_code ec = wait_across(ioc, receiver, wait::wait_read, [&] {
    sender.send_to(asio::buffer("d", 1), receiver.local_endpoint());
  });
  BOOST_TEST(!ec, ec.message());
  BOOST_TEST(receiver.available() == 1u);
}

#if defined(BOOST_ASIO_HAS_LOCAL_SOCKETS)
// Skipped, saying so, where opening an AF_UNIX stream socket reports that the system has none
// (Wine): any other failure fails the case.
boost::test_tools::assertion_result system_has_af_unix(boost::unit_test::test_unit_id)
{
  asio::io_context ioc;
  asio::local::stream_protocol::socket s(ioc);
  error_code ec;
  s.open(asio::local::stream_protocol(), ec);
  boost::test_tools::assertion_result result(ec != asio::error::address_family_not_supported);
  if (!result)
    result.message() << "skipped: the system has no AF_UNIX sockets (" << ec.message() << ")";
  return result;
}

BOOST_AUTO_TEST_CASE(wait_read_on_a_local_socket,
                     *boost::unit_test::precondition(system_has_af_unix))
{
  asio::io_context ioc;
  using local = asio::local::stream_protocol;
  // A path, not connect_pair: Windows has AF_UNIX sockets but no socketpair.
  const auto path =
      (std::filesystem::temp_directory_path() /
       ("an_wait_" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count())))
          .string();
  local::acceptor acceptor(ioc, local::endpoint(path));
  local::socket a(ioc), b(ioc);
  a.connect(local::endpoint(path));
  acceptor.accept(b);
  acceptor.close();
  std::filesystem::remove(path);
  const error_code ec =
      wait_across(ioc, a, wait::wait_read, [&] { asio::write(b, asio::buffer("l", 1)); });
  BOOST_TEST(!ec, ec.message());
}
#endif

BOOST_FIXTURE_TEST_CASE(slot_cancellation_of_every_type_aborts, pair_fixture)
{
  for (auto type : {asio::cancellation_type::terminal, asio::cancellation_type::partial,
                    asio::cancellation_type::total})
  {
    asio::cancellation_signal signal;
    outcome o;
    an::async_wait(pair.client, wait::wait_read,
                   asio::bind_cancellation_slot(signal.slot(), o.handler()));
    BOOST_TEST(stays_pending(ioc, o));
    signal.emit(type);
    const error_code ec = result_of(ioc, o);
    BOOST_TEST((ec == asio::error::operation_aborted), ec.message());
  }
  // The socket is as it was: a later wait completes on data.
  outcome later;
  an::async_wait(pair.client, wait::wait_read, later.handler());
  asio::write(pair.server, asio::buffer("x", 1));
  const error_code later_ec = result_of(ioc, later);
  BOOST_TEST(!later_ec, later_ec.message());
}

BOOST_FIXTURE_TEST_CASE(the_sockets_cancel_aborts_it, pair_fixture)
{
  outcome read, error;
  an::async_wait(pair.client, wait::wait_read, read.handler());
  an::async_wait(pair.client, wait::wait_error, error.handler());
  BOOST_TEST(stays_pending(ioc, read));
  pair.client.cancel();
  run_until(ioc, [&] { return read.ec && error.ec; });
  BOOST_REQUIRE(read.ec);
  BOOST_REQUIRE(error.ec);
  BOOST_TEST((*read.ec == asio::error::operation_aborted), read.ec->message());
  BOOST_TEST((*error.ec == asio::error::operation_aborted), error.ec->message());
}

BOOST_FIXTURE_TEST_CASE(the_sockets_close_aborts_it, pair_fixture)
{
  const error_code ec =
      wait_across(ioc, pair.client, wait::wait_read, [&] { pair.client.close(); });
  BOOST_TEST((ec == asio::error::operation_aborted), ec.message());
}

BOOST_AUTO_TEST_CASE(a_closed_socket_is_a_bad_descriptor)
{
  asio::io_context ioc;
  tcp::socket closed(ioc);
  outcome o;
  an::async_wait(closed, wait::wait_write, o.handler());
  BOOST_TEST(!o.ec);
  const error_code ec = result_of(ioc, o);
  BOOST_TEST((ec == asio::error::bad_descriptor), ec.message());
}

BOOST_FIXTURE_TEST_CASE(tokens, pair_fixture)
{
  // use_future, with run() on another thread.
  std::future<void> f = an::async_wait(pair.client, wait::wait_write, asio::use_future);
  std::thread runner([&] { ioc.run(); });
  BOOST_TEST((f.wait_for(std::chrono::seconds(20)) == std::future_status::ready));
  BOOST_CHECK_NO_THROW(f.get());
  runner.join();

  // deferred: nothing starts until the operation is launched.
  auto op = an::async_wait(pair.client, wait::wait_write, asio::deferred);
  outcome o;
  std::move(op)(o.handler());
  BOOST_TEST(!result_of(ioc, o));

  // as_tuple, and bind_executor: the handler runs on its strand.
  auto strand = asio::make_strand(ioc);
  bool on_strand = false;
  std::optional<error_code> result;
  an::async_wait(pair.client, wait::wait_write,
                 asio::bind_executor(strand, asio::as_tuple([&](std::tuple<error_code> t) {
                                       on_strand = strand.running_in_this_thread();
                                       result = std::get<0>(t);
                                     })));
  run_until(ioc, [&] { return result.has_value(); });
  BOOST_REQUIRE(result);
  BOOST_TEST(!*result);
  BOOST_TEST(on_strand);
}

// More sockets than FD_SETSIZE (64 on Windows), waiting for write and for errors at once:
// Asio's own waits of those kinds would start its select() thread; these start none.
BOOST_AUTO_TEST_CASE(many_sockets_on_one_to_four_threads_start_no_thread)
{
  constexpr std::size_t n = 100;
  for (std::size_t threads = 1; threads <= 4; ++threads)
  {
    asio::io_context ioc;
    std::vector<test_support::basic_tcp_pair<tcp::socket>> pairs;
    for (std::size_t i = 0; i < n; ++i)
      pairs.push_back(test_support::make_basic_tcp_pair<tcp>(ioc));
    const std::size_t before = thread_count();
    std::atomic<std::size_t> writable{0}, readable{0}, errors{0}, failed{0};
    for (auto& p : pairs)
    {
      an::async_wait(p.client, wait::wait_write,
                     [&](error_code ec) { ++(ec ? failed : writable); });
      an::async_wait(p.client, wait::wait_read, [&](error_code ec) { ++(ec ? failed : readable); });
      an::async_wait(p.client, wait::wait_error, [&](error_code ec) {
        ++(ec == asio::error::operation_aborted ? errors : failed);
      });
    }
    BOOST_TEST(thread_count() == before, "threads before running: " << threads);
    for (auto& p : pairs)
      asio::write(p.server, asio::buffer("x", 1));
    std::vector<std::thread> runners;
    for (std::size_t t = 1; t < threads; ++t)
      runners.emplace_back([&] { ioc.run_for(std::chrono::seconds(20)); });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while ((writable < n || readable < n) && std::chrono::steady_clock::now() < deadline)
      ioc.run_one_for(std::chrono::milliseconds(50));
    BOOST_TEST(thread_count() == before + (threads - 1), threads << " threads");
    for (auto& p : pairs)
      p.client.cancel(); // ends the error waits
    const auto cancelled = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (errors < n && std::chrono::steady_clock::now() < cancelled)
      ioc.run_one_for(std::chrono::milliseconds(50));
    ioc.stop();
    for (auto& r : runners)
      r.join();
    BOOST_TEST(writable.load() == n, threads << " threads");
    BOOST_TEST(readable.load() == n, threads << " threads");
    BOOST_TEST(errors.load() == n, threads << " threads");
    BOOST_TEST(failed.load() == 0u, threads << " threads");
  }
}

BOOST_FIXTURE_TEST_CASE(run_returns_once_the_waits_are_cancelled, pair_fixture)
{
  asio::cancellation_signal signal;
  outcome o;
  an::async_wait(pair.client, wait::wait_read,
                 asio::bind_cancellation_slot(signal.slot(), o.handler()));
  asio::post(ioc, [&] { signal.emit(asio::cancellation_type::terminal); });
  ioc.restart();
  auto done = std::async(std::launch::async, [&] { return ioc.run(); });
  BOOST_REQUIRE((done.wait_for(std::chrono::seconds(20)) == std::future_status::ready));
  BOOST_REQUIRE(o.ec);
  BOOST_TEST((*o.ec == asio::error::operation_aborted), o.ec->message());
}

// The io_context goes with waits pending whose handlers own their sockets: the sockets'
// service closes them first, each wait's poll completes, and Asio's shutdown destroys the
// handlers unrun.
BOOST_AUTO_TEST_CASE(destruction_with_waits_pending_neither_hangs_nor_leaks)
{
  auto alive = std::make_shared<int>(0);
  std::atomic<std::size_t> invoked{0};
  // Boost.Test's checks are for the main thread alone: the count comes back as a result.
  auto destroyed = std::async(std::launch::async, [&] {
    asio::io_context ioc;
    for (int i = 0; i < 40; ++i)
    {
      auto p = std::make_shared<test_support::basic_tcp_pair<tcp::socket>>(
          test_support::make_basic_tcp_pair<tcp>(ioc));
      an::async_wait(p->client, wait::wait_read, [p, alive, &invoked](error_code) { ++invoked; });
    }
    ioc.poll();
    return alive.use_count();
  });
  BOOST_REQUIRE((destroyed.wait_for(std::chrono::seconds(20)) == std::future_status::ready));
  BOOST_TEST(destroyed.get() == 41);
  BOOST_TEST(invoked.load() == 0u);
  BOOST_TEST(alive.use_count() == 1);
}

BOOST_AUTO_TEST_SUITE_END()
