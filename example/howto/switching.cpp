//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// An Asio program on the notify reactor: an HTTP server and a client in one process,
// talking over loopback, with Beast's HTTP algorithms on the library's TCP socket and
// C++20 coroutines. doc/switching.md shows this file whole; test_howto.cmake runs it.
//
// It prints the driver the reactor runs and the response, and exits with 0 when the
// response is the one expected.

#include <boost/asio.hpp>
#include <boost/asio_notify.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <iostream>
#include <string>

namespace asio = boost::asio;
namespace http = boost::beast::http;

// The one line that changes: the socket and the acceptor of the notify reactor.
using tcp = boost::asio_notify::ip::tcp; // was: using tcp = boost::asio::ip::tcp;

// Answers one request on `socket` with a line of text.
asio::awaitable<void> serve(tcp::socket socket)
{
  boost::beast::flat_buffer buffer;
  http::request<http::string_body> request;
  co_await http::async_read(socket, buffer, request, asio::use_awaitable);

  http::response<http::string_body> response(http::status::ok, request.version());
  response.set(http::field::content_type, "text/plain");
  response.body() = "hello, " + std::string(request.target()) + "\n";
  response.prepare_payload();
  co_await http::async_write(socket, response, asio::use_awaitable);
}

// Accepts connections until the acceptor is closed.
asio::awaitable<void> listen(tcp::acceptor& acceptor)
{
  for (;;)
  {
    auto [ec, socket] = co_await acceptor.async_accept(asio::as_tuple(asio::use_awaitable));
    if (ec == asio::error::operation_aborted)
      co_return;
    if (!ec)
      asio::co_spawn(acceptor.get_executor(), serve(std::move(socket)), asio::detached);
  }
}

// GETs `target` from host:port and returns "<status> <body>".
asio::awaitable<std::string> get(std::string host, std::string port, std::string target)
{
  auto executor = co_await asio::this_coro::executor;
  tcp::resolver resolver(executor);
  tcp::socket socket(executor);
  auto endpoints = co_await resolver.async_resolve(host, port, asio::use_awaitable);
  // boost::asio::async_connect takes Asio's own sockets only.
  co_await boost::asio_notify::async_connect(socket, endpoints, asio::use_awaitable);

  http::request<http::empty_body> request(http::verb::get, target, 11);
  request.set(http::field::host, host);
  co_await http::async_write(socket, request, asio::use_awaitable);

  boost::beast::flat_buffer buffer;
  http::response<http::string_body> response;
  co_await http::async_read(socket, buffer, response, asio::use_awaitable);
  co_return std::to_string(response.result_int()) + " " + response.body();
}

int main()
{
  asio::io_context ioc;

  // Optional: the reactor's options, set before the first socket is created. These are
  // the defaults, or what BOOST_ASIO_NOTIFY_REACTOR says (e.g. "driver=thread").
  boost::asio_notify::reactor_options options =
      boost::asio_notify::reactor_options_from_environment();
  auto& reactor = asio::make_service<boost::asio_notify::reactor>(ioc, options);

  tcp::acceptor acceptor(ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  const std::string port = std::to_string(acceptor.local_endpoint().port());
  asio::co_spawn(ioc, listen(acceptor), asio::detached);

  std::string result;
  asio::co_spawn(ioc, get("127.0.0.1", port, "/switching"),
                 [&](std::exception_ptr e, std::string response) {
                   acceptor.close(); // the server stops too
                   if (e)
                     std::rethrow_exception(e);
                   result = response;
                 });
  ioc.run();

  // The driver that runs: the one asked for, or the next one this build can host.
  std::cout << "driver: " << boost::asio_notify::to_string(reactor.options().driver) << "\n"
            << "response: " << result;
  return result == "200 hello, /switching\n" ? 0 : 1;
}
