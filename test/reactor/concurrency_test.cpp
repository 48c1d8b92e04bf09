//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Many connections on an io_context run by several threads: 2,000 concurrent TCP echo
// connections (full duplex on the client side), and UDP ping-pong from many sockets.
#include "helpers.hpp"

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace {

constexpr int run_threads = 4;

class echo_session : public std::enable_shared_from_this<echo_session>
{
public:
  explicit echo_session(tcp::socket s) : socket_(std::move(s)) {}
  void start() { read(); }

private:
  void read()
  {
    socket_.async_read_some(asio::buffer(buf_),
                            [self = shared_from_this()](error_code ec, std::size_t n) {
                              if (!ec)
                                self->write(n);
                            });
  }
  void write(std::size_t n)
  {
    asio::async_write(socket_, asio::buffer(buf_, n),
                      [self = shared_from_this()](error_code ec, std::size_t) {
                        if (!ec)
                          self->read();
                      });
  }

  tcp::socket socket_;
  char buf_[512];
};

struct echo_server
{
  explicit echo_server(asio::io_context& ioc) : acceptor(ioc, loopback_tcp()) {}

  void accept()
  {
    acceptor.async_accept([this](error_code ec, tcp::socket s) {
      if (ec)
      {
        if (ec != asio::error::operation_aborted)
          ++accept_errors;
        return;
      }
      ++accepted;
      std::make_shared<echo_session>(std::move(s))->start();
      accept();
    });
  }

  tcp::acceptor acceptor;
  std::atomic<int> accepted{0};
  std::atomic<int> accept_errors{0};
};

// One client: connect, then write its message while reading the echo concurrently.
class echo_client : public std::enable_shared_from_this<echo_client>
{
public:
  echo_client(asio::io_context& ioc, int id, once_tracker& once)
      : socket_(ioc), message_("client-" + std::to_string(id) + std::string(40 + id % 50, '.')),
        reply_(message_.size(), '\0'), once_(once)
  {
  }

  void start(const tcp::endpoint& server, std::atomic<int>& ok, std::atomic<int>& failed)
  {
    ok_ = &ok;
    failed_ = &failed;
    socket_.async_connect(server, once_.wrap([self = shared_from_this()](error_code ec) {
      if (ec)
        return self->finish(false, "connect: " + ec.message());
      asio::async_read(self->socket_, asio::buffer(self->reply_),
                       self->once_.wrap([self](error_code ec2, std::size_t) {
                         self->half_done(!ec2 && self->reply_ == self->message_,
                                         "read: " + ec2.message());
                       }));
      asio::async_write(self->socket_, asio::buffer(self->message_),
                        self->once_.wrap([self](error_code ec2, std::size_t n) {
                          self->half_done(!ec2 && n == self->message_.size(),
                                          "write: " + ec2.message());
                        }));
    }));
  }

  static std::mutex log_mutex;
  static std::vector<std::string> log;

private:
  void half_done(bool success, const std::string& what)
  {
    if (!success)
      success_ = false;
    if (!success)
      note(what);
    if (++halves_ == 2)
      finish(success_, "");
  }

  void finish(bool success, const std::string& what)
  {
    if (!success && !what.empty())
      note(what);
    if (success)
      ++*ok_;
    else
      ++*failed_;
    // Handlers may still be running on other threads for this object; close is fine here
    // because both halves are done (or the connect failed and nothing else is pending).
    error_code ignored;
    socket_.close(ignored);
  }

  void note(const std::string& what)
  {
    std::lock_guard<std::mutex> lock(log_mutex);
    if (log.size() < 10)
      log.push_back(what);
  }

  tcp::socket socket_;
  std::string message_;
  std::string reply_;
  once_tracker& once_;
  std::atomic<int> halves_{0};
  std::atomic<bool> success_{true};
  std::atomic<int>* ok_ = nullptr;
  std::atomic<int>* failed_ = nullptr;
};

std::mutex echo_client::log_mutex;
std::vector<std::string> echo_client::log;

} // namespace

BOOST_AUTO_TEST_SUITE(concurrency)

BOOST_AUTO_TEST_CASE(two_thousand_concurrent_tcp_echo_connections)
{
  constexpr int connections = 2000;
#if !defined(_WIN32) // Windows has no descriptor limit to raise
  nofile_limit_guard limit;
  const rlim_t needed = 2 * connections + 256;
  if (limit.soft() < needed)
    BOOST_REQUIRE_MESSAGE(limit.set_soft(limit.hard()) && limit.hard() >= needed,
                          "RLIMIT_NOFILE hard limit " << limit.hard() << " is below " << needed);
#endif

  asio::io_context ioc(run_threads);
  once_tracker once;
  std::atomic<int> ok{0}, failed{0};
  {
    echo_server server(ioc);
    server.accept();
    const tcp::endpoint endpoint = server.acceptor.local_endpoint();
    std::vector<std::shared_ptr<echo_client>> clients;
    clients.reserve(connections);
    for (int i = 0; i < connections; ++i)
      clients.push_back(std::make_shared<echo_client>(ioc, i, once));

    background_threads runner(ioc, run_threads);
    // Start them from inside the context, spread over its threads.
    for (auto& c : clients)
      asio::post(ioc, [&, c] { c->start(endpoint, ok, failed); });

    const bool finished = wait_until([&] { return ok + failed == connections; }, 60s);
    BOOST_TEST(finished, "finished " << ok + failed << " of " << connections);
    BOOST_TEST(ok == connections);
    BOOST_TEST(failed == 0);
    BOOST_TEST(server.accepted == connections);
    BOOST_TEST(server.accept_errors == 0);
    {
      std::lock_guard<std::mutex> lock(echo_client::log_mutex);
      for (const auto& line : echo_client::log)
        BOOST_TEST_MESSAGE("client failure: " << line);
    }
    // Stop accepting, let every session see its peer's close, and finish.
    asio::post(ioc, [&] { server.acceptor.close(); });
    runner.stop(!finished); // on failure do not wait for connections that never end
    BOOST_TEST(ioc.stopped());
  }
  BOOST_TEST(once.created() == 3 * connections);
  BOOST_TEST(once.all_once(), "invoked " << once.invoked() << " of " << once.created()
                                         << ", duplicates " << once.duplicates());
}

BOOST_AUTO_TEST_CASE(udp_ping_pong_from_many_sockets)
{
  constexpr int sockets_count = 100;
  constexpr int rounds = 20;
  asio::io_context ioc(run_threads);

  // The server answers every datagram from its own strand of work (one receive at a time).
  udp::socket server(ioc, loopback_udp());
  std::vector<char> sbuf(64);
  udp::endpoint from;
  std::function<void()> serve = [&] {
    server.async_receive_from(asio::buffer(sbuf), from, [&](error_code ec, std::size_t n) {
      if (ec)
        return;
      error_code ignored;
      server.send_to(asio::buffer(sbuf.data(), n), from, 0, ignored);
      serve();
    });
  };
  serve();

  struct client
  {
    explicit client(asio::io_context& c) : socket(c, loopback_udp()) {}
    udp::socket socket;
    char buf[64] = {};
    int round = 0;
  };
  std::vector<std::unique_ptr<client>> clients;
  for (int i = 0; i < sockets_count; ++i)
    clients.push_back(std::make_unique<client>(ioc));
  const udp::endpoint server_ep = server.local_endpoint();

  std::atomic<int> finished{0}, mismatches{0}, send_errors{0};
  std::function<void(client&)> ping = [&](client& c) {
    const std::string msg = "r" + std::to_string(c.round);
    c.socket.async_send_to(asio::buffer(msg), server_ep, [&](error_code ec, std::size_t) {
      if (ec) // (Boost.Test's checks are not for other threads: count, check later)
        ++send_errors;
    });
    c.socket.async_receive(asio::buffer(c.buf), [&, &cl = c, msg](error_code ec, std::size_t n) {
      if (ec || std::string(cl.buf, n) != msg)
        ++mismatches;
      if (++cl.round == rounds)
        ++finished;
      else
        ping(cl);
    });
  };
  {
    background_threads runner(ioc, run_threads);
    for (auto& c : clients)
      asio::post(ioc, [&, pc = c.get()] { ping(*pc); });
    const bool done = wait_until([&] { return finished == sockets_count; }, 30s);
    BOOST_TEST(done, "finished " << finished << " of " << sockets_count);
    asio::post(ioc, [&] { server.close(); });
    runner.stop(!done);
  }
  BOOST_TEST(mismatches == 0);
  BOOST_TEST(send_errors == 0);
}

BOOST_AUTO_TEST_SUITE_END()
