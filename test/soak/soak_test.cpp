//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A bounded soak: 500 echo connections on an io_context run by 4 threads, then by 16 (more
// threads than cores: batches shared by many threads, preempted mid-batch), random message
// sizes, random cancellations and closes (closed connections are replaced). Checks that
// every byte comes back in order and that every handler runs exactly once; leaks are
// LeakSanitizer's to find in the sanitizer build.
// BOOST_ASIO_NOTIFY_SOAK_SECONDS sets the time per reactor configuration (default 4).

#include "support/reactor_configs.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/test/unit_test.hpp>

#if !defined(_WIN32)
#include <sys/resource.h>
#endif

#include <array>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <random>
#include <thread>
#include <vector>

namespace asio = boost::asio;
using boost::system::error_code;
using namespace test_support;

namespace {

constexpr int connections = 500;

// The n-th byte of connection `id`'s stream: checkable without storing what was sent.
char stream_byte(int id, std::uint64_t n)
{
  return static_cast<char>((n * 131 + static_cast<std::uint64_t>(id) * 7) & 0xff);
}

struct counters
{
  std::atomic<std::uint64_t> started{0};   // handlers handed to an initiating function
  std::atomic<std::uint64_t> completed{0}; // handler invocations
  std::atomic<std::uint64_t> bytes_verified{0};
  std::atomic<std::uint64_t> corrupt{0};
  std::atomic<std::uint64_t> cancels{0};
  std::atomic<std::uint64_t> closes{0};
  std::atomic<std::uint64_t> unexpected{0};
  std::atomic<bool> stopping{false};

  std::mutex mutex;
  std::string first_unexpected; // what and where, for the failure message

  // An error no client should see while the server runs. (Once the acceptor is closed at
  // the end, connections it had not accepted yet are reset: that is expected.)
  void report(const char* where, const error_code& ec)
  {
    if (stopping)
      return;
    ++unexpected;
    std::lock_guard<std::mutex> lock(mutex);
    if (first_unexpected.empty())
      first_unexpected = std::string(where) + ": " + ec.message();
  }
};

// Wraps a handler so the soak can prove it ran exactly once.
template <class F>
auto counted(counters& c, F f)
{
  ++c.started;
  return [&c, f = std::move(f)](auto&&... args) mutable {
    ++c.completed;
    f(std::forward<decltype(args)>(args)...);
  };
}

bool expected_end(const error_code& ec)
{
  return ec == asio::error::operation_aborted || ec == asio::error::eof ||
         ec == asio::error::connection_reset || ec == asio::error::broken_pipe ||
         ec == asio::error::bad_descriptor;
}

// The server side: echo whatever arrives until the peer goes away.
class echo_session : public std::enable_shared_from_this<echo_session>
{
public:
  echo_session(tcp::socket s, counters& c) : socket_(std::move(s)), c_(c) {}

  void read()
  {
    socket_.async_read_some(
        asio::buffer(buf_), counted(c_, [self = shared_from_this()](error_code ec, std::size_t n) {
          if (ec)
            return;
          asio::async_write(self->socket_, asio::buffer(self->buf_.data(), n),
                            counted(self->c_, [self](error_code ec2, std::size_t) {
                              if (!ec2)
                                self->read();
                            }));
        }));
  }

private:
  tcp::socket socket_;
  counters& c_;
  std::array<char, 16384> buf_;
};

// The client side: writes a random-sized slice of its stream, reads the echo back and
// checks it; sometimes cancels its read, sometimes closes and is replaced.
class client : public std::enable_shared_from_this<client>
{
  // Every handler of a client runs on its strand (cancellation is emitted there too).
  template <class F>
  auto bind(F f)
  {
    return asio::bind_executor(strand_, std::move(f));
  }

public:
  client(asio::io_context& ioc, tcp::endpoint server, int id, counters& c)
      : strand_(asio::make_strand(ioc)), socket_(strand_), server_(server), id_(id), c_(c),
        rng_(static_cast<unsigned>(id) * 2654435761u)
  {
  }

  void start()
  {
    socket_.async_connect(server_, bind(counted(c_, [self = shared_from_this()](error_code ec) {
                            if (ec)
                              return self->c_.report("connect", ec);
                            self->send_next();
                          })));
  }

private:
  void send_next()
  {
    if (c_.stopping)
      return void(socket_.close());
    const std::size_t size = 1 + rng_() % (rng_() % 8 == 0 ? 65536 : 2048);
    out_.resize(size);
    for (std::size_t i = 0; i < size; ++i)
      out_[i] = stream_byte(id_, sent_ + i);
    sent_ += size;
    asio::async_write(socket_, asio::buffer(out_),
                      bind(counted(c_, [self = shared_from_this()](error_code ec, std::size_t) {
                        if (ec && !expected_end(ec))
                          self->c_.report("write", ec);
                      })));
    read_echo();
    // Now and then, cancel the read (it is re-issued) or close the connection.
    const unsigned dice = rng_() % 100;
    if (dice < 5)
      asio::post(strand_, [self = shared_from_this()] {
        ++self->c_.cancels;
        self->cancel_read_.emit(asio::cancellation_type::terminal);
      });
    else if (dice == 5)
      asio::post(strand_, [self = shared_from_this()] { self->close_and_replace(); });
  }

  void read_echo()
  {
    socket_.async_read_some(
        asio::buffer(in_),
        asio::bind_cancellation_slot(
            cancel_read_.slot(),
            bind(counted(c_, [self = shared_from_this()](error_code ec, std::size_t n) {
              self->on_echo(ec, n);
            }))));
  }

  void on_echo(const error_code& ec, std::size_t n)
  {
    for (std::size_t i = 0; i < n; ++i)
      if (in_[i] != stream_byte(id_, received_ + i))
        ++c_.corrupt;
    received_ += n;
    c_.bytes_verified += n;
    if (ec == asio::error::operation_aborted && socket_.is_open() && !closed_)
      return read_echo(); // a cancelled read loses nothing: read again
    if (ec)
    {
      if (!expected_end(ec))
        c_.report("read", ec);
      return;
    }
    if (received_ < sent_)
      return read_echo();
    send_next();
  }

  void close_and_replace()
  {
    if (closed_)
      return;
    closed_ = true;
    ++c_.closes;
    socket_.close();
    if (c_.stopping)
      return;
    auto next =
        std::make_shared<client>(static_cast<asio::io_context&>(asio::query(
                                     strand_.get_inner_executor(), asio::execution::context)),
                                 server_, id_ + connections, c_);
    next->start();
  }

  asio::strand<asio::io_context::executor_type> strand_;
  tcp::socket socket_;
  tcp::endpoint server_;
  int id_;
  counters& c_;
  std::mt19937 rng_;
  asio::cancellation_signal cancel_read_;
  std::vector<char> out_;
  std::array<char, 65536> in_;
  std::uint64_t sent_ = 0, received_ = 0;
  bool closed_ = false;
};

void accept_loop(tcp::acceptor& acc, counters& c)
{
  acc.async_accept(counted(c, [&acc, &c](error_code ec, tcp::socket s) {
    if (ec)
      return;
    std::make_shared<echo_session>(std::move(s), c)->read();
    accept_loop(acc, c);
  }));
}

std::chrono::seconds soak_time()
{
  const char* s = std::getenv("BOOST_ASIO_NOTIFY_SOAK_SECONDS");
  return std::chrono::seconds(s ? std::atoi(s) : 4);
}

// A thousand sockets and more may exceed POSIX's default soft limit; Windows has none to
// raise (no RLIMIT_NOFILE: sockets are limited by memory alone).
void raise_descriptor_limit()
{
#if !defined(_WIN32)
  rlimit l{};
  ::getrlimit(RLIMIT_NOFILE, &l);
  l.rlim_cur = l.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &l);
#endif
}

// Every reactor configuration, on an io_context run by `io_threads` threads.
void soak(int io_threads)
{
  raise_descriptor_limit();
  for (const an::reactor_options& base : all_configurations())
  {
    an::reactor_options o = base;
    o.threads = 2;
    BOOST_TEST_CONTEXT(describe(o) << ", " << io_threads << " io threads")
    {
      counters c;
      {
        asio::io_context ioc(io_threads);
        install(ioc, o);
        // The acceptor lives on a strand: its accept loop and its close never overlap.
        auto acceptor_strand = asio::make_strand(ioc);
        tcp::acceptor acc(acceptor_strand, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
        accept_loop(acc, c);
        for (int i = 0; i < connections; ++i)
          std::make_shared<client>(ioc, acc.local_endpoint(), i, c)->start();
        asio::steady_timer stop(ioc, soak_time());
        stop.async_wait(counted(c, [&](error_code) {
          c.stopping = true;
          asio::post(acceptor_strand, [&] { acc.close(); });
        }));
        std::vector<std::thread> threads;
        for (int i = 0; i < io_threads; ++i)
          threads.emplace_back([&] { ioc.run_for(soak_time() + std::chrono::seconds(60)); });
        for (auto& t : threads)
          t.join();
        BOOST_TEST(ioc.stopped()); // ran out of work: every connection finished
      }
      BOOST_TEST_MESSAGE(describe(o) << ", " << io_threads << " io threads: " << c.bytes_verified
                                     << " bytes echoed, " << c.cancels << " cancels, " << c.closes
                                     << " closes");
      BOOST_TEST(c.corrupt == 0u);
      BOOST_TEST(c.unexpected == 0u, c.first_unexpected);
      BOOST_TEST(c.bytes_verified > 0u);
      BOOST_TEST(c.started == c.completed); // every handler exactly once (none lost)
    }
  }
}

} // namespace

BOOST_AUTO_TEST_CASE(soak_500_connections_4_threads) { soak(4); }

BOOST_AUTO_TEST_CASE(soak_500_connections_16_threads) { soak(16); }
