//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The protocol a closed socket object holds before it is opened. IP protocols have no
// default constructor (only v4() and v6()); UNIX domain protocols have nothing but one.
#ifndef BOOST_ASIO_NOTIFY_DETAIL_DEFAULT_PROTOCOL_HPP
#define BOOST_ASIO_NOTIFY_DETAIL_DEFAULT_PROTOCOL_HPP

#include <type_traits>

namespace boost {
namespace asio_notify {
namespace detail {

template <class Protocol, class = void>
struct default_protocol_of
{
  static Protocol get() { return Protocol(); }
};

template <class Protocol>
struct default_protocol_of<Protocol, std::void_t<decltype(Protocol::v4())>>
{
  static Protocol get() { return Protocol::v4(); }
};

/// `Protocol::v4()` where the protocol has it, else `Protocol()`.
template <class Protocol>
Protocol default_protocol()
{
  return default_protocol_of<Protocol>::get();
}

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
