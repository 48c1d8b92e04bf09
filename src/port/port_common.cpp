//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The parts of the port that are the same on every backend: entry validation, a port that
// failed to open, and the convenience overloads, all expressed through the backend's
// `port::impl` (port_backend.hpp).

#include "port_backend.hpp"

#include <boost/asio/error.hpp>
#include <boost/system/system_error.hpp>

namespace boost {
namespace asio_notify {

namespace {

// What native_handle() gives for a port that failed to open.
#if defined(_WIN32)
const port::native_handle_type invalid_handle = nullptr;
#else
const port::native_handle_type invalid_handle = -1;
#endif

constexpr trigger known_triggers =
    trigger::oneshot | trigger::persistent | trigger::level | trigger::edge;

boost::system::error_code validate_enable(const registration& r) noexcept
{
  const boost::system::error_code invalid = boost::asio::error::invalid_argument;
  if (has_any(r.filter, ~filter_events) || has_any(r.unready, ~filter_events))
    return invalid;
  const trigger t = r.triggers;
  if (has_any(t, ~known_triggers))
    return invalid;
  if (has_any(t, trigger::level) == has_any(t, trigger::edge))
    return invalid; // neither or both
  if (has_all(t, trigger::oneshot | trigger::persistent))
    return invalid;
  return {};
}

} // namespace

boost::system::error_code validate(const registration& r) noexcept
{
  switch (r.operation)
  {
  case operation::enable:
    return validate_enable(r);
  case operation::disable:
  case operation::remove:
    return {};
  default: // none, or a combination such as enable | remove
    return boost::asio::error::invalid_argument;
  }
}

void port::apply(boost::span<registration> registrations, boost::system::error_code& ec)
{
  process(registrations, {}, std::chrono::milliseconds(0), ec);
}

boost::system::error_code port::apply(registration& r)
{
  boost::system::error_code ec;
  apply(boost::span<registration>(&r, 1), ec);
  if (ec)
    r.result = ec;
  return r.result;
}

std::size_t port::dequeue(boost::span<packet> packets, std::chrono::milliseconds timeout,
                          boost::system::error_code& ec)
{
  return process({}, packets, timeout, ec);
}

std::size_t port::dequeue(boost::span<packet> packets, std::chrono::milliseconds timeout)
{
  boost::system::error_code ec;
  const std::size_t n = dequeue(packets, timeout, ec);
  if (ec)
    throw boost::system::system_error(ec, "boost::asio_notify::port::dequeue");
  return n;
}

void port::post(void* key, std::uint32_t value)
{
  boost::system::error_code ec;
  post(key, value, ec);
  if (ec)
    throw boost::system::system_error(ec, "boost::asio_notify::port::post");
}

std::size_t port::process(boost::span<registration> registrations, boost::span<packet> packets,
                          std::chrono::milliseconds timeout, boost::system::error_code& ec)
{
  ec = {};
  if (!impl_)
  {
    ec = boost::asio::error::bad_descriptor;
    for (registration& r : registrations)
      r.result = ec; // nothing was applied
    return 0;
  }
  return impl_->process(registrations, packets, timeout, ec);
}

void port::post(void* key, std::uint32_t value, boost::system::error_code& ec)
{
  ec = {};
  if (!impl_)
  {
    ec = boost::asio::error::bad_descriptor;
    return;
  }
  impl_->post(key, value, ec);
}

port::native_handle_type port::native_handle() const noexcept
{
  return impl_ ? impl_->native_handle() : invalid_handle;
}

port_backend port::backend() const noexcept
{
  return impl_ ? impl_->backend() : port_backend::automatic;
}

void port::impl_deleter::operator()(impl* p) const noexcept { delete p; }

port::~port() = default;

port::port(boost::system::error_code& ec) : port(port_backend::automatic, ec) {}

port::port() : port(port_backend::automatic) {}

port::port(port_backend b, boost::system::error_code& ec) : impl_(detail::open_port_impl(b, ec)) {}

port::port(port_backend b)
{
  boost::system::error_code ec;
  impl_ = detail::open_port_impl(b, ec);
  if (ec)
    throw boost::system::system_error(ec, "boost::asio_notify::port");
}

port::port(port_backend b, const adversary_options& a)
{
  boost::system::error_code ec;
  impl_ = detail::open_adversarial_port_impl(b, a, ec);
  if (ec)
    throw boost::system::system_error(ec, "boost::asio_notify::port");
}

const char* to_string(port_backend b) noexcept
{
  switch (b)
  {
  case port_backend::psn:
    return "psn";
  case port_backend::afd:
    return "afd";
  case port_backend::epoll:
    return "epoll";
  case port_backend::automatic:
    break;
  }
  return "automatic";
}

} // namespace asio_notify
} // namespace boost
