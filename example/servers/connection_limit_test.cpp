//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// The rule of connection_limit.hpp on its own, where a smoke test cannot reach: IPv6 /64
// keying (a test machine has one IPv6 loopback address, ::1) and the exact order in which
// connections give way. Exits 0 when every check holds.
//

#include "connection_limit.hpp"

#include <boost/asio/io_context.hpp>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace ip = boost::asio::ip;

int failures = 0;

void check(bool ok, std::string const& what)
{
  if (!ok)
  {
    std::cerr << "FAILED: " << what << "\n";
    ++failures;
  }
}

client_key key(char const* address) { return client_of(ip::make_address(address)); }

void keys()
{
  check(key("192.0.2.7").address == "192.0.2.7", "IPv4 address");
  check(key("192.0.2.7").network == "192.0.2.0/24", "IPv4 /24");
  check(key("::ffff:192.0.2.7").address == "192.0.2.7", "IPv4-mapped address as IPv4");
  check(key("::ffff:192.0.2.7").network == "192.0.2.0/24", "IPv4-mapped address in its /24");
  check(key("::ffff:192.0.3.7").network != key("::ffff:192.0.2.7").network,
        "IPv4-mapped addresses of two /24s: two networks");
  check(key("2001:db8:1:2:3:4:5:6").network == "2001:db8:1:2::/64", "IPv6 /64");
  check(key("2001:db8:1:2:ffff::1").network == key("2001:db8:1:2::9").network,
        "two addresses of one /64: one network");
  check(key("2001:db8:1:2:ffff::1").address != key("2001:db8:1:2::9").address,
        "two addresses of one /64: two addresses");
  check(key("2001:db8:1:3::1").network != key("2001:db8:1:2::1").network, "two /64s: two networks");
  check(key("::1").address != key("127.0.0.1").address, "::1 and 127.0.0.1: two addresses");
  check(key("::1").network != key("127.0.0.1").network, "::1 and 127.0.0.1: two networks");
}

// Slots that record, in `closed`, which of them was made to give way.
struct harness
{
  boost::asio::io_context ioc;
  std::vector<std::string> closed;
  connection_limit limit;
  connection_limit::reason why = connection_limit::reason::none;

  harness(std::uint64_t most, std::uint64_t per_address, std::uint64_t per_network)
      : limit(most, per_address, per_network)
  {
  }

  connection_limit::slot take(char const* address, std::string name)
  {
    auto slot = limit.try_take(key(address), why);
    if (slot)
      slot.on_give_way(ioc.get_executor(), [this, name] { closed.push_back(name); });
    return slot;
  }

  std::string gave_way()
  {
    ioc.restart();
    ioc.poll();
    std::string names;
    for (auto const& n : closed)
      names += (names.empty() ? "" : ",") + n;
    closed.clear();
    return names;
  }
};

void idle_order()
{
  using reason = connection_limit::reason;
  harness h(3, 2, 2);
  auto s1 = h.take("10.0.0.1", "s1");
  auto s2 = h.take("10.0.0.2", "s2");
  s1.touch(); // s2 is now the network's connection idle longest
  auto s3 = h.take("10.0.0.3", "s3");
  check(s3 && h.why == reason::network && h.gave_way() == "s2",
        "a full network: its connection idle longest gives way");
  auto s4 = h.take("10.0.1.1", "s4"); // the server is full: s1, s3, s4
  check(s4 && h.why == reason::none && h.gave_way().empty(), "another network takes a place");
  auto s5 = h.take("10.0.2.1", "s5");
  check(s5 && h.why == reason::total && h.gave_way() == "s1",
        "a full server: the connection idle longest gives way, whatever its network");
  auto s6 = h.take("10.0.2.1", "s6");
  check(s6 && h.gave_way() == "s3", "the next newcomer: the next idle longest");
  auto s7 = h.take("10.0.2.1", "s7");
  check(!s7 && h.why == reason::address && h.gave_way().empty(),
        "an address at its limit is refused, nobody gives way");

  harness silent(1, 1, 1);
  connection_limit::slot t1 = silent.limit.try_take(key("10.0.0.1"), silent.why);
  auto t2 = silent.take("10.0.1.1", "t2");
  check(t1 && !t2 && silent.why == reason::full, "a slot that cannot close never gives way");
  {
    connection_limit::slot gone = std::move(t1);
  }
  auto t3 = silent.take("10.0.1.1", "t3");
  check(t3 && silent.why == reason::none, "a slot destroyed gives its place back");
}

int main()
{
  keys();
  idle_order();
  if (failures)
    return EXIT_FAILURE;
  std::cout << "connection_limit: every check holds\n";
  return EXIT_SUCCESS;
}
