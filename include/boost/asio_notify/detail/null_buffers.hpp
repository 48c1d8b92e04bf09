//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The one place that names boost::asio::null_buffers, which Boost 1.90 deprecates: the
// deprecation warning is silenced for this name here only, so that including the library
// stays silent while a user's own use of null_buffers warns as it does with Asio's sockets.
#ifndef BOOST_ASIO_NOTIFY_DETAIL_NULL_BUFFERS_HPP
#define BOOST_ASIO_NOTIFY_DETAIL_NULL_BUFFERS_HPP

#include <boost/asio/buffer.hpp>

#include <type_traits>

namespace boost {
namespace asio_notify {
namespace detail {

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#elif defined(_MSC_VER)
#pragma warning(push)
#pragma warning(disable : 4996)
#endif
template <class Buffers>
constexpr bool names_null_buffers = std::is_same_v<Buffers, boost::asio::null_buffers>;
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#elif defined(_MSC_VER)
#pragma warning(pop)
#endif

/// Whether an operation on `Buffers` is a readiness wait (null_buffers). With
/// BOOST_ASIO_NO_DEPRECATED the null_buffers forms are gone, and using one is an error.
template <class Buffers>
constexpr bool is_null_buffers()
{
#if defined(BOOST_ASIO_NO_DEPRECATED)
  static_assert(!names_null_buffers<Buffers>,
                "boost::asio::null_buffers is deprecated and BOOST_ASIO_NO_DEPRECATED is "
                "defined: use the socket's wait() or async_wait() instead");
  return false;
#else
  return names_null_buffers<Buffers>;
#endif
}

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
