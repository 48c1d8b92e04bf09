//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The harness's socket side: opening and closing the real sockets of its slots, the socket
// operations, and waiting until the kernel shows the state the model predicts.
#ifndef BOOST_ASIO_NOTIFY_TEST_MODEL_HARNESS_SOCKETS_HPP
#define BOOST_ASIO_NOTIFY_TEST_MODEL_HARNESS_SOCKETS_HPP

#include "harness.hpp"

#include <fcntl.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <string>
#include <utility>

namespace port_model {

inline void harness::close_local(int s, bool quiet)
{
  real_slot& r = rs(s);
  if (!r.local)
    return;
  r.last_closed = r.local.get();
  if (quiet && model_.sock(s).kind == sock_kind::tcp)
    abort_close(r.local);
  r.local.reset();
}

inline void harness::close_peer(int s)
{
  real_slot& r = rs(s);
  if (r.peer && model_.sock(s).kind == sock_kind::tcp)
    abort_close(r.peer);
  r.peer.reset();
  for (unique_socket& c : r.clients)
    abort_close(c);
  r.clients.clear();
}

inline std::string harness::open_slot(int s, sock_kind k, bool at_last_closed)
{
  real_slot& r = rs(s);
  if (r.local)
  {
    close_local(s, false);
    model_.socket_closed(s);
  }
  close_peer(s);
  switch (k)
  {
  case sock_kind::tcp:
  {
    tcp_pair c = make_tcp_pair();
    r.local = std::move(c.client);
    r.peer = std::move(c.server);
    break;
  }
  case sock_kind::unix_stream:
  case sock_kind::unix_dgram:
  {
    int sv[2];
    const int type = k == sock_kind::unix_stream ? SOCK_STREAM : SOCK_DGRAM;
    if (::socketpair(AF_UNIX, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv) != 0)
      fail("socketpair");
    r.local.reset(sv[0]);
    r.peer.reset(sv[1]);
    break;
  }
  case sock_kind::udp:
  {
    udp_pair u = make_udp_pair();
    r.local = std::move(u.a);
    r.peer = std::move(u.b);
    break;
  }
  case sock_kind::tcp_unconnected:
    r.local = make_socket(SOCK_STREAM); // blocking until it connects (connect_pair)
    break;
  case sock_kind::listener:
    r.local = make_listener();
    break;
  }
  if (at_last_closed && r.last_closed >= 0 && r.last_closed != r.local.get() &&
      !fd_open(r.last_closed) && ::dup2(r.local.get(), r.last_closed) == r.last_closed)
    r.local.reset(
        r.last_closed); // a new socket at the number of one closed without remove (rule 4)
  model_.socket_opened(s, k);
  note("fd " + std::to_string(r.local.get()));
  return {};
}

inline unsigned harness::poll_bits(int fd, int timeout_ms, unsigned wanted)
{
  short events = 0;
  if (wanted & IN)
    events |= POLLIN;
  if (wanted & OUT)
    events |= POLLOUT;
  if (wanted & HUP)
    events |= POLLRDHUP;
  pollfd pfd{fd, events, 0};
  if (::poll(&pfd, 1, timeout_ms) <= 0)
    return 0;
  if (timeout_ms > 0)
  {
    pfd.events = POLLIN | POLLOUT | POLLRDHUP; // now everything that holds
    ::poll(&pfd, 1, 0);
  }
  unsigned k = 0;
  if (pfd.revents & POLLIN)
    k |= IN;
  if (pfd.revents & POLLOUT)
    k |= OUT;
  if (pfd.revents & (POLLHUP | POLLRDHUP))
    k |= HUP;
  if (pfd.revents & POLLERR)
    k |= ERR;
  return k;
}

inline void harness::wait_fin_acknowledged(int fd)
{
  for (int i = 0; i < 200; ++i)
  {
    tcp_info info{};
    socklen_t len = sizeof info;
    if (::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0)
      return;
    if (info.tcpi_state != TCP_FIN_WAIT1 && info.tcpi_state != TCP_LAST_ACK &&
        info.tcpi_state != TCP_CLOSING)
      return;
    ::usleep(500);
  }
}

inline std::string harness::sync(int s)
{
  const sock_state& st = model_.sock(s);
  const int fd = rs(s).local.get();
  const unsigned must = st.must();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  unsigned k = poll_bits(fd, 0);
  while ((must & ~k) != 0)
  {
    if (std::chrono::steady_clock::now() > deadline)
      return "harness: the socket never showed " + ev_str(must & ~k) + " (kernel " + ev_str(k) +
             ", model " + st.describe() + ")";
    const unsigned before = k;
    k = poll_bits(fd, 5, must & ~k);
    if (k == before)
      ::usleep(500); // something unrelated is reported (HUP, ERR): do not spin
  }
  unsigned extra = k & ~st.may();
  if (st.datagram())
    extra &= ~HUP; // the port hides it (rule 10)
  if (extra)
    return "model: the kernel shows " + ev_str(extra) + " which the model does not allow (" +
           st.describe() + ")";
  return {};
}

inline std::string harness::socket_op(const op& o)
{
  const int s = o.slot % slot_count();
  if (!applicable(o.kind, s))
  {
    note("skipped");
    return {};
  }
  real_slot& r = rs(s);
  const sock_state& st = model_.sock(s);
  change c = change::drain;
  switch (o.kind)
  {
  case op_kind::peer_write:
    c = change::peer_write;
    if (st.unconnected())
    {
      note("connect");
      c = change::connected;
      tcp_pair p = connect_pair(std::move(r.local)); // the same descriptor, connected
      r.local = std::move(p.client);
      r.peer = std::move(p.server);
    }
    else if (st.listener())
    {
      r.clients.push_back(make_socket(SOCK_STREAM));
      connect_blocking(r.clients.back().get(), r.local.get());
    }
    else if (send_bytes(r.peer.get()) != 1)
      fail("send (peer)");
    break;
  case op_kind::drain:
    if (st.listener())
    {
      for (unique_socket a; (a = unique_socket(::accept(r.local.get(), nullptr, nullptr)));)
        abort_close(a);
    }
    else
    {
      // Until it would block: a pending error is returned (and cleared) before the data
      // behind it, and the end of a stream reads as 0 forever.
      char buf[512];
      for (int i = 0, errors = 0; i < 1000 && errors < 3; ++i)
      {
        const auto n = ::recv(r.local.get(), buf, sizeof buf, MSG_DONTWAIT);
        if (n == 0 || (n < 0 && is_would_block(errno)))
          break;
        errors += n < 0;
      }
      int e = 0;
      socklen_t len = sizeof e;
      ::getsockopt(r.local.get(), SOL_SOCKET, SO_ERROR, &e, &len); // a pending error is read too
    }
    break;
  case op_kind::peer_shutdown:
    c = change::peer_shutdown;
    ::shutdown(r.peer.get(), SHUT_WR);
    break;
  case op_kind::peer_close:
    c = change::peer_close;
    r.peer.reset();
    break;
  case op_kind::peer_reset:
    c = change::peer_reset;
    abort_close(r.peer);
    break;
  case op_kind::local_shutdown:
    c = change::local_shutdown;
    ::shutdown(r.local.get(), SHUT_RDWR);
    if (st.kind == sock_kind::tcp)
      wait_fin_acknowledged(r.local.get());
    break;
  case op_kind::local_send:
  {
    send_bytes(r.local.get());
    // The ICMP error comes asynchronously (and may be rate limited): ask the kernel.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
    c = change::local_send;
    while (std::chrono::steady_clock::now() < deadline)
      if (poll_bits(r.local.get(), 5, 0) & ERR) // POLLERR needs no asking
      {
        c = change::local_send_error;
        break;
      }
    break;
  }
  default:
    return {};
  }
  model_.socket_changed(s, c);
  note(st.describe());
  return sync(s);
}

} // namespace port_model

#endif
