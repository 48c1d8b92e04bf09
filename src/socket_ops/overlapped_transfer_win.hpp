//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The overlapped receive and send of the io_context_port driver's transfer channels
// (src/drivers/win/overlapped_transfers.hpp), with Winsock's answers read as the other
// transfers read them (socket_ops_win.cpp).
#ifndef BOOST_ASIO_NOTIFY_SRC_SOCKET_OPS_OVERLAPPED_TRANSFER_WIN_HPP
#define BOOST_ASIO_NOTIFY_SRC_SOCKET_OPS_OVERLAPPED_TRANSFER_WIN_HPP

#include <boost/asio_notify/detail/socket_ops.hpp>

#include <boost/system/error_code.hpp>

#include <cstddef>

namespace boost {
namespace asio_notify {
namespace detail {
namespace socket_ops {

/** Issues an overlapped `WSARecv` on stream socket `s` into `bufs`, `overlapped` its
    OVERLAPPED and `flags` its flags, in and out (Winsock may write them when it completes:
    they must live as long as the receive). Returns 0 when its completion will come
    through the port the socket is associated with (in flight, or done already), else the
    Winsock error: then no completion comes. */
unsigned long recv_overlapped(native_socket_type s, native_buffer* bufs, std::size_t count,
                              unsigned long& flags, void* overlapped) noexcept;

/** Issues an overlapped `WSASend` on stream socket `s` from `bufs` with `flags`,
    `overlapped` its OVERLAPPED. Returns as `recv_overlapped` does. */
unsigned long send_overlapped(native_socket_type s, native_buffer* bufs, std::size_t count,
                              unsigned long flags, void* overlapped) noexcept;

/// The bytes `bufs` hold, of the first `count` (at most max_buffers, as a call takes them).
std::size_t capacity_of(const native_buffer* bufs, std::size_t count) noexcept;

/** What a stream transfer reports for an overlapped receive (`receive`) or send whose
    completion the io_context gave as `completion` (the system's error) and `bytes`: Asio's
    error codes, as a non-blocking call reports them, `eof` for a receive of no bytes, and
    `operation_aborted` for a failure after `cancelled`. */
boost::system::error_code overlapped_result(const boost::system::error_code& completion,
                                            std::size_t bytes, bool cancelled,
                                            bool receive) noexcept;

} // namespace socket_ops
} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
