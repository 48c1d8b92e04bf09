//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Beast's WebSocket over the notify reactor's sockets: websocket::stream of our TCP
// socket, of ssl::stream of it, and of boost::asio_notify::beast::tcp_stream. For each:
// - the handshake, text and binary messages (one of 1 MiB, eight times what the sockets'
//   buffers hold) and the closing handshake begun by either side, the peer reading
//   websocket::error::closed and the close code and reason sent; with completion handlers,
//   with C++20 coroutines (where the compiler has them) and synchronously (the synchronous
//   close tears down with websocket's synchronous teardown);
// - the closing handshake against a peer that answers the close frame but never closes its
//   side, so that the teardown waits for an end of stream that never comes: it completes,
//   with an error, when the WebSocket timeout fires, when the lowest layer's cancel() is
//   called, or when the close's cancellation slot is emitted (no hang);
// - WebSocket's idle timeout, which closes the lowest layer (beast_close_socket);
// and for tcp_stream: its timeouts during a WebSocket handshake, read and write, which complete
// with beast::error::timeout. Last, the customisation points called directly: teardown,
// async_teardown (both roles) and beast::close_socket, on our socket and on tcp_stream.
//
// Every case runs under every reactor configuration (test/support/reactor_configs.hpp). The
// same cases are built a second time against stock Asio's socket and Beast's own tcp_stream
// (BOOST_ASIO_NOTIFY_DEFAULT_BACKEND: beast_websocket_test_default), which proves each of them
// right about Beast's behaviour.
//
// The cases are in three translation units, which compile in parallel (the single file they
// were in took minutes to compile and was the last to finish in every build):
// websocket_exchange_test.cpp (completion handlers, synchronous), websocket_coroutine_test.cpp
// (C++20 coroutines) and websocket_teardown_test.cpp (the peer that never closes, the idle
// timeout, tcp_stream's timeouts, the customisation points). This header has what they share:
// the helpers, the kinds of stream and the cases' templates.
#ifndef BOOST_ASIO_NOTIFY_TEST_BEAST_WEBSOCKET_SUPPORT_HPP
#define BOOST_ASIO_NOTIFY_TEST_BEAST_WEBSOCKET_SUPPORT_HPP

#if !defined(BOOST_ASIO_NOTIFY_DEFAULT_BACKEND)
#include <boost/asio_notify/beast.hpp> // first: the header is self-contained
#endif

#include "support/reactor_configs.hpp"
#include "support/run_until.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/test/unit_test.hpp>

#if BOOST_ASIO_NOTIFY_TEST_HAS_OPENSSL
#include <boost/asio/ssl.hpp>
#include <boost/beast/websocket/ssl.hpp>
#endif

#if defined(BOOST_ASIO_HAS_CO_AWAIT)
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#endif

#if defined(_WIN32)
#include <winsock2.h>
#else
#include <sys/socket.h>
#endif

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>

namespace websocket_test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using boost::system::error_code;
using boost::system::system_error;
using namespace std::chrono_literals;

#if defined(BOOST_ASIO_NOTIFY_DEFAULT_BACKEND)
using tcp = asio::ip::tcp;
using tcp_stream = beast::tcp_stream;
#else
using tcp = boost::asio_notify::ip::tcp;
using tcp_stream = boost::asio_notify::beast::tcp_stream;
static_assert(std::is_same_v<tcp_stream::socket_type, tcp::socket>);
#endif

inline constexpr auto client_role = beast::role_type::client;
inline constexpr auto server_role = beast::role_type::server;

/// How long any wait for a completion may take before the case fails instead of hanging.
inline constexpr std::chrono::milliseconds generous = 20s;

/// The sockets' send and receive buffers (Linux doubles what is asked): the large message is
/// eight times what one holds, so its transfer waits for the peer many times.
inline constexpr int socket_buffer = 64 * 1024;

/// When a timeout or a cancellation is due in the cases that wait for one.
inline constexpr std::chrono::milliseconds cut_after = 100ms;

inline const char* name(beast::role_type role) { return role == client_role ? "client" : "server"; }

inline std::string describe(const error_code& ec)
{
  return ec.message() + " [" + ec.category().name() + ':' + std::to_string(ec.value()) + ']';
}

/// 1 MiB of pseudo-random bytes, the same in every run.
inline const std::string& large_message()
{
  static const std::string message = [] {
    std::string m(1024 * 1024, '\0');
    std::mt19937 random(27);
    for (char& c : m)
      c = static_cast<char>(random() & 0xff);
    return m;
  }();
  return message;
}

/// Runs `ioc` until `done()` holds or `timeout` passes (test_support::run_until).
template <class Predicate>
bool run_until(asio::io_context& ioc, Predicate done, std::chrono::milliseconds timeout = generous)
{
  return test_support::run_until(ioc, done, timeout);
}

/// Runs `body(ioc)` on an io_context of each reactor configuration (stock Asio: once).
template <class Body>
void for_each_configuration(Body body)
{
#if defined(BOOST_ASIO_NOTIFY_DEFAULT_BACKEND)
  asio::io_context ioc;
  body(ioc);
#else
  test_support::for_each_reactor_options([&](const boost::asio_notify::reactor_options& o) {
    asio::io_context ioc;
    test_support::install(ioc, o);
    body(ioc);
  });
#endif
}

/// A connected pair of sockets over loopback, with small buffers.
inline test_support::basic_tcp_pair<tcp::socket> connected_sockets(asio::io_context& ioc)
{
  auto pair = test_support::make_basic_tcp_pair<tcp>(ioc);
  for (tcp::socket* s : {&pair.client, &pair.server})
  {
    s->set_option(asio::socket_base::send_buffer_size(socket_buffer));
    s->set_option(asio::socket_base::receive_buffer_size(socket_buffer));
  }
  return pair;
}

/// What an asynchronous operation completed with.
struct result
{
  int calls = 0;
  error_code ec;
  std::size_t bytes = 0;
  std::chrono::steady_clock::time_point at;

  bool done() const { return calls > 0; }
};

/// A completion handler that records into a `result`.
struct recorder
{
  result* r;

  void operator()(error_code ec)
  {
    ++r->calls;
    r->ec = ec;
    r->at = std::chrono::steady_clock::now();
  }

  void operator()(error_code ec, std::size_t bytes)
  {
    r->bytes = bytes;
    (*this)(ec);
  }
};

#define CHECK_OK(ec) BOOST_TEST(!(ec), "unexpected error " << describe(ec))
#define REQUIRE_OK(ec) BOOST_TEST_REQUIRE(!(ec), "unexpected error " << describe(ec))
#define CHECK_EC(actual, expected)                                                                 \
  BOOST_TEST((actual) == error_code(expected),                                                     \
             "got " << describe(actual) << ", expected " << describe(error_code(expected)))

#if BOOST_ASIO_NOTIFY_TEST_HAS_OPENSSL
namespace ssl = asio::ssl;

// A self-signed certificate for localhost and 127.0.0.1 (valid from 2000 to 2999) and its
// private key (example/howto/switching_tls.cpp's): for tests only, the key is public.
inline constexpr char certificate[] = R"(-----BEGIN CERTIFICATE-----
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
inline constexpr char private_key[] = R"(-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg3G6uM9vwARtnC8NA
AHUUY4d60fcMHMoabIvIkr/E8uuhRANCAAS3TzufdGWAoq5p2KHd4Bk5OWq3Y+Qt
5ipJALsN9tO0RNGGFli9STpQSU2ZKBJ3vWqKyvjUFQZ8KDxPqlBFSF5h
-----END PRIVATE KEY-----
)";

inline ssl::context& server_context()
{
  static ssl::context context = [] {
    ssl::context c(ssl::context::tls_server);
    c.use_certificate_chain(asio::buffer(certificate, sizeof certificate - 1));
    c.use_private_key(asio::buffer(private_key, sizeof private_key - 1), ssl::context::pem);
    return c;
  }();
  return context;
}

inline ssl::context& client_context()
{
  static ssl::context context = [] {
    ssl::context c(ssl::context::tls_client);
    c.add_certificate_authority(asio::buffer(certificate, sizeof certificate - 1));
    c.set_verify_mode(ssl::verify_peer);
    return c;
  }();
  return context;
}
#endif

} // namespace websocket_test

// ---- The layers below WebSocket ----------------------------------------------------------------

// In an unnamed namespace, as in the single file the cases were in: Boost.Test names a template
// case after its type ("callbacks_client_closes<(anonymous namespace)__plain_socket>"), and the
// names stay the same. Only the cases' templates use them, which each translation unit
// instantiates for itself.
namespace {

using namespace websocket_test;

/// websocket::stream of our socket.
struct plain_socket
{
  static constexpr bool tls = false;
  static constexpr bool timed = false;
  using ws_type = websocket::stream<tcp::socket>;

  static ws_type make(tcp::socket s, beast::role_type) { return ws_type(std::move(s)); }
  static tcp::socket& socket(ws_type& ws) { return beast::get_lowest_layer(ws); }
  static void cancel(ws_type& ws) { beast::get_lowest_layer(ws).cancel(); }
};

/// websocket::stream of our tcp_stream.
struct timed_stream
{
  static constexpr bool tls = false;
  static constexpr bool timed = true;
  using ws_type = websocket::stream<tcp_stream>;

  static ws_type make(tcp::socket s, beast::role_type) { return ws_type(std::move(s)); }
  static tcp::socket& socket(ws_type& ws) { return beast::get_lowest_layer(ws).socket(); }
  static void cancel(ws_type& ws) { beast::get_lowest_layer(ws).cancel(); }
};

#if BOOST_ASIO_NOTIFY_TEST_HAS_OPENSSL
/// websocket::stream of ssl::stream of our socket; the client checks the server's
/// certificate and name.
struct tls_socket
{
  static constexpr bool tls = true;
  static constexpr bool timed = false;
  using ws_type = websocket::stream<ssl::stream<tcp::socket>>;

  static ws_type make(tcp::socket s, beast::role_type role)
  {
    ws_type ws(std::move(s), role == client_role ? client_context() : server_context());
    if (role == client_role)
      ws.next_layer().set_verify_callback(ssl::host_name_verification("localhost"));
    return ws;
  }
  static tcp::socket& socket(ws_type& ws) { return beast::get_lowest_layer(ws); }
  static void cancel(ws_type& ws) { beast::get_lowest_layer(ws).cancel(); }
};

using all_kinds = std::tuple<plain_socket, tls_socket, timed_stream>;
#else
using all_kinds = std::tuple<plain_socket, timed_stream>;
#endif

/// The kinds whose teardown ends with the lowest layer's cancel() or a cancellation slot. With
/// TLS, Beast's teardown shuts TLS down first, then tears the socket down in a second
/// operation, which a cancellation of the first does not reach: against a peer that never
/// closes it waits on (stock Beast too).
using cancellable_kinds = std::tuple<plain_socket, timed_stream>;

} // namespace

namespace websocket_test {

/// tcp_stream's timeouts, armed before each operation group (others: nothing to arm).
template <class Kind>
void arm(typename Kind::ws_type& ws)
{
  if constexpr (Kind::timed)
    beast::get_lowest_layer(ws).expires_after(generous);
}

template <class Kind>
std::pair<typename Kind::ws_type, typename Kind::ws_type> make_ws_pair(asio::io_context& ioc)
{
  auto sockets = connected_sockets(ioc);
  return {Kind::make(std::move(sockets.client), client_role),
          Kind::make(std::move(sockets.server), server_role)};
}

// ---- Completion handlers -----------------------------------------------------------------------

/// Starts the handshakes below WebSocket's (TLS) and WebSocket's for `role`.
template <class Kind>
void async_open(typename Kind::ws_type& ws, beast::role_type role, result& r)
{
  arm<Kind>(ws);
  auto websocket_handshake = [&ws, role, &r](error_code ec) {
    if (ec)
      return recorder{&r}(ec);
    if (role == client_role)
      ws.async_handshake("localhost", "/", recorder{&r});
    else
      ws.async_accept(recorder{&r});
  };
#if BOOST_ASIO_NOTIFY_TEST_HAS_OPENSSL
  if constexpr (Kind::tls)
  {
    ws.next_layer().async_handshake(role == client_role ? ssl::stream_base::client
                                                        : ssl::stream_base::server,
                                    std::move(websocket_handshake));
    return;
  }
#endif
  websocket_handshake(error_code());
}

template <class Kind>
void async_open_pair(asio::io_context& ioc, typename Kind::ws_type& client,
                     typename Kind::ws_type& server)
{
  result c, s;
  async_open<Kind>(client, client_role, c);
  async_open<Kind>(server, server_role, s);
  BOOST_TEST_REQUIRE(run_until(ioc, [&] { return c.done() && s.done(); }),
                     "handshake incomplete: client " << c.calls << ", server " << s.calls);
  REQUIRE_OK(c.ec);
  REQUIRE_OK(s.ec);
  BOOST_TEST_REQUIRE(client.is_open());
  BOOST_TEST_REQUIRE(server.is_open());
}

/// The client sends `message`, the server reads it and sends it back, the client reads it.
template <class Kind>
void async_echo(asio::io_context& ioc, typename Kind::ws_type& client,
                typename Kind::ws_type& server, const std::string& message, bool binary)
{
  arm<Kind>(client);
  arm<Kind>(server);
  client.binary(binary);
  beast::flat_buffer at_server, at_client;
  result sent, received, echoed, back;
  client.async_write(asio::buffer(message), recorder{&sent});
  server.async_read(at_server, [&](error_code ec, std::size_t n) {
    recorder{&received}(ec, n);
    if (ec)
      return;
    server.text(server.got_text());
    server.async_write(at_server.data(), recorder{&echoed});
  });
  client.async_read(at_client, recorder{&back});
  BOOST_TEST_REQUIRE(
      run_until(ioc, [&] { return sent.done() && back.done() && (received.ec || echoed.done()); }));
  REQUIRE_OK(sent.ec);
  REQUIRE_OK(received.ec);
  REQUIRE_OK(echoed.ec);
  REQUIRE_OK(back.ec);
  BOOST_TEST(sent.bytes == message.size());
  BOOST_TEST(received.bytes == message.size());
  BOOST_TEST(back.bytes == message.size());
  BOOST_TEST(server.got_binary() == binary);
  BOOST_TEST(client.got_binary() == binary);
  BOOST_TEST((beast::buffers_to_string(at_client.data()) == message), "the echo differs");
}

/// The reason `closer` closes with.
inline websocket::close_reason reason_of(beast::role_type closer)
{
  return closer == client_role
             ? websocket::close_reason(websocket::close_code::normal, "client done")
             : websocket::close_reason(websocket::close_code::going_away, "server going away");
}

/// After a completed closing handshake: what each side saw, and both sockets closed.
template <class Kind>
void check_closed(typename Kind::ws_type& closing, typename Kind::ws_type& peer,
                  beast::role_type closer, const error_code& close_ec,
                  const error_code& peer_read_ec)
{
  const auto sent = reason_of(closer);
  CHECK_OK(close_ec);
  CHECK_EC(peer_read_ec, websocket::error::closed);
  BOOST_TEST(peer.reason().code == sent.code);
  BOOST_TEST(std::string(peer.reason().reason.c_str()) == std::string(sent.reason.c_str()));
  // The peer answers with the code it received.
  BOOST_TEST(closing.reason().code == sent.code);
  BOOST_TEST(!closing.is_open());
  BOOST_TEST(!peer.is_open());
  BOOST_TEST(!Kind::socket(closing).is_open(), "the closing side's socket is still open");
  BOOST_TEST(!Kind::socket(peer).is_open(), "the peer's socket is still open");
}

template <class Kind>
void async_close_from(asio::io_context& ioc, typename Kind::ws_type& client,
                      typename Kind::ws_type& server, beast::role_type closer)
{
  auto& closing = closer == client_role ? client : server;
  auto& peer = closer == client_role ? server : client;
  arm<Kind>(client);
  arm<Kind>(server);
  beast::flat_buffer buffer;
  result read, close;
  peer.async_read(buffer, recorder{&read});
  closing.async_close(reason_of(closer), recorder{&close});
  BOOST_TEST_REQUIRE(run_until(ioc, [&] { return read.done() && close.done(); }),
                     "closing handshake incomplete: close " << close.calls << ", read "
                                                            << read.calls);
  BOOST_TEST(read.calls == 1);
  BOOST_TEST(close.calls == 1);
  check_closed<Kind>(closing, peer, closer, close.ec, read.ec);
}

template <class Kind>
void async_session(beast::role_type closer)
{
  for_each_configuration([&](asio::io_context& ioc) {
    auto [client, server] = make_ws_pair<Kind>(ioc);
    async_open_pair<Kind>(ioc, client, server);
    async_echo<Kind>(ioc, client, server, "hello", false);
    async_echo<Kind>(ioc, client, server, large_message(), true);
    async_echo<Kind>(ioc, client, server, "and again", false);
    async_close_from<Kind>(ioc, client, server, closer);
  });
}

// ---- Synchronous operations --------------------------------------------------------------------

template <class Kind>
void sync_open(typename Kind::ws_type& ws, beast::role_type role)
{
#if BOOST_ASIO_NOTIFY_TEST_HAS_OPENSSL
  if constexpr (Kind::tls)
    ws.next_layer().handshake(role == client_role ? ssl::stream_base::client
                                                  : ssl::stream_base::server);
#endif
  if (role == client_role)
    ws.handshake("localhost", "/");
  else
    ws.accept();
}

/// Shuts both sockets down if the synchronous exchange has not finished by `generous`, so
/// that a case that would hang fails instead.
class watchdog
{
public:
  watchdog(tcp::socket& a, tcp::socket& b)
      : handles_{a.native_handle(), b.native_handle()}, thread_([this] { watch(); })
  {
  }

  ~watchdog()
  {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      finished_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

  bool fired() const { return fired_; }

  watchdog(const watchdog&) = delete;
  watchdog& operator=(const watchdog&) = delete;

private:
  void watch()
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (cv_.wait_for(lock, generous, [this] { return finished_; }))
      return;
    fired_ = true;
    for (auto h : handles_)
    {
#if defined(_WIN32)
      ::shutdown(h, SD_BOTH);
#else
      ::shutdown(h, SHUT_RDWR);
#endif
    }
  }

  tcp::socket::native_handle_type handles_[2];
  std::mutex mutex_;
  std::condition_variable cv_;
  bool finished_ = false;
  std::atomic<bool> fired_{false};
  std::thread thread_;
};

/// One side of the synchronous session: what it saw.
struct sync_side
{
  std::string failure; // the exception that ended it, if one did
  std::string text_echo;
  std::string binary_echo;
  bool got_binary = false;
  error_code read_ec; // the peer's last read
  websocket::close_reason reason;
};

/** One side of the synchronous session on `ws`: the opening handshake, `talk`, then the
    close when this side is `closer`, else a read until the peer's close arrives. An
    exception is recorded in `side` and closes the socket, so that the peer, blocked in a
    read, does not wait for the watchdog. */
template <class Kind, class Talk>
void sync_side_run(typename Kind::ws_type& ws, beast::role_type role, beast::role_type closer,
                   sync_side& side, Talk talk)
{
  try
  {
    sync_open<Kind>(ws, role);
    talk();
    if (closer == role)
      ws.close(reason_of(closer));
    else
    {
      beast::flat_buffer b;
      ws.read(b, side.read_ec);
    }
    side.reason = ws.reason();
  }
  catch (const std::exception& e)
  {
    side.failure = e.what();
    error_code ignored;
    Kind::socket(ws).close(ignored);
  }
}

template <class Kind>
void sync_session(beast::role_type closer)
{
  for_each_configuration([&](asio::io_context& ioc) {
    auto [client, server] = make_ws_pair<Kind>(ioc);
    sync_side at_server, at_client;
    {
      watchdog dog(Kind::socket(client), Kind::socket(server));
      std::thread server_thread([&server = server, &at_server, closer] {
        sync_side_run<Kind>(server, server_role, closer, at_server, [&server] {
          for (int i = 0; i < 2; ++i)
          {
            beast::flat_buffer b;
            server.read(b);
            server.text(server.got_text());
            server.write(b.data());
          }
        });
      });
      sync_side_run<Kind>(client, client_role, closer, at_client, [&client = client, &at_client] {
        beast::flat_buffer b;
        client.text(true);
        client.write(asio::buffer(std::string("hello")));
        client.read(b);
        at_client.text_echo = beast::buffers_to_string(b.data());
        b.clear();
        client.binary(true);
        client.write(asio::buffer(large_message()));
        client.read(b);
        at_client.binary_echo = beast::buffers_to_string(b.data());
        at_client.got_binary = client.got_binary();
      });
      server_thread.join();
      BOOST_TEST(!dog.fired(), "the synchronous session hung: the watchdog shut it down");
    }
    BOOST_TEST(at_client.failure.empty(), "client: " << at_client.failure);
    BOOST_TEST(at_server.failure.empty(), "server: " << at_server.failure);
    BOOST_TEST(at_client.text_echo == "hello");
    BOOST_TEST((at_client.binary_echo == large_message()), "the binary echo differs");
    BOOST_TEST(at_client.got_binary);
    const auto sent = reason_of(closer);
    const sync_side& peer = closer == client_role ? at_server : at_client;
    const sync_side& closing = closer == client_role ? at_client : at_server;
    CHECK_EC(peer.read_ec, websocket::error::closed);
    BOOST_TEST(peer.reason.code == sent.code);
    BOOST_TEST(std::string(peer.reason.reason.c_str()) == std::string(sent.reason.c_str()));
    BOOST_TEST(closing.reason.code == sent.code);
    BOOST_TEST(!client.is_open());
    BOOST_TEST(!server.is_open());
    BOOST_TEST(!Kind::socket(client).is_open(), "the client's socket is still open");
    BOOST_TEST(!Kind::socket(server).is_open(), "the server's socket is still open");
  });
}

// ---- C++20 coroutines --------------------------------------------------------------------------

#if defined(BOOST_ASIO_HAS_CO_AWAIT)
template <class Kind>
asio::awaitable<void> co_open(typename Kind::ws_type& ws, beast::role_type role)
{
  arm<Kind>(ws);
#if BOOST_ASIO_NOTIFY_TEST_HAS_OPENSSL
  if constexpr (Kind::tls)
    co_await ws.next_layer().async_handshake(role == client_role ? ssl::stream_base::client
                                                                 : ssl::stream_base::server,
                                             asio::use_awaitable);
#endif
  if (role == client_role)
    co_await ws.async_handshake("localhost", "/", asio::use_awaitable);
  else
    co_await ws.async_accept(asio::use_awaitable);
}

/// The last read of the side that does not close, or the close of the side that does.
template <class Kind>
asio::awaitable<void> co_finish(typename Kind::ws_type& ws, beast::role_type role,
                                beast::role_type closer, error_code& read_ec)
{
  arm<Kind>(ws);
  if (role == closer)
  {
    co_await ws.async_close(reason_of(closer), asio::use_awaitable);
    co_return;
  }
  beast::flat_buffer b;
  try
  {
    co_await ws.async_read(b, asio::use_awaitable);
  }
  catch (const system_error& e)
  {
    read_ec = e.code();
  }
}

template <class Kind>
asio::awaitable<void> co_server(typename Kind::ws_type& ws, beast::role_type closer,
                                error_code& read_ec)
{
  co_await co_open<Kind>(ws, server_role);
  for (int i = 0; i < 2; ++i)
  {
    beast::flat_buffer b;
    arm<Kind>(ws);
    co_await ws.async_read(b, asio::use_awaitable);
    ws.text(ws.got_text());
    co_await ws.async_write(b.data(), asio::use_awaitable);
  }
  co_await co_finish<Kind>(ws, server_role, closer, read_ec);
}

template <class Kind>
asio::awaitable<void> co_client(typename Kind::ws_type& ws, beast::role_type closer,
                                sync_side& seen)
{
  co_await co_open<Kind>(ws, client_role);
  beast::flat_buffer b;
  arm<Kind>(ws);
  ws.text(true);
  co_await ws.async_write(asio::buffer(std::string("hello")), asio::use_awaitable);
  co_await ws.async_read(b, asio::use_awaitable);
  seen.text_echo = beast::buffers_to_string(b.data());
  b.clear();
  ws.binary(true);
  co_await ws.async_write(asio::buffer(large_message()), asio::use_awaitable);
  co_await ws.async_read(b, asio::use_awaitable);
  seen.binary_echo = beast::buffers_to_string(b.data());
  seen.got_binary = ws.got_binary();
  co_await co_finish<Kind>(ws, client_role, closer, seen.read_ec);
}

inline std::string what(const std::exception_ptr& e)
{
  if (!e)
    return {};
  try
  {
    std::rethrow_exception(e);
  }
  catch (const std::exception& x)
  {
    return x.what();
  }
  catch (...)
  {
    return "an exception not derived from std::exception";
  }
}

template <class Kind>
void coroutine_session(beast::role_type closer)
{
  for_each_configuration([&](asio::io_context& ioc) {
    auto [client, server] = make_ws_pair<Kind>(ioc);
    sync_side at_client, at_server;
    std::optional<std::string> client_end, server_end;
    asio::co_spawn(ioc, co_server<Kind>(server, closer, at_server.read_ec),
                   [&](std::exception_ptr e) { server_end = what(e); });
    asio::co_spawn(ioc, co_client<Kind>(client, closer, at_client),
                   [&](std::exception_ptr e) { client_end = what(e); });
    BOOST_TEST_REQUIRE(run_until(ioc, [&] { return client_end && server_end; }),
                       "the coroutines did not finish");
    BOOST_TEST(client_end->empty(), "client: " << *client_end);
    BOOST_TEST(server_end->empty(), "server: " << *server_end);
    BOOST_TEST(at_client.text_echo == "hello");
    BOOST_TEST((at_client.binary_echo == large_message()), "the binary echo differs");
    BOOST_TEST(at_client.got_binary);
    auto& closing = closer == client_role ? client : server;
    auto& peer = closer == client_role ? server : client;
    const error_code& peer_read = closer == client_role ? at_server.read_ec : at_client.read_ec;
    check_closed<Kind>(closing, peer, closer, error_code(), peer_read);
  });
}
#endif

// ---- A peer that never closes its side ---------------------------------------------------------

/// How the case ends a teardown that waits for the peer's end of stream.
enum class cut
{
  websocket_timeout, // websocket::stream_base::timeout's handshake_timeout (closing too)
  lowest_cancel,     // the lowest layer's cancel()
  cancellation_slot  // the close's cancellation slot, emitted (terminal)
};

inline const char* name(cut c)
{
  switch (c)
  {
  case cut::websocket_timeout:
    return "websocket timeout";
  case cut::lowest_cancel:
    return "cancel()";
  case cut::cancellation_slot:
    return "cancellation slot";
  }
  return "?";
}

/// `closer` closes; its peer answers with a close frame written below WebSocket (so its
/// WebSocket never tears down) and then neither reads, writes nor closes. The close has
/// sent its frame and read the answer, and waits in the teardown for an end of stream that
/// never comes, until `how` ends it, `cut_after` later.
template <class Kind>
void close_against_a_peer_that_never_closes(beast::role_type closer, cut how)
{
  BOOST_TEST_CONTEXT(name(closer) << " closes, ended by " << name(how))
  for_each_configuration([&](asio::io_context& ioc) {
    auto [client, server] = make_ws_pair<Kind>(ioc);
    async_open_pair<Kind>(ioc, client, server);
    auto& closing = closer == client_role ? client : server;
    auto& peer = closer == client_role ? server : client;
    if constexpr (Kind::timed)
    {
      beast::get_lowest_layer(client).expires_never();
      beast::get_lowest_layer(server).expires_never();
    }

    // The peer's close frame, code 1000, as its role sends it: a client's frames are
    // masked (here with a zero key, which leaves the payload as it is).
    static const char server_close[] = {'\x88', '\x02', '\x03', '\xe8'};
    static const char client_close[] = {'\x88', '\x82', 0, 0, 0, 0, '\x03', '\xe8'};
    const auto answer =
        closer == client_role ? asio::buffer(server_close) : asio::buffer(client_close);
    char in[64];
    result peer_read, peer_write;
    peer.next_layer().async_read_some(asio::buffer(in), [&](error_code ec, std::size_t n) {
      recorder{&peer_read}(ec, n);
      if (!ec)
        asio::async_write(peer.next_layer(), answer, recorder{&peer_write});
    });

    const auto start = std::chrono::steady_clock::now();
    if (how == cut::websocket_timeout)
    {
      websocket::stream_base::timeout opt{};
      opt.handshake_timeout = cut_after; // also the closing handshake's
      opt.idle_timeout = websocket::stream_base::none();
      opt.keep_alive_pings = false;
      closing.set_option(opt);
    }
    asio::cancellation_signal signal;
    asio::steady_timer timer(ioc, cut_after);
    if (how != cut::websocket_timeout)
      timer.async_wait([&](error_code ec) {
        if (ec)
          return;
        if (how == cut::lowest_cancel)
          Kind::cancel(closing);
        else
          signal.emit(asio::cancellation_type::terminal);
      });

    result close;
    closing.async_close(websocket::close_code::normal,
                        asio::bind_cancellation_slot(signal.slot(), recorder{&close}));
    BOOST_TEST_REQUIRE(run_until(ioc, [&] { return close.done(); }),
                       "the close hangs: teardown never completed");
    BOOST_TEST_MESSAGE(
        name(closer)
        << " close, ended by " << name(how) << ": " << describe(close.ec) << " after "
        << std::chrono::duration_cast<std::chrono::milliseconds>(close.at - start).count()
        << " ms");
    BOOST_TEST(close.calls == 1);
    CHECK_OK(peer_read.ec);
    CHECK_OK(peer_write.ec);
    // The answer was read: the close was in its teardown when it was ended.
    BOOST_TEST(closing.reason().code == websocket::close_code::normal);
    BOOST_TEST(!!close.ec, "the close succeeded although the peer never closed");
    BOOST_TEST((close.at - start >= cut_after), "the close ended before its teardown was cut");
    BOOST_TEST(!closing.is_open());
    if (how == cut::websocket_timeout)
      BOOST_TEST(!Kind::socket(closing).is_open(), "the timeout left the socket open");
    timer.cancel();
    run_until(
        ioc, [] { return false; }, 10ms);
  });
}

// ---- teardown, async_teardown and beast_close_socket, called as Beast calls them ---------------

/// How long the peer of a teardown keeps its side open before it ends its stream.
inline constexpr std::chrono::milliseconds peer_delay = 50ms;

/// What the teardown reads and throws away on its way to the end of the stream.
inline const std::string& unread_data()
{
  static const std::string data(50000, 'd');
  return data;
}

/// The peer of a teardown, as the peer's own WebSocket teardown would be: for a client's
/// teardown (which reads to the end of stream first) it shuts its sending side down
/// `peer_delay` after it starts, then reads to the end and closes; for a server's (which shuts
/// its sending side down first) it reads to the end, and closes `peer_delay` later. `end` is its
/// read's end (eof for a graceful close: a reset says the teardown closed with data unread),
/// `end_of_stream` when it ended its side.
class async_peer
{
public:
  async_peer(tcp::socket& peer, beast::role_type torn_down)
      : peer_(peer), timer_(peer.get_executor()), torn_down_(torn_down)
  {
    if (torn_down_ == client_role)
    {
      timer_.expires_after(peer_delay);
      timer_.async_wait([this](error_code) {
        end_of_stream = std::chrono::steady_clock::now();
        peer_.shutdown(asio::socket_base::shutdown_send, shutdown_ec);
        drain();
      });
    }
    else
      drain();
  }

  result end;
  std::chrono::steady_clock::time_point end_of_stream;
  error_code shutdown_ec; // its shutdown's, for a client's teardown
  bool closed = false;

private:
  void drain()
  {
    peer_.async_read_some(asio::buffer(buffer_), [this](error_code ec, std::size_t) {
      if (!ec)
        return drain();
      recorder{&end}(ec);
      if (torn_down_ == client_role)
        return close();
      timer_.expires_after(peer_delay);
      timer_.async_wait([this](error_code) {
        end_of_stream = std::chrono::steady_clock::now();
        close();
      });
    });
  }

  void close()
  {
    error_code ignored;
    peer_.close(ignored);
    closed = true;
  }

  tcp::socket& peer_;
  asio::steady_timer timer_;
  beast::role_type torn_down_;
  char buffer_[256];
};

} // namespace websocket_test

namespace {

/// The lowest layers Beast's WebSocket calls the customisation points with.
struct socket_layer
{
  using type = tcp::socket;
  static type make(tcp::socket s) { return s; }
  static tcp::socket& socket(type& t) { return t; }
};

struct stream_layer
{
  using type = tcp_stream;
  static type make(tcp::socket s) { return type(std::move(s)); }
  static tcp::socket& socket(type& t) { return t.socket(); }
};

using layers = std::tuple<socket_layer, stream_layer>;

/// Runs `body(role, ioc, layer, peer)` for each role on each configuration: `layer`, a Layer
/// made of one end of a fresh connection, has unread_data() waiting from `peer`, the other
/// end.
template <class Layer, class Body>
void with_unread_data(Body body)
{
  for (auto role : {client_role, server_role})
    BOOST_TEST_CONTEXT(name(role))
  for_each_configuration([&](asio::io_context& ioc) {
    auto [mine, peer] = connected_sockets(ioc);
    auto layer = Layer::make(std::move(mine));
    asio::write(peer, asio::buffer(unread_data()));
    body(role, ioc, layer, peer);
  });
}

} // namespace

#endif // BOOST_ASIO_NOTIFY_TEST_BEAST_WEBSOCKET_SUPPORT_HPP
