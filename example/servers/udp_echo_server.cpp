//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// UDP echo server.
//
//   udp_echo_server <port> [address]
//
// Sends every datagram back to where it came from. One socket serves every client, so
// there is exactly one receive or one send pending at any time: no sessions, no queues.
// Port 0 picks a free port, printed as "listening on port N".
//

#include "arguments.hpp"
#include "net.hpp"

#include <array>
#include <cstdlib>
#include <iostream>
#include <string>

namespace net = boost::asio;
using udp = backend::udp;
using boost::system::error_code;

class server
{
public:
  server(net::io_context& ioc, udp::endpoint const& endpoint) : socket_(ioc, endpoint)
  {
    receive();
  }

  unsigned short port() const { return socket_.local_endpoint().port(); }

private:
  void receive()
  {
    // sender_ is filled in with the datagram's source address when the receive completes.
    socket_.async_receive_from(net::buffer(data_), sender_, [this](error_code ec, std::size_t n) {
      if (ec == net::error::operation_aborted)
        return; // socket closed: shutting down
      if (!ec)  // an empty datagram too: RFC 862 echoes every one
        return send(n);
      // Other errors (e.g. an ICMP "port unreachable" reported for an earlier
      // reply on some systems) concern one peer only: keep serving the rest.
      receive();
    });
  }

  void send(std::size_t n)
  {
    socket_.async_send_to(net::buffer(data_, n), sender_, [this](error_code ec, std::size_t) {
      if (ec == net::error::operation_aborted)
        return;
      receive(); // a failed reply is lost like any datagram; carry on
    });
  }

  udp::socket socket_;
  udp::endpoint sender_;
  std::array<char, 64 * 1024> data_; // the largest possible UDP payload fits
};

int main(int argc, char* argv[])
{
  if (argc < 2 || argc > 3)
  {
    std::cerr << "usage: udp_echo_server <port> [address]\n";
    return EXIT_FAILURE;
  }
  try
  {
    auto const port = port_argument(argv[1]);
    auto const address = net::ip::make_address(argc > 2 ? argv[2] : "127.0.0.1");

    net::io_context ioc;
    server s(ioc, udp::endpoint(address, port));

    net::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&](error_code, int) { ioc.stop(); });

    std::cout << "listening on port " << s.port() << " [" << backend::name << "]" << std::endl;
    ioc.run();
  }
  catch (std::exception const& e)
  {
    std::cerr << "udp_echo_server: " << e.what() << "\n";
    return EXIT_FAILURE;
  }
  return EXIT_SUCCESS;
}
