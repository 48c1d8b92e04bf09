//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
#ifndef BOOST_ASIO_NOTIFY_CONNECT_HPP
#define BOOST_ASIO_NOTIFY_CONNECT_HPP

#include <boost/asio_notify/basic_socket.hpp>

#include <boost/asio/async_result.hpp>
#include <boost/asio/compose.hpp>
#include <boost/asio/coroutine.hpp>
#include <boost/asio/error.hpp>

#include <iterator>
#include <utility>

namespace boost {
namespace asio_notify {

/** Connect `s` to the first endpoint of `endpoints` (for instance resolver results) that
    accepts, trying each in turn; the socket is closed and reopened between attempts.
    Returns the endpoint connected to; on failure `ec` holds the last error
    (`boost::asio::error::not_found` for an empty sequence). */
template <class Protocol, class Executor, class EndpointSequence>
typename Protocol::endpoint connect(basic_socket<Protocol, Executor>& s,
                                   const EndpointSequence& endpoints,
                                   boost::system::error_code& ec)
{
  ec = boost::asio::error::not_found;
  for (const auto& entry : endpoints)
  {
    const typename Protocol::endpoint ep(entry);
    s.close(ec);
    s.connect(ep, ec);
    if (!ec)
      return ep;
  }
  return typename Protocol::endpoint();
}

/// Connect to the first endpoint that accepts; throws `boost::system::system_error`.
template <class Protocol, class Executor, class EndpointSequence>
typename Protocol::endpoint connect(basic_socket<Protocol, Executor>& s,
                                   const EndpointSequence& endpoints)
{
  boost::system::error_code ec;
  auto ep = asio_notify::connect(s, endpoints, ec);
  detail::throw_if(ec, "connect");
  return ep;
}

namespace detail {

// The composed operation behind async_connect: one async_connect per endpoint.
template <class Socket, class EndpointSequence>
class connect_sequence_op
{
public:
  using endpoint_type = typename Socket::endpoint_type;

  connect_sequence_op(Socket& s, const EndpointSequence& endpoints)
      : socket_(s), endpoints_(endpoints)
  {
  }

  template <class Self>
  void operator()(Self& self, boost::system::error_code ec = boost::asio::error::not_found)
  {
    if (started_)
    {
      if (!ec)
        return self.complete(ec, current());
      if (ec == boost::asio::error::operation_aborted)
        return self.complete(ec, endpoint_type());
      ++index_;
    }
    started_ = true;
    if (index_ == static_cast<std::size_t>(std::distance(std::begin(endpoints_), std::end(endpoints_))))
      return self.complete(last_error(ec), endpoint_type());
    boost::system::error_code ignored;
    socket_.close(ignored);
    socket_.async_connect(current(), std::move(self));
  }

private:
  static boost::system::error_code last_error(const boost::system::error_code& ec)
  {
    return ec ? ec : boost::system::error_code(boost::asio::error::not_found);
  }

  // An index, not an iterator: the operation (and its copy of the sequence) is moved
  // between steps, which would leave an iterator into a std::array dangling.
  endpoint_type current() const
  {
    return endpoint_type(*std::next(std::begin(endpoints_), static_cast<std::ptrdiff_t>(index_)));
  }

  Socket& socket_;
  EndpointSequence endpoints_;
  std::size_t index_ = 0;
  bool started_ = false;
};

} // namespace detail

/** Asynchronously connect `s` to the first endpoint of `endpoints` that accepts. The
    handler is `void(error_code, typename Protocol::endpoint)`; `endpoints` is copied. */
template <class Protocol, class Executor, class EndpointSequence,
          class ConnectToken = boost::asio::default_completion_token_t<Executor>>
auto async_connect(basic_socket<Protocol, Executor>& s, const EndpointSequence& endpoints,
                   ConnectToken&& token = boost::asio::default_completion_token_t<Executor>())
{
  using endpoint_type = typename Protocol::endpoint;
  return boost::asio::async_compose<ConnectToken, void(boost::system::error_code, endpoint_type)>(
      detail::connect_sequence_op<basic_socket<Protocol, Executor>, EndpointSequence>(s, endpoints),
      token, s);
}

} // namespace asio_notify
} // namespace boost

#endif
