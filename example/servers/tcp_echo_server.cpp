//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// TCP echo server, completion handlers (callbacks) style.
//
//   tcp_echo_server <port> [address]
//
// Every byte a client sends comes back to it. Port 0 lets the system choose; the chosen
// port is printed as "listening on port N" so that scripts can find the server. A client
// idle for 30 s (BOOST_ASIO_NOTIFY_EXAMPLE_IDLE_TIMEOUT, see timeouts.hpp) is disconnected; at
// most 512 are served at once (BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS, see limits.hpp), and
// a connection beyond is closed as soon as accepted.
//

#include "accept_backoff.hpp"
#include "arguments.hpp"
#include "limits.hpp"
#include "net.hpp"
#include "timeouts.hpp"

#include <array>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

namespace net = boost::asio;
using tcp = backend::tcp; // notify or default: the only line that differs
using boost::system::error_code;

// How long a read or a write may wait for the client before the server gives up on it.
auto const idle_timeout =
    timeout_from_env("BOOST_ASIO_NOTIFY_EXAMPLE_IDLE_TIMEOUT", std::chrono::seconds(30));

// One connected client. The session keeps itself alive through the shared_ptr that each
// pending operation's handler holds: when no operation is pending any more, it is destroyed
// and its socket closed, and its place under the connection limit (`slot`) given back.
class session : public std::enable_shared_from_this<session>
{
public:
  session(tcp::socket socket, connection_limit::slot slot)
      : socket_(std::move(socket)), deadline_(socket_.get_executor()), slot_(std::move(slot))
  {
  }

  void start()
  {
    close_on_give_way(slot_, shared_from_this(), socket_); // see connection_limit.hpp
    read();
  }

private:
  void read()
  {
    arm_deadline();
    // read_some returns as soon as *some* data is there: an echo must not wait for a
    // full buffer that may never come.
    socket_.async_read_some(net::buffer(data_),
                            [self = shared_from_this()](error_code ec, std::size_t n) {
                              if (!ec)
                              {
                                self->slot_.touch(); // progress: not the idle one
                                self->write(n);
                              }
                              // On error (eof included) nothing more is started: the session ends here.
                            });
  }

  void write(std::size_t n)
  {
    arm_deadline();
    // async_write (the free function) loops until all n bytes are sent.
    net::async_write(socket_, net::buffer(data_, n),
                     [self = shared_from_this()](error_code ec, std::size_t) {
                       if (!ec)
                       {
                         self->slot_.touch();
                         self->read();
                       }
                     });
  }

  // Each read and each write gets idle_timeout. The timer's handler holds only a
  // weak_ptr: a pending deadline must not keep a finished session alive.
  void arm_deadline()
  {
    deadline_.expires_after(idle_timeout); // cancels the previous wait
    deadline_.async_wait([weak = weak_from_this()](error_code ec) {
      auto self = weak.lock();
      // The expiry check skips a wait that fired just as the read or write completed
      // and the deadline was set again.
      if (!self || ec || self->deadline_.expiry() > std::chrono::steady_clock::now())
        return;
      self->socket_.close(ec); // the pending read or write ends with operation_aborted
    });
  }

  tcp::socket socket_;
  net::steady_timer deadline_;
  connection_limit::slot slot_;
  std::array<char, 16 * 1024> data_;
};

// Accepts connections forever, starting a session for each one the limit lets in.
class server
{
public:
  server(net::io_context& ioc, tcp::endpoint const& endpoint)
      : acceptor_(ioc, endpoint), backoff_(ioc.get_executor(), "accept"), connections_("accept")
  {
    accept();
  }

  unsigned short port() const { return acceptor_.local_endpoint().port(); }

private:
  void accept()
  {
    // The "move accept" form: the handler receives the new socket by value.
    acceptor_.async_accept([this](error_code ec, tcp::socket socket) {
      if (!ec)
      {
        if (auto slot = connections_.try_take(socket)) // else closed as `socket` goes out of scope
          std::make_shared<session>(std::move(socket), std::move(slot))->start();
      }
      // Accept the next one: at once, or after a pause when out of descriptors
      // (see accept_backoff.hpp), or never once the acceptor is closed.
      backoff_.then(ec, [this] { accept(); });
    });
  }

  tcp::acceptor acceptor_;
  accept_backoff backoff_;
  logged_connection_limit connections_;
};

int main(int argc, char* argv[])
{
  if (argc < 2 || argc > 3)
  {
    std::cerr << "usage: tcp_echo_server <port> [address]\n"
                 "  port 0 picks a free port, printed as \"listening on port N\"\n";
    return EXIT_FAILURE;
  }
  try
  {
    auto const port = port_argument(argv[1]);
    auto const address = net::ip::make_address(argc > 2 ? argv[2] : "127.0.0.1");

    net::io_context ioc;
    server s(ioc, tcp::endpoint(address, port));

    // Stop cleanly on Ctrl-C or `kill`, so that scripts can end the server.
    net::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&](error_code, int) { ioc.stop(); });

    std::cout << "listening on port " << s.port() << " [" << backend::name << "]"
              << std::endl; // endl: flush now, a script is waiting for this line
    ioc.run();
  }
  catch (std::exception const& e)
  {
    std::cerr << "tcp_echo_server: " << e.what() << "\n";
    return EXIT_FAILURE;
  }
  return EXIT_SUCCESS;
}
