//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// How http_server reads a request: what one request may hold, Beast's parser with the
// checks Beast leaves to the server (field count, trailers, framing, Host), and the status
// that answers a request the parser rejected.
//
#ifndef BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_HTTP_REQUEST_HPP
#define BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_HTTP_REQUEST_HPP

#include "http_target.hpp"

#include <boost/beast/http/error.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/beast/http/string_body.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>

// What one request may hold. The server serves files: a request needs a few headers and no
// body, so both limits are small (Beast's default body limit, 1 MiB, is for servers that
// take uploads), and no request holds more of the server's memory than this.
inline constexpr std::uint32_t header_limit = 8 * 1024; // beyond: 431
inline constexpr std::uint64_t body_limit = 8 * 1024;   // beyond: 413
// Each field costs a node of its own (some 90 bytes), however short: 8 KiB of empty
// fields would be 100 kB. Real requests have a dozen or two.
inline constexpr std::size_t field_limit = 100; // beyond: 431
// The read buffer holds the headers while they are parsed; the body goes on to the
// request as it comes.
inline constexpr std::size_t read_buffer_limit = 2 * header_limit;

// The longest request-target taken (beyond: 414, RFC 9112, section 3).
inline constexpr std::size_t target_limit = 8 * 1024;

// Whether a request's target is longer than target_limit: `target` where the parser has
// read the request line, else the line at the start of `buffered` (what it left unread)
// is too long to tell.
inline bool target_too_long(boost::beast::string_view target, boost::beast::string_view buffered)
{
  if (!target.empty())
    return target.size() > target_limit;
  auto const line = buffered.substr(0, buffered.find('\n'));
  auto const start = line.find(' ');
  if (start == boost::beast::string_view::npos)
    return line.size() > target_limit;
  auto const end = line.find(' ', start + 1);
  return (end == boost::beast::string_view::npos ? line.size() : end) - start - 1 > target_limit;
}

// The status that answers a request Beast's parser rejected with `ec`, or none where there
// is nobody to answer: the client closed the connection, or our time-out did
// (beast::error::timeout). `target` and `buffered` as for target_too_long.
inline std::optional<boost::beast::http::status>
rejection_status(boost::system::error_code ec, boost::beast::string_view target,
                 boost::beast::string_view buffered)
{
  // Beast bounds the request line and the fields together: a long target is 414, other
  // long headers 431. The read buffer holds only headers and trailers (a body goes on to
  // the request): what overflows it is trailers, too large.
  if (ec == boost::beast::http::error::header_limit ||
      ec == boost::beast::http::error::buffer_overflow)
    return target_too_long(target, buffered)
               ? boost::beast::http::status::uri_too_long // 414
               : boost::beast::http::status::request_header_fields_too_large;
  if (ec == boost::beast::http::error::body_limit)
    return boost::beast::http::status::payload_too_large; // 413
  // Every other error of the parser is a malformed request: a bad request line or field, a
  // bad or second Content-Length, Content-Length with Transfer-Encoding, a Transfer-Encoding
  // not ending in chunked, no Host or two (request_parser), a bad chunk...
  if (ec.category() ==
          boost::beast::http::make_error_code(boost::beast::http::error::bad_method).category() &&
      ec != boost::beast::http::error::end_of_stream &&
      ec != boost::beast::http::error::partial_message)
    return boost::beast::http::status::bad_request; // 400
  return std::nullopt;
}

// What a request's Expect field asks (RFC 9110, section 10.1.1): HTTP/1.0 has no Expect.
enum class expectation
{
  none,
  continue_100, // "100-continue": the client waits for 100 (Continue) before the body
  unknown       // anything else: 417
};

inline expectation expectation_of(boost::beast::http::request_header<> const& req)
{
  auto const it = req.find(boost::beast::http::field::expect);
  if (it == req.end() || req.version() < 11)
    return expectation::none;
  return boost::beast::iequals(it->value(), "100-continue") ? expectation::continue_100
                                                            : expectation::unknown;
}

// Beast's request parser with what it leaves to the server: at most field_limit fields
// and header_limit bytes of trailers (431 beyond; older Beast bounds neither), and a header
// that says where the request ends and which host it is for (400 otherwise).
class request_parser : public boost::beast::http::request_parser<boost::beast::http::string_body>
{
public:
  request_parser()
  {
    header_limit(::header_limit);
    body_limit(::body_limit);
  }

private:
  void on_field_impl(boost::beast::http::field name, boost::beast::string_view name_string,
                     boost::beast::string_view value, boost::system::error_code& ec) override
  {
    if (is_header_done()) // a trailer
      trailer_size_ += name_string.size() + value.size() + 4;
    if (++fields_ > field_limit || trailer_size_ > ::header_limit)
    {
      ec = boost::beast::http::error::header_limit;
      return;
    }
    ec = {};
    get().insert(name, name_string, value);
  }

  void on_header_impl(boost::system::error_code& ec) override
  {
    ec = {};
    auto const& req = get();
    // RFC 9112, section 6.3: with a Transfer-Encoding whose final coding is not chunked,
    // or with Content-Length too, where the body ends is anybody's guess (Beast takes the
    // first for no body, and "gzip" then Content-Length for that length): a proxy in front
    // that guessed otherwise would let a request be smuggled past it. HTTP/1.0 has no
    // Transfer-Encoding: such framing is faulty there (section 6.1).
    if (req.count(boost::beast::http::field::transfer_encoding) &&
        (!chunked() || req.count(boost::beast::http::field::content_length) || req.version() < 11))
      ec = boost::beast::http::error::bad_transfer_encoding;
    // RFC 9112, section 3.2: exactly one Host in HTTP/1.1 (HTTP/1.0 may have none), and a
    // valid one.
    else if ((req.version() >= 11 && req.count(boost::beast::http::field::host) != 1) ||
             !valid_host(req[boost::beast::http::field::host]))
      ec = boost::beast::http::error::bad_field;
  }

  std::size_t fields_ = 0;
  std::size_t trailer_size_ = 0;
};

#endif
