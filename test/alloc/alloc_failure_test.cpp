//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Allocation failure: a replacement operator new that fails the Nth allocation
// made while a scenario runs, for N = 1, 2, ... until a run makes no allocation fail. Each N
// runs in a child process of its own (fork; on Windows the program again, given N), so that
// a terminate or a crash is that N's failure and not the end of the test. The scenario covers the initiation and completion of
// every operation kind (accept, the composed connect, write, read, the three waits, datagram
// send and receive), completion through
// the io_context, through a strand and through an executor whose execute() can fail too,
// close and destruction with operations pending, and the driver's packet loop. At every N:
// - std::bad_alloc leaves either an initiating function, and then that handler is never
//   called, or run(), which is called again until the io_context is out of work;
// - every handler is called at most once, and every one is destroyed by the end (none leaks
//   with its operation; LeakSanitizer checks the rest in the ASan stage);
// - nothing terminates, and the reactor ends with no socket registered in its port;
// - the process has as many descriptors (handles on Windows) open as before the scenario.
// Before them, once: close(), cancel() and a socket's destruction with operations pending
// allocate nothing, whatever executor the aborted handlers or their sockets have; and a
// socket that cannot be tracked for want of memory (open, accept, connect_pair) gives
// `no_memory` and leaves no descriptor open.
//
// With --reactor-threads only the reactor threads' allocations are counted, and from the Nth
// on every one of theirs fails (a reactor thread out of memory): a batch it cannot hand over
// it performs itself, an executor that refuses a handler there throws, and that exception
// must leave run() (in at least one N) while the driver goes on.
//
//   alloc_failure_test <stock | reactor options ("driver=thread,trigger=oneshot_level")>
//                      [--reactor-threads] [N]
//
// With N, that one run in this process (a child on Windows, or for a debugger); its exit
// status is one of `outcome`'s (below), none of which a crash or abort() exits with.
//
// "stock" runs the same scenario on stock Asio, the reference: it prints at which N Asio
// itself breaks a rule or terminates, and passes whatever it finds.
#include <boost/asio_notify/connect.hpp>
#include <boost/asio_notify/ip/tcp.hpp>
#include <boost/asio_notify/ip/udp.hpp>
#include <boost/asio_notify/local/connect_pair.hpp>
#include <boost/asio_notify/local/stream_protocol.hpp>
#include <boost/asio_notify/reactor.hpp>

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ip/udp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>

#include "support/gated_executor.hpp"
#include "support/open_descriptors.hpp"

#if defined(_WIN32)
#include "psn_double.hpp"
#include <boost/asio_notify/port.hpp>

#include <malloc.h>  // _aligned_malloc
#include <process.h> // _spawnv
#else
#include <sys/wait.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

// ---- the failing allocator ---------------------------------------------------------------------

namespace {

// The allocations left before the one that fails; 0: none fails. Counted on every thread
// (a reactor thread's allocations are the driver's), or with `only_reactor_threads` on every
// thread but the one that runs the scenario and the io_context; there, from the Nth on, every
// allocation of those threads fails (a reactor thread that has run out of memory).
std::atomic<long> allocations_left{0};
// Every allocation of this thread, failed or not (what a reactor thread allocates meanwhile
// is not the calling thread's).
thread_local long allocations_made = 0;
std::atomic<bool> failure_injected{false};
std::atomic<bool> only_reactor_threads{false};
std::atomic<bool> out_of_memory{false}; // only_reactor_threads: the Nth and all after it fail
std::thread::id scenario_thread;

bool fails_now() noexcept
{
  const bool counted = !only_reactor_threads.load(std::memory_order_relaxed) ||
                       std::this_thread::get_id() != scenario_thread;
  if (!counted)
    return false;
  if (out_of_memory.load(std::memory_order_relaxed))
    return true;
  long left = allocations_left.load(std::memory_order_relaxed);
  while (left > 0 && !allocations_left.compare_exchange_weak(left, left - 1))
  {
  }
  if (left != 1)
    return false;
  failure_injected.store(true);
  if (only_reactor_threads.load(std::memory_order_relaxed))
    out_of_memory.store(true);
  return true;
}

void stop_failing() noexcept
{
  allocations_left.store(0);
  out_of_memory.store(false);
}

void* allocate(std::size_t size, std::size_t alignment)
{
  ++allocations_made;
  if (fails_now())
    throw std::bad_alloc();
  void* p = nullptr;
  if (alignment <= alignof(std::max_align_t))
    p = std::malloc(size == 0 ? 1 : size);
#if defined(_WIN32)
  else
    p = ::_aligned_malloc(size == 0 ? alignment : size, alignment);
#else
  else if (::posix_memalign(&p, alignment, size == 0 ? alignment : size) != 0)
    p = nullptr;
#endif
  if (!p)
    throw std::bad_alloc();
  return p;
}

void deallocate(void* p, std::size_t alignment) noexcept
{
#if defined(_WIN32)
  if (alignment > alignof(std::max_align_t))
    return ::_aligned_free(p);
#endif
  (void)alignment;
  std::free(p);
}

void* allocate_nothrow(std::size_t size, std::size_t alignment) noexcept
{
  try
  {
    return allocate(size, alignment);
  }
  catch (const std::bad_alloc&)
  {
    return nullptr;
  }
}

} // namespace

void* operator new(std::size_t n) { return allocate(n, 0); }
void* operator new[](std::size_t n) { return allocate(n, 0); }
void* operator new(std::size_t n, std::align_val_t a) { return allocate(n, std::size_t(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return allocate(n, std::size_t(a)); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return allocate_nothrow(n, 0); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept
{
  return allocate_nothrow(n, 0);
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept
{
  return allocate_nothrow(n, std::size_t(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept
{
  return allocate_nothrow(n, std::size_t(a));
}
// Asio's recycling allocator (its default, and std::allocator<void>'s in its operations)
// takes memory from aligned_alloc where the C library has it: replaced too, so that it
// fails as operator new does. (MinGW-w64 has none: Asio uses Boost.Align's there, which
// the test cannot replace in a static program, and does not fail.)
#if !defined(_WIN32)
extern "C" void* aligned_alloc(std::size_t alignment, std::size_t size) noexcept
{
  return allocate_nothrow(size, alignment);
}
#endif
void operator delete(void* p) noexcept { deallocate(p, 0); }
void operator delete[](void* p) noexcept { deallocate(p, 0); }
void operator delete(void* p, std::size_t) noexcept { deallocate(p, 0); }
void operator delete[](void* p, std::size_t) noexcept { deallocate(p, 0); }
void operator delete(void* p, std::align_val_t a) noexcept { deallocate(p, std::size_t(a)); }
void operator delete[](void* p, std::align_val_t a) noexcept { deallocate(p, std::size_t(a)); }
void operator delete(void* p, std::size_t, std::align_val_t a) noexcept
{
  deallocate(p, std::size_t(a));
}
void operator delete[](void* p, std::size_t, std::align_val_t a) noexcept
{
  deallocate(p, std::size_t(a));
}
void operator delete(void* p, const std::nothrow_t&) noexcept { deallocate(p, 0); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { deallocate(p, 0); }
void operator delete(void* p, std::align_val_t a, const std::nothrow_t&) noexcept
{
  deallocate(p, std::size_t(a));
}
void operator delete[](void* p, std::align_val_t a, const std::nothrow_t&) noexcept
{
  deallocate(p, std::size_t(a));
}

namespace {

namespace asio = boost::asio;
namespace an = boost::asio_notify;
using boost::system::error_code;

// ---- what the handlers did ---------------------------------------------------------------------

/// One handler's life, in memory allocated before the scenario (the records themselves never
/// allocate).
struct record
{
  const char* name = "";
  int copies_alive = 0; // handler objects not yet destroyed
  int calls = 0;
  bool initiation_threw = false;
};

constexpr std::size_t max_records = 16;
std::array<record, max_records> records;
std::size_t records_used = 0;
std::atomic<int> violations{0};
std::atomic<bool> run_threw{false}; // a bad_alloc left run()

void violation(const char* what, const record& r)
{
  std::printf("  violation: handler \"%s\": %s\n", r.name, what);
  violations.fetch_add(1);
}

/// A completion handler that counts its copies and its calls. Its associated allocator is
/// std::allocator, so that the memory of its operation and of its completion comes from
/// operator new, where it can fail (Asio's default, the recycling allocator, takes it from
/// aligned_alloc, past the replacement above).
class tracked
{
public:
  using allocator_type = std::allocator<void>;
  allocator_type get_allocator() const noexcept { return {}; }

  explicit tracked(record& r) : r_(&r) { ++r_->copies_alive; }
  tracked(const tracked& other) : r_(other.r_) { ++r_->copies_alive; }
  tracked(tracked&& other) noexcept : r_(other.r_) { ++r_->copies_alive; }
  tracked& operator=(const tracked&) = delete;
  ~tracked() { --r_->copies_alive; }

  template <class... Args>
  void operator()(Args&&...) const
  {
    if (++r_->calls > 1)
      violation("called twice", *r_);
    if (r_->initiation_threw)
      violation("called although its initiating function threw", *r_);
  }

private:
  record* r_;
};

/// Allocates once, so that the failing allocator makes the executor below refuse work as
/// a program's executor may.
struct allocate_once
{
  void operator()() const { ::operator delete(::operator new(1)); }
};

/// An executor over the io_context's whose execute() allocates (and so may throw).
using allocating_executor = test_support::gated_executor<allocate_once>;

// ---- the scenario ----------------------------------------------------------------------------

/// Runs `start(handler)` with a new tracked handler; a bad_alloc from it is recorded.
template <class Start>
void initiate(const char* name, Start start)
{
  record& r = records[records_used++];
  r.name = name;
  try
  {
    start(tracked(r));
  }
  catch (const std::bad_alloc&)
  {
    r.initiation_threw = true;
  }
}

/// run() until the io_context is out of work; a bad_alloc from it is caught and run()
/// called again (Asio's rule: the io_context can be run again after a handler threw).
void run_to_end(asio::io_context& ioc)
{
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  for (;;)
  {
    try
    {
      ioc.restart();
      if (ioc.run_for(std::chrono::seconds(1)) == 0 && ioc.stopped())
        return;
      if (ioc.stopped())
        return;
    }
    catch (const std::bad_alloc&)
    {
      run_threw.store(true);
    }
    if (std::chrono::steady_clock::now() > give_up)
    {
      std::printf("  violation: the io_context still had work after 5 s (a lost operation)\n");
      violations.fetch_add(1);
      for (std::size_t i = 0; i < records_used; ++i)
        if (records[i].calls == 0 && records[i].copies_alive != 0)
          std::printf("    still pending: \"%s\"\n", records[i].name);
      return;
    }
  }
}

/// `strand` is made before allocations fail: Asio's strand_executor_service crashes when
/// the allocation of its implementation's shared_ptr fails (strand_impl's destructor locks a
/// mutex it does not have yet), which is Asio's, and not what this test is about.
/// One step of the scenario: run() until the io_context is out of work or nothing happens
/// for 300 ms (an operation may wait on legitimately: an accept whose connect could not be
/// started). What is still pending then is aborted or destroyed later, and checked at the end.
void run_step(asio::io_context& ioc)
{
  for (;;)
  {
    try
    {
      ioc.restart();
      if (ioc.run_for(std::chrono::milliseconds(300)) == 0 || ioc.stopped())
        return;
    }
    catch (const std::bad_alloc&)
    {
      run_threw.store(true);
    }
  }
}

template <class Tcp, class Udp, class Strand>
void scenario(asio::io_context& ioc, const Strand& strand)
{
  using socket = typename Tcp::socket;
  using udp_socket = typename Udp::socket;
  using acceptor = typename Tcp::acceptor;
  acceptor listener(ioc, typename Tcp::endpoint(asio::ip::address_v4::loopback(), 0));
  const typename Tcp::endpoint to = listener.local_endpoint();
  const allocating_executor refusing(ioc.get_executor());
  std::array<char, 16> in0{};
  std::array<char, 16> in{};
  std::array<char, 16> in2{};
  std::array<char, 16> in3{};
  static const char hello[] = "hello";

  socket server(ioc);
  socket client(ioc);
  initiate("accept", [&](tracked h) { listener.async_accept(server, std::move(h)); });
  initiate("connect", [&](tracked h) { client.async_connect(to, std::move(h)); });
  run_step(ioc);
  if (!server.is_open() || !client.is_open())
    return; // the connection failed to come about: nothing more to exchange

  // Ready while no thread runs the io_context: the thread driver's reactor thread takes the
  // packet and, where it cannot hand it over, performs the read itself and schedules its
  // handler through an executor that may refuse it there (--reactor-threads).
  initiate("read through the allocating executor, ready outside run()", [&](tracked h) {
    server.async_read_some(asio::buffer(in0), asio::bind_executor(refusing, std::move(h)));
  });
  error_code write_failed;
  client.write_some(asio::buffer(hello), write_failed);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  run_step(ioc);

  initiate("write through a strand", [&](tracked h) {
    client.async_write_some(asio::buffer(hello), asio::bind_executor(strand, std::move(h)));
  });
  initiate("wait through the allocating executor", [&](tracked h) {
    server.async_wait(socket::wait_read, asio::bind_executor(refusing, std::move(h)));
  });
  initiate("read", [&](tracked h) { server.async_read_some(asio::buffer(in), std::move(h)); });
  initiate("wait for writability",
           [&](tracked h) { client.async_wait(socket::wait_write, std::move(h)); });
  run_step(ioc);

  // Pending when their sockets close or go: aborted, or destroyed with the reactor.
  initiate("read aborted by close", [&](tracked h) {
    server.async_read_some(asio::buffer(in2), asio::bind_executor(strand, std::move(h)));
  });
  initiate("wait for an error, aborted by close",
           [&](tracked h) { server.async_wait(socket::wait_error, std::move(h)); });
  {
    socket doomed(std::move(client));
    initiate("read aborted by destruction", [&](tracked h) {
      doomed.async_read_some(asio::buffer(in3), asio::bind_executor(refusing, std::move(h)));
    });
  }
  error_code ignored;
  server.close(ignored);
  run_step(ioc);

  // The composed connect, over an endpoint sequence.
  socket again(ioc);
  socket accepted(ioc);
  initiate("accept again", [&](tracked h) { listener.async_accept(accepted, std::move(h)); });
  const std::array<typename Tcp::endpoint, 1> endpoints{to};
  initiate("composed connect", [&](tracked h) {
    auto done = [h](const error_code& ec, const typename Tcp::endpoint&) {
      h(ec);
    };
    if constexpr (std::is_same_v<Tcp, an::ip::tcp>)
      an::async_connect(again, endpoints, std::move(done));
    else
      asio::async_connect(again, endpoints, std::move(done));
  });
  run_step(ioc);
  // A socket outlives its operations (the composed connect holds a reference to its socket,
  // as Asio's does): whatever still waits is aborted, and its handler run, before they go.
  again.close(ignored);
  accepted.close(ignored);
  listener.close(ignored);
  run_step(ioc);

  // Datagrams: a receive waits, a send wakes it.
  udp_socket receiver(ioc, typename Udp::endpoint(asio::ip::address_v4::loopback(), 0));
  udp_socket sender(ioc, typename Udp::endpoint(asio::ip::address_v4::loopback(), 0));
  typename Udp::endpoint from;
  initiate("receive_from",
           [&](tracked h) { receiver.async_receive_from(asio::buffer(in), from, std::move(h)); });
  initiate("send_to", [&](tracked h) {
    sender.async_send_to(asio::buffer(hello), receiver.local_endpoint(), std::move(h));
  });
  run_step(ioc);
  receiver.close(ignored);
  run_step(ioc);
}

// ---- aborting allocates nothing ----------------------------------------------------------------

/** close(), cancel() and a socket's destruction are noexcept or may not fail for want of memory:
    they allocate nothing, whatever executor the handlers they abort have (the io_context's, a
    strand, a program's own), whether bound to the handler or given to the socket; the
    aborted handlers then run, each once. Returns the allocations the calling thread made
    in the aborting calls. */
template <class Tcp, class Strand>
long allocations_of_aborts(asio::io_context& ioc, const Strand& strand)
{
  using socket = typename Tcp::socket;
  typename Tcp::acceptor listener(ioc, typename Tcp::endpoint(asio::ip::address_v4::loopback(), 0));
  const allocating_executor refusing(ioc.get_executor());
  std::array<socket, 10> s{socket(ioc),      socket(ioc), socket(ioc),    socket(ioc),
                           socket(ioc),      socket(ioc), socket(strand), socket(strand),
                           socket(refusing), socket(ioc)};
  for (std::size_t i = 0; i < s.size(); i += 2)
  {
    s[i].connect(listener.local_endpoint());
    listener.accept(s[i + 1]);
  }
  std::array<std::array<char, 4>, 10> in{};
  initiate("aborted by close, strand", [&](tracked h) {
    s[0].async_read_some(asio::buffer(in[0]), asio::bind_executor(strand, std::move(h)));
  });
  initiate("aborted by close, program's executor", [&](tracked h) {
    s[0].async_wait(socket::wait_error, asio::bind_executor(refusing, std::move(h)));
  });
  initiate("aborted by close, io_context", [&](tracked h) {
    s[0].async_wait(socket::wait_write, std::move(h)); // may be done before the close: fine
  });
  initiate("aborted by cancel, strand", [&](tracked h) {
    s[2].async_read_some(asio::buffer(in[2]), asio::bind_executor(strand, std::move(h)));
  });
  initiate("aborted by destruction, program's executor", [&](tracked h) {
    s[4].async_read_some(asio::buffer(in[4]), asio::bind_executor(refusing, std::move(h)));
  });
  initiate("aborted by close, socket on a strand",
           [&](tracked h) { s[6].async_read_some(asio::buffer(in[6]), std::move(h)); });
  initiate("aborted by close, socket on a program's executor",
           [&](tracked h) { s[8].async_read_some(asio::buffer(in[8]), std::move(h)); });
  const long before = allocations_made;
  error_code ignored;
  s[0].close(ignored);
  s[2].cancel(ignored);
  s[6].close(ignored);
  s[8].close(ignored);
  {
    socket doomed(std::move(s[4]));
  }
  const long made = allocations_made - before;
  run_to_end(ioc);
  for (std::size_t i = 0; i < records_used; ++i)
    if (records[i].calls != 1)
      violation("did not run exactly once after its operation was aborted", records[i]);
  return made;
}

/// The check above, in this process; 0 when it holds (for stock Asio, the reference, always).
int check_aborts(const std::string& configuration)
{
  asio::io_context ioc;
  const auto strand = asio::make_strand(ioc);
  long made = 0;
  if (configuration == "stock")
    made = allocations_of_aborts<asio::ip::tcp>(ioc, strand);
  else
  {
    asio::make_service<an::reactor>(ioc, an::parse_reactor_options(configuration));
    made = allocations_of_aborts<an::ip::tcp>(ioc, strand);
  }
  std::printf("%s: close, cancel and destruction with operations pending made %ld allocations\n",
              configuration.c_str(), made);
  if (made != 0)
    violations.fetch_add(1);
  return violations.load() == 0 || configuration == "stock" ? 0 : 1;
}

// ---- counting descriptors ----------------------------------------------------------------------

#if defined(_WIN32)
bool double_installed = false; // the PSN test double stands in for the system's
#endif

/// Lets the PSN double drop what it keeps of closed ports (a duplicate of the port's handle
/// and its AFD handles), which it otherwise does at its next call: the system would not
/// count them as the process's.
void settle()
{
#if defined(_WIN32)
  if (double_installed)
    psn_double::registration_count();
#endif
}

/// The process's open descriptors, once the double has let go of closed ports.
long settled_descriptors()
{
  settle();
  return test_support::open_descriptors();
}

// ---- a socket the reactor cannot track ---------------------------------------------------------

constexpr int adoption_attempts = 300; // the state table grows at 64 and 192 sockets

/** Tries `take_on(i)` for i = 0, 1, ... with every allocation failing, keeping what it opened
    while it succeeds (the reactor finds a free slot), until the reactor needs memory for
    the next socket: that call must report `no_memory`, throw nothing, and leave exactly as
    many descriptors open as before it. `prepare(i)` runs first with memory available. */
template <class Prepare, class TakeOn>
bool fails_cleanly(const char* what, Prepare prepare, TakeOn take_on)
{
  for (int i = 0; i < adoption_attempts; ++i)
  {
    prepare(i);
    const long before = settled_descriptors();
    error_code ec;
    bool threw = false;
    out_of_memory.store(true);
    try
    {
      take_on(i, ec);
    }
    catch (...)
    {
      threw = true;
    }
    stop_failing();
    if (!threw && !ec)
      continue;
    long after = -1;
    const bool none_left = test_support::descriptors_back_to(before, after, settle);
    std::printf("%s with no memory, after %d that fitted: %s, %ld descriptors open before, "
                "%ld after\n",
                what, i, threw ? "threw" : ec.message().c_str(), before, after);
    return !threw && ec == asio::error::no_memory && none_left;
  }
  std::printf("%s: %d sockets fitted with no memory to spare\n", what, adoption_attempts);
  return false;
}

/// `n` closed sockets, made while memory lasts.
template <class Socket>
std::vector<Socket> closed_sockets(asio::io_context& ioc, std::size_t n)
{
  std::vector<Socket> sockets;
  sockets.reserve(n);
  while (sockets.size() < n)
    sockets.emplace_back(ioc);
  return sockets;
}

/// `check(ioc)` on an io_context with a reactor of its own, whose state table starts empty.
/// With `first_socket`, a socket is opened first while memory lasts, so that the table's
/// first chunk exists and it next grows when the socket under test needs slot 64 (the
/// open, the second end of a pair; an accept has its listener there instead).
template <class Check>
bool on_new_reactor(const std::string& configuration, bool first_socket, Check check)
{
  asio::io_context ioc;
  asio::make_service<an::reactor>(ioc, an::parse_reactor_options(configuration));
  std::optional<an::ip::tcp::socket> first;
  if (first_socket)
    first.emplace(ioc, an::ip::tcp::v4());
  return check(ioc);
}

/// open(protocol, ec), accept(peer, ec) and connect_pair(a, b, ec) when the reactor cannot
/// track the new socket.
bool check_adoption(const std::string& configuration)
{
  using tcp = an::ip::tcp;
  bool held = on_new_reactor(configuration, true, [](asio::io_context& ioc) {
    auto sockets = closed_sockets<tcp::socket>(ioc, adoption_attempts);
    return fails_cleanly(
        "open", [](int) {}, [&](int i, error_code& ec) { sockets[i].open(tcp::v4(), ec); });
  });
  held &= on_new_reactor(configuration, false, [](asio::io_context& ioc) {
    tcp::acceptor listener(ioc, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
    auto clients = closed_sockets<tcp::socket>(ioc, adoption_attempts);
    auto peers = closed_sockets<tcp::socket>(ioc, adoption_attempts);
    return fails_cleanly(
        "accept", [&](int i) { clients[i].connect(listener.local_endpoint()); },
        [&](int i, error_code& ec) { listener.accept(peers[i], ec); });
  });
#if defined(BOOST_ASIO_HAS_LOCAL_SOCKETS) && !defined(_WIN32)
  held &= on_new_reactor(configuration, true, [](asio::io_context& ioc) {
    using local = an::local::stream_protocol;
    auto ends = closed_sockets<local::socket>(ioc, 2 * adoption_attempts);
    return fails_cleanly(
        "connect_pair", [](int) {},
        [&](int i, error_code& ec) { an::local::connect_pair(ends[2 * i], ends[2 * i + 1], ec); });
  });
#endif
  if (!held)
    violations.fetch_add(1);
  return held;
}

// ---- one N -------------------------------------------------------------------------------------

enum outcome
{
  no_failure_injected = 40, // the scenario ran to its end with no allocation failing: done
  held = 41,                // an allocation failed, and every rule held
  broken = 42,              // a rule was broken (printed)
  held_and_delivered = 43   // held, and a reactor thread's bad_alloc left run()
};

/// The child: run the scenario with the Nth allocation failing, then check the records.
/// The scenario on an io_context of its own with the Nth allocation failing (0: none), then
/// the checks of its records.
void run_scenario(const std::string& configuration, long n)
{
  {
    asio::io_context ioc;
    an::reactor* reactor = nullptr;
    if (configuration != "stock")
      reactor = &asio::make_service<an::reactor>(ioc, an::parse_reactor_options(configuration));
    const auto strand = asio::make_strand(ioc);
    allocations_left.store(n);
    try
    {
      if (reactor)
        scenario<an::ip::tcp, an::ip::udp>(ioc, strand);
      else
        scenario<asio::ip::tcp, asio::ip::udp>(ioc, strand);
    }
    catch (const std::bad_alloc&)
    {
      // From a constructor (a socket, the strand): the scenario ends there, its objects
      // destroyed on the way out, as a program's would be.
    }
    catch (const boost::system::system_error& e)
    {
      // A constructor that opens a socket the reactor could not track: the same.
      if (e.code() != asio::error::no_memory)
        throw;
    }
    stop_failing();
    run_to_end(ioc); // what the destroyed objects aborted
    if (reactor && reactor->statistics().registered_sockets != 0)
    {
      std::printf("  violation: %llu sockets still registered in the port\n",
                  static_cast<unsigned long long>(reactor->statistics().registered_sockets));
      violations.fetch_add(1);
    }
  } // the io_context goes: every handler still held is destroyed
  for (std::size_t i = 0; i < records_used; ++i)
    if (records[i].copies_alive != 0)
      violation("never destroyed (leaked with its operation)", records[i]);
}

int run_once(const std::string& configuration, long n)
{
  scenario_thread = std::this_thread::get_id();
#if defined(_WIN32)
  // Winsock and the threads make some handles on first use and keep them (5 under Wine):
  // a first run with nothing failing makes them before the count.
  run_scenario(configuration, 0);
  records.fill(record{});
  records_used = 0;
#endif
  const long descriptors_before = settled_descriptors();
  run_scenario(configuration, n);
  long descriptors_after = -1;
  if (!test_support::descriptors_back_to(descriptors_before, descriptors_after, settle))
  {
    std::printf("  violation: %ld descriptors open before the scenario, %ld after\n",
                descriptors_before, descriptors_after);
    violations.fetch_add(1);
  }
  if (violations.load() != 0)
    return broken;
  if (!failure_injected.load())
    return no_failure_injected;
  return only_reactor_threads.load() && run_threw.load() ? held_and_delivered : held;
}

#if defined(_WIN32)
const char* program_path = "";

/// Whether a child's `_spawnv` status says that it never ran main(): the call failed, or
/// the loader ended the process while it initialised its DLLs. Both are seen under Wine,
/// loaded; neither ran the scenario, so that N runs again instead of counting as broken.
bool never_started(std::intptr_t status)
{
  constexpr std::uint32_t dll_init_failed = 0xC0000142; // STATUS_DLL_INIT_FAILED
  return status < 0 || static_cast<std::uint32_t>(status) == dll_init_failed;
}

/// What became of the child that ran N (this program again, given N): its outcome, or a
/// description of its death.
int run_child(const std::string& configuration, long n, std::string& death)
{
  std::fflush(stdout);
  const std::string n_text = std::to_string(n);
  std::vector<const char*> args{program_path, configuration.c_str()};
  if (only_reactor_threads.load())
    args.push_back("--reactor-threads");
  args.push_back(n_text.c_str());
  args.push_back(nullptr);
  std::intptr_t status = -1;
  for (int attempt = 0; attempt < 5 && never_started(status); ++attempt)
  {
    if (attempt != 0)
    {
      std::printf("N=%ld: the child did not start (%s), tried again\n", n,
                  status < 0 ? "_spawnv failed" : "STATUS_DLL_INIT_FAILED");
      std::fflush(stdout);
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    status = ::_spawnv(_P_WAIT, program_path, args.data());
  }
  if (status >= no_failure_injected && status <= held_and_delivered)
    return static_cast<int>(status);
  char text[64];
  if (status < 0)
    std::snprintf(text, sizeof text, "could not run the child (errno %d)", errno);
  else
    std::snprintf(text, sizeof text, "exited with 0x%lx", static_cast<unsigned long>(status));
  death = text;
  return broken;
}

/// Where the system has no PSN (Wine), the PSN backend runs on the test double.
void prepare_backend(const std::string& configuration)
{
  if (configuration.find("backend=psn") != std::string::npos &&
      !an::is_supported(an::port_backend::psn))
  {
    psn_double::install();
    double_installed = true;
  }
}
#else
void prepare_backend(const std::string&) {}

/// What became of the child that ran N: its outcome, or a description of its death.
int run_child(const std::string& configuration, long n, std::string& death)
{
  std::fflush(stdout);
  const pid_t pid = ::fork();
  if (pid == 0)
    std::exit(run_once(configuration, n)); // exit, not _exit: LeakSanitizer checks here
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) != pid)
  {
    death = "could not run the child";
    return broken;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) >= no_failure_injected &&
      WEXITSTATUS(status) <= held_and_delivered)
    return WEXITSTATUS(status);
  death = WIFSIGNALED(status)
              ? std::string("terminated by signal ") + std::to_string(WTERMSIG(status)) + " (" +
                    strsignal(WTERMSIG(status)) + ")"
              : "exited with " + std::to_string(WEXITSTATUS(status));
  return broken;
}
#endif

} // namespace

int main(int argc, char** argv)
{
  std::vector<std::string> args(argv + 1, argv + argc);
  const auto flag = std::find(args.begin(), args.end(), "--reactor-threads");
  const bool reactor_threads = flag != args.end();
  if (reactor_threads)
    args.erase(flag);
  if (args.size() != 1 && args.size() != 2)
  {
    std::fprintf(stderr,
                 "usage: alloc_failure_test <stock | reactor options> [--reactor-threads] [N]\n");
    return 2;
  }
  const std::string configuration = args[0];
#if defined(_WIN32)
  program_path = argv[0];
#endif
  prepare_backend(configuration);
  only_reactor_threads.store(reactor_threads);
  if (args.size() == 2) // one N in this process: a child on Windows, or to debug it
    return run_once(configuration, std::atol(args[1].c_str()));
  if (!reactor_threads && check_aborts(configuration) != 0)
    return 1;
  if (!reactor_threads && configuration != "stock" && !check_adoption(configuration))
    return 1;
  const bool reference = configuration == "stock";
  records.fill(record{}); // the children start afresh
  records_used = 0;
  long broken_runs = 0;
  long delivered_runs = 0;
  long n = 1;
  for (;; ++n)
  {
    std::string death;
    const int result = run_child(configuration, n, death);
    if (result == no_failure_injected)
      break;
    if (result == held_and_delivered)
      ++delivered_runs;
    if (result == broken)
    {
      ++broken_runs;
      std::printf("N=%ld: %s\n", n, death.empty() ? "a rule was broken (above)" : death.c_str());
    }
    if (n > 100000)
    {
      std::printf("more than 100000 allocations: giving up\n");
      return 1;
    }
  }
  std::printf("%s: %ld allocations%s tried one by one, %ld broke a rule%s\n", configuration.c_str(),
              n - 1, reactor_threads ? " of the reactor threads" : "", broken_runs,
              reference ? " (stock Asio, the reference: reported only)" : "");
  if (reactor_threads)
  {
    // A reactor thread that cannot hand a batch over performs it and posts the handlers
    // itself; an executor that then refuses one throws there, and run() must rethrow it.
    std::printf("  in %ld of them a reactor thread's bad_alloc left run()\n", delivered_runs);
    if (delivered_runs == 0)
      return 1;
  }
  return reference || broken_runs == 0 ? 0 : 1;
}
