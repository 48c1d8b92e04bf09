//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The reactor's per-socket state (design.md, "The path of one operation"): private to the
// reactor, which hands the I/O objects its address as an opaque handle
// (detail/reactor_core.hpp).
#ifndef BOOST_ASIO_NOTIFY_SRC_REACTOR_DESCRIPTOR_STATE_HPP
#define BOOST_ASIO_NOTIFY_SRC_REACTOR_DESCRIPTOR_STATE_HPP

#include <boost/asio/socket_base.hpp>
#include <boost/asio_notify/detail/performers.hpp>
#include <boost/asio_notify/detail/reactor_core.hpp>
#include <boost/asio_notify/detail/reactor_op.hpp>
#include <boost/asio_notify/flags.hpp>
#include <boost/system/error_code.hpp>

#include "transfer_channel.hpp"

#include <cstdint>
#include <mutex>
#include <optional>

namespace boost {
namespace asio_notify {
namespace detail {

struct descriptor_state;

/// Where a stream transfer goes on: the socket's transfer channel, opened on first use.
class channel_transfers final : public overlapped_transfers
{
public:
  channel_transfers(descriptor_state& s, const channel_site& site) noexcept : state_(s), site_(site)
  {
  }

  bool receive(socket_ops::native_buffer* bufs, std::size_t count,
               socket_ops::message_flags flags) noexcept override
  {
    return issue(read_op, bufs, count, flags);
  }

  bool send(socket_ops::native_buffer* bufs, std::size_t count,
            socket_ops::message_flags flags) noexcept override
  {
    return issue(write_op, bufs, count, flags);
  }

private:
  inline bool issue(op_type direction, socket_ops::native_buffer* bufs, std::size_t count,
                    socket_ops::message_flags flags) noexcept;

  descriptor_state& state_;
  channel_site site_;
};

/** The reactor's state of one open socket; the I/O object holds its address as an opaque
    handle (what the object keeps of its own is in socket_object.hpp). It lives in a slot of
    the reactor's `descriptor_state_table`, never freed while the reactor lives: the socket's
    completion key names the slot and its `generation`, so a packet that comes after the
    socket was closed, or after its slot was reused, is told apart and dropped. */
struct descriptor_state
{
  descriptor_state() = default;
  descriptor_state(const descriptor_state&) = delete;
  descriptor_state& operator=(const descriptor_state&) = delete;

  // The members below are called with `mutex` held.

  /// What the queued operations wait for (one-shot level registrations).
  events wanted_events() const noexcept
  {
    events e = events::none;
    if (!ops[read_op].empty() && !in_flight[read_op])
      e |= events::in | events::hangup;
    if (!ops[write_op].empty() && !in_flight[write_op])
      e |= events::out;
    if (!ops[except_op].empty())
      e |= events::hangup;
    return e;
  }

  /// After a read that finished: whether the next read or readiness wait may skip asking
  /// the socket. A hang-up seen means there is always something to read (end of file, an
  /// error).
  void record_read(bool drained) noexcept { read_drained = drained && !hangup_seen; }

  /// One attempt at an operation's system call; keeps `read_drained` up to date. A stream
  /// transfer goes on as an overlapped one where `channels` takes its direction.
  bool attempt(op_type type, reactor_op& op, bool from_packet, const channel_site& channels)
  {
    const bool read = type == read_op;
    perform_context c{socket, from_packet, read && read_drained, read && drained_hint};
    std::optional<channel_transfers> transfers;
    if (channels.takes(type) && !channel_refused)
    {
      // A stream read goes straight to the overlapped receive, as Asio's own reads, unless
      // a packet or a completion that filled its buffers says data is likely there: a
      // non-blocking try costs a second call whenever it would block (design.md,
      // "Transfers on the io_context's port"). Other reads then wait for a packet. A
      // stream write always goes straight to the overlapped send.
      c.overlapped = &transfers.emplace(*this, channels);
      c.nothing_to_read = read && (c.nothing_to_read || !from_packet);
    }
    if (!op.perform(c))
    {
      in_flight[type] = c.issued;
      if (!c.overlapped) // it asked the socket, or knew the answer (`read_drained`)
        unready |= type == read_op    ? (events::in | events::hangup)
                   : type == write_op ? events::out
                                      : events::none;
      return false;
    }
    if (read)
      record_read(c.drained);
    return true;
  }

  /// Perform queued operations of one type in order until one would block; the finished
  /// ones go to `done`. Nothing is performed behind a transfer in flight.
  void perform_queue(op_type type, op_queue& done, bool from_packet, const channel_site& channels)
  {
    if (in_flight[type])
      return;
    while (reactor_op* op = ops[type].front())
    {
      if (!attempt(type, *op, from_packet, channels))
        break;
      done.push(ops[type].pop());
    }
  }

  /// Move every queued operation to `aborted`, with `ec` as its result, but those in a
  /// transfer in flight, which that transfer's completion finishes.
  void abort_all(op_queue& aborted, const boost::system::error_code& ec) noexcept
  {
    for (int type = 0; type < max_ops; ++type)
    {
      op_queue& q = ops[type];
      reactor_op* kept = in_flight[type] ? q.pop() : nullptr;
      while (reactor_op* op = q.pop())
      {
        op->ec_ = ec;
        aborted.push(op);
      }
      if (kept)
        q.push(kept);
    }
  }

  /// The socket leaves the reactor: its transfer channel goes, with the operations of the
  /// transfers in flight (abort_all has taken the others).
  void close_channel() noexcept
  {
    if (!channel)
      return;
    reactor_op* const taken[2] = {in_flight[read_op] ? ops[read_op].pop() : nullptr,
                                  in_flight[write_op] ? ops[write_op].pop() : nullptr};
    channel->close(taken);
    channel = nullptr;
    in_flight[read_op] = in_flight[write_op] = false;
  }

  // Guarded by `mutex`: touched by the reactor and by cancel/close from any thread.
  std::mutex mutex;
  op_queue ops[max_ops];
  native_socket_type socket{};  // the I/O object's too: registrations and packets name it
  std::uint32_t generation = 0; // of the slot's current socket; 0: never used
  events armed = events::none;  // what the port reports for this socket right now
  bool registered = false;      // a registration exists: the close removes it
  bool closed = false;
  // Reads skip the speculative attempt while `read_drained`: the last read left the
  // receive queue empty, and whatever arrives after it comes with a packet. Never set
  // once a hang-up or error was reported (those are not data the hint counts).
  bool drained_hint = false; // reads tell whether they emptied the queue (TCP_INQ)
  bool read_drained = false;
  bool hangup_seen = false;
  // Overlapped transfers (transfer_channel.hpp): the channel, opened by the first transfer
  // that goes on so; by type, whether the front operation is in a transfer in flight (only
  // reads and writes ever are); whether no channel can be opened.
  transfer_channel* channel = nullptr;
  bool in_flight[max_ops] = {};
  bool channel_refused = false;
  // What the attempts since the last packet found would block: the port's hint
  // (registration::unready). Here, in the padding before `slot`.
  events unready = events::none;

  // Set once by the table.
  std::uint32_t slot = 0;
  std::uint32_t next_free = 0; // the next free slot + 1, 0 for none; the table's mutex
};

bool channel_transfers::issue(op_type direction, socket_ops::native_buffer* bufs, std::size_t count,
                              socket_ops::message_flags flags) noexcept
{
  if (flags & boost::asio::socket_base::message_out_of_band)
    return false; // urgent data goes when the port reports it, as everywhere else
  descriptor_state& s = state_;
  if (!s.channel)
    s.channel = site_.issuer->open(s.socket, site_.key);
  s.channel_refused = !s.channel;
  return s.channel && s.channel->issue(direction, bufs, count, flags);
}

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
