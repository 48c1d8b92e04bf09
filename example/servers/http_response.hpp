//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// What http_server answers: a pure function of a request's header and the file system, no
// sockets here. The server serves files and needs no request body, so the answer is known
// once the header is: that is what lets it answer `Expect: 100-continue` at once (RFC
// 9110, section 10.1.1).
//
#ifndef BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_HTTP_RESPONSE_HPP
#define BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_HTTP_RESPONSE_HPP

#include "http_ranges.hpp"
#include "http_target.hpp"
#include "net.hpp"

#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/message_generator.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/version.hpp>

#include <filesystem>
#include <string>
#include <utility>

// Sent in every response, so that a client can tell which build answered.
inline std::string const server_name =
    std::string(BOOST_BEAST_VERSION_STRING) + " on " + backend::name;

inline backend::beast::string_view mime_type(backend::beast::string_view path)
{
  auto const dot = path.rfind('.');
  auto const ext =
      dot == backend::beast::string_view::npos ? backend::beast::string_view{} : path.substr(dot);
  auto is = [&](backend::beast::string_view e) {
    return backend::beast::iequals(ext, e);
  };
  if (is(".htm") || is(".html"))
    return "text/html";
  if (is(".css"))
    return "text/css";
  if (is(".txt"))
    return "text/plain";
  if (is(".js"))
    return "application/javascript";
  if (is(".json"))
    return "application/json";
  if (is(".png"))
    return "image/png";
  if (is(".jpg") || is(".jpeg"))
    return "image/jpeg";
  if (is(".svg"))
    return "image/svg+xml";
  return "application/octet-stream";
}

// The fields of every response: which build answered, and that the Content-Type is what
// it is: a browser must not guess that a text file, or the path a 404 echoes, is HTML and
// run the script in it.
inline void set_common_fields(backend::beast::http::response_header<>& res)
{
  res.set(backend::beast::http::field::server, server_name);
  res.set("X-Content-Type-Options", "nosniff");
}

// A short text response for errors, to a request of HTTP `version` (11 for 1.1).
inline backend::beast::http::response<backend::beast::http::string_body>
text_response(backend::beast::http::status status, unsigned version, bool keep_alive,
              std::string text)
{
  namespace http = backend::beast::http;
  http::response<http::string_body> res{status, version};
  set_common_fields(res);
  res.set(http::field::content_type, "text/plain");
  res.keep_alive(keep_alive);
  if (status == http::status::method_not_allowed)
    res.set(http::field::allow, "GET, HEAD");
  res.body() = std::move(text) + "\n";
  res.prepare_payload();
  return res;
}

// The response to a request of `method`: for HEAD, the headers GET would get (its
// Content-Length included) without the body, whatever the status.
template <class Body>
backend::beast::http::message_generator respond(backend::beast::http::verb method,
                                                backend::beast::http::response<Body>&& res)
{
  namespace http = backend::beast::http;
  if (method != http::verb::head)
    return std::move(res);
  http::response<http::empty_body> head{std::move(res.base())};
  return head;
}

// Whether If-Match lets the request go on (RFC 9110, section 13.1.1). This server sends
// no entity tags, so none is current: only "*" (any current representation) matches.
inline bool if_match_holds(backend::beast::http::request_header<> const& req)
{
  auto const it = req.find(backend::beast::http::field::if_match);
  if (it == req.end())
    return true;
  auto value = it->value();
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
    value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t'))
    value.remove_suffix(1);
  return value == "*";
}

// A response and its status: the server answers an error at once, before any body.
struct answer
{
  backend::beast::http::status status;
  backend::beast::http::message_generator message;
};

// The answer to a request with header `req`, the connection kept open after it where
// `keep_alive`. doc_root is canonical (absolute, no links).
inline answer handle_request(std::string const& doc_root,
                             backend::beast::http::request_header<> const& req, bool keep_alive)
{
  namespace http = backend::beast::http;
  auto const error = [&](http::status status, std::string text) {
    return answer{status, respond(req.method(), text_response(status, req.version(), keep_alive,
                                                              std::move(text)))};
  };
  if (req.method() != http::verb::get && req.method() != http::verb::head)
    return error(http::status::method_not_allowed, "Method not allowed");

  // The path, decoded (see http_target.hpp): checked as decoded, rejecting ".." keeps
  // every request inside doc_root, "%2e%2e" and "%2F.." too.
  auto const target = request_path(req.target());
  if (!target || target->empty() || (*target)[0] != '/' || target->find("..") != std::string::npos)
    return error(http::status::bad_request, "Illegal request-target");

  std::string path = doc_root + *target;
  if (path.back() == '/')
    path += "index.html";

  // Only regular files inside doc_root once every link is resolved, never hidden ones
  // (see http_target.hpp): anything else looks missing.
  backend::beast::error_code ec;
  file_range_body::value_type body;
  std::filesystem::path const file =
      names_hidden_file(*target) ? std::filesystem::path() : file_inside(doc_root, path);
  if (!file.empty())
    body.file.open(file.string().c_str(), backend::beast::file_mode::scan, ec);
  if (file.empty() || (!ec && !opened_file_inside(body.file, doc_root)))
    return error(http::status::not_found, "Not found: " + *target);
  if (!ec)
    body.size = body.file.size(ec);
  if (ec)
    return error(http::status::internal_server_error, ec.message());
  auto const size = std::to_string(body.size);

  // Preconditions come after the checks that make a response other than 2xx (RFC 9110,
  // section 13.2.1) and before Range (section 13.2.2).
  if (!if_match_holds(req))
    return error(http::status::precondition_failed, "Precondition failed");

  // One byte range, if asked for (see http_ranges.hpp). With If-Range the client wants
  // the range only if the file has not changed, which this server cannot tell (it sends
  // no ETag or Last-Modified to compare): it gets the whole file.
  auto const range = req.count(http::field::if_range)
                         ? byte_range{}
                         : parse_range(req[http::field::range], body.size);
  if (range.kind == byte_range::unsatisfiable)
  {
    auto res = text_response(http::status::range_not_satisfiable, req.version(), keep_alive,
                             "Range not satisfiable");
    res.set(http::field::content_range, "bytes */" + size);
    return {http::status::range_not_satisfiable, respond(req.method(), std::move(res))};
  }

  http::response<file_range_body> res{std::piecewise_construct, std::make_tuple(std::move(body)),
                                      std::make_tuple(http::status::ok, req.version())};
  set_common_fields(res);
  res.set(http::field::content_type, mime_type(path));
  res.set(http::field::accept_ranges, "bytes");
  if (range.kind == byte_range::part)
  {
    res.result(http::status::partial_content);
    res.set(http::field::content_range,
            "bytes " + std::to_string(range.first) + "-" + std::to_string(range.last) + "/" + size);
    res.body().offset = range.first;
    res.body().size = range.last - range.first + 1;
  }
  res.content_length(res.body().size);
  res.keep_alive(keep_alive);
  auto const status = res.result();
  return {status, respond(req.method(), std::move(res))};
}

#endif
