//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Raw loopback sockets for the port's conformance tests, with POSIX and Winsock branches so
// the same tests run against the epoll backend and (under Wine) the Windows backend.
// Include this header first: <winsock2.h> must come before anything that pulls <windows.h>.
#ifndef BOOST_ASIO_NOTIFY_TEST_PORT_SOCKETS_HPP
#define BOOST_ASIO_NOTIFY_TEST_PORT_SOCKETS_HPP

#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <winsock2.h>
#include <ws2tcpip.h>
#else
#include <arpa/inet.h>
#include <cerrno>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#endif

#include <boost/asio_notify/registration.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace port_test {

#if defined(_WIN32)
using socket_t = SOCKET;
constexpr socket_t invalid_socket = INVALID_SOCKET;
inline int last_socket_error() { return ::WSAGetLastError(); }
inline bool is_would_block(int e) { return e == WSAEWOULDBLOCK; }
inline bool is_in_progress(int e) { return e == WSAEWOULDBLOCK || e == WSAEINPROGRESS; }
inline int close_raw(socket_t s) { return ::closesocket(s); }
constexpr int shut_send = SD_SEND;
constexpr int shut_both = SD_BOTH;
constexpr int send_flags = 0;
#else
using socket_t = int;
constexpr socket_t invalid_socket = -1;
inline int last_socket_error() { return errno; }
inline bool is_would_block(int e) { return e == EAGAIN || e == EWOULDBLOCK; }
inline bool is_in_progress(int e) { return e == EINPROGRESS; }
inline int close_raw(socket_t s) { return ::close(s); }
constexpr int shut_send = SHUT_WR;
constexpr int shut_both = SHUT_RDWR;
constexpr int send_flags = MSG_NOSIGNAL; // a send to a reset peer must not raise SIGPIPE
#endif

[[noreturn]] inline void fail(const char* what)
{
  throw std::runtime_error(std::string("test socket helper: ") + what + " failed, error " +
                           std::to_string(last_socket_error()));
}

/// Owns one socket; closes it on destruction.
class unique_socket
{
public:
  unique_socket() = default;
  explicit unique_socket(socket_t s) noexcept : s_(s) {}
  unique_socket(unique_socket&& o) noexcept : s_(o.release()) {}
  unique_socket& operator=(unique_socket&& o) noexcept
  {
    reset(o.release());
    return *this;
  }
  unique_socket(const unique_socket&) = delete;
  unique_socket& operator=(const unique_socket&) = delete;
  ~unique_socket() { reset(); }

  socket_t get() const noexcept { return s_; }
  /// The handle as the port's registration wants it.
  boost::asio_notify::native_socket_type native() const noexcept
  {
    return static_cast<boost::asio_notify::native_socket_type>(s_);
  }
  explicit operator bool() const noexcept { return s_ != invalid_socket; }
  socket_t release() noexcept { return std::exchange(s_, invalid_socket); }
  void reset(socket_t s = invalid_socket) noexcept
  {
    if (s_ != invalid_socket)
      close_raw(s_);
    s_ = s;
  }

private:
  socket_t s_ = invalid_socket;
};

inline void set_nonblocking(socket_t s)
{
#if defined(_WIN32)
  u_long on = 1;
  if (::ioctlsocket(s, FIONBIO, &on) != 0)
    fail("ioctlsocket(FIONBIO)");
#else
  const int flags = ::fcntl(s, F_GETFL, 0);
  if (flags < 0 || ::fcntl(s, F_SETFL, flags | O_NONBLOCK) != 0)
    fail("fcntl(O_NONBLOCK)");
#endif
}

inline void set_nodelay(socket_t s)
{
  int on = 1;
  if (::setsockopt(s, IPPROTO_TCP, TCP_NODELAY, reinterpret_cast<const char*>(&on), sizeof(on)) !=
      0)
    fail("setsockopt(TCP_NODELAY)");
}

inline unique_socket make_socket(int type)
{
  unique_socket s(::socket(AF_INET, type, type == SOCK_STREAM ? IPPROTO_TCP : IPPROTO_UDP));
  if (!s)
    fail("socket");
  return s;
}

inline sockaddr_in loopback(std::uint16_t port_be = 0)
{
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = port_be;
  return a;
}

inline void bind_loopback(socket_t s)
{
  const sockaddr_in a = loopback();
  if (::bind(s, reinterpret_cast<const sockaddr*>(&a), sizeof(a)) != 0)
    fail("bind");
}

/// A socket of `type` bound to 127.0.0.1 and an ephemeral port.
inline unique_socket make_bound_socket(int type)
{
  unique_socket s = make_socket(type);
  bind_loopback(s.get());
  return s;
}

/// ::connect to `to`; true on success (false: see last_socket_error()).
inline bool connect_to(socket_t s, const sockaddr_in& to)
{
  return ::connect(s, reinterpret_cast<const sockaddr*>(&to), sizeof(to)) == 0;
}

inline sockaddr_in local_address(socket_t s)
{
  sockaddr_in a{};
  socklen_t len = sizeof(a);
  if (::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) != 0)
    fail("getsockname");
  return a;
}

/// A non-blocking TCP listener on 127.0.0.1 and an ephemeral port.
inline unique_socket make_listener()
{
  unique_socket l = make_bound_socket(SOCK_STREAM);
  if (::listen(l.get(), 16) != 0)
    fail("listen");
  set_nonblocking(l.get());
  return l;
}

/// Connects `client` (a fresh TCP socket) to `listener`, blocking; returns nothing on
/// error. `client` is left blocking: make it non-blocking afterwards.
inline void connect_blocking(socket_t client, socket_t listener)
{
  if (connect_to(client, local_address(listener)))
    return;
#if !defined(_WIN32)
  // Interrupted by a signal (libFuzzer's timers, say), the connect goes on by itself: wait
  // for it to finish and take its result.
  if (errno == EINTR)
  {
    pollfd pfd{};
    pfd.fd = client;
    pfd.events = POLLOUT;
    int ready;
    do
      ready = ::poll(&pfd, 1, 5000);
    while (ready < 0 && errno == EINTR);
    int error = 0;
    socklen_t len = sizeof(error);
    if (ready == 1 && ::getsockopt(client, SOL_SOCKET, SO_ERROR, &error, &len) == 0 && error == 0)
      return;
    if (error != 0)
      errno = error;
  }
#endif
  fail("connect");
}

/// Accepts one pending connection (waiting up to 5 s for it).
unique_socket accept_one(socket_t listener);

/// Both ends of a connection: non-blocking, TCP_NODELAY (small writes leave at once).
struct tcp_pair
{
  unique_socket client;
  unique_socket server;
};

/// Connects `client` (a fresh, unconnected TCP socket) to a temporary loopback listener.
inline tcp_pair connect_pair(unique_socket client)
{
  unique_socket l = make_listener();
  connect_blocking(client.get(), l.get());
  tcp_pair p{std::move(client), accept_one(l.get())};
  for (socket_t s : {p.client.get(), p.server.get()})
  {
    set_nonblocking(s);
    set_nodelay(s);
  }
  return p;
}

/// A connected TCP pair over loopback.
inline tcp_pair make_tcp_pair() { return connect_pair(make_socket(SOCK_STREAM)); }

/// Two UDP sockets on loopback, each bound and connected to the other, non-blocking.
struct udp_pair
{
  unique_socket a;
  unique_socket b;
};

inline udp_pair make_udp_pair()
{
  udp_pair p{make_bound_socket(SOCK_DGRAM), make_bound_socket(SOCK_DGRAM)};
  if (!connect_to(p.a.get(), local_address(p.b.get())) ||
      !connect_to(p.b.get(), local_address(p.a.get())))
    fail("connect(udp)");
  set_nonblocking(p.a.get());
  set_nonblocking(p.b.get());
  return p;
}

/// A fresh TCP socket whose handle value is `wanted` (a handle just closed by the test),
/// or an empty socket when the OS cannot be made to reuse it. POSIX: `dup2` makes it so.
/// Windows: handle values are recycled, so a few attempts usually find it.
unique_socket make_socket_at(socket_t wanted);

/// Sends `n` bytes; returns how many were sent (0 when the peer is gone).
inline std::size_t send_bytes(socket_t s, std::size_t n = 1)
{
  std::vector<char> buf(n, 'x');
  const auto r = ::send(s, buf.data(), static_cast<int>(n), send_flags);
  return r < 0 ? 0 : static_cast<std::size_t>(r);
}

/// Reads until the socket would block (or reports end of stream / an error); returns the
/// number of bytes read.
inline std::size_t drain(socket_t s)
{
  std::size_t total = 0;
  char buf[4096];
  for (;;)
  {
    const auto r = ::recv(s, buf, static_cast<int>(sizeof(buf)), 0);
    if (r <= 0)
      return total;
    total += static_cast<std::size_t>(r);
  }
}

/// Waits until `s` is readable (data, end of stream, error or a connection to accept).
inline bool wait_readable(socket_t s, std::chrono::milliseconds timeout = std::chrono::seconds(5))
{
#if defined(_WIN32)
  WSAPOLLFD pfd{};
  pfd.fd = s;
  pfd.events = POLLRDNORM;
  return ::WSAPoll(&pfd, 1, static_cast<int>(timeout.count())) == 1;
#else
  pollfd pfd{};
  pfd.fd = s;
  pfd.events = POLLIN;
  int ready;
  do // a signal (libFuzzer's timers, say) does not end the wait
    ready = ::poll(&pfd, 1, static_cast<int>(timeout.count()));
  while (ready < 0 && errno == EINTR);
  return ready == 1;
#endif
}

inline int shutdown_socket(socket_t s, int how) { return ::shutdown(s, how); }

/// Closes with SO_LINGER {on, 0}: the peer receives a RST instead of a FIN.
inline void abort_close(unique_socket& s)
{
  linger l{};
  l.l_onoff = 1;
  l.l_linger = 0;
  if (::setsockopt(s.get(), SOL_SOCKET, SO_LINGER, reinterpret_cast<const char*>(&l), sizeof(l)) !=
      0)
    fail("setsockopt(SO_LINGER)");
  s.reset();
}

/// A non-blocking connect to a loopback port where nothing listens: the connection is
/// refused and the socket ends up in an error state. `blocker` keeps the port bound (but
/// not listening) so no other process can start listening on it meanwhile.
struct refused_connect
{
  unique_socket blocker;
  unique_socket socket;
};

inline refused_connect start_refused_connect()
{
  refused_connect r{make_bound_socket(SOCK_STREAM), make_socket(SOCK_STREAM)};
  set_nonblocking(r.socket.get());
  if (!connect_to(r.socket.get(), local_address(r.blocker.get())) &&
      !is_in_progress(last_socket_error()))
    fail("connect (refused connect started too eagerly)");
  return r;
}

inline unique_socket accept_one(socket_t listener)
{
  if (!wait_readable(listener))
    fail("waiting for a connection to accept");
  unique_socket s(::accept(listener, nullptr, nullptr));
  if (!s)
    fail("accept");
  return s;
}

inline unique_socket make_socket_at(socket_t wanted)
{
#if defined(_WIN32)
  std::vector<unique_socket> misses;
  for (int i = 0; i < 64; ++i)
  {
    unique_socket s = make_socket(SOCK_STREAM);
    if (s.get() == wanted)
      return s;
    misses.push_back(std::move(s));
  }
  return {};
#else
  unique_socket s = make_socket(SOCK_STREAM);
  if (s.get() == wanted)
    return s;
  if (::dup2(s.get(), wanted) != wanted)
    fail("dup2");
  return unique_socket(wanted);
#endif
}

} // namespace port_test

#endif
