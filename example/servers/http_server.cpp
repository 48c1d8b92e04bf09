//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// HTTP/1.1 file server on Boost.Beast.
//
//   http_server <port> <doc_root> [threads] [address]
//
// Serves the files under doc_root with GET and HEAD, keeps connections alive as the client
// asks, answers 404 for missing files and 400 for request targets that try to leave
// doc_root. A target may be in origin form ("/a%20b.txt") or absolute form
// ("http://host/a%20b.txt"); its percent-escapes are decoded before it is checked
// (http_target.hpp). Links (symbolic links) are followed only where they lead to a file
// inside doc_root; files and directories whose names start with '.' (".git", ".env") are
// never served, whether named or reached through a link. A HEAD request gets the headers
// GET would, without the body, errors too. Port 0 picks a free port, printed as
// "listening on port N".
//
// What one client can cost is bounded: a request may have an 8 KiB target (beyond: 414),
// 8 KiB of headers and 100 fields (beyond: 431), 8 KiB of body (beyond: 413; GET and HEAD
// need none) and 8 KiB of trailers (beyond: 431). A request the parser rejects is answered
// 400 before the connection closes: a malformed one, an HTTP/1.1 one without exactly one
// valid Host, a target with a fragment or a byte that is not printable ASCII, and one
// whose body cannot be framed (RFC 9112, section 6.3: a Transfer-Encoding whose final
// coding is not chunked, one with Content-Length, one in HTTP/1.0). A request with
// "Expect: 100-continue" gets an error at once, or "100 Continue" before its body is
// read (RFC 9110, section 10.1.1); another expectation gets 417. "If-Match" holds only
// as "*" (the server sends no entity tags; else 412). Connections are limited in all, per
// address and per network, the one idle longest giving way to a newcomer when full
// (connection_limit.hpp). What clients cause is logged at most a line a
// second. A new connection must send its first byte within 5 s
// (BOOST_ASIO_NOTIFY_EXAMPLE_FIRST_BYTE_TIMEOUT), a request's header must be complete 10 s
// after its first byte (BOOST_ASIO_NOTIFY_EXAMPLE_HEADER_TIMEOUT), a body and each step of a
// response may wait 30 s for the client (BOOST_ASIO_NOTIFY_EXAMPLE_IDLE_TIMEOUT, also the
// wait for the next request; see timeouts.hpp): a slow download goes on as long as it
// moves. A single byte range ("Range: bytes=...") is answered 206 (http_ranges.hpp), and
// no response lets a browser guess its type (X-Content-Type-Options: nosniff).
//
// Each connection is a beast::tcp_stream over the backend's socket (net.hpp: Boost.AsioNotify's
// stream, or Beast's own in the default build). Its expires_after gives the time-outs: an
// operation still running at its deadline completes with beast::error::timeout, the socket
// closed.
//

#include "accept_backoff.hpp"
#include "arguments.hpp"
#include "http_request.hpp"
#include "http_response.hpp"
#include "limits.hpp"
#include "net.hpp"
#include "timeouts.hpp"

#include <boost/beast/core.hpp>
// Beast's Windows file body (http/impl/file_body_win32.hpp) leaves two offsets of a
// default-constructed body unset until open(), and its defaulted move constructor copies
// them: GCC's optimiser then warns (-Wmaybe-uninitialized) at that line of Beast's, not of
// ours, in Release builds for Windows. Silenced for Beast's header only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <boost/beast/http.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#include <boost/beast/version.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace beast = backend::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = backend::tcp;
using boost::system::error_code;

// How long a request may take to arrive, and how long each step of a response may wait
// for the client, before the server closes the connection (BOOST_ASIO_NOTIFY_EXAMPLE_IDLE_TIMEOUT,
// see timeouts.hpp).
auto const idle_timeout =
    timeout_from_env("BOOST_ASIO_NOTIFY_EXAMPLE_IDLE_TIMEOUT", std::chrono::seconds(30));
// How long a new connection may stay silent (BOOST_ASIO_NOTIFY_EXAMPLE_FIRST_BYTE_TIMEOUT): a
// client that means to ask something sends at once, and one that holds connections
// without a word gives them back sooner.
auto const first_byte_timeout = std::min<std::chrono::seconds>(
    timeout_from_env("BOOST_ASIO_NOTIFY_EXAMPLE_FIRST_BYTE_TIMEOUT", std::chrono::seconds(5)),
    idle_timeout);

// How long the header of a request may take from its first byte
// (BOOST_ASIO_NOTIFY_EXAMPLE_HEADER_TIMEOUT, at most the idle time-out): a client that sends
// a byte now and then to hold the connection is closed sooner than one that is idle.
auto const header_timeout = std::min<std::chrono::seconds>(
    timeout_from_env("BOOST_ASIO_NOTIFY_EXAMPLE_HEADER_TIMEOUT", std::chrono::seconds(10)),
    idle_timeout);

// The interim response to "Expect: 100-continue".
constexpr beast::string_view continue_line = "HTTP/1.1 100 Continue\r\n\r\n";

// After the last response, how long the server reads and drops what the client still sends
// before it closes (see http_session::close).
constexpr std::chrono::seconds linger_time{2};

// Bad requests and failed connections happen as often as clients make
// them happen: they are logged at most a line a second.
rate_limited_log client_log;

// ---- one connection ----------------------------------------------------------------------

// Reads requests and writes responses one after the other (HTTP/1.1 without pipelining
// concurrency: a request is read only once the previous response has been written).
class http_session : public std::enable_shared_from_this<http_session>
{
public:
  // `slot` is the session's place under the connection limits, given back when it ends.
  http_session(tcp::socket socket, std::shared_ptr<std::string const> doc_root,
               connection_limit::slot slot)
      : stream_(std::move(socket)), doc_root_(std::move(doc_root)), slot_(std::move(slot))
  {
  }

  void run()
  {
    // The accept handler ran on the acceptor's executor; continue on our own strand.
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] {
      close_on_give_way(self->slot_, self, self->stream_.socket());
      self->wait_for_request(first_byte_timeout);
    });
  }

private:
  // Waits up to `timeout` for the first bytes of the next request (they stay in the buffer
  // for the parser), unless a pipelined one is there already; then reads its header.
  void wait_for_request(std::chrono::seconds timeout)
  {
    if (buffer_.size() > 0)
      return read_header();
    stream_.expires_after(timeout);
    stream_.async_read_some(buffer_.prepare(read_buffer_limit),
                            [self = shared_from_this()](error_code ec, std::size_t n) {
                              if (ec == net::error::eof)
                                return self->close(); // the client has closed between requests
                              if (ec)
                                return self->report(ec, "read");
                              self->buffer_.commit(n);
                              self->slot_.touch(); // progress: see connection_limit.hpp
                              self->read_header();
                            });
  }

  // A header has header_timeout from its first byte: a client that sends a byte now and
  // then must not keep the connection for ever.
  void read_header()
  {
    parser_.emplace(); // a fresh parser for every request, with this server's limits
    stream_.expires_after(header_timeout);
    http::async_read_header(stream_, buffer_, *parser_,
                            [self = shared_from_this()](error_code ec, std::size_t) {
                              if (ec == http::error::end_of_stream)
                                return self->close();
                              if (ec)
                                return self->reject(ec);
                              self->on_header();
                            });
  }

  // RFC 9110, section 10.1.1: a client that sent "Expect: 100-continue" waits for our word
  // before its body. An error is answered at once, the body never read (the connection
  // then closes); else 100 (Continue) asks for the body. An unknown expectation is 417.
  void on_header()
  {
    slot_.touch();
    auto const& req = parser_->get();
    auto const expect = expectation_of(req);
    if (expect == expectation::unknown)
      return write_response(respond(
          req.method(),
          text_response(http::status::expectation_failed, 11, false,
                        std::string(http::obsolete_reason(http::status::expectation_failed)))));
    if (expect == expectation::continue_100 && !parser_->is_done())
    {
      auto early = handle_request(*doc_root_, req, false);
      if (http::to_status_class(early.status) != http::status_class::successful)
        return write_response(std::move(early.message));
      stream_.expires_after(idle_timeout);
      return net::async_write(stream_, net::buffer(continue_line.data(), continue_line.size()),
                              [self = shared_from_this()](error_code ec, std::size_t) {
                                if (ec)
                                  return self->report(ec, "write");
                                self->read_body();
                              });
    }
    read_body();
  }

  // The body (at most body_limit: this server reads it only to find the next request).
  void read_body()
  {
    stream_.expires_after(idle_timeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](error_code ec, std::size_t) {
                       if (ec)
                         return self->reject(ec);
                       self->slot_.touch();
                       self->write_response(handle_request(*self->doc_root_, self->parser_->get(),
                                                           self->parser_->get().keep_alive())
                                                .message);
                     });
  }

  // A request the parser rejected is answered with its status, and then the connection
  // closes: what follows a request that could not be parsed cannot be found.
  void reject(error_code ec)
  {
    auto const buffered = buffer_.cdata();
    auto const status = rejection_status(
        ec, parser_->get().target(),
        beast::string_view(static_cast<char const*>(buffered.data()), buffered.size()));
    if (!status)
      return report(ec, "read");
    error_code ignored;
    client_log.write("http: " + std::to_string(static_cast<unsigned>(*status)) + " to " +
                     stream_.socket().remote_endpoint(ignored).address().to_string() + ": " +
                     ec.message());
    // The method is known once the request line is (verb::unknown before).
    write_response(
        respond(parser_->get().method(),
                text_response(*status, 11, false, std::string(http::obsolete_reason(*status)))));
  }

  void write_response(http::message_generator response)
  {
    response_.emplace(std::move(response));
    write_some();
  }

  // A response goes out one write_some at a time, and each gets its own deadline: a
  // client that keeps reading, however slowly, gets the whole of a large file, and one
  // that stops reading for idle_timeout is closed. (beast::async_write runs the same loop
  // over the message_generator, but the stream's deadline is a point in time set before
  // it: the whole response would have one, and slow downloads would be cut off.)
  void write_some()
  {
    // The headers, then the body a piece at a time (a file: read as it goes).
    error_code prepare_ec;
    auto const buffers = response_->prepare(prepare_ec);
    if (prepare_ec)
      return report(prepare_ec, "write"); // e.g. the file could not be read
    // Progress when a piece starts, not when its handler runs: that may come after the
    // client has read the piece and moved on to another connection, which is then the
    // more recent one, as the client sees it.
    slot_.touch();
    stream_.expires_after(idle_timeout);
    stream_.async_write_some(buffers, [self = shared_from_this()](error_code ec, std::size_t n) {
      if (ec)
        return self->report(ec, "write");
      self->response_->consume(n);
      if (!self->response_->is_done())
        return self->write_some();
      bool const keep_alive = self->response_->keep_alive();
      self->response_.reset();
      if (!keep_alive)
        return self->close(); // "Connection: close" (or HTTP/1.0)
      self->wait_for_request(idle_timeout);
    });
  }

  // Ends the connection after the last response: shutting down our side sends FIN once
  // the response is out. Then the server reads and drops what the client still sends,
  // until it closes too or for linger_time at most: closing a socket with unread data
  // resets the connection, and a reset can destroy the response before the client has
  // read it (an error answered while the rest of the request is still arriving). The
  // deadline is set once, for all the reads of the drain. The socket itself is closed
  // when the session is destroyed, after the last handler.
  void close()
  {
    error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    if (ec)
      return;
    stream_.expires_after(std::min<std::chrono::steady_clock::duration>(idle_timeout, linger_time));
    drain();
  }

  void drain()
  {
    buffer_.clear();
    stream_.async_read_some(buffer_.prepare(buffer_.max_size()),
                            [self = shared_from_this()](error_code ec, std::size_t) {
                              if (!ec)
                                self->drain(); // else the client has closed, or the deadline has
                            });
  }

  void report(error_code ec, char const* what) const
  {
    // Clients vanishing and our own time-outs are part of normal life: stay quiet. What
    // the stream reports for an operation its deadline ended is beast::error::timeout,
    // whatever the closed socket said (operation_aborted, or "invalid handle" for a write
    // of stock Asio's under Wine).
    if (ec == beast::error::timeout || ec == net::error::operation_aborted ||
        ec == net::error::eof || ec == net::error::connection_reset ||
        ec == net::error::broken_pipe || ec == http::error::end_of_stream ||
        ec == http::error::partial_message)
      return;
    client_log.write(std::string("http: ") + what + ": " + ec.message());
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_{read_buffer_limit};
  std::optional<request_parser> parser_;
  std::optional<http::message_generator> response_; // the one being written
  std::shared_ptr<std::string const> doc_root_;
  connection_limit::slot slot_;
};

// ---- accepting connections ---------------------------------------------------------------

class listener
{
public:
  listener(net::io_context& ioc, tcp::endpoint const& endpoint, std::string doc_root)
      : ioc_(ioc), acceptor_(ioc, endpoint), backoff_(ioc.get_executor(), "accept"),
        doc_root_(std::make_shared<std::string const>(std::move(doc_root))), connections_("http")
  {
    accept();
  }

  unsigned short port() const { return acceptor_.local_endpoint().port(); }

private:
  void accept()
  {
    // Each connection gets its own strand, so that with several threads running the
    // io_context a session's handlers (and its stream's deadlines) never run concurrently.
    acceptor_.async_accept(net::make_strand(ioc_), [this](error_code ec, tcp::socket socket) {
      if (!ec)
        serve(std::move(socket));
      // Accept the next one: at once, or after a pause when out of descriptors,
      // logging at most a line a second (see accept_backoff.hpp).
      backoff_.then(ec, [this] { accept(); });
    });
  }

  // Serves `socket` if the limits leave it a place (else it is closed as it goes out of
  // scope; see limits.hpp).
  void serve(tcp::socket socket)
  {
    if (auto slot = connections_.try_take(socket))
      std::make_shared<http_session>(std::move(socket), doc_root_, std::move(slot))->run();
  }

  net::io_context& ioc_;
  tcp::acceptor acceptor_;
  accept_backoff backoff_;
  std::shared_ptr<std::string const> doc_root_;
  logged_connection_limit connections_;
};

int main(int argc, char* argv[])
{
  if (argc < 3 || argc > 5)
  {
    std::cerr << "usage: http_server <port> <doc_root> [threads] [address]\n"
                 "  e.g. http_server 8080 /var/www 2\n";
    return EXIT_FAILURE;
  }
  try
  {
    auto const port = port_argument(argv[1]);
    // Canonical (absolute, links resolved, no trailing '/': every target starts with
    // '/'), so that the files' canonical paths can be compared with it; on Windows the
    // path the system gives it, as for the files opened (see http_target.hpp).
    std::string doc_root = final_path(argv[2]).string();
    if (!doc_root.empty() && doc_root.back() == '/')
      doc_root.pop_back(); // doc_root "/" itself
    int const threads =
        argc > 3 ? static_cast<int>(whole_number_argument(argv[3], "threads", 1, 1024)) : 1;
    auto const address = net::ip::make_address(argc > 4 ? argv[4] : "127.0.0.1");

    net::io_context ioc{threads};
    listener server(ioc, tcp::endpoint(address, port), doc_root);

    net::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&](error_code, int) { ioc.stop(); });

    std::cout << "listening on port " << server.port() << " [" << backend::name << ", " << threads
              << " thread(s)]" << std::endl;

    // This thread plus threads-1 more run the same io_context.
    std::vector<std::thread> pool;
    for (int i = 1; i < threads; ++i)
      pool.emplace_back([&ioc] { ioc.run(); });
    ioc.run();
    for (auto& t : pool)
      t.join();
  }
  catch (std::exception const& e)
  {
    std::cerr << "http_server: " << e.what() << "\n";
    return EXIT_FAILURE;
  }
  return EXIT_SUCCESS;
}
