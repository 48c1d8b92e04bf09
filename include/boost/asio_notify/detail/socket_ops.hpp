//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The system calls behind the sockets, one implementation per OS (src/socket_ops/socket_ops_*.cpp).
// Every function makes one attempt, retries EINTR, and reports failure in `ec` with the
// error codes Asio's own sockets report (so `ec == boost::asio::error::eof` etc. hold).
// The functions that return an address (`addr`, `len`) set `len` to the bytes stored, at
// most the buffer's size: a longer address is cut to what fits, where the system reports
// its full length (Linux does for an AF_UNIX path of all 108 bytes, which leaves no room
// for its NUL), so that `Endpoint::resize(len)` never exceeds the endpoint's capacity.
#ifndef BOOST_ASIO_NOTIFY_DETAIL_SOCKET_OPS_HPP
#define BOOST_ASIO_NOTIFY_DETAIL_SOCKET_OPS_HPP

#include <boost/asio_notify/detail/config.hpp>
#include <boost/asio_notify/registration.hpp>

#include <boost/asio/error.hpp>
#include <boost/system/error_code.hpp>

#include <cstddef>
#include <cstdint>

namespace boost {
namespace asio_notify {
namespace detail {
namespace socket_ops {

/// The value of an invalid socket handle.
#if defined(_WIN32)
constexpr native_socket_type invalid_socket = ~native_socket_type(0);
#else
constexpr native_socket_type invalid_socket = -1;
#endif

/// One element of a scatter/gather array (`iovec` / `WSABUF` layout-compatible).
struct native_buffer
{
#if defined(_WIN32)
  unsigned long size;
  void* data;
#else
  void* data;
  std::size_t size;
#endif
};

/// The most buffers one system call takes; longer sequences are truncated, as Asio does.
constexpr std::size_t max_buffers = 64;

/// What a readiness wait waits for.
enum class wait_for
{
  read,
  write,
  error
};

/// Send/receive flags: platform values of MSG_PEEK, MSG_OOB, MSG_DONTROUTE, MSG_EOR are
/// the same as Asio's `socket_base::message_flags`, so they pass through unchanged.
using message_flags = int;

BOOST_ASIO_NOTIFY_DECL native_socket_type open(int family, int type, int protocol,
                                               boost::system::error_code& ec);
/// One close system call (POSIX: EINTR is not retried, the descriptor is closed then).
BOOST_ASIO_NOTIFY_DECL void close_once(native_socket_type s, boost::system::error_code& ec);
/// Create a pair of connected sockets (close-on-exec), as `socketpair` does. Windows has no
/// such call: `operation_not_supported` there, as Asio reports.
BOOST_ASIO_NOTIFY_DECL void socket_pair(int family, int type, int protocol,
                                        native_socket_type (&pair)[2],
                                        boost::system::error_code& ec);
/// Succeeds only for an open socket handle (`bad_descriptor`, `not_socket` otherwise).
BOOST_ASIO_NOTIFY_DECL void check_socket(native_socket_type s, boost::system::error_code& ec);
BOOST_ASIO_NOTIFY_DECL void set_non_blocking(native_socket_type s, bool on,
                                             boost::system::error_code& ec);
/// Whether `command` is the io control that sets the non-blocking mode (`FIONBIO`); `on` is
/// then the mode its argument `arg` asks for.
BOOST_ASIO_NOTIFY_DECL bool sets_non_blocking(long command, const void* arg, bool& on) noexcept;

BOOST_ASIO_NOTIFY_DECL void bind(native_socket_type s, const void* addr, std::size_t len,
                                 boost::system::error_code& ec);
BOOST_ASIO_NOTIFY_DECL void listen(native_socket_type s, int backlog,
                                   boost::system::error_code& ec);
BOOST_ASIO_NOTIFY_DECL void shutdown(native_socket_type s, int what, boost::system::error_code& ec);
BOOST_ASIO_NOTIFY_DECL void local_address(native_socket_type s, void* addr, std::size_t& len,
                                          boost::system::error_code& ec);
BOOST_ASIO_NOTIFY_DECL void peer_address(native_socket_type s, void* addr, std::size_t& len,
                                         boost::system::error_code& ec);
BOOST_ASIO_NOTIFY_DECL void set_option(native_socket_type s, int level, int name, const void* data,
                                       std::size_t len, boost::system::error_code& ec);
/// Linux doubles SO_SNDBUF and SO_RCVBUF when they are set; this reads them back halved,
/// as Asio does, so a socket reports the size it was given.
BOOST_ASIO_NOTIFY_DECL void get_option(native_socket_type s, int level, int name, void* data,
                                       std::size_t& len, boost::system::error_code& ec);
BOOST_ASIO_NOTIFY_DECL void io_control(native_socket_type s, long command, void* arg,
                                       boost::system::error_code& ec);
BOOST_ASIO_NOTIFY_DECL std::size_t available(native_socket_type s, boost::system::error_code& ec);
BOOST_ASIO_NOTIFY_DECL bool at_mark(native_socket_type s, boost::system::error_code& ec);

/// Start a connect; `would_block` (also for "in progress") means wait for writability,
/// then call `connect_result`.
BOOST_ASIO_NOTIFY_DECL void connect(native_socket_type s, const void* addr, std::size_t len,
                                    boost::system::error_code& ec);
/// The outcome of a connect that was in progress (SO_ERROR).
BOOST_ASIO_NOTIFY_DECL void connect_result(native_socket_type s, boost::system::error_code& ec);

/// Accept one connection; the new socket is close-on-exec. `addr` may be null.
BOOST_ASIO_NOTIFY_DECL native_socket_type accept(native_socket_type s, void* addr, std::size_t* len,
                                                 boost::system::error_code& ec);
/// True for the accept errors that mean the pending connection went away before it was
/// accepted (`connection_aborted`; also `EPROTO` on POSIX): Asio retries them unless
/// `socket_base::enable_connection_aborted` is set.
BOOST_ASIO_NOTIFY_DECL bool aborted_before_accept(const boost::system::error_code& ec) noexcept;

/// Whether an accept that failed with `ec` takes the next connection instead: one aborted
/// before it was accepted is not the acceptor's failure, unless the user asked to see it
/// (`report_aborted`: the acceptor's `enable_connection_aborted`, Asio's rule).
inline bool accept_next_instead(const boost::system::error_code& ec, bool report_aborted) noexcept
{
  return !report_aborted && aborted_before_accept(ec);
}

/// Ask a stream socket to tell, with every read, whether the read left data behind
/// (Linux's TCP_INQ; on Windows a short read), or (`on` false) to stop. False where it
/// cannot (other protocols, other systems).
BOOST_ASIO_NOTIFY_DECL bool set_drained_hint(native_socket_type s, bool on);

/// Scatter/gather I/O; return the bytes transferred (0 with `ec` set on failure).
/// With `drained` (a socket with set_drained_hint), `*drained` tells whether a
/// successful read found nothing left to read after it; it stays false when unsure.
BOOST_ASIO_NOTIFY_DECL std::size_t recv(native_socket_type s, native_buffer* bufs,
                                        std::size_t count, message_flags flags,
                                        boost::system::error_code& ec, bool* drained = nullptr);
BOOST_ASIO_NOTIFY_DECL std::size_t send(native_socket_type s, const native_buffer* bufs,
                                        std::size_t count, message_flags flags,
                                        boost::system::error_code& ec);
BOOST_ASIO_NOTIFY_DECL std::size_t recvfrom(native_socket_type s, native_buffer* bufs,
                                            std::size_t count, message_flags flags, void* addr,
                                            std::size_t& len, boost::system::error_code& ec);
BOOST_ASIO_NOTIFY_DECL std::size_t sendto(native_socket_type s, const native_buffer* bufs,
                                          std::size_t count, message_flags flags, const void* addr,
                                          std::size_t len, boost::system::error_code& ec);

/// Wait until the socket is ready; timeout_ms < 0 waits forever, 0 polls. Returns
/// whether it is ready.
BOOST_ASIO_NOTIFY_DECL bool poll(native_socket_type s, wait_for w, int timeout_ms,
                                 boost::system::error_code& ec);

/// True for the errors that mean "try again when ready". Success, the common case, is
/// told by a flag test before the two comparisons (each a call).
inline bool would_block(const boost::system::error_code& ec) noexcept
{
  return ec && (ec == boost::asio::error::would_block || ec == boost::asio::error::try_again);
}

/** Close a socket. A close that would block leaves the socket open (Windows: `closesocket`
    of a non-blocking socket lingering with unsent data, which is what any socket is after an
    asynchronous operation); as Asio does, it is then put back in blocking mode, where the
    close waits for the linger, and closed again. */
inline void close(native_socket_type s, boost::system::error_code& ec)
{
  close_once(s, ec);
  if (!would_block(ec))
    return;
  boost::system::error_code ignored; // the second close reports what matters
  set_non_blocking(s, false, ignored);
  close_once(s, ec);
}

} // namespace socket_ops
} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
