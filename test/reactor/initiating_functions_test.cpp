//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Initiating functions are declared as Asio's are:
// - the return type is named in the declaration (`async_initiate`'s type for the completion
//   signature), so it is known without instantiating the function body: the checks below ask
//   for it with a token whose `initiate` must never be instantiated;
// - with C++20 each token is constrained by the completion signature
//   (`completion_token_for`), so a handler of the wrong signature removes the function from
//   overload resolution instead of failing inside the library: the concept checks below
//   would not compile against unconstrained functions.
// The same file builds as C++17 and C++20, and against stock Asio (the default variant).
#include "helpers.hpp"

#include <boost/asio/async_result.hpp>

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace {

/// What an initiating function returns for the tokens below: the completion signature it
/// was started with (in the type) and whether its handler ran.
template <class Signature>
struct recorded
{
  std::shared_ptr<bool> completed;
};

/// Starts the operation with a handler that records its completion.
struct recording_token
{
};

/// A token whose `initiate` fails to compile when instantiated: only its declared return
/// type may be asked for.
struct declared_only_token
{
};

using wrong_handler = void (*)(std::string);
using wait_handler = void (*)(error_code);
using io_handler = void (*)(error_code, std::size_t);
using tcp_accept_handler = void (*)(error_code, tcp::socket);

} // namespace

template <class Signature>
class boost::asio::async_result<recording_token, Signature>
{
public:
  template <class Initiation, class... Args>
  static recorded<Signature> initiate(Initiation&& initiation, recording_token, Args&&... args)
  {
    recorded<Signature> result{std::make_shared<bool>(false)};
    std::forward<Initiation>(initiation)(
        [completed = result.completed](auto&&...) { *completed = true; },
        std::forward<Args>(args)...);
    return result;
  }
};

template <class Signature>
class boost::asio::async_result<declared_only_token, Signature>
{
public:
  template <class Initiation, class... Args>
  static recorded<Signature> initiate(Initiation&&, declared_only_token, Args&&...)
  {
    static_assert(sizeof(Initiation) == 0, "only the declared return type may be asked for");
    return {};
  }
};

namespace {

/// The type `call` returns, and the signature it declares, for `Token`: spelled once per
/// initiating function below.
template <class Signature, class Result>
constexpr bool declares = std::is_same_v<Result, recorded<Signature>>;

using wait_signature = void(error_code);
/// The socket the move-accept forms create for an io_context's executor.
using io_context_socket = tcp::socket::rebind_executor<asio::io_context::executor_type>::other;
using io_signature = void(error_code, std::size_t);

// Each initiating function, called in an unevaluated context with a token of type `Token`.
#define INITIATING_FUNCTIONS(X)                                                                    \
  X(socket_async_wait, tcp::socket, async_wait(tcp::socket::wait_read, TOKEN), wait_signature)     \
  X(socket_async_connect, tcp::socket, async_connect(tcp::endpoint(), TOKEN), wait_signature)      \
  X(stream_async_send, tcp::socket, async_send(asio::const_buffer(), TOKEN), io_signature)         \
  X(stream_async_send_flags, tcp::socket, async_send(asio::const_buffer(), 0, TOKEN),              \
    io_signature)                                                                                  \
  X(stream_async_write_some, tcp::socket, async_write_some(asio::const_buffer(), TOKEN),           \
    io_signature)                                                                                  \
  X(stream_async_receive, tcp::socket, async_receive(asio::mutable_buffer(), TOKEN), io_signature) \
  X(stream_async_receive_flags, tcp::socket, async_receive(asio::mutable_buffer(), 0, TOKEN),      \
    io_signature)                                                                                  \
  X(stream_async_read_some, tcp::socket, async_read_some(asio::mutable_buffer(), TOKEN),           \
    io_signature)                                                                                  \
  X(datagram_async_send, udp::socket, async_send(asio::const_buffer(), TOKEN), io_signature)       \
  X(datagram_async_send_to, udp::socket,                                                           \
    async_send_to(asio::const_buffer(), udp::endpoint(), TOKEN), io_signature)                     \
  X(datagram_async_receive, udp::socket, async_receive(asio::mutable_buffer(), TOKEN),             \
    io_signature)                                                                                  \
  X(datagram_async_receive_from, udp::socket,                                                      \
    async_receive_from(asio::mutable_buffer(), std::declval<udp::endpoint&>(), TOKEN),             \
    io_signature)                                                                                  \
  X(acceptor_async_wait, tcp::acceptor, async_wait(tcp::acceptor::wait_read, TOKEN),               \
    wait_signature)                                                                                \
  X(acceptor_async_accept_into, tcp::acceptor, async_accept(std::declval<tcp::socket&>(), TOKEN),  \
    wait_signature)                                                                                \
  X(acceptor_async_accept_into_endpoint, tcp::acceptor,                                            \
    async_accept(std::declval<tcp::socket&>(), std::declval<tcp::endpoint&>(), TOKEN),             \
    wait_signature)                                                                                \
  X(acceptor_async_accept_new, tcp::acceptor, async_accept(TOKEN), void(error_code, tcp::socket))  \
  X(acceptor_async_accept_new_endpoint, tcp::acceptor,                                             \
    async_accept(std::declval<tcp::endpoint&>(), TOKEN), void(error_code, tcp::socket))            \
  X(acceptor_async_accept_on_executor, tcp::acceptor,                                              \
    async_accept(std::declval<asio::io_context::executor_type>(), TOKEN),                          \
    void(error_code, io_context_socket))                                                           \
  X(acceptor_async_accept_on_context, tcp::acceptor,                                               \
    async_accept(std::declval<asio::io_context&>(), TOKEN), void(error_code, io_context_socket))

// With the completion signature declared: the return type is the token's async_result type,
// found from the declaration alone. Stock Asio declares it from 1.84 (before, its initiating
// functions deduce the type from their bodies in C++14 and later).
#if !defined(BOOST_ASIO_NOTIFY_DEFAULT_BACKEND) || BOOST_ASIO_VERSION >= 102900
#define TOKEN declared_only_token()
#define DECLARES_ITS_RESULT(name, Object, call, Signature)                                         \
  static_assert(declares<Signature, decltype(std::declval<Object&>().call)>,                       \
                #name " declares its result");
INITIATING_FUNCTIONS(DECLARES_ITS_RESULT)
#undef DECLARES_ITS_RESULT
#undef TOKEN
static_assert(
    declares<void(error_code, tcp::endpoint),
             decltype(sockets::async_connect(std::declval<tcp::socket&>(),
                                             std::declval<const std::vector<tcp::endpoint>&>(),
                                             declared_only_token()))>,
    "the free async_connect declares its result");
#endif

// With concepts: a handler of the right signature is accepted, one of the wrong signature
// takes the function out of overload resolution.
#if defined(BOOST_ASIO_HAS_CONCEPTS)
#define TOKEN std::forward<Token>(token)
#define ACCEPTS(name, Object, call, Signature)                                                     \
  template <class Token>                                                                           \
  concept name##_accepts = requires(Object& object, Token&& token)                                 \
  {                                                                                                \
    object.call;                                                                                   \
  };                                                                                               \
  static_assert(name##_accepts<std::add_pointer_t<Signature>>, #name " accepts its handler");      \
  static_assert(!name##_accepts<wrong_handler>, #name " rejects a handler of another signature");
INITIATING_FUNCTIONS(ACCEPTS)
#undef ACCEPTS
#undef TOKEN

template <class Token>
concept free_async_connect_accepts = requires(tcp::socket& s,
                                              const std::vector<tcp::endpoint>& endpoints,
                                              Token&& token)
{
  sockets::async_connect(s, endpoints, std::forward<Token>(token));
};
static_assert(free_async_connect_accepts<void (*)(error_code, tcp::endpoint)>);
static_assert(!free_async_connect_accepts<wrong_handler>);
#endif

} // namespace

BOOST_AUTO_TEST_SUITE(initiating_functions)

// A token's own async_result type is what the initiating functions return, with the
// completion signature they declare, and it starts the real operation.
BOOST_AUTO_TEST_CASE(custom_async_result_types_are_returned_and_started)
{
  asio::io_context ioc;
  tcp::acceptor acceptor(ioc, loopback_tcp());
  tcp::socket client(ioc);

  auto accepted = acceptor.async_accept(recording_token());
  static_assert(declares<void(error_code, tcp::socket), decltype(accepted)>);
  auto connected = client.async_connect(acceptor.local_endpoint(), recording_token());
  static_assert(declares<wait_signature, decltype(connected)>);
  BOOST_TEST_REQUIRE(run_until(ioc, [&] { return *accepted.completed && *connected.completed; }));

  const char byte = 'x';
  auto written = client.async_write_some(asio::buffer(&byte, 1), recording_token());
  static_assert(declares<io_signature, decltype(written)>);
  auto writable = client.async_wait(tcp::socket::wait_write, recording_token());
  static_assert(declares<wait_signature, decltype(writable)>);
  BOOST_TEST(run_until(ioc, [&] { return *written.completed && *writable.completed; }));

  udp::socket a(ioc, loopback_udp());
  udp::socket b(ioc, loopback_udp());
  char datagram[1];
  udp::endpoint sender;
  auto received = b.async_receive_from(asio::buffer(datagram), sender, recording_token());
  auto sent = a.async_send_to(asio::buffer(&byte, 1), b.local_endpoint(), recording_token());
  static_assert(declares<io_signature, decltype(received)>);
  static_assert(declares<io_signature, decltype(sent)>);
  BOOST_TEST(run_until(ioc, [&] { return *received.completed && *sent.completed; }));
}

BOOST_AUTO_TEST_SUITE_END()
