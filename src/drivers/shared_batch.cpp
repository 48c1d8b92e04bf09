//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The drivers' instantiations of shared_batch.hpp, and the reactor threads' exit packet.

#include "shared_batch.hpp"
#include "../reactor/reactor_impl.hpp"

#include <boost/asio/error.hpp>

#include <chrono>
#include <new>
#include <thread>
#include <utility>

namespace boost {
namespace asio_notify {
namespace detail {

template class shared_batch<driven_reactor>;
template bool partition_dequeued<driven_reactor>(driven_reactor&, const packet*, std::size_t,
                                                 const void*, std::vector<packet>&);
template void perform_dequeued<driven_reactor>(driven_reactor&, const std::vector<packet>&,
                                               const batch_target&);

void post_exit(port& p, void* exit_key) noexcept
{
  for (;;)
  {
    boost::system::error_code ec;
    try
    {
      p.post(exit_key, 0, ec);
    }
    catch (...)
    {
      ec = boost::asio::error::no_memory;
    }
    // Only a want of memory passes; a broken port fails its dequeues too.
    if (ec != boost::asio::error::no_memory && ec != boost::asio::error::no_buffer_space)
      return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

} // namespace detail
} // namespace asio_notify
} // namespace boost
