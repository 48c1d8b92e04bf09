//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What the inline drivers need from Asio, checked at compile time: which driver a build gets
// is decided from these shapes, not from a range of Boost versions (doc/design.md, "Asio's
// reactor, not a public wait"). Private to the library; test/service checks the checks.
#ifndef BOOST_ASIO_NOTIFY_SRC_DRIVERS_INLINE_DRIVER_SHAPE_HPP
#define BOOST_ASIO_NOTIFY_SRC_DRIVERS_INLINE_DRIVER_SHAPE_HPP

#include <boost/asio/io_context.hpp>
#include <boost/system/error_code.hpp>

#if defined(BOOST_ASIO_HAS_EPOLL) && !defined(BOOST_ASIO_HAS_IO_URING_AS_DEFAULT) &&               \
    defined(BOOST_ASIO_HAS_POSIX_STREAM_DESCRIPTOR)
// Both inline drivers wait for the port's descriptor in the io_context's reactor, which
// must then be Asio's epoll reactor (not io_uring, not select).
#define BOOST_ASIO_NOTIFY_HAS_INLINE_DRIVERS 1
// Asio's reactor interface, used by inline_driver (inline_drivers.cpp).
#include <boost/asio/detail/epoll_reactor.hpp>
#include <boost/asio/detail/reactor_op.hpp>
#include <boost/asio/detail/scheduler.hpp>
#endif

#include <cstddef>
#include <type_traits>
#include <utility>

namespace boost {
namespace asio_notify {
namespace detail {

#if defined(BOOST_ASIO_NOTIFY_HAS_INLINE_DRIVERS)

/// Whether `Reactor` (Asio's epoll_reactor), `Operation` (its reactor_op) and `Scheduler`
/// have every member, type and value that inline_driver's adapter uses, in that shape.
template <class Reactor, class Operation, class Scheduler, class = void>
struct asio_reactor_shape : std::false_type
{
};

// reactor_op's function types are protected: they are named from a class derived from it,
// as the adapter's own operation is. (Its constructor cannot be checked from outside; it
// takes exactly these two function types and the success error_code.)
template <class Operation>
struct asio_operation_shape : Operation
{
  static constexpr bool value =
      std::is_same_v<typename Operation::perform_func_type,
                     typename Operation::status (*)(boost::asio::detail::reactor_op*)> &&
      std::is_same_v<typename Operation::func_type,
                     void (*)(void*, boost::asio::detail::scheduler_operation*,
                              const boost::system::error_code&, std::size_t)> &&
      std::is_base_of_v<boost::asio::detail::scheduler_operation, Operation>;
};

template <class Reactor, class Operation, class Scheduler>
struct asio_reactor_shape<
    Reactor, Operation, Scheduler,
    std::void_t<
        decltype(std::declval<Reactor&>().init_task()),
        decltype(int{std::declval<Reactor&>().register_descriptor(
            int{}, std::declval<typename Reactor::per_descriptor_data&>())}),
        decltype(std::declval<Reactor&>().start_op(
            int{Reactor::read_op}, int{}, std::declval<typename Reactor::per_descriptor_data&>(),
            std::declval<Operation*>(), bool{}, bool{})),
        decltype(std::declval<Reactor&>().deregister_descriptor(
            int{}, std::declval<typename Reactor::per_descriptor_data&>(), bool{})),
        decltype(std::declval<Reactor&>().cleanup_descriptor_data(
            std::declval<typename Reactor::per_descriptor_data&>())),
        decltype(boost::asio::use_service<Reactor>(std::declval<boost::asio::io_context&>())),
        decltype(boost::asio::use_service<Scheduler>(std::declval<boost::asio::io_context&>())),
        decltype(std::declval<Scheduler&>().work_started()),
        decltype(std::declval<Scheduler&>().work_finished()),
        decltype(std::declval<Operation&>().ec_),
        std::enable_if_t<Operation::not_done != Operation::done &&
                         Operation::done != Operation::done_and_exhausted>>>
    : std::bool_constant<asio_operation_shape<Operation>::value>
{
};

#endif

/// Whether `Executor` counts work with the (Networking TS) members `on_work_started` and
/// `on_work_finished`, which inline_portable uses to take its wait's count back.
template <class Executor, class = void>
struct has_work_counting : std::false_type
{
};
template <class Executor>
struct has_work_counting<Executor,
                         std::void_t<decltype(std::declval<const Executor&>().on_work_started()),
                                     decltype(std::declval<const Executor&>().on_work_finished())>>
    : std::true_type
{
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
