//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The far ends of many connections, kept in a child process (`--peer`) where this program
// can start one, so that the process under test holds only its own ends; else on a thread.
#ifndef BOOST_ASIO_NOTIFY_BENCH_PEERS_HPP
#define BOOST_ASIO_NOTIFY_BENCH_PEERS_HPP

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace bench {

/** The far ends of `count` TCP connections to 127.0.0.1:`port`, made with plain blocking
    Boost.Asio sockets: in a child process where possible (so the process under test holds
    only its own ends), otherwise on a thread of this process. */
class peer_group
{
public:
  virtual ~peer_group() = default;

  /// Wait until every connection is made (the caller accepts them meanwhile).
  virtual bool wait_connected() = 0;

  /// Write one byte to each of `k` distinct connections chosen at random from `seed`;
  /// returns when all are written.
  virtual bool write_random(std::size_t k, std::uint32_t seed) = 0;

  /// Whether the peers live in another process.
  virtual bool separate_process() const = 0;
};

/// Start the peers: a child process (`--peer`) where possible, else a thread.
std::unique_ptr<peer_group> start_peers(unsigned short port, std::size_t count);

/// The body of the `--peer <port> <count> <command pipe> <reply pipe>` child; the pipes are
/// named as it inherited them (a descriptor, or a handle's value on Windows).
int peer_main(unsigned short port, std::size_t count, const std::string& command_pipe,
              const std::string& reply_pipe);

} // namespace bench

#endif
