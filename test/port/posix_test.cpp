//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// POSIX-only checks of the port: socketpairs, non-socket descriptors, descriptor reuse by
// dup2, the port's own descriptor, and construction failure (descriptor exhaustion).
#include "sockets.hpp"
#include "port_helpers.hpp"

#include <boost/test/unit_test.hpp>

#if !defined(_WIN32)

#include <boost/system/system_error.hpp>

#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <ctime>
#include <optional>
#include <thread>

using namespace port_test;
using an::events;
using std::chrono::milliseconds;
namespace asio_error = boost::asio::error;

namespace {

struct socket_pair
{
  unique_socket a;
  unique_socket b;
};

socket_pair make_socketpair(int type)
{
  int sv[2];
  BOOST_TEST_REQUIRE(::socketpair(AF_UNIX, type, 0, sv) == 0);
  socket_pair p{unique_socket(sv[0]), unique_socket(sv[1])};
  set_nonblocking(sv[0]);
  set_nonblocking(sv[1]);
  return p;
}

struct pipe_fds
{
  unique_socket read; // unique_socket just closes the descriptor
  unique_socket write;
};

pipe_fds make_pipe()
{
  int fds[2];
  BOOST_TEST_REQUIRE(::pipe(fds) == 0);
  return {unique_socket(fds[0]), unique_socket(fds[1])};
}

bool readable_now(int fd)
{
  pollfd pfd{fd, POLLIN, 0};
  return ::poll(&pfd, 1, 0) == 1;
}

double thread_cpu_ms()
{
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

// The lowest descriptor number open() would return now.
int lowest_free_fd()
{
  const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  BOOST_TEST_REQUIRE(fd >= 0);
  ::close(fd);
  return fd;
}

} // namespace

BOOST_AUTO_TEST_SUITE(port_posix)

BOOST_AUTO_TEST_CASE(supported_and_has_a_descriptor)
{
  BOOST_TEST(an::is_supported());
  an::port p;
  BOOST_TEST(p.native_handle() >= 0);
  BOOST_TEST((p.backend() == an::port_backend::epoll));
}

// epoll is the only backend here: Windows' are refused cleanly, whatever the environment.
BOOST_AUTO_TEST_CASE(windows_backends_are_not_supported)
{
  BOOST_TEST(an::is_supported(an::port_backend::epoll));
  BOOST_TEST(an::is_supported(an::port_backend::automatic));
  for (an::port_backend b : {an::port_backend::psn, an::port_backend::afd})
  {
    BOOST_TEST_CONTEXT(an::to_string(b))
    {
      BOOST_TEST(!an::is_supported(b));
      boost::system::error_code ec;
      an::port p(b, ec);
      BOOST_TEST(ec == boost::asio::error::operation_not_supported);
      BOOST_TEST((p.backend() == an::port_backend::automatic));
      BOOST_CHECK_THROW(an::port{b}, boost::system::system_error);
    }
  }
  BOOST_TEST(an::port(an::port_backend::epoll).native_handle() >= 0);
}

// The port's descriptor is readable exactly when a packet may be dequeued (what lets an
// event loop wait on it).
BOOST_AUTO_TEST_CASE(native_handle_readable_when_packet_ready)
{
  an::port p;
  const int h = p.native_handle();
  BOOST_TEST(!readable_now(h));
  int user = 0, key = 0;
  p.post(&user);
  BOOST_TEST(readable_now(h));
  BOOST_TEST(dequeue_once(p, milliseconds(0)).size() == 1u);
  BOOST_TEST(!readable_now(h));

  tcp_pair c = make_tcp_pair();
  BOOST_TEST_REQUIRE(!apply(p, enable(c.client.native(), &key, events::in, level_oneshot)));
  BOOST_TEST(!readable_now(h));
  send_bytes(c.server.get());
  BOOST_TEST_REQUIRE(wait_readable(c.client.get()));
  BOOST_TEST(readable_now(h));
  BOOST_TEST(dequeue_once(p, milliseconds(0)).size() == 1u);
  BOOST_TEST(!readable_now(h)); // one-shot fired
  BOOST_TEST_REQUIRE(!apply(p, remove(c.client.native(), &key)));
  BOOST_TEST(readable_now(h)); // the remove packet
  expect_remove(p, &key);
  BOOST_TEST(!readable_now(h));
}

// Stream socketpair: level, one-shot, edge and hangup behave as on TCP.
BOOST_AUTO_TEST_CASE(socketpair_stream)
{
  an::port p;
  socket_pair sp = make_socketpair(SOCK_STREAM);
  int key = 0;
  const auto s = sp.a.native();
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::in)));
  expect_nothing(p);
  send_bytes(sp.b.get());
  expect_notification(p, &key, events::in);
  expect_notification(p, &key, events::in); // level persistent repeats
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::in, level_oneshot)));
  expect_notification(p, &key, events::in);
  expect_nothing(p); // one-shot
  BOOST_TEST(drain(sp.a.get()) == 1u);
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::in | events::hangup, edge)));
  expect_nothing(p);
  send_bytes(sp.b.get());
  expect_notification(p, &key, events::in);
  expect_nothing(p); // edge: not repeated
  drain(sp.a.get());
  sp.b.reset();
  an::packet pk = expect_notification(p, &key);
  BOOST_TEST(an::has_any(pk.events, events::hangup));
  expect_nothing(p);
  BOOST_TEST_REQUIRE(!apply(p, remove(s, &key)));
  expect_remove(p, &key);
  expect_nothing(p);
}

// Datagram socketpair: a datagram socket never reports hangup, even fully shut down.
BOOST_AUTO_TEST_CASE(socketpair_datagram_never_reports_hangup)
{
  an::port p;
  socket_pair sp = make_socketpair(SOCK_DGRAM);
  int key = 0;
  const auto s = sp.a.native();
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::in | events::hangup, level_oneshot)));
  send_bytes(sp.b.get());
  expect_notification(p, &key, events::in);
  drain(sp.a.get());
  BOOST_TEST(::shutdown(sp.a.get(), SHUT_RDWR) == 0); // EPOLLHUP from the kernel
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::in | events::hangup, level_oneshot)));
  an::packet pk = expect_notification(p, &key);
  BOOST_TEST(pk.events == events::in);
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::hangup, edge)));
  expect_nothing(p);
}

// Rules 1, 3 and 4 on a socketpair, with the descriptor reused through dup2.
BOOST_AUTO_TEST_CASE(socketpair_ownership_remove_and_reuse)
{
  an::port a, b;
  socket_pair sp = make_socketpair(SOCK_STREAM);
  int ka = 1, kb = 2;
  const int fd = sp.a.get();
  BOOST_TEST_REQUIRE(!apply(a, enable(fd, &ka, events::in)));
  BOOST_TEST(apply(b, enable(fd, &kb, events::in)) == asio_error::already_open);
  // Close: silent deregistration.
  sp.a.reset();
  expect_nothing(a, quiet, [&] { send_bytes(sp.b.get()); });
  // A new socketpair end at the same descriptor joins port B with another key.
  socket_pair fresh = make_socketpair(SOCK_STREAM);
  if (fresh.a.get() != fd)
  {
    BOOST_TEST_REQUIRE(::dup2(fresh.a.get(), fd) == fd);
    fresh.a.reset(fd);
  }
  BOOST_TEST_REQUIRE(!apply(b, enable(fd, &kb, events::in)));
  send_bytes(fresh.b.get());
  expect_notification(b, &kb, events::in);
  BOOST_TEST(apply(a, enable(fd, &ka, events::in)) == asio_error::already_open);
  BOOST_TEST(apply(a, remove(fd, &ka)) != boost::system::error_code());
  expect_nothing(a);
  BOOST_TEST_REQUIRE(!apply(b, remove(fd, &kb)));
  expect_remove(b, &kb);
  expect_nothing(b, quiet, [&] { send_bytes(fresh.b.get()); });
}

// A pipe is not a socket: not_socket for a valid entry, invalid_argument for an invalid one
// (validation first), not_found for disable/remove (never registered).
BOOST_AUTO_TEST_CASE(pipe_is_not_a_socket)
{
  an::port p;
  pipe_fds pf = make_pipe();
  int key = 0;
  const int fd = pf.read.get();
  BOOST_TEST(apply(p, enable(fd, &key, events::in)) == asio_error::not_socket);
  BOOST_TEST(apply(p, enable(fd, &key, events::in, an::trigger::level | an::trigger::edge)) ==
             asio_error::invalid_argument);
  BOOST_TEST(apply(p, enable(fd, &key, events::in, an::trigger::none)) ==
             asio_error::invalid_argument);
  an::registration none_op = enable(fd, &key, events::in);
  none_op.operation = an::operation::none;
  BOOST_TEST(apply(p, none_op) == asio_error::invalid_argument);
  BOOST_TEST(apply(p, disable(fd, &key)) == asio_error::not_found);
  BOOST_TEST(apply(p, remove(fd, &key)) == asio_error::not_found);
  BOOST_TEST(::write(pf.write.get(), "x", 1) == 1);
  expect_nothing(p);
}

// A registered socket closed and its descriptor taken by a pipe: the registration does not
// carry over, nothing is reported, and no remove packet comes.
BOOST_FIXTURE_TEST_CASE(registered_descriptor_reused_by_non_socket, port_and_pair)
{
  int key = 0;
  const int fd = c.client.get();
  BOOST_TEST_REQUIRE(!apply(p, enable(fd, &key, events::in)));
  c.client.reset();
  pipe_fds pf = make_pipe();
  if (pf.read.get() != fd)
  {
    BOOST_TEST_REQUIRE(::dup2(pf.read.get(), fd) == fd);
    pf.read.reset(fd);
  }
  BOOST_TEST(::write(pf.write.get(), "x", 1) == 1);
  expect_nothing(p);
  BOOST_TEST(apply(p, enable(fd, &key, events::in)) == asio_error::not_socket);
  BOOST_TEST(apply(p, disable(fd, &key)) != boost::system::error_code());
  BOOST_TEST(apply(p, remove(fd, &key)) != boost::system::error_code());
  expect_nothing(p);
}

// epoll reports EPOLLHUP whatever the mask. A level-triggered registration whose filter
// excludes the only condition that holds has nothing to report: dequeue must then wait
// without spinning, and the port's descriptor must not look readable (an event loop
// waiting on it would spin too). A wanted condition that comes later is still reported,
// level-triggered.
BOOST_AUTO_TEST_CASE(unwanted_hangup_neither_reports_nor_spins)
{
  int key = 0;
  for (an::trigger t : {level, level_oneshot, an::trigger::edge | an::trigger::oneshot})
  {
    // A UDP socket fully shut down, hangup asked for: never reported (rule 10).
    an::port p;
    udp_pair u = make_udp_pair();
    BOOST_TEST(::shutdown(u.a.get(), SHUT_RDWR) == 0);
    BOOST_TEST_REQUIRE(!apply(p, enable(u.a.native(), &key, events::hangup, t)));
    const double cpu = thread_cpu_ms();
    BOOST_TEST(dequeue_once(p, milliseconds(120)).empty());
    BOOST_TEST(thread_cpu_ms() - cpu < 40.0, "dequeue spun while waiting");
    BOOST_TEST(!readable_now(p.native_handle()));
  }
  for (an::trigger t : {level, level_oneshot})
  {
    // A TCP socket not connected yet (the kernel says EPOLLHUP), `in` asked for.
    an::port p;
    unique_socket s = make_socket(SOCK_STREAM);
    BOOST_TEST_REQUIRE(!apply(p, enable(s.native(), &key, events::in, t)));
    const double cpu = thread_cpu_ms();
    BOOST_TEST(dequeue_once(p, milliseconds(120)).empty());
    BOOST_TEST(thread_cpu_ms() - cpu < 40.0, "dequeue spun while waiting");
    BOOST_TEST(!readable_now(p.native_handle()));
    // Connected, then data: reported; level persistent again and again while unread,
    // one-shot once until re-enabled.
    unique_socket l = make_listener();
    connect_blocking(s.get(), l.get());
    unique_socket peer = accept_one(l.get());
    set_nonblocking(s.get());
    expect_nothing(p);
    send_bytes(peer.get());
    if (t == level)
    {
      for (int i = 0; i < 3; ++i)
        expect_notification(p, &key, events::in);
    }
    else
    {
      expect_notification(p, &key, events::in);
      expect_nothing(p, quiet, [&] { send_bytes(peer.get()); });
      BOOST_TEST_REQUIRE(!apply(p, enable(s.native(), &key, events::in, t)));
      expect_notification(p, &key, events::in);
      BOOST_TEST_REQUIRE(!apply(p, enable(s.native(), &key, events::in, t)));
    }
    drain(s.get());
    expect_nothing(p);
  }
}

// A re-enable that the unready hint covers asks the kernel nothing: given though data is
// still unread (a wrong hint), it reports nothing until more data comes, where a re-enable
// without the hint reports the unread data at once (level triggering). Each would fail if
// the re-arm made an epoll_ctl call, or never made one.
BOOST_FIXTURE_TEST_CASE(hinted_rearm_makes_no_system_call, port_and_pair)
{
  int key = 0;
  const auto s = c.client.native();
  const an::registration hinted = hinted_enable(s, &key, events::in);
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::in, level_oneshot)));
  send_bytes(c.server.get());
  expect_notification(p, &key, events::in);
  BOOST_TEST_REQUIRE(!apply(p, hinted));
  expect_nothing(p); // unread, but no edge since the hint
  send_bytes(c.server.get());
  expect_notification(p, &key, events::in);
  BOOST_TEST_REQUIRE(!apply(p, enable(s, &key, events::in, level_oneshot)));
  expect_notification(p, &key, events::in); // unread: the kernel was asked
  // A hint that leaves out part of the filter is no hint.
  const an::registration partial = hinted_enable(s, &key, events::in | events::hangup, events::in);
  for (int i = 0; i < 2; ++i) // a new filter, then a re-enable
  {
    BOOST_TEST_REQUIRE(!apply(p, partial));
    expect_notification(p, &key, events::in);
  }
  BOOST_TEST(drain(c.client.get()) == 2u);
  expect_nothing(p);
}

// A port's registrations end with the port: its sockets may join another port.
BOOST_AUTO_TEST_CASE(destroyed_port_releases_its_sockets)
{
  tcp_pair c = make_tcp_pair();
  int k1 = 1, k2 = 2;
  // Both alive at once, so the second cannot be mistaken for the first (same address).
  std::optional<an::port> first(std::in_place);
  an::port second;
  BOOST_TEST_REQUIRE(!apply(*first, enable(c.client.native(), &k1, events::in)));
  BOOST_TEST(apply(second, enable(c.client.native(), &k2, events::in)) == asio_error::already_open);
  first.reset();
  BOOST_TEST_REQUIRE(!apply(second, enable(c.client.native(), &k2, events::in)));
  send_bytes(c.server.get());
  expect_notification(second, &k2, events::in);
}

// A full local shutdown of a TCP socket is a hangup (EPOLLHUP), even with the peer open.
BOOST_FIXTURE_TEST_CASE(local_full_shutdown_reports_hangup, port_and_pair)
{
  int key = 0;
  BOOST_TEST_REQUIRE(!apply(p, enable(c.client.native(), &key, events::hangup, level_oneshot)));
  expect_nothing(p);
  BOOST_TEST(::shutdown(c.client.get(), SHUT_RDWR) == 0);
  expect_notification(p, &key, events::hangup);
}

// A one-shot registration re-armed by the thread that dequeued its packet, as a reactor
// does, while another thread replaces it (remove, then enable afresh): each new registration
// reports the socket's pending data, again after every re-arm. The epoll backend re-arms
// outside its lock; a re-arm made for a registration just replaced must not leave the kernel
// holding the old one, whose events it would drop: the new one would never report.
BOOST_FIXTURE_TEST_CASE(oneshot_rearm_racing_replacement, port_and_pair)
{
  constexpr int rounds = 2000;
  std::array<int, 2> keys{};
  std::array<std::atomic<int>, 2> notified{};
  int stop = 0;
  send_bytes(c.server.get()); // never read: every arming reports it
  std::thread dequeuer([&] {
    an::packet pk[1];
    while (p.dequeue(pk, an::port::infinite) != 1 || pk[0].key != &stop)
    {
      if (pk[0].kind != an::packet_kind::notification || pk[0].events != events::in)
        continue; // remove packets
      int* key = static_cast<int*>(pk[0].key);
      ++notified[static_cast<std::size_t>(key - keys.data())];
      // Races the replacement: any result (a re-arm just after a remove registers anew).
      apply(p, enable(c.client.native(), key, events::in, level_oneshot));
    }
  });
  int failed_round = -1;
  for (int round = 0; round < rounds && failed_round < 0; ++round)
  {
    const std::size_t k = static_cast<std::size_t>(round % 2);
    boost::system::error_code ec;
    for (int attempt = 0; attempt < 100; ++attempt)
    {
      apply(p, remove(c.client.native(), nullptr));
      ec = apply(p, enable(c.client.native(), &keys[k], events::in, level_oneshot));
      if (ec != asio_error::invalid_argument) // the dequeuer registered it again between
        break;
    }
    // The new registration reports, is re-armed and reports again.
    const int seen = notified[k].load();
    const auto end = clock_type::now() + must_arrive;
    while (notified[k].load() < seen + 2 && clock_type::now() < end)
      std::this_thread::yield();
    if (ec || notified[k].load() < seen + 2)
      failed_round = round;
  }
  p.post(&stop);
  dequeuer.join();
  BOOST_TEST(failed_round == -1, "round " << failed_round << ": the new registration is silent");
}

// Construction fails when no descriptor is left: port(ec) reports it, port() throws, and
// every call on the unusable port fails with bad_descriptor instead of crashing. Neither
// failure (epoll_create1, then eventfd) leaks a descriptor.
BOOST_AUTO_TEST_CASE(failed_construction)
{
  rlimit saved{};
  BOOST_TEST_REQUIRE(::getrlimit(RLIMIT_NOFILE, &saved) == 0);
  const int lowest = lowest_free_fd();
  struct restore
  {
    rlimit r;
    ~restore() { ::setrlimit(RLIMIT_NOFILE, &r); }
  } restorer{saved};

  for (int room : {0, 1})
  {
    // Descriptors [lowest, lowest + room) may be opened; with room 1 the epoll instance
    // fits but the eventfd does not (when lowest + 1 is free, checked below).
    if (room == 1)
    {
      const int a = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
      const int b = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
      ::close(a);
      ::close(b);
      if (a != lowest || b != lowest + 1)
      {
        BOOST_TEST_MESSAGE("descriptor " << lowest + 1 << " is in use; eventfd failure skipped");
        continue;
      }
    }
    BOOST_TEST_CONTEXT("room " << room)
    {
      rlimit low = saved;
      low.rlim_cur = static_cast<rlim_t>(lowest + room);
      BOOST_TEST_REQUIRE(::setrlimit(RLIMIT_NOFILE, &low) == 0);
      boost::system::error_code ec;
      an::port p(ec);
#if !defined(BOOST_ASIO_NOTIFY_TEST_UBSAN)
      // (UBSan's vptr check of the exception needs a pipe, so it cannot run out of
      // descriptors: under UBSan only the error_code constructor is checked.)
      bool threw = false;
      try
      {
        an::port q;
      }
      catch (const boost::system::system_error& e)
      {
        threw = e.code() == boost::system::errc::too_many_files_open;
      }
      BOOST_TEST(threw);
#endif
      BOOST_TEST_REQUIRE(::setrlimit(RLIMIT_NOFILE, &saved) == 0);

      BOOST_TEST(ec == boost::system::errc::too_many_files_open);
      BOOST_TEST(lowest_free_fd() == lowest); // nothing leaked
      BOOST_TEST(p.native_handle() == -1);

      tcp_pair c = make_tcp_pair();
      int key = 0;
      an::registration r = enable(c.client.native(), &key, events::in);
      BOOST_TEST(p.apply(r) == asio_error::bad_descriptor);
      BOOST_TEST(r.result == asio_error::bad_descriptor);
      std::array<an::packet, 2> out;
      BOOST_TEST(p.dequeue(out, milliseconds(0), ec) == 0u);
      BOOST_TEST(ec == asio_error::bad_descriptor);
      BOOST_TEST(p.process({&r, 1}, out, milliseconds(0), ec) == 0u);
      BOOST_TEST(ec == asio_error::bad_descriptor);
      BOOST_CHECK_THROW(p.dequeue(out, milliseconds(0)), boost::system::system_error);
      p.post(&key, 1, ec);
      BOOST_TEST(ec == asio_error::bad_descriptor);
      BOOST_CHECK_THROW(p.post(&key, 1), boost::system::system_error);
      // The socket was not registered anywhere: a working port can take it.
      an::port good;
      BOOST_TEST(!apply(good, enable(c.client.native(), &key, events::in)));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

#endif
