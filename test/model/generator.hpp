//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Generating operations: the next operation chosen from a source of choices, guided by the
// harness's state.
#ifndef BOOST_ASIO_NOTIFY_TEST_MODEL_GENERATOR_HPP
#define BOOST_ASIO_NOTIFY_TEST_MODEL_GENERATOR_HPP

#include "choice_sources.hpp"
#include "harness.hpp"
#include "operations.hpp"

#include <utility>
#include <vector>

namespace port_model {

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

} // namespace port_model

#endif
