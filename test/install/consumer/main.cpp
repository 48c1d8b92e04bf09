// Written from the README and the public headers only: a TCP echo and a UDP echo on
// the notify reactor. Exits 0 when both round trips return what was sent and, given a
// driver's name as its argument, the reactor runs that driver.
#include <boost/asio.hpp>
#include <boost/asio_notify.hpp>

#include <iostream>
#include <string>

namespace asio = boost::asio;
using tcp = boost::asio_notify::ip::tcp;
using udp = boost::asio_notify::ip::udp;

int main(int argc, char** argv)
{
  asio::io_context ioc;
  const auto loopback = asio::ip::address_v4::loopback();

  // TCP: accept one connection and echo what it sends.
  tcp::acceptor acceptor(ioc, tcp::endpoint(loopback, 0));
  std::string tcp_reply(5, '\0');
  tcp::socket server(ioc), client(ioc);
  char server_buf[5];
  acceptor.async_accept(server, [&](boost::system::error_code ec) {
    if (ec)
      return;
    asio::async_read(server, asio::buffer(server_buf),
                     [&](boost::system::error_code ec2, std::size_t n) {
                       if (!ec2)
                         asio::async_write(server, asio::buffer(server_buf, n), asio::detached);
                     });
  });
  client.async_connect(acceptor.local_endpoint(), [&](boost::system::error_code ec) {
    if (ec)
      return;
    asio::async_write(client, asio::buffer("hello", 5), asio::detached);
    asio::async_read(client, asio::buffer(tcp_reply), asio::detached);
  });

  // UDP: echo one datagram.
  udp::socket udp_server(ioc, udp::endpoint(loopback, 0));
  udp::socket udp_client(ioc, udp::endpoint(loopback, 0));
  udp::endpoint sender;
  char udp_buf[16];
  std::string udp_reply(5, '\0');
  udp_server.async_receive_from(
      asio::buffer(udp_buf), sender, [&](boost::system::error_code ec, std::size_t n) {
        if (!ec)
          udp_server.async_send_to(asio::buffer(udp_buf, n), sender, asio::detached);
      });
  udp_client.async_send_to(asio::buffer("world", 5), udp_server.local_endpoint(), asio::detached);
  udp_client.async_receive(asio::buffer(udp_reply), asio::detached);

  ioc.run_for(std::chrono::seconds(10));
  const std::string driver = boost::asio_notify::to_string(
      asio::use_service<boost::asio_notify::reactor>(ioc).options().driver);
  std::cout << "tcp: " << tcp_reply << ", udp: " << udp_reply << ", driver: " << driver << "\n";
  const bool driver_as_expected = argc < 2 || driver == argv[1];
  return tcp_reply == "hello" && udp_reply == "world" && driver_as_expected ? 0 : 1;
}
