//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// An edge-triggered UDP server on a notification port.
//
// An edge-triggered registration queues a packet when a condition *becomes* true, not while
// it holds. So on each packet the server must read until the socket reports would-block:
// datagrams left behind would never produce another edge, and the server would wait for
// them forever. That is also why the socket must be non-blocking.
//
// The client sends ten datagrams: a burst of several back to back (which typically arrive
// behind a single edge, so draining is what gets them all) and then a few spaced out (one
// edge each). The server checks that every datagram arrives exactly once and intact.
//
// UDP has no connection, so the port never reports HANGUP for it; the server stops once it
// has counted all ten, then removes the registration and waits for its REMOVE packet before
// closing the socket.
//
// Run with no arguments; exits 0 when every check held.

#include "example_support.hpp"

#include <boost/asio_notify/port.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace an = boost::asio_notify;
using example::error_code;
using example::socket_type;

constexpr int datagram_count = 10;
constexpr int burst_size = 6; // sent back to back; the rest are spaced out

// Long enough for any hiccup of a loaded machine; only reached when something is broken.
constexpr std::chrono::milliseconds watchdog = std::chrono::seconds(20);

// Datagram i reads "datagram 07": its number says which one it is.
std::string make_datagram(int i)
{
  char text[32];
  std::snprintf(text, sizeof(text), "datagram %02d", i);
  return text;
}

// ---- the client ------------------------------------------------------------------------------

// Runs on its own thread with a socket already connected to the server.
void run_client(example::socket_handle socket, error_code& result)
{
  for (int i = 0; i < datagram_count && !result; ++i)
  {
    // Spacing out the tail gives the server separate edges to see. It is pacing only:
    // nothing depends on it, the server would receive everything without it.
    if (i >= burst_size)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    const std::string d = make_datagram(i);
    const std::size_t sent = example::send_some(socket.get(), d.data(), d.size(), result);
    if (!result && sent != d.size())
      result = boost::asio::error::message_size;
  }
}

// ---- the server ------------------------------------------------------------------------------

// What the server has received so far.
struct receive_state
{
  std::array<int, datagram_count> copies{}; // how often each datagram arrived
  int received = 0;                         // datagrams in total
  int malformed = 0;                        // datagrams that are none of the client's
  std::vector<int> drains;                  // datagrams read per `in` packet
};

// File one datagram under its number, or count it as malformed.
void record_datagram(const char* data, std::size_t size, receive_state& state)
{
  ++state.received;
  int i = -1;
  const std::string text(data, size);
  if (std::sscanf(text.c_str(), "datagram %d", &i) == 1 && i >= 0 && i < datagram_count &&
      text == make_datagram(i))
    ++state.copies[static_cast<std::size_t>(i)];
  else
    ++state.malformed;
}

// Read datagrams until the socket says would-block: only then is the next arrival
// guaranteed to produce a new edge, and so a new packet.
error_code drain(socket_type s, receive_state& state)
{
  int count = 0;
  for (;;)
  {
    char buffer[512];
    error_code ec;
    // For a datagram socket a 0-byte result is an empty datagram, not an end of stream.
    const std::size_t n = example::receive(s, buffer, sizeof(buffer), ec);
    if (example::would_block(ec))
      break;
    if (ec)
      return ec;
    record_datagram(buffer, n, state);
    ++count;
  }
  state.drains.push_back(count);
  return {};
}

// The server loop: one packet at a time until all datagrams are in.
void serve(an::port& port, socket_type s, void* key, receive_state& state, example::checker& check)
{
  while (state.received < datagram_count)
  {
    an::packet packet;
    error_code ec;
    const std::size_t n = port.dequeue(boost::span<an::packet>(&packet, 1), watchdog, ec);
    if (!check.check_ok(ec, "dequeue") || !check.check(n == 1, "a packet within the watchdog time"))
      return;
    check.check(packet.key == key, "packet carries the registration's key");
    // Only what was asked for (in), or an error, which is reported whatever the filter.
    check.check(!has_any(packet.events, ~(an::events::in | an::events::error)),
                "packet reports only in or error");
    if (has_any(packet.events, an::events::error))
    {
      check.check_ok(example::pending_error(s), "socket error reported by the port");
      return;
    }
    if (has_any(packet.events, an::events::in) && !check.check_ok(drain(s, state), "receive"))
      return;
  }
}

// Register for `in`, edge-triggered, persistent (edge with one-shot is discouraged: after
// each packet both a re-arm and a drain would be needed).
bool register_socket(an::port& port, socket_type s, void* key, example::checker& check)
{
  an::registration r;
  r.socket = s;
  r.key = key;
  r.filter = an::events::in;
  r.operation = an::operation::enable;
  r.triggers = an::trigger::edge | an::trigger::persistent;
  return check.check_ok(port.apply(r), "register the socket");
}

std::string join(const std::vector<int>& values)
{
  std::string s;
  for (int v : values)
    s += (s.empty() ? "" : "+") + std::to_string(v);
  return s;
}

} // namespace

int main()
{
  example::socket_library sockets;
  example::checker check("edge_udp_server");
  an::port port;

  error_code ec;
  example::socket_handle server = example::open_socket(SOCK_DGRAM, ec);
  if (!ec)
    ec = example::set_non_blocking(server.get()); // draining ends at would-block
  if (!check.check_ok(ec, "open the server socket"))
    return check.summary();

  // Register *before* binding: an unbound socket cannot receive, so no datagram can be
  // waiting already. (An edge-triggered registration may report nothing for data that
  // was there before it was made, and then no edge would ever come.)
  void* const key = &server; // any stable address works as a key; here, the socket's owner
  if (!register_socket(port, server.get(), key, check))
    return check.summary();
  const std::uint16_t port_number = example::bind_loopback(server.get(), ec);

  // The client's socket is connected to the server so that it can use plain `send`.
  example::socket_handle client;
  if (!ec)
    client = example::open_socket(SOCK_DGRAM, ec);
  if (!ec)
    ec = example::connect_loopback(client.get(), port_number);
  if (!check.check_ok(ec, "set up the client"))
    return check.summary(); // (the registration dies with the port)

  error_code client_result;
  std::thread client_thread(run_client, std::move(client), std::ref(client_result));

  receive_state state;
  serve(port, server.get(), key, state, check);

  std::size_t dropped = 0;
  check.check_ok(example::remove_and_wait(port, server.get(), key, watchdog, dropped),
                 "remove the registration and receive its REMOVE packet");
  server.close();

  client_thread.join();
  check.check_ok(client_result, "client sent every datagram");
  check.check_equal(state.received, datagram_count, "datagrams received");
  check.check_equal(state.malformed, 0, "malformed datagrams");
  const bool each_once =
      std::all_of(state.copies.begin(), state.copies.end(), [](int copies) { return copies == 1; });
  check.check(each_once, "every datagram received exactly once");
  const int largest =
      state.drains.empty() ? 0 : *std::max_element(state.drains.begin(), state.drains.end());
  check.note("received " + std::to_string(state.received) + " datagrams through " +
             std::to_string(state.drains.size()) + " edge(s), drained as " + join(state.drains) +
             " (largest drain " + std::to_string(largest) + ")");
  return check.summary();
}
