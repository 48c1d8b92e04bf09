//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The harness's registration entries: an operation's entries made real (descriptors, keys,
// the rule an invalid one breaks), applied to a port, and their results and packets
// compared with what the model allows.
#ifndef BOOST_ASIO_NOTIFY_TEST_MODEL_HARNESS_ENTRIES_HPP
#define BOOST_ASIO_NOTIFY_TEST_MODEL_HARNESS_ENTRIES_HPP

#include "harness.hpp"

#include <boost/asio/error.hpp>

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace port_model {

inline std::string harness::entries(const op& o)
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
    what.push_back(describe(e) + " [p" + std::to_string(p) + " fd " + std::to_string(fd) + " key " +
                   hex(r.key) + "]");
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

inline void harness::make_invalid(an::registration& r, unsigned v)
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

} // namespace port_model

#endif
