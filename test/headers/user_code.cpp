// A user's program, compiled (syntax only) by check.cmake in several ways: on our sockets
// or, with USE_STOCK_SOCKETS, on Asio's; with USE_NULL_BUFFERS it uses null_buffers.
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#if !defined(USE_STOCK_SOCKETS)
#include <boost/asio_notify.hpp>
#include <boost/asio_notify/beast.hpp>
#endif
#include <boost/version.hpp>

#if defined(USE_STOCK_SOCKETS)
namespace beast = boost::beast;
using tcp = boost::asio::ip::tcp;
using udp = boost::asio::ip::udp;
#else
namespace beast = boost::asio_notify::beast;
using tcp = boost::asio_notify::ip::tcp;
using udp = boost::asio_notify::ip::udp;
#endif

#if defined(PRINT_BOOST_VERSION)
#define BOOST_ASIO_NOTIFY_STRING(x) #x
#define BOOST_ASIO_NOTIFY_VALUE(x) BOOST_ASIO_NOTIFY_STRING(x)
#pragma message("boost_version=" BOOST_ASIO_NOTIFY_VALUE(BOOST_VERSION))
#endif

void use(boost::asio::io_context& ioc)
{
  tcp::socket s(ioc);
  udp::socket u(ioc);
  char buf[16];
  auto ignore = [](boost::system::error_code, std::size_t) {
  };
  s.async_read_some(boost::asio::buffer(buf), ignore);
  s.async_write_some(boost::asio::buffer(buf), ignore);
  s.async_wait(tcp::socket::wait_read, [](boost::system::error_code) {});
  u.async_receive(boost::asio::buffer(buf), ignore);
  u.async_send(boost::asio::buffer(buf), ignore);
#if defined(USE_NULL_BUFFERS)
  s.async_read_some(boost::asio::null_buffers(), ignore);
  u.async_receive(boost::asio::null_buffers(), ignore);
#endif
}

// Beast's stream with timeouts, and a WebSocket over it (teardown found by ADL).
void use_beast(boost::asio::io_context& ioc)
{
  beast::websocket::stream<beast::tcp_stream> ws(ioc);
  beast::get_lowest_layer(ws).expires_after(std::chrono::seconds(1));
  beast::flat_buffer buffer;
  ws.async_read(buffer, [](beast::error_code, std::size_t) {});
  ws.async_close(beast::websocket::close_code::normal, [](beast::error_code) {});
  beast::websocket::stream<tcp::socket> plain(ioc);
  plain.async_close(beast::websocket::close_code::normal, [](beast::error_code) {});
}

int main()
{
  boost::asio::io_context ioc;
  use(ioc);
  use_beast(ioc);
}
