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
//   BOOST_ASIO_NOTIFY_EXAMPLE_WRITE_QUEUE_LIMIT  chat_server: bytes queued for one participant
//                                          (64 more counted for each line)
//   BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS    http_server, tcp_echo_server, coro_echo_server,
//                                          tls_echo_server, chat_server: connections served
//                                          at once
//   BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS_PER_CLIENT
//                                          the same servers: connections served at once
//                                          from one address
//   BOOST_ASIO_NOTIFY_EXAMPLE_MAX_DOWNLOAD       curl_multi_client: bytes one download may have
//
#ifndef BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_LIMITS_HPP
#define BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_LIMITS_HPP

#include <boost/system/error_code.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
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

/// A place for one connection under a limit, given back when destroyed; empty (false)
/// where the limit refused one. Move-only; a moved-from slot is empty.
class limit_slot
{
public:
  limit_slot() = default;
  explicit limit_slot(std::function<void()> give_back) : give_back_(std::move(give_back)) {}
  limit_slot(limit_slot&& other) noexcept : give_back_(std::exchange(other.give_back_, nullptr)) {}
  limit_slot& operator=(limit_slot&&) = delete;
  ~limit_slot()
  {
    if (give_back_)
      give_back_();
  }
  explicit operator bool() const { return give_back_ != nullptr; }

private:
  std::function<void()> give_back_;
};

/// How many connections a server serves at once, in all and from one client (one remote
/// address). Each connection holds a `slot` for as long as it lives; past a limit there is
/// no slot, and the server closes the new connection at once rather than let clients open
/// descriptors (and buffers) without end, or let one client that opens connections and
/// says nothing take every place and lock the others out until its connections time out.
/// Thread-safe; slots may outlive the connection_limit (sessions destroyed by the
/// io_context's destructor, after the listener that owned it).
class connection_limit
{
  struct counts
  {
    std::mutex mutex;
    std::uint64_t open = 0;
    std::unordered_map<std::string, std::uint64_t> per_client; // only clients with some
  };

public:
  using slot = limit_slot;

  /// Which limit refused a connection.
  enum class refusal
  {
    none,
    total,
    client
  };

  connection_limit(std::uint64_t most, std::uint64_t most_per_client)
      : most_(most), most_per_client_(most_per_client)
  {
  }

  std::uint64_t most() const { return most_; }
  std::uint64_t most_per_client() const { return most_per_client_; }

  /// A slot if fewer than most() connections, and fewer than most_per_client() of
  /// `client`'s, hold one; else an empty one, and `why`.
  slot try_take(std::string const& client, refusal& why)
  {
    std::lock_guard<std::mutex> lock(counts_->mutex);
    auto& mine = counts_->per_client[client];
    why = counts_->open >= most_     ? refusal::total
          : mine >= most_per_client_ ? refusal::client
                                     : refusal::none;
    if (why != refusal::none)
    {
      if (mine == 0)
        counts_->per_client.erase(client);
      return {};
    }
    ++counts_->open;
    ++mine;
    return slot([counts = counts_, client] {
      std::lock_guard<std::mutex> give_back_lock(counts->mutex);
      --counts->open;
      auto const it = counts->per_client.find(client);
      if (--it->second == 0)
        counts->per_client.erase(it);
    });
  }

private:
  std::uint64_t const most_;
  std::uint64_t const most_per_client_;
  std::shared_ptr<counts> counts_ = std::make_shared<counts>();
};

/// A connection_limit of BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS connections (`fallback` unless
/// set), BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS_PER_CLIENT of them from one client (a quarter
/// of `fallback` unless set: a browser's six and a few clients behind one NAT), that logs
/// the connections it refuses, at most a line a second: what every TCP server here needs
/// of one. Thread-safe.
class logged_connection_limit
{
public:
  /// `name` starts every line logged, e.g. "accept".
  explicit logged_connection_limit(std::string name, std::uint64_t fallback = 512)
      : limit_(
            number_from_env("BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS", fallback, "connections"),
            number_from_env("BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS_PER_CLIENT",
                            std::max<std::uint64_t>(1, fallback / 4), "connections")),
        name_(std::move(name))
  {
  }

  /// A slot for the connection `socket` just accepted, or an empty one (and a line in the
  /// log where a limit refused it): then the caller closes the connection.
  template <class Socket>
  connection_limit::slot try_take(Socket const& socket)
  {
    boost::system::error_code ec;
    auto const peer = socket.remote_endpoint(ec);
    if (ec)
      return {}; // gone already
    auto const client = peer.address().to_string();
    auto why = connection_limit::refusal::none;
    auto slot = limit_.try_take(client, why);
    if (why == connection_limit::refusal::total)
      log_.write(name_ + ": " + std::to_string(limit_.most()) +
                 " connections open (BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS), refused one");
    else if (why == connection_limit::refusal::client)
      log_.write(name_ + ": " + std::to_string(limit_.most_per_client()) +
                 " connections open from " + client +
                 " (BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS_PER_CLIENT), refused one");
    return slot;
  }

private:
  connection_limit limit_;
  std::string const name_;
  rate_limited_log log_;
};

#endif
