//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Checking that a readiness wait (async_wait, a null_buffers operation) is still waiting,
// on a port that may deliver stale packets: such a wait may complete on a packet queued before
// the socket was emptied, as with Asio's own reactor (doc/port_contract.md, "What the
// adversarial port changes"). What that completion promises is checked instead: it reports
// success and the socket has nothing to read; the wait is then made again.
#ifndef BOOST_ASIO_NOTIFY_TEST_REACTOR_READINESS_HPP
#define BOOST_ASIO_NOTIFY_TEST_REACTOR_READINESS_HPP

#include "helpers.hpp"

#include <boost/asio_notify/adversary.hpp>

namespace test_reactor_readiness {

/// Whether this run's port may deliver stale packets on purpose (BOOST_ASIO_NOTIFY_ADVERSARY).
inline bool port_is_adversarial()
{
#if defined(BOOST_ASIO_NOTIFY_DEFAULT_BACKEND)
  return false; // stock Asio's sockets: no port of ours
#else
  return boost::asio_notify::adversary_from_environment().kinds !=
         boost::asio_notify::adversity::none;
#endif
}

/// Checks that the readiness wait `r` on `socket`, started by `start(r)`, is waiting once
/// `ioc` has nothing else to do. On an adversarial port each early completion must be a
/// stale one (success, nothing to read), after which the wait is started again. Returns the
/// number of stale completions.
template <class Socket, class Start>
int expect_waiting(asio::io_context& ioc, Socket& socket, op_result& r, Start start)
{
  start(r);
  drain(ioc);
  int stale = 0;
  for (; stale < 32 && r.done() && port_is_adversarial(); ++stale)
  {
    CHECK_OK(r.ec);
    BOOST_TEST(socket.available() == 0u);
    r = op_result();
    start(r);
    drain(ioc);
  }
  BOOST_TEST(!r.done());
  return stale;
}

} // namespace test_reactor_readiness

#endif
