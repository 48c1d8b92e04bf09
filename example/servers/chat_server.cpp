//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// Chat server: every line a client sends is delivered to every other client.
//
//   chat_server <port> [address]
//
// The protocol is plain text, one message per line ('\n'). A client that joins first
// receives a line starting with "* welcome"; from then on it gets everybody else's lines.
// Port 0 picks a free port, printed as "listening on port N". A client that sends no line
// for 5 minutes (ASIO_NOTIFY_EXAMPLE_IDLE_TIMEOUT, see timeouts.hpp) is disconnected, and
// so is one that falls more than 1 MiB of lines behind (ASIO_NOTIFY_EXAMPLE_WRITE_QUEUE_LIMIT,
// see limits.hpp).
//

#include "accept_backoff.hpp"
#include "arguments.hpp"
#include "limits.hpp"
#include "net.hpp"
#include "timeouts.hpp"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <memory>
#include <set>
#include <string>

namespace net = boost::asio;
using tcp = backend::tcp;
using boost::system::error_code;

// How long a client may stay silent (listening only) before the server drops it.
auto const idle_timeout =
    timeout_from_env("ASIO_NOTIFY_EXAMPLE_IDLE_TIMEOUT", std::chrono::minutes(5));

// How many bytes of lines may wait for one client. A client that does not read (or reads
// slower than the room talks) would make the server queue every line for it, without end:
// past this, the server disconnects it, as chat servers do with a slow consumer.
auto const write_queue_limit =
    number_from_env("ASIO_NOTIFY_EXAMPLE_WRITE_QUEUE_LIMIT", 1024 * 1024, "bytes");

// Slow clients are disconnected as often as clients make it happen: at most a line a second.
rate_limited_log disconnect_log;

// Whoever can be sent a message. The room does not care that it is a socket.
class participant
{
public:
  virtual ~participant() = default;
  virtual void deliver(std::string const& line) = 0;
};

// The set of connected participants. Single-threaded (one thread runs the io_context),
// so it needs no lock.
class chat_room
{
public:
  void join(std::shared_ptr<participant> p) { participants_.insert(std::move(p)); }
  void leave(std::shared_ptr<participant> const& p) { participants_.erase(p); }
  std::size_t size() const { return participants_.size(); }

  // Everybody except the sender gets the line.
  void deliver(std::string const& line, participant const* from)
  {
    for (auto const& p : participants_)
      if (p.get() != from)
        p->deliver(line);
  }

private:
  std::set<std::shared_ptr<participant>> participants_;
};

// One connected client: reads its lines into the room, writes the room's lines to it.
class chat_session : public participant, public std::enable_shared_from_this<chat_session>
{
public:
  chat_session(tcp::socket socket, chat_room& room)
      : socket_(std::move(socket)), deadline_(socket_.get_executor()), room_(room)
  {
  }

  void start()
  {
    room_.join(shared_from_this());
    deliver("* welcome, " + std::to_string(room_.size()) + " participant(s) online\n");
    read_line();
  }

  // Lines are queued because another write may still be in progress: Asio allows one
  // async_write at a time per socket, or the bytes of two lines could interleave.
  void deliver(std::string const& line) override
  {
    if (!socket_.is_open())
      return; // disconnected, the handlers have yet to run
    if (queued_ + line.size() > write_queue_limit)
    {
      disconnect_log.write("chat: disconnected a participant " + std::to_string(queued_) +
                           " bytes behind (ASIO_NOTIFY_EXAMPLE_WRITE_QUEUE_LIMIT " +
                           std::to_string(write_queue_limit) + ")");
      // Not leave(): the room is iterating over its participants. Closing ends our
      // pending read and write with operation_aborted, and their handlers leave.
      error_code ec;
      socket_.close(ec);
      return;
    }
    bool const idle = outbox_.empty();
    outbox_.push_back(line);
    queued_ += line.size();
    if (idle)
      write_front();
  }

private:
  void read_line()
  {
    arm_deadline();
    // The limit stops one client from making the server buffer without bound.
    net::async_read_until(socket_, net::dynamic_buffer(inbox_, 64 * 1024), '\n',
                          [self = shared_from_this()](error_code ec, std::size_t n) {
                            if (ec)
                              return self->leave(); // eof: the client has gone (or sent too much)
                            self->room_.deliver(self->inbox_.substr(0, n), self.get());
                            self->inbox_.erase(0, n); // keep what came after the newline
                            self->read_line();
                          });
  }

  void write_front()
  {
    net::async_write(socket_, net::buffer(outbox_.front()),
                     [self = shared_from_this()](error_code ec, std::size_t) {
                       if (ec)
                         return self->leave();
                       self->queued_ -= self->outbox_.front().size();
                       self->outbox_.pop_front();
                       if (!self->outbox_.empty())
                         self->write_front();
                     });
  }

  // The next line must come within idle_timeout. The timer's handler holds only a
  // weak_ptr: a pending deadline must not keep a session that has left alive.
  void arm_deadline()
  {
    deadline_.expires_after(idle_timeout); // cancels the previous wait
    deadline_.async_wait([weak = weak_from_this()](error_code ec) {
      auto self = weak.lock();
      // The expiry check skips a wait that fired just as a line arrived.
      if (self && !ec && self->deadline_.expiry() <= std::chrono::steady_clock::now())
        self->leave();
    });
  }

  void leave()
  {
    // Leaving drops the room's reference; closing cancels our other pending operation,
    // whose handler then drops the last one and destroys the session.
    room_.leave(shared_from_this());
    error_code ec;
    socket_.close(ec);
  }

  tcp::socket socket_;
  net::steady_timer deadline_;
  chat_room& room_;
  std::string inbox_;
  std::deque<std::string> outbox_;
  std::uint64_t queued_ = 0; // bytes in outbox_
};

class server
{
public:
  server(net::io_context& ioc, tcp::endpoint const& endpoint)
      : acceptor_(ioc, endpoint), backoff_(ioc.get_executor(), "accept")
  {
    accept();
  }

  unsigned short port() const { return acceptor_.local_endpoint().port(); }

private:
  void accept()
  {
    acceptor_.async_accept([this](error_code ec, tcp::socket socket) {
      if (!ec)
        std::make_shared<chat_session>(std::move(socket), room_)->start();
      backoff_.then(ec, [this] { accept(); }); // see accept_backoff.hpp
    });
  }

  tcp::acceptor acceptor_;
  accept_backoff backoff_;
  chat_room room_;
};

int main(int argc, char* argv[])
{
  if (argc < 2 || argc > 3)
  {
    std::cerr << "usage: chat_server <port> [address]\n";
    return EXIT_FAILURE;
  }
  try
  {
    auto const port = port_argument(argv[1]);
    auto const address = net::ip::make_address(argc > 2 ? argv[2] : "127.0.0.1");

    net::io_context ioc;
    server s(ioc, tcp::endpoint(address, port));

    net::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&](error_code, int) { ioc.stop(); });

    std::cout << "listening on port " << s.port() << " [" << backend::name << "]" << std::endl;
    ioc.run();
  }
  catch (std::exception const& e)
  {
    std::cerr << "chat_server: " << e.what() << "\n";
    return EXIT_FAILURE;
  }
  return EXIT_SUCCESS;
}
