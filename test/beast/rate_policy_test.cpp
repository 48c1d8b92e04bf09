//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// boost::asio_notify::beast::basic_stream's rate limits where they differ from Beast's own
// stream (doc/beast.md, "Where it differs from Beast's"): cancel() leaves the limit working,
// and an operation cancelled while it waits for allowance takes its timeout with it. Beast
// 1.81-1.90 fails both (checked by hand against boost::beast::basic_stream), so these cases
// run on the library's stream only.
#include <boost/asio_notify/beast.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <string>
#include <thread>

namespace {

namespace asio = boost::asio;
namespace beast = boost::asio_notify::beast;
using tcp = boost::asio_notify::ip::tcp;
using boost::system::error_code;
using limited_stream = beast::basic_stream<tcp, asio::any_io_executor, beast::simple_rate_policy>;

// A stream connected over loopback to a peer that reads and discards on its own thread.
struct connected
{
  connected() : acceptor(ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)), stream(ioc)
  {
    stream.connect(acceptor.local_endpoint());
    acceptor.accept(peer);
    reader = std::thread([this] {
      char discarded[4096];
      error_code ec;
      while (!ec)
        peer.read_some(asio::buffer(discarded), ec);
    });
  }

  ~connected()
  {
    stream.close();
    reader.join();
  }

  asio::io_context ioc;
  tcp::acceptor acceptor;
  tcp::socket peer{ioc};
  limited_stream stream;
  std::thread reader;
};

// Writes `data` with async_write, counting in `writes` the write_some operations it takes,
// then closes the stream (which stops its rate tick) and sets `result`.
void write_counting(limited_stream& stream, const std::string& data, std::size_t& writes,
                    error_code& result)
{
  asio::async_write(
      stream, asio::buffer(data),
      [&data, &writes](const error_code& ec, std::size_t done) -> std::size_t {
        if (ec || done == data.size())
          return 0;
        ++writes;
        return data.size() - done;
      },
      [&stream, &result](const error_code& ec, std::size_t) {
        result = ec;
        stream.close();
      });
}

} // namespace

BOOST_AUTO_TEST_CASE(cancel_leaves_the_rate_limit_working)
{
  connected c;
  c.stream.rate_policy().write_limit(1000);
  const std::string data(2500, 'x');
  std::size_t writes = 0;
  error_code first, second;
  // The first write starts the one-second tick; cancel() then cancels it, with nothing else
  // pending. Beast's stream never counts the cancelled tick out, so its policy is never
  // refilled and the second write goes one byte at a time (2,001 writes).
  asio::async_write(c.stream, asio::buffer(data), [&](const error_code& ec, std::size_t) {
    first = ec;
    c.stream.cancel();
    asio::post(c.ioc, [&] { write_counting(c.stream, data, writes, second); });
  });
  c.ioc.run();
  BOOST_TEST(!first);
  BOOST_TEST(!second);
  BOOST_TEST(writes <= 4u, "2,500 bytes at 1,000 bytes/s took " << writes << " writes");
}

BOOST_AUTO_TEST_CASE(an_operation_cancelled_while_waiting_for_allowance_ends_its_timeout)
{
  connected c;
  c.stream.rate_policy().write_limit(10);
  const std::string data(20, 'x');
  error_code filled, waiting_result;
  asio::steady_timer cancel_timer(c.ioc);
  // 20 bytes at 10 per second: the write spends the first second's allowance and the
  // second's, leaving none; the next write waits for the tick, watched by a timeout.
  asio::async_write(c.stream, asio::buffer(data), [&](const error_code& ec, std::size_t) {
    filled = ec;
    c.stream.expires_after(std::chrono::milliseconds(300));
    c.stream.async_write_some(asio::buffer(data),
                              [&](const error_code& ec2, std::size_t) { waiting_result = ec2; });
    cancel_timer.expires_after(std::chrono::milliseconds(20));
    cancel_timer.async_wait([&](const error_code&) { c.stream.cancel(); });
  });
  // Well past the timeout: Beast's stream has closed the socket by then, with no operation
  // pending.
  c.ioc.run_until(std::chrono::steady_clock::now() + std::chrono::milliseconds(700));
  const bool open_after_timeout = c.stream.socket().is_open();
  c.stream.close();
  c.ioc.run();
  BOOST_TEST(!filled);
  BOOST_TEST(waiting_result == asio::error::operation_aborted);
  BOOST_TEST(open_after_timeout);
}
