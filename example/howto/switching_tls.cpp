//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// boost::asio::ssl::stream over the notify reactor's TCP socket: a TLS echo server and a
// client in one process, talking over loopback, in C++20 coroutines. doc/switching.md
// shows this file whole; test_howto.cmake runs it.
//
// It prints what came back and exits with 0 when it is what was sent.

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio_notify.hpp>

#include <iostream>
#include <string>

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
using tcp = boost::asio_notify::ip::tcp; // was: using tcp = boost::asio::ip::tcp;

// ssl::stream needs only an AsyncReadStream / AsyncWriteStream below it: ours will do.
using tls_stream = ssl::stream<tcp::socket>;

// A self-signed certificate for localhost and 127.0.0.1 (valid from 2000 to 2999) and its
// private key. For this example only: the key is public.
const std::string certificate = R"(-----BEGIN CERTIFICATE-----
MIIBWjCCAQGgAwIBAgIUJqlO4ODKFmFpr6QlbTLxH0i7MX8wCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTAwMDEwMTAwMDAwMFoYDzI5OTkxMjMx
MDAwMDAwWjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAS3TzufdGWAoq5p2KHd4Bk5OWq3Y+Qt5ipJALsN9tO0RNGGFli9STpQ
SU2ZKBJ3vWqKyvjUFQZ8KDxPqlBFSF5hoy8wLTAaBgNVHREEEzARgglsb2NhbGhv
c3SHBH8AAAEwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNHADBEAiAcF90g
jL5KrM0KomiDnREMbCVV9yv2bxAyYsi+4ANAfQIgT6WWNEMz4KYqc2o2gpHoNGXg
bL0fM227gMT43XK0GvI=
-----END CERTIFICATE-----
)";
const std::string private_key = R"(-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg3G6uM9vwARtnC8NA
AHUUY4d60fcMHMoabIvIkr/E8uuhRANCAAS3TzufdGWAoq5p2KHd4Bk5OWq3Y+Qt
5ipJALsN9tO0RNGGFli9STpQSU2ZKBJ3vWqKyvjUFQZ8KDxPqlBFSF5h
-----END PRIVATE KEY-----
)";

// Accepts one connection and echoes one message over TLS.
asio::awaitable<void> echo_once(tcp::acceptor& acceptor, ssl::context& context)
{
  tls_stream stream(co_await acceptor.async_accept(asio::use_awaitable), context);
  co_await stream.async_handshake(ssl::stream_base::server, asio::use_awaitable);
  char data[256];
  std::size_t n = co_await stream.async_read_some(asio::buffer(data), asio::use_awaitable);
  co_await asio::async_write(stream, asio::buffer(data, n), asio::use_awaitable);
  co_await stream.async_shutdown(asio::use_awaitable);
}

// Sends `text` to `server` over TLS, checking the server's certificate, and returns the echo.
asio::awaitable<std::string> send(tcp::endpoint server, ssl::context& context, std::string text)
{
  tls_stream stream(co_await asio::this_coro::executor, context);
  co_await stream.next_layer().async_connect(server, asio::use_awaitable);
  stream.set_verify_mode(ssl::verify_peer);
  stream.set_verify_callback(ssl::host_name_verification("localhost"));
  co_await stream.async_handshake(ssl::stream_base::client, asio::use_awaitable);
  co_await asio::async_write(stream, asio::buffer(text), asio::use_awaitable);
  std::string echo(text.size(), '\0');
  co_await asio::async_read(stream, asio::buffer(echo), asio::use_awaitable);
  co_await stream.async_shutdown(asio::use_awaitable);
  co_return echo;
}

int main()
{
  asio::io_context ioc;

  ssl::context server_context(ssl::context::tls_server);
  server_context.use_certificate_chain(asio::buffer(certificate));
  server_context.use_private_key(asio::buffer(private_key), ssl::context::pem);
  ssl::context client_context(ssl::context::tls_client);
  client_context.add_certificate_authority(asio::buffer(certificate));

  tcp::acceptor acceptor(ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  asio::co_spawn(ioc, echo_once(acceptor, server_context), [](std::exception_ptr e) {
    if (e)
      std::rethrow_exception(e);
  });

  std::string echo;
  asio::co_spawn(ioc, send(acceptor.local_endpoint(), client_context, "hello over TLS"),
                 [&](std::exception_ptr e, std::string received) {
                   if (e)
                     std::rethrow_exception(e);
                   echo = received;
                 });
  ioc.run();

  std::cout << "echo: " << echo << "\n";
  return echo == "hello over TLS" ? 0 : 1;
}
