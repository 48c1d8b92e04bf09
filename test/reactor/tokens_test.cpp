//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Completion tokens and associated characteristics: echo over TCP and UDP with callbacks,
// use_future, deferred and detached; composed operations on dynamic buffers; handlers run
// through their associated executor and never inside the initiating function; the associated
// allocator stores the operation.
#include "helpers.hpp"

#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

// Echoes everything it reads on `s` until eof or error; counts bytes echoed.
class tcp_echo : public std::enable_shared_from_this<tcp_echo>
{
public:
  explicit tcp_echo(tcp::socket s) : socket_(std::move(s)) {}

  static std::shared_ptr<tcp_echo> start(tcp::socket s)
  {
    auto self = std::make_shared<tcp_echo>(std::move(s));
    self->read();
    return self;
  }

  std::atomic<std::size_t> echoed{0};
  std::atomic<bool> finished{false};

private:
  void read()
  {
    socket_.async_read_some(asio::buffer(buf_),
                            [self = shared_from_this()](error_code ec, std::size_t n) {
                              if (ec)
                              {
                                self->finished = true;
                                return;
                              }
                              self->write(n);
                            });
  }

  void write(std::size_t n)
  {
    asio::async_write(socket_, asio::buffer(buf_, n),
                      [self = shared_from_this()](error_code ec, std::size_t m) {
                        if (ec)
                        {
                          self->finished = true;
                          return;
                        }
                        self->echoed += m;
                        self->read();
                      });
  }

  tcp::socket socket_;
  char buf_[1024];
};

// Sends every datagram back to its sender.
class udp_echo : public std::enable_shared_from_this<udp_echo>
{
public:
  explicit udp_echo(udp::socket s) : socket_(std::move(s)) {}

  static std::shared_ptr<udp_echo> start(udp::socket s)
  {
    auto self = std::make_shared<udp_echo>(std::move(s));
    self->receive();
    return self;
  }

  udp::endpoint local_endpoint() const { return socket_.local_endpoint(); }
  std::atomic<int> echoed{0};
  void stop() { socket_.close(); }

private:
  void receive()
  {
    socket_.async_receive_from(
        asio::buffer(buf_), from_, [self = shared_from_this()](error_code ec, std::size_t n) {
          if (ec)
            return;
          self->socket_.async_send_to(asio::buffer(self->buf_, n), self->from_,
                                      [self](error_code ec2, std::size_t) {
                                        if (!ec2)
                                          ++self->echoed;
                                        self->receive();
                                      });
        });
  }

  udp::socket socket_;
  udp::endpoint from_;
  char buf_[2048];
};

template <typename T>
bool ready_in_time(std::future<T>& f)
{
  return f.wait_for(test_timeout) == std::future_status::ready;
}

} // namespace

BOOST_AUTO_TEST_SUITE(tokens)

// ---- echo with each token kind ---------------------------------------------------------------

BOOST_AUTO_TEST_CASE(tcp_echo_callbacks)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  auto echo = tcp_echo::start(std::move(p.server));
  once_tracker once;
  const std::string msg = "callback echo";
  std::string reply(msg.size(), '\0');
  bool replied = false;

  asio::async_write(p.client, asio::buffer(msg), once.wrap([&](error_code ec, std::size_t n) {
    CHECK_OK(ec);
    BOOST_TEST(n == msg.size());
    asio::async_read(p.client, asio::buffer(reply), once.wrap([&](error_code ec2, std::size_t m) {
      CHECK_OK(ec2);
      BOOST_TEST(m == msg.size());
      replied = true;
    }));
  }));
  BOOST_TEST(run_until(ioc, [&] { return replied; }));
  BOOST_TEST(reply == msg);
  p.client.close();
  BOOST_TEST(run_until(ioc, [&] { return echo->finished.load(); }));
  drain(ioc);
  BOOST_TEST(once.all_once());
  BOOST_TEST(once.created() == 2);
}

BOOST_AUTO_TEST_CASE(tcp_echo_use_future)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  auto echo = tcp_echo::start(std::move(p.server));
  background_threads runner(ioc, 1);

  const std::string msg = "future echo";
  std::future<std::size_t> w = asio::async_write(p.client, asio::buffer(msg), asio::use_future);
  BOOST_REQUIRE(ready_in_time(w));
  BOOST_TEST(w.get() == msg.size());
  std::string reply(msg.size(), '\0');
  std::future<std::size_t> r = asio::async_read(p.client, asio::buffer(reply), asio::use_future);
  BOOST_REQUIRE(ready_in_time(r));
  BOOST_TEST(r.get() == msg.size());
  BOOST_TEST(reply == msg);

  // Member functions, and a void(error_code) signature.
  std::future<void> ww = p.client.async_wait(tcp::socket::wait_write, asio::use_future);
  BOOST_REQUIRE(ready_in_time(ww));
  BOOST_CHECK_NO_THROW(ww.get());
  std::future<std::size_t> s = p.client.async_write_some(asio::buffer("m", 1), asio::use_future);
  BOOST_REQUIRE(ready_in_time(s));
  BOOST_TEST(s.get() == 1u);
  char c = 0;
  std::future<std::size_t> rr = p.client.async_read_some(asio::buffer(&c, 1), asio::use_future);
  BOOST_REQUIRE(ready_in_time(rr));
  BOOST_TEST(rr.get() == 1u);
  BOOST_TEST(c == 'm');
}

BOOST_AUTO_TEST_CASE(use_future_reports_errors_as_exceptions)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  background_threads runner(ioc, 1);
  char buf[4];

  std::future<std::size_t> r = p.server.async_read_some(asio::buffer(buf), asio::use_future);
  reset_close(p.client);
  BOOST_REQUIRE(ready_in_time(r));
  const error_code reset =
      reads_overlapped(ioc) ? error_code(asio::error::connection_reset) : peer_reset_read_error();
  try
  {
    r.get();
    BOOST_ERROR("no exception");
  }
  catch (const system_error& e)
  {
    CHECK_EC(e.code(), reset);
  }

  auto q = make_tcp_pair(ioc);
  q.client.shutdown(tcp::socket::shutdown_send);
  std::future<std::size_t> e = q.server.async_receive(asio::buffer(buf), asio::use_future);
  BOOST_REQUIRE(ready_in_time(e));
  CHECK_THROWS_EC(e.get(), asio::error::eof);

  tcp::socket closed(ioc);
  std::future<void> w = closed.async_wait(tcp::socket::wait_read, asio::use_future);
  BOOST_REQUIRE(ready_in_time(w));
  CHECK_THROWS_EC(w.get(), asio::error::bad_descriptor);
}

BOOST_AUTO_TEST_CASE(tcp_echo_deferred)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  const std::string msg = "deferred";

  // Nothing starts until the deferred operation is invoked.
  auto write_op = p.client.async_write_some(asio::buffer(msg), asio::deferred);
  drain(ioc);
  BOOST_TEST(p.server.available() == 0u);

  // The server side: a read chained to a write of what was read.
  char buf[64];
  auto echo_op =
      p.server.async_read_some(asio::buffer(buf), asio::deferred) |
      asio::deferred([&](error_code ec, std::size_t n) {
        BOOST_TEST(!ec);
        return asio::async_write(p.server, asio::buffer(buf, ec ? 0 : n), asio::deferred);
      });

  once_tracker once;
  op_result wrote, echoed, got;
  std::move(write_op)(once.wrap(capture(wrote)));
  std::move(echo_op)(once.wrap(capture(echoed)));
  std::string reply(msg.size(), '\0');
  asio::async_read(p.client, asio::buffer(reply), asio::deferred)(once.wrap(capture(got)));
  BOOST_TEST(run_until_done(ioc, wrote, echoed, got));
  CHECK_OK(wrote.ec);
  CHECK_OK(echoed.ec);
  CHECK_OK(got.ec);
  BOOST_TEST(wrote.bytes == msg.size());
  BOOST_TEST(echoed.bytes == msg.size());
  BOOST_TEST(reply == msg);
  drain(ioc);
  BOOST_TEST(once.all_once());
}

BOOST_AUTO_TEST_CASE(tcp_echo_detached)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  auto echo = tcp_echo::start(std::move(p.server));
  const std::string msg = "detached";
  asio::async_write(p.client, asio::buffer(msg), asio::detached);
  p.client.async_wait(tcp::socket::wait_write, asio::detached);
  // The effect is observable on the other side: the echo server saw and returned it.
  BOOST_TEST(run_until(ioc, [&] { return echo->echoed == msg.size(); }));
  BOOST_TEST(run_until(ioc, [&] { return p.client.available() == msg.size(); }));
  std::string reply(msg.size(), '\0');
  asio::read(p.client, asio::buffer(reply));
  BOOST_TEST(reply == msg);
}

BOOST_AUTO_TEST_CASE(udp_echo_all_tokens)
{
  asio::io_context ioc;
  auto echo = udp_echo::start(udp::socket(ioc, loopback_udp()));
  const udp::endpoint server = echo->local_endpoint();
  udp::socket client(ioc, loopback_udp());
  char buf[64];
  udp::endpoint from;

  // Callbacks.
  op_result sent, got;
  client.async_send_to(asio::buffer("cb", 2), server, capture(sent));
  client.async_receive_from(asio::buffer(buf), from, capture(got));
  BOOST_TEST(run_until_done(ioc, sent, got));
  CHECK_OK(got.ec);
  BOOST_TEST(std::string(buf, got.bytes) == "cb");
  BOOST_TEST(from == server);

  // deferred.
  op_result sent2, got2;
  auto send_op = client.async_send_to(asio::buffer("df", 2), server, asio::deferred);
  auto recv_op = client.async_receive_from(asio::buffer(buf), from, asio::deferred);
  drain(ioc);
  BOOST_TEST(echo->echoed == 1);
  std::move(send_op)(capture(sent2));
  std::move(recv_op)(capture(got2));
  BOOST_TEST(run_until_done(ioc, sent2, got2));
  BOOST_TEST(std::string(buf, got2.bytes) == "df");

  // detached.
  client.async_send_to(asio::buffer("dt", 2), server, asio::detached);
  BOOST_TEST(run_until(ioc, [&] { return echo->echoed == 3; }));
  BOOST_TEST(client.receive_from(asio::buffer(buf), from) == 2u);
  BOOST_TEST(std::string(buf, 2) == "dt");

  // use_future, with the context on another thread.
  {
    background_threads runner(ioc, 1);
    std::future<std::size_t> s =
        client.async_send_to(asio::buffer("uf", 2), server, asio::use_future);
    std::future<std::size_t> r =
        client.async_receive_from(asio::buffer(buf), from, asio::use_future);
    BOOST_REQUIRE(ready_in_time(s));
    BOOST_REQUIRE(ready_in_time(r));
    BOOST_TEST(s.get() == 2u);
    BOOST_TEST(r.get() == 2u);
    BOOST_TEST(std::string(buf, 2) == "uf");
    asio::post(ioc, [&] { echo->stop(); });
  }
  drain(ioc);
  BOOST_TEST(sent.calls == 1);
  BOOST_TEST(got.calls == 1);
  BOOST_TEST(sent2.calls == 1);
  BOOST_TEST(got2.calls == 1);
}

// ---- composed operations on dynamic buffers -----------------------------------------------

BOOST_AUTO_TEST_CASE(composed_with_dynamic_string_buffer)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  std::string in;
  op_result line1, line2, exact, rest, wrote;

  asio::async_write(p.client, asio::buffer(std::string_view("first\nsecond\r\n0123456789tail")),
                    capture(wrote));
  asio::async_read_until(p.server, asio::dynamic_buffer(in), '\n', capture(line1));
  BOOST_TEST(run_until_done(ioc, wrote, line1));
  CHECK_OK(line1.ec);
  BOOST_TEST(line1.bytes == 6u);
  BOOST_TEST(in.substr(0, line1.bytes) == "first\n");
  in.erase(0, line1.bytes);

  asio::async_read_until(p.server, asio::dynamic_buffer(in), "\r\n", capture(line2));
  BOOST_TEST(run_until_done(ioc, line2));
  CHECK_OK(line2.ec);
  BOOST_TEST(in.substr(0, line2.bytes) == "second\r\n");
  in.erase(0, line2.bytes);

  // transfer_exactly on top of what is already buffered.
  const std::size_t before = in.size();
  asio::async_read(p.server, asio::dynamic_buffer(in), asio::transfer_exactly(14 - before),
                   capture(exact));
  BOOST_TEST(run_until_done(ioc, exact));
  CHECK_OK(exact.ec);
  BOOST_TEST(in == "0123456789tail");

  // Reading to eof: everything arrives and the operation reports eof.
  asio::async_write(p.client, asio::buffer("end", 3), [&](error_code ec, std::size_t) {
    CHECK_OK(ec);
    p.client.shutdown(tcp::socket::shutdown_send);
  });
  in.clear();
  asio::async_read(p.server, asio::dynamic_buffer(in), capture(rest));
  BOOST_TEST(run_until_done(ioc, rest));
  CHECK_EC(rest.ec, asio::error::eof);
  BOOST_TEST(in == "end");
  BOOST_TEST(rest.bytes == 3u);

  // A delimiter never found within max_size: not_found.
  auto q = make_tcp_pair(ioc);
  std::string small;
  op_result nf;
  asio::write(q.client, asio::buffer("no delimiter here", 17));
  asio::async_read_until(q.server, asio::dynamic_buffer(small, 8), '\n', capture(nf));
  BOOST_TEST(run_until_done(ioc, nf));
  CHECK_EC(nf.ec, asio::error::not_found);

  drain(ioc);
  for (const op_result* x : {&line1, &line2, &exact, &rest, &wrote, &nf})
    BOOST_TEST(x->calls == 1);
}

BOOST_AUTO_TEST_CASE(composed_with_streambuf)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  asio::streambuf out;
  {
    std::ostream os(&out);
    os << "header: value\r\n\r\nbody-bytes";
  }
  const std::size_t total = out.size();
  op_result wrote, head, body;
  asio::async_write(p.client, out, capture(wrote));
  asio::streambuf in;
  asio::async_read_until(p.server, in, "\r\n\r\n", capture(head));
  BOOST_TEST(run_until_done(ioc, wrote, head));
  CHECK_OK(wrote.ec);
  BOOST_TEST(wrote.bytes == total);
  BOOST_TEST(out.size() == 0u); // consumed
  CHECK_OK(head.ec);
  BOOST_TEST(head.bytes == 17u);
  in.consume(head.bytes);

  const std::size_t have = in.size();
  asio::async_read(p.server, in, asio::transfer_exactly(10 - have), capture(body));
  BOOST_TEST(run_until_done(ioc, body));
  CHECK_OK(body.ec);
  std::string b(asio::buffers_begin(in.data()), asio::buffers_end(in.data()));
  BOOST_TEST(b == "body-bytes");

  // async_read_until with a streambuf on eof before the delimiter.
  p.client.shutdown(tcp::socket::shutdown_send);
  asio::streambuf tail;
  op_result t;
  asio::async_read_until(p.server, tail, '\n', capture(t));
  BOOST_TEST(run_until_done(ioc, t));
  CHECK_EC(t.ec, asio::error::eof);
  drain(ioc);
  for (const op_result* x : {&wrote, &head, &body, &t})
    BOOST_TEST(x->calls == 1);
}

// ---- associated executor ------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(handlers_run_through_their_associated_executor)
{
  asio::io_context ioc;
  auto strand = asio::make_strand(ioc);
  auto p = make_tcp_pair(ioc);
  auto u = make_udp_pair(ioc);
  tcp::acceptor acceptor(ioc, loopback_tcp());
  tcp::socket accepted(ioc), connecting(ioc);
  char buf[8], ubuf[8];

  std::atomic<int> done{0}, in_strand{0}, in_pool{0};
  once_tracker once;
  auto make = [&] {
    return asio::bind_executor(strand, once.wrap([&](auto&&...) {
      if (strand.running_in_this_thread())
        ++in_strand;
      if (ioc.get_executor().running_in_this_thread())
        ++in_pool;
      ++done;
    }));
  };
  {
    background_threads runner(ioc, 2);
    p.server.async_read_some(asio::buffer(buf), make());
    p.server.async_wait(tcp::socket::wait_read, make());
    p.client.async_write_some(asio::buffer("s", 1), make());
    p.client.async_wait(tcp::socket::wait_write, make());
    p.client.async_read_some(test_null_buffers(), make());
    u.b.async_receive(asio::buffer(ubuf), make());
    u.a.async_send(asio::buffer("u", 1), make());
    acceptor.async_accept(accepted, make());
    connecting.async_connect(acceptor.local_endpoint(), make());
    asio::async_write(p.server, asio::buffer("back", 4), make());
    BOOST_TEST(wait_until([&] { return done == 10; }));
    runner.stop(false);
  }
  BOOST_TEST(in_strand == 10);
  BOOST_TEST(in_pool == 10);
  BOOST_TEST(once.all_once());
}

BOOST_AUTO_TEST_CASE(pending_operation_keeps_handler_executor_busy)
{
  // A handler bound to another context's executor counts as outstanding work there.
  asio::io_context ioc;
  asio::io_context other;
  auto p = make_tcp_pair(ioc);
  char buf[4];
  op_result r;
  bool on_other = false;
  p.server.async_read_some(asio::buffer(buf),
                           asio::bind_executor(other, [&](error_code ec, std::size_t n) {
                             on_other = other.get_executor().running_in_this_thread();
                             capture(r)(ec, n);
                           }));
  drain(ioc);
  other.run_for(20ms);
  BOOST_TEST(!other.stopped());
  BOOST_TEST(!r.done());
  asio::write(p.client, asio::buffer("w", 1));
  // The operation completes through ioc, the handler runs on other.
  BOOST_TEST(run_until(ioc, [&] {
    ioc.poll();
    other.poll();
    return r.done();
  }));
  CHECK_OK(r.ec);
  BOOST_TEST(on_other);
}

// ---- never inside the initiating function -----------------------------------------------

namespace {

// Starts operations that can complete at once; each handler checks that the flag set right
// after its initiating call is already set.
struct immediate_cases
{
  asio::io_context& ioc;
  tcp_pair p;
  udp_pair u;
  tcp::acceptor acceptor;
  tcp::socket accepted;
  tcp::socket connecting;
  tcp::socket closed;
  tcp::socket pending_client;
  char buf[16] = {};
  char ubuf[16] = {};
  once_tracker once;
  int seen_before_return = 0;
  int completed = 0;

  explicit immediate_cases(asio::io_context& c)
      : ioc(c), p(make_tcp_pair(c)), u(make_udp_pair(c)), acceptor(c, loopback_tcp()), accepted(c),
        connecting(c), closed(c), pending_client(c)
  {
    // Make data and a connection ready before the operations start.
    asio::write(p.client, asio::buffer("readyready", 10));
    u.a.send(asio::buffer("dgram", 5));
    pending_client.connect(acceptor.local_endpoint());
    p.server.wait(tcp::socket::wait_read);
    u.b.wait(udp::socket::wait_read);
    acceptor.wait(tcp::acceptor::wait_read);
  }

  template <typename Start>
  void check(Start start)
  {
    auto returned = std::make_shared<bool>(false);
    start(once.wrap([this, returned](auto&&...) {
      if (!*returned)
        ++seen_before_return;
      ++completed;
    }));
    *returned = true;
    BOOST_TEST(run_until(ioc, [&] { return completed == once.created(); }));
  }

  void all()
  {
    check([&](auto h) { p.client.async_write_some(asio::buffer("w", 1), std::move(h)); });
    check([&](auto h) { p.server.async_read_some(asio::buffer(buf, 2), std::move(h)); });
    check([&](auto h) { p.server.async_receive(asio::buffer(buf, 2), std::move(h)); });
    check([&](auto h) { p.server.async_read_some(asio::mutable_buffer(), std::move(h)); });
    check([&](auto h) { p.server.async_read_some(test_null_buffers(), std::move(h)); });
    check([&](auto h) { p.client.async_wait(tcp::socket::wait_write, std::move(h)); });
    check([&](auto h) { p.server.async_wait(tcp::socket::wait_read, std::move(h)); });
    check([&](auto h) { asio::async_read(p.server, asio::buffer(buf, 2), std::move(h)); });
    check([&](auto h) { asio::async_write(p.client, asio::buffer("ww", 2), std::move(h)); });
    check([&](auto h) { u.a.async_send(asio::buffer("x", 1), std::move(h)); });
    check([&](auto h) { u.b.async_receive(asio::buffer(ubuf), std::move(h)); });
    check([&](auto h) {
      u.a.async_send_to(asio::buffer("y", 1), u.b.local_endpoint(), std::move(h));
    });
    check([&](auto h) { acceptor.async_accept(accepted, std::move(h)); });
    check([&](auto h) { connecting.async_connect(acceptor.local_endpoint(), std::move(h)); });
    check([&](auto h) { closed.async_read_some(asio::buffer(buf), std::move(h)); });
    check([&](auto h) { closed.async_wait(tcp::socket::wait_write, std::move(h)); });
  }
};

} // namespace

BOOST_AUTO_TEST_CASE(handler_never_runs_inside_initiating_function)
{
  asio::io_context ioc;
  immediate_cases cases(ioc);
  cases.all();
  BOOST_TEST(cases.completed == 16);
  BOOST_TEST(cases.seen_before_return == 0);
  drain(ioc);
  BOOST_TEST(cases.once.all_once());
}

BOOST_AUTO_TEST_CASE(handler_never_runs_inside_initiating_function_called_from_a_handler)
{
  // Initiated from a handler already running on the io_context's thread.
  asio::io_context ioc;
  immediate_cases cases(ioc);
  int seen_before_return = 0;
  int done = 0;
  asio::post(ioc, [&] {
    auto returned = std::make_shared<bool>(false);
    cases.p.client.async_write_some(asio::buffer("z", 1),
                                    [&, returned](error_code ec, std::size_t) {
                                      CHECK_OK(ec);
                                      if (!*returned)
                                        ++seen_before_return;
                                      ++done;
                                    });
    cases.p.server.async_read_some(asio::buffer(cases.buf, 1),
                                   [&, returned](error_code ec, std::size_t) {
                                     CHECK_OK(ec);
                                     if (!*returned)
                                       ++seen_before_return;
                                     ++done;
                                   });
    cases.closed.async_wait(tcp::socket::wait_read, [&, returned](error_code ec) {
      CHECK_EC(ec, asio::error::bad_descriptor);
      if (!*returned)
        ++seen_before_return;
      ++done;
    });
    *returned = true;
  });
  BOOST_TEST(run_until(ioc, [&] { return done == 3; }));
  BOOST_TEST(seen_before_return == 0);
}

// ---- associated allocator --------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(associated_allocator_stores_operations)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  auto u = make_udp_pair(ioc);
  tcp::acceptor acceptor(ioc, loopback_tcp());
  tcp::socket accepted(ioc);
  char buf[8], ubuf[8];

  struct named
  {
    const char* name;
    allocation_counters counters;
    op_result result;
  };
  named cases[5] = {{"async_read_some", {}, {}},
                    {"async_wait", {}, {}},
                    {"async_receive_from", {}, {}},
                    {"async_accept", {}, {}},
                    {"async_read_some(null_buffers)", {}, {}}};
  auto bound = [](named& c) {
    return asio::bind_allocator(counting_allocator<void>(c.counters), capture(c.result));
  };

  udp::endpoint from;
  p.server.async_read_some(asio::buffer(buf), bound(cases[0]));
  p.server.async_wait(tcp::socket::wait_read, bound(cases[1]));
  u.b.async_receive_from(asio::buffer(ubuf), from, bound(cases[2]));
  acceptor.async_accept(accepted, bound(cases[3]));
  u.a.async_receive(test_null_buffers(), bound(cases[4]));
  drain(ioc);
  for (auto& c : cases)
  {
    BOOST_TEST_CONTEXT(c.name)
    {
      BOOST_TEST(!c.result.done());
      BOOST_TEST(c.counters.allocations >= 1);
    }
  }

  asio::write(p.client, asio::buffer("a", 1));
  u.a.send(asio::buffer("b", 1));
  u.b.send(asio::buffer("c", 1));
  tcp::socket c(ioc);
  c.connect(acceptor.local_endpoint());
  BOOST_TEST(run_until(ioc, [&] {
    for (auto& x : cases)
      if (!x.result.done())
        return false;
    return true;
  }));
  drain(ioc);
  for (auto& x : cases)
  {
    BOOST_TEST_CONTEXT(x.name)
    {
      CHECK_OK(x.result.ec);
      BOOST_TEST(x.result.calls == 1);
      BOOST_TEST(x.counters.allocations == 1); // the operation, nothing more (as Asio)
      BOOST_TEST(x.counters.allocations == x.counters.deallocations);
    }
  }
}

// On an executor other than an io_context's (here a strand, as Beast's servers use), the
// executor allocates its own queue entry for the completion, with the handler's allocator.
// The operation is freed before that, as Asio frees its own, so the two are never live at
// once: the entry reuses the operation's memory (a per-thread recycling allocator's cache
// holds two blocks; an operation kept alive until its handler ran made it miss).
BOOST_AUTO_TEST_CASE(operation_is_freed_before_a_strand_queues_its_completion)
{
  asio::io_context ioc;
  auto p = make_tcp_pair(ioc);
  using strand_executor = asio::strand<asio::io_context::executor_type>;
  tcp::socket::rebind_executor<strand_executor>::other server(asio::make_strand(ioc.get_executor()),
                                                              tcp::v4(), p.server.release());
  allocation_counters counters;
  op_result result;
  char buf[8];
  server.async_read_some(asio::buffer(buf),
                         asio::bind_allocator(counting_allocator<void>(counters), capture(result)));
  drain(ioc);
  asio::write(p.client, asio::buffer("s", 1));
  BOOST_TEST(run_until_done(ioc, result));
  CHECK_OK(result.ec);
  BOOST_TEST(counters.allocations >= 2); // the operation and the strand's entry
  BOOST_TEST(counters.peak_live == 1);
  BOOST_TEST(counters.allocations == counters.deallocations);
}

// An operation that finishes inside its initiating function is allocated once too: its
// completion is queued in room the operation has for it.
BOOST_AUTO_TEST_CASE(associated_allocator_stores_immediate_completions_once)
{
  asio::io_context ioc;
  immediate_cases cases(ioc);
  allocation_counters counters;
  op_result result;
  cases.p.server.async_read_some(
      asio::buffer(cases.buf, 2),
      asio::bind_allocator(counting_allocator<void>(counters), capture(result)));
  BOOST_TEST(run_until(ioc, [&] { return result.done(); }));
  CHECK_OK(result.ec);
  // Asio 1.82+ queues its immediate completions through the immediate executor with the
  // handler's allocator, a second allocation; this library's stays at one.
  if (notify_backend)
    BOOST_TEST(counters.allocations == 1);
  BOOST_TEST(counters.allocations == counters.deallocations);
}

#if BOOST_ASIO_VERSION >= 102800 // Boost 1.82: associated immediate executors
// A handler's associated immediate executor decides how an operation that finishes inside
// its initiating function completes: system_executor runs the handler there and then.
// Operations that wait still complete from the io_context, whatever the binding.
BOOST_AUTO_TEST_CASE(immediate_executor_runs_immediate_completions)
{
  asio::io_context ioc;
  immediate_cases cases(ioc);
  // Starts an operation with a handler bound to system_executor as its immediate executor;
  // returns whether the handler ran before the initiating function returned.
  auto ran_inside = [&](auto initiate) {
    bool returned = false, ran = false, inside = false;
    initiate(asio::bind_immediate_executor(asio::system_executor(), [&](auto&&...) {
      ran = true;
      inside = !returned;
    }));
    returned = true;
    BOOST_TEST(run_until(ioc, [&] { return ran; }));
    return inside;
  };
  BOOST_TEST(ran_inside(
      [&](auto h) { cases.p.client.async_write_some(asio::buffer("w", 1), std::move(h)); }));
  BOOST_TEST(ran_inside(
      [&](auto h) { cases.p.server.async_read_some(asio::buffer(cases.buf, 2), std::move(h)); }));
  BOOST_TEST(
      ran_inside([&](auto h) { cases.u.b.async_receive(asio::buffer(cases.ubuf), std::move(h)); }));
  BOOST_TEST(ran_inside(
      [&](auto h) { cases.closed.async_read_some(asio::buffer(cases.buf), std::move(h)); }));
  auto fresh = make_tcp_pair(ioc);
  BOOST_TEST(!ran_inside([&](auto h) {
    fresh.server.async_read_some(asio::buffer(cases.buf, 2), std::move(h));
    asio::write(fresh.client, asio::buffer("late", 4)); // only now is there data
  }));
}

// The first operation of a fresh io_context, finished and its handler run by its immediate
// executor inside the initiating function, leaves nothing behind: the context is not
// stopped, and a later run() performs what is started next (an inline driver that armed its
// first wait then would have taken the context's last count of work back, and stopped it).
BOOST_AUTO_TEST_CASE(immediate_completion_first_leaves_the_context_running)
{
  asio::io_context ioc;
  tcp_pair p = make_tcp_pair(ioc);
  bool wrote = false;
  p.client.async_write_some(
      asio::buffer("w", 1),
      asio::bind_immediate_executor(asio::system_executor(),
                                    [&](error_code ec, std::size_t n) { wrote = !ec && n == 1; }));
  BOOST_TEST(wrote);
  BOOST_TEST(!ioc.stopped());
  char c = 0;
  op_result read;
  p.server.async_read_some(asio::buffer(&c, 1), capture(read));
  ioc.run_for(std::chrono::seconds(10)); // returns once the read has completed
  BOOST_TEST(read.done());
  CHECK_OK(read.ec);
  BOOST_TEST(c == 'w');
}
#endif

BOOST_AUTO_TEST_SUITE_END()
