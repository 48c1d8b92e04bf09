//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// POSIX system calls of the sockets. errno values are Asio's error codes on POSIX
// (boost::asio::error::* are errno values in the system category), so the mapping is the
// identity apart from end of stream, which the callers decide.

#include <boost/asio_notify/detail/socket_ops.hpp>

#include "socket_ops_common.hpp"

#include <boost/asio/error.hpp>

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

static_assert(sizeof(boost::asio_notify::detail::socket_ops::native_buffer) == sizeof(iovec),
              "native_buffer must have iovec's layout");

namespace boost {
namespace asio_notify {
namespace detail {
namespace socket_ops {

namespace {

error_code errno_code() { return error_code(errno, boost::asio::error::get_system_category()); }

// Run a system call, retrying EINTR; sets `ec` from errno when it returns -1.
template <class Call>
auto retry(error_code& ec, Call call) -> decltype(call())
{
  for (;;)
  {
    auto r = call();
    if (r >= 0)
    {
      ec = {};
      return r;
    }
    if (errno != EINTR)
    {
      ec = errno_code();
      return r;
    }
  }
}

// MSG_NOSIGNAL: a write to a reset connection reports EPIPE instead of killing the process.
constexpr int send_flags(message_flags flags) { return flags | MSG_NOSIGNAL; }

// The bytes of an address the system stored: its reported length, at most the buffer's.
std::size_t stored(socklen_t reported, std::size_t capacity)
{
  return std::min(static_cast<std::size_t>(reported), capacity);
}

msghdr make_msghdr(const native_buffer* bufs, std::size_t count, const void* addr, std::size_t len)
{
  msghdr msg{};
  msg.msg_iov = reinterpret_cast<iovec*>(const_cast<native_buffer*>(bufs));
  msg.msg_iovlen = std::min(count, max_buffers);
  msg.msg_name = const_cast<void*>(addr);
  msg.msg_namelen = static_cast<socklen_t>(len);
  return msg;
}

} // namespace

native_socket_type open(int family, int type, int protocol, error_code& ec)
{
  return retry(ec, [&] { return ::socket(family, type | SOCK_CLOEXEC, protocol); });
}

void close_once(native_socket_type s, error_code& ec)
{
  // EINTR from close leaves the descriptor closed on Linux: never retry it.
  ec = ::close(s) == 0 || errno == EINTR ? error_code() : errno_code();
}

void socket_pair(int family, int type, int protocol, native_socket_type (&pair)[2], error_code& ec)
{
  int fds[2] = {-1, -1};
  if (retry(ec, [&] { return ::socketpair(family, type | SOCK_CLOEXEC, protocol, fds); }) == 0)
  {
    pair[0] = fds[0];
    pair[1] = fds[1];
  }
}

void check_socket(native_socket_type s, error_code& ec)
{
  int type = 0;
  socklen_t len = sizeof(type);
  retry(ec, [&] { return ::getsockopt(s, SOL_SOCKET, SO_TYPE, &type, &len); });
}

void set_non_blocking(native_socket_type s, bool on, error_code& ec)
{
  int arg = on ? 1 : 0;
  retry(ec, [&] { return ::ioctl(s, FIONBIO, &arg); });
}

bool sets_non_blocking(long command, const void* arg, bool& on) noexcept
{
  return reads_fionbio<int>(command, static_cast<long>(FIONBIO), arg, on); // FIONBIO takes an int
}

void bind(native_socket_type s, const void* addr, std::size_t len, error_code& ec)
{
  retry(ec,
        [&] { return ::bind(s, static_cast<const sockaddr*>(addr), static_cast<socklen_t>(len)); });
}

void listen(native_socket_type s, int backlog, error_code& ec)
{
  retry(ec, [&] { return ::listen(s, backlog); });
}

void shutdown(native_socket_type s, int what, error_code& ec)
{
  retry(ec, [&] { return ::shutdown(s, what); });
}

void local_address(native_socket_type s, void* addr, std::size_t& len, error_code& ec)
{
  socklen_t l = static_cast<socklen_t>(len);
  retry(ec, [&] { return ::getsockname(s, static_cast<sockaddr*>(addr), &l); });
  len = stored(l, len);
}

void peer_address(native_socket_type s, void* addr, std::size_t& len, error_code& ec)
{
  socklen_t l = static_cast<socklen_t>(len);
  retry(ec, [&] { return ::getpeername(s, static_cast<sockaddr*>(addr), &l); });
  len = stored(l, len);
}

void set_option(native_socket_type s, int level, int name, const void* data, std::size_t len,
                error_code& ec)
{
  retry(ec, [&] { return ::setsockopt(s, level, name, data, static_cast<socklen_t>(len)); });
}

void get_option(native_socket_type s, int level, int name, void* data, std::size_t& len,
                error_code& ec)
{
  socklen_t l = static_cast<socklen_t>(len);
  retry(ec, [&] { return ::getsockopt(s, level, name, data, &l); });
  len = l;
#if defined(__linux__)
  // The kernel doubles the size it is given (the other half holds its bookkeeping); Asio
  // halves what it reads, and code written for Asio expects back the value it set.
  if (!ec && level == SOL_SOCKET && (name == SO_SNDBUF || name == SO_RCVBUF) && len == sizeof(int))
    *static_cast<int*>(data) /= 2;
#endif
}

void io_control(native_socket_type s, long command, void* arg, error_code& ec)
{
  retry(ec, [&] { return ::ioctl(s, static_cast<unsigned long>(command), arg); });
}

std::size_t available(native_socket_type s, error_code& ec)
{
  int value = 0;
  io_control(s, FIONREAD, &value, ec);
  return ec ? 0 : static_cast<std::size_t>(value);
}

bool at_mark(native_socket_type s, error_code& ec)
{
  return retry(ec, [&] { return ::sockatmark(s); }) == 1;
}

bool poll(native_socket_type s, wait_for w, int timeout_ms, error_code& ec)
{
  pollfd fd{s, poll_event(w, POLLIN, POLLOUT, POLLPRI), 0};
  const int n = retry(ec, [&] { return ::poll(&fd, 1, timeout_ms); });
  return readiness_polled(n, fd.revents, POLLNVAL, ec);
}

void connect(native_socket_type s, const void* addr, std::size_t len, error_code& ec)
{
  if (::connect(s, static_cast<const sockaddr*>(addr), static_cast<socklen_t>(len)) == 0)
  {
    ec = {};
    return;
  }
  // EINTR: the connect goes on asynchronously, exactly like EINPROGRESS.
  ec = (errno == EINPROGRESS || errno == EINTR) ? error_code(boost::asio::error::would_block)
                                                : errno_code();
}

void connect_result(native_socket_type s, error_code& ec)
{
  int err = 0;
  std::size_t len = sizeof(err);
  get_option(s, SOL_SOCKET, SO_ERROR, &err, len, ec);
  if (!ec && err != 0)
    ec = error_code(err, boost::asio::error::get_system_category());
}

native_socket_type accept(native_socket_type s, void* addr, std::size_t* len, error_code& ec)
{
  socklen_t l = len ? static_cast<socklen_t>(*len) : 0;
  const int fd = retry(ec, [&] {
    return ::accept4(s, static_cast<sockaddr*>(addr), len ? &l : nullptr, SOCK_CLOEXEC);
  });
  if (len)
    *len = stored(l, *len);
  return fd;
}

bool aborted_before_accept(const error_code& ec) noexcept
{
  // EPROTO: some systems report a protocol failure of the pending connection this way.
  return ec == boost::asio::error::connection_aborted ||
         ec == error_code(EPROTO, boost::asio::error::get_system_category());
}

bool set_drained_hint(native_socket_type s, bool on)
{
#if defined(TCP_INQ)
  const int value = on ? 1 : 0;
  return ::setsockopt(s, IPPROTO_TCP, TCP_INQ, &value, sizeof(value)) == 0;
#else
  (void)s;
  (void)on;
  return false;
#endif
}

namespace {

// The bytes TCP_INQ says are left after a read; -1 without the control message. The
// kernel reports a received FIN as one byte left, so end of file is never "drained".
int bytes_left(msghdr& msg)
{
#if defined(TCP_CM_INQ)
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
    if (c->cmsg_level == SOL_TCP && c->cmsg_type == TCP_CM_INQ &&
        c->cmsg_len >= CMSG_LEN(sizeof(int)))
    {
      int left;
      std::memcpy(&left, CMSG_DATA(c), sizeof(left));
      return left;
    }
#else
  (void)msg;
#endif
  return -1;
}

} // namespace

std::size_t recv(native_socket_type s, native_buffer* bufs, std::size_t count, message_flags flags,
                 error_code& ec, bool* drained)
{
  msghdr msg = make_msghdr(bufs, count, nullptr, 0);
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
  if (drained)
  {
    msg.msg_control = control;
    msg.msg_controllen = sizeof(control);
  }
  const ssize_t n = retry(ec, [&] { return ::recvmsg(s, &msg, flags); });
  if (drained)
    *drained = n > 0 && (flags & MSG_PEEK) == 0 && bytes_left(msg) == 0;
  return n < 0 ? 0 : static_cast<std::size_t>(n);
}

std::size_t send(native_socket_type s, const native_buffer* bufs, std::size_t count,
                 message_flags flags, error_code& ec)
{
  // One buffer goes through send(), as with Asio: sendmsg() costs the kernel a copy of
  // the message header and an iovec import per call.
  msghdr msg = make_msghdr(bufs, count, nullptr, 0);
  const ssize_t n = retry(ec, [&] {
    return count == 1 ? ::send(s, bufs[0].data, bufs[0].size, send_flags(flags))
                      : ::sendmsg(s, &msg, send_flags(flags));
  });
  return n < 0 ? 0 : static_cast<std::size_t>(n);
}

std::size_t recvfrom(native_socket_type s, native_buffer* bufs, std::size_t count,
                     message_flags flags, void* addr, std::size_t& len, error_code& ec)
{
  msghdr msg = make_msghdr(bufs, count, addr, len);
  const ssize_t n = retry(ec, [&] { return ::recvmsg(s, &msg, flags); });
  len = stored(msg.msg_namelen, len);
  return n < 0 ? 0 : static_cast<std::size_t>(n);
}

std::size_t sendto(native_socket_type s, const native_buffer* bufs, std::size_t count,
                   message_flags flags, const void* addr, std::size_t len, error_code& ec)
{
  msghdr msg = make_msghdr(bufs, count, addr, len);
  const ssize_t n = retry(ec, [&] { return ::sendmsg(s, &msg, send_flags(flags)); });
  return n < 0 ? 0 : static_cast<std::size_t>(n);
}

} // namespace socket_ops
} // namespace detail
} // namespace asio_notify
} // namespace boost
