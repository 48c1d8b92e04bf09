//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What the port examples share, so that each example shows only its scenario:
//
// - a handful of plain socket calls (open, bind to loopback, listen, connect, accept, send,
//   receive), each in a small function so that the OS-specific lines stay in this file;
// - `remove_and_wait`: the safe end of a registration (remove, wait for its REMOVE packet);
// - `checker`: counts the checks an example makes and prints its one-line summary, so the
//   example can run as a test (exit status 0 only when every check held).
//
// Nothing here is part of the library: the port itself is used through its public header only.
#ifndef BOOST_ASIO_NOTIFY_EXAMPLE_PORT_EXAMPLE_SUPPORT_HPP
#define BOOST_ASIO_NOTIFY_EXAMPLE_PORT_EXAMPLE_SUPPORT_HPP

#include <boost/asio_notify/port.hpp>

#include <boost/asio/error.hpp>
#include <boost/system/error_code.hpp>

#if defined(_WIN32)
#include <winsock2.h>
#include <ws2tcpip.h>
#else
#include <arpa/inet.h>
#include <cerrno>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#endif

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string>
#include <utility>

namespace example {

namespace an = boost::asio_notify;
using boost::system::error_code;

/// The OS socket handle, as the port's registrations name it.
using socket_type = an::native_socket_type;

// ---- the few lines that differ between Winsock and POSIX ---------------------------------

#if defined(_WIN32)
constexpr socket_type invalid_socket = static_cast<socket_type>(INVALID_SOCKET);
inline error_code last_socket_error()
{
  return error_code(::WSAGetLastError(), boost::system::system_category());
}
inline void close_socket(socket_type s) noexcept { ::closesocket(static_cast<SOCKET>(s)); }
using io_size = int; // Winsock's send/recv lengths and results
constexpr int send_flags = 0;
constexpr int shutdown_send_how = SD_SEND;
#else
constexpr socket_type invalid_socket = -1;
inline error_code last_socket_error()
{
  return error_code(errno, boost::system::system_category());
}
inline void close_socket(socket_type s) noexcept { ::close(s); }
using io_size = std::size_t;
#if defined(MSG_NOSIGNAL)
constexpr int send_flags = MSG_NOSIGNAL; // a send to a closed peer fails; it must not kill us
#else
constexpr int send_flags = 0;
#endif
constexpr int shutdown_send_how = SHUT_WR;
#endif

/// Starts the socket library for the lifetime of the object (Winsock needs that; POSIX does not).
class socket_library
{
public:
  socket_library()
  {
#if defined(_WIN32)
    WSADATA data;
    ::WSAStartup(MAKEWORD(2, 2), &data);
#endif
  }
  ~socket_library()
  {
#if defined(_WIN32)
    ::WSACleanup();
#endif
  }
  socket_library(const socket_library&) = delete;
  socket_library& operator=(const socket_library&) = delete;
};

/// True for the error a non-blocking socket reports when it has nothing to give right now.
inline bool would_block(const error_code& ec)
{
  return ec == boost::asio::error::would_block || ec == boost::asio::error::try_again;
}

// ---- an owned socket -----------------------------------------------------------------------

/// Owns one socket and closes it on destruction. Closing a registered socket drops its
/// registration without a REMOVE packet, so the examples close a socket only after its
/// registration has been removed (see `remove_and_wait`).
class socket_handle
{
public:
  socket_handle() = default;
  explicit socket_handle(socket_type s) noexcept : socket_(s) {}
  socket_handle(socket_handle&& other) noexcept
      : socket_(std::exchange(other.socket_, invalid_socket))
  {
  }
  socket_handle& operator=(socket_handle&& other) noexcept
  {
    if (this != &other)
    {
      close();
      socket_ = std::exchange(other.socket_, invalid_socket);
    }
    return *this;
  }
  socket_handle(const socket_handle&) = delete;
  socket_handle& operator=(const socket_handle&) = delete;
  ~socket_handle() { close(); }

  socket_type get() const noexcept { return socket_; }
  explicit operator bool() const noexcept { return socket_ != invalid_socket; }

  void close() noexcept
  {
    if (socket_ != invalid_socket)
      close_socket(std::exchange(socket_, invalid_socket));
  }

private:
  socket_type socket_ = invalid_socket;
};

// ---- socket calls ----------------------------------------------------------------------------

/// An IPv4 socket of `type` (SOCK_STREAM or SOCK_DGRAM).
inline socket_handle open_socket(int type, error_code& ec)
{
  socket_handle s(static_cast<socket_type>(::socket(AF_INET, type, 0)));
  ec = s ? error_code() : last_socket_error();
  return s;
}

/// Make `s` report would-block instead of waiting. Readiness tells us an operation *can*
/// proceed; a non-blocking socket makes sure a mistaken read or accept cannot hang the loop.
inline error_code set_non_blocking(socket_type s)
{
#if defined(_WIN32)
  u_long on = 1;
  if (::ioctlsocket(static_cast<SOCKET>(s), FIONBIO, &on) != 0)
    return last_socket_error();
#else
  const int flags = ::fcntl(s, F_GETFL, 0);
  if (flags < 0 || ::fcntl(s, F_SETFL, flags | O_NONBLOCK) != 0)
    return last_socket_error();
#endif
  return {};
}

/// 127.0.0.1:`port` (port 0: let the system choose).
inline sockaddr_in loopback_address(std::uint16_t port)
{
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(port);
  return a;
}

/// Bind `s` to a port on the loopback interface that the system chooses, and return that
/// port. Letting the system choose means examples never collide with each other or with
/// anything else on the machine.
inline std::uint16_t bind_loopback(socket_type s, error_code& ec)
{
  sockaddr_in a = loopback_address(0);
  if (::bind(s, reinterpret_cast<const sockaddr*>(&a), sizeof(a)) != 0)
  {
    ec = last_socket_error();
    return 0;
  }
  socklen_t len = sizeof(a);
  if (::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) != 0)
  {
    ec = last_socket_error();
    return 0;
  }
  ec = {};
  return ntohs(a.sin_port);
}

inline error_code listen_on(socket_type s, int backlog)
{
  return ::listen(s, backlog) == 0 ? error_code() : last_socket_error();
}

/// Connect `s` to 127.0.0.1:`port` (for a UDP socket: fix the peer that `send` sends to).
inline error_code connect_loopback(socket_type s, std::uint16_t port)
{
  const sockaddr_in a = loopback_address(port);
  return ::connect(s, reinterpret_cast<const sockaddr*>(&a), sizeof(a)) == 0 ? error_code()
                                                                             : last_socket_error();
}

inline socket_handle accept_connection(socket_type listener, error_code& ec)
{
  socket_handle s(static_cast<socket_type>(::accept(listener, nullptr, nullptr)));
  ec = s ? error_code() : last_socket_error();
  return s;
}

/// One `recv`. Returns the byte count; 0 with no error means the peer finished sending
/// (for a stream socket). A non-blocking socket with nothing to read reports `would_block`.
inline std::size_t receive(socket_type s, void* data, std::size_t size, error_code& ec)
{
#if defined(_WIN32)
  const int n = ::recv(static_cast<SOCKET>(s), static_cast<char*>(data), static_cast<int>(size), 0);
#else
  const ssize_t n = ::recv(s, data, size, 0);
#endif
  if (n < 0)
  {
    ec = last_socket_error();
    return 0;
  }
  ec = {};
  return static_cast<std::size_t>(n);
}

/// One `send`; a datagram goes out whole or not at all.
inline std::size_t send_some(socket_type s, const void* data, std::size_t size, error_code& ec)
{
#if defined(_WIN32)
  const int n = ::send(static_cast<SOCKET>(s), static_cast<const char*>(data),
                       static_cast<io_size>(size), send_flags);
#else
  const ssize_t n = ::send(s, data, static_cast<io_size>(size), send_flags);
#endif
  if (n < 0)
  {
    ec = last_socket_error();
    return 0;
  }
  ec = {};
  return static_cast<std::size_t>(n);
}

/// Send all of `data` on a blocking stream socket.
inline error_code send_all(socket_type s, const std::string& data)
{
  std::size_t sent = 0;
  while (sent < data.size())
  {
    error_code ec;
    sent += send_some(s, data.data() + sent, data.size() - sent, ec);
    if (ec)
      return ec;
  }
  return {};
}

/// Tell the peer we will send nothing more (it sees the end of the stream, and a hang-up).
inline error_code shutdown_send(socket_type s)
{
  return ::shutdown(s, shutdown_send_how) == 0 ? error_code() : last_socket_error();
}

/// The error a socket is holding (what an `events::error` packet is about).
inline error_code pending_error(socket_type s)
{
  int value = 0;
  socklen_t len = sizeof(value);
  if (::getsockopt(s, SOL_SOCKET, SO_ERROR, reinterpret_cast<char*>(&value), &len) != 0)
    return last_socket_error();
  return error_code(value, boost::system::system_category());
}

// ---- the end of a registration -----------------------------------------------------------

/** Remove the registration of `socket` (made with `key`) and wait for its REMOVE packet.

    The REMOVE packet is the last packet the port will ever hand back for that registration,
    so once it has arrived the socket may be closed and whatever `key` points to may be
    freed. (Closing the socket first would drop the registration *without* a REMOVE packet
    while earlier packets carrying `key` could still be queued.)

    Packets that arrive meanwhile (queued before the removal, or for other keys) are counted
    in `dropped` and otherwise ignored, so use this only where nothing else on the port still
    needs handling: in a program with one registration, or after the threads that serve the
    port have stopped. Returns the removal's own error, or `timed_out` when no REMOVE packet
    arrived within `timeout`. */
inline error_code remove_and_wait(an::port& port, socket_type socket, void* key,
                                  std::chrono::milliseconds timeout, std::size_t& dropped)
{
  an::registration r;
  r.socket = socket;
  r.key = key;
  r.operation = an::operation::remove;
  if (error_code ec = port.apply(r)) // the entry's own result
    return ec;

  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;)
  {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0)
      return boost::asio::error::timed_out;
    std::array<an::packet, 4> packets;
    error_code ec;
    const std::size_t n = port.dequeue(packets, left, ec);
    if (ec)
      return ec;
    for (std::size_t i = 0; i < n; ++i)
    {
      const an::packet& p = packets[i];
      const bool ours = p.kind == an::packet_kind::notification && p.key == key;
      if (ours && has_any(p.events, an::events::remove))
      {
        dropped +=
            n - i - 1; // anything after it in this batch is not ours (nothing follows REMOVE)
        return {};
      }
      ++dropped;
    }
  }
}

// ---- pass / fail ---------------------------------------------------------------------------

/** Records the checks an example makes. Thread-safe. A failed check prints one line saying
    what was expected; `summary()` prints the example's result line and returns the exit
    status (0 only when every check held). */
class checker
{
public:
  explicit checker(std::string name) : name_(std::move(name)) {}

  bool check(bool ok, const std::string& what)
  {
    ++checks_;
    if (!ok)
    {
      ++failures_;
      print("FAILED: " + what);
    }
    return ok;
  }

  template <class Actual, class Expected>
  bool check_equal(const Actual& actual, const Expected& expected, const std::string& what)
  {
    if (actual == expected)
      return check(true, what);
    std::ostringstream s;
    s << what << " (got " << actual << ", expected " << expected << ")";
    return check(false, s.str());
  }

  /// A check that an operation reported no error.
  bool check_ok(const error_code& ec, const std::string& what)
  {
    return check(!ec, ec ? what + ": " + ec.message() : what);
  }

  /// An informational line, prefixed with the example's name.
  void note(const std::string& line) { print(line); }

  int summary()
  {
    std::ostringstream s;
    if (failures_ == 0)
      s << "PASS (" << checks_ << " checks)";
    else
      s << "FAIL (" << failures_ << " of " << checks_ << " checks failed)";
    print(s.str());
    return failures_ == 0 ? 0 : 1;
  }

private:
  void print(const std::string& line)
  {
    std::lock_guard<std::mutex> lock(print_mutex_);
    std::cout << name_ << ": " << line << std::endl;
  }

  std::string name_;
  std::atomic<int> checks_{0};
  std::atomic<int> failures_{0};
  std::mutex print_mutex_;
};

} // namespace example

#endif
