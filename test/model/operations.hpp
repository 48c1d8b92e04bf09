//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The operations of a model sequence (on sockets, registrations, user packets and ports),
// each described independently of the state it meets, so that a recorded sequence can be
// replayed and shrunk; `describe` writes one in words.
#ifndef BOOST_ASIO_NOTIFY_TEST_MODEL_OPERATIONS_HPP
#define BOOST_ASIO_NOTIFY_TEST_MODEL_OPERATIONS_HPP

#include "contract_model.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace port_model {

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

} // namespace port_model

#endif
