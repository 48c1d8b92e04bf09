//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The peers of peers.hpp: their sockets, on a thread or in the `--peer` child, and the
// one-byte commands the parent sends that child through a pipe.
#include "peers.hpp"
#include "child_processes.hpp"
#include "process.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>

#include <algorithm>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

namespace bench {

namespace {

// The far ends of the connections, as plain blocking Asio sockets (this side of the
// benchmark is not measured; it only has to be simple and portable).
class peer_sockets
{
public:
  bool connect(unsigned short port, std::size_t count)
  {
    const boost::asio::ip::tcp::endpoint peer(boost::asio::ip::address_v4::loopback(), port);
    sockets_.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
    {
      boost::system::error_code ec;
      sockets_.emplace_back(ioc_);
      sockets_.back().connect(peer, ec);
      // One-byte writes to the same connection a few milliseconds apart: without no_delay,
      // Nagle would hold one back until the delayed ACK of the previous one.
      if (!ec)
        sockets_.back().set_option(boost::asio::ip::tcp::no_delay(true), ec);
      if (ec)
        return false;
    }
    order_.resize(count);
    std::iota(order_.begin(), order_.end(), std::size_t(0));
    return true;
  }

  bool write_random(std::size_t k, std::uint32_t seed)
  {
    std::mt19937 rng(seed);
    const std::size_t n = order_.size();
    k = std::min(k, n);
    for (std::size_t i = 0; i < k; ++i)
    {
      std::swap(order_[i], order_[i + rng() % (n - i)]); // partial Fisher-Yates: distinct
      const char byte = 'x';
      boost::system::error_code ec;
      boost::asio::write(sockets_[order_[i]], boost::asio::buffer(&byte, 1), ec);
      if (ec)
        return false;
    }
    return true;
  }

private:
  boost::asio::io_context ioc_;
  std::vector<boost::asio::ip::tcp::socket> sockets_;
  std::vector<std::size_t> order_;
};

// Peers on a thread of this process: they connect while the caller accepts.
class thread_peers final : public peer_group
{
public:
  thread_peers(unsigned short port, std::size_t count)
      : thread_([this, port, count] { connected_ = sockets_.connect(port, count); })
  {
  }

  ~thread_peers() override
  {
    if (thread_.joinable())
      thread_.join();
  }

  bool wait_connected() override
  {
    if (thread_.joinable())
      thread_.join();
    return connected_;
  }

  bool write_random(std::size_t k, std::uint32_t seed) override
  {
    return sockets_.write_random(k, seed);
  }

  bool separate_process() const override { return false; }

private:
  peer_sockets sockets_;
  bool connected_ = false;
  std::thread thread_;
};

#if defined(BENCH_HAS_CHILDREN)

// Peers in a child process (`--peer`), commanded through two pipes.
class process_peers final : public peer_group
{
public:
  process_peers(unsigned short port, std::size_t count)
  {
    os::pipe_end command_read = os::no_pipe;
    os::pipe_end reply_write = os::no_pipe;
    if (!os::make_pipe(command_read, command_))
      return;
    if (!os::make_pipe(reply_, reply_write))
    {
      os::close_end(command_read);
      return;
    }
    child_ = os::spawn({program_path(), "--peer", std::to_string(port), std::to_string(count),
                        os::end_argument(command_read), os::end_argument(reply_write)},
                       {command_read, reply_write}, os::no_pipe);
    os::close_end(command_read);
    os::close_end(reply_write);
  }

  ~process_peers() override
  {
    if (command_ != os::no_pipe)
    {
      os::write_full(command_, "q", 1);
      os::close_end(command_);
    }
    os::close_end(reply_);
    if (child_ != os::no_child)
      os::wait_for(child_);
  }

  bool started() const { return child_ != os::no_child; }

  bool wait_connected() override { return expect('c'); }

  bool write_random(std::size_t k, std::uint32_t seed) override
  {
    char message[9] = {'w'};
    const auto k32 = static_cast<std::uint32_t>(k);
    std::copy_n(reinterpret_cast<const char*>(&k32), 4, message + 1);
    std::copy_n(reinterpret_cast<const char*>(&seed), 4, message + 5);
    return os::write_full(command_, message, sizeof(message)) && expect('d');
  }

  bool separate_process() const override { return true; }

private:
  bool expect(char what)
  {
    char c = 0;
    return os::read_full(reply_, &c, 1) && c == what;
  }

  os::child_process child_ = os::no_child;
  os::pipe_end command_ = os::no_pipe;
  os::pipe_end reply_ = os::no_pipe;
};

#endif

} // namespace

std::unique_ptr<peer_group> start_peers(unsigned short port, std::size_t count)
{
#if defined(BENCH_HAS_CHILDREN)
  if (can_spawn_children())
  {
    auto peers = std::make_unique<process_peers>(port, count);
    if (peers->started())
      return peers;
  }
#endif
  return std::make_unique<thread_peers>(port, count);
}

int peer_main(unsigned short port, std::size_t count, const std::string& command_pipe,
              const std::string& reply_pipe)
{
#if defined(BENCH_HAS_CHILDREN)
  const os::pipe_end command = os::end_from_argument(command_pipe);
  const os::pipe_end reply = os::end_from_argument(reply_pipe);
  peer_sockets sockets;
  if (!sockets.connect(port, count) || !os::write_full(reply, "c", 1))
    return 1;
  for (;;)
  {
    char what = 0;
    if (!os::read_full(command, &what, 1) || what == 'q')
      return 0; // end of the parent's pipe: it is gone
    char args[8];
    if (what != 'w' || !os::read_full(command, args, sizeof(args)))
      return 1;
    std::uint32_t k = 0;
    std::uint32_t seed = 0;
    std::copy_n(args, 4, reinterpret_cast<char*>(&k));
    std::copy_n(args + 4, 4, reinterpret_cast<char*>(&seed));
    if (!sockets.write_random(k, seed) || !os::write_full(reply, "d", 1))
      return 1;
  }
#else
  (void)port;
  (void)count;
  (void)command_pipe;
  (void)reply_pipe;
  return 1;
#endif
}

} // namespace bench
