//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// The path a request-target names, for http_server (RFC 9112, section 3.2):
//
//   /dir/my%20file.txt?query           origin form: the path, percent-escapes decoded
//   http://host:port/dir/file?query    absolute form (what a proxy is sent, and what
//                                      every server must take): its path, "/" if none
//
// The query is dropped. A percent-escape that is not '%' and two hex digits, and "%00"
// (no file name holds a NUL, and the C library would cut the name there), make the target
// invalid. The path is decoded before the server checks it for ".." and hidden files, so
// that "%2e%2e" and "%2F" are as harmless as ".." and "/". Then the file the path names
// must be a regular file inside the document root, with no part of its path, as asked
// for or as resolved, hidden (starting with '.').
//
#ifndef BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_HTTP_TARGET_HPP
#define BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_HTTP_TARGET_HPP

#include <boost/beast/core/string.hpp>

#if defined(_WIN32)
#include <winsock2.h> // before windows.h, as Asio wants it
#include <windows.h>
#endif

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>

/// The value of the hex digit `c`, or -1.
inline int hex_digit_value(char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/// `text` with its percent-escapes decoded; none for a bad escape or an escaped NUL.
inline std::optional<std::string> percent_decode(boost::beast::string_view text)
{
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i)
  {
    if (text[i] != '%')
    {
      out += text[i];
      continue;
    }
    int const high = i + 2 < text.size() ? hex_digit_value(text[i + 1]) : -1;
    int const low = i + 2 < text.size() ? hex_digit_value(text[i + 2]) : -1;
    if (high < 0 || low < 0 || (high == 0 && low == 0))
      return std::nullopt;
    out += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return out;
}

/// The path part of an absolute-form target ("http://host/path"), or `target` itself
/// where it is not one. The scheme is matched without regard to case, as RFC 3986 asks.
inline boost::beast::string_view target_path(boost::beast::string_view target)
{
  for (boost::beast::string_view scheme : {"http://", "https://"})
  {
    if (target.size() >= scheme.size() &&
        boost::beast::iequals(target.substr(0, scheme.size()), scheme))
    {
      // The authority ends at the path or at the query.
      auto const end = target.find_first_of("/?", scheme.size());
      return end == boost::beast::string_view::npos || target[end] == '?' ? "/"
                                                                          : target.substr(end);
    }
  }
  return target;
}

/// The decoded path a request-target names, without its query; none if it is invalid: a
/// fragment ('#', which a client never sends: RFC 9112, section 3.2), a control byte or
/// space, or a byte that is not ASCII (RFC 3986 has them only percent-encoded).
inline std::optional<std::string> request_path(boost::beast::string_view target)
{
  for (char c : target)
  {
    auto const byte = static_cast<unsigned char>(c);
    if (c == '#' || byte <= 0x20 || byte >= 0x7f)
      return std::nullopt;
  }
  auto path = target_path(target);
  return percent_decode(path.substr(0, path.find('?')));
}

/// Whether `c` may stand in a URI's host as itself (RFC 3986, section 3.2.2: unreserved and
/// sub-delims; '%' starts a pct-encoded byte).
inline bool is_host_char(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         boost::beast::string_view("-._~!$&'()*+,;=%").find(c) != boost::beast::string_view::npos;
}

/// Whether `value` is a valid Host field value (RFC 9112, section 3.2): empty, or
/// uri-host [":" port], the host a reg-name or IPv4 address, or an IP-literal in brackets.
inline bool valid_host(boost::beast::string_view value)
{
  auto host = value;
  if (!host.empty() && host.front() == '[')
  {
    auto const close = host.find(']');
    if (close == boost::beast::string_view::npos || close == 1)
      return false;
    for (char c : host.substr(1, close - 1))
      if (!is_host_char(c) && c != ':')
        return false;
    host = host.substr(close + 1);
    if (!host.empty() && host.front() != ':')
      return false;
  }
  auto const colon = host.find(':');
  for (char c : host.substr(0, colon))
    if (!is_host_char(c))
      return false;
  if (colon != boost::beast::string_view::npos)
    for (char c : host.substr(colon + 1))
      if (c < '0' || c > '9')
        return false;
  return true;
}

// Whether the request's path names a hidden file or directory: one path segment starting
// with '.' (".hidden", ".git/config", "a/./b"). Backslashes separate segments too, for
// Windows.
inline bool names_hidden_file(boost::beast::string_view target)
{
  for (std::size_t i = 0; i + 1 < target.size(); ++i)
    if ((target[i] == '/' || target[i] == '\\') && target[i + 1] == '.')
      return true;
  return false;
}

// Whether `file` lies inside `root` (both absolute, resolved) with no part below root hidden
// (starting with '.'). Comparing whole path components, so that "/www2/x" is not inside
// "/www".
inline bool visible_inside(std::filesystem::path const& root, std::filesystem::path const& file)
{
  auto const mismatch = std::mismatch(root.begin(), root.end(), file.begin(), file.end());
  if (mismatch.first != root.end())
    return false;
  for (auto part = mismatch.second; part != file.end(); ++part)
    if (!part->empty() && part->native().front() == '.')
      return false;
  return true;
}

// The file a path names with every link resolved, if it is a regular file inside root
// (itself canonical) and not hidden there; an empty path otherwise. The resolved parts
// below root count, so that a link "envlink" to ".env" is as hidden as ".env".
inline std::filesystem::path file_inside(std::filesystem::path const& root, std::string const& path)
{
  std::error_code ec;
  std::filesystem::path file = std::filesystem::canonical(path, ec);
  if (ec || !std::filesystem::is_regular_file(file, ec) || !visible_inside(root, file))
    return {};
  return file;
}

#if defined(_WIN32)

// On Windows canonical() may leave what the system resolves when it opens a file (MinGW's
// expands no 8.3 short names, "GIT~1", and may not follow junctions): the rule is checked
// once more on the path the system gives the open handle itself.

/// The path Windows gives the open `handle` (GetFinalPathNameByHandleW: links, junctions
/// and short names resolved), without its "\\?\" prefix; empty if it cannot tell.
inline std::filesystem::path handle_path(HANDLE handle)
{
  std::wstring name(MAX_PATH, L'\0');
  for (;;)
  {
    auto const n = GetFinalPathNameByHandleW(handle, name.data(), static_cast<DWORD>(name.size()),
                                             FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
    if (n == 0)
      return {};
    bool const fits = n < name.size(); // else n is the size needed
    name.resize(n);
    if (fits)
      break;
  }
  if (name.rfind(L"\\\\?\\UNC\\", 0) == 0) // \\?\UNC\server\share: \\server\share
    return L"\\\\" + name.substr(8);
  if (name.rfind(L"\\\\?\\", 0) == 0)
    name.erase(0, 4);
  return name;
}

/// The final path of the file or directory `path`, or `path` where it cannot be opened.
inline std::filesystem::path final_path(std::filesystem::path const& path)
{
  HANDLE const handle = CreateFileW(path.c_str(), FILE_READ_ATTRIBUTES,
                                    FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                                    OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (handle == INVALID_HANDLE_VALUE)
    return path;
  auto resolved = handle_path(handle);
  CloseHandle(handle);
  return resolved.empty() ? path : resolved;
}

/// Whether the file opened as `file` is, by its final path, inside `root` (a final path
/// too, see final_path) and not hidden there.
template <class File>
bool opened_file_inside(File& file, std::filesystem::path const& root)
{
  auto const path = handle_path(file.native_handle());
  return !path.empty() && visible_inside(root, path);
}

#else

/// canonical() has resolved every link (file_inside): the path of the file opened is the
/// one checked.
inline std::filesystem::path final_path(std::filesystem::path const& path)
{
  return std::filesystem::canonical(path);
}

template <class File>
bool opened_file_inside(File&, std::filesystem::path const&)
{
  return true;
}

#endif

#endif
