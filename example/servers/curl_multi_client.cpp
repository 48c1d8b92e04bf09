//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// Parallel downloads with libcurl's multi-socket interface, driven by the io_context.
//
//   curl_multi_client <output-dir> <url>...
//
// Each URL is saved as <output-dir>/<last path segment> and reported on stdout as
// "<status> <url> <bytes>", or "failed <url>: <reason>". The exit status is non-zero if any
// transfer failed at the transport level (an HTTP error status is a completed transfer).
// A download may have 1 GiB at most (ASIO_NOTIFY_EXAMPLE_MAX_DOWNLOAD, in bytes, see
// limits.hpp): a server that sends more, or a body that never ends, fails that transfer
// as soon as it passes the limit, rather than fill the disk.
//
// libcurl does the protocol; we do the waiting. The division of labour:
//   CURLOPT_OPENSOCKETFUNCTION   libcurl asks us for a socket: we open a tcp::socket and
//                                hand it its native handle (libcurl connects it itself);
//   CURLOPT_CLOSESOCKETFUNCTION  libcurl is done with it: we close our tcp::socket;
//   CURLMOPT_SOCKETFUNCTION      libcurl says which readiness it wants per socket: we keep
//                                an async_wait(wait_read / wait_write) pending for it;
//   CURLMOPT_TIMERFUNCTION       libcurl wants to be called back after a delay: a steady_timer.
// When a wait or the timer completes we call curl_multi_socket_action, and collect the
// finished transfers with curl_multi_info_read.
//

#include "limits.hpp"
#include "net.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace net = boost::asio;
using tcp = backend::tcp;
using boost::system::error_code;

// The most one download may have, in bytes (ASIO_NOTIFY_EXAMPLE_MAX_DOWNLOAD).
auto const max_download =
    number_from_env("ASIO_NOTIFY_EXAMPLE_MAX_DOWNLOAD", std::uint64_t(1) << 30, "bytes");

// One download.
struct transfer
{
  std::string url;
  std::string path;
  std::ofstream out;
  std::uint64_t bytes = 0;
  bool too_large = false; // stopped at max_download
  CURL* easy = nullptr;
  curl_slist* resolve = nullptr; // host names we resolved for libcurl (see resolve_for_curl)
};

// A socket libcurl is using, and what libcurl wants to hear about it.
struct watched_socket
{
  explicit watched_socket(tcp::socket s) : socket(std::move(s)) {}

  tcp::socket socket;
  int wanted = 0;       // CURL_POLL_IN / CURL_POLL_OUT bits, as libcurl last asked
  bool reading = false; // an async_wait(wait_read) is pending
  bool writing = false; // an async_wait(wait_write) is pending
};

class downloader
{
public:
  explicit downloader(net::io_context& ioc) : ioc_(ioc), timer_(ioc), multi_(curl_multi_init())
  {
    curl_multi_setopt(multi_, CURLMOPT_SOCKETFUNCTION, &downloader::on_socket);
    curl_multi_setopt(multi_, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(multi_, CURLMOPT_TIMERFUNCTION, &downloader::on_timer);
    curl_multi_setopt(multi_, CURLMOPT_TIMERDATA, this);
    // A few connections per host, so that several URLs share (re-use) a connection.
    curl_multi_setopt(multi_, CURLMOPT_MAX_HOST_CONNECTIONS, 4L);
  }

  ~downloader()
  {
    // Closes the connections libcurl keeps for re-use, through on_close_socket.
    for (auto& t : transfers_)
      discard(*t);
    curl_multi_cleanup(multi_);
  }

  downloader(downloader const&) = delete;
  downloader& operator=(downloader const&) = delete;

  // Queues a download. Adding the handle makes libcurl call on_timer with a zero delay,
  // and that is what starts the work once the io_context runs.
  void add(std::string url, std::string path)
  {
    auto t = std::make_unique<transfer>();
    t->url = std::move(url);
    t->path = std::move(path);
    t->out.open(t->path, std::ios::binary);
    if (!t->out)
      throw std::runtime_error("cannot write " + t->path);

    CURL* easy = t->easy = curl_easy_init();
    curl_easy_setopt(easy, CURLOPT_URL, t->url.c_str());
    curl_easy_setopt(easy, CURLOPT_PRIVATE, t.get());
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &downloader::on_data);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, t.get());
    curl_easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, &downloader::on_open_socket);
    curl_easy_setopt(easy, CURLOPT_OPENSOCKETDATA, this);
    curl_easy_setopt(easy, CURLOPT_CLOSESOCKETFUNCTION, &downloader::on_close_socket);
    curl_easy_setopt(easy, CURLOPT_CLOSESOCKETDATA, this);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT, 30L); // no download may hang the program
    // A Content-Length over the limit fails the transfer before its body; a body
    // without one (chunked, or until the server closes) is stopped by on_data.
    curl_easy_setopt(easy, CURLOPT_MAXFILESIZE_LARGE,
                     static_cast<curl_off_t>(std::min<std::uint64_t>(
                         max_download, std::numeric_limits<curl_off_t>::max())));
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    resolve_for_curl(*t);
    curl_multi_add_handle(multi_, easy);
    transfers_.push_back(std::move(t));
  }

  int failures() const { return failures_; }

private:
  // libcurl resolves host names on a thread of its own and watches a descriptor of that
  // thread's: not a socket we created. We resolve the name ourselves instead and give
  // libcurl the addresses (CURLOPT_RESOLVE), so every descriptor it watches is ours.
  void resolve_for_curl(transfer& t)
  {
    CURLU* u = curl_url();
    char* host = nullptr;
    char* port = nullptr;
    if (curl_url_set(u, CURLUPART_URL, t.url.c_str(), 0) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) == CURLUE_OK)
    {
      error_code ec;
      std::string const h = host;
      net::ip::make_address(h, ec);
      if (ec && h.front() != '[') // not an IPv4 or [IPv6] literal: a name
      {
        std::string entry = h + ":" + port + ":";
        char const* sep = "";
        for (auto const& r : tcp::resolver(ioc_).resolve(h, port))
        {
          auto const a = r.endpoint().address();
          entry += sep + (a.is_v6() ? "[" + a.to_string() + "]" : a.to_string());
          sep = ",";
        }
        t.resolve = curl_slist_append(nullptr, entry.c_str());
        curl_easy_setopt(t.easy, CURLOPT_RESOLVE, t.resolve);
      }
    }
    curl_free(host);
    curl_free(port);
    curl_url_cleanup(u);
  }

  // ---- libcurl's callbacks (C functions: `self` is the data pointer we registered) -----

  static curl_socket_t on_open_socket(void* self, curlsocktype purpose, curl_sockaddr* address)
  {
    auto& d = *static_cast<downloader*>(self);
    if (purpose != CURLSOCKTYPE_IPCXN ||
        (address->family != AF_INET && address->family != AF_INET6))
      return CURL_SOCKET_BAD;
    tcp::socket socket(d.ioc_);
    error_code ec;
    socket.open(address->family == AF_INET6 ? tcp::v6() : tcp::v4(), ec);
    if (ec)
      return CURL_SOCKET_BAD;
    curl_socket_t const fd = socket.native_handle();
    d.sockets_[fd] = std::make_shared<watched_socket>(std::move(socket));
    return fd;
  }

  static int on_close_socket(void* self, curl_socket_t fd)
  {
    auto& d = *static_cast<downloader*>(self);
    auto it = d.sockets_.find(fd);
    if (it == d.sockets_.end())
      return 1;
    // Closing completes its pending waits with operation_aborted.
    error_code ec;
    it->second->socket.close(ec);
    d.sockets_.erase(it);
    return ec ? 1 : 0;
  }

  static int on_socket(CURL*, curl_socket_t fd, int what, void* self, void*)
  {
    auto& d = *static_cast<downloader*>(self);
    auto it = d.sockets_.find(fd);
    if (it == d.sockets_.end())
    {
      std::cerr << "curl_multi_client: libcurl watches descriptor " << fd
                << " that it did not open through us\n";
      return -1; // makes libcurl fail the transfer rather than hang
    }
    auto const& w = it->second;
    if (what == CURL_POLL_REMOVE)
    {
      // Not interested any more (e.g. an idle connection kept for re-use). Cancel our
      // waits so that nothing pending keeps io_context::run() from returning.
      w->wanted = 0;
      error_code ec;
      w->socket.cancel(ec);
      return 0;
    }
    w->wanted = what;
    d.watch(w);
    return 0;
  }

  static int on_timer(CURLM*, long timeout_ms, void* self)
  {
    auto& d = *static_cast<downloader*>(self);
    if (timeout_ms < 0)
    {
      d.timer_.cancel();
      return 0;
    }
    // Even a zero delay goes through the timer: libcurl must not be re-entered from
    // inside its own callback. (expires_after also cancels the previous wait.)
    d.timer_.expires_after(std::chrono::milliseconds(timeout_ms));
    d.timer_.async_wait([&d](error_code ec) {
      if (ec)
        return;
      int running = 0;
      curl_multi_socket_action(d.multi_, CURL_SOCKET_TIMEOUT, 0, &running);
      d.collect_finished();
    });
    return 0;
  }

  static std::size_t on_data(char* data, std::size_t size, std::size_t count, void* user)
  {
    auto& t = *static_cast<transfer*>(user);
    std::size_t const n = size * count;
    if (n > max_download - t.bytes)
    {
      t.too_large = true;
      return 0; // a short count makes libcurl abort the transfer
    }
    t.out.write(data, static_cast<std::streamsize>(n));
    t.bytes += n;
    return t.out ? n : 0;
  }

  // ---- waiting for readiness on our sockets --------------------------------------------

  // Keeps one async_wait pending per direction libcurl is interested in.
  void watch(std::shared_ptr<watched_socket> const& w)
  {
    if ((w->wanted & CURL_POLL_IN) && !w->reading)
    {
      w->reading = true;
      w->socket.async_wait(tcp::socket::wait_read, [this, w](error_code ec) {
        w->reading = false;
        on_ready(w, ec, CURL_POLL_IN, CURL_CSELECT_IN);
      });
    }
    if ((w->wanted & CURL_POLL_OUT) && !w->writing)
    {
      w->writing = true;
      w->socket.async_wait(tcp::socket::wait_write, [this, w](error_code ec) {
        w->writing = false;
        on_ready(w, ec, CURL_POLL_OUT, CURL_CSELECT_OUT);
      });
    }
  }

  void on_ready(std::shared_ptr<watched_socket> const& w, error_code ec, int poll, int select)
  {
    // A wait ends with operation_aborted when the socket was closed or its waits were
    // cancelled; otherwise the socket is ready (or in error) and libcurl should know,
    // if it still cares about this direction.
    if (ec != net::error::operation_aborted && (w->wanted & poll))
    {
      int running = 0;
      curl_multi_socket_action(multi_, w->socket.native_handle(), ec ? CURL_CSELECT_ERR : select,
                               &running);
      collect_finished();
    }
    // libcurl may have closed the socket meanwhile; if not, wait again if it still wants.
    if (w->socket.is_open())
      watch(w);
  }

  // Reports and frees every transfer libcurl has finished.
  void collect_finished()
  {
    int left = 0;
    while (CURLMsg* msg = curl_multi_info_read(multi_, &left))
    {
      if (msg->msg != CURLMSG_DONE)
        continue;
      transfer* t = nullptr;
      curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &t);
      if (msg->data.result == CURLE_OK)
      {
        long status = 0;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_RESPONSE_CODE, &status);
        std::cout << status << " " << t->url << " " << t->bytes << std::endl;
      }
      else
      {
        std::cout << "failed " << t->url << ": ";
        if (t->too_large || msg->data.result == CURLE_FILESIZE_EXCEEDED)
          std::cout << "larger than the download limit of " << max_download
                    << " bytes (ASIO_NOTIFY_EXAMPLE_MAX_DOWNLOAD)" << std::endl;
        else
          std::cout << curl_easy_strerror(msg->data.result) << std::endl;
        ++failures_;
      }
      remove(*t);
    }
    if (transfers_.empty())
    {
      // Nothing left to do: let run() return, even if libcurl still watches an idle
      // connection it keeps for re-use. (curl_multi_cleanup closes those.)
      timer_.cancel();
      for (auto& [fd, w] : sockets_)
      {
        w->wanted = 0;
        error_code ec;
        w->socket.cancel(ec);
      }
    }
  }

  void remove(transfer& t)
  {
    discard(t);
    transfers_.erase(std::find_if(transfers_.begin(), transfers_.end(),
                                  [&](auto const& p) { return p.get() == &t; }));
  }

  void discard(transfer& t)
  {
    curl_multi_remove_handle(multi_, t.easy);
    curl_easy_cleanup(t.easy);
    curl_slist_free_all(t.resolve);
    t.out.close();
  }

  net::io_context& ioc_;
  net::steady_timer timer_;
  CURLM* multi_;
  std::vector<std::unique_ptr<transfer>> transfers_;
  std::map<curl_socket_t, std::shared_ptr<watched_socket>> sockets_;
  int failures_ = 0;
};

// "http://host/dir/file.txt?x" -> "file.txt"; "index.html" when the path ends with '/'.
std::string file_name(std::string const& url)
{
  std::string path = url.substr(0, url.find_first_of("?#"));
  auto const scheme = path.find("://");
  if (scheme != std::string::npos && path.find('/', scheme + 3) == std::string::npos)
    return "index.html";
  std::string name = path.substr(path.rfind('/') + 1);
  return name.empty() ? "index.html" : name;
}

int main(int argc, char* argv[])
{
  if (argc < 3)
  {
    std::cerr << "usage: curl_multi_client <output-dir> <url>...\n";
    return EXIT_FAILURE;
  }
  curl_global_init(CURL_GLOBAL_DEFAULT);
  int failures = 0;
  try
  {
    net::io_context ioc;
    downloader d(ioc);
    for (int i = 2; i < argc; ++i)
      d.add(argv[i], std::string(argv[1]) + "/" + file_name(argv[i]));
    ioc.run(); // returns when every transfer has finished
    failures = d.failures();
  }
  catch (std::exception const& e)
  {
    std::cerr << "curl_multi_client: " << e.what() << "\n";
    failures = 1;
  }
  curl_global_cleanup();
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
