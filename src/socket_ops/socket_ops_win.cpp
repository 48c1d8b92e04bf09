//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Winsock system calls of the sockets. Asio's error codes on Windows are the WSA error
// values in the system category, so WSAGetLastError() maps directly, with the few
// translations Asio makes itself (see to_asio_error).

#include <boost/asio_notify/detail/socket_ops.hpp>

#include "overlapped_transfer_win.hpp"
#include "socket_ops_common.hpp"

#include <boost/asio/error.hpp>

#include <winsock2.h>
#include <mswsock.h>
#include <ws2tcpip.h>

#include <algorithm>
#include <cstring>

static_assert(sizeof(boost::asio_notify::detail::socket_ops::native_buffer) == sizeof(WSABUF),
              "native_buffer must have WSABUF's layout");

#if !defined(ERROR_HANDLES_CLOSED)
#define ERROR_HANDLES_CLOSED 676L // winerror.h of Windows' SDK; older MinGW-w64 lacks it
#endif

#if !defined(SIO_UDP_CONNRESET)
#define SIO_UDP_CONNRESET _WSAIOW(IOC_VENDOR, 12)
#endif

namespace boost {
namespace asio_notify {
namespace detail {
namespace socket_ops {

namespace {

// The translations Asio applies to Winsock results, so callers see the same codes; and one
// of ours: Winsock answers WSAENOTSOCK for an invalid or closed handle, where POSIX says
// EBADF. Both mean "no such socket", which the port contract and Asio on POSIX call
// bad_descriptor (doc/asio_conformance.md, W5).
error_code to_asio_error(DWORD err)
{
  switch (err)
  {
  case WSAENOTSOCK:
    return boost::asio::error::bad_descriptor;
  case ERROR_NETNAME_DELETED:
    return boost::asio::error::connection_reset;
  case ERROR_PORT_UNREACHABLE:
    return boost::asio::error::connection_refused;
  case WSAEMSGSIZE:
  case ERROR_MORE_DATA:
    return boost::asio::error::message_size;
  default:
    return error_code(static_cast<int>(err), boost::asio::error::get_system_category());
  }
}

error_code last_error() { return to_asio_error(static_cast<DWORD>(::WSAGetLastError())); }

// Run a call that reports SOCKET_ERROR on failure; retries WSAEINTR (blocking hooks).
template <class Call>
auto checked(error_code& ec, Call call) -> decltype(call())
{
  for (;;)
  {
    auto r = call();
    if (r != SOCKET_ERROR)
    {
      ec = {};
      return r;
    }
    if (::WSAGetLastError() != WSAEINTR)
    {
      ec = last_error();
      return r;
    }
  }
}

WSABUF* as_wsabuf(const native_buffer* bufs)
{
  return reinterpret_cast<WSABUF*>(const_cast<native_buffer*>(bufs));
}

// The bytes of an address the system stored: its reported length, at most the buffer's.
std::size_t stored(int reported, std::size_t capacity)
{
  return reported < 0 ? 0 : std::min(static_cast<std::size_t>(reported), capacity);
}

DWORD buffer_count(std::size_t count) { return static_cast<DWORD>(std::min(count, max_buffers)); }

// What a receive returns. A datagram that did not fit (WSAEMSGSIZE, ERROR_MORE_DATA) filled
// the buffers and lost the rest: success with that count, as Asio's Windows receive and
// POSIX recv report it. The count is the buffers' size, since WSARecv need not set it with
// that error (Wine leaves it 0).
std::size_t received(DWORD bytes, const native_buffer* bufs, std::size_t count, error_code& ec)
{
  if (ec != boost::asio::error::message_size)
    return ec ? 0 : bytes;
  ec = {};
  return capacity_of(bufs, count);
}

// What an overlapped call's `result` means: 0 where its completion comes through the port
// (in flight, or done already), else the Winsock error.
unsigned long overlapped_started(int result) noexcept
{
  if (result == 0)
    return 0;
  const DWORD error = static_cast<DWORD>(::WSAGetLastError());
  return error == WSA_IO_PENDING ? 0 : error;
}

} // namespace

native_socket_type open(int family, int type, int protocol, error_code& ec)
{
  const SOCKET s = ::WSASocketW(family, type, protocol, nullptr, 0,
                                WSA_FLAG_OVERLAPPED | WSA_FLAG_NO_HANDLE_INHERIT);
  if (s == INVALID_SOCKET)
  {
    ec = last_error();
    return invalid_socket;
  }
  ec = {};
  if (family == AF_INET6)
  {
    // As Asio does on Windows: IPv6 sockets are dual-stack (Windows defaults to IPv6 only,
    // Linux to dual-stack), so an acceptor on [::] takes IPv4 clients too.
    DWORD v6_only = 0;
    ::setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, reinterpret_cast<const char*>(&v6_only),
                 sizeof(v6_only));
  }
  if (type == SOCK_DGRAM)
  {
    // Unlike Asio (whose next receive then fails with connection_refused): an ICMP
    // port-unreachable must not make the next receive on this UDP socket fail with
    // WSAECONNRESET (doc/asio_conformance.md, W2).
    BOOL report = FALSE;
    DWORD bytes = 0;
    ::WSAIoctl(s, SIO_UDP_CONNRESET, &report, sizeof(report), nullptr, 0, &bytes, nullptr, nullptr);
  }
  return static_cast<native_socket_type>(s);
}

void close_once(native_socket_type s, error_code& ec)
{
  checked(ec, [&] { return ::closesocket(static_cast<SOCKET>(s)); });
}

void socket_pair(int, int, int, native_socket_type (&)[2], error_code& ec)
{
  ec =
      boost::asio::error::operation_not_supported; // Winsock has no socketpair (nor has Asio there)
}

void check_socket(native_socket_type s, error_code& ec)
{
  int type = 0;
  int len = sizeof(type);
  checked(ec, [&] {
    return ::getsockopt(static_cast<SOCKET>(s), SOL_SOCKET, SO_TYPE, reinterpret_cast<char*>(&type),
                        &len);
  });
}

void set_non_blocking(native_socket_type s, bool on, error_code& ec)
{
  u_long arg = on ? 1 : 0;
  checked(ec, [&] { return ::ioctlsocket(static_cast<SOCKET>(s), FIONBIO, &arg); });
}

bool sets_non_blocking(long command, const void* arg, bool& on) noexcept
{
  return reads_fionbio<u_long>(command, static_cast<long>(FIONBIO), arg,
                               on); // FIONBIO takes a u_long
}

void bind(native_socket_type s, const void* addr, std::size_t len, error_code& ec)
{
  checked(ec, [&] {
    return ::bind(static_cast<SOCKET>(s), static_cast<const sockaddr*>(addr),
                  static_cast<int>(len));
  });
}

void listen(native_socket_type s, int backlog, error_code& ec)
{
  checked(ec, [&] { return ::listen(static_cast<SOCKET>(s), backlog); });
}

void shutdown(native_socket_type s, int what, error_code& ec)
{
  checked(ec, [&] { return ::shutdown(static_cast<SOCKET>(s), what); });
}

void local_address(native_socket_type s, void* addr, std::size_t& len, error_code& ec)
{
  int l = static_cast<int>(len);
  checked(ec,
          [&] { return ::getsockname(static_cast<SOCKET>(s), static_cast<sockaddr*>(addr), &l); });
  len = stored(l, len);
}

void peer_address(native_socket_type s, void* addr, std::size_t& len, error_code& ec)
{
  int l = static_cast<int>(len);
  checked(ec,
          [&] { return ::getpeername(static_cast<SOCKET>(s), static_cast<sockaddr*>(addr), &l); });
  len = stored(l, len);
}

void set_option(native_socket_type s, int level, int name, const void* data, std::size_t len,
                error_code& ec)
{
  checked(ec, [&] {
    return ::setsockopt(static_cast<SOCKET>(s), level, name, static_cast<const char*>(data),
                        static_cast<int>(len));
  });
}

void get_option(native_socket_type s, int level, int name, void* data, std::size_t& len,
                error_code& ec)
{
  int l = static_cast<int>(len);
  checked(ec, [&] {
    return ::getsockopt(static_cast<SOCKET>(s), level, name, static_cast<char*>(data), &l);
  });
  len = static_cast<std::size_t>(l);
}

void io_control(native_socket_type s, long command, void* arg, error_code& ec)
{
  checked(ec, [&] {
    return ::ioctlsocket(static_cast<SOCKET>(s), command, static_cast<u_long*>(arg));
  });
}

std::size_t available(native_socket_type s, error_code& ec)
{
  u_long value = 0;
  io_control(s, FIONREAD, &value, ec);
  return ec ? 0 : static_cast<std::size_t>(value);
}

bool at_mark(native_socket_type s, error_code& ec)
{
  u_long value = 0;
  io_control(s, SIOCATMARK, &value, ec);
  return !ec && value != 0;
}

void connect(native_socket_type s, const void* addr, std::size_t len, error_code& ec)
{
  if (::connect(static_cast<SOCKET>(s), static_cast<const sockaddr*>(addr),
                static_cast<int>(len)) == 0)
  {
    ec = {};
    return;
  }
  ec = last_error();
  if (ec == boost::asio::error::in_progress)
    ec = boost::asio::error::would_block; // a non-blocking connect under way
}

void connect_result(native_socket_type s, error_code& ec)
{
  int err = 0;
  std::size_t len = sizeof(err);
  get_option(s, SOL_SOCKET, SO_ERROR, &err, len, ec);
  if (!ec && err != 0)
    ec = to_asio_error(static_cast<DWORD>(err));
}

native_socket_type accept(native_socket_type s, void* addr, std::size_t* len, error_code& ec)
{
  int l = len ? static_cast<int>(*len) : 0;
  const SOCKET r =
      ::accept(static_cast<SOCKET>(s), static_cast<sockaddr*>(addr), len ? &l : nullptr);
  if (r == INVALID_SOCKET)
  {
    ec = last_error();
    // Winsock's accept reports a connection reset before it was accepted as WSAECONNRESET;
    // Asio's Windows acceptor (AcceptEx) sees ERROR_NETNAME_DELETED there and reports
    // connection_aborted, which enable_connection_aborted governs.
    if (ec == boost::asio::error::connection_reset)
      ec = boost::asio::error::connection_aborted;
    return invalid_socket;
  }
  ec = {};
  if (len)
    *len = stored(l, *len);
  return static_cast<native_socket_type>(r);
}

bool aborted_before_accept(const error_code& ec) noexcept
{
  return ec == boost::asio::error::connection_aborted;
}

// Winsock has no TCP_INQ, but a stream socket's receive returns all that is there, up to the
// buffers' size: a shorter one left nothing behind. Not with SO_OOBINLINE (as the socket is
// when the reactor registers it), where a receive also stops at the urgent data's mark.
bool set_drained_hint(native_socket_type s, bool on)
{
  int type = 0;
  BOOL inline_urgent = FALSE;
  int size = sizeof(type);
  int inline_size = sizeof(inline_urgent);
  return on &&
         ::getsockopt(static_cast<SOCKET>(s), SOL_SOCKET, SO_TYPE, reinterpret_cast<char*>(&type),
                      &size) == 0 &&
         type == SOCK_STREAM &&
         ::getsockopt(static_cast<SOCKET>(s), SOL_SOCKET, SO_OOBINLINE,
                      reinterpret_cast<char*>(&inline_urgent), &inline_size) == 0 &&
         !inline_urgent;
}

std::size_t recv(native_socket_type s, native_buffer* bufs, std::size_t count, message_flags flags,
                 error_code& ec, bool* drained)
{
  if (drained)
    *drained = false;
  DWORD bytes = 0;
  DWORD f = static_cast<DWORD>(flags);
  checked(ec, [&] {
    return ::WSARecv(static_cast<SOCKET>(s), as_wsabuf(bufs), buffer_count(count), &bytes, &f,
                     nullptr, nullptr);
  });
  const std::size_t n = received(bytes, bufs, count, ec);
  // A peek leaves the data; 0 bytes is the end of the stream, never "drained".
  if (drained && !ec && n != 0 && !(flags & (MSG_PEEK | MSG_OOB)))
    *drained = n < capacity_of(bufs, count);
  return n;
}

std::size_t capacity_of(const native_buffer* bufs, std::size_t count) noexcept
{
  std::size_t capacity = 0;
  for (DWORD i = 0; i < buffer_count(count); ++i)
    capacity += as_wsabuf(bufs)[i].len;
  return capacity;
}

// No byte counts: for an overlapped call they may be wrong (Winsock's documentation).
unsigned long recv_overlapped(native_socket_type s, native_buffer* bufs, std::size_t count,
                              unsigned long& flags, void* overlapped) noexcept
{
  return overlapped_started(::WSARecv(static_cast<SOCKET>(s), as_wsabuf(bufs), buffer_count(count),
                                      nullptr, &flags, static_cast<OVERLAPPED*>(overlapped),
                                      nullptr));
}

unsigned long send_overlapped(native_socket_type s, native_buffer* bufs, std::size_t count,
                              unsigned long flags, void* overlapped) noexcept
{
  return overlapped_started(::WSASend(static_cast<SOCKET>(s), as_wsabuf(bufs), buffer_count(count),
                                      nullptr, flags, static_cast<OVERLAPPED*>(overlapped),
                                      nullptr));
}

error_code overlapped_result(const error_code& completion, std::size_t bytes, bool cancelled,
                             bool receive) noexcept
{
  if (!completion)
    return receive && bytes == 0 ? error_code(boost::asio::error::eof) : error_code();
  switch (completion.value())
  {
  case ERROR_OPERATION_ABORTED:
  case ERROR_HANDLES_CLOSED: // Wine's, for a handle closed with the receive in flight
    return boost::asio::error::operation_aborted;
  case ERROR_CONNECTION_ABORTED:
    return boost::asio::error::connection_aborted;
  default:
    return cancelled ? error_code(boost::asio::error::operation_aborted)
                     : to_asio_error(static_cast<DWORD>(completion.value()));
  }
}

std::size_t send(native_socket_type s, const native_buffer* bufs, std::size_t count,
                 message_flags flags, error_code& ec)
{
  DWORD bytes = 0;
  checked(ec, [&] {
    return ::WSASend(static_cast<SOCKET>(s), as_wsabuf(bufs), buffer_count(count), &bytes,
                     static_cast<DWORD>(flags), nullptr, nullptr);
  });
  return ec ? 0 : bytes;
}

std::size_t recvfrom(native_socket_type s, native_buffer* bufs, std::size_t count,
                     message_flags flags, void* addr, std::size_t& len, error_code& ec)
{
  DWORD bytes = 0;
  DWORD f = static_cast<DWORD>(flags);
  int l = static_cast<int>(len);
  checked(ec, [&] {
    return ::WSARecvFrom(static_cast<SOCKET>(s), as_wsabuf(bufs), buffer_count(count), &bytes, &f,
                         static_cast<sockaddr*>(addr), &l, nullptr, nullptr);
  });
  len = stored(l, len);
  return received(bytes, bufs, count, ec);
}

std::size_t sendto(native_socket_type s, const native_buffer* bufs, std::size_t count,
                   message_flags flags, const void* addr, std::size_t len, error_code& ec)
{
  DWORD bytes = 0;
  checked(ec, [&] {
    return ::WSASendTo(static_cast<SOCKET>(s), as_wsabuf(bufs), buffer_count(count), &bytes,
                       static_cast<DWORD>(flags), static_cast<const sockaddr*>(addr),
                       static_cast<int>(len), nullptr, nullptr);
  });
  return ec ? 0 : bytes;
}

bool poll(native_socket_type s, wait_for w, int timeout_ms, error_code& ec)
{
  // WSAPoll rejects POLLPRI; out-of-band data is POLLRDBAND. Errors are always reported.
  WSAPOLLFD fd{static_cast<SOCKET>(s), poll_event(w, POLLRDNORM, POLLWRNORM, POLLRDBAND), 0};
  const int n = checked(ec, [&] { return ::WSAPoll(&fd, 1, timeout_ms); });
  return readiness_polled(n, fd.revents, POLLNVAL, ec);
}

} // namespace socket_ops
} // namespace detail
} // namespace asio_notify
} // namespace boost
