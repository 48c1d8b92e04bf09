//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The harness: a real port (two of them, on real sockets) and the reference model driven
// with the same operations, step by step (see port_harness.hpp). This file holds its state,
// a step and the checks after it; its socket side is defined in harness_sockets.hpp, its
// registration entries in harness_entries.hpp (both included at the end).
#ifndef BOOST_ASIO_NOTIFY_TEST_MODEL_HARNESS_HPP
#define BOOST_ASIO_NOTIFY_TEST_MODEL_HARNESS_HPP

#include "../port/sockets.hpp" // first: see there
#include "contract_model.hpp"
#include "operations.hpp"

#include <boost/asio_notify/port.hpp>

#include <fcntl.h>

#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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

  // ---- sockets (harness_sockets.hpp) ----

  // TCP sockets the harness closes on its own account are reset: no TIME_WAIT piles up
  // over the thousands of sequences a fuzzer runs.
  void close_local(int s, bool quiet);

  void close_peer(int s);

  std::string open_slot(int s, sock_kind k, bool at_last_closed);

  // The conditions poll() shows for `fd`, waiting up to `timeout_ms` for one of `wanted`.
  static unsigned poll_bits(int fd, int timeout_ms, unsigned wanted = IN | OUT | HUP);

  // After a TCP shutdown: waits (a while) for the peer to acknowledge the FIN, so the state
  // change it causes happens before the step's checks rather than during a later step.
  static void wait_fin_acknowledged(int fd);

  // Waits until the kernel shows every condition the model says holds, then checks that it
  // shows nothing the model would forbid (a mistake of the model, not of the port).
  std::string sync(int s);

  // A socket operation (peer_write ... local_send) on the real socket, then on the model;
  // then sync.
  std::string socket_op(const op& o);

  // ---- registration entries (harness_entries.hpp) ----

  // The operation's registration entries, applied to a port; each result (and what a
  // batch dequeued) checked against the model.
  std::string entries(const op& o);

  // Makes `r` break validation rule `v` (op_kind::invalid).
  static void make_invalid(an::registration& r, unsigned v);

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

} // namespace port_model

#include "harness_entries.hpp"
#include "harness_sockets.hpp"

#endif
