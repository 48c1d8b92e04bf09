//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The WebSocket suite (websocket_support.hpp): the handshake, messages and the closing
// handshake begun by either side, with C++20 coroutines (where the compiler has them).
#include "websocket_support.hpp"

#if defined(BOOST_ASIO_HAS_CO_AWAIT)
BOOST_AUTO_TEST_SUITE(websocket_over_notify)

BOOST_AUTO_TEST_CASE_TEMPLATE(coroutines_client_closes, Kind, all_kinds)
{
  coroutine_session<Kind>(client_role);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(coroutines_server_closes, Kind, all_kinds)
{
  coroutine_session<Kind>(server_role);
}

BOOST_AUTO_TEST_SUITE_END()
#endif
