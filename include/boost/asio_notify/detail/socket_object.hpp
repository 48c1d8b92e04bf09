//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// socket_object, one class in one file: what sockets and acceptors share, ownership of a
// native socket registered with the notify reactor of the executor's context and the
// members Asio gives both, each with its documentation.
#ifndef BOOST_ASIO_NOTIFY_DETAIL_SOCKET_OBJECT_HPP
#define BOOST_ASIO_NOTIFY_DETAIL_SOCKET_OBJECT_HPP

#include <boost/asio_notify/detail/handler_op.hpp>
#include <boost/asio_notify/detail/io_object_traits.hpp>
#include <boost/asio_notify/detail/reactor_core.hpp>
#include <boost/asio_notify/detail/socket_ops.hpp>
#include <boost/asio_notify/reactor.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/execution/context.hpp>
#include <boost/asio/execution_context.hpp>
#include <boost/asio/query.hpp>
#include <boost/asio/socket_base.hpp>
#include <boost/config.hpp>
#include <boost/system/system_error.hpp>

#include <cstring>
#include <optional>
#include <type_traits>
#include <utility>

namespace boost {
namespace asio_notify {
namespace detail {

/// @cond

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
struct native_socket_state
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

/// @endcond

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

  /** Construct a closed socket or acceptor whose operations use `ex`.

      The first object of an execution context creates its `reactor`, with options from the
      environment (`reactor_options_from_environment`), unless the program made it first.

      @param ex The I/O executor: of an `io_context` (or a strand of one), a `thread_pool`,
      or any executor whose `execution::context` query gives the execution context.

      @throws boost::system::system_error Thrown when the reactor cannot be created (for
      example `invalid_argument` for a bad `BOOST_ASIO_NOTIFY_REACTOR` value). */
  explicit socket_object(const executor_type& ex) : executor_(ex), core_(&core_for(ex)) {}

  /** Construct a closed object on `context.get_executor()`, as from an executor.

      @param context The execution context, such as a `boost::asio::io_context`. */
  template <class ExecutionContext, class = if_context_t<ExecutionContext>>
  explicit socket_object(ExecutionContext& context) : socket_object(context.get_executor())
  {
  }

  /** Construct an object and open it with `protocol` (an acceptor is not bound or
      listening yet).

      @param ex The I/O executor.
      @param protocol The protocol, such as `boost::asio_notify::ip::tcp::v4()`.

      @throws boost::system::system_error Thrown when the object cannot be opened (for
      example `address_family_not_supported`) or the reactor cannot be created. */
  socket_object(const executor_type& ex, const protocol_type& protocol) : socket_object(ex)
  {
    open(protocol);
  }

  /** Construct an object on `context.get_executor()` and open it with `protocol`, as from
      an executor.

      @param context The execution context.
      @param protocol The protocol. */
  template <class ExecutionContext, class = if_context_t<ExecutionContext>>
  socket_object(ExecutionContext& context, const protocol_type& protocol)
      : socket_object(context.get_executor(), protocol)
  {
  }

  /** Construct an object that takes ownership of the open native socket `native` (see
      `assign`).

      @param ex The I/O executor.
      @param protocol The native socket's protocol.
      @param native The native socket; the object closes it.

      @throws boost::system::system_error Thrown when `native` is not an open socket
      (`bad_descriptor`, or on POSIX `not_socket` for another kind of descriptor), or the
      reactor cannot be created. */
  socket_object(const executor_type& ex, const protocol_type& protocol,
                const native_handle_type& native)
      : socket_object(ex)
  {
    assign(protocol, native);
  }

  /** Construct an object on `context.get_executor()` owning `native`, as from an executor.

      @param context The execution context.
      @param protocol The native socket's protocol.
      @param native The native socket; the object closes it. */
  template <class ExecutionContext, class = if_context_t<ExecutionContext>>
  socket_object(ExecutionContext& context, const protocol_type& protocol,
                const native_handle_type& native)
      : socket_object(context.get_executor(), protocol, native)
  {
  }

protected:
  /// The completion token of an initiating function given none, as with Asio:
  /// `boost::asio::default_completion_token_t<executor_type>`.
  using default_token_type = boost::asio::default_completion_token_t<Executor>;

  /// @cond
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
      boost::system::error_code start_error = error_before_start(perf);
      if (!start_error)
        start_error = self_->enter_async_mode();
      start_operation(*self_->core_, self_->state_, type, std::forward<Handler>(handler),
                      self_->executor_, std::move(perf), start_error);
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
  /// @endcond

public:
  /** Get the executor associated with the object: the one its asynchronous operations use,
      and their handlers' unless a handler has an associated executor of its own.

      @returns A copy of the executor (by value, where Asio's returns a reference:
      doc/asio_conformance.md, C4). */
  executor_type get_executor() const noexcept { return executor_; }

  /** Open the socket with `protocol`. The native socket is created close-on-exec (on
      Windows, not inheritable).

      @param protocol The protocol, such as `boost::asio_notify::ip::tcp::v4()`; the default
      is `protocol_type()`, for protocols that have one.

      @throws boost::system::system_error Thrown on failure: `already_open` if the object is
      open, the system's error otherwise (for example `address_family_not_supported`).

      @par Example
      @code
      boost::asio_notify::ip::tcp::socket socket(ioc);
      socket.open(boost::asio_notify::ip::tcp::v4());
      @endcode */
  void open(const protocol_type& protocol = protocol_type())
  {
    or_throw("open", [&](auto& ec) { return open(protocol, ec); });
  }

  /** Open the socket with `protocol`. The native socket is created close-on-exec (on
      Windows, not inheritable).

      @param protocol The protocol, such as `boost::asio_notify::ip::tcp::v4()`.
      @param ec Set on failure: `already_open` if the object is open, `no_memory` if the
      reactor cannot track another socket (the new socket is closed), the system's error
      otherwise (for example `address_family_not_supported`). */
  BOOST_ASIO_SYNC_OP_VOID open(const protocol_type& protocol, boost::system::error_code& ec)
  {
    if (is_open())
    {
      ec = boost::asio::error::already_open;
      BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
    }
    const native_socket_type s =
        socket_ops::open(protocol.family(), protocol.type(), protocol.protocol(), ec);
    if (!ec && !adopt(protocol, s, ec))
    {
      boost::system::error_code ignored;
      socket_ops::close(s, ignored);
    }
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /** Take ownership of an existing native socket, which must be open; the object closes it
      from then on. Unlike Asio, which accepts any descriptor its reactor can register, only a
      socket is accepted (doc/asio_conformance.md, B8).

      @param protocol The native socket's protocol.
      @param native The native socket.

      @throws boost::system::system_error Thrown on failure: `already_open` if the object is
      open, `bad_descriptor` if `native` is not an open socket (on POSIX, `not_socket` for a
      descriptor of another kind). */
  void assign(const protocol_type& protocol, const native_handle_type& native)
  {
    or_throw("assign", [&](auto& ec) { return assign(protocol, native, ec); });
  }

  /** Take ownership of an existing native socket, which must be open; the object closes it
      from then on.

      @param protocol The native socket's protocol.
      @param native The native socket.
      @param ec Set on failure: `already_open` if the object is open, `bad_descriptor` if
      `native` is not an open socket (on POSIX, `not_socket` for a descriptor of another
      kind), `no_memory` if the reactor cannot track another socket. On failure `native`
      stays the caller's. */
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
      adopt(protocol, native, ec);
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /** Whether the object holds an open socket. */
  bool is_open() const noexcept { return state_ != nullptr; }

  /** Close the socket.

      Pending asynchronous operations complete with `operation_aborted` (their handlers are
      posted, never invoked inside `close`). The socket's registration with the reactor's port
      is removed and its state reused at once under a new generation: a late notification
      carries the old generation's key and is dropped (doc/design.md). A `linger` option
      set with `set_option` is honoured; a close that would block (Windows: a non-blocking
      socket lingering with unsent data) is retried in blocking mode, as Asio does. Closing a
      closed object does nothing and succeeds.

      For a portable graceful close of a connected socket, call `shutdown()` first.

      @throws boost::system::system_error Thrown when the system's close fails; the object
      is closed all the same. */
  void close()
  {
    or_throw("close", [&](auto& ec) { return close(ec); });
  }

  /** Close the socket: pending asynchronous operations complete with `operation_aborted`.
      See `close()`; closing a closed object does nothing and succeeds.

      @param ec Set when the system's close fails; the object is closed all the same. */
  BOOST_ASIO_SYNC_OP_VOID close(boost::system::error_code& ec)
  {
    core_->close(state_, ec);
    own_ = native_socket_state();
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /** Release ownership of the native socket and return it, still open; the object is closed
      afterwards. Pending asynchronous operations complete with `operation_aborted`, and the
      socket's registration with the reactor's port is removed. The native socket may be left
      in non-blocking mode (asynchronous operations set it). Works on every Windows version
      (Asio's needs Windows 8.1).

      @returns The native socket, which the caller now owns.

      @throws boost::system::system_error Thrown with `bad_descriptor` if the object is
      closed. */
  native_handle_type release()
  {
    return or_throw("release", [&](auto& ec) { return release(ec); });
  }

  /** Release ownership of the native socket and return it, still open; see `release()`.

      @param ec Set to `bad_descriptor` if the object is closed.
      @returns The native socket, or the invalid socket value on failure. */
  native_handle_type release(boost::system::error_code& ec)
  {
    const native_handle_type s = core_->release(state_, ec);
    own_ = native_socket_state();
    return s;
  }

  /** Get the native socket, for system calls the library does not make; the object still
      owns it.

      @returns The native socket, or the invalid socket value (-1 on POSIX, `INVALID_SOCKET`
      on Windows) when the object is closed. */
  native_handle_type native_handle() const noexcept { return own_.socket; }

  /** Cancel every asynchronous operation pending on the socket: each completes with
      `operation_aborted` (its handler posted). Operations that have finished already keep
      their results. The socket stays open.

      @throws boost::system::system_error Thrown with `bad_descriptor` if the object is
      closed. */
  void cancel()
  {
    or_throw("cancel", [&](auto& ec) { return cancel(ec); });
  }

  /** Cancel every asynchronous operation pending on the socket: each completes with
      `operation_aborted`. The socket stays open.

      @param ec Set to `bad_descriptor` if the object is closed. */
  BOOST_ASIO_SYNC_OP_VOID cancel(boost::system::error_code& ec)
  {
    if (!open_or_fail(ec))
      BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
    core_->cancel(*state_);
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /** Bind the socket to a local endpoint.

      @param endpoint The local endpoint (port 0: the system picks one, which
      `local_endpoint()` then tells).

      @throws boost::system::system_error Thrown on failure: `bad_descriptor` if the object is
      closed, the system's error otherwise (for example `address_in_use`).

      @par Example
      @code
      socket.open(boost::asio_notify::ip::udp::v4());
      socket.bind(boost::asio::ip::udp::endpoint(boost::asio::ip::udp::v4(), 0));
      @endcode */
  void bind(const endpoint_type& endpoint)
  {
    or_throw("bind", [&](auto& ec) { return bind(endpoint, ec); });
  }

  /** Bind the socket to a local endpoint.

      @param endpoint The local endpoint.
      @param ec Set on failure: `bad_descriptor` if the object is closed, the system's error
      otherwise (for example `address_in_use`). */
  BOOST_ASIO_SYNC_OP_VOID bind(const endpoint_type& endpoint, boost::system::error_code& ec)
  {
    if (open_or_fail(ec))
      socket_ops::bind(own_.socket, endpoint.data(), endpoint.size(), ec);
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /** Set a socket option: one of `boost::asio::socket_base`'s (`reuse_address`, `linger`,
      `receive_buffer_size`, ...), a protocol's (`boost::asio::ip::tcp::no_delay`,
      `boost::asio::ip::v6_only`, ...), or any type meeting Asio's SettableSocketOption.
      `socket_base::enable_connection_aborted` is kept by the object and never reaches the
      system, as in Asio.

      @param option The option and its value.

      @throws boost::system::system_error Thrown on failure: `bad_descriptor` if the object is
      closed, the system's error otherwise.

      @par Example
      @code
      socket.set_option(boost::asio::ip::tcp::no_delay(true));
      @endcode */
  template <class SettableSocketOption>
  void set_option(const SettableSocketOption& option)
  {
    or_throw("set_option", [&](auto& ec) { return set_option(option, ec); });
  }

  /** Set a socket option; see the throwing overload.

      @param option The option and its value.
      @param ec Set on failure: `bad_descriptor` if the object is closed, the system's error
      otherwise. */
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

  /** Read a socket option into `option`. On Linux the send and receive buffer sizes read
      back as set (the kernel doubles them; the value is halved, as Asio does);
      `socket_base::enable_connection_aborted` comes from the object.

      @param option The option to read; its value is set.

      @throws boost::system::system_error Thrown on failure: `bad_descriptor` if the object is
      closed, the system's error otherwise.

      @par Example
      @code
      boost::asio::socket_base::receive_buffer_size size;
      socket.get_option(size);
      int bytes = size.value();
      @endcode */
  template <class GettableSocketOption>
  void get_option(GettableSocketOption& option) const
  {
    or_throw("get_option", [&](auto& ec) { return get_option(option, ec); });
  }

  /** Read a socket option into `option`; see the throwing overload.

      @param option The option to read; its value is set on success.
      @param ec Set on failure: `bad_descriptor` if the object is closed, the system's error
      otherwise. */
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

  /** Perform an I/O control command on the socket, such as
      `boost::asio::socket_base::bytes_readable`. A `FIONBIO` command sets the mode that
      `non_blocking()` reports, as Asio takes it.

      @param command The command; its result, if any, is written into it.

      @throws boost::system::system_error Thrown on failure: `bad_descriptor` if the object is
      closed, the system's error otherwise.

      @par Example
      @code
      boost::asio::socket_base::bytes_readable command(true);
      socket.io_control(command);
      std::size_t bytes = command.get();
      @endcode */
  template <class IoControlCommand>
  void io_control(IoControlCommand& command)
  {
    or_throw("io_control", [&](auto& ec) { return io_control(command, ec); });
  }

  /** Perform an I/O control command on the socket; see the throwing overload.

      @param command The command; its result, if any, is written into it.
      @param ec Set on failure: `bad_descriptor` if the object is closed, the system's error
      otherwise. */
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

  /** Whether synchronous operations report `would_block` instead of waiting: the mode set by
      `non_blocking(true)` (or a `FIONBIO` io control). False for a closed object. */
  bool non_blocking() const { return own_.user_non_blocking; }

  /** Set whether synchronous operations (`send`, `receive`, `accept`, `wait`, ...) report
      `boost::asio::error::would_block` instead of waiting; `connect` waits all the same, as
      Asio's does. The native socket's own mode follows: `true` makes it non-blocking,
      `false` puts it back in blocking mode (asynchronous operations started later make it
      non-blocking again). Asynchronous operations are not affected.

      @param mode True for non-blocking synchronous operations.

      @throws boost::system::system_error Thrown on failure: `bad_descriptor` if the object is
      closed, the system's error otherwise. */
  void non_blocking(bool mode)
  {
    or_throw("non_blocking", [&](auto& ec) { return non_blocking(mode, ec); });
  }

  /** Set whether synchronous operations report `would_block` instead of waiting; see
      `non_blocking(bool)`.

      @param mode True for non-blocking synchronous operations.
      @param ec Set on failure: `bad_descriptor` if the object is closed, the system's error
      otherwise. */
  BOOST_ASIO_SYNC_OP_VOID non_blocking(bool mode, boost::system::error_code& ec)
  {
    if (!open_or_fail(ec))
      BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
    socket_ops::set_non_blocking(own_.socket, mode, ec);
    if (!ec)
      record_user_non_blocking(mode);
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /** Whether the native socket was put in non-blocking mode by an asynchronous operation or
      by `native_non_blocking(true)`. As with Asio, `non_blocking(true)` alone does not count,
      although it makes the native socket non-blocking too. False for a closed object. */
  bool native_non_blocking() const { return own_.internal_non_blocking; }

  /** Set the native socket's non-blocking mode, for code that makes system calls on
      `native_handle()` itself (Asio's rules: asynchronous operations started later make it
      non-blocking again).

      @param mode The native socket's mode.

      @throws boost::system::system_error Thrown on failure: `invalid_argument` for `false`
      while `non_blocking()` is true, `bad_descriptor` if the object is closed, the system's
      error otherwise. */
  void native_non_blocking(bool mode)
  {
    or_throw("native_non_blocking", [&](auto& ec) { return native_non_blocking(mode, ec); });
  }

  /** Set the native socket's non-blocking mode; see `native_non_blocking(bool)`.

      @param mode The native socket's mode.
      @param ec Set on failure: `invalid_argument` for `false` while `non_blocking()` is true,
      `bad_descriptor` if the object is closed, the system's error otherwise. */
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

  /** Get the socket's local address (`getsockname`): after a bind to port 0, the port the
      system picked.

      @returns The local endpoint.

      @throws boost::system::system_error Thrown on failure (`bad_descriptor` if the object is
      closed). */
  endpoint_type local_endpoint() const
  {
    return or_throw("local_endpoint", [&](auto& ec) { return local_endpoint(ec); });
  }

  /** Get the socket's local address (`getsockname`).

      @param ec Set on failure (`bad_descriptor` if the object is closed).
      @returns The local endpoint, or a default-constructed endpoint on failure. */
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

  /** Block until the socket is ready to read (`wait_read`), ready to write (`wait_write`), or
      has an error condition or urgent data (`wait_error`), with a `poll`. In
      `non_blocking(true)` mode it only looks, as Asio's does: `would_block` if not ready.

      @param w `boost::asio::socket_base::wait_read`, `wait_write` or `wait_error`.

      @throws boost::system::system_error Thrown on failure: `bad_descriptor` if the object is
      closed, `would_block` in non-blocking mode when the socket is not ready.

      @par Example
      @code
      socket.wait(boost::asio::socket_base::wait_read);
      std::size_t n = socket.available();
      @endcode */
  void wait(wait_type w)
  {
    or_throw("wait", [&](auto& ec) { return wait(w, ec); });
  }

  /** Block until the socket is ready for `w`; in `non_blocking(true)` mode only look. See
      `wait(wait_type)`.

      @param w `boost::asio::socket_base::wait_read`, `wait_write` or `wait_error`.
      @param ec Set on failure: `bad_descriptor` if the object is closed, `would_block` in
      non-blocking mode when the socket is not ready. */
  BOOST_ASIO_SYNC_OP_VOID wait(wait_type w, boost::system::error_code& ec)
  {
    wait_ready(condition_for(w), ec);
    BOOST_ASIO_SYNC_OP_VOID_RETURN(ec);
  }

  /** Start an asynchronous wait until the socket is ready to read (`wait_read`: data, end of
      stream, or for an acceptor a connection to accept), ready to write (`wait_write`), or
      has an error condition (`wait_error`). Nothing is read or written: readiness is the
      result, for code that makes its own system calls on `native_handle()` (a C library
      such as libcurl). This is an initiating function: it returns at once.

      `wait_error` completes on an error or a hang-up, and at once when TCP urgent data is
      waiting already; urgent data arriving while it is pending is not reported (socket state
      notifications have no such condition: README, "Differences from stock Asio").

      @param w `boost::asio::socket_base::wait_read`, `wait_write` or `wait_error`.
      @param token The completion token that makes the handler.

      @par Completion signature
      @code void(boost::system::error_code ec) @endcode

      @par Errors
      `operation_aborted` when cancelled, or when the object is closed before it completes;
      `bad_descriptor` if it was closed when the wait started.

      @par Per-operation cancellation
      `cancellation_type::terminal`, `partial` and `total`.

      @par Example
      @code
      socket.async_wait(boost::asio::socket_base::wait_read,
                        [&](boost::system::error_code ec) {
                          if (!ec)
                            read_with_my_library(socket.native_handle());
                        });
      @endcode */
  template <BOOST_ASIO_COMPLETION_TOKEN_FOR(void(boost::system::error_code))
                WaitToken = default_token_type>
  auto async_wait(wait_type w, WaitToken&& token = default_token_type())
      -> initiate_result_t<WaitToken, void(boost::system::error_code), wait_performer>
  {
    return this->template initiate<void(boost::system::error_code)>(
        std::forward<WaitToken>(token), queue_for(condition_for(w)),
        wait_performer{condition_for(w)});
  }

  /// @cond
protected:
  socket_object(socket_object&& other) noexcept
      : executor_(other.executor_), core_(other.core_), protocol_(other.protocol_),
        state_(std::exchange(other.state_, nullptr)),
        own_(std::exchange(other.own_, native_socket_state()))
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
        own_(std::exchange(other.own_, native_socket_state()))
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
      own_ = std::exchange(other.own_, native_socket_state());
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
    own_ = native_socket_state();
  }

  /// True when open; otherwise sets `bad_descriptor`.
  bool open_or_fail(boost::system::error_code& ec) const
  {
    ec = state_ ? boost::system::error_code() : boost::asio::error::bad_descriptor;
    return state_ != nullptr;
  }

  /// Take `s` on; false with `ec` set when the reactor cannot track it, and then `s` is the
  /// caller's, as in Asio when a descriptor cannot be registered.
  bool adopt(const protocol_type& protocol, native_socket_type s, boost::system::error_code& ec)
  {
    state_ = core_->adopt(s, ec);
    if (!state_)
      return false;
    protocol_ = protocol;
    own_ = native_socket_state(); // a new socket starts with Asio's defaults
    own_.socket = s;
    return true;
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
    if (!state_ || descriptor_non_blocking())
      return {}; // every operation but a socket's first: a test kept inline
    return make_non_blocking();
  }

  /// enter_async_mode's work, out of line: it runs once in a socket's life.
  BOOST_NOINLINE boost::system::error_code make_non_blocking()
  {
    boost::system::error_code ec;
    socket_ops::set_non_blocking(own_.socket, true, ec);
    own_.internal_non_blocking = !ec;
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

  /// @endcond

  template <class, class>
  friend class socket_object;

  executor_type executor_;
  reactor_core* core_;
  // The protocol the socket was opened with, kept from then on: a closed object needs no
  // protocol object (generic protocols have neither a default nor a v4()).
  std::optional<protocol_type> protocol_;
  // The socket's state in the reactor, opaque (src/reactor/descriptor_state.hpp): the handle the
  // reactor's calls take; null while closed.
  descriptor_state* state_ = nullptr;

  native_socket_state own_;
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
