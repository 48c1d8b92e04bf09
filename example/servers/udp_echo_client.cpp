//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// UDP echo client.
//
//   udp_echo_client <host> <port> <message>...
//
// Sends each message as one datagram and waits for the same datagram to come back,
// printing it. UDP may lose datagrams, so each wait has a time-out and a message is sent
// again, up to three times, before the client gives up.
//

#include "net.hpp"

#include <array>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace net = boost::asio;
using udp = backend::udp;
using boost::system::error_code;

class echo_client
{
public:
  echo_client(net::io_context& ioc, udp::endpoint server, std::vector<std::string> messages)
      : socket_(ioc), timer_(ioc), server_(server), messages_(std::move(messages))
  {
    // An unbound socket of the server's family: the system picks our port at first send.
    socket_.open(server_.protocol());
  }

  void start() { send(); }

  std::string const& failure() const { return failure_; }

private:
  void send()
  {
    if (next_ == messages_.size())
      return stop(); // all echoed: close the socket, which ends run()
    socket_.async_send_to(net::buffer(messages_[next_]), server_,
                          [this](error_code ec, std::size_t) {
                            if (ec)
                              return stop("send: " + ec.message());
                            receive();
                          });
  }

  void receive()
  {
    // Either the reply or the timer comes first; the loser is cancelled.
    timer_.expires_after(std::chrono::seconds(1));
    timer_.async_wait([this](error_code ec) {
      // The expiry check skips a time-out that fired just as the reply arrived:
      // by now the timer has been set again for the next message.
      if (!ec && timer_.expiry() <= std::chrono::steady_clock::now())
        socket_.cancel(ec); // completes the receive with operation_aborted
    });
    socket_.async_receive_from(net::buffer(reply_), sender_, [this](error_code ec, std::size_t n) {
      timer_.cancel();
      if (ec == net::error::operation_aborted)
        return retry();
      if (ec)
        return stop("receive: " + ec.message());
      if (sender_ != server_)
        return receive(); // not from our server: ignore it
      std::string reply(reply_.data(), n);
      if (reply != messages_[next_])
      {
        // After a retry, the first attempt's echo may still turn up late.
        for (std::size_t i = 0; i < next_; ++i)
          if (reply == messages_[i])
            return receive();
        return stop("echo differs from message " + std::to_string(next_));
      }
      std::cout << reply << "\n";
      ++next_;
      attempts_ = 0;
      send();
    });
  }

  void retry()
  {
    if (++attempts_ == 3)
      return stop("no reply after 3 attempts");
    send();
  }

  void stop(std::string failure = {})
  {
    failure_ = std::move(failure);
    timer_.cancel();
    error_code ec;
    socket_.close(ec);
  }

  udp::socket socket_;
  net::steady_timer timer_;
  udp::endpoint server_;
  udp::endpoint sender_;
  std::vector<std::string> messages_;
  std::size_t next_ = 0;
  int attempts_ = 0;
  std::array<char, 64 * 1024> reply_;
  std::string failure_;
};

int main(int argc, char* argv[])
{
  if (argc < 4)
  {
    std::cerr << "usage: udp_echo_client <host> <port> <message>...\n";
    return EXIT_FAILURE;
  }
  try
  {
    net::io_context ioc;

    // Resolving is not the point here: the synchronous call keeps the example short.
    udp::resolver resolver(ioc);
    udp::endpoint server = *resolver.resolve(argv[1], argv[2]).begin();

    echo_client client(ioc, server, std::vector<std::string>(argv + 3, argv + argc));
    client.start();
    ioc.run();
    if (!client.failure().empty())
    {
      std::cerr << "udp_echo_client: " << client.failure() << "\n";
      return EXIT_FAILURE;
    }
  }
  catch (std::exception const& e)
  {
    std::cerr << "udp_echo_client: " << e.what() << "\n";
    return EXIT_FAILURE;
  }
  return EXIT_SUCCESS;
}
