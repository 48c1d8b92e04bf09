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
// Port 0 picks a free port, printed as "listening on port N".
//
// What one client can cost the server is bounded (see limits.hpp, timeouts.hpp):
//   - a line is at most 64 KiB; a client that sends a longer one is disconnected;
//   - a client that sends no line for 5 minutes is disconnected
//     (BOOST_ASIO_NOTIFY_EXAMPLE_IDLE_TIMEOUT);
//   - a client that falls more than 1 MiB behind is disconnected
//     (BOOST_ASIO_NOTIFY_EXAMPLE_WRITE_QUEUE_LIMIT), counting what a queued line costs the server,
//     its bytes plus 64 for its bookkeeping, so that a flood of empty lines counts too;
//   - at most 256 clients are in the room at once (BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS); a
//     connection beyond is closed as soon as it is accepted.
// So the lines queued take at most about participants x limit: 256 MiB by default.
//

#include "accept_backoff.hpp"
#include "arguments.hpp"
#include "limits.hpp"
#include "net.hpp"
#include "timeouts.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace net = boost::asio;
using tcp = backend::tcp;
using boost::system::error_code;

// How long a client may stay silent (listening only) before the server drops it.
auto const idle_timeout =
    timeout_from_env("BOOST_ASIO_NOTIFY_EXAMPLE_IDLE_TIMEOUT", std::chrono::minutes(5));

// The longest line a client may send; a longer one disconnects it.
constexpr std::size_t line_limit = 64 * 1024;

// How many bytes of lines may wait for one client. A client that does not read (or reads
// slower than the room talks) would make the server queue every line for it, without end:
// past this, the server disconnects it, as chat servers do with a slow consumer.
auto const write_queue_limit =
    number_from_env("BOOST_ASIO_NOTIFY_EXAMPLE_WRITE_QUEUE_LIMIT", 1024 * 1024, "bytes");

// How many participants are in the room at once unless BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS
// says (see limits.hpp): each may have write_queue_limit queued, and every line is copied
// to each.
constexpr std::uint64_t default_max_participants = 256;

// Slow clients are disconnected as often as clients make it happen: they are logged at
// most a line a second.
rate_limited_log client_log;

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
  chat_session(tcp::socket socket, chat_room& room, connection_limit::slot slot)
      : socket_(std::move(socket)), deadline_(socket_.get_executor()), room_(room),
        slot_(std::move(slot))
  {
  }

  void start()
  {
    close_on_give_way(slot_, shared_from_this(), socket_); // see connection_limit.hpp
    room_.join(shared_from_this());
    deliver("* welcome, " + std::to_string(room_.size()) + " participant(s) online\n");
    read_lines();
  }

  // Lines are queued because another write may still be in progress: Asio allows one
  // async_write at a time per socket, or the bytes of two lines could interleave.
  void deliver(std::string const& line) override
  {
    if (!socket_.is_open())
      return; // disconnected, the handlers have yet to run
    if (queued_ + queued_cost(line) > write_queue_limit)
    {
      client_log.write(
          "chat: disconnected a participant " + std::to_string(outbox_.size()) + " lines (" +
          std::to_string(queued_) +
          " bytes with their bookkeeping) behind (BOOST_ASIO_NOTIFY_EXAMPLE_WRITE_QUEUE_LIMIT " +
          std::to_string(write_queue_limit) + ")");
      // Not leave(): the room is iterating over its participants. Closing ends our
      // pending read and write with operation_aborted, and their handlers leave.
      error_code ec;
      socket_.close(ec);
      return;
    }
    bool const idle = outbox_.empty();
    outbox_.push_back(line);
    queued_ += queued_cost(line);
    if (idle)
      write_queued();
  }

private:
  void read_lines()
  {
    arm_deadline();
    // The limit stops one client from making the server buffer without bound.
    net::async_read_until(socket_, net::dynamic_buffer(inbox_, line_limit), '\n',
                          [self = shared_from_this()](error_code ec, std::size_t) {
                            if (ec)
                              return self->leave(); // eof: the client has gone (or sent too much)
                            // A participant that talks is not the idle one (listening is).
                            self->slot_.touch();
                            self->deliver_lines();
                            self->read_lines();
                          });
  }

  // Delivers every complete line read, then drops them from inbox_ at once (keeping what
  // came after the last newline): a flood of short lines then costs a read for many lines,
  // not a completion and a move of the rest of the buffer for each.
  void deliver_lines()
  {
    std::size_t begin = 0;
    for (auto end = inbox_.find('\n'); end != std::string::npos; end = inbox_.find('\n', begin))
    {
      room_.deliver(inbox_.substr(begin, end + 1 - begin), this);
      begin = end + 1;
    }
    inbox_.erase(0, begin);
  }

  // Writes the first lines queued, up to write_batch of them at once: a write (a system
  // call) for each line would keep a flood of short lines from ever being caught up with.
  // The lines stay in outbox_ until written: a deque's elements do not move as it grows.
  void write_queued()
  {
    auto const n = std::min(outbox_.size(), write_batch);
    std::vector<net::const_buffer> buffers;
    buffers.reserve(n);
    for (std::size_t i = 0; i != n; ++i)
      buffers.push_back(net::buffer(outbox_[i]));
    net::async_write(socket_, buffers, [self = shared_from_this(), n](error_code ec, std::size_t) {
      if (ec)
        return self->leave();
      for (std::size_t i = 0; i != n; ++i)
      {
        self->queued_ -= queued_cost(self->outbox_.front());
        self->outbox_.pop_front();
      }
      if (!self->outbox_.empty())
        self->write_queued();
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
  std::uint64_t queued_ = 0;    // what outbox_'s lines cost, see queued_cost
  connection_limit::slot slot_; // our place in the room
  // Asio writes at most 64 buffers with one system call.
  static constexpr std::size_t write_batch = 64;
};

class server
{
public:
  server(net::io_context& ioc, tcp::endpoint const& endpoint)
      : acceptor_(ioc, endpoint), backoff_(ioc.get_executor(), "accept"),
        participants_("chat", default_max_participants)
  {
    accept();
  }

  unsigned short port() const { return acceptor_.local_endpoint().port(); }

private:
  void accept()
  {
    acceptor_.async_accept([this](error_code ec, tcp::socket socket) {
      if (!ec)
        join(std::move(socket));
      backoff_.then(ec, [this] { accept(); }); // see accept_backoff.hpp
    });
  }

  void join(tcp::socket socket)
  {
    if (auto slot = participants_.try_take(socket)) // else closed as `socket` goes out of scope
      std::make_shared<chat_session>(std::move(socket), room_, std::move(slot))->start();
  }

  tcp::acceptor acceptor_;
  accept_backoff backoff_;
  logged_connection_limit participants_;
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
