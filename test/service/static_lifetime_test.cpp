//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// An io_context and sockets with static storage duration, registered with the port and
// still open (one with an operation pending) when main returns: they are destroyed after
// every static the library creates on first use, and must not reach one that is gone.
// A plain program: its exit status is the result (a use after free fails it under the
// sanitizers, which CI runs it with).

#include <boost/asio_notify.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/write.hpp>

#include <iostream>
#include <optional>

namespace asio = boost::asio;
using tcp = boost::asio_notify::ip::tcp;

// Constructed before main, so destroyed after everything main's calls construct.
asio::io_context ioc;
std::optional<tcp::acceptor> acceptor;
std::optional<tcp::socket> registered, pending, peer_a, peer_b;

int main()
{
  acceptor.emplace(ioc, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
  registered.emplace(ioc);
  pending.emplace(ioc);
  peer_a.emplace(ioc);
  peer_b.emplace(ioc);
  registered->connect(acceptor->local_endpoint());
  acceptor->accept(*peer_a);
  pending->connect(acceptor->local_endpoint());
  acceptor->accept(*peer_b);

  bool readable = false;
  registered->async_wait(tcp::socket::wait_read,
                         [&](boost::system::error_code ec) { readable = !ec; });
  asio::write(*peer_a, asio::buffer("x", 1));
  ioc.run(); // the wait completes: `registered` is registered with the port
  if (!readable)
  {
    std::cerr << "static_lifetime_test: the wait did not complete\n";
    return 1;
  }
  // Left pending: destroyed with the context, after main.
  pending->async_wait(tcp::socket::wait_read, [](boost::system::error_code) {});
  return 0;
}
