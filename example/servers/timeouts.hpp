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
// change each, in whole seconds (the smoke tests set them short):
//
//   ASIO_NOTIFY_EXAMPLE_IDLE_TIMEOUT       no byte received (or sent) for this long
//   ASIO_NOTIFY_EXAMPLE_HANDSHAKE_TIMEOUT  TLS handshake not finished after this long
//
#ifndef BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_TIMEOUTS_HPP
#define BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_TIMEOUTS_HPP

#include <chrono>
#include <cstdlib>
#include <iostream>

/// The time-out the environment variable `variable` gives in seconds, or `fallback` where
/// it is not set. A value that is not a positive whole number is reported and ignored.
inline std::chrono::seconds timeout_from_env(char const* variable, std::chrono::seconds fallback)
{
#if defined(_MSC_VER)
#pragma warning(suppress : 4996) // getenv: fine here, nothing changes the environment
#endif
    char const* text = std::getenv(variable);
    if(!text)
        return fallback;
    char* end = nullptr;
    long const seconds = std::strtol(text, &end, 10);
    if(end == text || *end != '\0' || seconds <= 0)
    {
        std::cerr << variable << "=" << text << ": not a positive number of seconds, using "
                  << fallback.count() << "\n";
        return fallback;
    }
    return std::chrono::seconds(seconds);
}

#endif
