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
//   ASIO_NOTIFY_EXAMPLE_WRITE_QUEUE_LIMIT  chat_server: bytes queued for one participant
//
#ifndef BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_LIMITS_HPP
#define BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_LIMITS_HPP

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <string>

/// The positive whole number the environment variable `variable` holds, or `fallback` where
/// it is not set. A value that is not one is reported (`unit` says what it counts) and
/// ignored.
inline std::uint64_t number_from_env(char const* variable, std::uint64_t fallback, char const* unit)
{
#if defined(_MSC_VER)
#pragma warning(suppress : 4996) // getenv: fine here, nothing changes the environment
#endif
    char const* text = std::getenv(variable);
    if(!text)
        return fallback;
    char* end = nullptr;
    // strtoull would take "-1" as the largest number: only digits are a number here.
    unsigned long long const value =
        *text >= '0' && *text <= '9' ? std::strtoull(text, &end, 10) : 0;
    if(end == nullptr || *end != '\0' || value == 0 || value == ~0ull)
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
        : interval_(interval)
        , last_(clock::now() - interval) // the first line is written
    {
    }

    /// Writes `line` and a newline, unless the last line was written less than an interval
    /// ago: then only counts it. Returns whether it was written.
    bool write(std::string const& line)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto const now = clock::now();
        if(now - last_ < interval_)
        {
            ++left_out_;
            return false;
        }
        std::cerr << line;
        if(left_out_ > 0)
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

#endif
