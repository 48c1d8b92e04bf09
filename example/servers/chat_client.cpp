//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// Chat client: lines typed on stdin go to the chat server, lines from the server are
// printed on stdout.
//
//   chat_client <host> <port>
//
// At the end of stdin the client finishes sending, shuts down its sending side and waits
// for the server to close the connection, so that no line in flight is lost. (If the
// server goes away first, the client still waits for the end of stdin: Ctrl-D.)
//
// The lines read from stdin wait in a queue until the server takes them: 1 MiB of them at
// most (BOOST_ASIO_NOTIFY_EXAMPLE_WRITE_QUEUE_LIMIT, each line counted 64 bytes more, see
// limits.hpp). While the queue is full, the client stops reading stdin: a server that never
// reads makes the program feeding stdin wait, not the client's memory grow.
//
// A line from the server may be at most 64 KiB (the server's own limit for a line): a
// server that sends a longer one, or a line that never ends, would otherwise make the
// client buffer it without bound. The client then fails, as on any error: it says why on
// stderr and exits with a non-zero code at once, without waiting for the end of stdin.
//

#include "limits.hpp"
#include "net.hpp"

#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>

namespace net = boost::asio;
using tcp = backend::tcp;
using boost::system::error_code;

// The longest line the client takes from the server, newline included.
constexpr std::size_t line_limit = 64 * 1024;

// What the lines queued for the server cost (queued_cost), shared by the thread that reads
// stdin and the network thread: the first waits while the queue is full.
class queue_bound
{
public:
  explicit queue_bound(std::uint64_t limit) : limit_(limit) {}

  /// Waits until a line of `cost` fits (a line larger than the limit fits an empty queue)
  /// and counts it; false, without waiting, once the connection is gone: nothing will be
  /// sent any more.
  bool enter(std::uint64_t cost)
  {
    std::unique_lock<std::mutex> lock(mutex_);
    fits_.wait(lock, [&] { return gone_ || used_ == 0 || used_ + cost <= limit_; });
    used_ += cost;
    return !gone_;
  }

  /// A line of `cost` has been sent.
  void leave(std::uint64_t cost)
  {
    std::lock_guard<std::mutex> lock(mutex_);
    used_ -= cost;
    fits_.notify_all();
  }

  /// The connection is gone: enter() waits no more.
  void close()
  {
    std::lock_guard<std::mutex> lock(mutex_);
    gone_ = true;
    fits_.notify_all();
  }

private:
  std::mutex mutex_;
  std::condition_variable fits_;
  std::uint64_t const limit_;
  std::uint64_t used_ = 0;
  bool gone_ = false;
};

class chat_client
{
public:
  chat_client(net::io_context& ioc, queue_bound& bound) : socket_(ioc), bound_(bound) {}

  void start(tcp::resolver::results_type const& endpoints)
  {
    backend::async_connect(socket_, endpoints, [this](error_code ec, tcp::endpoint const&) {
      if (ec)
        return fail("connect: " + ec.message());
      connected_ = true;
      read_line();
      // Lines typed while we were connecting have waited in the queue.
      if (!outbox_.empty())
        write_front();
      else if (finishing_)
        shutdown_send();
    });
  }

  // Called on the io_context's thread only (see main): no lock needed.
  void send(std::string line)
  {
    bool const idle = outbox_.empty();
    outbox_.push_back(std::move(line));
    if (idle && connected_)
      write_front();
  }

  // No more lines will be sent: shut down once the queue is empty.
  void finish()
  {
    finishing_ = true;
    if (connected_ && outbox_.empty())
      shutdown_send();
  }

  std::string const& failure() const { return failure_; }

private:
  void read_line()
  {
    net::async_read_until(socket_, net::dynamic_buffer(inbox_, line_limit), '\n',
                          [this](error_code ec, std::size_t n) {
                            if (ec == net::error::eof)
                              return close(); // the server has closed: we are done
                            // not_found: line_limit bytes and still no newline
                            if (ec == net::error::not_found)
                              return fail("read: a line longer than " + std::to_string(line_limit) +
                                          " bytes");
                            if (ec)
                              return fail("read: " + ec.message());
                            // endl flushes: whoever reads our stdout sees each line as it arrives.
                            std::cout << inbox_.substr(0, n - 1) << std::endl;
                            inbox_.erase(0, n);
                            read_line();
                          });
  }

  void write_front()
  {
    net::async_write(socket_, net::buffer(outbox_.front()), [this](error_code ec, std::size_t) {
      if (ec)
        return fail("write: " + ec.message());
      bound_.leave(queued_cost(outbox_.front()));
      outbox_.pop_front();
      if (!outbox_.empty())
        write_front();
      else if (finishing_)
        shutdown_send();
    });
  }

  void shutdown_send()
  {
    // The server sees eof, leaves us out of the room and closes: our read then ends.
    error_code ec;
    socket_.shutdown(tcp::socket::shutdown_send, ec);
  }

  void close()
  {
    error_code ec;
    socket_.close(ec);
    bound_.close();
  }

  void fail(std::string message)
  {
    if (failure_.empty())
      failure_ = std::move(message);
    close();
  }

  tcp::socket socket_;
  queue_bound& bound_;
  std::string inbox_;
  std::deque<std::string> outbox_;
  bool connected_ = false;
  bool finishing_ = false;
  std::string failure_;
};

// Nothing portable interrupts the main thread's wait for a line of stdin: a client that
// has failed exits from the network thread, at once, rather than wait for the end of stdin.
[[noreturn]] void exit_failed(std::string const& failure)
{
  std::cout.flush(); // only the network thread writes to stdout
  std::cerr << "chat_client: " << failure << std::endl;
  std::_Exit(EXIT_FAILURE);
}

int main(int argc, char* argv[])
{
  if (argc != 3)
  {
    std::cerr << "usage: chat_client <host> <port>\n";
    return EXIT_FAILURE;
  }
  try
  {
    net::io_context ioc;
    tcp::resolver resolver(ioc);
    queue_bound bound(
        number_from_env("BOOST_ASIO_NOTIFY_EXAMPLE_WRITE_QUEUE_LIMIT", 1024 * 1024, "bytes"));
    chat_client client(ioc, bound);
    client.start(resolver.resolve(argv[1], argv[2]));

    // The network runs on a thread of its own, because reading stdin blocks. The two
    // threads share nothing but the io_context: each line is posted to it, so the client
    // object is only ever touched by the io_context's thread.
    std::thread network([&ioc, &client] {
      ioc.run();
      if (!client.failure().empty())
        exit_failed(client.failure());
    });

    // Each line waits for room in the queue before the next is read (see queue_bound).
    std::string line;
    while (std::getline(std::cin, line))
    {
      line += "\n";
      if (bound.enter(queued_cost(line)))
        net::post(ioc, [&client, l = std::move(line)]() mutable { client.send(std::move(l)); });
    }
    net::post(ioc, [&client] { client.finish(); });

    // run() returns once the server has closed the connection (a failure exits at once).
    network.join();
  }
  catch (std::exception const& e)
  {
    std::cerr << "chat_client: " << e.what() << "\n";
    return EXIT_FAILURE;
  }
  return EXIT_SUCCESS;
}
