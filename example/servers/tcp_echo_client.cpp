//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// TCP echo client, completion handlers (callbacks) style.
//
//   tcp_echo_client <host> <port> <message>...
//
// Sends each message in turn, reads exactly as many bytes back, checks that they are the
// same and prints them, one per line. Gives up after 10 seconds in all.
//

#include "net.hpp"

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace net = boost::asio;
using tcp = backend::tcp;
using boost::system::error_code;

class echo_client
{
public:
  echo_client(net::io_context& ioc, std::vector<std::string> messages)
      : resolver_(ioc), socket_(ioc), deadline_(ioc), messages_(std::move(messages))
  {
  }

  void start(std::string const& host, std::string const& port)
  {
    // One deadline for the whole conversation: closing the socket makes whatever
    // operation is pending complete with operation_aborted, which ends the program.
    deadline_.expires_after(std::chrono::seconds(10));
    deadline_.async_wait([this](error_code ec) {
      if (!ec)
      {
        failure_ = "timed out";
        resolver_.cancel();
        socket_.close(ec);
      }
    });

    resolver_.async_resolve(host, port,
                            [this](error_code ec, tcp::resolver::results_type endpoints) {
                              if (ec)
                                return fail("resolve", ec);
                              connect(endpoints);
                            });
  }

  /// Empty on success, otherwise what went wrong.
  std::string const& failure() const { return failure_; }

private:
  void connect(tcp::resolver::results_type const& endpoints)
  {
    // Tries each resolved endpoint in turn (IPv6 and IPv4 for "localhost").
    backend::async_connect(socket_, endpoints, [this](error_code ec, tcp::endpoint const&) {
      if (ec)
        return fail("connect", ec);
      send_next();
    });
  }

  void send_next()
  {
    if (next_ == messages_.size())
      return finish();
    net::async_write(socket_, net::buffer(messages_[next_]), [this](error_code ec, std::size_t) {
      if (ec)
        return fail("write", ec);
      receive_echo();
    });
  }

  void receive_echo()
  {
    // async_read (not read_some): the echo may arrive in several pieces.
    reply_.resize(messages_[next_].size());
    net::async_read(socket_, net::buffer(reply_), [this](error_code ec, std::size_t) {
      if (ec)
        return fail("read", ec);
      if (reply_ != messages_[next_])
        return fail("echo differs from message " + std::to_string(next_), {});
      std::cout << reply_ << "\n";
      ++next_;
      send_next();
    });
  }

  void finish()
  {
    // Tell the server we are done sending; it closes its side when it reads eof.
    error_code ec;
    socket_.shutdown(tcp::socket::shutdown_send, ec);
    socket_.close(ec);
    deadline_.cancel();
  }

  void fail(std::string what, error_code ec)
  {
    if (failure_.empty()) // a time-out already said why the socket was closed
      failure_ = ec ? what + ": " + ec.message() : what;
    deadline_.cancel();
    socket_.close(ec);
  }

  tcp::resolver resolver_;
  tcp::socket socket_;
  net::steady_timer deadline_;
  std::vector<std::string> messages_;
  std::size_t next_ = 0;
  std::string reply_;
  std::string failure_;
};

int main(int argc, char* argv[])
{
  if (argc < 4)
  {
    std::cerr << "usage: tcp_echo_client <host> <port> <message>...\n";
    return EXIT_FAILURE;
  }
  try
  {
    net::io_context ioc;
    echo_client client(ioc, std::vector<std::string>(argv + 3, argv + argc));
    client.start(argv[1], argv[2]);
    ioc.run(); // returns when no operation is left
    if (!client.failure().empty())
    {
      std::cerr << "tcp_echo_client: " << client.failure() << "\n";
      return EXIT_FAILURE;
    }
  }
  catch (std::exception const& e)
  {
    std::cerr << "tcp_echo_client: " << e.what() << "\n";
    return EXIT_FAILURE;
  }
  return EXIT_SUCCESS;
}
