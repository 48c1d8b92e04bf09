//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// Limits that keep what one client costs a server bounded, written once for the examples
// here: numbers read from the environment, and a log that clients cannot flood.
//
// A server that takes whatever clients send, queues whatever they do not read and logs
// every bad request is one slow or hostile client away from running out of memory or
// filling its disk. Each limit has a default that suits the examples and an environment
// variable that changes it, a positive whole number (the smoke tests set them small).
// Time-outs, the other kind of limit, are in timeouts.hpp.
//
//   BOOST_ASIO_NOTIFY_EXAMPLE_WRITE_QUEUE_LIMIT  chat_server: bytes queued for one participant;
//                                          chat_client: bytes of stdin lines queued for the
//                                          server (64 more counted for each line)
//   BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS    http_server, tcp_echo_server, coro_echo_server,
//                                          tls_echo_server, chat_server: connections served
//                                          at once
//   BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS_PER_CLIENT
//                                          the same servers: connections served at once
//                                          from one address
//   BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS_PER_NETWORK
//                                          the same servers: connections served at once
//                                          from one IPv4 /24 or IPv6 /64 (see
//                                          connection_limit.hpp for who gives way)
//   BOOST_ASIO_NOTIFY_EXAMPLE_MAX_DOWNLOAD       curl_multi_client: bytes one download may have
//
#ifndef BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_LIMITS_HPP
#define BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_LIMITS_HPP

#include "connection_limit.hpp"

#include <boost/system/error_code.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <string>
#include <utility>

/// The positive whole number the environment variable `variable` holds, or `fallback` where
/// it is not set. A value that is not one is reported (`unit` says what it counts) and
/// ignored.
inline std::uint64_t number_from_env(char const* variable, std::uint64_t fallback, char const* unit)
{
#if defined(_MSC_VER)
#pragma warning(suppress : 4996) // getenv: fine here, nothing changes the environment
#endif
  char const* text = std::getenv(variable);
  if (!text)
    return fallback;
  char* end = nullptr;
  // strtoull would take "-1" as the largest number: only digits are a number here.
  unsigned long long const value = *text >= '0' && *text <= '9' ? std::strtoull(text, &end, 10) : 0;
  if (end == nullptr || *end != '\0' || value == 0 || value == ~0ull)
  {
    std::cerr << variable << "=" << text << ": not a positive whole number of " << unit
              << ", using " << fallback << "\n";
    return fallback;
  }
  return value;
}

/// Lines for std::cerr, at most one an interval, for what clients can cause as often as
/// they like (bad requests, refused connections): a client must not be able to flood the
/// log. The next line written counts the lines left out meanwhile. Thread-safe.
class rate_limited_log
{
public:
  using clock = std::chrono::steady_clock;

  explicit rate_limited_log(clock::duration interval = std::chrono::seconds(1))
      : interval_(interval), last_(clock::now() - interval) // the first line is written
  {
  }

  /// Writes `line` and a newline, unless the last line was written less than an interval
  /// ago: then only counts it. Returns whether it was written.
  bool write(std::string const& line)
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto const now = clock::now();
    if (now - last_ < interval_)
    {
      ++left_out_;
      return false;
    }
    std::cerr << line;
    if (left_out_ > 0)
      std::cerr << " [" << left_out_ << " more line(s) not logged]";
    std::cerr << "\n";
    last_ = now;
    left_out_ = 0;
    return true;
  }

private:
  std::mutex mutex_;
  clock::duration const interval_;
  clock::time_point last_;
  unsigned long left_out_ = 0;
};

// What a queued line (chat_server's for a participant, chat_client's for the server) costs
// beyond its bytes: its std::string in the deque (32 bytes in
// libstdc++ and MSVC's x64 library, 24 in libc++) and, for a line too long for the
// string's inline buffer, the heap block's header and rounding (up to 32 bytes). Counting
// bytes only, a flood of empty lines would queue some 32 times the limit.
inline constexpr std::uint64_t line_overhead = 64;

inline std::uint64_t queued_cost(std::string const& line) { return line.size() + line_overhead; }

/// A connection_limit (see connection_limit.hpp) of BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS
/// connections (`fallback` unless set), BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS_PER_CLIENT of
/// them from one address (a quarter of `fallback` unless set: a browser's six and a few
/// clients behind one NAT) and BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS_PER_NETWORK from one
/// network (half the total unless set, never fewer than an address may have), that logs
/// what it does, at most a line a second: what every TCP server here needs of one.
/// Thread-safe.
class logged_connection_limit
{
public:
  /// `name` starts every line logged, e.g. "accept".
  explicit logged_connection_limit(std::string name, std::uint64_t fallback = 512)
      : logged_connection_limit(
            std::move(name),
            number_from_env("BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS", fallback, "connections"),
            number_from_env("BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS_PER_CLIENT",
                            std::max<std::uint64_t>(1, fallback / 4), "connections"))
  {
  }

  /// A slot for the connection `socket` just accepted, or an empty one (and a line in the
  /// log): then the caller closes the connection. Where another connection gave way for
  /// it, that one is closed on its own executor (see connection_limit::slot::on_give_way).
  template <class Socket>
  connection_limit::slot try_take(Socket const& socket)
  {
    boost::system::error_code ec;
    auto const peer = socket.remote_endpoint(ec);
    if (ec)
      return {}; // gone already
    auto client = client_of(peer.address());
    auto const address = client.address;
    auto const network = client.network;
    using reason = connection_limit::reason;
    auto why = reason::none;
    auto slot = limit_.try_take(std::move(client), why);
    if (why == reason::address)
      log_.write(name_ + ": " + std::to_string(limit_.most_per_address()) +
                 " connections open from " + address +
                 " (BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS_PER_CLIENT), refused one");
    else if (why == reason::network)
      log_.write(name_ + ": " + std::to_string(limit_.most_per_network()) +
                 " connections open from " + network +
                 " (BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS_PER_NETWORK): the one idle longest"
                 " gave way to " +
                 address);
    else if (why == reason::total)
      log_.write(name_ + ": " + std::to_string(limit_.most()) +
                 " connections open (BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS): the one idle"
                 " longest gave way to " +
                 address);
    else if (why == reason::full)
      log_.write(name_ + ": " + std::to_string(limit_.most()) +
                 " connections open, none yet able to give way: refused one");
    return slot;
  }

private:
  logged_connection_limit(std::string name, std::uint64_t most, std::uint64_t per_address)
      : limit_(most, per_address,
               number_from_env("BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS_PER_NETWORK",
                               std::max(per_address, most / 2), "connections")),
        name_(std::move(name))
  {
  }

  connection_limit limit_;
  std::string const name_;
  rate_limited_log log_;
};

#endif
