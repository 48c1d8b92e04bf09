//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A notification port as a drop-in replacement for poll().
//
// One thread serves one TCP connection through one *persistent level-triggered*
// registration:
// - persistent: the registration stays enabled after each packet, so the loop never has to
//   re-arm it and can simply dequeue (no registrations to pass along);
// - level-triggered: the port keeps reporting the socket for as long as unread data is
//   waiting, so the loop may read as little as it likes per packet. To show that, it reads
//   one small chunk per packet and lets the port come back for the rest.
//
// A client thread sends ten records and hangs up. The server checks every byte it receives,
// stops once it has seen the hang-up and read everything before it, then ends the
// registration the only safe way: remove it, wait for its REMOVE packet, and only then
// close the socket.
//
// Run with no arguments; exits 0 when every check held.

#include "example_support.hpp"

#include <boost/asio_notify/port.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>

namespace {

namespace an = boost::asio_notify;
using example::error_code;
using example::socket_type;

constexpr int record_count = 10;

// Long enough for any hiccup of a loaded machine; only reached when something is broken.
constexpr std::chrono::milliseconds watchdog = std::chrono::seconds(20);

// Record i is eight bytes, "record00" to "record09": easy to check and to read in a dump.
std::string make_record(int i)
{
  char text[16];
  std::snprintf(text, sizeof(text), "record%02d", i);
  return text;
}

// Everything the client sends, in order.
std::string expected_stream()
{
  std::string all;
  for (int i = 0; i < record_count; ++i)
    all += make_record(i);
  return all;
}

// ---- the client ------------------------------------------------------------------------------

// Runs on its own thread: sends each record with a send call of its own (so the server sees
// them arrive over time, not necessarily in one piece), then hangs up.
void run_client(example::socket_handle socket, error_code& result)
{
  for (int i = 0; i < record_count && !result; ++i)
    result = example::send_all(socket.get(), make_record(i));
  if (!result)
    result = example::shutdown_send(socket.get()); // the server sees HANGUP
  socket.close();
}

// ---- the server ------------------------------------------------------------------------------

// What the server learned about its one connection.
struct connection_state
{
  std::string received; // every byte, in order
  bool end_of_stream = false;
  bool hangup = false;
  int packets = 0;  // notification packets dequeued
  error_code error; // the first socket error, if any
};

// One small read per packet. Small on purpose: level triggering means the port reports the
// socket again while anything is left, so nothing is lost by reading little.
void read_one_chunk(socket_type s, connection_state& state)
{
  char chunk[16];
  error_code ec;
  const std::size_t n = example::receive(s, chunk, sizeof(chunk), ec);
  if (example::would_block(ec))
    return; // nothing after all; the port will tell us when there is
  if (ec)
    state.error = ec;
  else if (n == 0)
    state.end_of_stream = true; // everything the client sent has been read
  else
    state.received.append(chunk, n);
}

// The poll loop: dequeue one packet at a time until the client has hung up and all it sent
// has been read. A hang-up can be reported while data is still waiting ahead of the end of
// the stream, so the hang-up alone is not the end: the loop keeps reading, and the level-
// triggered registration keeps reporting the socket, until `recv` reports the end.
void serve(an::port& port, socket_type s, void* key, connection_state& state,
           example::checker& check)
{
  while (!(state.hangup && state.end_of_stream) && !state.error)
  {
    an::packet packet;
    error_code ec;
    const std::size_t n = port.dequeue(boost::span<an::packet>(&packet, 1), watchdog, ec);
    if (!check.check_ok(ec, "dequeue") || !check.check(n == 1, "a packet within the watchdog time"))
      return;
    ++state.packets;
    check.check(packet.key == key, "packet carries the registration's key");

    // One packet may report several conditions at once.
    if (has_any(packet.events, an::events::error))
      state.error = example::pending_error(s);
    if (has_any(packet.events, an::events::hangup))
      state.hangup = true;
    if (has_any(packet.events, an::events::in | an::events::hangup))
      read_one_chunk(s, state);
  }
}

// Register the connection: persistent level-triggered, for data and for the hang-up.
// The key is what every packet for this registration carries back: the address of the
// connection's state, so the loop knows at once which connection a packet is about.
bool register_connection(an::port& port, socket_type s, void* key, example::checker& check)
{
  an::registration r;
  r.socket = s;
  r.key = key;
  r.filter = an::events::in | an::events::hangup;
  r.operation = an::operation::enable;
  r.triggers = an::trigger::level | an::trigger::persistent;
  // Data that arrived before this call is reported too: that is what level means.
  return check.check_ok(port.apply(r), "register the connection");
}

} // namespace

int main()
{
  example::socket_library sockets;
  example::checker check("simple_poll");
  an::port port;

  // Connect the client and accept its connection up front, on this thread: loopback
  // completes the handshake at once, and a failure here is reported instead of hanging.
  error_code ec;
  example::socket_handle listener = example::open_socket(SOCK_STREAM, ec);
  std::uint16_t port_number = 0;
  if (!ec)
    port_number = example::bind_loopback(listener.get(), ec);
  if (!ec)
    ec = example::listen_on(listener.get(), 1);
  example::socket_handle client;
  if (!ec)
    client = example::open_socket(SOCK_STREAM, ec);
  if (!ec)
    ec = example::connect_loopback(client.get(), port_number);
  example::socket_handle server;
  if (!ec)
    server = example::accept_connection(listener.get(), ec);
  if (!ec)
    ec = example::set_non_blocking(server.get()); // the poll loop must never block in recv
  if (!check.check_ok(ec, "set up a loopback connection"))
    return check.summary();
  listener.close(); // one connection is all this example serves

  connection_state state;
  void* const key = &state;
  if (!register_connection(port, server.get(), key, check))
    return check.summary();

  // The client sends from a thread of its own while this thread polls.
  error_code client_result;
  std::thread client_thread(run_client, std::move(client), std::ref(client_result));

  serve(port, server.get(), key, state, check);

  // The registration is still enabled (persistent) and its socket still reports in and
  // hangup. Remove it and wait for the REMOVE packet: only after it may the socket be closed.
  std::size_t dropped = 0;
  check.check_ok(example::remove_and_wait(port, server.get(), key, watchdog, dropped),
                 "remove the registration and receive its REMOVE packet");
  // Nothing may follow the REMOVE packet. (A short wait: this can only catch a fault.)
  an::packet late;
  check.check_equal(port.dequeue(boost::span<an::packet>(&late, 1), std::chrono::milliseconds(50)),
                    std::size_t(0), "no packet after REMOVE");
  server.close();

  client_thread.join();
  check.check_ok(client_result, "client sent everything and hung up");
  check.check_ok(state.error, "no socket error on the server side");
  check.check(state.hangup, "HANGUP reported");
  check.check(state.end_of_stream, "end of stream reached");
  check.check_equal(state.received.size(), expected_stream().size(), "bytes received");
  check.check(state.received == expected_stream(), "content received in order");
  check.note("received " + std::to_string(state.received.size()) + " bytes through " +
             std::to_string(state.packets) + " packets, then HANGUP; " + std::to_string(dropped) +
             " packet(s) dropped while waiting for REMOVE");
  return check.summary();
}
