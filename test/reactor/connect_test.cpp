//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The free connect and async_connect functions, every overload of Asio's: endpoint
// sequences and iterator ranges (and the legacy lone iterator where Asio has it), with and
// without a connect condition, sync with error_code and throwing, async with a callback,
// use_future and deferred; results, errors and cancellation, on real loopback sockets.
#include "helpers.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/deferred.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/asio/version.hpp>

#include <future>
#include <iterator>
#include <string>
#include <type_traits>
#include <vector>

#if !defined(BOOST_ASIO_NO_DEPRECATED) && BOOST_ASIO_VERSION < 103300
#define TEST_LEGACY_ITERATOR_CONNECT 1 // Asio's lone-iterator forms (removed in Asio 1.33)
#endif

namespace {

using endpoints = std::vector<tcp::endpoint>;
using iterator = endpoints::const_iterator;

// A loopback listener and a port that refuses (bound, never listening), kept while in scope.
struct peers
{
  explicit peers(asio::io_context& ioc)
      : acceptor(ioc, loopback_tcp()), other_acceptor(ioc, loopback_tcp()),
        refusing_holder(ioc, loopback_tcp())
  {
  }
  tcp::endpoint good() const { return acceptor.local_endpoint(); }
  tcp::endpoint other_good() const { return other_acceptor.local_endpoint(); }
  tcp::endpoint refusing() const { return refusing_holder.local_endpoint(); }

  tcp::acceptor acceptor;
  tcp::acceptor other_acceptor;
  tcp::socket refusing_holder;
};

// A condition recording what it was asked; skips `skip`.
struct recording_condition
{
  std::vector<error_code>* errors;
  std::vector<tcp::endpoint>* asked;
  tcp::endpoint skip;

  bool operator()(const error_code& ec, const tcp::endpoint& next) const
  {
    errors->push_back(ec);
    asked->push_back(next);
    return next != skip;
  }
};

// The result of one async_connect, captured by a callback.
template <typename Result>
struct connect_result
{
  int calls = 0;
  error_code ec;
  Result value{};

  auto handler()
  {
    return [this](error_code e, Result r) {
      ++calls;
      ec = e;
      value = std::move(r);
    };
  }
  bool done() const { return calls > 0; }
};

// Every test's context, listeners and refusing port.
struct loopback_fixture
{
  asio::io_context ioc;
  peers p{ioc};
};

template <typename Result>
bool run_until_done(asio::io_context& ioc, const connect_result<Result>& r)
{
  return run_until(ioc, [&] { return r.done(); });
}

template <typename Result>
void check_connected_once(const connect_result<Result>& r, const Result& expected)
{
  BOOST_TEST(r.calls == 1);
  CHECK_OK(r.ec);
  BOOST_TEST((r.value == expected));
}

template <typename T>
T future_value(asio::io_context& ioc, std::future<T>& f)
{
  BOOST_REQUIRE(run_until(ioc, [&] { return f.wait_for(0s) == std::future_status::ready; }));
  // The composed operation's last step, on the future's thread, gives the io_context's work
  // back only when it is destroyed, after it has set the value (Asio's composed_work): run
  // until it has, or the test case's end could destroy the io_context under it.
  ioc.restart();
  ioc.run_for(10s);
  return f.get();
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(free_connect, loopback_fixture)

// ---- types -----------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(result_types)
{
  tcp::socket s(ioc);
  const endpoints v;
  static_assert(std::is_same_v<decltype(sockets::connect(s, v)), tcp::endpoint>);
  static_assert(std::is_same_v<decltype(sockets::connect(s, v.begin(), v.end())), iterator>);
  static_assert(
      std::is_same_v<decltype(sockets::connect(s, v, std::declval<recording_condition>())),
                     tcp::endpoint>);
  static_assert(std::is_same_v<decltype(sockets::connect(s, v.begin(), v.end(),
                                                         std::declval<recording_condition>())),
                               iterator>);
  static_assert(std::is_same_v<decltype(sockets::async_connect(s, v, asio::use_future)),
                               std::future<tcp::endpoint>>);
  static_assert(
      std::is_same_v<decltype(sockets::async_connect(s, v.begin(), v.end(), asio::use_future)),
                     std::future<iterator>>);
  static_assert(std::is_same_v<decltype(sockets::async_connect(
                                   s, v, std::declval<recording_condition>(), asio::use_future)),
                               std::future<tcp::endpoint>>);
  static_assert(std::is_same_v<decltype(sockets::async_connect(s, v.begin(), v.end(),
                                                               std::declval<recording_condition>(),
                                                               asio::use_future)),
                               std::future<iterator>>);
}

// ---- connect over a sequence -----------------------------------------------------------------

BOOST_AUTO_TEST_CASE(sequence_first_refuses_second_accepts)
{
  const endpoints v{p.refusing(), p.good()};

  tcp::socket s1(ioc);
  error_code ec = asio::error::would_block;
  BOOST_TEST(sockets::connect(s1, v, ec) == p.good());
  CHECK_OK(ec);
  BOOST_TEST(s1.remote_endpoint() == p.good());

  tcp::socket s2(ioc);
  BOOST_TEST(sockets::connect(s2, v) == p.good());
  BOOST_TEST(s2.remote_endpoint() == p.good());
}

BOOST_AUTO_TEST_CASE(sequence_errors)
{
  tcp::socket s(ioc);
  error_code ec;

  // Every endpoint refuses: the last attempt's error, a default endpoint.
  const endpoints bad{p.refusing(), p.refusing()};
  BOOST_TEST(sockets::connect(s, bad, ec) == tcp::endpoint());
  CHECK_EC(ec, asio::error::connection_refused);
  CHECK_THROWS_EC(sockets::connect(s, bad), asio::error::connection_refused);

  // Nothing to try.
  const endpoints none;
  BOOST_TEST(sockets::connect(s, none, ec) == tcp::endpoint());
  CHECK_EC(ec, asio::error::not_found);
  CHECK_THROWS_EC(sockets::connect(s, none), asio::error::not_found);
}

BOOST_AUTO_TEST_CASE(resolver_results)
{
  tcp::resolver resolver(ioc);
  const auto results = resolver.resolve("127.0.0.1", std::to_string(p.good().port()));

  tcp::socket s1(ioc);
  BOOST_TEST(sockets::connect(s1, results) == p.good());
  tcp::socket s2(ioc);
  const auto it = sockets::connect(s2, results.begin(), results.end());
  BOOST_REQUIRE(it != results.end());
  BOOST_TEST(it->endpoint() == p.good());
  BOOST_TEST(s2.remote_endpoint() == p.good());

  const auto refused = resolver.resolve("127.0.0.1", std::to_string(p.refusing().port()));
  tcp::socket s3(ioc);
  error_code ec;
  BOOST_TEST((sockets::connect(s3, refused.begin(), refused.end(), ec) == refused.end()));
  CHECK_EC(ec, asio::error::connection_refused);
}

BOOST_AUTO_TEST_CASE(socket_closed_before_each_attempt)
{
  // Bound to a port of its own: the close before the attempt drops that binding.
  tcp::socket s(ioc, loopback_tcp());
  const auto bound = s.local_endpoint();
  const endpoints v{p.good()};
  BOOST_TEST(sockets::connect(s, v) == p.good());
  BOOST_TEST(s.local_endpoint() != bound);
}

// ---- connect over iterators ------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(iterator_range)
{
  const endpoints v{p.refusing(), p.good()};

  tcp::socket s1(ioc);
  error_code ec;
  BOOST_TEST((sockets::connect(s1, v.begin(), v.end(), ec) == v.begin() + 1));
  CHECK_OK(ec);
  tcp::socket s2(ioc);
  BOOST_TEST((sockets::connect(s2, v.begin(), v.end()) == v.begin() + 1));
  BOOST_TEST(s2.remote_endpoint() == p.good());

  // Failure gives `end`: the last error, or not_found for an empty range.
  tcp::socket s3(ioc);
  BOOST_TEST((sockets::connect(s3, v.begin(), v.begin() + 1, ec) == v.begin() + 1));
  CHECK_EC(ec, asio::error::connection_refused);
  CHECK_THROWS_EC(sockets::connect(s3, v.begin(), v.begin() + 1), asio::error::connection_refused);
  BOOST_TEST((sockets::connect(s3, v.end(), v.end(), ec) == v.end()));
  CHECK_EC(ec, asio::error::not_found);
  CHECK_THROWS_EC(sockets::connect(s3, v.end(), v.end()), asio::error::not_found);
}

#if defined(TEST_LEGACY_ITERATOR_CONNECT)
BOOST_AUTO_TEST_CASE(legacy_lone_iterator)
{
  tcp::resolver resolver(ioc);
  const auto results = resolver.resolve("127.0.0.1", std::to_string(p.good().port()));
  using resolver_iterator = tcp::resolver::results_type::const_iterator;

  tcp::socket s1(ioc);
  error_code ec;
  const resolver_iterator it1 = sockets::connect(s1, results.begin(), ec);
  CHECK_OK(ec);
  BOOST_REQUIRE(it1 != resolver_iterator());
  BOOST_TEST(it1->endpoint() == p.good());
  tcp::socket s2(ioc);
  BOOST_TEST(sockets::connect(s2, results.begin())->endpoint() == p.good());

  // With a condition that rejects everything: nothing tried.
  const auto reject = [](const error_code&, const tcp::endpoint&) {
    return false;
  };
  tcp::socket s3(ioc);
  BOOST_TEST((sockets::connect(s3, results.begin(), reject, ec) == resolver_iterator()));
  CHECK_EC(ec, asio::error::not_found);
  CHECK_THROWS_EC(sockets::connect(s3, results.begin(), reject), asio::error::not_found);
  const auto accept = [](const error_code&, const tcp::endpoint&) {
    return true;
  };
  tcp::socket s4(ioc);
  BOOST_TEST(sockets::connect(s4, results.begin(), accept)->endpoint() == p.good());

  // Asynchronously.
  tcp::socket s5(ioc), s6(ioc);
  connect_result<resolver_iterator> r5, r6;
  sockets::async_connect(s5, results.begin(), r5.handler());
  sockets::async_connect(s6, results.begin(), reject, r6.handler());
  BOOST_TEST(run_until(ioc, [&] { return r5.done() && r6.done(); }));
  CHECK_OK(r5.ec);
  BOOST_TEST(r5.value->endpoint() == p.good());
  CHECK_EC(r6.ec, asio::error::not_found);
  BOOST_TEST((r6.value == resolver_iterator()));
}
#endif

// ---- connect conditions ----------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(condition_skips_and_sees_last_error)
{
  const endpoints v{p.refusing(), p.good(), p.other_good()};
  std::vector<error_code> errors;
  endpoints asked;

  // Skips the first good one: the refused attempt, then the other good one.
  tcp::socket s1(ioc);
  error_code ec;
  BOOST_TEST(sockets::connect(s1, v, recording_condition{&errors, &asked, p.good()}, ec) ==
             p.other_good());
  CHECK_OK(ec);
  BOOST_TEST(s1.remote_endpoint() == p.other_good());
  BOOST_TEST((asked == v));
  BOOST_REQUIRE(errors.size() == 3u);
  CHECK_OK(errors[0]);
  CHECK_EC(errors[1], asio::error::connection_refused);
  CHECK_EC(errors[2], asio::error::connection_refused); // still the last attempt's

  // Iterator form, throwing.
  tcp::socket s2(ioc);
  BOOST_TEST((sockets::connect(s2, v.begin(), v.end(),
                               recording_condition{&errors, &asked, p.good()}) == v.begin() + 2));
}

BOOST_AUTO_TEST_CASE(condition_rejecting_reports)
{
  const endpoints v{p.refusing(), p.good()};
  tcp::socket s(ioc);
  error_code ec;

  // Nothing accepted: not_found.
  const auto reject = [](const error_code&, const tcp::endpoint&) {
    return false;
  };
  BOOST_TEST(sockets::connect(s, v, reject, ec) == tcp::endpoint());
  CHECK_EC(ec, asio::error::not_found);
  CHECK_THROWS_EC(sockets::connect(s, v, reject), asio::error::not_found);
  BOOST_TEST((sockets::connect(s, v.begin(), v.end(), reject, ec) == v.end()));
  CHECK_EC(ec, asio::error::not_found);
  CHECK_THROWS_EC(sockets::connect(s, v.begin(), v.end(), reject), asio::error::not_found);

  // A refused attempt, then the rest rejected: the attempt's error, not not_found.
  const auto only_first = [first = p.refusing()](const error_code&, const tcp::endpoint& e) {
    return e == first;
  };
  BOOST_TEST(sockets::connect(s, v, only_first, ec) == tcp::endpoint());
  CHECK_EC(ec, asio::error::connection_refused);
  CHECK_THROWS_EC(sockets::connect(s, v.begin(), v.end(), only_first),
                  asio::error::connection_refused);
}

BOOST_AUTO_TEST_CASE(legacy_condition_returns_next_iterator)
{
  const endpoints v{p.good(), p.other_good()};
  // Skips straight past the first endpoint.
  const auto skip_first = [&v](const error_code&, iterator next) -> iterator {
    return next == v.begin() ? next + 1 : next;
  };
  tcp::socket s(ioc);
  error_code ec;
  BOOST_TEST((sockets::connect(s, v.begin(), v.end(), skip_first, ec) == v.begin() + 1));
  CHECK_OK(ec);
  BOOST_TEST(s.remote_endpoint() == p.other_good());
}

// ---- async_connect: callbacks ----------------------------------------------------------------

BOOST_AUTO_TEST_CASE(async_every_form_with_callbacks)
{
  const endpoints v{p.refusing(), p.good(), p.other_good()};
  std::vector<error_code> errors;
  endpoints asked;

  tcp::socket s1(ioc), s2(ioc), s3(ioc), s4(ioc);
  connect_result<tcp::endpoint> r1, r3;
  connect_result<iterator> r2, r4;
  sockets::async_connect(s1, v, r1.handler());
  sockets::async_connect(s2, v.begin(), v.end(), r2.handler());
  sockets::async_connect(s3, v, recording_condition{&errors, &asked, p.good()}, r3.handler());
  sockets::async_connect(s4, v.begin(), v.end(), recording_condition{&errors, &asked, p.good()},
                         r4.handler());
  BOOST_TEST(r1.calls + r2.calls + r3.calls + r4.calls == 0); // never from the initiation
  BOOST_TEST(run_until(ioc, [&] { return r1.done() && r2.done() && r3.done() && r4.done(); }));
  drain(ioc);

  check_connected_once(r1, p.good());
  BOOST_TEST(s1.remote_endpoint() == p.good());
  check_connected_once(r2, iterator(v.begin() + 1));
  check_connected_once(r3, p.other_good());
  BOOST_TEST(s3.remote_endpoint() == p.other_good());
  check_connected_once(r4, iterator(v.begin() + 2));

  // The conditions saw: clear, then the refused attempt's error, twice each.
  BOOST_REQUIRE(errors.size() == 6u);
  int refused = 0, clear = 0;
  for (const auto& e : errors)
  {
    clear += !e;
    refused += e == error_code(asio::error::connection_refused);
  }
  BOOST_TEST(clear == 2);
  BOOST_TEST(refused == 4);
}

BOOST_AUTO_TEST_CASE(async_errors)
{
  const endpoints bad{p.refusing(), p.refusing()};
  const endpoints none;
  const auto reject = [](const error_code&, const tcp::endpoint&) {
    return false;
  };

  tcp::socket s1(ioc), s2(ioc), s3(ioc), s4(ioc), s5(ioc);
  connect_result<tcp::endpoint> r1, r3, r5;
  connect_result<iterator> r2, r4;
  sockets::async_connect(s1, bad, r1.handler());
  sockets::async_connect(s2, bad.begin(), bad.end(), r2.handler());
  sockets::async_connect(s3, none, r3.handler());
  sockets::async_connect(s4, bad.begin(), bad.end(), reject, r4.handler());
  sockets::async_connect(s5, bad, reject, r5.handler());
  BOOST_TEST(r1.calls + r2.calls + r3.calls + r4.calls + r5.calls == 0);
  BOOST_TEST(run_until(
      ioc, [&] { return r1.done() && r2.done() && r3.done() && r4.done() && r5.done(); }));
  drain(ioc);

  CHECK_EC(r1.ec, asio::error::connection_refused);
  BOOST_TEST(r1.value == tcp::endpoint());
  CHECK_EC(r2.ec, asio::error::connection_refused);
  BOOST_TEST((r2.value == bad.end()));
  CHECK_EC(r3.ec, asio::error::not_found);
  BOOST_TEST(r3.value == tcp::endpoint());
  CHECK_EC(r4.ec, asio::error::not_found);
  BOOST_TEST((r4.value == bad.end()));
  CHECK_EC(r5.ec, asio::error::not_found);
  BOOST_TEST(r1.calls + r2.calls + r3.calls + r4.calls + r5.calls == 5);
}

BOOST_AUTO_TEST_CASE(async_resolver_results)
{
  tcp::resolver resolver(ioc);
  const auto results = resolver.resolve("127.0.0.1", std::to_string(p.good().port()));
  using resolver_iterator = tcp::resolver::results_type::const_iterator;

  tcp::socket s1(ioc), s2(ioc);
  connect_result<tcp::endpoint> r1;
  connect_result<resolver_iterator> r2;
  sockets::async_connect(s1, results, r1.handler());
  sockets::async_connect(s2, results.begin(), results.end(), r2.handler());
  BOOST_TEST(run_until(ioc, [&] { return r1.done() && r2.done(); }));
  CHECK_OK(r1.ec);
  BOOST_TEST(r1.value == p.good());
  CHECK_OK(r2.ec);
  BOOST_REQUIRE(r2.value != results.end());
  BOOST_TEST(r2.value->endpoint() == p.good());
}

// ---- async_connect: use_future and deferred --------------------------------------------------

BOOST_AUTO_TEST_CASE(async_use_future)
{
  const endpoints v{p.refusing(), p.good()};
  const endpoints bad{p.refusing()};
  const auto skip_good = [good = p.good()](const error_code&, const tcp::endpoint& e) {
    return e != good;
  };

  tcp::socket s1(ioc), s2(ioc), s3(ioc), s4(ioc), s5(ioc);
  auto f1 = sockets::async_connect(s1, v, asio::use_future);
  BOOST_TEST(future_value(ioc, f1) == p.good());
  auto f2 = sockets::async_connect(s2, v.begin(), v.end(), asio::use_future);
  BOOST_TEST((future_value(ioc, f2) == v.begin() + 1));
  auto f3 = sockets::async_connect(s3, v, skip_good, asio::use_future);
  CHECK_THROWS_EC(future_value(ioc, f3), asio::error::connection_refused);
  auto f4 = sockets::async_connect(s4, v.begin(), v.end(), skip_good, asio::use_future);
  CHECK_THROWS_EC(future_value(ioc, f4), asio::error::connection_refused);
  auto f5 = sockets::async_connect(s5, bad, asio::use_future);
  CHECK_THROWS_EC(future_value(ioc, f5), asio::error::connection_refused);
}

BOOST_AUTO_TEST_CASE(async_deferred)
{
  const endpoints v{p.refusing(), p.good()};
  const auto accept = [](const error_code&, const tcp::endpoint&) {
    return true;
  };

  tcp::socket s1(ioc), s2(ioc), s3(ioc), s4(ioc);
  auto d1 = sockets::async_connect(s1, v, asio::deferred);
  auto d2 = sockets::async_connect(s2, v.begin(), v.end(), asio::deferred);
  auto d3 = sockets::async_connect(s3, v, accept, asio::deferred);
  auto d4 = sockets::async_connect(s4, v.begin(), v.end(), accept, asio::deferred);
  drain(ioc);
  BOOST_TEST(!s1.is_open()); // nothing started until the deferred operations are invoked
  connect_result<tcp::endpoint> r1, r3;
  connect_result<iterator> r2, r4;
  std::move(d1)(r1.handler());
  std::move(d2)(r2.handler());
  std::move(d3)(r3.handler());
  std::move(d4)(r4.handler());
  BOOST_TEST(run_until(ioc, [&] { return r1.done() && r2.done() && r3.done() && r4.done(); }));
  CHECK_OK(r1.ec);
  BOOST_TEST(r1.value == p.good());
  CHECK_OK(r2.ec);
  BOOST_TEST((r2.value == v.begin() + 1));
  CHECK_OK(r3.ec);
  BOOST_TEST(r3.value == p.good());
  CHECK_OK(r4.ec);
  BOOST_TEST((r4.value == v.begin() + 1));
}

// ---- async_connect: cancellation and close ---------------------------------------------------

BOOST_AUTO_TEST_CASE(async_terminal_cancellation_stops)
{
  const endpoints v{p.refusing(), p.good()};

  tcp::socket s1(ioc), s2(ioc);
  asio::cancellation_signal sig1, sig2;
  connect_result<tcp::endpoint> r1;
  connect_result<iterator> r2;
  sockets::async_connect(s1, v, asio::bind_cancellation_slot(sig1.slot(), r1.handler()));
  sockets::async_connect(s2, v.begin(), v.end(),
                         asio::bind_cancellation_slot(sig2.slot(), r2.handler()));
  sig1.emit(asio::cancellation_type::terminal);
  sig2.emit(asio::cancellation_type::partial);
  BOOST_TEST(run_until(ioc, [&] { return r1.done() && r2.done(); }));
  CHECK_EC(r1.ec, asio::error::operation_aborted);
  BOOST_TEST(r1.value == tcp::endpoint());
  CHECK_EC(r2.ec, asio::error::operation_aborted);
  BOOST_TEST((r2.value == v.begin())); // the endpoint being tried
}

BOOST_AUTO_TEST_CASE(async_total_cancellation_ignored)
{
  const endpoints v{p.refusing(), p.good()};
  tcp::socket s(ioc);
  asio::cancellation_signal sig;
  connect_result<tcp::endpoint> r;
  sockets::async_connect(s, v, asio::bind_cancellation_slot(sig.slot(), r.handler()));
  sig.emit(asio::cancellation_type::total);
  BOOST_TEST(run_until_done(ioc, r));
  CHECK_OK(r.ec);
  BOOST_TEST(r.value == p.good());
}

BOOST_AUTO_TEST_CASE(async_close_aborts)
{
  const endpoints v{p.refusing(), p.good()};
  tcp::socket s(ioc);
  connect_result<iterator> r;
  sockets::async_connect(s, v.begin(), v.end(), r.handler());
  s.close();
  BOOST_TEST(run_until_done(ioc, r));
  drain(ioc);
  BOOST_TEST(r.calls == 1);
  CHECK_EC(r.ec, asio::error::operation_aborted);
  BOOST_TEST((r.value == v.begin()));
}

BOOST_AUTO_TEST_SUITE_END()
