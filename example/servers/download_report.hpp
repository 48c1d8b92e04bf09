//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// What curl_multi_client makes of each URL it is given: a file name and a line on stdout.
//
// Each URL is saved under its last path segment, "index.html" where that segment is
// empty, "." or ".." (it names a directory). A name that an earlier URL of the same
// command line has taken, in any case, gets ".1", ".2", ... appended (the first one free),
// so that no download overwrites another; a file left by an earlier run is overwritten.
// Characters that some file system does not take in a name (backslash, ':', '*', '?', '"',
// '<', '>', '|', controls) become '_'.
//
// Every URL gets one line on stdout, "<status> <url> <bytes>" or "failed <url>: <reason>",
// whatever happens, even when the program cannot start downloading at all.
//
#ifndef BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_DOWNLOAD_REPORT_HPP
#define BOOST_ASIO_NOTIFY_EXAMPLE_SERVERS_DOWNLOAD_REPORT_HPP

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

// The line each URL gets on stdout, and which URLs have had theirs.
class report
{
public:
  explicit report(std::vector<std::string> urls) : urls_(std::move(urls)), done_(urls_.size()) {}

  std::vector<std::string> const& urls() const { return urls_; }

  void completed(std::size_t i, long status, std::uint64_t bytes)
  {
    std::cout << status << " " << urls_[i] << " " << bytes << std::endl;
    done_[i] = true;
  }

  void failed(std::size_t i, std::string const& reason)
  {
    std::cout << "failed " << urls_[i] << ": " << reason << std::endl;
    done_[i] = true;
    ++failures_;
  }

  // After an error that ends the run: each URL without its line yet fails for `reason`.
  void fail_the_rest(std::string const& reason)
  {
    for (std::size_t i = 0; i < urls_.size(); ++i)
      if (!done_[i])
        failed(i, reason);
  }

  int failures() const { return failures_; }

private:
  std::vector<std::string> urls_;
  std::vector<bool> done_;
  int failures_ = 0;
};

// `name` with each character that some file system does not take in a name (Windows:
// a backslash separates directories, ':' names a stream) replaced by '_'.
inline std::string portable_file_name(std::string name)
{
  for (char& c : name)
    if (static_cast<unsigned char>(c) < 0x20 || std::strchr("\\:*?\"<>|", c) != nullptr)
      c = '_';
  return name;
}

// The file name for `url`: its last path segment ("http://host/dir/file.txt?x" ->
// "file.txt"), or "index.html" where that is empty, "." or ".." (names of a directory).
inline std::string file_name(std::string const& url)
{
  std::string const path = url.substr(0, url.find_first_of("?#"));
  auto const scheme = path.find("://");
  if (scheme != std::string::npos && path.find('/', scheme + 3) == std::string::npos)
    return "index.html";
  std::string const name = path.substr(path.rfind('/') + 1);
  return name.empty() || name == "." || name == ".." ? "index.html" : portable_file_name(name);
}

// `name` in lower case: names that differ only in case are one file on Windows and macOS.
inline std::string file_name_key(std::string name)
{
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return name;
}

// The file names for `urls`, in order: a name an earlier URL has taken (in any case) gets
// ".1", ".2", ... appended (the first one free), so that no download overwrites another.
inline std::vector<std::string> file_names(std::vector<std::string> const& urls)
{
  std::set<std::string> taken;       // file_name_key of each
  std::map<std::string, int> suffix; // the last one tried, per name
  std::vector<std::string> names;
  for (auto const& url : urls)
  {
    std::string const base = file_name(url);
    std::string name = base;
    while (!taken.insert(file_name_key(name)).second)
      name = base + "." + std::to_string(++suffix[file_name_key(base)]);
    names.push_back(std::move(name));
  }
  return names;
}

#endif
