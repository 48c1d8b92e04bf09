//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// How many connections a TCP server here serves at once, and who gives way when it is full:
// the rule that keeps a few clients from locking out the rest.
//
// A limit by address alone falls to a client with a few addresses (a /24 of IPv4, or the
// 2^64 addresses of one IPv6 /64): 4 addresses x a quarter of the places fill the server.
// So connections are counted three ways:
//
//   per address   at most most_per_address(); beyond, the new connection is refused
//   per network   (IPv4 /24, IPv6 /64) at most most_per_network(); beyond, the connection
//                 of that network idle longest gives way to the new one
//   in all        at most most(); beyond, the connection idle longest gives way
//
// "Idle longest" is the connection whose last progress (slot::touch: bytes received, a
// request read, a response written, as each server counts it) is oldest. A client that
// holds connections without using them loses them to newcomers, whatever its addresses;
// to keep a place it has to use it, and the servers' time-outs bound how long a connection
// may take for a request or a handshake. An IPv4-mapped IPv6 address (a v4 client on a
// dual-stack listener) counts as its IPv4 address.
//
#ifndef BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_CONNECTION_LIMIT_HPP
#define BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_CONNECTION_LIMIT_HPP

#include <boost/asio/ip/address.hpp>
#include <boost/asio/post.hpp>
#include <boost/system/error_code.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

/// Who a connection comes from, for the limits.
struct client_key
{
  std::string address; // IPv4-mapped addresses as IPv4
  std::string network; // "a.b.c.0/24", or the /64 of an IPv6 address
};

inline client_key client_of(boost::asio::ip::address address)
{
  namespace ip = boost::asio::ip;
  if (address.is_v6() && address.to_v6().is_v4_mapped())
    address = ip::make_address_v4(ip::v4_mapped, address.to_v6());
  if (address.is_v4())
  {
    auto bytes = address.to_v4().to_bytes();
    bytes[3] = 0;
    return {address.to_string(), ip::address_v4(bytes).to_string() + "/24"};
  }
  auto bytes = address.to_v6().to_bytes();
  std::fill(bytes.begin() + 8, bytes.end(), static_cast<unsigned char>(0));
  return {address.to_string(), ip::address_v6(bytes).to_string() + "/64"};
}

/// The limits above. Thread-safe; slots may outlive the connection_limit (sessions
/// destroyed by the io_context's destructor, after the listener that owned it).
class connection_limit
{
  struct entry
  {
    client_key client;
    std::function<void()> give_way;      // empty until the session says how
    std::list<entry*>::iterator place{}; // in state::idle_order
    bool gone = false;                   // has given way: no longer counted
  };

  struct state
  {
    std::mutex mutex;
    std::list<entry*> idle_order; // every counted connection, the one idle longest first
    std::unordered_map<std::string, std::uint64_t> per_address, per_network; // only non-zero

    void count(client_key const& client, bool up)
    {
      auto change = [up](std::unordered_map<std::string, std::uint64_t>& map,
                         std::string const& key) {
        auto& n = map[key];
        if ((up ? ++n : --n) == 0)
          map.erase(key);
      };
      change(per_address, client.address);
      change(per_network, client.network);
    }

    std::uint64_t of(std::unordered_map<std::string, std::uint64_t> const& map,
                     std::string const& key) const
    {
      auto const it = map.find(key);
      return it == map.end() ? 0 : it->second;
    }

    // No longer counted; returns how to close it. Under the lock.
    std::function<void()> leave(entry& e)
    {
      e.gone = true;
      idle_order.erase(e.place);
      count(e.client, false);
      return std::move(e.give_way);
    }
  };

public:
  /// A connection's place under the limits, given back when destroyed; empty (false)
  /// where the limits refused one. Move-only.
  class slot
  {
  public:
    slot() = default;
    slot(slot&&) noexcept = default;
    slot& operator=(slot&&) = delete;
    ~slot()
    {
      if (!entry_)
        return;
      std::lock_guard<std::mutex> lock(state_->mutex);
      if (!entry_->gone)
        state_->leave(*entry_);
    }
    explicit operator bool() const { return entry_ != nullptr; }

    /// The connection has made progress: it is now the one idle for the shortest time.
    void touch()
    {
      std::lock_guard<std::mutex> lock(state_->mutex);
      if (!entry_->gone)
        state_->idle_order.splice(state_->idle_order.end(), state_->idle_order, entry_->place);
    }

    /// When the connection must give way, `close` runs on `executor`: it closes the
    /// connection (if still there). Until this is called, it never has to.
    template <class Executor, class Close>
    void on_give_way(Executor const& executor, Close close)
    {
      std::lock_guard<std::mutex> lock(state_->mutex);
      entry_->give_way = [executor, close = std::move(close)] {
        boost::asio::post(executor, close);
      };
    }

  private:
    friend class connection_limit;
    std::shared_ptr<state> state_;
    std::unique_ptr<entry> entry_;
  };

  /// Which limit refused a connection, or made another give way for it.
  enum class reason
  {
    none,
    address, // refused
    network, // the network's connection idle longest gave way
    total,   // the connection idle longest gave way
    full     // refused: no connection could give way
  };

  connection_limit(std::uint64_t most, std::uint64_t most_per_address,
                   std::uint64_t most_per_network)
      : most_(most), most_per_address_(most_per_address), most_per_network_(most_per_network)
  {
  }

  std::uint64_t most() const { return most_; }
  std::uint64_t most_per_address() const { return most_per_address_; }
  std::uint64_t most_per_network() const { return most_per_network_; }

  /// A slot for a connection from `client`, or an empty one; `why` says which limit acted.
  slot try_take(client_key client, reason& why)
  {
    std::function<void()> close_other;
    slot taken;
    {
      std::lock_guard<std::mutex> lock(state_->mutex);
      auto& s = *state_;
      bool const network_full = s.of(s.per_network, client.network) >= most_per_network_;
      why = s.of(s.per_address, client.address) >= most_per_address_ ? reason::address
            : network_full                                           ? reason::network
            : s.idle_order.size() >= most_                           ? reason::total
                                                                     : reason::none;
      if (why == reason::address)
        return {};
      if (why != reason::none)
      {
        auto const other = std::find_if(s.idle_order.begin(), s.idle_order.end(), [&](entry* e) {
          return e->give_way && (!network_full || e->client.network == client.network);
        });
        if (other == s.idle_order.end())
        {
          why = reason::full;
          return {};
        }
        close_other = s.leave(**other);
      }
      taken.state_ = state_;
      taken.entry_.reset(new entry{std::move(client), {}, {}, false});
      taken.entry_->place = s.idle_order.insert(s.idle_order.end(), taken.entry_.get());
      s.count(taken.entry_->client, true);
    }
    if (close_other)
      close_other();
    return taken;
  }

private:
  std::uint64_t const most_;
  std::uint64_t const most_per_address_;
  std::uint64_t const most_per_network_;
  std::shared_ptr<state> state_ = std::make_shared<state>();
};

/// Has `slot` close `socket`, a member of `session`, when it must give way: on the socket's
/// executor, and only while the session lives (`session` may be any object that lives as
/// long as the socket).
template <class Session, class Socket>
void close_on_give_way(connection_limit::slot& slot, std::shared_ptr<Session> const& session,
                       Socket& socket)
{
  slot.on_give_way(socket.get_executor(), [weak = std::weak_ptr<Session>(session), &socket] {
    if (auto const alive = weak.lock())
    {
      boost::system::error_code ignored;
      socket.close(ignored); // its pending operations end with operation_aborted
    }
  });
}

#endif
