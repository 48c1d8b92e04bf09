//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Helpers shared by the reactor test suite: connected pairs, bounded runs of an io_context
// (a broken backend fails a test instead of hanging it), result capture, native socket and
// rlimit tools.
#ifndef BOOST_ASIO_NOTIFY_TEST_REACTOR_HELPERS_HPP
#define BOOST_ASIO_NOTIFY_TEST_REACTOR_HELPERS_HPP

#include "net.hpp"
#include "port/sockets.hpp" // raw sockets the library does not own: port_test::unique_socket
#include "support/run_until.hpp"
#include "support/tcp_pair.hpp"
#include "support/wine.hpp"
#if !defined(BOOST_ASIO_NOTIFY_DEFAULT_BACKEND)
#include "support/reactor_configs.hpp"
#endif

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#if defined(_WIN32)
#include <winsock2.h>
#else
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>
#endif

using namespace std::chrono_literals;
using boost::system::error_code;
using boost::system::system_error;

/// How long any single wait for a completion may take before the test fails.
inline constexpr std::chrono::milliseconds test_timeout = 5s;

/// Checks that `actual` is the error `expected`, printing both on failure.
#define CHECK_EC(actual, expected)                                                                 \
  BOOST_TEST((actual) == error_code(expected), "got \"" << (actual).message() << "\" ["            \
                                                        << (actual) << "], expected \""            \
                                                        << error_code(expected).message() << "\"")

/// Checks that `ec` is no error.
#define CHECK_OK(ec) BOOST_TEST(!(ec), "unexpected error \"" << (ec).message() << "\"")

/// Checks that `expr` throws system_error carrying `expected`.
#define CHECK_THROWS_EC(expr, expected)                                                            \
  BOOST_CHECK_EXCEPTION((void)(expr), system_error, [](const system_error& thrown_) {              \
    BOOST_TEST_MESSAGE("threw " << thrown_.what());                                                \
    return thrown_.code() == error_code(expected);                                                 \
  })

/// Checks that `call`, an error_code overload reporting into `ec`, sets it to `expected`; the
/// message names the call. `ec` is cleared first: an earlier call's error cannot pass for it.
#define CHECK_SETS_EC(call, ec, expected)                                                          \
  do                                                                                               \
  {                                                                                                \
    (ec) = {};                                                                                     \
    (void)(call);                                                                                  \
    BOOST_TEST_CONTEXT(#call) { CHECK_EC(ec, expected); }                                          \
  } while (false)

/// Runs `ioc` until `done()` holds or `timeout` passes (test_support::run_until).
template <typename Predicate>
bool run_until(asio::io_context& ioc, Predicate done,
               std::chrono::milliseconds timeout = test_timeout)
{
  return test_support::run_until(ioc, done, timeout);
}

/// Runs ready handlers for a short while: lets late (e.g. duplicate) completions show up.
inline void drain(asio::io_context& ioc, std::chrono::milliseconds span = 20ms)
{
  if (ioc.stopped())
    ioc.restart();
  ioc.run_for(span);
}

/// The result of one asynchronous operation, captured by `capture(result)`.
struct op_result
{
  int calls = 0;
  error_code ec;
  std::size_t bytes = 0;

  bool done() const { return calls > 0; }
};

/// A completion handler recording into `r`; accepts (error_code) and (error_code, size_t).
inline auto capture(op_result& r)
{
  return [&r](error_code ec, std::size_t n = 0) {
    ++r.calls;
    r.ec = ec;
    r.bytes = n;
  };
}

/// Runs `ioc` until every result has completed; true if all did within the timeout.
template <typename... Results>
bool run_until_done(asio::io_context& ioc, const Results&... rs)
{
  return run_until(ioc, [&] { return (rs.done() && ...); });
}

/// Checks that `r` completes with `expected`, and once only.
inline void expect_once(asio::io_context& ioc, const op_result& r, error_code expected)
{
  BOOST_TEST(run_until_done(ioc, r));
  CHECK_EC(r.ec, expected);
  drain(ioc);
  BOOST_TEST(r.calls == 1);
}

/// Counts handler invocations across a test: every handler made by `wrap` must be invoked
/// exactly once.
class once_tracker
{
public:
  template <typename F>
  auto wrap(F f)
  {
    ++created_;
    return [this, f = std::move(f),
            called = std::make_shared<std::atomic<bool>>(false)](auto&&... args) mutable {
      if (called->exchange(true))
        ++duplicates_;
      else
        ++invoked_;
      f(std::forward<decltype(args)>(args)...);
    };
  }

  int created() const { return created_; }
  int invoked() const { return invoked_; }
  int duplicates() const { return duplicates_; }
  bool all_once() const { return duplicates_ == 0 && invoked_ == created_; }

private:
  std::atomic<int> created_{0};
  std::atomic<int> invoked_{0};
  std::atomic<int> duplicates_{0};
};

/// The IPv4 loopback endpoint with an ephemeral port.
inline tcp::endpoint loopback_tcp(unsigned short port = 0)
{
  return tcp::endpoint(asio::ip::address_v4::loopback(), port);
}

inline udp::endpoint loopback_udp(unsigned short port = 0)
{
  return udp::endpoint(asio::ip::address_v4::loopback(), port);
}

/// A connected pair of TCP sockets on loopback, made with the synchronous API.
using tcp_pair = test_support::basic_tcp_pair<tcp::socket>;

template <typename ExecutionContextOrExecutor>
tcp_pair make_tcp_pair(ExecutionContextOrExecutor&& ctx)
{
  return test_support::make_basic_tcp_pair<tcp>(ctx);
}

/// Fills `p.client`'s send path until a write would block, so the next write has to wait;
/// returns the bytes written (all of them to be read from `p.server`).
inline std::size_t fill_send_buffer(tcp_pair& p)
{
  p.client.set_option(asio::socket_base::send_buffer_size(4096));
  p.server.set_option(asio::socket_base::receive_buffer_size(4096));
  p.client.non_blocking(true);
  std::vector<char> chunk(65536, 'f');
  std::size_t written = 0;
  error_code ec;
  while (!ec)
    written += p.client.write_some(asio::buffer(chunk), ec);
  BOOST_REQUIRE(ec == asio::error::would_block);
  p.client.non_blocking(false);
  return written;
}

/// Starts an asynchronous read on stream socket `reader`, then writes `data` (at most 16
/// bytes) from its peer `writer`: checks that the read gets it all, in one piece.
template <typename Reader, typename Writer>
void expect_async_read_of(asio::io_context& ioc, Reader& reader, Writer& writer,
                          std::string_view data)
{
  char buf[16] = {};
  op_result r;
  reader.async_read_some(asio::buffer(buf), capture(r));
  asio::write(writer, asio::buffer(data.data(), data.size()));
  BOOST_TEST(run_until_done(ioc, r));
  CHECK_OK(r.ec);
  BOOST_TEST(std::string_view(buf, r.bytes) == data);
}

/// Reads one byte, which the peer writes, with an asynchronous read on `p.server`.
inline void async_read_one_byte(asio::io_context& ioc, tcp_pair& p)
{
  expect_async_read_of(ioc, p.server, p.client, "a");
}

/// Two UDP sockets bound to loopback and connected to each other.
struct udp_pair
{
  udp::socket a;
  udp::socket b;
};

template <typename ExecutionContextOrExecutor>
udp_pair make_udp_pair(ExecutionContextOrExecutor&& ctx)
{
  udp::socket a(ctx, loopback_udp());
  udp::socket b(ctx, loopback_udp());
  a.connect(b.local_endpoint());
  b.connect(a.local_endpoint());
  return udp_pair{std::move(a), std::move(b)};
}

/// Starts an asynchronous read into `buf` on `s`, recorded in `r`, and checks that it is
/// still pending once `ioc` has run what was ready.
template <typename Socket, std::size_t N>
void start_pending_read(asio::io_context& ioc, Socket& s, char (&buf)[N], op_result& r)
{
  s.async_read_some(asio::buffer(buf), capture(r));
  drain(ioc);
  BOOST_TEST(!r.done());
}

/// The error a synchronous read of `s` ends with (none when it read data).
template <typename Socket>
error_code read_error(Socket& s)
{
  char buf[8];
  error_code ec;
  s.read_some(asio::buffer(buf), ec);
  return ec;
}

/// Reads exactly `n` bytes from stream socket `s` (blocking).
template <typename Socket>
std::string read_exactly(Socket& s, std::size_t n)
{
  std::string data(n, '\0');
  asio::read(s, asio::buffer(data));
  return data;
}

/// Closes `s` with SO_LINGER {on, 0}: the peer sees a reset.
template <typename Socket>
void reset_close(Socket& s)
{
  s.set_option(asio::socket_base::linger(true, 0));
  s.close();
}

/// A socket's native handle: a descriptor on POSIX, a SOCKET on Windows.
using native_socket = tcp::socket::native_handle_type;

/// Checks the two constructions every socket and acceptor has without an endpoint: from an
/// io_context alone it is closed, from an executor and `protocol` open.
template <typename IoObject, typename Protocol>
void check_constructions_without_endpoint(asio::io_context& ioc, const Protocol& protocol)
{
  IoObject closed(ioc);
  BOOST_TEST(!closed.is_open());
  IoObject opened(ioc.get_executor(), protocol);
  BOOST_TEST(opened.is_open());
}

/// A socket or acceptor made from a new native socket of `type` (SOCK_STREAM, SOCK_DGRAM),
/// which it owns from then on; checks that it holds that handle.
template <typename IoObject, typename Protocol>
IoObject adopt_native_socket(asio::io_context& ioc, const Protocol& protocol, int type)
{
  port_test::unique_socket raw = port_test::make_socket(type);
  const native_socket fd = raw.native();
  IoObject object(ioc, protocol, fd);
  raw.release(); // `object` owns it now
  BOOST_TEST(object.native_handle() == fd);
  return object;
}

/// Whether `s` is an open socket of this process.
inline bool socket_is_open(native_socket s)
{
#if defined(_WIN32)
  int type = 0;
  int size = sizeof type;
  return ::getsockopt(s, SOL_SOCKET, SO_TYPE, reinterpret_cast<char*>(&type), &size) == 0;
#else
  return ::fcntl(s, F_GETFD) != -1;
#endif
}

/// Wine's AFD (8.0) has two known gaps (doc/windows.md, "The AFD backend": under Wine 8.0): a
/// peer's disconnect is reported only once the data before it has been read, and ICMP errors
/// on UDP sockets are never reported. True exactly where they apply, the notify sockets under
/// Wine, on either backend (Wine has no PSN: the PSN runs use the test double, which is built
/// on the AFD backend's engine), so tests mark those cases and no other.
inline bool wine_afd() { return notify_backend && under_wine(); }

/// The error a read gets after the peer's reset_close: connection_reset, except under Wine
/// (8.0), whose recv reads a reset as a graceful close (0 bytes, never WSAECONNRESET; plain
/// Winsock does the same, and the RST is sent: a Linux peer gets ECONNRESET). Every reset
/// test asserts the gap, so it fails, and the mark goes, once Wine reports the reset.
inline error_code peer_reset_read_error()
{
  return under_wine() ? error_code(asio::error::eof) : error_code(asio::error::connection_reset);
}

/// Whether `ioc`'s reactor reads through overlapped receives (test_support::reads_overlapped).
inline bool reads_overlapped(asio::io_context& ioc)
{
#if defined(BOOST_ASIO_NOTIFY_DEFAULT_BACKEND)
  static_cast<void>(ioc);
  return false;
#else
  return asio::has_service<sockets::reactor>(ioc) &&
         test_support::reads_overlapped(asio::use_service<sockets::reactor>(ioc));
#endif
}

#if !defined(_WIN32) // Windows has no descriptor numbering, RLIMIT_NOFILE or FIONBIO query

/// Whether `fd` has O_NONBLOCK set.
inline bool fd_is_nonblocking(int fd)
{
  const int flags = ::fcntl(fd, F_GETFL);
  return flags != -1 && (flags & O_NONBLOCK) != 0;
}

/// The lowest descriptor number the next open/socket/accept would get.
inline int lowest_free_fd()
{
  const int fd = ::dup(0);
  BOOST_REQUIRE(fd != -1);
  ::close(fd);
  return fd;
}

/// Restores RLIMIT_NOFILE when destroyed.
class nofile_limit_guard
{
public:
  nofile_limit_guard() { BOOST_REQUIRE(::getrlimit(RLIMIT_NOFILE, &saved_) == 0); }
  ~nofile_limit_guard() { ::setrlimit(RLIMIT_NOFILE, &saved_); }
  nofile_limit_guard(const nofile_limit_guard&) = delete;
  nofile_limit_guard& operator=(const nofile_limit_guard&) = delete;

  /// Sets the soft limit (never above the hard limit); true on success.
  bool set_soft(rlim_t soft)
  {
    rlimit now = saved_;
    now.rlim_cur = soft < saved_.rlim_max ? soft : saved_.rlim_max;
    return ::setrlimit(RLIMIT_NOFILE, &now) == 0;
  }

  rlim_t soft() const { return saved_.rlim_cur; }
  rlim_t hard() const { return saved_.rlim_max; }

private:
  rlimit saved_{};
};

#endif // !_WIN32

/// Checks that socket `s`'s native mode is (or is not) non-blocking, where it can be read.
#if defined(_WIN32)
#define CHECK_NATIVE_NON_BLOCKING(s, expected) ((void)0)
#else
#define CHECK_NATIVE_NON_BLOCKING(s, expected) BOOST_TEST(fd_is_nonblocking(s) == (expected))
#endif

/// Runs an io_context on `n` background threads until destroyed (work guard held meanwhile).
class background_threads
{
public:
  background_threads(asio::io_context& ioc, int n) : ioc_(ioc), work_(asio::make_work_guard(ioc))
  {
    for (int i = 0; i < n; ++i)
      threads_.emplace_back([this] { ioc_.run(); });
  }

  ~background_threads() { stop(); }
  background_threads(const background_threads&) = delete;
  background_threads& operator=(const background_threads&) = delete;

  /// Lets run() return once out of work (or stops at once if `now`), then joins.
  void stop(bool now = true)
  {
    work_.reset();
    if (now)
      ioc_.stop();
    for (auto& t : threads_)
      if (t.joinable())
        t.join();
  }

  bool runs_here() const
  {
    for (const auto& t : threads_)
      if (t.get_id() == std::this_thread::get_id())
        return true;
    return false;
  }

private:
  asio::io_context& ioc_;
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  std::vector<std::thread> threads_;
};

/// Waits (polling) until `done()` holds or the timeout passes, for work run elsewhere.
template <typename Predicate>
bool wait_until(Predicate done, std::chrono::milliseconds timeout = test_timeout)
{
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(1ms);
  return done();
}

/// Whether `call` returns within `limit` when run on another thread. A call still blocked
/// then is released by `release()` (say, data for the read it waits on), so that a test of
/// a call that must not block fails instead of hanging.
template <typename Call, typename Release>
bool returns_within(std::chrono::milliseconds limit, Call call, Release release)
{
  std::atomic<bool> returned{false};
  std::thread runner([&] {
    call();
    returned = true;
  });
  const bool in_time = wait_until([&] { return returned.load(); }, limit);
  if (!in_time)
    release();
  runner.join();
  return in_time;
}

/// Runs `write` on another thread after a pause long enough for a call that must wait for
/// it to be seen waiting; `started()` tells whether it has begun (set before the write).
/// Joined when destroyed.
class late_write
{
public:
  template <class Write>
  explicit late_write(Write write)
      : thread_([this, write] {
          std::this_thread::sleep_for(50ms);
          started_ = true;
          write();
        })
  {
  }
  ~late_write() { thread_.join(); }
  late_write(const late_write&) = delete;
  late_write& operator=(const late_write&) = delete;

  bool started() const { return started_; }

private:
  std::atomic<bool> started_{false};
  std::thread thread_;
};

/// A minimal allocator that counts what it allocates through shared counters.
struct allocation_counters
{
  std::atomic<long> allocations{0};
  std::atomic<long> deallocations{0};
  std::atomic<long> peak_live{0}; // the most allocations ever live at once
};

template <typename T>
class counting_allocator
{
public:
  using value_type = T;

  explicit counting_allocator(allocation_counters& c) noexcept : counters_(&c) {}

  template <typename U>
  counting_allocator(const counting_allocator<U>& other) noexcept : counters_(other.counters_)
  {
  }

  T* allocate(std::size_t n)
  {
    const long live = ++counters_->allocations - counters_->deallocations;
    long peak = counters_->peak_live;
    while (live > peak && !counters_->peak_live.compare_exchange_weak(peak, live))
    {
    }
    return std::allocator<T>().allocate(n);
  }

  void deallocate(T* p, std::size_t n)
  {
    ++counters_->deallocations;
    std::allocator<T>().deallocate(p, n);
  }

  template <typename U>
  bool operator==(const counting_allocator<U>& other) const noexcept
  {
    return counters_ == other.counters_;
  }

  template <typename U>
  bool operator!=(const counting_allocator<U>& other) const noexcept
  {
    return counters_ != other.counters_;
  }

private:
  template <typename U>
  friend class counting_allocator;
  allocation_counters* counters_;
};

/// Counts live copies of a handler and whether any was invoked: for checking that handlers
/// are destroyed, not invoked, when their io_context goes away.
struct lifetime_counters
{
  std::atomic<int> live{0};
  std::atomic<int> invoked{0};
};

class tracked_handler
{
public:
  explicit tracked_handler(lifetime_counters& c, std::shared_ptr<void> keep = {})
      : counters_(&c), keep_(std::move(keep))
  {
    ++counters_->live;
  }
  tracked_handler(const tracked_handler& o) : counters_(o.counters_), keep_(o.keep_)
  {
    ++counters_->live;
  }
  tracked_handler(tracked_handler&& o) noexcept : counters_(o.counters_), keep_(std::move(o.keep_))
  {
    ++counters_->live;
  }
  tracked_handler& operator=(const tracked_handler&) = delete;
  tracked_handler& operator=(tracked_handler&&) = delete;
  ~tracked_handler() { --counters_->live; }

  template <typename... Args>
  void operator()(Args&&...)
  {
    ++counters_->invoked;
  }

private:
  lifetime_counters* counters_;
  std::shared_ptr<void> keep_;
};

#endif // BOOST_ASIO_NOTIFY_TEST_REACTOR_HELPERS_HPP
