//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// A program of the Boost tree test/superproject lays out: it uses the library as the tree
// provides it and makes one exchange over loopback on the notify reactor.
#include <boost/asio.hpp>
#include <boost/asio_notify.hpp>

#include <iostream>

int main()
{
  namespace asio = boost::asio;
  using tcp = boost::asio_notify::ip::tcp;
  using boost::system::error_code;

  asio::io_context ioc;
  tcp::acceptor acceptor(ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  tcp::socket server(ioc);
  tcp::socket client(ioc);
  char byte = 0;
  acceptor.async_accept(server, [&](error_code ec) {
    if (!ec)
      asio::async_read(server, asio::buffer(&byte, 1), [](error_code, std::size_t) {});
  });
  client.async_connect(acceptor.local_endpoint(), [&](error_code ec) {
    if (!ec)
      asio::async_write(client, asio::buffer("x", 1), [](error_code, std::size_t) {});
  });
  ioc.run();

  const auto& reactor = asio::use_service<boost::asio_notify::reactor>(ioc);
  std::cout << "consumer: " << (byte == 'x' ? "received" : "nothing received") << " on the "
            << boost::asio_notify::to_string(reactor.options().driver) << " driver\n";
  return byte == 'x' ? 0 : 1;
}
