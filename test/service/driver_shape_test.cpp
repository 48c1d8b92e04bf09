//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Which driver a build gets is decided from the shape of Asio's reactor internals, not from
// a range of Boost versions (src/drivers/inline_driver_shape.hpp): this Boost's are recognised,
// and a reactor or operation that differs in any member the adapter uses is not, so that
// a future Boost gets the portable inline driver instead of a build error or a crash.

#include "drivers/inline_driver_shape.hpp"
#include "drivers/io_context_port_shape.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/test/unit_test.hpp>

#include <cstddef>

namespace ad = boost::asio_notify::detail;

#if defined(BOOST_ASIO_NOTIFY_HAS_INLINE_DRIVERS)

namespace {

namespace bad = boost::asio::detail;

// A reactor with every member the adapter uses, in the shape it uses them.
struct complete_reactor
{
  enum op_types
  {
    read_op = 0
  };
  using per_descriptor_data = void*;
  void init_task() {}
  int register_descriptor(int, per_descriptor_data&) { return 0; }
  void start_op(int, int, per_descriptor_data&, bad::reactor_op*, bool, bool) {}
  void deregister_descriptor(int, per_descriptor_data&, bool) {}
  void cleanup_descriptor_data(per_descriptor_data&) {}
};

// The same with one member missing, or of another shape.
struct reactor_without_init_task : complete_reactor
{
private:
  using complete_reactor::init_task;
};
struct reactor_whose_start_op_differs
{
  enum op_types
  {
    read_op = 0
  };
  using per_descriptor_data = void*;
  void init_task() {}
  int register_descriptor(int, per_descriptor_data&) { return 0; }
  void start_op(int, per_descriptor_data&, bad::reactor_op*) {} // an imagined future shape
  void deregister_descriptor(int, per_descriptor_data&, bool) {}
  void cleanup_descriptor_data(per_descriptor_data&) {}
};
struct reactor_without_descriptor_data
{
  enum op_types
  {
    read_op = 0
  };
  void init_task() {}
};

struct scheduler_without_work_counting
{
};

// An operation whose perform function has another signature.
struct operation_of_another_shape : bad::scheduler_operation
{
  enum status
  {
    not_done,
    done,
    done_and_exhausted
  };
  boost::system::error_code ec_;

protected:
  typedef bool (*perform_func_type)(operation_of_another_shape*);
};

struct executor_without_work_counting
{
};

} // namespace

BOOST_AUTO_TEST_CASE(this_boosts_reactor_is_recognised)
{
  BOOST_TEST_MESSAGE("Boost " << BOOST_LIB_VERSION);
  BOOST_TEST((ad::asio_reactor_shape<bad::epoll_reactor, bad::reactor_op, bad::scheduler>::value));
  BOOST_TEST((ad::asio_reactor_shape<complete_reactor, bad::reactor_op, bad::scheduler>::value));
  BOOST_TEST((ad::has_work_counting<boost::asio::io_context::executor_type>::value));
}

BOOST_AUTO_TEST_CASE(a_reactor_of_another_shape_is_not)
{
  BOOST_TEST(
      (!ad::asio_reactor_shape<reactor_without_init_task, bad::reactor_op, bad::scheduler>::value));
  BOOST_TEST((!ad::asio_reactor_shape<reactor_whose_start_op_differs, bad::reactor_op,
                                      bad::scheduler>::value));
  BOOST_TEST((!ad::asio_reactor_shape<reactor_without_descriptor_data, bad::reactor_op,
                                      bad::scheduler>::value));
  BOOST_TEST((!ad::asio_reactor_shape<bad::epoll_reactor, bad::reactor_op,
                                      scheduler_without_work_counting>::value));
  BOOST_TEST((!ad::asio_reactor_shape<bad::epoll_reactor, operation_of_another_shape,
                                      bad::scheduler>::value));
  BOOST_TEST((!ad::has_work_counting<executor_without_work_counting>::value));
}

#else

BOOST_AUTO_TEST_CASE(no_inline_driver_on_this_platform)
{
  BOOST_TEST((!ad::has_work_counting<int>::value));
}

#endif

// ---- the io_context's completion port (src/drivers/io_context_port_shape.hpp) -------------------
// The io_context_port driver and async_wait on Asio's sockets use Asio's Windows scheduler
// and operation; stand-ins of that shape, and of others, check the check on every platform.

namespace {

using boost::system::error_code;

struct stand_in_overlapped
{
};

// An operation with everything the poll operations use: completed through a function of
// this shape, reset for the next poll, destroyed in a shutdown.
struct complete_operation : stand_in_overlapped
{
protected:
  using func_type = void (*)(void*, complete_operation*, const error_code&, std::size_t);

public:
  void reset() {}
  void destroy() {}
};

struct operation_without_reset : stand_in_overlapped
{
protected:
  using func_type = void (*)(void*, operation_without_reset*, const error_code&, std::size_t);

public:
  void destroy() {}
};

struct operation_of_another_function : stand_in_overlapped
{
protected:
  using func_type = void (*)(void*, operation_of_another_function*, std::size_t);

public:
  void reset() {}
  void destroy() {}
};

struct operation_that_is_no_overlapped
{
protected:
  using func_type = void (*)(void*, operation_that_is_no_overlapped*, const error_code&,
                             std::size_t);

public:
  void reset() {}
  void destroy() {}
};

// A scheduler with every member used, for any operation type.
template <class Operation>
struct complete_port_scheduler
{
  error_code register_handle(int, error_code& ec) { return ec; }
  void work_started() {}
  void work_finished() {}
  void on_pending(Operation*) {}
  void on_completion(Operation*, unsigned long = 0, unsigned long = 0) {}
};

struct scheduler_without_on_completion
{
  error_code register_handle(int, error_code& ec) { return ec; }
  void work_started() {}
  void work_finished() {}
  void on_pending(complete_operation*) {}
};

struct scheduler_whose_register_handle_differs
{
  void register_handle(int) {}
  void work_started() {}
  void work_finished() {}
  void on_pending(complete_operation*) {}
  void on_completion(complete_operation*, unsigned long = 0, unsigned long = 0) {}
};

template <class Scheduler, class Operation>
constexpr bool fits = ad::asio_iocp_shape<Scheduler, Operation, int, stand_in_overlapped>::value;

} // namespace

BOOST_AUTO_TEST_CASE(a_completion_port_scheduler_of_the_shape_used_is_recognised)
{
  BOOST_TEST((fits<complete_port_scheduler<complete_operation>, complete_operation>));
#if defined(BOOST_ASIO_NOTIFY_HAS_IOCP_TYPES)
  BOOST_TEST(ad::has_io_context_port); // this Boost's win_iocp_io_context
#else
  BOOST_TEST(!ad::has_io_context_port);
#endif
}

BOOST_AUTO_TEST_CASE(a_completion_port_scheduler_of_another_shape_is_not)
{
  BOOST_TEST((!fits<scheduler_without_on_completion, complete_operation>));
  BOOST_TEST((!fits<scheduler_whose_register_handle_differs, complete_operation>));
  BOOST_TEST((!fits<complete_port_scheduler<operation_without_reset>, operation_without_reset>));
  BOOST_TEST((!fits<complete_port_scheduler<operation_of_another_function>,
                    operation_of_another_function>));
  BOOST_TEST((!fits<complete_port_scheduler<operation_that_is_no_overlapped>,
                    operation_that_is_no_overlapped>));
}
