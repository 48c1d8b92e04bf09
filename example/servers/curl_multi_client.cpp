//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// Parallel downloads with libcurl's multi-socket interface, driven by the io_context. One
// idea, kept in one file: the downloader below hands libcurl the sockets, the waits and the
// timer it asks for, and each part (opening a transfer, libcurl's callbacks, the waits, the
// finished transfers) is read against the others.
//
//   curl_multi_client <output-dir> <url>...
//
// Each URL is saved as <output-dir>/<a name from its last path segment>, and gets one line
// on stdout, whatever happens (download_report.hpp). The exit status is non-zero if any
// URL failed: at the transport level, or its file could not be written (an HTTP error
// status is a completed transfer).
// A download may have 1 GiB at most (BOOST_ASIO_NOTIFY_EXAMPLE_MAX_DOWNLOAD, in bytes, see
// limits.hpp): a server that sends more, or a body that never ends, fails that transfer
// as soon as it passes the limit, rather than fill the disk.
//
// Descriptors: at most 8 transfers run at once (the others wait their turn), each with its
// file, open only while it runs, and a connection (two sockets while libcurl tries IPv6
// and IPv4 at once); libcurl keeps at most 8 connections in all, idle ones included. Add
// libcurl's own 2 and Asio's 3 (epoll, eventfd, timerfd): any number of URLs can be
// downloaded with a limit (RLIMIT_NOFILE) of 64. The notify build needs 2 more than the
// stock one, the notify reactor's epoll and wake-up descriptors: it creates the reactor
// before any transfer, so that running out of descriptors there fails every URL with a
// reason rather than inside a libcurl callback (see create_reactor).
//
// libcurl does the protocol; we do the waiting. The division of labour:
//   CURLOPT_OPENSOCKETFUNCTION   libcurl asks us for a socket: we open a tcp::socket and
//                                hand it its native handle (libcurl connects it itself);
//   CURLOPT_CLOSESOCKETFUNCTION  libcurl is done with it: we close our tcp::socket;
//   CURLMOPT_SOCKETFUNCTION      libcurl says which readiness it wants per socket: we keep
//                                an async_wait(wait_read / wait_write) pending for it;
//   CURLMOPT_TIMERFUNCTION       libcurl wants to be called back after a delay: a steady_timer.
// When a wait or the timer completes we call curl_multi_socket_action, and collect the
// finished transfers with curl_multi_info_read. libcurl calls these from C frames, which
// no exception may cross: each callback catches everything and returns libcurl's error.
//

#include "download_report.hpp"
#include "limits.hpp"
#include "net.hpp"

#include <curl/curl.h>

#if defined(BOOST_ASIO_NOTIFY_EXAMPLE_ASIO_WAIT)
#include <boost/asio_notify/async_wait.hpp>
#endif

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace net = boost::asio;
using tcp = backend::tcp;
using boost::system::error_code;

// One readiness wait. The _asio_wait build keeps Asio's own sockets and waits through
// boost::asio_notify::async_wait: on Windows a poll on the io_context's own port, with no
// select() thread; elsewhere the socket's own async_wait.
template <class Handler>
void wait_for(tcp::socket& socket, tcp::socket::wait_type w, Handler&& handler)
{
#if defined(BOOST_ASIO_NOTIFY_EXAMPLE_ASIO_WAIT)
  boost::asio_notify::async_wait(socket, w, std::forward<Handler>(handler));
#else
  socket.async_wait(w, std::forward<Handler>(handler));
#endif
}

// The most one download may have, in bytes (BOOST_ASIO_NOTIFY_EXAMPLE_MAX_DOWNLOAD).
auto const max_download =
    number_from_env("BOOST_ASIO_NOTIFY_EXAMPLE_MAX_DOWNLOAD", std::uint64_t(1) << 30, "bytes");

// Transfers at once, and connections libcurl keeps in all: what bounds our descriptors.
constexpr long max_running = 8;

class downloader;

// One download, while it runs.
struct transfer
{
  std::size_t index = 0; // of its URL, in the report
  std::string url;
  std::string path;
  std::ofstream out;
  std::uint64_t bytes = 0;
  bool too_large = false; // stopped at max_download
  std::string error;      // what went wrong on our side, if anything, for the report
  downloader* owner = nullptr;
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

// Runs the body of a libcurl callback, for which an exception becomes `error`, the value
// that tells libcurl the callback failed, and a line on stderr: libcurl calls it from C
// frames, and an exception unwinding through them is undefined behaviour.
template <class Result, class Body>
Result no_throw(char const* callback, Result error, Body&& body) noexcept
{
  char const* what = "unknown exception";
  try
  {
    return body();
  }
  catch (std::exception const& e)
  {
    what = e.what();
  }
  catch (...)
  {
  }
  std::cerr << "curl_multi_client: " << callback << ": " << what << "\n";
  return error;
}

class downloader
{
public:
  downloader(net::io_context& ioc, report& r, std::vector<std::string> const& names,
             std::string const& out_dir)
      : ioc_(ioc), timer_(ioc), report_(r), multi_(curl_multi_init())
  {
    if (!multi_)
      throw std::runtime_error("curl_multi_init failed");
    curl_multi_setopt(multi_, CURLMOPT_SOCKETFUNCTION, &downloader::on_socket);
    curl_multi_setopt(multi_, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(multi_, CURLMOPT_TIMERFUNCTION, &downloader::on_timer);
    curl_multi_setopt(multi_, CURLMOPT_TIMERDATA, this);
    // A few connections per host, so that several URLs share (re-use) a connection, and
    // few in all: libcurl closes an idle one to make room, or makes a transfer wait.
    curl_multi_setopt(multi_, CURLMOPT_MAX_HOST_CONNECTIONS, 4L);
    curl_multi_setopt(multi_, CURLMOPT_MAX_TOTAL_CONNECTIONS, max_running);
    curl_multi_setopt(multi_, CURLMOPT_MAXCONNECTS, max_running);
    for (auto const& name : names)
      paths_.push_back(out_dir + "/" + name);
  }

  ~downloader()
  {
    // Closes the connections libcurl keeps for re-use, through on_close_socket.
    for (auto& t : running_)
      discard(*t);
    curl_multi_cleanup(multi_);
  }

  downloader(downloader const&) = delete;
  downloader& operator=(downloader const&) = delete;

  // Starts queued downloads while fewer than max_running run. Adding a handle makes
  // libcurl call on_timer with a zero delay, and that is what starts its work once the
  // io_context runs.
  void start_queued()
  {
    while (running_.size() < static_cast<std::size_t>(max_running) && next_ < paths_.size())
    {
      auto t = std::make_unique<transfer>();
      t->owner = this;
      t->index = next_++;
      t->url = report_.urls()[t->index];
      t->path = paths_[t->index];
      std::string const why = start(*t);
      if (why.empty())
        running_.push_back(std::move(t));
      else
      {
        report_.failed(t->index, why);
        discard(*t);
      }
    }
  }

private:
  // Hands the transfer to libcurl, its file open; returns why it cannot, or "".
  std::string start(transfer& t)
  {
    CURL* easy = t.easy = curl_easy_init();
    if (!easy)
      return "curl_easy_init failed";
    curl_easy_setopt(easy, CURLOPT_URL, t.url.c_str());
    curl_easy_setopt(easy, CURLOPT_PRIVATE, &t);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &downloader::on_data);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &t);
    // The transfer's own data for opening (to say why a socket failed), the downloader's
    // for closing: libcurl may close a connection after its transfer is gone.
    curl_easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, &downloader::on_open_socket);
    curl_easy_setopt(easy, CURLOPT_OPENSOCKETDATA, &t);
    curl_easy_setopt(easy, CURLOPT_CLOSESOCKETFUNCTION, &downloader::on_close_socket);
    curl_easy_setopt(easy, CURLOPT_CLOSESOCKETDATA, this);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT, 30L); // no download may hang the program
    // A Content-Length over the limit fails the transfer before its body; a body
    // without one (chunked, or until the server closes) is stopped by on_data.
    curl_easy_setopt(easy, CURLOPT_MAXFILESIZE_LARGE,
                     static_cast<curl_off_t>(std::min<std::uint64_t>(
                         max_download, std::numeric_limits<curl_off_t>::max())));
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    if (std::string why = resolve_for_curl(t); !why.empty())
      return why;
    t.out.open(t.path, std::ios::binary);
    if (!t.out) // errno is the failed open's
      return "cannot write " + t.path + ": " + std::generic_category().message(errno);
    if (CURLMcode const rc = curl_multi_add_handle(multi_, easy); rc != CURLM_OK)
      return curl_multi_strerror(rc);
    return "";
  }

  // libcurl resolves host names on a thread of its own and watches a descriptor of that
  // thread's: not a socket we created. We resolve the name ourselves instead and give
  // libcurl the addresses (CURLOPT_RESOLVE), so every descriptor it watches is ours.
  // Returns why the name cannot be resolved, or "".
  std::string resolve_for_curl(transfer& t)
  {
    std::string why;
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
        auto const results = tcp::resolver(ioc_).resolve(h, port, ec);
        std::string entry = h + ":" + port + ":";
        char const* sep = "";
        for (auto const& r : results)
        {
          auto const a = r.endpoint().address();
          entry += sep + (a.is_v6() ? "[" + a.to_string() + "]" : a.to_string());
          sep = ",";
        }
        if (ec)
          why = "cannot resolve " + h + ": " + ec.message();
        else
        {
          t.resolve = curl_slist_append(nullptr, entry.c_str());
          curl_easy_setopt(t.easy, CURLOPT_RESOLVE, t.resolve);
        }
      }
    }
    curl_free(host);
    curl_free(port);
    curl_url_cleanup(u);
    return why;
  }

  // ---- libcurl's callbacks (C functions: `self` is the data pointer we registered) -----

  static curl_socket_t on_open_socket(void* user, curlsocktype purpose, curl_sockaddr* address)
  {
    auto& t = *static_cast<transfer*>(user);
    if (purpose != CURLSOCKTYPE_IPCXN ||
        (address->family != AF_INET && address->family != AF_INET6))
      return CURL_SOCKET_BAD;
    return no_throw("open socket", CURL_SOCKET_BAD, [&]() -> curl_socket_t {
      auto& d = *t.owner;
      tcp::socket socket(d.ioc_);
      error_code ec;
      socket.open(address->family == AF_INET6 ? tcp::v6() : tcp::v4(), ec);
      if (ec)
      {
        t.error = "socket: " + ec.message(); // libcurl itself says only "Couldn't connect"
        return CURL_SOCKET_BAD;
      }
      curl_socket_t const fd = socket.native_handle();
      d.sockets_[fd] = std::make_shared<watched_socket>(std::move(socket));
      return fd;
    });
  }

  static int on_close_socket(void* self, curl_socket_t fd)
  {
    auto& d = *static_cast<downloader*>(self);
    return no_throw("close socket", 1, [&] {
      auto it = d.sockets_.find(fd);
      if (it == d.sockets_.end())
        return 1;
      // Closing completes its pending waits with operation_aborted.
      error_code ec;
      it->second->socket.close(ec);
      d.sockets_.erase(it);
      return ec ? 1 : 0;
    });
  }

  static int on_socket(CURL*, curl_socket_t fd, int what, void* self, void*)
  {
    auto& d = *static_cast<downloader*>(self);
    return no_throw("socket", -1, [&] {
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
    });
  }

  static int on_timer(CURLM*, long timeout_ms, void* self)
  {
    auto& d = *static_cast<downloader*>(self);
    return no_throw("timer", -1, [&] {
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
    });
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
    return no_throw("write", std::size_t(0), [&]() -> std::size_t {
      t.out.write(data, static_cast<std::streamsize>(n));
      t.bytes += n;
      if (t.out)
        return n;
      t.error = "cannot write " + t.path;
      return 0;
    });
  }

  // ---- waiting for readiness on our sockets --------------------------------------------

  // Keeps one async_wait pending per direction libcurl is interested in.
  void watch(std::shared_ptr<watched_socket> const& w)
  {
    if ((w->wanted & CURL_POLL_IN) && !w->reading)
    {
      w->reading = true;
      wait_for(w->socket, tcp::socket::wait_read, [this, w](error_code ec) {
        w->reading = false;
        on_ready(w, ec, CURL_POLL_IN, CURL_CSELECT_IN);
      });
    }
    if ((w->wanted & CURL_POLL_OUT) && !w->writing)
    {
      w->writing = true;
      wait_for(w->socket, tcp::socket::wait_write, [this, w](error_code ec) {
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

  // Reports and frees every transfer libcurl has finished, and starts queued ones.
  void collect_finished()
  {
    int left = 0;
    while (CURLMsg* msg = curl_multi_info_read(multi_, &left))
    {
      if (msg->msg != CURLMSG_DONE)
        continue;
      transfer* t = nullptr;
      curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &t);
      finish(*t, msg->data.result);
      remove(*t);
    }
    start_queued();
    if (running_.empty())
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

  void finish(transfer& t, CURLcode result)
  {
    if (result == CURLE_OK)
    {
      long status = 0;
      curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &status);
      report_.completed(t.index, status, t.bytes);
    }
    else if (t.too_large || result == CURLE_FILESIZE_EXCEEDED)
      report_.failed(t.index, "larger than the download limit of " + std::to_string(max_download) +
                                  " bytes (BOOST_ASIO_NOTIFY_EXAMPLE_MAX_DOWNLOAD)");
    else
      report_.failed(t.index, std::string(curl_easy_strerror(result)) +
                                  (t.error.empty() ? "" : " (" + t.error + ")"));
  }

  void remove(transfer& t)
  {
    discard(t);
    running_.erase(std::find_if(running_.begin(), running_.end(),
                                [&](auto const& p) { return p.get() == &t; }));
  }

  // Frees what a transfer holds; its file is closed, so it holds no descriptor.
  void discard(transfer& t)
  {
    if (t.easy)
    {
      curl_multi_remove_handle(multi_, t.easy);
      curl_easy_cleanup(t.easy);
    }
    curl_slist_free_all(t.resolve);
    t.out.close();
  }

  net::io_context& ioc_;
  net::steady_timer timer_;
  report& report_;
  CURLM* multi_;
  std::vector<std::string> paths_; // of every URL's file, in the report's order
  std::size_t next_ = 0;           // the first URL not started yet
  std::vector<std::unique_ptr<transfer>> running_;
  std::map<curl_socket_t, std::shared_ptr<watched_socket>> sockets_;
};

// Creates the io_context's reactor now, before any transfer: out of descriptors (the notify
// reactor needs an epoll and a wake-up descriptor), it throws here, where every URL can be
// told why, rather than in libcurl's open-socket callback. A socket object creates it.
void create_reactor(net::io_context& ioc) { tcp::socket first(ioc); }

int main(int argc, char* argv[])
{
  if (argc < 3)
  {
    std::cerr << "usage: curl_multi_client <output-dir> <url>...\n";
    return EXIT_FAILURE;
  }
  report r(std::vector<std::string>(argv + 2, argv + argc));
  try
  {
    if (CURLcode const rc = curl_global_init(CURL_GLOBAL_DEFAULT); rc != CURLE_OK)
      throw std::runtime_error(std::string("curl_global_init: ") + curl_easy_strerror(rc));
    net::io_context ioc;
    create_reactor(ioc);
    downloader d(ioc, r, file_names(r.urls()), argv[1]);
    d.start_queued();
    ioc.run(); // returns when every transfer has finished
  }
  catch (std::exception const& e)
  {
    r.fail_the_rest(e.what());
  }
  curl_global_cleanup();
  return r.failures() == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
