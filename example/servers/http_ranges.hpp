//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// Byte ranges of a file for http_server: what a Range request header asks for (RFC 9110,
// section 14), and a Beast body that sends part of a file.
//
// A client resumes a broken download, and a media player seeks, with "Range: bytes=...".
// http_server answers one range of a file:
//
//   bytes=first-last   bytes first to last, counted from 0 (a last beyond the end is the end)
//   bytes=first-       from first to the end
//   bytes=-n           the last n bytes (the whole file if it is shorter; an empty
//                      file is sent whole, 200: it has no last byte to name)
//
// with 206 Partial Content and "Content-Range: bytes first-last/size"; a range that starts
// at or beyond the end, or the last 0 bytes, with 416 Range Not Satisfiable and
// "Content-Range: bytes */size". A header it does not take -- another unit, bad syntax, a
// last before the first, or several ranges, which would need a multipart/byteranges body --
// is ignored, as RFC 9110 allows: the whole file is sent, 200.
//
#ifndef BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_HTTP_RANGES_HPP
#define BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_HTTP_RANGES_HPP

#include <boost/asio/buffer.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/file.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/optional.hpp>

#include <algorithm>
#include <cstdint>
#include <utility>

/// What a Range header asks of a file.
struct byte_range
{
  enum kind_type
  {
    whole,        // no Range header, or one that is ignored: 200, the whole file
    part,         // 206, bytes first to last
    unsatisfiable // 416
  };

  kind_type kind = whole;
  std::uint64_t first = 0; // part: the first byte sent
  std::uint64_t last = 0;  // part: the last byte sent
};

/// A byte position: decimal digits, at most what fits 64 bits (19 digits always do).
inline bool parse_byte_position(boost::beast::string_view text, std::uint64_t& value)
{
  if (text.empty() || text.size() > 19)
    return false;
  value = 0;
  for (char c : text)
  {
    if (c < '0' || c > '9')
      return false;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return true;
}

/// What the Range header `header` (empty if there is none) asks of a file of `size` bytes.
inline byte_range parse_range(boost::beast::string_view header, std::uint64_t size)
{
  boost::beast::string_view const unit = "bytes=";
  if (header.size() < unit.size() || !boost::beast::iequals(header.substr(0, unit.size()), unit))
    return {}; // no header, or a unit we do not know
  auto spec = header.substr(unit.size());
  while (!spec.empty() && (spec.front() == ' ' || spec.front() == '\t'))
    spec.remove_prefix(1);
  while (!spec.empty() && (spec.back() == ' ' || spec.back() == '\t'))
    spec.remove_suffix(1);
  auto const dash = spec.find('-');
  if (dash == boost::beast::string_view::npos || spec.find(',') != boost::beast::string_view::npos)
    return {}; // bad syntax, or several ranges
  auto const first_text = spec.substr(0, dash);
  auto const last_text = spec.substr(dash + 1);

  std::uint64_t first = 0;
  std::uint64_t last = 0;
  if (first_text.empty()) // -n: the last n bytes
  {
    if (!parse_byte_position(last_text, last))
      return {};
    if (last == 0)
      return {byte_range::unsatisfiable};
    if (size == 0) // satisfiable (RFC 9110, section 14.1.1), yet no byte to send: 200
      return {};
    return {byte_range::part, size - std::min(last, size), size - 1};
  }
  if (!parse_byte_position(first_text, first))
    return {};
  if (last_text.empty())
    last = size; // to the end
  else if (!parse_byte_position(last_text, last) || last < first)
    return {};
  if (first >= size)
    return {byte_range::unsatisfiable};
  return {byte_range::part, first, std::min(last, size - 1)};
}

/// A Beast body that sends `size` bytes of an open file from `offset`: the whole file or a
/// range of it. Beast's own file_body always sends the whole file (Boost 1.81). Only for
/// responses: it has no reader.
struct file_range_body
{
  struct value_type
  {
    boost::beast::file file;
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
  };

  /// The Content-Length.
  static std::uint64_t size(value_type const& body) { return body.size; }

  /// Reads the file a buffer at a time as the serializer asks for it.
  class writer
  {
  public:
    using const_buffers_type = boost::asio::const_buffer;

    template <bool isRequest, class Fields>
    writer(boost::beast::http::header<isRequest, Fields> const&, value_type& body)
        : body_(body), remain_(body.size)
    {
    }

    void init(boost::beast::error_code& ec) { body_.file.seek(body_.offset, ec); }

    boost::optional<std::pair<const_buffers_type, bool>> get(boost::beast::error_code& ec)
    {
      ec = {};
      if (remain_ == 0)
        return boost::none;
      auto const amount =
          static_cast<std::size_t>(std::min<std::uint64_t>(remain_, sizeof(buffer_)));
      auto const n = body_.file.read(buffer_, amount, ec);
      if (ec)
        return boost::none;
      if (n == 0) // the file is shorter than it was: the response cannot be completed
      {
        ec = boost::beast::http::error::short_read;
        return boost::none;
      }
      remain_ -= n;
      return {{const_buffers_type(buffer_, n), remain_ > 0}};
    }

  private:
    value_type& body_;
    std::uint64_t remain_;
    char buffer_[16 * 1024];
  };
};

#endif
