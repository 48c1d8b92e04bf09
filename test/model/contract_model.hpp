//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A reference model of the socket state notification contract (doc/port_contract.md): what a
// port may and must deliver, given the registration entries applied to it and what was done
// to its sockets. No I/O here: port_harness.hpp drives a real port and this model side by
// side, and asks the model about every result and every dequeued packet.
//
// What the model allows where the contract is loose (each choice is the loosest reading
// that still lets a broken port be caught):
//
// * Readiness. Every socket condition is `must` (it holds: a level-triggered registration has
//   to report it) or `may` (it may be reported but need not be) or neither (reporting it is a
//   violation). HANGUP is `must` once the connection is gone (the peer closed or reset it),
//   `may` after the peer's half-close or a local shutdown, never for datagram sockets
//   (rule 10). OUT is `must` on a live connection, `may` once it is shut down or gone. IN is
//   `must` with data, end of stream, a reset or a local shutdown (a read does not block). ERR
//   is `must` while an error is pending (a TCP reset or an ICMP error not read yet), and is
//   reported whatever the filter (rule 9). An unconnected TCP socket may report OUT and
//   HANGUP but need not. The harness checks the kernel agrees (poll) after each change.
//
// * Packets already queued (rules 3, 4, 5). A port may hold packets that were queued before
//   a registration was disabled, re-enabled, removed or its socket closed. The model keeps
//   what each earlier state allowed as a "stale" allowance until the harness sees a user
//   packet it posted *after* the change (the step's marker): packets are dequeued in the
//   order they were queued (the port returns what GetQueuedCompletionStatusEx returns, and
//   an I/O completion port is a FIFO queue), so everything queued before that post has been
//   dequeued by then. After it nothing stale may come: no packet for a disabled registration,
//   none beyond the one-shot's one packet per arming, none for a closed socket's key (its
//   key is dead from then on: a "dangling key"). A removed registration's key is dead once
//   its REMOVE packet is seen; a REMOVE for a closed (not removed) socket is a violation.
//   The Linux backend builds packets when they are dequeued, so for it "stale" never
//   happens; the allowance exists so the model states the contract, not one backend.
//
// * Level-triggered (rule 6): while a condition of the filter (or an error) holds, an
//   enabled persistent registration keeps producing packets: at least two after each step's
//   marker, and a zero-timeout dequeue may not come back empty meanwhile (the packets are
//   queued). A one-shot one produces exactly one per arming (rule 7). A packet dequeued
//   after the marker reports the state at that time, so it must name every condition that
//   holds (port.hpp: "the conditions that hold").
//
// * Edge-triggered (rule 8): a packet may follow the arming (a condition already true "may
//   produce nothing") and each change of the socket's state (a TCP shutdown is two: the FIN,
//   then its acknowledgement); one packet per cause, and none without one. A condition of
//   the filter that becomes true (it was not even `may` before) must produce a packet
//   (one-shot: unless it already fired).
//
// * Entry results: invalid combinations -> invalid_argument (before anything else, whatever
//   the handle); a socket registered on another port -> already_open (rule 1); disable or
//   remove of a socket without a registration on this port -> not_found; enable of a closed
//   or invalid handle -> bad_descriptor; disable/remove of one -> not_found or bad_descriptor
//   (the contract does not say which). A changed key on a live registration (rule 2) must
//   fail (with any error) and leave the registration as it was. Triggers are ignored by
//   disable and remove.
//
// * User packets come exactly once each, in the order posted, whatever key they carry.
#ifndef BOOST_ASIO_NOTIFY_TEST_MODEL_CONTRACT_MODEL_HPP
#define BOOST_ASIO_NOTIFY_TEST_MODEL_CONTRACT_MODEL_HPP

#include <boost/asio_notify/flags.hpp>
#include <boost/asio_notify/registration.hpp>
#include <boost/asio/error.hpp>
#include <boost/system/error_code.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <initializer_list>
#include <limits>
#include <list>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace port_model {

namespace an = boost::asio_notify;
using error_code = boost::system::error_code;

// Event bits (the values of an::events) and trigger bits (an::trigger).
constexpr unsigned IN = 0x01, OUT = 0x02, HUP = 0x04, ERR = 0x40, REM = 0x80;
constexpr unsigned FILTER_BITS = IN | OUT | HUP;
constexpr unsigned KNOWN_BITS = IN | OUT | HUP | ERR | REM;
constexpr unsigned ONESHOT = 0x01, PERSISTENT = 0x02, LEVEL = 0x04, EDGE = 0x08;

inline std::string hex(const void* p)
{
  char buf[32];
  std::snprintf(buf, sizeof buf, "%#llx",
                static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p)));
  return buf;
}

// The names of the bits set in `v`, '|'-separated; unnamed bits in hex; "none" for 0.
inline std::string bits_str(unsigned v, std::initializer_list<const char*> names)
{
  std::string s;
  for (unsigned i = 0; i < 16; ++i)
    if (v & (1u << i))
    {
      char bit[8];
      std::snprintf(bit, sizeof bit, "%#x", 1u << i);
      const char* name = i < names.size() && names.begin()[i] ? names.begin()[i] : bit;
      s += (s.empty() ? "" : "|") + std::string(name);
    }
  return s.empty() ? "none" : s;
}

inline std::string ev_str(unsigned e)
{
  return bits_str(e, {"in", "out", "hup", nullptr, nullptr, nullptr, "err", "remove"});
}

inline std::string trig_str(unsigned t)
{
  return bits_str(t, {"oneshot", "persistent", "level", "edge"});
}

inline std::string packet_str(const an::packet& p)
{
  if (p.kind == an::packet_kind::user)
    return "{user key " + hex(p.key) + " value " + std::to_string(p.value) + "}";
  return "{key " + hex(p.key) + " " + ev_str(static_cast<unsigned>(p.events)) + "}";
}

inline std::string err_str(const error_code& ec)
{
  if (!ec)
    return "ok";
  return ec.message() + " (" + std::to_string(ec.value()) + ")";
}

// ---- the sockets as the model knows them ---------------------------------------------------

enum class sock_kind : std::uint8_t
{
  tcp,
  unix_stream,
  udp,
  unix_dgram,
  listener,
  tcp_unconnected
};
constexpr int sock_kind_count = 6;

inline const char* kind_name(sock_kind k)
{
  switch (k)
  {
  case sock_kind::tcp:
    return "tcp";
  case sock_kind::unix_stream:
    return "unix-stream";
  case sock_kind::udp:
    return "udp";
  case sock_kind::unix_dgram:
    return "unix-dgram";
  case sock_kind::listener:
    return "tcp-listener";
  default:
    return "tcp-unconnected";
  }
}

/// What was done to one socket (the "local" end, the one registered) and its peer.
struct sock_state
{
  sock_kind kind = sock_kind::tcp;
  bool open = false;
  int rx = 0;       ///< data (bytes, datagrams) or connections waiting
  bool eof = false; ///< the peer shut down its sending side (streams)
  bool peer_closed = false;
  bool reset = false;      ///< a TCP reset arrived
  bool err = false;        ///< an error is pending (read clears it)
  bool err_may = false;    ///< an error may be pending (an ICMP error not confirmed yet)
  bool local_shut = false; ///< shutdown(both) of the local end

  bool stream() const { return kind == sock_kind::tcp || kind == sock_kind::unix_stream; }
  bool datagram() const { return kind == sock_kind::udp || kind == sock_kind::unix_dgram; }
  bool listener() const { return kind == sock_kind::listener; }
  bool unconnected() const { return kind == sock_kind::tcp_unconnected; }

  /// The conditions that hold.
  unsigned must() const
  {
    if (!open)
      return 0;
    if (listener())
      return rx > 0 ? IN : 0;
    if (unconnected())
      return local_shut ? IN : 0; // shut down: a read returns at once
    unsigned m = 0;
    if (rx > 0 || local_shut || (stream() && (eof || reset)))
      m |= IN; // data, end of stream or a reset: a read does not block
    if (!(peer_closed || reset || local_shut))
      m |= OUT;
    if (stream() && (peer_closed || reset))
      m |= HUP;
    if (err)
      m |= ERR;
    return m;
  }

  /// The conditions that may be reported.
  unsigned may() const
  {
    if (!open)
      return 0;
    unsigned m = must();
    if (listener())
      return m;
    if (unconnected())
      return m | OUT | HUP; // no connection: the contract says nothing, epoll says both
    m |= OUT;
    if (stream() && (eof || local_shut))
      m |= HUP;
    if (err_may)
      m |= ERR;
    return m;
  }

  std::string describe() const
  {
    if (!open)
      return "closed";
    std::string s = kind_name(kind);
    s += " rx=" + std::to_string(rx);
    if (eof)
      s += " peer-shut";
    if (peer_closed)
      s += " peer-closed";
    if (reset)
      s += " reset";
    if (err)
      s += " error";
    else if (err_may)
      s += " error?";
    if (local_shut)
      s += " local-shut";
    s += " must=" + ev_str(must()) + " may=" + ev_str(may());
    return s;
  }
};

/// Changes of a socket's state, each applied by the harness to the real socket too.
enum class change : std::uint8_t
{
  peer_write,       ///< the peer sends (a listener: a client connects)
  drain,            ///< the local end reads until it would block (a listener: accepts all)
  peer_shutdown,    ///< the peer shuts down its sending side
  peer_close,       ///< the peer closes
  peer_reset,       ///< the peer closes with a reset (TCP)
  local_shutdown,   ///< shutdown(both) of the local end
  local_send,       ///< the local end sends to a peer that is gone (UDP), no error seen
  local_send_error, ///< the same, and the ICMP error arrived
  connected         ///< an unconnected TCP socket connected (it is a tcp socket from then on)
};

// ---- the model ------------------------------------------------------------------------------

class contract_model
{
public:
  static constexpr long never = std::numeric_limits<long>::max();
  static constexpr int unlimited = std::numeric_limits<int>::max();

  contract_model(int ports, int slots)
      : ports_(static_cast<std::size_t>(ports)), socks_(static_cast<std::size_t>(slots)),
        live_(static_cast<std::size_t>(ports),
              std::vector<reg*>(static_cast<std::size_t>(slots), nullptr))
  {
  }

  contract_model(const contract_model&) = delete;
  contract_model& operator=(const contract_model&) = delete;

  int port_count() const { return static_cast<int>(ports_.size()); }
  int slot_count() const { return static_cast<int>(socks_.size()); }

  // ---- sockets ----

  const sock_state& sock(int s) const { return socks_[idx(s)]; }

  void socket_opened(int s, sock_kind k)
  {
    sock_state st;
    st.kind = k;
    st.open = true;
    socks_[idx(s)] = st;
  }

  /// The local socket is closed without remove: its registrations end silently (rule 4).
  void socket_closed(int s)
  {
    for (int p = 0; p < port_count(); ++p)
      if (reg* r = live_[idx(p)][idx(s)])
      {
        end_arming(*r);
        r->status = reg_status::closed;
        r->dies_at = ports_[idx(p)].posted; // dead once the next marker is dequeued
        live_[idx(p)][idx(s)] = nullptr;
      }
    socks_[idx(s)].open = false;
  }

  void socket_changed(int s, change c)
  {
    sock_state& st = socks_[idx(s)];
    const unsigned may_before = st.may();
    switch (c)
    {
    case change::peer_write:
      ++st.rx;
      break;
    case change::drain:
      st.rx = 0;
      if (st.err)
        st.err = st.err_may = false;
      else if (st.kind != sock_kind::udp)
        st.err_may = false; // an unconfirmed ICMP error may still come
      break;
    case change::peer_shutdown:
      st.eof = true;
      break;
    case change::peer_close:
      st.peer_closed = true;
      if (st.stream())
        st.eof = true;
      break;
    case change::peer_reset:
      st.peer_closed = st.eof = st.reset = st.err = st.err_may = true;
      break;
    case change::local_shutdown:
      st.local_shut = true;
      break;
    case change::local_send:
      st.err_may = true;
      break;
    case change::local_send_error:
      st.err = st.err_may = true;
      break;
    case change::connected:
      st.kind = sock_kind::tcp;
      break;
    }
    for (int p = 0; p < port_count(); ++p)
    {
      reg* r = live_[idx(p)][idx(s)];
      if (!r || r->status != reg_status::enabled)
        continue;
      arming& a = r->armings.back();
      const unsigned allowed = st.may() & eff_filter(*r);
      const long posted = ports_[idx(p)].posted;
      if (!a.edge)
      {
        // A new state: what the old one allowed may still be queued until the next marker.
        for (epoch& e : a.epochs)
          e.expires = std::min(e.expires, posted);
        a.epochs.push_back({allowed, unlimited, 0, never});
      }
      else if (c != change::drain)
      {
        // A cause for one edge packet; it stays valid for two markers. A TCP shutdown is
        // two changes: the FIN leaves, then the peer's acknowledgement moves the state on.
        const int causes = c == change::local_shutdown && st.kind == sock_kind::tcp ? 2 : 1;
        a.epochs.push_back({allowed, causes, 0, posted + 1});
        const unsigned rise = st.must() & ~may_before & eff_filter(*r);
        if (rise != 0 && !(a.oneshot && a.observed > 0))
          r->rise_owed = true;
      }
    }
  }

  // ---- registration entries ----

  /// The results an entry may get. `any_error`: any failure will do.
  struct expected
  {
    std::vector<error_code> codes;
    bool any_error = false;

    bool accepts(const error_code& ec) const
    {
      if (any_error && ec)
        return true;
      return std::find(codes.begin(), codes.end(), ec) != codes.end();
    }
    bool success() const { return codes.size() == 1 && !codes.front() && !any_error; }
    std::string describe() const
    {
      if (any_error)
        return "any error";
      std::string s;
      for (const error_code& ec : codes)
        s += (s.empty() ? "" : " or ") + err_str(ec);
      return s;
    }
  };

  /// Whether the contract accepts the entry's combination of operation, filter and trigger.
  static bool valid(const an::registration& r)
  {
    const unsigned op = static_cast<unsigned>(r.operation);
    if (op != 1 && op != 2 && op != 4)
      return false; // exactly one of enable, disable, remove
    if (op != 1)
      return true; // filter and trigger are read by enable only
    if (static_cast<unsigned>(r.filter) & ~FILTER_BITS)
      return false;
    const unsigned t = static_cast<unsigned>(r.triggers);
    if (t & ~(ONESHOT | PERSISTENT | LEVEL | EDGE))
      return false;
    if (((t & LEVEL) != 0) == ((t & EDGE) != 0))
      return false;
    if ((t & ONESHOT) && (t & PERSISTENT))
      return false;
    return true;
  }

  /// Applies one entry to the model (when the contract says it succeeds) and returns the
  /// results it may get. `slot` < 0: the handle is not an open socket (closed or invalid).
  expected entry(int p, int slot, const an::registration& r)
  {
    namespace ae = boost::asio::error;
    if (!valid(r))
      return {{ae::invalid_argument}};
    const unsigned op = static_cast<unsigned>(r.operation);
    if (slot < 0)
    {
      if (op == 1)
        return {{ae::bad_descriptor}};
      return {{ae::not_found, ae::bad_descriptor}};
    }
    reg* cur = live_[idx(p)][idx(slot)];
    if (op == 1)
    {
      for (int q = 0; q < port_count(); ++q)
        if (q != p && live_[idx(q)][idx(slot)])
          return {{ae::already_open}}; // rule 1
      if (cur && cur->key != r.key)
      {
        expected e;
        e.any_error = true; // rule 2
        return e;
      }
      if (!cur)
        cur = create(p, slot, r.key);
      arm(*cur, static_cast<unsigned>(r.filter), static_cast<unsigned>(r.triggers));
      return {{error_code()}};
    }
    if (!cur)
      return {{ae::not_found}};
    end_arming(*cur);
    if (op == 2)
    {
      cur->status = reg_status::disabled; // rule 5
      return {{error_code()}};
    }
    cur->status = reg_status::removed; // rule 3: one REMOVE packet is owed
    cur->remove_extra = socks_[idx(slot)].may() & eff_filter(*cur);
    live_[idx(p)][idx(slot)] = nullptr;
    return {{error_code()}};
  }

  /// The key an entry should carry. choice 0: the live registration's key (a fresh one when
  /// there is none); 1: a key other than the live registration's; 2: a dead key if any.
  void* key_for(int p, int slot, unsigned choice, unsigned pick)
  {
    reg* cur = slot >= 0 ? live_[idx(p)][idx(slot)] : nullptr;
    if (choice == 0 && cur)
      return cur->key;
    if (choice == 2 && !cur && !dead_keys_.empty())
      return dead_keys_[pick % dead_keys_.size()];
    return fresh_key();
  }

  void* fresh_key()
  {
    next_key_ += 0x10;
    return reinterpret_cast<void*>(next_key_);
  }

  /// A key of a live (enabled or disabled) registration of port `p`, or null.
  void* some_live_key(int p, unsigned pick) const
  {
    std::vector<void*> keys;
    for (reg* r : live_[idx(p)])
      if (r)
        keys.push_back(r->key);
    return keys.empty() ? nullptr : keys[pick % keys.size()];
  }

  bool registered(int p, int slot) const { return live_[idx(p)][idx(slot)] != nullptr; }

  /// The port a slot's socket is registered on, or -1.
  int owner(int slot) const
  {
    for (int p = 0; p < port_count(); ++p)
      if (live_[idx(p)][idx(slot)])
        return p;
    return -1;
  }

  int live_count(int p) const
  {
    int n = 0;
    for (reg* r : live_[idx(p)])
      n += r != nullptr;
    return n;
  }

  // ---- packets ----

  static void* marker_key() { return reinterpret_cast<void*>(std::uintptr_t(0x6d61726b00)); }

  /// Records a marker the harness is about to post on port `p`; returns its value.
  std::uint32_t post_marker(int p)
  {
    port_state& ps = ports_[idx(p)];
    const auto v = static_cast<std::uint32_t>(ps.posted++);
    ps.users.emplace_back(marker_key(), v);
    ps.after_marker = false;
    return v;
  }

  void posted(int p, void* key, std::uint32_t value)
  {
    ports_[idx(p)].users.emplace_back(key, value);
  }

  bool marker_seen(int p) const { return ports_[idx(p)].after_marker; }

  /// Checks one dequeued packet; returns "" when the contract allows it, else why not.
  std::string packet(int p, const an::packet& pk)
  {
    port_state& ps = ports_[idx(p)];
    if (pk.kind == an::packet_kind::user)
    {
      if (ps.users.empty())
        return "unexpected user packet: " + packet_str(pk) + " (none was posted)";
      const auto front = ps.users.front();
      if (front.first != pk.key || front.second != pk.value)
        return "user packet out of order or altered: " + packet_str(pk) + ", expected {user key " +
               hex(front.first) + " value " + std::to_string(front.second) + "}";
      ps.users.pop_front();
      if (pk.key == marker_key())
        marker_observed(p, static_cast<long>(pk.value));
      return {};
    }
    const unsigned e = static_cast<unsigned>(pk.events);
    if (pk.kind != an::packet_kind::notification)
      return "packet of unknown kind: " + packet_str(pk);
    if (e == 0)
      return "notification without events: " + packet_str(pk);
    if (e & ~KNOWN_BITS)
      return "notification with unknown event bits: " + packet_str(pk);
    auto it = by_key_.find(pk.key);
    if (it == by_key_.end())
    {
      auto d = dead_why_.find(pk.key);
      return "dangling key: " + packet_str(pk) + " for a key with no registration (" +
             (d == dead_why_.end() ? std::string("never registered") : d->second) + ")";
    }
    reg& r = *it->second;
    if (r.port != p)
      return "packet " + packet_str(pk) + " on port " + std::to_string(p) +
             " for a registration of port " + std::to_string(r.port);
    if (e & REM)
    {
      if (r.status != reg_status::removed)
        return "REMOVE packet " + packet_str(pk) +
               " for a registration that was not removed: " + describe(r);
      if (e & ~REM & ~r.remove_extra)
        return "REMOVE packet " + packet_str(pk) +
               " with conditions that did not hold: " + describe(r);
      kill(r, "its REMOVE packet was dequeued");
      return {};
    }
    // Find what the packet can stand for: the oldest cause first (FIFO).
    arming* matched = nullptr;
    for (arming& a : r.armings)
    {
      if (a.oneshot && a.seen_total >= 1)
        continue;
      for (epoch& ep : a.epochs)
        if (ep.seen < ep.limit && (e & ~ep.allowed) == 0)
        {
          ++ep.seen;
          ++a.seen_total;
          matched = &a;
          break;
        }
      if (matched)
        break;
    }
    if (!matched)
      return "packet not allowed: " + packet_str(pk) + " for " + describe(r);
    arming* current = r.status == reg_status::enabled ? &r.armings.back() : nullptr;
    if (ps.after_marker && matched == current && !current->edge)
    {
      // Dequeued after the marker: it reports the state at that time, all of it.
      const unsigned need = socks_[idx(r.slot)].must() & eff_filter(r);
      if (need & ~e)
        return "level-triggered packet " + packet_str(pk) + " omits conditions that hold (" +
               ev_str(need) + "): " + describe(r);
    }
    if (current)
    {
      ++current->observed;
      if (fits(*current, e))
        r.rise_owed = false;
    }
    if (ps.after_marker)
      ++r.post_marker;
    return {};
  }

  /// Which packets the port still owes once the marker was dequeued; "" when none.
  std::string owed(int p) const
  {
    std::string out;
    for (const reg& r : regs_)
    {
      if (r.port != p)
        continue;
      if (r.status == reg_status::removed)
      {
        out += "  REMOVE packet for " + describe(r) + "\n";
        continue;
      }
      if (r.status != reg_status::enabled)
        continue;
      const arming& a = r.armings.back();
      const unsigned need = socks_[idx(r.slot)].must() & eff_filter(r);
      if (!a.edge && a.oneshot && need && a.observed == 0)
        out += "  the one-shot level-triggered packet (" + ev_str(need) + " holds) for " +
               describe(r) + "\n";
      else if (!a.edge && !a.oneshot && need && r.post_marker < 2)
        out += "  repeated level-triggered packets (" + ev_str(need) + " holds; " +
               std::to_string(r.post_marker) + " since the marker) for " + describe(r) + "\n";
      else if (a.edge && r.rise_owed)
        out += "  an edge-triggered packet for a condition that became true, for " + describe(r) +
               "\n";
    }
    return out;
  }

  bool has_owed(int p) const { return !owed(p).empty(); }

  /// What the port must be able to deliver right now (what it owes, and the packets of
  /// level-triggered persistent registrations whose condition holds); "" when nothing.
  /// A zero-timeout dequeue returning nothing then is a violation: the packets are queued.
  std::string due(int p) const
  {
    std::string out = owed(p);
    for (const reg& r : regs_)
    {
      if (r.port != p || r.status != reg_status::enabled)
        continue;
      const arming& a = r.armings.back();
      const unsigned need = socks_[idx(r.slot)].must() & eff_filter(r);
      if (!a.edge && !a.oneshot && need && r.post_marker >= 2)
        out += "  a level-triggered packet (" + ev_str(need) + " holds) for " + describe(r) + "\n";
    }
    return out;
  }

  /// The port was destroyed and made anew: its registrations are gone, no packet can come.
  void port_reset(int p)
  {
    for (auto it = regs_.begin(); it != regs_.end();)
    {
      auto next = std::next(it);
      if (it->port == p)
        kill(*it, "its port was destroyed");
      it = next;
    }
    for (reg*& r : live_[idx(p)])
      r = nullptr;
    ports_[idx(p)] = port_state();
  }

  std::string describe_slot_regs(int s) const
  {
    std::string out;
    for (const reg& r : regs_)
      if (r.slot == s)
        out += "    " + describe(r) + "\n";
    return out;
  }

  std::string describe_all() const
  {
    std::string out;
    for (int s = 0; s < slot_count(); ++s)
      out += "  slot " + std::to_string(s) + ": " + socks_[idx(s)].describe() + "\n" +
             describe_slot_regs(s);
    return out;
  }

private:
  enum class reg_status
  {
    enabled,
    disabled,
    removed,
    closed
  };

  // What one cause allows: the events a packet may carry, how many packets, until when.
  struct epoch
  {
    unsigned allowed;
    int limit;
    int seen;
    long expires; // marker index whose dequeue ends it; `never` while it is the current state
  };

  struct arming
  {
    bool edge = false;
    bool oneshot = false;
    unsigned filter = 0;
    bool current = true;
    int seen_total = 0; // packets attributed to this arming
    int observed = 0;   // packets of the key dequeued since this arming began
    std::vector<epoch> epochs;
  };

  struct reg
  {
    void* key = nullptr;
    int port = 0;
    int slot = 0;
    reg_status status = reg_status::enabled;
    std::vector<arming> armings;
    unsigned remove_extra = 0;
    int post_marker = 0;
    bool rise_owed = false;
    long dies_at = never;
  };

  struct port_state
  {
    std::deque<std::pair<void*, std::uint32_t>> users; // posted, not dequeued yet, in order
    long posted = 0;                                   // markers posted
    bool after_marker = false;                         // the last marker was dequeued
  };

  static std::size_t idx(int i) { return static_cast<std::size_t>(i); }

  unsigned eff_filter(const reg& r) const
  {
    unsigned f = (r.armings.empty() ? 0u : r.armings.back().filter) | ERR; // rule 9
    if (socks_[idx(r.slot)].datagram())
      f &= ~HUP; // rule 10
    return f;
  }

  static bool fits(const arming& a, unsigned e)
  {
    for (const epoch& ep : a.epochs)
      if ((e & ~ep.allowed) == 0)
        return true;
    return false;
  }

  reg* create(int p, int slot, void* key)
  {
    regs_.emplace_back();
    reg& r = regs_.back();
    r.key = key;
    r.port = p;
    r.slot = slot;
    by_key_[key] = &r;
    dead_why_.erase(key);
    dead_keys_.erase(std::remove(dead_keys_.begin(), dead_keys_.end(), key), dead_keys_.end());
    live_[idx(p)][idx(slot)] = &r;
    return &r;
  }

  void arm(reg& r, unsigned filter, unsigned triggers)
  {
    end_arming(r);
    arming a;
    a.edge = (triggers & EDGE) != 0;
    a.oneshot = (triggers & ONESHOT) != 0;
    a.filter = filter;
    r.armings.push_back(a);
    r.status = reg_status::enabled;
    r.rise_owed = false;
    const unsigned allowed = socks_[idx(r.slot)].may() & eff_filter(r);
    const long posted = ports_[idx(r.port)].posted;
    if (a.edge)
      r.armings.back().epochs.push_back({allowed, 1, 0, posted + 1}); // may report what holds
    else
      r.armings.back().epochs.push_back({allowed, unlimited, 0, never});
  }

  // The registration leaves its current arming: what it allowed may still be queued until
  // the next marker is dequeued.
  void end_arming(reg& r)
  {
    if (r.armings.empty() || !r.armings.back().current)
      return;
    arming& a = r.armings.back();
    a.current = false;
    const long posted = ports_[idx(r.port)].posted;
    for (epoch& e : a.epochs)
      e.expires = std::min(e.expires, posted);
  }

  void marker_observed(int p, long index)
  {
    ports_[idx(p)].after_marker = true;
    for (auto it = regs_.begin(); it != regs_.end();)
    {
      auto next = std::next(it);
      reg& r = *it;
      if (r.port == p)
      {
        r.post_marker = 0;
        for (arming& a : r.armings)
          a.epochs.erase(std::remove_if(a.epochs.begin(), a.epochs.end(),
                                        [&](const epoch& e) { return e.expires <= index; }),
                         a.epochs.end());
        r.armings.erase(
            std::remove_if(r.armings.begin(), r.armings.end(),
                           [](const arming& a) { return !a.current && a.epochs.empty(); }),
            r.armings.end());
        if (r.status == reg_status::closed && r.dies_at <= index)
          kill(r, "its socket was closed and a marker posted after the close was dequeued");
      }
      it = next;
    }
  }

  void kill(reg& r, const char* why)
  {
    by_key_.erase(r.key);
    dead_why_[r.key] = why;
    dead_keys_.push_back(r.key);
    if (live_[idx(r.port)][idx(r.slot)] == &r)
      live_[idx(r.port)][idx(r.slot)] = nullptr;
    for (auto it = regs_.begin(); it != regs_.end(); ++it)
      if (&*it == &r)
      {
        regs_.erase(it);
        break;
      }
  }

  std::string describe(const reg& r) const
  {
    static const char* const st[] = {"enabled", "disabled", "removed", "closed"};
    std::string s = "key " + hex(r.key) + " (port " + std::to_string(r.port) + ", slot " +
                    std::to_string(r.slot) + ", " + st[static_cast<int>(r.status)];
    for (const arming& a : r.armings)
    {
      s += std::string("; ") + (a.current ? "arming" : "old arming") + " " + ev_str(a.filter) +
           " " + (a.edge ? "edge" : "level") + (a.oneshot ? "|oneshot" : "") + " seen " +
           std::to_string(a.seen_total) + " allows [";
      bool first = true;
      for (const epoch& e : a.epochs)
      {
        s += (first ? "" : ", ") + ev_str(e.allowed);
        if (e.limit != unlimited)
          s += " x" + std::to_string(e.limit - e.seen);
        first = false;
      }
      s += "]";
    }
    s += "; socket " + socks_[idx(r.slot)].describe() + ")";
    return s;
  }

  std::vector<port_state> ports_;
  std::vector<sock_state> socks_;
  std::vector<std::vector<reg*>> live_; // [port][slot]: enabled or disabled registrations
  std::list<reg> regs_;                 // every registration whose key is not dead
  std::unordered_map<void*, reg*> by_key_;
  std::unordered_map<void*, std::string> dead_why_;
  std::vector<void*> dead_keys_;
  std::uintptr_t next_key_ = 0x100000;
};

} // namespace port_model

#endif
