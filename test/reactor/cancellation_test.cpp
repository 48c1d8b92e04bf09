//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Cancellation and teardown: per-operation cancellation slots, cancel(), cancel and close from
// another thread, close with pending operations, and an io_context destroyed with pending
// operations (handlers destroyed, never invoked).
#include "helpers.hpp"

#include <memory>
#include <new>
#include <string>
#include <thread>
#include <vector>

namespace {

const asio::cancellation_type cancellation_types[] = {asio::cancellation_type::terminal,
                                                      asio::cancellation_type::partial,
                                                      asio::cancellation_type::total};

const char* name_of(asio::cancellation_type t)
{
  switch (t)
  {
  case asio::cancellation_type::terminal:
    return "terminal";
  case asio::cancellation_type::partial:
    return "partial";
  case asio::cancellation_type::total:
    return "total";
  default:
    return "other";
  }
}

// Checks that `r` is still pending, then that `sig.emit(type)` ends it, once, with
// operation_aborted after `bytes` bytes.
void expect_cancelled(asio::io_context& ioc, asio::cancellation_signal& sig,
                      asio::cancellation_type type, const op_result& r, std::size_t bytes)
{
  drain(ioc);
  BOOST_TEST(!r.done());
  sig.emit(type);
  BOOST_TEST(run_until_done(ioc, r));
  CHECK_EC(r.ec, asio::error::operation_aborted);
  BOOST_TEST(r.bytes == bytes);
  drain(ioc);
  BOOST_TEST(r.calls == 1);
}

} // namespace

BOOST_AUTO_TEST_SUITE(cancellation)

// ---- per-operation cancellation slots ----------------------------------------------------------

BOOST_AUTO_TEST_CASE(slot_cancels_each_socket_operation_for_each_type)
{
  // Socket operations support terminal, partial and total cancellation: each aborts the
  // operation with operation_aborted and leaves the socket usable.
  for (const auto type : cancellation_types)
  {
    BOOST_TEST_CONTEXT(name_of(type))
    {
      asio::io_context ioc;
      auto p = make_tcp_pair(ioc);
      auto u = make_udp_pair(ioc);
      tcp::acceptor acceptor(ioc, loopback_tcp());
      tcp::socket accepted(ioc);
      char buf[8], nbuf[8], ubuf[8];
      udp::endpoint from;

      constexpr int n = 7;
      asio::cancellation_signal signals[n];
      op_result results[n];
      const char* names[n] = {"async_read_some",   "async_receive",     "async_wait(read)",
                              "async_wait(error)", "null_buffers read", "async_receive_from",
                              "async_accept"};
      auto h = [&](int i) {
        return asio::bind_cancellation_slot(signals[i].slot(), capture(results[i]));
      };
      p.server.async_read_some(asio::buffer(buf), h(0));
      p.client.async_receive(asio::buffer(nbuf), h(1));
      u.a.async_wait(udp::socket::wait_read, h(2));
      p.client.async_wait(tcp::socket::wait_error, h(3));
      u.b.async_receive(test_null_buffers(), h(4));
      u.b.async_receive_from(asio::buffer(ubuf), from, h(5));
      acceptor.async_accept(accepted, h(6));
      drain(ioc);
      for (int i = 0; i < n; ++i)
      {
        BOOST_TEST_CONTEXT(names[i])
        {
          BOOST_TEST(!results[i].done());
          signals[i].emit(type);
          BOOST_TEST(run_until_done(ioc, results[i]));
          CHECK_EC(results[i].ec, asio::error::operation_aborted);
        }
      }
      drain(ioc);
      for (int i = 0; i < n; ++i)
        BOOST_TEST(results[i].calls == 1);

      // The sockets still work.
      op_result again;
      p.server.async_read_some(asio::buffer(buf), capture(again));
      asio::write(p.client, asio::buffer("k", 1));
      BOOST_TEST(run_until_done(ioc, again));
      CHECK_OK(again.ec);
      BOOST_TEST(again.bytes == 1u);
    }
  }
}

BOOST_AUTO_TEST_CASE(slot_cancels_pending_write)
{
  for (const auto type : cancellation_types)
  {
    BOOST_TEST_CONTEXT(name_of(type))
    {
      asio::io_context ioc;
      auto p = make_tcp_pair(ioc);
      fill_send_buffer(p);
      std::vector<char> more(65536, 'm');
      asio::cancellation_signal sig;
      op_result w;
      p.client.async_write_some(asio::buffer(more),
                                asio::bind_cancellation_slot(sig.slot(), capture(w)));
      expect_cancelled(ioc, sig, type, w, 0u);
    }
  }
}

BOOST_AUTO_TEST_CASE(emit_none_and_unrelated_signals_do_not_cancel)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  asio::cancellation_signal s1, s2;
  op_result r1, r2;
  // Two waits on one socket, each with its own slot: cancelling one leaves the other.
  p.server.async_wait(tcp::socket::wait_read, asio::bind_cancellation_slot(s1.slot(), capture(r1)));
  p.server.async_wait(tcp::socket::wait_read, asio::bind_cancellation_slot(s2.slot(), capture(r2)));
  drain(ioc);
  s2.emit(asio::cancellation_type::none);
  drain(ioc);
  BOOST_TEST(!r2.done());
  s1.emit(asio::cancellation_type::terminal);
  BOOST_TEST(run_until_done(ioc, r1));
  CHECK_EC(r1.ec, asio::error::operation_aborted);
  drain(ioc);
  BOOST_TEST(!r2.done());
  asio::write(p.client, asio::buffer("d", 1));
  BOOST_TEST(run_until_done(ioc, r2));
  CHECK_OK(r2.ec);
  drain(ioc);
  BOOST_TEST(r1.calls == 1);
  BOOST_TEST(r2.calls == 1);
}

namespace {

/// A cancellation slot that cannot take a handler: out of memory whenever one is installed.
struct full_slot
{
  bool is_connected() const noexcept { return true; }

  template <class CancellationHandler, class... Args>
  CancellationHandler& emplace(Args&&...)
  {
    throw std::bad_alloc();
  }
};

} // namespace

// A canceller the slot cannot take fails the initiating function with the slot's exception;
// the operation is freed and its handler destroyed without being invoked, as with Asio.
BOOST_AUTO_TEST_CASE(slot_that_cannot_take_the_canceller_frees_the_operation)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  char buf[4];
  op_result r;
  allocation_counters counters;
  BOOST_CHECK_THROW(
      p.server.async_read_some(
          asio::buffer(buf),
          asio::bind_cancellation_slot(
              full_slot{}, asio::bind_allocator(counting_allocator<void>(counters), capture(r)))),
      std::bad_alloc);
  BOOST_TEST(counters.allocations >= 1);
  BOOST_TEST(counters.allocations == counters.deallocations);
  drain(ioc);
  BOOST_TEST(!r.done());

  // The socket goes on working.
  op_result next;
  p.server.async_read_some(asio::buffer(buf), capture(next));
  asio::write(p.client, asio::buffer("x", 1));
  BOOST_TEST(run_until_done(ioc, next));
  CHECK_OK(next.ec);
}

BOOST_AUTO_TEST_CASE(emit_after_completion_has_no_effect)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  asio::cancellation_signal sig;
  char buf[4];
  op_result r;
  p.server.async_read_some(asio::buffer(buf), asio::bind_cancellation_slot(sig.slot(), capture(r)));
  asio::write(p.client, asio::buffer("x", 1));
  BOOST_TEST(run_until_done(ioc, r));
  CHECK_OK(r.ec);
  sig.emit(asio::cancellation_type::terminal);
  drain(ioc);
  BOOST_TEST(r.calls == 1);

  // The same signal serves the next operation.
  op_result r2;
  p.server.async_read_some(asio::buffer(buf),
                           asio::bind_cancellation_slot(sig.slot(), capture(r2)));
  drain(ioc);
  sig.emit(asio::cancellation_type::terminal);
  expect_once(ioc, r2, asio::error::operation_aborted);
}

BOOST_AUTO_TEST_CASE(slot_on_composed_read_reports_partial_progress)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  asio::cancellation_signal sig;
  char buf[4];
  op_result r;
  asio::async_read(p.server, asio::buffer(buf),
                   asio::bind_cancellation_slot(sig.slot(), capture(r)));
  asio::write(p.client, asio::buffer("ab", 2));
  BOOST_TEST(run_until(ioc, [&] { return p.server.available() == 0u; }));
  expect_cancelled(ioc, sig, asio::cancellation_type::terminal, r, 2u);
}

// ---- cancel() ---------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(cancel_aborts_pending_writes_too)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  fill_send_buffer(p);
  char buf[8];
  std::vector<char> more(65536, 'm');
  op_result write, composed_write, wait_write, read;
  p.client.async_write_some(asio::buffer(more), capture(write));
  asio::async_write(p.client, asio::buffer(more), capture(composed_write));
  p.client.async_wait(tcp::socket::wait_write, capture(wait_write));
  p.client.async_read_some(asio::buffer(buf), capture(read));
  drain(ioc);
  BOOST_TEST(!write.done());
  BOOST_TEST(!wait_write.done());
  p.client.cancel();
  BOOST_TEST(run_until_done(ioc, write, composed_write, wait_write, read));
  for (const op_result* x : {&write, &composed_write, &wait_write, &read})
    CHECK_EC(x->ec, asio::error::operation_aborted);
  BOOST_TEST(write.bytes == 0u);
  drain(ioc);
  for (const op_result* x : {&write, &composed_write, &wait_write, &read})
    BOOST_TEST(x->calls == 1);
}

BOOST_AUTO_TEST_CASE(cancel_idle_pending_reads_and_reuse)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  char buf[8];
  op_result read, receive, wait_read, wait_error, null_read, composed;
  p.server.async_read_some(asio::buffer(buf), capture(read));
  p.server.async_wait(tcp::socket::wait_read, capture(wait_read));
  p.server.async_wait(tcp::socket::wait_error, capture(wait_error));
  p.server.async_receive(test_null_buffers(), capture(null_read));
  p.client.async_receive(asio::buffer(buf), capture(receive));
  asio::async_read(p.client, asio::buffer(buf), capture(composed));
  drain(ioc);
  BOOST_TEST(!read.done());
  error_code ec;
  p.server.cancel(ec);
  CHECK_OK(ec);
  p.client.cancel();
  BOOST_TEST(run_until_done(ioc, read, receive, wait_read, wait_error, null_read, composed));
  for (const op_result* x : {&read, &receive, &wait_read, &wait_error, &null_read, &composed})
  {
    CHECK_EC(x->ec, asio::error::operation_aborted);
  }
  BOOST_TEST(p.server.is_open());

  // cancel() with nothing pending is harmless, and the socket works afterwards.
  p.server.cancel();
  op_result after;
  p.server.async_read_some(asio::buffer(buf), capture(after));
  asio::write(p.client, asio::buffer("z", 1));
  BOOST_TEST(run_until_done(ioc, after));
  CHECK_OK(after.ec);
  drain(ioc);
  for (const op_result* x :
       {&read, &receive, &wait_read, &wait_error, &null_read, &composed, &after})
    BOOST_TEST(x->calls == 1);
}

BOOST_AUTO_TEST_CASE(cancel_from_another_thread)
{
  // The io_context runs on two threads; the test thread starts and cancels operations.
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  background_threads runner(ioc, 2);
  char buf[64];

  // Pure cancellation: every read is aborted, each handler runs once.
  constexpr int rounds = 200;
  std::atomic<int> aborted{0}, calls{0};
  for (int i = 0; i < rounds; ++i)
  {
    std::atomic<bool> done{false};
    p.server.async_read_some(asio::buffer(buf), [&](error_code ec, std::size_t) {
      if (ec == asio::error::operation_aborted)
        ++aborted;
      ++calls;
      done = true;
    });
    if (i % 2)
      std::this_thread::yield(); // sometimes let the operation reach its wait first
    p.server.cancel();
    BOOST_REQUIRE(wait_until([&] { return done.load(); }));
  }
  BOOST_TEST(aborted == rounds);
  BOOST_TEST(calls == rounds);

  // Cancellation racing with arriving data: each handler runs once, with either result, and
  // no byte is lost.
  std::size_t read_total = 0;
  int other_errors = 0;
  std::atomic<int> calls2{0};
  for (int i = 0; i < rounds; ++i)
  {
    std::atomic<bool> done{false};
    p.server.async_read_some(asio::buffer(buf), [&](error_code ec, std::size_t n) {
      if (!ec)
        read_total += n;
      else if (ec != asio::error::operation_aborted)
        ++other_errors;
      ++calls2;
      done = true;
    });
    p.client.write_some(asio::buffer("r", 1));
    p.server.cancel();
    BOOST_REQUIRE(wait_until([&] { return done.load(); }));
  }
  runner.stop();
  BOOST_TEST(calls2 == rounds);
  BOOST_TEST(other_errors == 0);
  // The last bytes written may still be on their way through loopback.
  const auto accounted = [&] {
    return read_total + p.server.available();
  };
  BOOST_TEST(wait_until([&] { return accounted() == static_cast<std::size_t>(rounds); }));
  BOOST_TEST(accounted() == static_cast<std::size_t>(rounds));
}

// ---- close with pending operations ----------------------------------------------------------

BOOST_AUTO_TEST_CASE(close_completes_each_pending_operation_once)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  auto u = make_udp_pair(ioc);
  fill_send_buffer(p);
  char buf[8];
  std::vector<char> more(65536, 'm');
  udp::endpoint from;
  once_tracker once;
  std::vector<error_code> results;
  auto h = [&] {
    return once.wrap([&](error_code ec, std::size_t = 0) { results.push_back(ec); });
  };

  p.client.async_write_some(asio::buffer(more), h());
  asio::async_write(p.client, asio::buffer(more), h());
  p.client.async_read_some(asio::buffer(buf), h());
  p.client.async_wait(tcp::socket::wait_read, h());
  p.client.async_wait(tcp::socket::wait_write, h());
  p.client.async_wait(tcp::socket::wait_error, h());
  p.client.async_receive(test_null_buffers(), h());
  asio::async_read(p.client, asio::buffer(buf), h());
  u.a.async_receive_from(asio::buffer(buf), from, h());
  u.a.async_receive(test_null_buffers(), h());
  u.a.async_wait(udp::socket::wait_error, h());
  drain(ioc);
  BOOST_TEST(results.empty());
  p.client.close();
  u.a.close();
  BOOST_TEST(run_until(ioc, [&] { return once.invoked() == once.created(); }));
  drain(ioc);
  BOOST_TEST(once.all_once());
  BOOST_TEST(results.size() == 11u);
  for (const auto& ec : results)
    CHECK_EC(ec, asio::error::operation_aborted);
}

BOOST_AUTO_TEST_CASE(close_from_another_thread)
{
  asio::io_context ioc;
  background_threads runner(ioc, 2);
  constexpr int rounds = 100;
  std::atomic<int> aborted{0}, calls{0};
  for (int i = 0; i < rounds; ++i)
  {
    auto p = make_tcp_pair(ioc);
    char buf[8];
    std::atomic<int> done{0};
    auto h = [&](error_code ec, std::size_t = 0) {
      if (ec == asio::error::operation_aborted)
        ++aborted;
      ++calls;
      ++done;
    };
    p.server.async_read_some(asio::buffer(buf), h);
    p.server.async_wait(tcp::socket::wait_read, h);
    p.server.close();
    BOOST_REQUIRE(wait_until([&] { return done == 2; }));
  }
  runner.stop();
  BOOST_TEST(aborted == 2 * rounds);
  BOOST_TEST(calls == 2 * rounds);
}

BOOST_AUTO_TEST_CASE(destroying_socket_aborts_pending_operations)
{
  asio::io_context ioc;
  op_result r, w;
  {
    auto p = make_tcp_pair(ioc);
    char buf[8];
    p.server.async_read_some(asio::buffer(buf), capture(r));
    p.server.async_wait(tcp::socket::wait_error, capture(w));
    drain(ioc);
  }
  BOOST_TEST(run_until_done(ioc, r, w));
  CHECK_EC(r.ec, asio::error::operation_aborted);
  CHECK_EC(w.ec, asio::error::operation_aborted);
  drain(ioc);
  BOOST_TEST(r.calls == 1);
  BOOST_TEST(w.calls == 1);
}

// ---- io_context destroyed with pending operations ------------------------------------------

namespace {

// Everything the pending operations use, owned by their handlers.
struct handler_owned_objects
{
  explicit handler_owned_objects(asio::io_context& ioc)
      : p(make_tcp_pair(ioc)), u(make_udp_pair(ioc)), acceptor(ioc, loopback_tcp()), accepted(ioc)
  {
  }
  tcp_pair p;
  udp_pair u;
  tcp::acceptor acceptor;
  tcp::socket accepted;
  char buf[16] = {};
  char ubuf[16] = {};
  udp::endpoint from;
};

void start_pending_operations(const std::shared_ptr<handler_owned_objects>& o, lifetime_counters& c)
{
  o->p.server.async_read_some(asio::buffer(o->buf), tracked_handler(c, o));
  o->p.client.async_wait(tcp::socket::wait_error, tracked_handler(c, o));
  o->p.client.async_receive(test_null_buffers(), tracked_handler(c, o));
  asio::async_read(o->p.client, asio::buffer(o->buf), tracked_handler(c, o));
  o->u.a.async_receive_from(asio::buffer(o->ubuf), o->from, tracked_handler(c, o));
  o->u.b.async_wait(udp::socket::wait_read, tracked_handler(c, o));
  o->acceptor.async_accept(o->accepted, tracked_handler(c, o));
  o->acceptor.async_accept(tracked_handler(c, o));
}

} // namespace

BOOST_AUTO_TEST_CASE(io_context_destroyed_with_pending_operations)
{
  for (const bool ran : {false, true})
  {
    BOOST_TEST_CONTEXT((ran ? "after running" : "never run"))
    {
      lifetime_counters counters;
      std::weak_ptr<handler_owned_objects> watch;
      {
        auto ioc = std::make_unique<asio::io_context>();
        auto objects = std::make_shared<handler_owned_objects>(*ioc);
        watch = objects;
        start_pending_operations(objects, counters);
        objects.reset();
        BOOST_TEST(!watch.expired());
        if (ran)
        {
          ioc->run_for(30ms);
          BOOST_TEST(counters.invoked == 0);
        }
        BOOST_TEST(counters.live > 0);
        ioc.reset();
      }
      BOOST_TEST(counters.invoked == 0);
      BOOST_TEST(counters.live == 0);
      BOOST_TEST(watch.expired());
    }
  }
}

BOOST_AUTO_TEST_CASE(io_context_destroyed_with_aborted_completions_queued)
{
  // Closing sockets queues operation_aborted completions; if the io_context never runs them,
  // its destruction destroys them without invoking them.
  lifetime_counters counters;
  {
    auto ioc = std::make_unique<asio::io_context>();
    {
      auto p = make_tcp_pair(*ioc);
      char buf[8];
      p.server.async_read_some(asio::buffer(buf), tracked_handler(counters));
      p.server.async_wait(tcp::socket::wait_read, tracked_handler(counters));
      tcp::socket closed(*ioc);
      closed.async_wait(tcp::socket::wait_write, tracked_handler(counters));
    }
    BOOST_TEST(counters.live > 0);
    ioc.reset();
  }
  BOOST_TEST(counters.invoked == 0);
  BOOST_TEST(counters.live == 0);
}

BOOST_AUTO_TEST_SUITE_END()
