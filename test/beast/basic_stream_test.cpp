//
// Copyright (c) 2016-2019 Vinnie Falco (vinnie dot falco at gmail dot com)
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Official repository: https://github.com/boostorg/beast
//
// ADAPTED for Boost.AsioNotify from Beast's test/beast/core/basic_stream.cpp at
// tag boost-1.81.0 (commit 5e55b558e0f2f0ddc0be00fa37012b204a2bb6ff): the stream under test is
// boost::asio_notify::beast::basic_stream (its socket boost::asio_notify's), the test's
// servers and acceptors are boost::asio_notify's too, and the test lives in namespace
// boost::asio_notify::beast, which has `using namespace boost::beast`, so that Beast's
// unqualified names (basic_stream, tcp_stream, teardown, error::timeout, net, http) resolve
// as they would in a program switched to it. Every change is marked "ASIO_NOTIFY:" with its
// reason; the layout is the repository's (.clang-format), the code otherwise Beast's, but for
// the cases Beast writes out again and again (the same steps on another operation or
// another overload), which are folded into helpers that make the same calls and checks.

// Test that header file is self-contained.
#include <boost/asio_notify/beast/basic_stream.hpp>

#include "stream_tests.hpp"

#include <boost/beast/_experimental/unit_test/suite.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/beast/core/string.hpp>
// ASIO_NOTIFY: not Beast's <boost/beast/core/tcp_stream.hpp>: tcp_stream is ours, from
// basic_stream.hpp (included above).
#include <boost/asio_notify/ip/tcp.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/detached.hpp>
// ASIO_NOTIFY: net::spawn needs Boost.Context (libboost-context-dev); where CMake finds no
// Boost::context, testJavadocs' two functions (which take a yield_context) are left out.
#if BOOST_ASIO_NOTIFY_TEST_HAS_SPAWN
#include <boost/asio/spawn.hpp>
#endif
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/optional.hpp>
#include <array>
#include <optional>
#include <type_traits>
#include <thread>

#if BOOST_ASIO_HAS_CO_AWAIT
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#endif

// ASIO_NOTIFY: the test is in boost::asio_notify::beast (Beast's: boost::beast).
namespace boost {
namespace asio_notify {
namespace beast {

namespace {

// ASIO_NOTIFY: the protocol whose socket and acceptor are ours, for the test's own acceptors
// and servers below (Beast's: net::ip::tcp).
using tcp = boost::asio_notify::ip::tcp;

// ASIO_NOTIFY: in boost::asio_notify::beast, Beast's names reached through its
// `using namespace boost::beast` count as declared in namespace boost, where
// <boost/utility/string_view.hpp> declares boost::string_view too: the unqualified name is
// ambiguous there (in Beast's own namespace, Beast's hides it). Beast's, as in Beast's test.
using boost::beast::string_view;

template <class Executor = net::io_context::executor_type>
class test_executor
{
public:
  // VFALCO These need to be atomic or something
  struct info
  {
    int dispatch = 0;
    int post = 0;
    int defer = 0;
    int work = 0;
    int total = 0;
  };

private:
  struct state
  {
    Executor ex;
    info info_;

    state(Executor const& ex_) : ex(ex_) {}
  };

  std::shared_ptr<state> sp_;

public:
  test_executor(test_executor const&) = default;
  test_executor& operator=(test_executor const&) = default;

  explicit test_executor(Executor const& ex) : sp_(std::make_shared<state>(ex)) {}

  decltype(sp_->ex.context()) context() const noexcept { return sp_->ex.context(); }

  info& operator*() noexcept { return sp_->info_; }

  info* operator->() noexcept { return &sp_->info_; }

  void on_work_started() const noexcept { ++sp_->info_.work; }

  void on_work_finished() const noexcept {}

  template <class F, class A>
  void dispatch(F&& f, A const& a)
  {
    ++sp_->info_.dispatch;
    ++sp_->info_.total;
    sp_->ex.dispatch(std::forward<F>(f), a);
  }

  template <class F, class A>
  void post(F&& f, A const& a)
  {
    ++sp_->info_.post;
    ++sp_->info_.total;
    sp_->ex.post(std::forward<F>(f), a);
  }

  template <class F, class A>
  void defer(F&& f, A const& a)
  {
    ++sp_->info_.defer;
    ++sp_->info_.total;
    sp_->ex.defer(std::forward<F>(f), a);
  }
};

struct test_acceptor
{
  net::io_context ioc;
  tcp::acceptor a; // ASIO_NOTIFY: ours (Beast's: net::ip::tcp::acceptor)
  net::ip::tcp::endpoint ep;

  test_acceptor() : a(ioc), ep(net::ip::make_address_v4("127.0.0.1"), 0)
  {
    a.open(ep.protocol());
    a.set_option(net::socket_base::reuse_address(true));
    a.bind(ep);
    a.listen(net::socket_base::max_listen_connections);
    ep = a.local_endpoint();
    // ASIO_NOTIFY: the accepted socket is ours (Beast's: net::ip::tcp::socket).
    a.async_accept([](error_code, tcp::socket) {});
  }
};

class test_server
{
  string_view s_;
  std::ostream& log_;
  net::io_context ioc_;
  tcp::acceptor acceptor_; // ASIO_NOTIFY: ours (Beast's: net::ip::tcp::acceptor)
  tcp::socket socket_;     // ASIO_NOTIFY: ours (Beast's: net::ip::tcp::socket)
  std::thread t_;

  void fail(error_code const& ec, string_view what)
  {
    if (ec != net::error::operation_aborted)
      log_ << what << ": " << ec.message() << "\n";
  }

public:
  test_server(string_view s, net::ip::tcp::endpoint ep, std::ostream& log)
      : s_(s), log_(log), ioc_(1), acceptor_(ioc_), socket_(ioc_)
  {
    boost::system::error_code ec;

    acceptor_.open(ep.protocol(), ec);
    if (ec)
    {
      fail(ec, "open");
      return;
    }

    acceptor_.set_option(net::socket_base::reuse_address(true), ec);
    if (ec)
    {
      fail(ec, "set_option");
      return;
    }

    acceptor_.bind(ep, ec);
    if (ec)
    {
      fail(ec, "bind");
      return;
    }

    acceptor_.listen(net::socket_base::max_listen_connections, ec);
    if (ec)
    {
      fail(ec, "listen");
      return;
    }

    acceptor_.async_accept(socket_, [this](error_code ec) { this->on_accept(ec); });

    t_ = std::thread([this] { ioc_.run(); });
  }

  ~test_server()
  {
    ioc_.stop();
    t_.join();
  }

  net::ip::tcp::endpoint local_endpoint() const noexcept { return acceptor_.local_endpoint(); }

private:
  class session : public std::enable_shared_from_this<session>
  {
    string_view s_;
    tcp::socket socket_; // ASIO_NOTIFY: ours (Beast's: net::ip::tcp::socket)

  public:
    session(string_view s, tcp::socket sock, std::ostream&) : s_(s), socket_(std::move(sock)) {}

    void run()
    {
      if (s_.empty())
        socket_.async_wait(net::socket_base::wait_read,
                           bind_front_handler(&session::on_read, shared_from_this()));
      else
        net::async_write(socket_, net::const_buffer(s_.data(), s_.size()),
                         bind_front_handler(&session::on_write, shared_from_this()));
    }

  protected:
    void on_read(error_code const&) {}

    void on_write(error_code const&, std::size_t) {}
  };

  void on_accept(error_code const& ec)
  {
    if (!acceptor_.is_open())
      return;
    if (ec)
      fail(ec, "accept");
    else
      std::make_shared<session>(s_, std::move(socket_), log_)->run();
    acceptor_.async_accept(socket_, [this](error_code ec) { this->on_accept(ec); });
  }
};

} // namespace

class basic_stream_test : public beast::unit_test::suite
{
public:
  // ASIO_NOTIFY: the protocol whose socket is ours, so basic_stream<tcp, ...>::socket_type
  // is boost::asio_notify::basic_stream_socket (Beast's: net::ip::tcp).
  using tcp = boost::asio_notify::ip::tcp;
  using executor = net::io_context::executor_type;
  using strand = net::strand<executor>;

  //--------------------------------------------------------------------------

  void testSpecialMembers()
  {
    net::io_context ioc;

    // net::io_context::executor_type

    {
      auto ex = ioc.get_executor();
      basic_stream<tcp, executor> s1(ioc);
      basic_stream<tcp, executor> s2(ex);
      basic_stream<tcp, executor> s3(ioc, tcp::v4());
      basic_stream<tcp, executor> s4(std::move(s1));
      // ASIO_NOTIFY: the socket type is ours (Beast's: net::basic_stream_socket).
      s2.socket() = boost::asio_notify::basic_stream_socket<tcp, executor>(ioc);
      BEAST_EXPECT(s1.get_executor() == ex);
      BEAST_EXPECT(s2.get_executor() == ex);
      BEAST_EXPECT(s3.get_executor() == ex);
      BEAST_EXPECT(s4.get_executor() == ex);

      BEAST_EXPECT((!static_cast<basic_stream<tcp, executor> const&>(s2).socket().is_open()));

      test_sync_stream<basic_stream<tcp, net::io_context::executor_type>>();

      test_async_stream<basic_stream<tcp, net::io_context::executor_type>>();
    }

    // net::io_context::strand

    {
      auto ex = net::make_strand(ioc);
      basic_stream<tcp, strand> s1(ex);
      basic_stream<tcp, strand> s2(ex, tcp::v4());
      basic_stream<tcp, strand> s3(std::move(s1));
      BEAST_EXPECT(s1.get_executor() == ex);
      BEAST_EXPECT(s2.get_executor() == ex);
      BEAST_EXPECT(s3.get_executor() == ex);

      test_sync_stream<basic_stream<tcp, strand>>();

      test_async_stream<basic_stream<tcp, strand>>();
    }

    // layers

    {
      net::socket_base::keep_alive opt;
      tcp_stream s(ioc);
      s.socket().open(tcp::v4());
      s.socket().get_option(opt);
      BEAST_EXPECT(!opt.value());
      opt = true;
      s.socket().set_option(opt);
      opt = false;
      BEAST_EXPECT(!opt.value());
    }

    // rate policies

    {
      basic_stream<tcp, net::io_context::executor_type, simple_rate_policy> s(ioc);
    }

    {
      basic_stream<tcp, net::io_context::executor_type, simple_rate_policy> s(simple_rate_policy{},
                                                                              ioc);
    }

    {
      basic_stream<tcp, net::io_context::executor_type, unlimited_rate_policy> s(ioc);
    }

    {
      basic_stream<tcp, net::io_context::executor_type, unlimited_rate_policy> s(
          unlimited_rate_policy{}, ioc);
    }
  }

  class handler
  {
    boost::optional<error_code> ec_;
    std::size_t n_;

  public:
    handler(error_code ec, std::size_t n) : ec_(ec), n_(n) {}

    handler(handler&& other)
        : ec_(other.ec_), n_(boost::exchange(other.n_, (std::numeric_limits<std::size_t>::max)()))
    {
    }

    ~handler() { BEAST_EXPECT(n_ == (std::numeric_limits<std::size_t>::max)()); }

    void operator()(error_code const& ec, std::size_t n)
    {
      BEAST_EXPECTS(ec == ec_, ec.message());
      BEAST_EXPECT(n == n_);
      n_ = (std::numeric_limits<std::size_t>::max)();
    }
  };

  // ASIO_NOTIFY: Beast spells out every case below in full; the repeated steps are the
  // helpers that follow, and each case still makes Beast's calls and checks.
  using stream_type = basic_stream<tcp, net::io_context::executor_type>;

  static net::ip::tcp::endpoint loopback_any_port()
  {
    return net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), 0);
  }

  // How a case sets the stream's timer before it starts the operation.
  static void expireNever(stream_type& s) { s.expires_never(); }
  static void expireIn30s(stream_type& s) { s.expires_after(std::chrono::seconds(30)); }
  static void expireNow(stream_type& s) { s.expires_after(std::chrono::seconds(0)); }

  // One case on a stream connected to a test_server that sends `served` (nothing when it is
  // empty): `setTimer(s)`, `start(s)`, then `ioc` runs until what started has completed.
  template <class SetTimer, class Start>
  void onConnectedStream(net::io_context& ioc, string_view served, SetTimer setTimer, Start start)
  {
    test_server srv(served, loopback_any_port(), log);
    stream_type s(ioc);
    s.socket().connect(srv.local_endpoint());
    setTimer(s);
    start(s);
    ioc.run();
    ioc.restart();
  }

  // An async_read_some or async_write_some case: `start(s, buffer, h)` starts the operation.
  template <class SetTimer, class Start, class Buffer>
  void transferCase(net::io_context& ioc, string_view served, SetTimer setTimer, Start start,
                    Buffer buffer, handler h)
  {
    onConnectedStream(ioc, served, setTimer,
                      [&](stream_type& s) { start(s, buffer, std::move(h)); });
  }

  // The direction of the cases testRead and testWrite share (testTransferSome).
  enum class direction
  {
    read,
    write
  };

  template <direction D>
  using transfer_buffer =
      std::conditional_t<D == direction::read, net::mutable_buffer, net::const_buffer>;

  // read_some or write_some.
  template <direction D, class... Args>
  static std::size_t transferSome(stream_type& s, Args&&... args)
  {
    if constexpr (D == direction::read)
      return s.read_some(std::forward<Args>(args)...);
    else
      return s.write_some(std::forward<Args>(args)...);
  }

  // async_read_some or async_write_some.
  template <direction D, class... Args>
  static void asyncTransferSome(stream_type& s, Args&&... args)
  {
    if constexpr (D == direction::read)
      s.async_read_some(std::forward<Args>(args)...);
    else
      s.async_write_some(std::forward<Args>(args)...);
  }

  // The cases testRead and testWrite share: the asynchronous operation moves `transferred`
  // bytes of the full buffer on a stream whose server has sent "*".
  template <direction D>
  void testTransferSome(std::size_t transferred)
  {
    using buffer_type = transfer_buffer<D>;
    auto const start = [](stream_type& s, buffer_type b, handler h) {
      asyncTransferSome<D>(s, b, std::move(h));
    };

    char buf[4];
    net::io_context ioc;
    std::memset(buf, 0, sizeof(buf));
    buffer_type full(buf, sizeof(buf));

    // read_some, write_some

    {
      error_code ec;
      stream_type s(ioc, tcp::v4());
      BEAST_EXPECT(transferSome<D>(s, buffer_type{}) == 0);
      BEAST_EXPECT(transferSome<D>(s, buffer_type{}, ec) == 0);
      BEAST_EXPECTS(!ec, ec.message());
    }

    // async_read_some, async_write_some

    // success
    transferCase(ioc, "*", expireNever, start, full, handler({}, transferred));
    // success, with timeout
    transferCase(ioc, "*", expireIn30s, start, full, handler({}, transferred));
    // empty buffer
    transferCase(ioc, "*", expireNever, start, buffer_type{}, handler({}, 0));
    // empty buffer, timeout
    transferCase(ioc, "*", expireNow, start, buffer_type{}, handler(error::timeout, 0));
  }

  void testRead()
  {
    testTransferSome<direction::read>(1);

    char buf[4];
    net::io_context ioc;
    std::memset(buf, 0, sizeof(buf));
    net::mutable_buffer mb(buf, sizeof(buf));
    auto const asyncRead = [](stream_type& s, net::mutable_buffer b, handler h) {
      s.async_read_some(b, std::move(h));
    };

    // expires_after
    transferCase(ioc, "", expireNow, asyncRead, mb, handler(error::timeout, 0));

    // expires_at
    auto const expireAtNow = [](stream_type& s) {
      s.expires_at(std::chrono::steady_clock::now());
    };
    transferCase(ioc, "", expireAtNow, asyncRead, mb, handler(error::timeout, 0));

    {
      // stream destroyed
      test_server srv("", loopback_any_port(), log);
      {
        auto s = net::detached.as_default_on(stream_type(ioc));
        s.socket().connect(srv.local_endpoint());
        s.expires_after(std::chrono::seconds(0));
        s.async_read_some(mb);
      }
      ioc.run();
      ioc.restart();
    }

    {
      // stale timer
      test_acceptor a;
      auto s = net::detached.as_default_on(stream_type(ioc));
      s.expires_after(std::chrono::milliseconds(50));
      s.async_read_some(mb);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      ioc.run();
      ioc.restart();
    }

    // abandoned operation
    {
      stream_type s(ioc);
      s.async_read_some(net::mutable_buffer{}, [](error_code, std::size_t) { BEAST_FAIL(); });
    }
  }

  void testWrite()
  {
    testTransferSome<direction::write>(4);

    // abandoned operation
    {
      char buf[4];
      net::io_context ioc;
      std::memset(buf, 0, sizeof(buf));
      stream_type s(ioc);
      net::const_buffer cb(buf, sizeof(buf));
      s.async_write_some(cb, [](error_code, std::size_t) { BEAST_FAIL(); });
    }
  }

  // ASIO_NOTIFY: Beast's testConnect (connect_handler) and testMembers (handler) each
  // define this handler, for a completion of (error_code) and of (error_code, std::size_t):
  // it must be called, with `expected` unless that is boost::none.
  class expected_completion
  {
    bool pass_ = false;
    boost::optional<error_code> expected_ = {};

  public:
    ~expected_completion() { BEAST_EXPECT(pass_); }

    expected_completion() : expected_(error_code{}) {}

    explicit expected_completion(error_code expected) : expected_(expected) {}

    explicit expected_completion(boost::none_t) {}

    expected_completion(expected_completion&& other)
        : pass_(boost::exchange(other.pass_, true)), expected_(other.expected_)
    {
    }

    template <class... Result>
    void operator()(error_code ec, Result const&...)
    {
      pass_ = true;
      if (expected_)
        BEAST_EXPECTS(ec == expected_, ec.message());
    }
  };

  // ASIO_NOTIFY: Beast's testConnect defines this handler twice, as range_handler (the
  // connected endpoint) and as iterator_handler (an iterator to it).
  template <class Connected>
  struct connected_handler
  {
    bool pass = false;

    connected_handler() = default;

    connected_handler(connected_handler&& other) : pass(boost::exchange(other.pass, true)) {}

    ~connected_handler() { BEAST_EXPECT(pass); }

    void operator()(error_code ec, Connected)
    {
      pass = true;
      BEAST_EXPECTS(!ec, ec.message());
    }
  };

  void testConnect()
  {
    struct range
    {
      tcp::endpoint ep;

      using iterator = tcp::endpoint const*;

      // VFALCO This is here because asio mistakenly requires it
      using const_iterator = tcp::endpoint const*;

      iterator begin() const noexcept { return &ep; }

      // VFALCO need to use const_iterator to silence
      //        warning about unused types
      const_iterator end() const noexcept { return begin() + 1; }
    };

    using connect_handler = expected_completion;
    using range_handler = connected_handler<tcp::endpoint>;
    using iterator_handler = connected_handler<tcp::endpoint const*>;

    struct connect_condition
    {
      bool operator()(error_code, tcp::endpoint) const { return true; };
    };

    range r;
    net::io_context ioc;
    connect_condition cond;

    // ASIO_NOTIFY: each connect case of Beast's: a fresh stream is connected to a
    // test_acceptor (endpoint `ep`, also `r`'s) by `connect(s, ep)`, its socket closed, and
    // connected again by `connect(s, ep, ec)`.
    auto const connectTwice = [&](auto connect) {
      test_acceptor a;
      stream_type s(ioc);
      error_code ec;
      r.ep = a.ep;
      connect(s, a.ep);
      s.socket().close();
      connect(s, a.ep, ec);
      BEAST_EXPECTS(!ec, ec.message());
    };

    // connect (member)

    connectTwice([](stream_type& s, auto const& ep, auto&... ec) { s.connect(ep, ec...); });

    // connect

    connectTwice([&](stream_type& s, auto const&, auto&... ec) { s.connect(r, ec...); });
    connectTwice([&](stream_type& s, auto const&, auto&... ec) { s.connect(r, cond, ec...); });
    connectTwice(
        [&](stream_type& s, auto const&, auto&... ec) { s.connect(r.begin(), r.end(), ec...); });
    connectTwice([&](stream_type& s, auto const&, auto&... ec) {
      s.connect(r.begin(), r.end(), cond, ec...);
    });

    // ASIO_NOTIFY: each async_connect case of Beast's: a fresh stream is connected to a
    // test_acceptor (endpoint `ep`, also `r`'s) by `start(s, ep)` with no timeout, its
    // socket closed, and connected again by `start(s, ep)` within a 30 s timeout.
    auto const asyncConnectTwice = [&](auto start) {
      test_acceptor a;
      stream_type s(ioc);
      r.ep = a.ep;
      s.expires_never();
      start(s, a.ep);
      ioc.run();
      ioc.restart();
      s.socket().close();
      s.expires_after(std::chrono::seconds(30));
      start(s, a.ep);
      ioc.run();
      ioc.restart();
    };

    // async_connect (member)

    asyncConnectTwice(
        [](stream_type& s, auto const& ep) { s.async_connect(ep, connect_handler{}); });

    // async_connect

    asyncConnectTwice([&](stream_type& s, auto const&) { s.async_connect(r, range_handler{}); });
    asyncConnectTwice(
        [&](stream_type& s, auto const&) { s.async_connect(r, cond, range_handler{}); });
    asyncConnectTwice([&](stream_type& s, auto const&) {
      s.async_connect(r.begin(), r.end(), iterator_handler{});
    });
    asyncConnectTwice([&](stream_type& s, auto const&) {
      s.async_connect(r.begin(), r.end(), cond, iterator_handler{});
    });
    // ASIO_NOTIFY: here Beast has an `#if 0` block (never compiled, so no check) of
    // static_casts of beast::async_connect to its use_future and yield_context signatures.

    //
    // async_connect timeout
    //

    {
      // normal timeout
      // Requires timeout happen before ECONNREFUSED
      //
      // ASIO_NOTIFY: Beast connects to 72.5.65.111:1 ("This address _should_ be
      // unconnectible"). Where the machine has no route to it (a sandbox, a CI runner or
      // test machine without a network) the connect fails at once, with
      // network_unreachable, before the timer: the case then fails with stock Beast too.
      // A loopback listener whose accept queue is full (backlog 0, one connection
      // queued) drops the SYN instead, so the connection stays pending wherever the test
      // runs (Linux); what the case checks is Beast's.
      tcp::acceptor full(ioc);
      full.open(tcp::v4());
      full.bind(tcp::endpoint(net::ip::make_address_v4("127.0.0.1"), 0));
      full.listen(0);
      tcp::socket queued(ioc);
      queued.connect(full.local_endpoint());
      stream_type s(ioc);
      auto const ep = full.local_endpoint();
      s.expires_after(std::chrono::seconds(0));
      s.async_connect(ep, connect_handler{error::timeout});
      ioc.run_for(std::chrono::seconds(1));
      ioc.restart();
    }

    {
      // stream destroyed
      {
        stream_type s(ioc);
        auto const ep = net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), 1);
        s.expires_after(std::chrono::seconds(0));
        s.async_connect(ep, connect_handler{boost::none});
      }
      ioc.run();
      ioc.restart();
    }

    {
      // stale timer
      test_acceptor a;
      stream_type s(ioc);
      s.expires_after(std::chrono::milliseconds(50));
      s.async_connect(a.ep, connect_handler{});
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      ioc.run();
      ioc.restart();
    }

    // abandoned operation
    {
      stream_type s(ioc);
      net::ip::tcp::endpoint ep(net::ip::make_address_v4("127.0.0.1"), 1);
      s.async_connect(ep, [](error_code) { BEAST_FAIL(); });
    }
  }

  void testMembers()
  {
    using handler = expected_completion;

    char buf[4];
    net::io_context ioc;
    auto mb = net::buffer(buf);
    std::memset(buf, 0, sizeof(buf));

    // ASIO_NOTIFY: Beast's cancel, close and destructor cases: a read waits on a stream
    // connected to a silent test_server until `end(s)` cancels it, closes the stream or
    // destroys it (resets `s`); then `ioc` runs, with the stream still alive unless destroyed.
    auto const endPendingRead = [&](handler h, auto end) {
      test_server srv("", loopback_any_port(), log);
      std::optional<stream_type> s(std::in_place, ioc);
      s->connect(srv.local_endpoint());
      s->expires_never();
      s->socket().async_read_some(mb, std::move(h));
      end(s);
      ioc.run();
      ioc.restart();
    };

    // cancel

    endPendingRead(handler(net::error::operation_aborted), [](auto& s) { s->cancel(); });

    // close

    endPendingRead(handler(boost::none), [](auto& s) { s->close(); });

    // destructor

    endPendingRead(handler(boost::none), [](auto& s) { s.reset(); });

    // customization points

    {
      stream_type s(ioc);
      beast::close_socket(s);
    }

    {
      error_code ec;
      stream_type s(ioc);
      teardown(role_type::client, s, ec);
    }

    {
      stream_type s(ioc);
      async_teardown(role_type::server, s, [](error_code) {});
    }
  }

  //--------------------------------------------------------------------------

#if BOOST_ASIO_NOTIFY_TEST_HAS_SPAWN
  http::response<http::string_body> make_response(http::request<http::empty_body>) { return {}; }

  // ASIO_NOTIFY: Beast's two examples (tcp_stream's Javadoc) spell this out each; they
  // differ only in their timeouts: `readTimeout` is set before the read and, where the
  // example has one, `writeTimeout` before the write.
  void process_http(tcp_stream& stream, net::yield_context yield, std::chrono::seconds readTimeout,
                    boost::optional<std::chrono::seconds> writeTimeout)
  {
    flat_buffer buffer;
    http::request<http::empty_body> req;

    stream.expires_after(readTimeout);
    http::async_read(stream, buffer, req, yield);

    // Calculate the response
    http::response<http::string_body> res = make_response(req);

    if (writeTimeout)
      stream.expires_after(*writeTimeout);
    http::async_write(stream, res, yield);
  }

  void process_http_1(tcp_stream& stream, net::yield_context yield)
  {
    // Read the request, with a 15 second timeout; send the response, with a 30 second timeout.
    process_http(stream, yield, std::chrono::seconds(15), std::chrono::seconds(30));
  }

  void process_http_2(tcp_stream& stream, net::yield_context yield)
  {
    // Require that the read and write combined take no longer than 30 seconds
    process_http(stream, yield, std::chrono::seconds(30), boost::none);
  }

  void testJavadocs()
  {
    BEAST_EXPECT(&basic_stream_test::process_http_1);
    BEAST_EXPECT(&basic_stream_test::process_http_2);
  }
#else
  // ASIO_NOTIFY: no Boost.Context, no net::spawn (see the includes).
  void testJavadocs()
  {
    log << "testJavadocs: left out, no Boost.Context (net::spawn)" << std::endl;
  }
#endif

  //--------------------------------------------------------------------------

  void testIssue1589()
  {
    net::io_context ioc;

    // ASIO_NOTIFY: in this test, tcp (our protocol, whose socket is ours) where Beast's
    // has net::ip::tcp, and our basic_stream_socket where it has net::basic_stream_socket.

    // the timer needlessly used polymorphic executor
    basic_stream<tcp, net::io_context::executor_type>{ioc};

    // make sure strands work
    basic_stream<tcp, net::strand<net::io_context::executor_type>>{net::make_strand(ioc)};

    // address the problem in the issue
    {
      boost::asio_notify::basic_stream_socket<tcp, net::strand<net::io_context::executor_type>>
          sock(net::make_strand(ioc));
      basic_stream<tcp, net::strand<net::io_context::executor_type>, unlimited_rate_policy> stream(
          std::move(sock));
      BOOST_STATIC_ASSERT(std::is_convertible<decltype(sock)::executor_type,
                                              decltype(stream)::executor_type>::value);
    }
  }

  //--------------------------------------------------------------------------

#if BOOST_ASIO_HAS_CO_AWAIT
  // ASIO_NOTIFY: basic_stream<tcp> (ours) where Beast's has basic_stream<net::ip::tcp>; the
  // resolver, its results and the endpoint are Asio's in both.
  void testAwaitableCompilation(basic_stream<tcp>& stream, net::mutable_buffer outbuf,
                                net::const_buffer inbuf,
                                net::ip::tcp::resolver::results_type resolve_results)
  {
    static_assert(std::is_same_v<net::awaitable<std::size_t>,
                                 decltype(stream.async_read_some(outbuf, net::use_awaitable))>);

    static_assert(std::is_same_v<net::awaitable<std::size_t>,
                                 decltype(stream.async_write_some(inbuf, net::use_awaitable))>);

    static_assert(
        std::is_same_v<net::awaitable<net::ip::tcp::resolver::results_type::const_iterator>,
                       decltype(stream.async_connect(resolve_results.begin(), resolve_results.end(),
                                                     net::use_awaitable))>);

    static_assert(
        std::is_same_v<net::awaitable<net::ip::tcp::endpoint>,
                       decltype(stream.async_connect(resolve_results, net::use_awaitable))>);

    static_assert(std::is_same_v<net::awaitable<void>,
                                 decltype(stream.async_connect(resolve_results.begin()->endpoint(),
                                                               net::use_awaitable))>);

    // ASIO_NOTIFY: the condition takes `error_code const&` (Beast's: `error_code&`).
    // Asio calls a connect condition with a const error_code (impl/connect.hpp's
    // call_connect_condition), so Beast's lambda could never be called; Beast's
    // async_connect declarations take any condition and only these unevaluated decltypes
    // see it, while ours are constrained to conditions callable as Asio calls them
    // (asio_notify::detail::is_connect_condition_v), which tells a condition from a
    // completion token: with Beast's lambda no overload matches.
    auto comparison_function = [](error_code const&, net::ip::tcp::endpoint) {
      return true;
    };

    static_assert(
        std::is_same_v<net::awaitable<net::ip::tcp::resolver::results_type::const_iterator>,
                       decltype(stream.async_connect(resolve_results.begin(), resolve_results.end(),
                                                     comparison_function, net::use_awaitable))>);

    static_assert(std::is_same_v<net::awaitable<net::ip::tcp::endpoint>,
                                 decltype(stream.async_connect(resolve_results, comparison_function,
                                                               net::use_awaitable))>);
  }
#endif

  // ASIO_NOTIFY: basic_stream<tcp> (ours) where Beast's has basic_stream<net::ip::tcp>.
  void testConnectionConditionArgs(basic_stream<tcp>& stream,
                                   net::ip::tcp::resolver::results_type const& results)
  {
    struct condition
    {
      bool operator()(const error_code&, net::ip::tcp::endpoint const&) const;
    };

    {
      struct handler
      {
        void operator()(error_code const&,
                        net::ip::tcp::resolver::results_type::const_iterator) const;
      };

      static_assert(std::is_void<decltype(stream.async_connect(results.begin(), results.end(),
                                                               condition(), handler()))>::value,
                    "");
    }

    {
      struct handler
      {
        void operator()(error_code const&, net::ip::tcp::endpoint const&);
      };

      static_assert(
          std::is_void<decltype(stream.async_connect(results, condition(), handler()))>::value, "");
    };
  }

  void testIssue2065()
  {
    char buf[4];
    net::io_context ioc;
    std::memset(buf, 0, sizeof(buf));
    net::mutable_buffer mb(buf, sizeof(buf));

    // async_read_some

    // success
    onConnectedStream(ioc, "*", expireNever, [&](stream_type& s) {
      s.async_read_some(mb, handler({}, 1));
      s.async_read_some(net::buffer(buf, 0), handler({}, 0));
    });
  }

  void run()
  {
    testSpecialMembers();
    testRead();
    testWrite();
    testConnect();
    testMembers();
    testJavadocs();
    testIssue1589();

#if BOOST_ASIO_HAS_CO_AWAIT
    // test for compilation success only
    boost::ignore_unused(&basic_stream_test::testAwaitableCompilation);
#endif
    boost::ignore_unused(&basic_stream_test::testConnectionConditionArgs);
    testIssue2065();
  }
};

// ASIO_NOTIFY: the suite is asio_notify.beast.basic_stream (Beast's: beast.core.basic_stream).
BEAST_DEFINE_TESTSUITE(asio_notify, beast, basic_stream);

} // namespace beast
} // namespace asio_notify
} // namespace boost
