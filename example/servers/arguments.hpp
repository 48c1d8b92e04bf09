//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// Command-line numbers for the examples here, read strictly: "70000", "-1" or "1e3" is an
// error that names the argument, never a port the user did not ask for.
//
#ifndef BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_ARGUMENTS_HPP
#define BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_ARGUMENTS_HPP

#include <cstdint>
#include <stdexcept>
#include <string>

/// The whole number `text` holds, from `least` to `most`; std::invalid_argument naming
/// `what` for anything else (signs, spaces, exponents, trailing characters, overflow).
inline std::uint64_t whole_number_argument(char const* text, char const* what, std::uint64_t least,
                                           std::uint64_t most)
{
  std::uint64_t value = 0;
  bool valid = *text != '\0';
  for (char const* c = text; valid && *c != '\0'; ++c)
  {
    auto const digit = static_cast<std::uint64_t>(*c - '0');
    valid = *c >= '0' && *c <= '9' && value <= most / 10 && value * 10 + digit <= most;
    value = value * 10 + digit;
  }
  if (!valid || value < least)
    throw std::invalid_argument(std::string(what) + " \"" + text + "\": not a whole number from " +
                                std::to_string(least) + " to " + std::to_string(most));
  return value;
}

/// A port argument: 0 (pick a free one) to 65535.
inline unsigned short port_argument(char const* text)
{
  return static_cast<unsigned short>(whole_number_argument(text, "port", 0, 65535));
}

#endif
