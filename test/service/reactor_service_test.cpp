//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The reactor service itself: options, statistics, drivers, work accounting, shutdown.
// Every case runs under each driver and trigger strategy.

#include "support/reactor_configs.hpp"
#include "support/thread_count.hpp"

#include <boost/asio_notify.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/write.hpp>
#include <boost/system/system_error.hpp>
#include <boost/test/unit_test.hpp>

#include <boost/version.hpp>

#if defined(__has_include)
#if __has_include(<boost/asio/config.hpp>)
#include <boost/asio/config.hpp> // Boost 1.87+: an io_context's configuration
#define BOOST_ASIO_NOTIFY_TEST_HAS_ASIO_CONFIG 1
#endif
#endif

#include <array>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace an = boost::asio_notify;
namespace asio = boost::asio;
using boost::system::error_code;
using tcp = an::ip::tcp;

using namespace test_support;

namespace {

#if defined(_WIN32)
// Windows has no setenv/unsetenv; _putenv_s with an empty value removes the variable.
void set_variable(const char* name, const char* value) { ::_putenv_s(name, value); }
void unset_variable(const char* name) { ::_putenv_s(name, ""); }
#else
void set_variable(const char* name, const char* value) { ::setenv(name, value, 1); }
void unset_variable(const char* name) { ::unsetenv(name); }
#endif

// Counts how a handler ended: invoked, or destroyed without being invoked.
struct handler_fate
{
  std::atomic<int> invoked{0};
  std::atomic<int> destroyed{0};
};

struct tracked_handler
{
  std::shared_ptr<handler_fate> fate;
  std::shared_ptr<void> keep_alive; // what the handler owns, as a session object would
  bool moved_from = false;
  explicit tracked_handler(std::shared_ptr<handler_fate> f, std::shared_ptr<void> k = {})
      : fate(std::move(f)), keep_alive(std::move(k))
  {
  }
  tracked_handler(tracked_handler&& o) noexcept : fate(o.fate), keep_alive(std::move(o.keep_alive))
  {
    o.moved_from = true;
  }
  ~tracked_handler()
  {
    if (!moved_from)
      ++fate->destroyed;
  }
  void operator()(error_code, std::size_t = 0) { ++fate->invoked; }
};

} // namespace

BOOST_AUTO_TEST_CASE(options_parse_and_reject_bad_input)
{
  const an::reactor_options o =
      an::parse_reactor_options("driver=thread,trigger=oneshot_level,batch=7,threads=3");
  BOOST_TEST((o.driver == an::driver_kind::thread));
  BOOST_TEST((o.trigger == an::trigger_strategy::oneshot_level));
  BOOST_TEST(o.batch_size == 7u);
  BOOST_TEST(o.threads == 3u);
  BOOST_TEST((o.backend == an::port_backend::automatic));
  const an::reactor_options d = an::parse_reactor_options("");
  BOOST_TEST(d.batch_size == an::reactor_options().batch_size);
  for (an::port_backend b : {an::port_backend::automatic, an::port_backend::psn,
                             an::port_backend::afd, an::port_backend::epoll})
    BOOST_TEST(
        (an::parse_reactor_options(std::string("backend=") + an::to_string(b)).backend == b));
  BOOST_TEST(!d.adversary.has_value()); // the environment's, when the reactor is made
  const an::reactor_options a =
      an::parse_reactor_options("adversary_seed=42,adversary=duplicate+split_batch");
  BOOST_TEST_REQUIRE(a.adversary.has_value());
  BOOST_TEST((a.adversary->kinds == (an::adversity::duplicate | an::adversity::split_batch)));
  BOOST_TEST(a.adversary->seed == 42u);
  BOOST_TEST((an::parse_reactor_options("adversary=all").adversary->kinds == an::adversity::all));
  BOOST_TEST((d.overlapped_receives && d.overlapped_sends));
  const an::reactor_options r = an::parse_reactor_options("receives=readiness");
  BOOST_TEST((!r.overlapped_receives && r.overlapped_sends));
  const an::reactor_options w = an::parse_reactor_options("sends=readiness");
  BOOST_TEST((w.overlapped_receives && !w.overlapped_sends));
  BOOST_TEST(an::parse_reactor_options("sends=readiness,sends=overlapped").overlapped_sends);
  for (const char* bad :
       {"driver=fast", "batch=0", "batch=x", "threads=-1", "colour=blue", "driver",
        "backend=kqueue", "adversary=chaos", "adversary_seed=x", "receives=yes", "sends=no"})
  {
    try
    {
      an::parse_reactor_options(bad);
      BOOST_ERROR("accepted " << bad);
    }
    catch (const boost::system::system_error& e)
    {
      BOOST_TEST((e.code() == asio::error::invalid_argument));
      BOOST_TEST(std::string(e.what()).find("BOOST_ASIO_NOTIFY_REACTOR") != std::string::npos);
    }
  }
}

namespace {

// A backend every system of this platform has, and one none has.
#if defined(_WIN32)
constexpr an::port_backend present_backend = an::port_backend::afd; // Windows 10 and later, Wine
constexpr an::port_backend absent_backend = an::port_backend::epoll;
#else
constexpr an::port_backend present_backend = an::port_backend::epoll;
constexpr an::port_backend absent_backend = an::port_backend::afd;
#endif

} // namespace

// The reactor's port runs on the backend its options name; one this system lacks makes the
// reactor's construction fail with operation_not_supported, before any socket exists.
BOOST_AUTO_TEST_CASE(the_port_backend_is_an_option)
{
  {
    asio::io_context ioc;
    an::reactor_options o;
    o.backend = present_backend;
    auto& r = asio::make_service<an::reactor>(ioc, o);
    BOOST_TEST((r.options().backend == present_backend));
  }
  asio::io_context ioc;
  an::reactor_options o;
  o.backend = absent_backend;
  BOOST_CHECK_EXCEPTION(asio::make_service<an::reactor>(ioc, o), boost::system::system_error,
                        [](const boost::system::system_error& e) {
                          return e.code() == asio::error::operation_not_supported;
                        });
}

BOOST_AUTO_TEST_CASE(options_come_from_the_environment)
{
  set_variable(an::reactor_options_variable, "driver=thread,batch=5");
  {
    asio::io_context ioc;
    tcp::socket s(ioc); // first use creates the reactor from the environment
    const an::reactor_options& o = asio::use_service<an::reactor>(ioc).options();
    BOOST_TEST((o.driver == an::driver_kind::thread));
    BOOST_TEST(o.batch_size == 5u);
  }
  set_variable(an::reactor_options_variable, "batch=banana");
  {
    asio::io_context ioc;
    BOOST_CHECK_THROW(tcp::socket s(ioc), boost::system::system_error);
  }
  unset_variable(an::reactor_options_variable);
}

BOOST_AUTO_TEST_CASE(options_are_fixed_once_the_reactor_exists)
{
  asio::io_context ioc;
  tcp::socket s(ioc);
  BOOST_CHECK_THROW(install(ioc, an::reactor_options()), asio::service_already_exists);
}

BOOST_AUTO_TEST_CASE(inline_driver_needs_an_io_context)
{
  asio::thread_pool pool(1);
  an::reactor_options o;
  o.driver = an::driver_kind::inline_driver;
  auto& r = asio::make_service<an::reactor>(pool, o);
  tcp::socket s(pool.get_executor());
  BOOST_TEST((r.options().driver == an::driver_kind::thread)); // fell back, and says so
  pool.join();
}

// options() may be read from any thread, also while the first socket settles the driver
// (here it falls back, rewriting the driver it says): ThreadSanitizer checks the reads.
BOOST_AUTO_TEST_CASE(options_are_read_safely_while_the_driver_settles)
{
  asio::thread_pool pool(1);
  an::reactor_options o;
  o.driver = an::driver_kind::inline_driver;
  auto& r = asio::make_service<an::reactor>(pool, o);
  std::atomic<bool> stop{false};
  std::atomic<int> thread_seen{0};
  std::thread reader([&] {
    while (!stop.load())
      if (r.options().driver == an::driver_kind::thread)
        ++thread_seen;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(5)); // the reader is reading
  tcp::socket s(pool.get_executor());
  while (thread_seen.load() == 0)
    std::this_thread::yield(); // it has seen the driver that runs
  stop = true;
  reader.join();
  BOOST_TEST((r.options().driver == an::driver_kind::thread));
  pool.join();
}

namespace {

// The driver this build gives a user who asks for nothing: the fast inline driver on every
// Boost the adapter was written for, never a silent fall back to a slower one.
an::driver_kind expected_default_driver()
{
#if defined(_WIN32)
  // The thread driver where PSN is the automatic backend (the system's, or the test double's
  // run), io_context_port where AFD is.
  const char* named = std::getenv(an::port_backend_variable);
  const bool psn = named ? std::string(named) == "psn" : an::is_supported(an::port_backend::psn);
  return psn ? an::driver_kind::thread : an::driver_kind::io_context_port;
#else
  static_assert(BOOST_VERSION >= 108100 && BOOST_VERSION < 109100,
                "a Boost this test does not know: say which driver it should give");
  return an::driver_kind::inline_driver;
#endif
}

} // namespace

BOOST_AUTO_TEST_CASE(default_options_give_this_platforms_driver)
{
  BOOST_TEST_MESSAGE("Boost " << BOOST_LIB_VERSION << ": default driver "
                              << an::to_string(an::default_driver_kind()));
  BOOST_TEST((an::default_driver_kind() == expected_default_driver()));
  unset_variable(an::reactor_options_variable);
  asio::io_context ioc;
  tcp::socket s(ioc); // creates the reactor with the default options
  BOOST_TEST((asio::use_service<an::reactor>(ioc).options().driver == expected_default_driver()));
  asio::io_context ioc2;
  BOOST_TEST((install(ioc2, an::reactor_options()).options().driver == expected_default_driver()));
  tcp::socket s2(ioc2);
  BOOST_TEST((asio::use_service<an::reactor>(ioc2).options().driver == expected_default_driver()));
}

BOOST_AUTO_TEST_CASE(driver_names_round_trip)
{
  for (an::driver_kind d :
       {an::driver_kind::inline_driver, an::driver_kind::inline_portable, an::driver_kind::thread})
    BOOST_TEST((an::parse_reactor_options(std::string("driver=") + an::to_string(d)).driver == d));
}

namespace {

// Reads 4 bytes into `in` on the pair's server side; counts itself in `done` on success.
void read_four_bytes(tcp_pair& p, std::array<char, 4>& in, int& done)
{
  asio::async_read(p.server, asio::buffer(in), [&done](error_code ec, std::size_t n) {
    BOOST_TEST(!ec);
    BOOST_TEST(n == 4u);
    ++done;
  });
}

// Asio lets an io_context turn its per-descriptor locking off when the context and its I/O
// objects are used by one thread at a time; every driver still delivers, and the inline
// ones stay inline.
void echo_once_single_threaded(asio::io_context& ioc, const an::reactor_options& o)
{
  an::reactor& r = install(ioc, o);
  auto p = make_tcp_pair(ioc);
  std::array<char, 4> in{};
  int done = 0;
  read_four_bytes(p, in, done);
  asio::async_write(p.client, asio::buffer("pong", 4), [&](error_code ec, std::size_t) {
    BOOST_TEST(!ec);
    ++done;
  });
  ioc.run_for(std::chrono::seconds(10));
  BOOST_TEST(done == 2);
  BOOST_TEST((r.options().driver == o.driver));
}

} // namespace

BOOST_AUTO_TEST_CASE(inline_drivers_run_with_asio_io_locking_off)
{
  for (const auto& o : all_configurations())
  {
    BOOST_TEST_CONTEXT(describe(o) << ", BOOST_ASIO_CONCURRENCY_HINT_UNSAFE_IO")
    {
      asio::io_context ioc(BOOST_ASIO_CONCURRENCY_HINT_UNSAFE_IO);
      echo_once_single_threaded(ioc, o);
    }
#if defined(BOOST_ASIO_NOTIFY_TEST_HAS_ASIO_CONFIG)
    BOOST_TEST_CONTEXT(describe(o) << ", reactor.io_locking=0")
    {
      asio::io_context ioc(asio::config_from_string("reactor.io_locking=0"));
      BOOST_TEST(!asio::config(ioc).get("reactor", "io_locking", true));
      echo_once_single_threaded(ioc, o);
    }
#endif
  }
}

BOOST_AUTO_TEST_CASE(echo_counts_in_statistics_and_registration_ends_with_close)
{
  for_each_reactor_options([&](const an::reactor_options& o) {
    asio::io_context ioc;
    an::reactor& r = install(ioc, o);
    auto p = make_tcp_pair(ioc);
    std::array<char, 4> in{};
    int done = 0;
    read_four_bytes(p, in, done);
    asio::post(ioc, [&] { asio::write(p.client, asio::buffer("ping", 4)); });
    ioc.run();
    BOOST_TEST(done == 1);
    BOOST_TEST((r.options().driver == o.driver));
    const an::reactor_statistics s = r.statistics();
    BOOST_TEST(s.operations_completed >= 1u);
    if (reads_overlapped(r)) // the read was the receive: no packet, no registration
    {
      BOOST_TEST(s.overlapped_receives >= 1u);
      BOOST_TEST(s.registered_sockets == 0u);
      return;
    }
    BOOST_TEST(s.overlapped_receives == 0u);
    BOOST_TEST(s.overlapped_sends == 0u);
    BOOST_TEST(s.packets_dequeued >= 1u);
    BOOST_TEST(s.wakeups >= 1u);
    BOOST_TEST(s.registered_sockets >= 1u);
    p.server.close();
    BOOST_TEST(r.statistics().registered_sockets == s.registered_sockets - 1);
  });
}

// Keys name a slot and its generation (doc/port_contract.md, "Keys that cannot dangle"): a
// packet that comes after its socket was closed, here a duplicate the adversarial port keeps
// back while the handler closes the socket, is dropped and counted, on every configuration.
// Under ASan a key that led to freed memory would be a use-after-free.
BOOST_AUTO_TEST_CASE(packets_for_closed_sockets_are_dropped)
{
  for (an::reactor_options o : all_configurations())
  {
    if (!meets_the_adversary(o))
      continue;
    o.adversary = an::adversary_options{an::adversity::duplicate, 26};
    BOOST_TEST_CONTEXT(describe(o))
    {
      asio::io_context ioc;
      an::reactor& r = install(ioc, o);
      std::uint64_t after_first = 0;
      for (int i = 0; i < 200 && r.statistics().stale_packets_dropped == 0; ++i)
      {
        {
          auto p = make_tcp_pair(ioc);
          p.server.async_wait(tcp::socket::wait_read, [&](error_code) { p.server.close(); });
          asio::write(p.client, asio::buffer("x", 1));
          ioc.restart();
          ioc.run_for(std::chrono::milliseconds(50)); // the held copy comes within a few dequeues
        }
        if (i == 0)
          after_first = r.statistics().socket_states_allocated;
      }
      BOOST_TEST(r.statistics().stale_packets_dropped > 0u);
      // Every closed slot reused: as many as sockets were open at once.
      BOOST_TEST(after_first > 0u);
      BOOST_TEST(r.statistics().socket_states_allocated == after_first);
    }
  }
}

BOOST_AUTO_TEST_CASE(run_returns_when_no_operation_is_pending)
{
  // The inline driver keeps a wait on the port pending; it must not count as work.
  for_each_reactor_options([&](const an::reactor_options& o) {
    counted_read_fixture f(o);
    asio::write(f.p.client, asio::buffer("x", 1));
    const auto start = std::chrono::steady_clock::now();
    f.ioc.run_for(std::chrono::seconds(10));
    BOOST_TEST(f.calls == 1);
    BOOST_TEST((std::chrono::steady_clock::now() - start < std::chrono::seconds(5)));
    // And again after restart: the driver still delivers.
    f.ioc.restart();
    f.start_read();
    asio::write(f.p.client, asio::buffer("y", 1));
    f.ioc.run_for(std::chrono::seconds(10));
    BOOST_TEST(f.calls == 2);
    BOOST_TEST(f.c == 'y');
  });
}

BOOST_AUTO_TEST_CASE(destroying_the_context_destroys_pending_handlers_and_threads)
{
  const std::size_t threads_before = thread_count();
  for_each_reactor_options([&](const an::reactor_options& o) {
    auto fate = std::make_shared<handler_fate>();
    {
      asio::io_context ioc;
      install(ioc, o);
      // The handlers own the sockets: destroying them closes the sockets while the
      // reactor shuts down.
      auto p = std::make_shared<tcp_pair>(make_tcp_pair(ioc));
      static char buf[8];
      p->server.async_read_some(asio::buffer(buf), tracked_handler(fate, p));
      p->client.async_wait(tcp::socket::wait_read, tracked_handler(fate, p));
      p.reset();
      ioc.run_for(std::chrono::milliseconds(50));
      BOOST_TEST(fate->invoked == 0);
    }
    BOOST_TEST(fate->invoked == 0);
    BOOST_TEST(fate->destroyed == 2);
  });
  BOOST_TEST(thread_count() == threads_before);
}

BOOST_AUTO_TEST_CASE(close_completes_pending_operations_once_with_operation_aborted)
{
  for_each_reactor_options([&](const an::reactor_options& o) {
    asio::io_context ioc;
    an::reactor& r = install(ioc, o);
    auto p = make_tcp_pair(ioc);
    char buf[8];
    std::vector<error_code> results;
    p.server.async_read_some(asio::buffer(buf),
                             [&](error_code ec, std::size_t) { results.push_back(ec); });
    p.server.async_wait(tcp::socket::wait_error, [&](error_code ec) { results.push_back(ec); });
    ioc.run_for(std::chrono::milliseconds(20));
    BOOST_TEST(results.empty());
    p.server.close();
    ioc.restart();
    ioc.run_for(std::chrono::seconds(5));
    BOOST_REQUIRE(results.size() == 2u);
    for (const error_code& ec : results)
      BOOST_TEST((ec == asio::error::operation_aborted));
    // The REMOVE handshake finished: the port has forgotten the socket.
    BOOST_TEST(r.statistics().registered_sockets <= 1u);
  });
}

BOOST_AUTO_TEST_CASE(many_threads_many_connections_every_handler_once)
{
  for (const auto& base : all_configurations())
  {
    an::reactor_options o = base;
    o.threads = 2;
    o.batch_size = 8; // several rounds per wake-up
    BOOST_TEST_CONTEXT(describe(o))
    {
      asio::io_context ioc(4);
      install(ioc, o);
      constexpr int connections = 64;
      constexpr int rounds = 50;
      std::vector<std::unique_ptr<tcp_pair>> pairs;
      for (int i = 0; i < connections; ++i)
        pairs.push_back(std::make_unique<tcp_pair>(make_tcp_pair(ioc)));
      std::atomic<int> completions{0};
      std::atomic<int> errors{0};
      struct echo
      {
        tcp::socket& client;
        tcp::socket& server;
        std::atomic<int>& completions;
        std::atomic<int>& errors;
        std::array<char, 32> out{}, in{}, srv{};
        int left = rounds;
        void start()
        {
          asio::async_read(server, asio::buffer(srv), [this](error_code ec, std::size_t) {
            if (ec)
              return void(++errors);
            asio::async_write(server, asio::buffer(srv), [this](error_code ec2, std::size_t) {
              if (ec2)
                return void(++errors);
              if (--left > 0)
                start();
            });
          });
          asio::async_write(client, asio::buffer(out), [this](error_code ec, std::size_t) {
            if (ec)
              ++errors;
            asio::async_read(client, asio::buffer(in), [this](error_code ec2, std::size_t) {
              if (ec2)
                ++errors;
              ++completions;
            });
          });
        }
      };
      std::vector<std::unique_ptr<echo>> echoes;
      for (auto& p : pairs)
      {
        echoes.push_back(std::make_unique<echo>(echo{p->client, p->server, completions, errors}));
        echoes.back()->start();
      }
      std::vector<std::thread> runners;
      for (int i = 0; i < 4; ++i)
        runners.emplace_back([&] { ioc.run_for(std::chrono::seconds(60)); });
      for (auto& t : runners)
        t.join();
      BOOST_TEST(errors == 0);
      BOOST_TEST(completions == connections * rounds);
    }
  }
}
