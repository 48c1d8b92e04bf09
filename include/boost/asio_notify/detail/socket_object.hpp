//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What sockets and acceptors share: ownership of a native socket registered with the
// notify reactor of the executor's context, and the members Asio gives both.
#ifndef BOOST_ASIO_NOTIFY_DETAIL_SOCKET_OBJECT_HPP
#define BOOST_ASIO_NOTIFY_DETAIL_SOCKET_OBJECT_HPP

#include <boost/asio_notify/detail/handler_op.hpp>
#include <boost/asio_notify/detail/reactor_core.hpp>
#include <boost/asio_notify/detail/socket_ops.hpp>
#include <boost/asio_notify/reactor.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/execution/context.hpp>
#include <boost/asio/execution_context.hpp>
#include <boost/asio/query.hpp>
#include <boost/asio/socket_base.hpp>
#include <boost/system/system_error.hpp>
#include <boost/throw_exception.hpp>

#include <cstring>
#include <optional>
#include <type_traits>
#include <utility>

namespace boost {
namespace asio_notify {
namespace detail {

/// Throw `system_error` for a failed throwing overload.
inline void throw_if(const boost::system::error_code& ec, const char* what)
{
  if (ec)
    boost::throw_exception(boost::system::system_error(ec, what));
}

/// The reactor core serving an executor's execution context (created on first use).
template <class Executor>
reactor_core& core_for(const Executor& ex)
{
  boost::asio::execution_context& ctx = boost::asio::query(ex, boost::asio::execution::context);
  reactor_core& core = boost::asio::use_service<reactor>(ctx).core();
  core.attach(boost::asio::any_io_executor(ex));
  return core;
}

/// Maps Asio's wait types onto the poll condition.
inline socket_ops::wait_for condition_for(boost::asio::socket_base::wait_type w)
{
  return w == boost::asio::socket_base::wait_read    ? socket_ops::wait_for::read
         : w == boost::asio::socket_base::wait_write ? socket_ops::wait_for::write
                                                     : socket_ops::wait_for::error;
}

/// The reactor's queue of the operations that wait for a condition: an error condition
/// (and out-of-band data) is Asio's except queue.
inline op_type queue_for(socket_ops::wait_for w)
{
  return w == socket_ops::wait_for::read    ? read_op
         : w == socket_ops::wait_for::write ? write_op
                                            : except_op;
}

/// What a socket object keeps of its own (Asio's rule: one thread at a time uses it),
/// beside the opaque handle of the reactor's state of the socket.
struct socket_object_state
{
  native_socket_type socket = socket_ops::invalid_socket;
  bool user_non_blocking = false;     // non_blocking(): synchronous calls never wait
  bool internal_non_blocking = false; // native_non_blocking(): set for async operations
  bool user_set_linger = false;       // set_option(linger): the destructor turns it off
  // socket_base::enable_connection_aborted: whether accept reports connection_aborted
  // (and EPROTO) instead of waiting for the next connection. Asio keeps it in the
  // socket's state bits, never in the kernel.
  bool enable_connection_aborted = false;
};

/** The common part of `basic_socket` and `basic_socket_acceptor`. Every member with an
    `error_code&` parameter reports failure there (and, as Asio's, returns it where Asio
    declares `BOOST_ASIO_SYNC_OP_VOID`: `error_code`, or `void` with
    `BOOST_ASIO_NO_DEPRECATED`); the other overload throws `boost::system::system_error`. */
template <class Protocol, class Executor>
class socket_object : public boost::asio::socket_base
{
public:
  /// The type of the executor associated with the object.
  using executor_type = Executor;
  /// The protocol type.
  using protocol_type = Protocol;
  /// The endpoint type.
  using endpoint_type = typename Protocol::endpoint;
  /// The native representation of a socket.
  using native_handle_type = native_socket_type;

protected:
  /// Starts an operation for `async_initiate`: its executor is the I/O executor (for tokens
  /// such as `deferred`), its call queues the performer with the handler.
  class initiation
  {
  public:
    using executor_type = Executor;
    explicit initiation(socket_object* self) noexcept : self_(self) {}
    executor_type get_executor() const noexcept { return self_->executor_; }

    template <class Handler, class Performer>
    void operator()(Handler&& handler, op_type type, Performer perf) const
    {
      boost::system::error_code not_ready = error_before_start(perf);
      if (!not_ready)
        not_ready = self_->enter_async_mode();
      start_operation(*self_->core_, self_->state_, type, std::forward<Handler>(handler),
                      self_->executor_, std::move(perf), not_ready);
    }

  private:
    socket_object* self_;
  };

  /** What an initiating function returns for `Token` and `Signature`: the type of
      `async_initiate` (void for a handler, a future for `use_future`, ...). Each initiating
      function names it in its declaration, as Asio does, so the type is known without
      instantiating the function body. */
  template <class Token, class Signature, class Performer>
  using initiate_result_t = decltype(boost::asio::async_initiate<Token, Signature>(
      std::declval<initiation>(), std::declval<Token&>(), std::declval<op_type>(),
      std::declval<Performer>()));

public:
  /// Get the executor associated with the object.
  executor_type get_executor() const noexcept { return executor_; }

  /// Open the socket using the specified protocol.
  void open(const protocol_type& protocol = protocol_type())
  {
    boost::system::error_code ec;
    open(protocol, ec);
    throw_if(ec, "open");
  }

  /// Open the socket using the specified protocol.
  BOOST_ASIO_SYNC_OP_VOID open(const protocol_type& protocol, boost::system::error_code& ec)
  {
    if (is_open())
    {
      ec = boost::asio::error::already_open;
      BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
    }
    const native_socket_type s =
        socket_ops::open(protocol.family(), protocol.type(), protocol.protocol(), ec);
    if (!ec)
      adopt(protocol, s);
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /// Assign an existing native socket to the object.
  void assign(const protocol_type& protocol, const native_handle_type& native)
  {
    boost::system::error_code ec;
    assign(protocol, native, ec);
    throw_if(ec, "assign");
  }

  /// Assign an existing native socket to the object; it must be an open socket.
  BOOST_ASIO_SYNC_OP_VOID assign(const protocol_type& protocol, const native_handle_type& native,
                                 boost::system::error_code& ec)
  {
    if (is_open())
    {
      ec = boost::asio::error::already_open;
      BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
    }
    socket_ops::check_socket(native, ec);
    if (!ec)
      adopt(protocol, native);
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /// Determine whether the socket is open.
  bool is_open() const noexcept { return state_ != nullptr; }

  /// Close the socket: pending asynchronous operations complete with `operation_aborted`.
  void close()
  {
    boost::system::error_code ec;
    close(ec);
    throw_if(ec, "close");
  }

  /// Close the socket: pending asynchronous operations complete with `operation_aborted`.
  BOOST_ASIO_SYNC_OP_VOID close(boost::system::error_code& ec)
  {
    core_->close(state_, ec);
    own_ = socket_object_state();
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /// Release ownership of the native socket, which stays open; pending asynchronous
  /// operations complete with `operation_aborted`.
  native_handle_type release()
  {
    boost::system::error_code ec;
    native_handle_type s = release(ec);
    throw_if(ec, "release");
    return s;
  }

  /// Release ownership of the native socket, which stays open.
  native_handle_type release(boost::system::error_code& ec)
  {
    const native_handle_type s = core_->release(state_, ec);
    own_ = socket_object_state();
    return s;
  }

  /// Get the native socket representation (invalid when closed).
  native_handle_type native_handle() const noexcept { return own_.socket; }

  /// Cancel all asynchronous operations: they complete with `operation_aborted`.
  void cancel()
  {
    boost::system::error_code ec;
    cancel(ec);
    throw_if(ec, "cancel");
  }

  /// Cancel all asynchronous operations: they complete with `operation_aborted`.
  BOOST_ASIO_SYNC_OP_VOID cancel(boost::system::error_code& ec)
  {
    if (!open_or_fail(ec))
      BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
    core_->cancel(*state_);
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /// Bind the socket to the given local endpoint.
  void bind(const endpoint_type& endpoint)
  {
    boost::system::error_code ec;
    bind(endpoint, ec);
    throw_if(ec, "bind");
  }

  /// Bind the socket to the given local endpoint.
  BOOST_ASIO_SYNC_OP_VOID bind(const endpoint_type& endpoint, boost::system::error_code& ec)
  {
    if (open_or_fail(ec))
      socket_ops::bind(own_.socket, endpoint.data(), endpoint.size(), ec);
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /// Set an option on the socket.
  template <class SettableSocketOption>
  void set_option(const SettableSocketOption& option)
  {
    boost::system::error_code ec;
    set_option(option, ec);
    throw_if(ec, "set_option");
  }

  /// Set an option on the socket. `enable_connection_aborted` is the library's, as in Asio:
  /// it is kept by the object and never reaches the system.
  template <class SettableSocketOption>
  BOOST_ASIO_SYNC_OP_VOID set_option(const SettableSocketOption& option,
                                     boost::system::error_code& ec)
  {
    if (!open_or_fail(ec))
      BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
    const protocol_type& protocol = *protocol_;
    if (!is_option<enable_connection_aborted>(option))
    {
      socket_ops::set_option(own_.socket, option.level(protocol), option.name(protocol),
                             option.data(protocol), option.size(protocol), ec);
      if (!ec && is_option<linger>(option))
        own_.user_set_linger = true;
    }
    else if (option.size(protocol) != sizeof(int))
      ec = boost::asio::error::invalid_argument;
    else
    {
      int value; // the option's int, whatever pointer type data() returns
      std::memcpy(&value, option.data(protocol), sizeof(value));
      own_.enable_connection_aborted = value != 0;
    }
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /// Get an option from the socket.
  template <class GettableSocketOption>
  void get_option(GettableSocketOption& option) const
  {
    boost::system::error_code ec;
    get_option(option, ec);
    throw_if(ec, "get_option");
  }

  /// Get an option from the socket (`enable_connection_aborted` from the object).
  template <class GettableSocketOption>
  BOOST_ASIO_SYNC_OP_VOID get_option(GettableSocketOption& option,
                                     boost::system::error_code& ec) const
  {
    if (!open_or_fail(ec))
      BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
    const protocol_type& protocol = *protocol_;
    std::size_t size = option.size(protocol);
    if (!is_option<enable_connection_aborted>(option))
      socket_ops::get_option(own_.socket, option.level(protocol), option.name(protocol),
                             option.data(protocol), size, ec);
    else if (size != sizeof(int))
      ec = boost::asio::error::invalid_argument;
    else
    {
      const int value = own_.enable_connection_aborted ? 1 : 0;
      std::memcpy(option.data(protocol), &value, sizeof(value));
    }
    if (!ec)
      option.resize(protocol, size);
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /// Perform an IO control command on the socket.
  template <class IoControlCommand>
  void io_control(IoControlCommand& command)
  {
    boost::system::error_code ec;
    io_control(command, ec);
    throw_if(ec, "io_control");
  }

  /// Perform an IO control command on the socket. A `FIONBIO` command is taken as
  /// `non_blocking(mode)`, as Asio takes it.
  template <class IoControlCommand>
  BOOST_ASIO_SYNC_OP_VOID io_control(IoControlCommand& command, boost::system::error_code& ec)
  {
    if (!open_or_fail(ec))
      BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
    const long name = static_cast<long>(command.name());
    socket_ops::io_control(own_.socket, name, command.data(), ec);
    bool mode = false;
    if (!ec && socket_ops::sets_non_blocking(name, command.data(), mode))
      record_user_non_blocking(mode);
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /// Whether synchronous operations fail with `would_block` instead of waiting.
  bool non_blocking() const { return own_.user_non_blocking; }

  /// Make synchronous operations fail with `would_block` instead of waiting.
  void non_blocking(bool mode)
  {
    boost::system::error_code ec;
    non_blocking(mode, ec);
    throw_if(ec, "non_blocking");
  }

  /// Set whether synchronous operations fail with `would_block` instead of waiting. As
  /// Asio's, the descriptor's own mode follows (`false` puts it back in blocking mode), and
  /// asynchronous operations started afterwards make it non-blocking again.
  BOOST_ASIO_SYNC_OP_VOID non_blocking(bool mode, boost::system::error_code& ec)
  {
    if (!open_or_fail(ec))
      BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
    socket_ops::set_non_blocking(own_.socket, mode, ec);
    if (!ec)
      record_user_non_blocking(mode);
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /// Whether the native socket was put in non-blocking mode for asynchronous operations or
  /// by `native_non_blocking(true)`. As Asio's, this does not count `non_blocking(true)`,
  /// which also makes the descriptor non-blocking.
  bool native_non_blocking() const { return own_.internal_non_blocking; }

  /// Set the native socket's non-blocking mode (asynchronous operations set it again).
  void native_non_blocking(bool mode)
  {
    boost::system::error_code ec;
    native_non_blocking(mode, ec);
    throw_if(ec, "native_non_blocking");
  }

  /// Set the native socket's non-blocking mode (asynchronous operations set it again).
  BOOST_ASIO_SYNC_OP_VOID native_non_blocking(bool mode, boost::system::error_code& ec)
  {
    if (!open_or_fail(ec))
      BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
    if (!mode && own_.user_non_blocking)
    {
      ec = boost::asio::error::invalid_argument; // as Asio: contradicts non_blocking(true)
      BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
    }
    socket_ops::set_non_blocking(own_.socket, mode, ec);
    if (!ec)
      own_.internal_non_blocking = mode;
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /// Get the local endpoint of the socket.
  endpoint_type local_endpoint() const
  {
    boost::system::error_code ec;
    endpoint_type ep = local_endpoint(ec);
    throw_if(ec, "local_endpoint");
    return ep;
  }

  /// Get the local endpoint of the socket.
  endpoint_type local_endpoint(boost::system::error_code& ec) const
  {
    endpoint_type ep;
    if (!open_or_fail(ec))
      return ep;
    std::size_t len = ep.capacity();
    socket_ops::local_address(own_.socket, ep.data(), len, ec);
    if (ec)
      return endpoint_type();
    ep.resize(len);
    return ep;
  }

  /// Wait, blocking, until the socket is ready to read, write, or has an error condition.
  void wait(wait_type w)
  {
    boost::system::error_code ec;
    wait(w, ec);
    throw_if(ec, "wait");
  }

  /// Wait, blocking, until the socket is ready to read, write, or has an error condition.
  /// In `non_blocking(true)` mode it only looks, as Asio's: `would_block` if not ready.
  BOOST_ASIO_SYNC_OP_VOID wait(wait_type w, boost::system::error_code& ec)
  {
    wait_ready(condition_for(w), ec);
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /// Start an asynchronous wait for readiness; the handler is `void(error_code)`.
  template <BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code))
                WaitToken = boost::asio::default_completion_token_t<executor_type>>
  auto async_wait(wait_type w,
                  WaitToken&& token = boost::asio::default_completion_token_t<executor_type>())
      -> initiate_result_t<WaitToken, void(boost::system::error_code), wait_performer<false>>
  {
    return this->template initiate<void(boost::system::error_code)>(
        std::forward<WaitToken>(token), queue_for(condition_for(w)),
        wait_performer<false>{condition_for(w)});
  }

protected:
  explicit socket_object(const executor_type& ex) : executor_(ex), core_(&core_for(ex)) {}

  socket_object(socket_object&& other) noexcept
      : executor_(other.executor_), core_(other.core_), protocol_(other.protocol_),
        state_(std::exchange(other.state_, nullptr)),
        own_(std::exchange(other.own_, socket_object_state()))
  {
  }

  /// Takes over an object of another executor type, or of another protocol convertible to
  /// this one (a TCP socket into a generic stream socket, say). The protocol is converted
  /// before the socket is taken: a conversion that throws (Asio's generic protocols throw
  /// `std::bad_cast` for another socket type) leaves `other` as it was.
  template <class Protocol1, class Executor1>
  socket_object(socket_object<Protocol1, Executor1>&& other)
      : executor_(other.get_executor()), core_(other.core_), protocol_(other.protocol_),
        state_(std::exchange(other.state_, nullptr)),
        own_(std::exchange(other.own_, socket_object_state()))
  {
  }

  socket_object& operator=(socket_object&& other) noexcept
  {
    if (this != &other)
    {
      close_as_destroyed();
      executor_ = other.executor_;
      core_ = other.core_;
      protocol_ = other.protocol_;
      state_ = std::exchange(other.state_, nullptr);
      own_ = std::exchange(other.own_, socket_object_state());
    }
    return *this;
  }

  /// Closes the socket without lingering, as Asio's destructor does: a `linger` the user set
  /// is turned off first, so destruction neither blocks nor resets the connection (an
  /// explicit `close()` honours it).
  ~socket_object() { close_as_destroyed(); }

  /// Closes the socket as Asio closes one it destroys or overwrites by a move: a linger the
  /// user set is turned off first, so that the close neither blocks nor resets the
  /// connection; errors are ignored.
  void close_as_destroyed() noexcept
  {
    boost::system::error_code ignored;
    if (state_ && own_.user_set_linger)
    {
      const linger off(false, 0);
      const protocol_type& protocol = *protocol_;
      socket_ops::set_option(own_.socket, off.level(protocol), off.name(protocol),
                             off.data(protocol), off.size(protocol), ignored);
    }
    core_->close(state_, ignored);
    own_ = socket_object_state();
  }

  /// True when open; otherwise sets `bad_descriptor`.
  bool open_or_fail(boost::system::error_code& ec) const
  {
    ec = state_ ? boost::system::error_code() : boost::asio::error::bad_descriptor;
    return state_ != nullptr;
  }

  void adopt(const protocol_type& protocol, native_socket_type s)
  {
    protocol_ = protocol;
    state_ = core_->adopt(s);
    own_ = socket_object_state(); // a new socket starts with Asio's defaults
    own_.socket = s;
  }

  /// Records the mode `non_blocking(mode)` (or a `FIONBIO` io control) gave the descriptor,
  /// as Asio's state bits do: `false` also clears the mode asynchronous operations set, and
  /// they set it again when they need it.
  void record_user_non_blocking(bool mode)
  {
    own_.user_non_blocking = mode;
    if (!mode)
      own_.internal_non_blocking = false;
  }

  /// Whether the descriptor is in non-blocking mode, by `non_blocking(true)` or for
  /// asynchronous operations.
  bool descriptor_non_blocking() const noexcept
  {
    return own_.user_non_blocking || own_.internal_non_blocking;
  }

  /// Makes the descriptor non-blocking for an asynchronous operation, as Asio's operations
  /// do, where `non_blocking(true)` or an earlier operation has not; called when an
  /// operation is launched. What fails is the operation's error.
  boost::system::error_code enter_async_mode()
  {
    boost::system::error_code ec;
    if (state_ && !descriptor_non_blocking())
    {
      socket_ops::set_non_blocking(own_.socket, true, ec);
      own_.internal_non_blocking = !ec;
    }
    return ec;
  }

  /// A synchronous readiness wait, as Asio's `wait` and its synchronous `null_buffers`
  /// forms do it: wait until the socket is ready, or in `non_blocking(true)` mode only look,
  /// and report `would_block` if it is not. Transfers nothing: returns 0.
  std::size_t wait_ready(socket_ops::wait_for w, boost::system::error_code& ec)
  {
    if (!open_or_fail(ec))
      return 0;
    const bool look_only = own_.user_non_blocking;
    if (!socket_ops::poll(own_.socket, w, look_only ? 0 : -1, ec) && !ec)
      ec = boost::asio::error::would_block;
    return 0;
  }

  /// Whether `option` is Asio's option `Known`, told by its level and name (for
  /// `enable_connection_aborted` an Asio-private pair), compared through the option types'
  /// public members.
  template <class Known, class Option>
  bool is_option(const Option& option) const
  {
    const Known known;
    const protocol_type& protocol = *protocol_; // the object is open
    return option.level(protocol) == known.level(protocol) &&
           option.name(protocol) == known.name(protocol);
  }

  /// The shape of every asynchronous operation: `async_initiate` with `initiation`,
  /// starting `perf`. Every argument is passed as an rvalue, as `initiate_result_t` names
  /// it: Boost 1.81's `deferred` puts the arguments' value categories in its result type.
  template <class Signature, class Token, class Performer>
  auto initiate(Token&& token, op_type type, Performer perf)
      -> initiate_result_t<Token, Signature, Performer>
  {
    return boost::asio::async_initiate<Token, Signature>(initiation(this), token, std::move(type),
                                                         std::move(perf));
  }

  /// Run a synchronous operation: try, and while it would block (and the user did not
  /// ask for non-blocking behaviour) wait for readiness and try again.
  template <class Attempt>
  std::size_t sync_io(socket_ops::wait_for w, boost::system::error_code& ec, Attempt attempt)
  {
    if (!open_or_fail(ec))
      return 0;
    for (;;)
    {
      const std::size_t n = attempt(own_.socket, ec);
      if (!socket_ops::would_block(ec) || own_.user_non_blocking)
        return n;
      if (!socket_ops::poll(own_.socket, w, -1, ec) && ec)
        return 0;
    }
  }

  /// One attempt of a synchronous receive. Where the descriptor is non-blocking it goes
  /// through the reactor, which remembers whether it emptied the receive queue (Linux):
  /// the `async_wait` a reactor-style program starts next then costs no `poll`.
  std::size_t receive_attempt(socket_ops::native_buffer* bufs, std::size_t count,
                              socket_ops::message_flags flags, boost::system::error_code& ec)
  {
    if (descriptor_non_blocking())
      return core_->receive_now(*state_, bufs, count, flags, ec);
    return socket_ops::recv(own_.socket, bufs, count, flags, ec);
  }

  template <class, class>
  friend class socket_object;

  executor_type executor_;
  reactor_core* core_;
  // The protocol the socket was opened with, kept from then on: a closed object needs no
  // protocol object (generic protocols have neither a default nor a v4()).
  std::optional<protocol_type> protocol_;
  // The reactor's state of the socket, opaque here (src/socket_state.hpp): the handle the
  // reactor's calls take; null while closed.
  socket_state* state_ = nullptr;

  socket_object_state own_;
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
