//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What the io_context_port driver and async_wait on Asio's own sockets need from Asio's
// Windows io_context, checked at compile time: where the shape differs, the thread driver
// and Asio's own async_wait run instead (doc/windows.md, "On the io_context's own port").
// Private to the library; test/service checks the checks.
#ifndef BOOST_ASIO_NOTIFY_SRC_DRIVERS_IO_CONTEXT_PORT_SHAPE_HPP
#define BOOST_ASIO_NOTIFY_SRC_DRIVERS_IO_CONTEXT_PORT_SHAPE_HPP

#include <boost/asio/io_context.hpp>
#include <boost/system/error_code.hpp>

#if defined(BOOST_ASIO_HAS_IOCP)
// The io_context's completion port, whose packets it completes as these operations.
#include <boost/asio/detail/win_iocp_io_context.hpp>
#include <boost/asio/detail/win_iocp_operation.hpp>
#define BOOST_ASIO_NOTIFY_HAS_IOCP_TYPES 1
#endif

#include <cstddef>
#include <type_traits>
#include <utility>

namespace boost {
namespace asio_notify {
namespace detail {

/// Whether `Operation` (Asio's win_iocp_operation) is an `Overlapped` completed through a
/// function of the shape the poll operations define, and can be reset for the next poll.
/// Its function type is protected: it is named from a class derived from it, as the poll
/// operation is.
template <class Operation, class Overlapped, class = void>
struct asio_iocp_operation_shape : std::false_type
{
};

template <class Operation, class Overlapped>
struct asio_iocp_operation_shape<Operation, Overlapped,
                                 std::void_t<decltype(std::declval<Operation&>().reset()),
                                             decltype(std::declval<Operation&>().destroy())>>
{
  struct probe : Operation
  {
    static constexpr bool value =
        std::is_same_v<typename Operation::func_type,
                       void (*)(void*, Operation*, const boost::system::error_code&, std::size_t)>;
  };
  static constexpr bool value = probe::value && std::is_base_of_v<Overlapped, Operation>;
};

/// Whether `Scheduler` (Asio's win_iocp_io_context) has every member the poll operations
/// use, in that shape: a handle associated with its port (`register_handle`), work counted
/// as its own overlapped operations count it (`work_started`, `on_pending`,
/// `work_finished`), a failed start completed through the port (`on_completion`), and
/// `use_service` finding it in an io_context.
template <class Scheduler, class Operation, class Handle, class Overlapped, class = void>
struct asio_iocp_shape : std::false_type
{
};

template <class Scheduler, class Operation, class Handle, class Overlapped>
struct asio_iocp_shape<
    Scheduler, Operation, Handle, Overlapped,
    std::void_t<decltype(boost::system::error_code{std::declval<Scheduler&>().register_handle(
                    std::declval<Handle>(), std::declval<boost::system::error_code&>())}),
                decltype(std::declval<Scheduler&>().work_started()),
                decltype(std::declval<Scheduler&>().work_finished()),
                decltype(std::declval<Scheduler&>().on_pending(std::declval<Operation*>())),
                decltype(std::declval<Scheduler&>().on_completion(std::declval<Operation*>())),
                decltype(boost::asio::use_service<Scheduler>(
                    std::declval<boost::asio::io_context&>()))>>
    : std::bool_constant<asio_iocp_operation_shape<Operation, Overlapped>::value>
{
};

#if defined(BOOST_ASIO_NOTIFY_HAS_IOCP_TYPES)
/// This Boost's scheduler and operation, where an io_context runs on a completion port.
using asio_iocp_scheduler = boost::asio::detail::win_iocp_io_context;
using asio_iocp_operation = boost::asio::detail::win_iocp_operation;

/// Whether this build can poll on the io_context's own port: its io_context is the
/// completion-port one, of the shape checked above.
constexpr bool has_io_context_port =
    std::is_same_v<boost::asio::detail::io_context_impl, asio_iocp_scheduler> &&
    asio_iocp_shape<asio_iocp_scheduler, asio_iocp_operation, HANDLE, OVERLAPPED>::value;
#else
constexpr bool has_io_context_port = false;
#endif

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
