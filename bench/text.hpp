//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Lists in one string, as the command line and the child processes' counts write them:
// one idea, splitting and joining.
#ifndef BOOST_ASIO_NOTIFY_BENCH_TEXT_HPP
#define BOOST_ASIO_NOTIFY_BENCH_TEXT_HPP

#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace bench {

/// "a/b/c" -> {"a", "b", "c"}; "" -> {""}.
inline std::vector<std::string> split(const std::string& s, char separator)
{
  std::vector<std::string> fields;
  std::istringstream in(s);
  for (std::string field; std::getline(in, field, separator);)
    fields.push_back(field);
  if (fields.empty() || (!s.empty() && s.back() == separator))
    fields.emplace_back();
  return fields;
}

/// "1, 2, 4" from {1, 2, 4} and ", ".
inline std::string join(const std::vector<std::size_t>& values, const char* separator)
{
  std::string s;
  for (std::size_t v : values)
    s += (s.empty() ? "" : separator) + std::to_string(v);
  return s;
}

} // namespace bench

#endif
