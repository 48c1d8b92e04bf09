//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// How long the servers here wait for a client before they close its connection.
//
// A server that waits for ever lets every client that connects and then says nothing
// (crashed, unplugged, or on purpose) hold a descriptor for ever: enough of them and the
// server is out of descriptors. So every connection has an idle time-out, and tls_echo's
// handshake has one too. The defaults suit the examples; an environment variable can
// change each, in whole seconds (the smoke tests set them short; see limits.hpp for the
// other limits):
//
//   BOOST_ASIO_NOTIFY_EXAMPLE_IDLE_TIMEOUT       no byte received (or sent) for this long
//                                          (http_server: no next request, no body, or no
//                                          progress of a response for this long)
//   BOOST_ASIO_NOTIFY_EXAMPLE_HANDSHAKE_TIMEOUT  TLS handshake not finished after this long
//   BOOST_ASIO_NOTIFY_EXAMPLE_FIRST_BYTE_TIMEOUT http_server: nothing received on a new
//                                          connection for this long (at most the idle
//                                          time-out)
//   BOOST_ASIO_NOTIFY_EXAMPLE_HEADER_TIMEOUT     http_server: a request's header not complete
//                                          this long after its first byte (at most the
//                                          idle time-out)
//
#ifndef BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_TIMEOUTS_HPP
#define BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_TIMEOUTS_HPP

#include "limits.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>

/// The time-out the environment variable `variable` gives in seconds, or `fallback` where
/// it is not set. A value that is not a positive whole number is reported and ignored.
inline std::chrono::seconds timeout_from_env(char const* variable, std::chrono::seconds fallback)
{
  auto const seconds =
      number_from_env(variable, static_cast<std::uint64_t>(fallback.count()), "seconds");
  // A century: beyond any use, and far short of what a steady_clock time point holds.
  std::uint64_t const longest = 100ull * 365 * 24 * 3600;
  return std::chrono::seconds(static_cast<std::chrono::seconds::rep>(std::min(seconds, longest)));
}

#endif
