//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The choice between the Windows backends of the port: PSN where the system has it, AFD
// otherwise, unless the environment or the caller names one (doc/windows.md).

#include "../port_backend.hpp"
#include "backends.hpp"
#include "system.hpp"

#include <boost/asio/error.hpp>

#include <cstdlib>
#include <cstring>

namespace boost {
namespace asio_notify {

using boost::system::error_code;

namespace detail {

port_backend automatic_backend() noexcept
{
  if (const char* name = std::getenv(port_backend_variable))
  {
    if (std::strcmp(name, "psn") == 0)
      return port_backend::psn;
    if (std::strcmp(name, "afd") == 0)
      return port_backend::afd;
  }
  return win::psn_available() ? port_backend::psn : port_backend::afd;
}

std::unique_ptr<port::impl, port::impl_deleter> open_port_impl(port_backend b, error_code& ec)
{
  ec = {};
  if (b == port_backend::automatic)
    b = automatic_backend();
  if (b == port_backend::epoll)
  {
    ec = boost::asio::error::operation_not_supported; // Linux's
    return nullptr;
  }
  if ((ec = win::start_winsock()))
    return nullptr;
  return b == port_backend::psn ? win::open_psn_port(ec) : win::open_afd_port(ec);
}

} // namespace detail

bool is_supported(port_backend b) noexcept
{
  switch (b)
  {
  case port_backend::psn:
    return detail::win::psn_available();
  case port_backend::afd:
    return detail::win::afd_available();
  case port_backend::epoll:
    return false;
  case port_backend::automatic:
    break;
  }
  return is_supported(detail::automatic_backend());
}

bool is_supported() noexcept { return is_supported(port_backend::automatic); }

} // namespace asio_notify
} // namespace boost
