//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// How beast::basic_stream reaches a RatePolicy's private members (doc/beast.md).
#ifndef BOOST_ASIO_NOTIFY_BEAST_DETAIL_RATE_POLICY_HPP
#define BOOST_ASIO_NOTIFY_BEAST_DETAIL_RATE_POLICY_HPP

#include <boost/beast/core/basic_stream.hpp>
#include <boost/beast/core/rate_policy.hpp>

#include <cstddef>

namespace boost {
namespace asio_notify {
namespace detail {

// The tag of the basic_stream specialisation below.
struct rate_policy_passkey;

} // namespace detail
} // namespace asio_notify

namespace beast {

// A RatePolicy's members are private to Beast's rate_policy_access, which opens them only
// to the specialisations of beast::basic_stream. This specialisation, for the library's
// private tag, is how the notify stream reaches them: Beast's public class templates are
// the only API used, so user-written rate policies work unchanged.
template <>
class basic_stream<asio_notify::detail::rate_policy_passkey, void, void>
{
public:
  template <class Policy>
  static std::size_t available_bytes(Policy& policy, bool reading)
  {
    return reading ? rate_policy_access::available_read_bytes(policy)
                   : rate_policy_access::available_write_bytes(policy);
  }

  template <class Policy>
  static void transfer_bytes(Policy& policy, bool reading, std::size_t bytes)
  {
    if (reading)
      rate_policy_access::transfer_read_bytes(policy, bytes);
    else
      rate_policy_access::transfer_write_bytes(policy, bytes);
  }

  template <class Policy>
  static void on_timer(Policy& policy)
  {
    rate_policy_access::on_timer(policy);
  }
};

} // namespace beast

namespace asio_notify {
namespace detail {

using rate_policy = boost::beast::basic_stream<rate_policy_passkey, void, void>;

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
