//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// TLS echo server: boost::asio::ssl::stream layered over the TCP socket.
//
//   tls_echo_server <port> <certificate.pem> <private-key.pem> [address]
//
// ssl::stream only needs its lower layer to be an AsyncReadStream / AsyncWriteStream, so
// it works unchanged over either backend's socket. Port 0 picks a free port, printed as
// "listening on port N". Try it with:  openssl s_client -connect 127.0.0.1:<port>
// A client gets 10 s for the handshake (BOOST_ASIO_NOTIFY_EXAMPLE_HANDSHAKE_TIMEOUT) and is
// disconnected when idle for 30 s (BOOST_ASIO_NOTIFY_EXAMPLE_IDLE_TIMEOUT); see timeouts.hpp.
// A connection costs ~90 kB even before its handshake (OpenSSL's state and buffers): at
// most 512 are served at once (BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS, see limits.hpp), and
// a connection beyond is closed as soon as accepted. Failed handshakes and connections
// are logged at most a line a second.
//

#include "accept_backoff.hpp"
#include "arguments.hpp"
#include "limits.hpp"
#include "net.hpp"
#include "timeouts.hpp"

#include <boost/asio/ssl.hpp>

#include <array>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
using tcp = backend::tcp;
using boost::system::error_code;

// A handshake that has not finished by then, or a read or write that has waited this long
// for the client, closes the connection.
auto const handshake_timeout =
    timeout_from_env("BOOST_ASIO_NOTIFY_EXAMPLE_HANDSHAKE_TIMEOUT", std::chrono::seconds(10));
auto const idle_timeout =
    timeout_from_env("BOOST_ASIO_NOTIFY_EXAMPLE_IDLE_TIMEOUT", std::chrono::seconds(30));

// Failed handshakes and connections happen as often as clients make them happen: they are
// logged at most a line a second.
rate_limited_log client_log;

// `slot` is the session's place under the connection limit, given back when it ends.
class tls_session : public std::enable_shared_from_this<tls_session>
{
public:
  tls_session(tcp::socket socket, ssl::context& ctx, connection_limit::slot slot)
      : stream_(std::move(socket), ctx), deadline_(stream_.get_executor()), slot_(std::move(slot))
  {
  }

  void start()
  {
    close_on_give_way(slot_, shared_from_this(), stream_.next_layer()); // see connection_limit.hpp
    arm_deadline(handshake_timeout);
    stream_.async_handshake(ssl::stream_base::server, [self = shared_from_this()](error_code ec) {
      if (!ec)
        self->read();
      else
        report("handshake", ec);
    });
  }

private:
  // Each step (handshake, echo) is progress: the connection is not the idle one.
  void read()
  {
    slot_.touch();
    arm_deadline(idle_timeout);
    stream_.async_read_some(net::buffer(data_),
                            [self = shared_from_this()](error_code ec, std::size_t n) {
                              if (!ec)
                                return self->write(n);
                              // The client's close_notify arrives as eof: answer with ours. A client
                              // that just drops the connection gives stream_truncated instead.
                              if (ec == net::error::eof)
                                return self->shutdown();
                              if (ec != ssl::error::stream_truncated)
                                report("read", ec);
                            });
  }

  void write(std::size_t n)
  {
    slot_.touch();
    arm_deadline(idle_timeout);
    net::async_write(stream_, net::buffer(data_, n),
                     [self = shared_from_this()](error_code ec, std::size_t) {
                       if (!ec)
                         return self->read();
                       report("write", ec);
                     });
  }

  // Closing the TCP socket under the TLS stream ends its pending operation with
  // operation_aborted. The timer's handler holds only a weak_ptr, so that a pending
  // deadline does not keep a finished session alive.
  void arm_deadline(std::chrono::seconds timeout)
  {
    deadline_.expires_after(timeout); // cancels the previous wait
    deadline_.async_wait([weak = weak_from_this()](error_code ec) {
      auto self = weak.lock();
      // The expiry check skips a wait that fired just as the operation completed.
      if (!self || ec || self->deadline_.expiry() > std::chrono::steady_clock::now())
        return;
      self->stream_.next_layer().close(ec);
    });
  }

  void shutdown()
  {
    arm_deadline(idle_timeout); // a peer that never answers our close_notify
    // Sends our close_notify. The peer may already be gone, so errors are expected.
    stream_.async_shutdown([self = shared_from_this()](error_code) {});
  }

  static void report(char const* what, error_code ec)
  {
    if (ec == net::error::operation_aborted)
      return; // our own time-out: part of normal life
    client_log.write(what + (": " + ec.message()));
  }

  ssl::stream<tcp::socket> stream_;
  net::steady_timer deadline_;
  connection_limit::slot slot_;
  std::array<char, 16 * 1024> data_; // one TLS record holds at most 16 KiB
};

class server
{
public:
  server(net::io_context& ioc, tcp::endpoint const& endpoint, ssl::context& ctx)
      : acceptor_(ioc, endpoint), backoff_(ioc.get_executor(), "accept"), ctx_(ctx),
        connections_("accept")
  {
    accept();
  }

  unsigned short port() const { return acceptor_.local_endpoint().port(); }

private:
  void accept()
  {
    acceptor_.async_accept([this](error_code ec, tcp::socket socket) {
      if (!ec)
      {
        if (auto slot = connections_.try_take(socket)) // else closed as `socket` goes out of scope
          std::make_shared<tls_session>(std::move(socket), ctx_, std::move(slot))->start();
      }
      backoff_.then(ec, [this] { accept(); }); // see accept_backoff.hpp
    });
  }

  tcp::acceptor acceptor_;
  accept_backoff backoff_;
  ssl::context& ctx_;
  logged_connection_limit connections_;
};

int main(int argc, char* argv[])
{
  if (argc < 4 || argc > 5)
  {
    std::cerr << "usage: tls_echo_server <port> <certificate.pem> <private-key.pem> [address]\n";
    return EXIT_FAILURE;
  }
  try
  {
    auto const port = port_argument(argv[1]);
    auto const address = net::ip::make_address(argc > 4 ? argv[4] : "127.0.0.1");

    // TLS 1.2 and later only; older versions are broken or deprecated.
    ssl::context ctx(ssl::context::tls_server);
    ctx.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                    ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
    ctx.use_certificate_chain_file(argv[2]);
    ctx.use_private_key_file(argv[3], ssl::context::pem);

    net::io_context ioc;
    server s(ioc, tcp::endpoint(address, port), ctx);

    net::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&](error_code, int) { ioc.stop(); });

    std::cout << "listening on port " << s.port() << " [" << backend::name << "]" << std::endl;
    ioc.run();
  }
  catch (std::exception const& e)
  {
    std::cerr << "tls_echo_server: " << e.what() << "\n";
    return EXIT_FAILURE;
  }
  return EXIT_SUCCESS;
}
