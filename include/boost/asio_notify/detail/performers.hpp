//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The performers: what each kind of operation tries when the reactor gives it a chance
// (a receive, a send, a connect, an accept, or only readiness), and the arguments its
// handler is called with. One is stored in each handler_op.
#ifndef BOOST_ASIO_NOTIFY_DETAIL_PERFORMERS_HPP
#define BOOST_ASIO_NOTIFY_DETAIL_PERFORMERS_HPP

#include <boost/asio_notify/detail/null_buffers.hpp>
#include <boost/asio_notify/detail/reactor_op.hpp>
#include <boost/asio_notify/detail/socket_ops.hpp>

#include <boost/asio/buffer.hpp>
#include <boost/asio/error.hpp>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace boost {
namespace asio_notify {
namespace detail {

/// A buffer sequence flattened for one scatter/gather system call.
struct buffer_array
{
  template <class BufferSequence>
  explicit buffer_array(const BufferSequence& buffers)
  {
    auto it = boost::asio::buffer_sequence_begin(buffers);
    const auto end = boost::asio::buffer_sequence_end(buffers);
    for (; it != end && count < socket_ops::max_buffers; ++it)
    {
      const boost::asio::const_buffer b(*it);
      bufs[count].data = const_cast<void*>(b.data());
      bufs[count].size = static_cast<decltype(bufs[count].size)>(b.size());
      total += b.size();
      ++count;
    }
  }

  socket_ops::native_buffer bufs[socket_ops::max_buffers];
  std::size_t count = 0;
  std::size_t total = 0;
};

/** Where a stream transfer goes on as an overlapped receive or send on the transfer's own
    buffers, completed through the io_context's port with no readiness wait, as Asio's own
    transfers are (the io_context_port driver, src/drivers/win/overlapped_transfers.hpp;
    design.md, "Transfers on the io_context's port"). */
class overlapped_transfers
{
public:
  /// Issue a receive (a read that would block); true when it is in flight, false when it
  /// was not issued (the read then waits for readiness as anywhere else).
  virtual bool receive(socket_ops::native_buffer* bufs, std::size_t count,
                       socket_ops::message_flags flags) noexcept = 0;

  /// Issue a send (a write, tried by no other call first); true when it is in flight,
  /// false when it was not issued (the write is then tried as anywhere else).
  virtual bool send(socket_ops::native_buffer* bufs, std::size_t count,
                    socket_ops::message_flags flags) noexcept = 0;

protected:
  ~overlapped_transfers() = default;
};

/// Performs nothing: readiness is the result (async_wait and null_buffers operations).
/// `WithBytes` adds the `bytes_transferred` argument (always 0) of null_buffers forms.
template <bool WithBytes>
struct readiness_performer
{
  socket_ops::wait_for what;

  bool perform(perform_context& c, boost::system::error_code& ec, std::size_t&) const
  {
    if (c.from_packet)
      return true;
    if (what == socket_ops::wait_for::read && c.nothing_to_read)
      return false;
    return socket_ops::poll(c.socket, what, 0, ec) || ec;
  }

  auto results(const boost::system::error_code& ec, std::size_t) const
  {
    if constexpr (WithBytes)
      return std::make_tuple(ec, std::size_t(0));
    else
      return std::make_tuple(ec);
  }
};

/// `async_wait`'s performer: its handler takes the error code alone.
using wait_performer = readiness_performer<false>;

/// A `null_buffers` transfer's performer: its handler takes the error code and 0 bytes.
using null_buffers_performer = readiness_performer<true>;

/// The performer of a transfer on `Buffers`: `Transfer`, or with `null_buffers` a readiness
/// wait that completes with 0 bytes.
template <class Buffers, class Transfer>
using transfer_or_wait_t =
    std::conditional_t<is_null_buffers<Buffers>(), null_buffers_performer, Transfer>;

/// A `null_buffers` receive_from: a readiness wait that resets the sender endpoint when it is
/// launched, as Asio's (no datagram is received, so it comes from nowhere).
template <class Endpoint>
struct readiness_from_performer : null_buffers_performer
{
  Endpoint* sender;

  void launched() const { *sender = Endpoint(); }
};

/// A performer that completes at once with `error` when one is set (an operation that
/// could not even start, such as a connect whose socket failed to open), else `inner`.
template <class Performer>
struct unless_failed
{
  Performer inner;
  boost::system::error_code error;

  bool perform(perform_context& c, boost::system::error_code& ec, std::size_t& bytes)
  {
    if (!error)
      return inner.perform(c, ec, bytes);
    ec = error;
    return true;
  }

  // `error` wins over the `bad_descriptor` the reactor reports for the unopened socket.
  auto results(const boost::system::error_code& ec, std::size_t bytes)
  {
    return inner.results(error ? error : ec, bytes);
  }
};

/// The error an operation has before it starts: it completes with it at once, not queued
/// behind the socket's other operations (an `async_accept` into an open socket while
/// another accept waits for a connection), as Asio's does.
template <class Performer>
boost::system::error_code error_before_start(const Performer&) noexcept
{
  return {};
}

template <class Performer>
boost::system::error_code error_before_start(const unless_failed<Performer>& p) noexcept
{
  return p.error;
}

/// Results `(ec, bytes_transferred)` shared by the data transfer performers.
struct transfer_results
{
  auto results(const boost::system::error_code& ec, std::size_t bytes) const
  {
    return std::make_tuple(ec, bytes);
  }
};

/// Asio completes a stream transfer of no bytes at once, without a system call (a datagram
/// of no bytes is a datagram).
inline bool empty_stream_transfer(bool stream, const buffer_array& a, boost::system::error_code& ec,
                                  std::size_t& bytes)
{
  if (!stream || a.total != 0)
    return false;
  ec = {};
  bytes = 0;
  return true;
}

template <class MutableBufferSequence>
struct receive_performer : transfer_results
{
  MutableBufferSequence buffers;
  socket_ops::message_flags flags;
  bool stream; // a stream reports end of file; a datagram of zero bytes is data

  bool perform(perform_context& c, boost::system::error_code& ec, std::size_t& bytes) const
  {
    buffer_array a(buffers);
    if (empty_stream_transfer(stream, a, ec, bytes))
      return true;
    if (!c.nothing_to_read)
    {
      bytes = socket_ops::recv(c.socket, a.bufs, a.count, flags, ec,
                               c.want_drained ? &c.drained : nullptr);
      if (!socket_ops::would_block(ec))
      {
        if (!ec && bytes == 0 && stream)
          ec = boost::asio::error::eof;
        return true;
      }
    }
    if (c.overlapped && stream)
      c.issued = c.overlapped->receive(a.bufs, a.count, flags);
    return false;
  }
};

template <class ConstBufferSequence>
struct send_performer : transfer_results
{
  ConstBufferSequence buffers;
  socket_ops::message_flags flags;
  bool stream;

  bool perform(perform_context& c, boost::system::error_code& ec, std::size_t& bytes) const
  {
    buffer_array a(buffers);
    if (empty_stream_transfer(stream, a, ec, bytes))
      return true;
    if (c.overlapped && stream && (c.issued = c.overlapped->send(a.bufs, a.count, flags)))
      return false;
    bytes = socket_ops::send(c.socket, a.bufs, a.count, flags, ec);
    return !socket_ops::would_block(ec);
  }
};

template <class MutableBufferSequence, class Endpoint>
struct receive_from_performer : transfer_results
{
  MutableBufferSequence buffers;
  Endpoint* sender;
  socket_ops::message_flags flags;

  bool perform(perform_context& c, boost::system::error_code& ec, std::size_t& bytes) const
  {
    buffer_array a(buffers);
    std::size_t len = sender->capacity();
    bytes = socket_ops::recvfrom(c.socket, a.bufs, a.count, flags, sender->data(), len, ec);
    if (socket_ops::would_block(ec))
      return false;
    if (!ec)
      sender->resize(len);
    return true;
  }
};

/// The performer of a receive_from on `Buffers`: the transfer, or with `null_buffers` the
/// readiness wait that resets the sender.
template <class Buffers, class Endpoint>
using receive_from_or_wait_t =
    std::conditional_t<is_null_buffers<Buffers>(), readiness_from_performer<Endpoint>,
                       receive_from_performer<Buffers, Endpoint>>;

template <class ConstBufferSequence, class Endpoint>
struct send_to_performer : transfer_results
{
  ConstBufferSequence buffers;
  Endpoint destination;
  socket_ops::message_flags flags;

  bool perform(perform_context& c, boost::system::error_code& ec, std::size_t& bytes) const
  {
    buffer_array a(buffers);
    bytes = socket_ops::sendto(c.socket, a.bufs, a.count, flags, destination.data(),
                               destination.size(), ec);
    return !socket_ops::would_block(ec);
  }
};

/// Starts the connect on its first attempt, then waits for writability and reads SO_ERROR.
template <class Endpoint>
struct connect_performer
{
  Endpoint peer;
  bool started = false;

  bool perform(perform_context& c, boost::system::error_code& ec, std::size_t&)
  {
    if (!started)
    {
      started = true;
      socket_ops::connect(c.socket, peer.data(), peer.size(), ec);
      return !socket_ops::would_block(ec);
    }
    ec = {}; // forget the first attempt's would_block
    if (!c.from_packet && !socket_ops::poll(c.socket, socket_ops::wait_for::write, 0, ec) && !ec)
      return false;
    if (!ec)
      socket_ops::connect_result(c.socket, ec);
    return true;
  }

  auto results(const boost::system::error_code& ec, std::size_t) const
  {
    return std::make_tuple(ec);
  }
};

/// Accepts one connection. `Finish` turns the accepted handle into the handler's
/// arguments: it assigns it to a socket given by the caller, or creates a new one.
template <class Endpoint, class Finish>
struct accept_performer
{
  Endpoint* peer_endpoint; // may be null
  Finish finish;
  // The acceptor's enable_connection_aborted when the operation started (Asio's accept
  // operation keeps the acceptor's state the same way).
  bool report_aborted;
  native_socket_type accepted = socket_ops::invalid_socket;

  bool perform(perform_context& c, boost::system::error_code& ec, std::size_t&)
  {
    for (;;)
    {
      Endpoint ep;
      std::size_t len = ep.capacity();
      accepted = socket_ops::accept(c.socket, ep.data(), &len, ec);
      // A connection aborted before it was accepted is not the acceptor's error (Asio
      // hides it too unless enable_connection_aborted is set): try the next one.
      if (socket_ops::accept_next_instead(ec, report_aborted))
        continue;
      if (socket_ops::would_block(ec))
        return false;
      if (!ec && peer_endpoint)
      {
        ep.resize(len);
        *peer_endpoint = ep;
      }
      return true;
    }
  }

  auto results(boost::system::error_code ec, std::size_t)
  {
    native_socket_type s = accepted;
    accepted = socket_ops::invalid_socket;
    return finish(ec, s);
  }

  accept_performer(Endpoint* ep, Finish f, bool report_aborted_connections)
      : peer_endpoint(ep), finish(std::move(f)), report_aborted(report_aborted_connections)
  {
  }
  accept_performer(accept_performer&& o) noexcept
      : peer_endpoint(o.peer_endpoint), finish(std::move(o.finish)),
        report_aborted(o.report_aborted), accepted(o.accepted)
  {
    o.accepted = socket_ops::invalid_socket;
  }
  accept_performer& operator=(accept_performer&&) = delete;
  ~accept_performer()
  {
    if (accepted != socket_ops::invalid_socket) // never handed to a socket: do not leak it
    {
      boost::system::error_code ignored;
      socket_ops::close(accepted, ignored);
    }
  }
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
