//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
/** @file
    The notify reactor: the `execution_context` service that runs this library's sockets on
    a notification port, its options (`reactor_options`, parsed from
    `BOOST_ASIO_NOTIFY_REACTOR`) and its counters (doc/design.md). */
#ifndef BOOST_ASIO_NOTIFY_REACTOR_HPP
#define BOOST_ASIO_NOTIFY_REACTOR_HPP

#include <boost/asio_notify/adversary.hpp>
#include <boost/asio_notify/detail/config.hpp>
#include <boost/asio_notify/port.hpp>

#include <boost/asio/execution_context.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace boost {
namespace asio_notify {

/// @cond
namespace detail {
class reactor_core;
} // namespace detail
/// @endcond

/// How the reactor registers sockets with the notification port (`reactor_options::trigger`;
/// `trigger=` in `parse_reactor_options`).
enum class trigger_strategy
{
  /// One-shot level-triggered registrations, re-armed after each packet while operations
  /// remain: the pattern Microsoft recommends for several dequeuing threads.
  oneshot_level,

  /// Persistent edge-triggered registrations made once per socket and never re-armed:
  /// fewer system calls; operations are performed until they would block.
  persistent_edge
};

/** Where the port's packets are dequeued.

    The reactor runs the driver asked for where the context can host it, else the next in
    this order: `io_context_port` (Windows), `inline_driver`, `inline_portable` (Linux),
    `thread`; `reactor::options().driver` tells which one runs, and
    `reactor_statistics::driver_note` why it is not the one asked for. The inline drivers need an `io_context` (its executor, or a strand
    of it) whose reactor is Asio's epoll reactor; with its per-descriptor locking off
    (`BOOST_ASIO_CONCURRENCY_HINT_UNSAFE_IO`, `reactor.io_locking=0`) they keep to Asio's
    rule for that setting: one thread at a time. The `thread` driver posts from its own
    threads, so it needs the context's scheduler locking (not
    `BOOST_ASIO_CONCURRENCY_HINT_UNSAFE`). */
enum class driver_kind
{
  /// By the io_context's own threads, through an operation of the io_context's own epoll
  /// reactor: no extra thread, no extra system call. A batch of several packets is shared
  /// with the io_context's other threads. Where Boost's reactor internals have
  /// the shape this driver was written for (checked at compile time; Boost 1.81 to 1.90).
  inline_driver,

  /// By reactor threads that block in the port and hand each dequeued batch to the
  /// sockets' io_context (or thread pool), whose threads perform the I/O and run the
  /// handlers; with an executor of another kind, the reactor thread performs the I/O and
  /// posts the handlers.
  thread,

  /// By the io_context's own threads, through a public `async_wait` on the port's
  /// descriptor: one `epoll_ctl` more per wake-up than `inline_driver`. Needs the
  /// io_context executor's `on_work_finished()` (not with `BOOST_ASIO_NO_TS_EXECUTORS`).
  inline_portable,

  /// Windows, on the AFD backend: each socket's poll (`IOCTL_AFD_POLL`) is issued on a helper
  /// handle associated with the io_context's own completion port, as an operation that
  /// `io_context::run()` dequeues and completes itself: no reactor thread, no second port,
  /// no hand-off. A poll in flight counts as the io_context's work, as Asio's own overlapped
  /// operations do. Registrations are one-shot level (`trigger` reports it). Needs an
  /// io_context (its executor, or a strand of it) on Asio's completion-port scheduler, of
  /// the shape checked at compile time (Boost 1.81 to 1.90); the default where the system
  /// has no `ProcessSocketNotifications` (Windows 10, Server 2019, Wine).
  io_context_port
};

/// The driver's name as `parse_reactor_options` spells it: `inline` (for
/// `inline_driver`), `inline_portable`, `thread` or `io_context_port`.
BOOST_ASIO_NOTIFY_DECL const char* to_string(driver_kind d) noexcept;

/// This platform's default trigger strategy: `persistent_edge` on Linux (no re-arming
/// system call per operation), `oneshot_level` on Windows (Microsoft's recommendation).
BOOST_ASIO_NOTIFY_DECL trigger_strategy default_trigger_strategy() noexcept;

/// This platform's default driver: `inline_driver` on Linux; on Windows `thread` where the
/// port's automatic backend is PSN, `io_context_port` where it is AFD (the one asked for:
/// see `driver_kind` for what runs where it cannot).
BOOST_ASIO_NOTIFY_DECL driver_kind default_driver_kind() noexcept;

/// How many reactor threads the `thread` driver runs unless told: one per 8 hardware
/// threads, at least 1 and at most 4 (they only dequeue and hand batches over).
BOOST_ASIO_NOTIFY_DECL std::size_t default_reactor_threads() noexcept;

/** Settings of a reactor, fixed when the reactor is created. Each member starts at this
    platform's default.

    @par Example
    @code
    boost::asio_notify::reactor_options options;
    options.driver = boost::asio_notify::driver_kind::thread;
    options.threads = 2;
    boost::asio::make_service<boost::asio_notify::reactor>(ioc, options); // before any socket
    @endcode */
struct reactor_options
{
  /// How sockets are registered.
  trigger_strategy trigger = default_trigger_strategy();

  /// Where packets are dequeued.
  driver_kind driver = default_driver_kind();

  /// How many packets one dequeue takes at most; positive.
  std::size_t batch_size = 64;

  /// How many reactor threads the `thread` driver runs (each blocks in the port and hands
  /// the packets it dequeues to the sockets' execution context); positive.
  std::size_t threads = default_reactor_threads();

  /// Which system facility the reactor's port is built on (see `port_backend`; on Windows
  /// `psn` or `afd`, chosen automatically by default). `reactor::options()` reports the one
  /// the port runs on, never `automatic`.
  port_backend backend = port_backend::automatic;

  /// With the `io_context_port` driver (Windows): a stream read that would block goes on as
  /// an overlapped receive into its own buffers, completed by the io_context's `run()` with
  /// no readiness wait and no second call, as Asio's own reads are. The socket is then
  /// associated with the io_context's completion port for good, as Asio's own sockets are
  /// (a released handle cannot be given to another io_context). False: reads wait for
  /// readiness, as with every other driver. Ignored by the other drivers.
  bool overlapped_receives = true;

  /// With the `io_context_port` driver (Windows): a stream write goes on as an overlapped
  /// send from its own buffers, completed by the io_context's `run()`, as Asio's own writes
  /// are: no non-blocking try first, and no completion posted after it. The socket is
  /// associated with the io_context's port as for `overlapped_receives`. False: writes are
  /// tried at once and wait for readiness when they would block, as with every other
  /// driver. Ignored by the other drivers.
  bool overlapped_sends = true;

  /// For tests: the adversities the reactor's port produces (adversary.hpp); when empty,
  /// those of `BOOST_ASIO_NOTIFY_ADVERSARY` (`adversary_from_environment()`).
  /// `reactor::options()` reports the ones in force.
  std::optional<adversary_options> adversary;
};

/** Options parsed from a specification such as
    `"driver=thread,trigger=oneshot_level,batch=128,threads=2"`, every key optional and
    starting from `base`. Keys: `driver` (`inline`, `inline_portable`, `thread` or
    `io_context_port`), `trigger`
    (`oneshot_level` or `persistent_edge`), `batch` and `threads` (positive integers),
    `backend` (`automatic`, `psn`, `afd` or `epoll`), `receives` and `sends`
    (`overlapped` or `readiness`: `overlapped_receives`, `overlapped_sends`), `adversary` (kinds joined with `+`,
    or `all` or `none`: see `parse_adversary_options`) and `adversary_seed`. Empty items are skipped; a later key
    overrides an earlier one.

    @param spec The specification: comma-separated `key=value` items.
    @param base The options the specification starts from.

    @returns `base` with the specification's settings applied.

    @throws boost::system::system_error Thrown with `invalid_argument` for an unknown key
    or value, an item without `=`, or a count that is not a positive integer (at most
    2^20); the message names the variable `BOOST_ASIO_NOTIFY_REACTOR` and the bad part.

    @par Example
    @code
    auto options = boost::asio_notify::parse_reactor_options("driver=thread,threads=2");
    @endcode */
BOOST_ASIO_NOTIFY_DECL reactor_options parse_reactor_options(const std::string& spec,
                                                             reactor_options base = {});

/// The name of the environment variable read by `reactor_options_from_environment`.
constexpr const char* reactor_options_variable = "BOOST_ASIO_NOTIFY_REACTOR";

/** Options from the environment variable `BOOST_ASIO_NOTIFY_REACTOR` (see
    `parse_reactor_options`), or `base` when it is not set. The reactor a socket creates
    takes its options from here.

    @param base The options the variable's settings start from.
    @returns The options.
    @throws boost::system::system_error Thrown with `invalid_argument` for a bad value. */
BOOST_ASIO_NOTIFY_DECL reactor_options reactor_options_from_environment(reactor_options base = {});

/// Counters of a reactor's activity since it was created, read with
/// `reactor::statistics()`.
struct reactor_statistics
{
  std::uint64_t registered_sockets = 0; ///< Sockets registered with the port now.
  std::uint64_t packets_dequeued = 0;   ///< Packets taken from the port so far.
  std::uint64_t wakeups = 0;            ///< Dequeue rounds that returned packets.
  /// Packets whose operations were performed by an io_context thread other than the one
  /// that dequeued them: a batch shared by the io_context's threads, or handed to them by
  /// a reactor thread. Zero where nothing is shared (one packet per wake-up, or no
  /// execution context to hand to).
  std::uint64_t packets_handed_over = 0;
  /// Looks into the port by the `thread` driver's io threads: an io thread that has done its
  /// share of a batch dequeues without waiting, so that what its own handlers made ready is
  /// performed without a reactor thread's hand-over (the packets it finds count in
  /// `packets_dequeued`, not in `packets_handed_over`). Zero with the inline drivers.
  std::uint64_t io_thread_looks = 0;
  std::uint64_t operations_completed = 0; ///< Operations whose handler was scheduled.
  /// Stream reads that went on as overlapped receives into their own buffers, completed
  /// through the io_context's port (`reactor_options::overlapped_receives`); zero with every
  /// driver but `io_context_port`.
  std::uint64_t overlapped_receives = 0;
  /// Stream writes that went on as overlapped sends from their own buffers
  /// (`reactor_options::overlapped_sends`); zero with every driver but `io_context_port`.
  std::uint64_t overlapped_sends = 0;
  /// Packets dropped because the socket they name was closed since: its state's slot is
  /// free, or another socket's (a key names a slot and its generation, never an address).
  std::uint64_t stale_packets_dropped = 0;
  /// Socket states allocated: one per open socket, and the slots of closed ones, kept for
  /// reuse until the reactor is destroyed (they are not freed before: see
  /// `stale_packets_dropped`).
  std::uint64_t socket_states_allocated = 0;
  /// Why the reactor runs otherwise than its options asked (another driver, or another
  /// trigger strategy: `reactor::options()` says which), in a sentence; null when it runs as
  /// asked, or before its first socket chose the driver.
  const char* driver_note = nullptr;
};

/** The notify reactor: an execution context service that runs the readiness and the
    asynchronous operations of this library's sockets on a notification port.

    It is created on first use by the sockets of an execution context, with options from
    `reactor_options_from_environment()`. To choose options in code, create it before
    any socket: `boost::asio::make_service<boost::asio_notify::reactor>(ioc, options)`.

    It shuts down with its execution context: reactor threads are joined and pending
    operations are destroyed without their handlers being invoked.

    @par Thread safety
    `options()` and `statistics()` may be called from any thread.

    @par Example
    @code
    boost::asio::io_context ioc;
    boost::asio_notify::reactor_options options;
    options.trigger = boost::asio_notify::trigger_strategy::oneshot_level;
    auto& reactor = boost::asio::make_service<boost::asio_notify::reactor>(ioc, options);
    // ... sockets on ioc ...
    std::cout << to_string(reactor.options().driver) << ' '
              << reactor.statistics().operations_completed << '\n';
    @endcode */
class reactor : public boost::asio::execution_context::service
{
public:
  /// The service's identifier within its execution context.
  BOOST_ASIO_NOTIFY_DECL static boost::asio::execution_context::id id;

  /** Create the reactor with options from `reactor_options_from_environment()`. Called by
      `boost::asio::use_service`, which the context's first socket calls.

      @param context The execution context the reactor serves.
      @throws boost::system::system_error Thrown with `invalid_argument` for a bad
      `BOOST_ASIO_NOTIFY_REACTOR`, or when the port cannot be created (see the other
      constructor). */
  BOOST_ASIO_NOTIFY_DECL explicit reactor(boost::asio::execution_context& context);

  /** Create the reactor with the given options; call it through
      `boost::asio::make_service<reactor>(context, options)` before the context's first
      socket.

      @param context The execution context the reactor serves.
      @param options The reactor's settings.

      @throws boost::system::system_error Thrown when the port cannot be created
      (`operation_not_supported` for a backend this system lacks) or for bad options
      (`invalid_argument` for a zero `batch_size` or `threads`). */
  BOOST_ASIO_NOTIFY_DECL reactor(boost::asio::execution_context& context, reactor_options options);

  /// Destroys the reactor; the context has shut it down already.
  BOOST_ASIO_NOTIFY_DECL ~reactor() override;

  /// The options the reactor runs with (a copy: callable from any thread, also while the
  /// first socket settles the driver). The driver is the one that runs, which differs from
  /// the one asked for where the context cannot host it (see `driver_kind`); it is final
  /// once the first socket of the context has been created. The backend is the one the
  /// port runs on (never `automatic`), and the adversary the one in force.
  BOOST_ASIO_NOTIFY_DECL reactor_options options() const;

  /// A snapshot of the reactor's counters; callable from any thread.
  BOOST_ASIO_NOTIFY_DECL reactor_statistics statistics() const noexcept;

  /// The machinery behind the library's I/O objects (declared in detail/); not for
  /// application use.
  detail::reactor_core& core() noexcept { return *core_; }

private:
  BOOST_ASIO_NOTIFY_DECL void shutdown() override;

  std::unique_ptr<detail::reactor_core> core_;
};

} // namespace asio_notify
} // namespace boost

#endif
