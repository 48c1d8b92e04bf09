//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The machinery of async_wait on Asio's own sockets (async_wait.hpp). On Windows the wait is
// an AFD poll issued on the socket's own handle, which Asio associated with the io_context's
// completion port, so that run() completes it: no select() thread. Elsewhere, and where
// this Boost's io_context is not of the shape the library checks, it is the socket's own
// async_wait. Why and how: doc/windows.md, "Asio's own sockets".
#ifndef BOOST_ASIO_NOTIFY_DETAIL_SOCKET_WAIT_HPP
#define BOOST_ASIO_NOTIFY_DETAIL_SOCKET_WAIT_HPP

#include <boost/asio_notify/detail/config.hpp>

#include <boost/asio/basic_socket.hpp>
#include <boost/asio/socket_base.hpp>
#include <boost/system/error_code.hpp>

#if defined(BOOST_ASIO_HAS_IOCP)
#include <boost/asio_notify/detail/op_completion.hpp>
#include <boost/asio_notify/detail/op_work.hpp>
#include <boost/asio_notify/detail/performers.hpp>

#include <boost/asio/associated_allocator.hpp>
#include <boost/asio/associated_cancellation_slot.hpp>
#include <boost/asio/cancellation_type.hpp>
#include <boost/asio/execution/context.hpp>
#include <boost/asio/execution_context.hpp>
#include <boost/asio/query.hpp>
#include <boost/asio/recycling_allocator.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#endif

#include <type_traits>
#include <utility>

namespace boost {
namespace asio_notify {
namespace detail {

#if defined(BOOST_ASIO_HAS_IOCP)

/// Room in a wait operation for the library's poll (checked in src/drivers/win/socket_wait.cpp).
constexpr std::size_t socket_poll_room = 176;

/** The part of a wait operation the library's compiled poll knows: room for the poll, and
    the function it completes the operation with, in run() (an error code) or in the
    io_context's shutdown (none: the operation is destroyed with its handler unrun). */
class socket_wait_base
{
public:
  using complete_fn = void (*)(socket_wait_base*, const boost::system::error_code*);

  explicit socket_wait_base(complete_fn f) noexcept : complete_(f) {}
  socket_wait_base(const socket_wait_base&) = delete;
  socket_wait_base& operator=(const socket_wait_base&) = delete;

  void complete(const boost::system::error_code& ec) { complete_(this, &ec); }
  void discard() noexcept { complete_(this, nullptr); }

  alignas(std::max_align_t) unsigned char poll_room[socket_poll_room];

protected:
  ~socket_wait_base() = default;

private:
  complete_fn complete_;
};

/// Whether waits on Asio's sockets can poll on their context's completion port: this Boost's
/// scheduler has the shape the library was built against, and the system has AFD polling.
BOOST_ASIO_NOTIFY_DECL bool socket_waits_poll_port() noexcept;

/** Polls `socket` (open, of a context whose completion port Asio runs) for `w`. The
    operation completes through the port, a failure to start included; the result is the
    key `cancel_socket_wait` takes. Throws only what `use_service` throws. */
BOOST_ASIO_NOTIFY_DECL void* start_socket_wait(boost::asio::execution_context& context,
                                               std::uintptr_t socket,
                                               boost::asio::socket_base::wait_type w,
                                               socket_wait_base& op);

/// Asks the poll `key` on `socket` to complete now (operation_aborted). A key whose poll has
/// completed already matches nothing.
BOOST_ASIO_NOTIFY_DECL void cancel_socket_wait(std::uintptr_t socket, void* key) noexcept;

/// Installed in a handler's cancellation slot: cancels its poll by key, as Asio's own IOCP
/// operations cancel theirs by OVERLAPPED.
class socket_wait_canceller
{
public:
  explicit socket_wait_canceller(std::uintptr_t socket) noexcept : socket_(socket) {}

  void operator()(boost::asio::cancellation_type_t type) const noexcept
  {
    using ct = boost::asio::cancellation_type;
    if ((type & (ct::terminal | ct::partial | ct::total)) != ct::none && key_)
      cancel_socket_wait(socket_, key_);
  }

  void* key_ = nullptr;

private:
  std::uintptr_t socket_;
};

/// A wait on one of Asio's sockets: its handler and the work it keeps (op_work), allocated
/// with the handler's associated allocator, freed before the handler runs.
template <class Handler, class IoExecutor>
class socket_wait_op final : public socket_wait_base
{
public:
  using allocator_type = typename std::allocator_traits<boost::asio::associated_allocator_t<
      Handler, boost::asio::recycling_allocator<void>>>::template rebind_alloc<socket_wait_op>;

  /// Allocates the operation, hooks it to the handler's cancellation slot and starts its
  /// poll.
  static void start(Handler&& h, const IoExecutor& io, std::uintptr_t socket,
                    boost::asio::socket_base::wait_type w)
  {
    auto slot = boost::asio::get_associated_cancellation_slot(h);
    allocator_type alloc(allocator_of(h));
    socket_wait_op* mem = std::allocator_traits<allocator_type>::allocate(alloc, 1);
    socket_wait_op* op;
    try
    {
      op = new (mem) socket_wait_op(std::move(h), io);
    }
    catch (...)
    {
      std::allocator_traits<allocator_type>::deallocate(alloc, mem, 1);
      throw;
    }
    socket_wait_canceller* canceller = nullptr;
    try
    {
      if (slot.is_connected())
        canceller = &slot.template emplace<socket_wait_canceller>(socket);
      void* key = start_socket_wait(boost::asio::query(io, boost::asio::execution::context), socket,
                                    w, *op);
      if (canceller)
        canceller->key_ = key;
    }
    catch (...) // nothing started: the operation goes, its handler unrun
    {
      if (canceller)
        slot.clear();
      op->discard();
      throw;
    }
  }

private:
  socket_wait_op(Handler&& h, const IoExecutor& io)
      : socket_wait_base(&do_complete), work_(h, io), handler_(std::move(h))
  {
  }

  static allocator_type allocator_of(const Handler& h) noexcept
  {
    return allocator_type(
        boost::asio::get_associated_allocator(h, boost::asio::recycling_allocator<void>()));
  }

  // In run(), the operation is freed, then its handler dispatched on its executor, as Asio
  // completes its own; in the shutdown (no `ec`), it is freed with its handler unrun.
  static void do_complete(socket_wait_base* base, const boost::system::error_code* ec)
  {
    auto* op = static_cast<socket_wait_op*>(base);
    op_work<Handler, IoExecutor> work(std::move(op->work_));
    handler_completion<Handler, wait_performer> c(std::move(op->handler_), wait_performer{},
                                                  ec ? *ec : boost::system::error_code(), 0);
    allocator_type alloc(allocator_of(c.handler()));
    op->~socket_wait_op();
    std::allocator_traits<allocator_type>::deallocate(alloc, op, 1);
    if (ec)
      work.schedule(std::move(c), completion_mode::dispatch);
  }

  op_work<Handler, IoExecutor> work_;
  Handler handler_;
};

#endif

/// async_wait's initiation: the poll on the io_context's port where it can run, else the
/// socket's own async_wait (which also reports a closed socket, `bad_descriptor`).
struct initiate_socket_wait
{
  template <class Handler, class Protocol, class Executor>
  void operator()(Handler&& handler, boost::asio::basic_socket<Protocol, Executor>* socket,
                  boost::asio::socket_base::wait_type w) const
  {
#if defined(BOOST_ASIO_HAS_IOCP)
    if (socket->is_open() && socket_waits_poll_port())
    {
      std::decay_t<Handler> h(std::forward<Handler>(handler));
      return socket_wait_op<std::decay_t<Handler>, Executor>::start(
          std::move(h), socket->get_executor(),
          static_cast<std::uintptr_t>(socket->native_handle()), w);
    }
#endif
    socket->async_wait(w, std::forward<Handler>(handler));
  }
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
