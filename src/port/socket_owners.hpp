//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Rule 1, a socket belongs to one port: the process-wide table of which port registered
// each socket, for the ports that emulate the contract (epoll on Linux, AFD on Windows).
// See doc/port_contract.md, "Rule 1".
#ifndef BOOST_ASIO_NOTIFY_SRC_PORT_SOCKET_OWNERS_HPP
#define BOOST_ASIO_NOTIFY_SRC_PORT_SOCKET_OWNERS_HPP

#include <boost/asio/error.hpp>
#include <boost/system/error_code.hpp>

#include <mutex>
#include <unordered_map>

namespace boost {
namespace asio_notify {
namespace detail {

/// A table keyed by any handle value, with fd_table's interface: the owner table's storage
/// where handle values are not small dense integers (Windows SOCKETs).
template <class Handle, class T>
class hashed_table
{
public:
  T* find(Handle h) noexcept
  {
    const auto it = items_.find(h);
    return it == items_.end() ? nullptr : &it->second;
  }

  T& slot(Handle h) { return items_[h]; }

  void erase(Handle h) noexcept { items_.erase(h); }

private:
  std::unordered_map<Handle, T> items_;
};

/** Which port owns each registered socket. Keyed by the handle value the port registers;
    `Identity` (the socket's file identity) tells a live owner from a stale claim left by a
    socket closed without `remove` whose handle value now names another socket, so such a
    claim is taken over. `Table<entry>` stores the claims (fd_table, hashed_table).

    A port locks it after its own mutex, never before. */
template <class Handle, class Identity, template <class> class Table>
class socket_owners
{
public:
  /// Claims `h`, the socket `id` names, for `owner`; `already_open` while another port
  /// holds the same socket.
  boost::system::error_code claim(Handle h, const Identity& id, const void* owner)
  {
    std::lock_guard<std::mutex> lock(mutex_);
    entry* e = table_.find(h);
    if (e && e->owner != owner && e->id == id)
      return boost::asio::error::already_open;
    table_.slot(h) = entry{id, owner}; // new, or over a stale claim
    return {};
  }

  /// Gives up `owner`'s claim of `h`, if it holds one.
  void release(Handle h, const void* owner)
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const entry* e = table_.find(h);
    if (e && e->owner == owner)
      table_.erase(h);
  }

  /// Whether `h` is claimed by `owner` for the socket `id` names.
  bool owns(Handle h, const void* owner, const Identity& id)
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const entry* e = table_.find(h);
    return e && e->owner == owner && e->id == id;
  }

  /// The process's table. Never destroyed: a port, and sockets registered with it, may
  /// outlive the statics (an io_context with a global's lifetime closes its sockets after
  /// main returns).
  static socket_owners& instance()
  {
    static socket_owners* owners = new socket_owners;
    return *owners;
  }

private:
  struct entry
  {
    Identity id{};
    const void* owner = nullptr; // null: unclaimed

    bool used() const noexcept { return owner != nullptr; }
  };

  std::mutex mutex_;
  Table<entry> table_;
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
