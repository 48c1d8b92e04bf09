//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A multi-threaded TCP server on one notification port.
//
// Several server threads dequeue from the same port. Every registration is *one-shot
// level-triggered*, the pattern recommended for several dequeuing threads: after a packet
// the registration is disabled until re-armed, so exactly one thread handles a given socket
// at a time and owns its state without locks. That thread reads one chunk, then re-arms.
//
// The re-arm registrations a thread collects while handling a batch of packets are passed
// to its next `port::process` call, which applies them and dequeues the next batch in one
// go (one system call on Windows instead of two).
//
// Each registration's key is a pointer to a `socket_context`, which starts with the kind
// of socket it describes (listener or connection) so that one port can serve both.
// A connection's context is freed only when its REMOVE packet arrives: after that the port
// never hands back its key again. The program counts allocations and frees to prove it.
//
// 100 client threads connect, send ten records each and hang up. When the server has freed
// the last connection it posts an exit packet; each server thread that dequeues it posts it
// again for the next thread and stops.
//
// Run with no arguments; exits 0 when every check held.

#include "example_support.hpp"

#include <boost/asio_notify/port.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace an = boost::asio_notify;
using example::error_code;
using example::socket_type;

constexpr int server_thread_count = 4;
constexpr int client_thread_count = 100;
constexpr int records_per_client = 10;
constexpr std::size_t packets_per_dequeue = 4; // small, so batches of several packets are common

// The listen backlog: room for every client at once, so that no connection attempt is ever
// refused or retried while the server is busy (the system may cap it; the cap is larger).
constexpr int listen_backlog = 1024;

// How long a server thread waits for a packet before it decides something is broken. The
// whole run takes well under a second; this is only a safety net.
constexpr std::chrono::milliseconds watchdog = std::chrono::seconds(20);

// ---- what the clients send ---------------------------------------------------------------

// Record i is eight bytes, "record00" to "record09". Every client sends the same stream.
std::string make_record(int i)
{
  char text[16];
  std::snprintf(text, sizeof(text), "record%02d", i);
  return text;
}

const std::string& expected_stream()
{
  static const std::string all = [] {
    std::string s;
    for (int i = 0; i < records_per_client; ++i)
      s += make_record(i);
    return s;
  }();
  return all;
}

// Runs on a client thread: a blocking connect, the records, a hang-up.
void run_client(std::uint16_t port_number, error_code& result)
{
  example::socket_handle s = example::open_socket(SOCK_STREAM, result);
  if (!result)
    result = example::connect_loopback(s.get(), port_number);
  for (int i = 0; i < records_per_client && !result; ++i)
    result = example::send_all(s.get(), make_record(i));
  if (!result)
    result = example::shutdown_send(s.get());
}

// ---- the server's state ----------------------------------------------------------------------

enum class socket_kind
{
  listener,
  connection
};

// What a registration's key points to.
struct socket_context
{
  socket_kind kind;
  example::socket_handle socket;
  std::size_t bytes_received = 0; // connections: bytes so far, checked against the stream
  bool content_ok = true;
};

// Shared by the server threads. Only counters: the per-socket state needs no lock because
// one-shot registrations hand each socket to one thread at a time.
struct server
{
  an::port& port;
  socket_context& listener;
  example::checker& check;
  std::atomic<int> connections_accepted{0};
  std::atomic<int> contexts_allocated{0};
  std::atomic<int> contexts_freed{0};
  std::atomic<int> connections_complete{0}; // freed with the whole stream received intact
  std::atomic<std::uint64_t> bytes_received{0};
  std::atomic<int> registration_failures{0};
};

// The key of the exit packet: an address no socket context can have.
char exit_key_storage;
void* const exit_key = &exit_key_storage;

// Ask the server threads to stop. The port wakes one of them; each passes the packet on.
void post_exit(server& s)
{
  error_code ec;
  s.port.post(exit_key, 0, ec);
  s.check.check_ok(ec, "post the exit packet");
}

// ---- registration entries --------------------------------------------------------------------

// Enable (or re-arm) a one-shot level-triggered registration. For a connection the filter
// includes HANGUP; for the listener, `in` means "a connection is waiting".
an::registration enable_entry(socket_context& c)
{
  an::registration r;
  r.socket = c.socket.get();
  r.key = &c;
  r.filter = c.kind == socket_kind::listener ? an::events::in : an::events::in | an::events::hangup;
  r.operation = an::operation::enable;
  r.triggers = an::trigger::oneshot | an::trigger::level;
  return r;
}

an::registration remove_entry(socket_context& c)
{
  an::registration r;
  r.socket = c.socket.get();
  r.key = &c;
  r.operation = an::operation::remove;
  return r;
}

// ---- handling packets --------------------------------------------------------------------------

// The last packet of a connection's registration has arrived: nothing can refer to the
// context any more, so close the socket and free it.
void free_connection(server& s, socket_context* c)
{
  if (c->content_ok && c->bytes_received == expected_stream().size())
    ++s.connections_complete;
  delete c; // closes the socket
  // The thread that frees the last connection starts the shutdown.
  if (++s.contexts_freed == client_thread_count)
    post_exit(s);
}

// Check received bytes against the stream every client sends.
void account(server& s, socket_context& c, const char* data, std::size_t size)
{
  const std::string& expected = expected_stream();
  if (c.bytes_received + size > expected.size() ||
      expected.compare(c.bytes_received, size, data, size) != 0)
    c.content_ok = false;
  c.bytes_received += size;
  s.bytes_received += size;
}

// A packet for the listener: accept one connection, register it, re-arm the listener.
// (Accepting on notification throttles acceptance; high-rate servers use AcceptEx on
// Windows. One accept per packet is plenty here: level triggering reports the listener
// again at once while more connections wait.)
void on_listener(server& s, std::vector<an::registration>& pending)
{
  error_code ec;
  example::socket_handle accepted = example::accept_connection(s.listener.socket.get(), ec);
  if (!ec)
    ec = example::set_non_blocking(accepted.get()); // a read must never block a server thread
  if (!ec)
  {
    auto* c = new socket_context{socket_kind::connection, std::move(accepted)};
    ++s.contexts_allocated;
    ++s.connections_accepted;
    pending.push_back(enable_entry(*c));
  }
  else if (!example::would_block(ec)) // would-block: the client gave up meanwhile; harmless
    s.check.check_ok(ec, "accept");
  pending.push_back(enable_entry(s.listener));
}

// A packet for a connection. Whatever it reports (in, hangup, error), one receive says
// what to do next: data means re-arm; the end of the stream or an error means remove.
void on_connection(server& s, socket_context* c, an::events events,
                   std::vector<an::registration>& pending)
{
  if (has_any(events, an::events::remove))
  {
    free_connection(s, c);
    return;
  }
  char chunk[512];
  error_code ec;
  const std::size_t n = example::receive(c->socket.get(), chunk, sizeof(chunk), ec);
  if (example::would_block(ec))
    pending.push_back(enable_entry(*c)); // nothing to read after all
  else if (ec)
  {
    s.check.check_ok(ec, "receive");
    pending.push_back(remove_entry(*c));
  }
  else if (n == 0)
    pending.push_back(remove_entry(*c)); // the client hung up and everything it sent has been read
  else
  {
    account(s, *c, chunk, n);
    pending.push_back(enable_entry(*c)); // one chunk per packet; level triggering reports the rest
  }
}

// Each entry of a batch has its own result. A failed entry leaves its socket with no enabled
// registration (one-shot: it was disabled when its packet was dequeued), so this thread
// still owns the context and must clean it up.
void handle_failed_registrations(server& s, std::vector<an::registration>& applied)
{
  for (an::registration& r : applied)
  {
    if (!r.result)
      continue;
    ++s.registration_failures;
    s.check.check_ok(r.result, "registration entry");
    auto* c = static_cast<socket_context*>(r.key);
    if (c->kind == socket_kind::listener)
    {
      post_exit(s); // no more connections can be accepted: stop the server
      continue;
    }
    // Try to remove it properly; its REMOVE packet will free it. If even that fails no
    // REMOVE packet will come, so free it now.
    an::registration rm = remove_entry(*c);
    if (r.operation == an::operation::remove || s.port.apply(rm))
      free_connection(s, c);
  }
}

// What one server thread did; printed at the end to show the work was shared and batched.
struct thread_statistics
{
  int packets = 0;        // packets dequeued
  int rounds = 0;         // process() calls that returned packets
  int batched_rounds = 0; // ... of which returned more than one
};

// One server thread: apply pending registrations and dequeue, handle the batch, repeat.
void serve(server& s, thread_statistics& stats)
{
  std::vector<an::registration> pending; // re-arms and removals for the next process() call
  pending.reserve(2 * packets_per_dequeue);
  std::array<an::packet, packets_per_dequeue> packets;
  bool exit_requested = false;

  while (!exit_requested)
  {
    error_code ec;
    const std::size_t n = s.port.process(pending, packets, watchdog, ec);
    if (ec)
    {
      s.check.check_ok(ec, "process");
      break;
    }
    handle_failed_registrations(s, pending);
    pending.clear();
    if (n == 0)
    {
      s.check.check(false, "a packet within the watchdog time");
      break;
    }
    stats.packets += static_cast<int>(n);
    ++stats.rounds;
    stats.batched_rounds += n > 1 ? 1 : 0;

    // Handle the whole batch, even after an exit packet: these packets are ours now.
    for (std::size_t i = 0; i < n; ++i)
    {
      const an::packet& p = packets[i];
      if (p.kind == an::packet_kind::user)
      {
        exit_requested = exit_requested || p.key == exit_key;
        continue;
      }
      auto* c = static_cast<socket_context*>(p.key);
      if (c->kind == socket_kind::listener)
        on_listener(s, pending);
      else
        on_connection(s, c, p.events, pending);
    }
  }

  // Apply what the last batch produced, then pass the exit on to the next thread.
  if (!pending.empty())
  {
    error_code ec;
    s.port.apply(pending, ec);
    s.check.check_ok(ec, "apply the last registrations");
    handle_failed_registrations(s, pending);
  }
  post_exit(s);
}

std::string describe(const std::vector<thread_statistics>& stats)
{
  std::string packets;
  int rounds = 0;
  int batched = 0;
  for (const thread_statistics& t : stats)
  {
    packets += (packets.empty() ? "" : "/") + std::to_string(t.packets);
    rounds += t.rounds;
    batched += t.batched_rounds;
  }
  return "packets per server thread " + packets + ", " + std::to_string(batched) + " of " +
         std::to_string(rounds) + " dequeues returned several packets";
}

// ---- setting up ----------------------------------------------------------------------------------

// A non-blocking listener on a loopback port the system chooses.
example::socket_handle open_listener(std::uint16_t& port_number, error_code& ec)
{
  example::socket_handle l = example::open_socket(SOCK_STREAM, ec);
  if (!ec)
    port_number = example::bind_loopback(l.get(), ec);
  if (!ec)
    ec = example::listen_on(l.get(), listen_backlog);
  if (!ec)
    ec = example::set_non_blocking(l.get()); // a spurious packet must not block in accept
  return l;
}

} // namespace

int main()
{
  example::socket_library sockets;
  example::checker check("threaded_tcp_server");
  an::port port;

  error_code ec;
  std::uint16_t port_number = 0;
  socket_context listener{socket_kind::listener, open_listener(port_number, ec)};
  if (!check.check_ok(ec, "open the listener"))
    return check.summary();

  server s{port, listener, check};
  an::registration r = enable_entry(listener);
  if (!check.check_ok(port.apply(r), "register the listener"))
    return check.summary();

  // Several threads dequeue from the one port.
  std::vector<thread_statistics> stats(server_thread_count);
  std::vector<std::thread> server_threads;
  for (thread_statistics& t : stats)
    server_threads.emplace_back(serve, std::ref(s), std::ref(t));

  // Far more client threads than cores: they all connect at about the same time.
  std::vector<error_code> client_results(client_thread_count);
  std::vector<std::thread> client_threads;
  for (error_code& result : client_results)
    client_threads.emplace_back(run_client, port_number, std::ref(result));
  int client_failures = 0;
  for (std::size_t i = 0; i < client_threads.size(); ++i)
  {
    client_threads[i].join();
    if (client_results[i])
    {
      ++client_failures;
      check.check_ok(client_results[i], "client " + std::to_string(i));
    }
  }
  // A client that never connected leaves the server waiting for a connection that will
  // not come: stop it now rather than at the watchdog.
  if (client_failures != 0)
    post_exit(s);

  for (std::thread& t : server_threads)
    t.join();

  const int total = client_thread_count;
  const std::uint64_t total_bytes = std::uint64_t(total) * expected_stream().size();
  check.check_equal(client_failures, 0, "client failures");
  check.check_equal(s.connections_accepted.load(), total, "connections accepted");
  check.check_equal(s.contexts_allocated.load(), total, "contexts allocated");
  check.check_equal(s.contexts_freed.load(), s.contexts_allocated.load(),
                    "contexts freed (each after its REMOVE packet)");
  check.check_equal(s.connections_complete.load(), total,
                    "connections that delivered every byte in order");
  check.check_equal(s.bytes_received.load(), total_bytes, "bytes received");
  check.check_equal(s.registration_failures.load(), 0, "failed registration entries");

  // The server threads are gone; the listener's registration is the only one left (and the
  // last exit packet, which the wait drops). Remove it and wait before closing the socket.
  std::size_t dropped = 0;
  check.check_ok(
      example::remove_and_wait(port, listener.socket.get(), &listener, watchdog, dropped),
      "remove the listener and receive its REMOVE packet");
  listener.socket.close();

  check.note(std::to_string(s.connections_accepted.load()) + " connections, " +
             std::to_string(s.bytes_received.load()) + " bytes; " + describe(stats));
  return check.summary();
}
