//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Drives a real port (two of them, on real sockets) and the reference model
// (contract_model.hpp) with the same operations, and compares: every entry's result, every
// dequeued packet, and the packets the port owes. Used by the randomized model test
// (model_test.cpp) and the fuzz target (test/fuzz/port_fuzz.cpp). POSIX only.
//
// One step: apply one operation to both sides (after a socket operation, wait until the
// kernel shows the state the model predicts), then for each port post a marker user packet
// and dequeue (batches of the step's capacity, zero timeout) until the marker has come, the
// port owes nothing, and it is empty or has been polled a few more times.
#ifndef BOOST_ASIO_NOTIFY_TEST_MODEL_PORT_HARNESS_HPP
#define BOOST_ASIO_NOTIFY_TEST_MODEL_PORT_HARNESS_HPP

#include "../port/sockets.hpp" // first: see there
#include "contract_model.hpp"

#include <boost/asio_notify/port.hpp>

#include <fcntl.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <exception>
#include <optional>

namespace port_model {

// The loopback sockets of the port's conformance suite (they throw on failure).
using port_test::abort_close;
using port_test::connect_blocking;
using port_test::connect_pair;
using port_test::fail;
using port_test::is_would_block;
using port_test::make_listener;
using port_test::make_socket;
using port_test::make_tcp_pair;
using port_test::make_udp_pair;
using port_test::send_bytes;
using port_test::tcp_pair;
using port_test::udp_pair;
using port_test::unique_socket;

// ---- operations ------------------------------------------------------------------------------

enum class op_kind : std::uint8_t
{
  open,   // (re)open the slot with a fresh socket (variant: kind; bit 3: at the last closed fd)
  close,  // close the slot's socket without removing its registration
  enable, // registration entries (see entry_spec)
  disable,
  remove,
  invalid,
  batch,      // 2..4 entries in one call, optionally dequeuing in the same call
  peer_write, // socket operations (see change)
  drain,
  peer_shutdown,
  peer_close,
  peer_reset,
  local_shutdown,
  local_send,
  post,      // a user packet (variant 3: carrying a live registration's key)
  reset_port // destroy port 1 and make a new one
};
constexpr int op_kind_count = 16;

inline const char* op_name(op_kind k)
{
  static const char* const names[] = {
      "open",           "close",      "enable", "disable",       "remove",     "invalid",
      "batch",          "peer-write", "drain",  "peer-shutdown", "peer-close", "peer-reset",
      "local-shutdown", "local-send", "post",   "reset-port"};
  return names[static_cast<int>(k)];
}

constexpr unsigned valid_triggers[6] = {
    LEVEL, EDGE, LEVEL | PERSISTENT, EDGE | PERSISTENT, LEVEL | ONESHOT, EDGE | ONESHOT};

/// One registration entry, described independently of the state it meets (so a recorded
/// sequence can be replayed and shrunk).
struct entry_spec
{
  op_kind kind = op_kind::enable; // enable, disable, remove or invalid
  std::uint8_t slot = 0;
  std::uint8_t port = 0;
  std::uint8_t filter = 0;  // enable: filter bits
  std::uint8_t trigger = 0; // enable: index into valid_triggers
  std::uint8_t key =
      0; // 0: the registration's own key (fresh when none); 1: another; 2: a dead key
  std::uint8_t target = 0;  // 0: the slot's socket; 1: the slot's last closed descriptor; 2: -1
  std::uint8_t variant = 0; // invalid: which rule it breaks; key 2: which dead key
};

struct op
{
  op_kind kind = op_kind::post;
  std::uint8_t slot = 0;
  std::uint8_t port = 0;
  std::uint8_t variant = 0;
  std::uint32_t value = 0;
  std::uint8_t capacity = 4;       // dequeue batch size of this step's checks
  bool dequeue_in_process = false; // batch: process() with room for packets
  std::vector<entry_spec> entries;
};

inline std::string describe(const entry_spec& e)
{
  std::string s = op_name(e.kind);
  s += " s" + std::to_string(e.slot) + " p" + std::to_string(e.port);
  if (e.kind == op_kind::enable)
    s += " " + ev_str(e.filter) + " " + trig_str(valid_triggers[e.trigger % 6]);
  if (e.kind == op_kind::invalid)
    s += " rule#" + std::to_string(e.variant % 16);
  if (e.key == 1)
    s += " other-key";
  if (e.key == 2)
    s += " dead-key#" + std::to_string(e.variant);
  if (e.target == 1)
    s += " on-closed-fd";
  if (e.target == 2)
    s += " on-fd--1";
  return s;
}

inline std::string describe(const op& o)
{
  std::string s = op_name(o.kind);
  switch (o.kind)
  {
  case op_kind::open:
    s += " s" + std::to_string(o.slot) + " " +
         kind_name(static_cast<sock_kind>((o.variant & 7) % sock_kind_count)) +
         ((o.variant & 8) ? " at-last-closed-fd" : "");
    break;
  case op_kind::enable:
  case op_kind::disable:
  case op_kind::remove:
  case op_kind::invalid:
    s = describe(o.entries.at(0));
    break;
  case op_kind::batch:
    s += std::string(o.dequeue_in_process ? " +dequeue" : "") + " [";
    for (std::size_t i = 0; i < o.entries.size(); ++i)
      s += (i ? "; " : "") + describe(o.entries[i]);
    s += "]";
    break;
  case op_kind::post:
    s += " p" + std::to_string(o.port) + (o.variant % 4 == 3 ? " live-key" : "") + " value " +
         std::to_string(o.value);
    break;
  case op_kind::reset_port:
    break;
  default:
    s += " s" + std::to_string(o.slot);
  }
  return s + " (cap " + std::to_string(o.capacity) + ")";
}

// ---- sources of choices ------------------------------------------------------------------------

class source
{
public:
  virtual ~source() = default;
  /// A number in [0, bound), bound <= 256.
  virtual unsigned next(unsigned bound) = 0;
  virtual bool exhausted() const = 0;
};

/// splitmix64: the same sequence on every compiler and standard library.
class prng_source : public source
{
public:
  explicit prng_source(std::uint64_t seed) : state_(seed) {}
  unsigned next(unsigned bound) override
  {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return bound ? static_cast<unsigned>(z % bound) : 0;
  }
  bool exhausted() const override { return false; }

private:
  std::uint64_t state_;
};

/// Reads the choices from bytes (the fuzzer's input), one byte each.
class byte_source : public source
{
public:
  byte_source(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  unsigned next(unsigned bound) override
  {
    if (pos_ >= size_)
    {
      exhausted_ = true;
      return 0;
    }
    const unsigned b = data_[pos_++];
    return bound ? b % bound : 0;
  }
  bool exhausted() const override { return exhausted_; }

private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
  bool exhausted_ = false;
};

// ---- the harness -------------------------------------------------------------------------------

/// How long a packet the port owes may take to come (it is queued by then: generous).
constexpr std::chrono::milliseconds default_patience{500};

class harness
{
public:
  static constexpr int port_count = 2;

  explicit harness(int slots, std::chrono::milliseconds patience = default_patience)
      : model_(port_count, slots), slots_(static_cast<std::size_t>(slots)), patience_(patience)
  {
    for (auto& p : ports_)
      p.emplace();
  }

  ~harness()
  {
    for (int s = 0; s < slot_count(); ++s)
    {
      close_local(s, true);
      close_peer(s);
    }
  }

  harness(const harness&) = delete;
  harness& operator=(const harness&) = delete;

  const contract_model& model() const { return model_; }
  int slot_count() const { return static_cast<int>(slots_.size()); }

  /// What the step did, in words (descriptors, keys, results, packets; repeats counted).
  std::string trace() const
  {
    std::string out;
    for (const auto& n : trace_)
    {
      if (out.size() > 4000)
        return out + "; ...";
      out += (out.empty() ? "" : "; ") + n.first +
             (n.second > 1 ? " x" + std::to_string(n.second) : "");
    }
    return out;
  }

  /// Runs one step; returns "" or the violation found.
  std::string step(const op& o)
  {
    trace_.clear();
    try
    {
      std::string v = apply(o);
      for (int p = 0; p < port_count && v.empty(); ++p)
        v = check_port(p, o.capacity == 0 ? 1 : o.capacity);
      return v;
    }
    catch (const std::exception& e) // the socket helpers of test/port throw
    {
      return std::string("harness: ") + e.what();
    }
  }

  /// Whether `k` can act on slot `s` in its current state (the generator's guide; `step`
  /// skips an operation that cannot).
  bool applicable(op_kind k, int s) const
  {
    const sock_state& st = model_.sock(s);
    if (k == op_kind::open)
      return true;
    if (!st.open)
      return false;
    switch (k)
    {
    case op_kind::close:
    case op_kind::drain:
      return true;
    case op_kind::peer_write:
      if (st.listener())
        return st.rx < 6;
      if (st.unconnected())
        return !st.local_shut; // connects
      return !st.peer_closed && !st.eof && !st.reset && !st.local_shut && st.rx < 24;
    case op_kind::peer_shutdown:
      return st.stream() && !st.peer_closed && !st.eof && !st.local_shut;
    case op_kind::peer_close:
      return (st.stream() || st.datagram()) && !st.peer_closed;
    case op_kind::peer_reset:
      return st.kind == sock_kind::tcp && !st.peer_closed && !st.local_shut;
    case op_kind::local_shutdown:
      return !st.listener() && !st.local_shut && !st.reset;
    case op_kind::local_send:
      // A send with an error pending fails with it (and clears it): only one at a time.
      return st.kind == sock_kind::udp && st.peer_closed && !st.local_shut && !st.err &&
             !st.err_may;
    default:
      return false;
    }
  }

private:
  struct real_slot
  {
    unique_socket local;
    unique_socket peer;
    std::vector<unique_socket> clients; // a listener's connected clients
    int last_closed = -1;               // the descriptor number of the last local socket closed
  };

  static bool fd_open(int fd) { return ::fcntl(fd, F_GETFD) != -1 || errno != EBADF; }

  real_slot& rs(int s) { return slots_[static_cast<std::size_t>(s)]; }

  void note(const std::string& s)
  {
    if (!trace_.empty() && trace_.back().first == s)
      ++trace_.back().second;
    else
      trace_.emplace_back(s, 1);
  }

  // ---- sockets ----

  // TCP sockets the harness closes on its own account are reset: no TIME_WAIT piles up
  // over the thousands of sequences a fuzzer runs.
  void close_local(int s, bool quiet)
  {
    real_slot& r = rs(s);
    if (!r.local)
      return;
    r.last_closed = r.local.get();
    if (quiet && model_.sock(s).kind == sock_kind::tcp)
      abort_close(r.local);
    r.local.reset();
  }

  void close_peer(int s)
  {
    real_slot& r = rs(s);
    if (r.peer && model_.sock(s).kind == sock_kind::tcp)
      abort_close(r.peer);
    r.peer.reset();
    for (unique_socket& c : r.clients)
      abort_close(c);
    r.clients.clear();
  }

  std::string open_slot(int s, sock_kind k, bool at_last_closed)
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

  // The conditions poll() shows for `fd`, waiting up to `timeout_ms` for one of `wanted`.
  static unsigned poll_bits(int fd, int timeout_ms, unsigned wanted = IN | OUT | HUP)
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

  // After a TCP shutdown: waits (a while) for the peer to acknowledge the FIN, so the state
  // change it causes happens before the step's checks rather than during a later step.
  static void wait_fin_acknowledged(int fd)
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

  // Waits until the kernel shows every condition the model says holds, then checks that it
  // shows nothing the model would forbid (a mistake of the model, not of the port).
  std::string sync(int s)
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

  std::string socket_op(const op& o)
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

  // ---- registration entries ----

  std::string entries(const op& o)
  {
    std::vector<an::registration> regs;
    std::vector<contract_model::expected> expect;
    std::vector<std::string> what;
    const int batch_port = o.port % port_count;
    for (const entry_spec& e : o.entries)
    {
      const int p = o.kind == op_kind::batch ? batch_port : e.port % port_count;
      int s = e.slot % slot_count();
      int fd = rs(s).local.get();
      int model_slot = s;
      if (e.target == 2 || (e.target == 1 && fd >= 0 && rs(s).last_closed < 0))
      {
        fd = -1;
        model_slot = -1;
      }
      else if (e.target == 1 || fd < 0)
      {
        // The slot's last closed descriptor: closed, or by now another slot's socket.
        fd = rs(s).last_closed;
        model_slot = -1;
        if (fd >= 0 && fd_open(fd))
        {
          fd = -1;
          for (int j = 0; j < slot_count(); ++j)
            if (rs(j).local.get() == rs(s).last_closed)
            {
              fd = rs(j).local.get();
              model_slot = j;
            }
        }
      }
      an::registration r;
      r.socket = fd;
      r.operation = an::operation::enable;
      r.filter = static_cast<an::events>(e.filter & FILTER_BITS);
      r.triggers = static_cast<an::trigger>(valid_triggers[e.trigger % 6]);
      switch (e.kind)
      {
      case op_kind::disable:
        r.operation = an::operation::disable;
        break;
      case op_kind::remove:
        r.operation = an::operation::remove;
        break;
      case op_kind::invalid:
        make_invalid(r, e.variant % 16);
        break;
      default:
        break;
      }
      if (e.kind == op_kind::disable || e.kind == op_kind::remove)
      {
        r.filter = an::events::none;
        r.triggers = static_cast<an::trigger>(e.variant & 1 ? 0xff : 0); // read by enable only
      }
      r.key = model_.key_for(p, model_slot,
                             e.kind == op_kind::enable || e.kind == op_kind::invalid ? e.key : 0,
                             e.variant);
      r.result = boost::asio::error::already_started; // must be overwritten
      expect.push_back(model_.entry(p, model_slot, r));
      what.push_back(describe(e) + " [p" + std::to_string(p) + " fd " + std::to_string(fd) +
                     " key " + hex(r.key) + "]");
      regs.push_back(r);
    }
    error_code ec;
    std::vector<an::packet> got;
    if (o.kind != op_kind::batch)
    {
      ports_[static_cast<std::size_t>(o.entries[0].port % port_count)]->apply(regs[0]);
    }
    else if (o.dequeue_in_process)
    {
      got.resize(o.capacity == 0 ? 1 : o.capacity);
      got.resize(ports_[static_cast<std::size_t>(batch_port)]->process(
          regs, got, std::chrono::milliseconds(0), ec));
    }
    else
      ports_[static_cast<std::size_t>(batch_port)]->apply(regs, ec);
    if (ec)
      return "call failed: " + err_str(ec);
    for (std::size_t i = 0; i < regs.size(); ++i)
    {
      note(what[i] + " -> " + err_str(regs[i].result));
      if (!expect[i].accepts(regs[i].result))
        return "entry result: " + what[i] + " got " + err_str(regs[i].result) +
               ", the contract says " + expect[i].describe();
    }
    for (const an::packet& pk : got)
    {
      note("process dequeued " + packet_str(pk));
      std::string v = model_.packet(batch_port, pk);
      if (!v.empty())
        return v;
    }
    return {};
  }

  static void make_invalid(an::registration& r, unsigned v)
  {
    using an::operation;
    switch (v)
    {
    case 0:
      r.operation = operation::none;
      break;
    case 1:
      r.operation = operation::enable | operation::remove;
      break;
    case 2:
      r.operation = static_cast<operation>(0x08);
      break;
    case 3:
      r.operation = operation::enable | operation::disable;
      break;
    case 4:
      r.triggers = an::trigger::none;
      break;
    case 5:
      r.triggers = an::trigger::level | an::trigger::edge;
      break;
    case 6:
      r.triggers = an::trigger::level | an::trigger::oneshot | an::trigger::persistent;
      break;
    case 7:
      r.triggers = an::trigger::edge | static_cast<an::trigger>(0x10);
      break;
    case 8:
      r.triggers = an::trigger::persistent;
      break;
    case 9:
      r.triggers = an::trigger::oneshot;
      break;
    case 10:
      r.filter = r.filter | an::events::error;
      break;
    case 11:
      r.filter = r.filter | an::events::remove;
      break;
    case 12:
      r.filter = r.filter | static_cast<an::events>(0x08);
      break;
    case 13:
      r.filter = r.filter | static_cast<an::events>(0x100);
      break;
    case 14:
      r.triggers = static_cast<an::trigger>(0xff);
      break;
    default:
      r.filter = static_cast<an::events>(0xffff);
      break;
    }
  }

  std::string apply(const op& o)
  {
    switch (o.kind)
    {
    case op_kind::open:
      return open_slot(o.slot % slot_count(),
                       static_cast<sock_kind>((o.variant & 7) % sock_kind_count),
                       (o.variant & 8) != 0);
    case op_kind::close:
    {
      const int s = o.slot % slot_count();
      if (!rs(s).local)
      {
        note("skipped");
        return {};
      }
      note("fd " + std::to_string(rs(s).local.get()));
      close_local(s, false);
      model_.socket_closed(s);
      return {};
    }
    case op_kind::enable:
    case op_kind::disable:
    case op_kind::remove:
    case op_kind::invalid:
    case op_kind::batch:
      if (o.entries.empty())
        return {};
      return entries(o);
    case op_kind::post:
    {
      const int p = o.port % port_count;
      void* key = reinterpret_cast<void*>(std::uintptr_t(0x900000) + (o.value % 8) * 0x10);
      if (o.variant % 4 == 3)
        if (void* k = model_.some_live_key(p, o.value))
          key = k; // a user packet may carry any key: its kind tells it apart
      error_code ec;
      ports_[static_cast<std::size_t>(p)]->post(key, o.value, ec);
      if (ec)
        return "post failed: " + err_str(ec);
      model_.posted(p, key, o.value);
      note("key " + hex(key));
      return {};
    }
    case op_kind::reset_port:
      ports_[1].reset();
      ports_[1].emplace();
      model_.port_reset(1);
      return {};
    default:
      return socket_op(o);
    }
  }

  // ---- the checks after a step ----

  std::string check_port(int p, std::size_t capacity)
  {
    an::port& port = *ports_[static_cast<std::size_t>(p)];
    error_code ec;
    const std::uint32_t marker = model_.post_marker(p);
    port.post(contract_model::marker_key(), marker, ec);
    if (ec)
      return "post failed: " + err_str(ec);
    using clock = std::chrono::steady_clock;
    const auto deadline = clock::now() + patience_;
    const int extra_limit = 3 + 2 * model_.live_count(p);
    int extra = 0;
    std::vector<an::packet> buf(capacity);
    for (;;)
    {
      const bool waiting = model_.marker_seen(p) && model_.has_owed(p);
      const std::size_t n = port.dequeue(
          buf, waiting ? std::chrono::milliseconds(5) : std::chrono::milliseconds(0), ec);
      if (ec)
        return "dequeue failed: " + err_str(ec);
      if (n > buf.size())
        return "dequeue returned " + std::to_string(n) + " packets for room for " +
               std::to_string(buf.size());
      for (std::size_t i = 0; i < n; ++i)
      {
        if (buf[i].key != contract_model::marker_key())
          note("p" + std::to_string(p) + " got " + packet_str(buf[i]));
        std::string v = model_.packet(p, buf[i]);
        if (!v.empty())
          return "port " + std::to_string(p) + ": " + v;
      }
      if (!model_.marker_seen(p))
      {
        if (clock::now() > deadline)
          return "port " + std::to_string(p) + ": the marker user packet never came";
        continue;
      }
      if (n == 0 && !waiting)
      {
        const std::string due = model_.due(p);
        if (!due.empty())
          return "port " + std::to_string(p) +
                 ": a zero-timeout dequeue returned nothing while packets were due:\n" + due;
      }
      if (!model_.has_owed(p))
      {
        if (n == 0 || ++extra >= extra_limit)
          return {};
      }
      else if (clock::now() > deadline)
        return "port " + std::to_string(p) + ": missing packets after " +
               std::to_string(patience_.count()) + " ms:\n" + model_.owed(p);
    }
  }

  contract_model model_;
  std::vector<real_slot> slots_;
  std::optional<an::port> ports_[port_count];
  std::chrono::milliseconds patience_;
  std::vector<std::pair<std::string, int>> trace_;
};

// ---- generating operations ---------------------------------------------------------------------

namespace detail {

inline op_kind pick_weighted(source& src, const std::vector<std::pair<op_kind, unsigned>>& w)
{
  unsigned total = 0;
  for (auto& x : w)
    total += x.second;
  unsigned r = src.next(total);
  for (auto& x : w)
  {
    if (r < x.second)
      return x.first;
    r -= x.second;
  }
  return w.back().first;
}

inline entry_spec make_entry(source& src, const harness& h, op_kind kind)
{
  const contract_model& m = h.model();
  entry_spec e;
  e.kind = kind;
  // Mostly a slot with an open socket.
  std::vector<int> open;
  for (int s = 0; s < h.slot_count(); ++s)
    if (m.sock(s).open)
      open.push_back(s);
  if (!open.empty() && src.next(10) != 0)
    e.slot = static_cast<std::uint8_t>(open[src.next(static_cast<unsigned>(open.size()))]);
  else
    e.slot = static_cast<std::uint8_t>(src.next(static_cast<unsigned>(h.slot_count())));
  // Mostly the port that holds it, sometimes the other one (rule 1).
  const int owner = m.owner(e.slot);
  const unsigned r = src.next(20);
  if (owner >= 0)
    e.port = static_cast<std::uint8_t>(r < 17 ? owner : 1 - owner);
  else
    e.port = static_cast<std::uint8_t>(r < 15 ? 0 : 1);
  // Filters: {in} and {in, hup} are common in practice; otherwise any subset.
  const unsigned f = src.next(12);
  e.filter = static_cast<std::uint8_t>(f < 3 ? IN : f < 5 ? (IN | HUP) : f - 5);
  e.trigger = static_cast<std::uint8_t>(src.next(6));
  const unsigned k = src.next(20);
  e.key = static_cast<std::uint8_t>(k < 17 ? 0 : k < 18 ? 1 : 2);
  const unsigned t = src.next(40);
  e.target = static_cast<std::uint8_t>(t < 37 ? 0 : t < 39 ? 1 : 2);
  e.variant = static_cast<std::uint8_t>(src.next(256));
  return e;
}

} // namespace detail

/// Chooses the next operation from `src`, guided by the harness's state.
inline op generate(source& src, const harness& h)
{
  using detail::pick_weighted;
  static const std::vector<std::pair<op_kind, unsigned>> weights = {
      {op_kind::open, 6},           {op_kind::close, 4},       {op_kind::enable, 26},
      {op_kind::disable, 6},        {op_kind::remove, 7},      {op_kind::invalid, 3},
      {op_kind::batch, 6},          {op_kind::peer_write, 16}, {op_kind::drain, 10},
      {op_kind::peer_shutdown, 3},  {op_kind::peer_close, 3},  {op_kind::peer_reset, 2},
      {op_kind::local_shutdown, 2}, {op_kind::local_send, 3},  {op_kind::post, 4},
      {op_kind::reset_port, 1}};
  op o;
  for (int attempt = 0; attempt < 16; ++attempt)
  {
    o.kind = pick_weighted(src, weights);
    // Slots without a socket get one first.
    std::vector<int> closed;
    for (int s = 0; s < h.slot_count(); ++s)
      if (!h.model().sock(s).open)
        closed.push_back(s);
    if (!closed.empty() && src.next(3) == 0)
      o.kind = op_kind::open;
    switch (o.kind)
    {
    case op_kind::open:
    {
      o.slot = static_cast<std::uint8_t>(
          closed.empty() ? src.next(static_cast<unsigned>(h.slot_count()))
                         : closed[src.next(static_cast<unsigned>(closed.size()))]);
      const unsigned k = src.next(12);
      // tcp and unix-stream 3 each, udp and unix-dgram 2 each, listener and unconnected 1
      const unsigned kind = k < 3 ? 0 : k < 6 ? 1 : k < 8 ? 2 : k < 10 ? 3 : k < 11 ? 4 : 5;
      o.variant = static_cast<std::uint8_t>(kind | (src.next(3) == 0 ? 8 : 0));
      break;
    }
    case op_kind::enable:
    case op_kind::disable:
    case op_kind::remove:
    case op_kind::invalid:
      o.entries.push_back(detail::make_entry(src, h, o.kind));
      break;
    case op_kind::batch:
    {
      const unsigned n = 2 + src.next(3);
      static const op_kind kinds[] = {op_kind::enable,  op_kind::enable, op_kind::enable,
                                      op_kind::disable, op_kind::remove, op_kind::invalid};
      o.port = static_cast<std::uint8_t>(src.next(4) == 0 ? 1 : 0);
      for (unsigned i = 0; i < n; ++i)
        o.entries.push_back(detail::make_entry(src, h, kinds[src.next(6)]));
      if (o.entries.front().slot < h.slot_count() && h.model().owner(o.entries.front().slot) >= 0)
        o.port = static_cast<std::uint8_t>(h.model().owner(o.entries.front().slot));
      o.dequeue_in_process = src.next(2) == 0;
      break;
    }
    case op_kind::post:
      o.port = static_cast<std::uint8_t>(src.next(2));
      o.variant = static_cast<std::uint8_t>(src.next(4));
      o.value = src.next(256) | (src.next(256) << 8);
      break;
    case op_kind::reset_port:
      break;
    default:
    {
      std::vector<int> ok;
      for (int s = 0; s < h.slot_count(); ++s)
        if (h.applicable(o.kind, s))
          ok.push_back(s);
      if (ok.empty())
        continue;
      o.slot = static_cast<std::uint8_t>(ok[src.next(static_cast<unsigned>(ok.size()))]);
    }
    }
    break;
  }
  o.capacity = static_cast<std::uint8_t>(1 + src.next(8));
  return o;
}

// ---- running sequences -------------------------------------------------------------------------

struct run_result
{
  bool ok = true;
  std::size_t failed_step = 0;
  std::string violation;
  std::vector<std::string> steps; // one line per step: the operation and what it did
};

/// What kind of violation `v` is (its first line without numbers or details), to shrink a
/// failing sequence without drifting to another failure.
inline std::string violation_category(const std::string& v)
{
  std::string c;
  for (char ch : v.substr(0, v.find_first_of("\n{(")))
    if (ch < '0' || ch > '9')
      c += ch;
  return c;
}

/// Runs operations on a fresh harness until `next(harness, op&)` has none left or one breaks
/// the contract.
template <class Next>
run_result run(int slots, std::chrono::milliseconds patience, Next next)
{
  run_result res;
  harness h(slots, patience);
  for (op o; next(h, o);)
  {
    const std::string v = h.step(o);
    res.steps.push_back(describe(o) + " => " + h.trace());
    if (!v.empty())
    {
      res.ok = false;
      res.failed_step = res.steps.size() - 1;
      res.violation = v + "\nstate:\n" + h.model().describe_all();
      break;
    }
  }
  return res;
}

/// Generates and runs up to `max_steps` operations from `src`; records them in `ops`.
inline run_result run_generated(source& src, std::size_t max_steps, int slots,
                                std::vector<op>* ops = nullptr)
{
  std::size_t n = 0;
  return run(slots, default_patience, [&](const harness& h, op& o) {
    if (n++ == max_steps)
      return false;
    o = generate(src, h);
    if (src.exhausted())
      return false;
    if (ops)
      ops->push_back(o);
    return true;
  });
}

/// Replays recorded operations.
inline run_result run_ops(const std::vector<op>& ops, int slots,
                          std::chrono::milliseconds patience = default_patience)
{
  std::size_t i = 0;
  return run(slots, patience, [&](const harness&, op& o) {
    if (i == ops.size())
      return false;
    o = ops[i++];
    return true;
  });
}

/// Removes operations while the replay still fails the same way; returns the shortest found.
/// Bounded in runs and in time: a failure that makes every replay wait for missing packets
/// must not hold the test up for minutes.
inline std::vector<op> shrink(std::vector<op> ops, int slots, const std::string& category,
                              int max_runs = 3000,
                              std::chrono::seconds max_time = std::chrono::seconds(30))
{
  const auto deadline = std::chrono::steady_clock::now() + max_time;
  int runs = 0;
  auto budget_left = [&] {
    return runs < max_runs && std::chrono::steady_clock::now() < deadline;
  };
  auto still_fails = [&](std::vector<op>& candidate) {
    ++runs;
    run_result r = run_ops(candidate, slots, std::chrono::milliseconds(150));
    if (r.ok || violation_category(r.violation) != category)
      return false;
    candidate.resize(r.failed_step + 1);
    return true;
  };
  for (bool progress = true; progress && budget_left();)
  {
    progress = false;
    // Whole steps, from the end.
    for (std::size_t i = ops.size(); i-- > 0 && budget_left();)
    {
      std::vector<op> candidate = ops;
      candidate.erase(candidate.begin() + static_cast<std::ptrdiff_t>(i));
      if (still_fails(candidate))
      {
        ops = std::move(candidate);
        progress = true;
        i = std::min(i, ops.size());
      }
    }
    // Entries of batches.
    for (std::size_t i = 0; i < ops.size() && budget_left(); ++i)
      for (std::size_t j = ops[i].entries.size();
           ops[i].kind == op_kind::batch && j-- > 0 && budget_left();)
      {
        if (ops[i].entries.size() < 2)
          break;
        std::vector<op> candidate = ops;
        candidate[i].entries.erase(candidate[i].entries.begin() + static_cast<std::ptrdiff_t>(j));
        if (still_fails(candidate) && i < candidate.size())
        {
          ops = std::move(candidate);
          progress = true;
        }
      }
  }
  return ops;
}

inline std::string format_steps(const run_result& r)
{
  std::string out;
  for (std::size_t i = 0; i < r.steps.size(); ++i)
    out += "  #" + std::to_string(i) + " " + r.steps[i] + "\n";
  return out;
}

} // namespace port_model

#endif
