//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// asio_notify_bench: every scenario on stock Boost.Asio and on the notify reactor (in each
// of its driver/trigger configurations) in one invocation: each measurement in a child
// process of its own, after a warm-up, the backends in a shuffled order each round. See
// README.md.
//
//   asio_notify_bench [--quick] [--out DIR] [--rounds N] [--seed N] [--only LIST] [--no-variants]
//                     [--psn-double]   (Windows builds with the tests' PSN double)
//   asio_notify_bench --scaling [--threads 1,2,4,8,16] [--quick] [--out DIR] [--rounds N] [--seed N]
//                     [--no-variants]
//
// Exit status: 0 when every scenario ran and produced sane numbers, whatever the timings;
// 1 when one failed; 2 for a bad command line.

#include "process.hpp"
#include "report.hpp"
#include "scenarios.hpp"

#include <boost/asio_notify/ip/tcp.hpp>
#include <boost/asio_notify/port.hpp>
#include <boost/asio_notify/reactor.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/version.hpp>

#if defined(BOOST_ASIO_NOTIFY_BENCH_PSN_DOUBLE)
#include "psn_double.hpp" // test/windows: ProcessSocketNotifications where Wine has none
#endif

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <iostream>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <mutex>
#include <thread>
#include <vector>

namespace {

using namespace bench;
namespace an = boost::asio_notify;

// ---- configuration ------------------------------------------------------------------------

// Message sizes, the same in this process and in the `--child` ones.
constexpr std::size_t latency_message = 64;
constexpr std::size_t throughput_message = 16 * 1024;
constexpr std::size_t max_io_threads = 1024; // for --threads

struct config
{
  bool quick = false;
  bool scaling = false;              // --scaling
  int rounds = 7;                    // 7: the median's 95 % interval is the rounds' range
  int deterministic_rounds = 3;      // system call counts barely vary
  std::optional<std::uint64_t> seed; // --seed: of the backends' order; else a random one
  std::string out = "bench_results";
  bool variants = true;
  bool psn_double = false;    // --psn-double: install the test double where there is no PSN
  std::set<std::string> only; // empty: every scenario
  std::vector<std::size_t> io_threads_asked{1, 2, 4, 8, 16}; // --scaling --threads
  std::vector<std::size_t> io_threads;                       // those measured: capped, unique

  std::uint64_t latency_round_trips = 100000;
  std::uint64_t latency_warmup = 5000;                // untimed round trips before the timed ones
  std::chrono::milliseconds latency_time_limit{3000}; // for configurations 10x slower
  std::size_t throughput_connections = 256;
  std::chrono::milliseconds throughput_duration{2000};
  std::vector<std::size_t> throughput_threads{1, 2};
  std::size_t storm_sockets = 10000;
  std::size_t storm_subset = 1000;
  std::size_t storm_phases = 200;
  std::size_t write_storm_sockets = 1000; // many times FD_SETSIZE (64 on Windows)
  std::size_t write_storm_phases = 200;
  std::size_t idle_connections = 10000;
  std::uint64_t syscall_round_trips = 10000;

  void make_scaling()
  {
    scaling = true;
    rounds = 3;
    throughput_connections = 512;
  }

  void make_quick()
  {
    quick = true;
    rounds = 1;
    deterministic_rounds = 1;
    latency_round_trips = 2000;
    latency_warmup = 200;
    latency_time_limit = std::chrono::milliseconds(1000);
    throughput_connections = 32;
    throughput_duration = std::chrono::milliseconds(200);
    storm_sockets = 400;
    storm_subset = 100;
    storm_phases = 5;
    write_storm_sockets = 200;
    write_storm_phases = 5;
    idle_connections = 400;
    syscall_round_trips = 1000;
  }

  bool wants(const std::string& scenario) const
  {
    return only.empty() || only.count(scenario) != 0;
  }
};

// ---- backends -------------------------------------------------------------------------------

/// Whether this Windows program runs under Wine (whose ntdll exports wine_get_version), and
/// which Wine; "" on Windows and elsewhere.
std::string wine_version()
{
#if defined(_WIN32)
  const HMODULE ntdll = ::GetModuleHandleA("ntdll.dll");
  const FARPROC f = ntdll ? ::GetProcAddress(ntdll, "wine_get_version") : nullptr;
  if (!f)
    return "";
  using version_fn = const char* (*)();
  // Through void(*)(), which every compiler accepts as a generic function pointer.
  const char* v = reinterpret_cast<version_fn>(reinterpret_cast<void (*)()>(f))();
  return std::string("Wine ") + (v ? v : "");
#else
  return "";
#endif
}

/// Whether the PSN rows run on the test double (--psn-double where the system has no PSN).
bool psn_on_double = false;

#if defined(BOOST_ASIO_NOTIFY_BENCH_PSN_DOUBLE)
/// Set for the child processes of a run on the double, which install it too.
const char* const psn_double_variable = "BOOST_ASIO_NOTIFY_BENCH_PSN_DOUBLE";

void install_psn_double()
{
  psn_double::install(); // for every port created from now on
  psn_on_double = true;
}
#endif

/// The backend the notify reactor picks by default here (`automatic`), or `automatic`
/// when it cannot run at all.
an::port_backend automatic_backend()
{
#if defined(_WIN32)
  try
  {
    boost::asio::io_context ioc;
    return boost::asio::make_service<an::reactor>(ioc, an::reactor_options{}).options().backend;
  }
  catch (const std::exception&)
  {
    return an::port_backend::automatic;
  }
#else
  return an::port_backend::automatic; // epoll, left unnamed in the rows on Linux
#endif
}

/// Why a port on `b` cannot be created here, or "" when it can.
std::string unsupported_cause(an::port_backend b)
{
  if (an::is_supported(b))
    return "";
  try
  {
    static_cast<void>(an::port(b)); // throws, saying why
  }
  catch (const std::exception& e)
  {
    return std::string("this system lacks ") +
           (b == an::port_backend::automatic ? "socket state notifications" : an::to_string(b)) +
           ": " + e.what();
  }
  return std::string("this system lacks ") + an::to_string(b);
}

/// "driver=...,trigger=...", preceded by "backend=...," when a backend is named (Windows).
std::string options_spec(const an::reactor_options& o)
{
  return (o.backend == an::port_backend::automatic
              ? std::string()
              : std::string("backend=") + an::to_string(o.backend) + ",") +
         "driver=" + an::to_string(o.driver) + ",trigger=" +
         (o.trigger == an::trigger_strategy::persistent_edge ? "persistent_edge" : "oneshot_level");
}

/// `o` on the notify reactor. Rows for a named backend (Windows: psn, afd) name it, and
/// the default one is the backend `automatic` picks here.
backend notify_backend(const an::reactor_options& o,
                       an::port_backend default_backend = an::port_backend::automatic)
{
  const an::reactor_options defaults;
  backend b;
  b.notify = true;
  b.options = o;
  b.is_default =
      o.driver == defaults.driver && o.trigger == defaults.trigger && o.backend == default_backend;
  b.id = "notify:" + options_spec(o);
  std::string on;
  if (o.backend != an::port_backend::automatic)
    on = std::string(an::to_string(o.backend)) +
         (o.backend == an::port_backend::psn && psn_on_double ? " (double)" : "") + " ";
  b.label = "notify " + on + an::to_string(o.driver) + "/" +
            (o.trigger == an::trigger_strategy::persistent_edge ? "edge" : "oneshot") +
            (b.is_default ? " (default)" : "");
  return b;
}

/// The driver a reactor on `port` gets by default: on Windows, the thread driver on PSN and
/// io_context_port on AFD (reactor.hpp, default_driver_kind).
an::driver_kind default_driver_on(an::port_backend port)
{
#if defined(_WIN32)
  return port == an::port_backend::psn ? an::driver_kind::thread : an::driver_kind::io_context_port;
#else
  static_cast<void>(port);
  return an::default_driver_kind();
#endif
}

/** Stock Asio, then the notify reactor's default configuration, then the other ones. On
    Windows the notify rows come for each port backend, PSN and AFD (the default
    configuration on each, then the variants on each); elsewhere the one backend (epoll)
    goes unnamed. */
std::vector<backend> make_backends(bool variants)
{
  std::vector<backend> all;
  backend stock;
  stock.id = "stock";
#if defined(_WIN32)
  stock.label = "stock Asio (IOCP)";
  const an::port_backend ports[] = {an::port_backend::psn, an::port_backend::afd};
  // inline needs a POSIX io_context; io_context_port polls on AFD, one-shot level
  const an::driver_kind drivers[] = {an::driver_kind::thread, an::driver_kind::io_context_port};
#else
  stock.label = "stock Asio (epoll)";
  const an::port_backend ports[] = {an::port_backend::automatic};
  const an::driver_kind drivers[] = {an::driver_kind::inline_driver,
                                     an::driver_kind::inline_portable, an::driver_kind::thread};
#endif
  all.push_back(stock);
  const an::port_backend default_backend = automatic_backend();
  an::reactor_options defaults;
  for (auto port : ports)
  {
    defaults.backend = port;
    defaults.driver = default_driver_on(port);
    all.push_back(notify_backend(defaults, default_backend));
  }
  if (variants)
    for (auto port : ports)
      for (auto driver : drivers)
        for (auto trigger :
             {an::trigger_strategy::persistent_edge, an::trigger_strategy::oneshot_level})
        {
          an::reactor_options o = defaults;
          o.backend = port;
          o.driver = driver;
          o.trigger = trigger;
          const bool runs_as_asked =
              driver != an::driver_kind::io_context_port ||
              (port == an::port_backend::afd && trigger == an::trigger_strategy::oneshot_level);
          if (runs_as_asked && !(driver == default_driver_on(port) && trigger == defaults.trigger))
            all.push_back(notify_backend(o, default_backend));
        }
  return all;
}

/// The backend an id names ("stock" or "notify:<spec>"), for child processes.
backend backend_from_id(const std::string& id)
{
  if (id == "stock")
    return make_backends(false).front();
  if (id.compare(0, 7, "notify:") != 0)
    throw std::invalid_argument("unknown backend " + id);
  return notify_backend(an::parse_reactor_options(id.substr(7)), automatic_backend());
}

template <class Protocol>
struct protocol_tag
{
  using type = Protocol;
};

std::vector<std::string> driver_warnings;
an::reactor_statistics last_statistics; // of the last notify run of on_backend

std::string describe(const an::reactor_statistics& s)
{
  std::ostringstream out;
  out << "packets " << s.packets_dequeued << ", wake-ups " << s.wakeups << ", handed over "
      << s.packets_handed_over << ", io thread looks " << s.io_thread_looks << ", operations "
      << s.operations_completed;
  if (s.operations_completed)
    out << ", packets/operation "
        << static_cast<double>(s.packets_dequeued) / static_cast<double>(s.operations_completed);
  return out.str();
}

/** Run `f(ioc, protocol_tag<Tcp>)` on a fresh io_context whose sockets are `b`'s: stock
    Asio's, or the notify reactor's, installed with b's options before any socket exists
    (which throws, operation_not_supported, for a backend this system lacks). A run on
    another port backend than the one asked for is that run's failure. */
template <class F>
auto on_backend(const backend& b, F&& f)
{
  boost::asio::io_context ioc;
  if (!b.notify)
    return f(ioc, protocol_tag<boost::asio::ip::tcp>{});
  auto& reactor = boost::asio::make_service<an::reactor>(ioc, b.options);
  auto result = f(ioc, protocol_tag<an::ip::tcp>{});
  last_statistics = reactor.statistics();
  const an::reactor_options used = reactor.options();
  if (used.driver != b.options.driver)
    driver_warnings.push_back(b.label + " ran with another driver than asked for");
  if (b.options.backend != an::port_backend::automatic && used.backend != b.options.backend &&
      result.error.empty())
    result.error = std::string("ran on the ") + an::to_string(used.backend) +
                   " backend, not on the " + an::to_string(b.options.backend) + " one asked for";
  return result;
}

// ---- one measurement on one backend ---------------------------------------------------------

/// "a/b/c" -> {"a", "b", "c"}; "" -> {""}.
std::vector<std::string> split(const std::string& s, char separator)
{
  std::vector<std::string> fields;
  std::istringstream in(s);
  for (std::string field; std::getline(in, field, separator);)
    fields.push_back(field);
  if (fields.empty() || (!s.empty() && s.back() == separator))
    fields.emplace_back();
  return fields;
}

/// The fields of a child's count ("a/b/c"), as numbers; those missing are 0.
std::vector<std::uint64_t> count_fields(const std::string& count, std::size_t n)
{
  std::vector<std::uint64_t> v(n, 0);
  const std::vector<std::string> f = split(count, '/');
  for (std::size_t i = 0; i < n && i < f.size(); ++i)
    v[i] = f[i].empty() ? 0 : std::stoull(f[i]);
  return v;
}

/// "a/b/c" from the numbers a, b, c.
std::string count_of(std::initializer_list<std::uint64_t> fields)
{
  std::string count;
  for (std::uint64_t f : fields)
    count += (count.empty() ? "" : "/") + std::to_string(f);
  return count;
}

struct throughput_params
{
  std::size_t connections = 256;
  std::chrono::milliseconds duration{2000};
  std::size_t threads = 2;

  /// The count of `--child throughput`: milliseconds[/threads[/connections]].
  std::string child_count() const
  {
    return count_of({static_cast<std::uint64_t>(duration.count()), threads, connections});
  }

  static throughput_params from_child_count(const std::string& count)
  {
    const std::vector<std::uint64_t> f = count_fields(count, 3);
    throughput_params p;
    p.duration = std::chrono::milliseconds(f[0]);
    p.threads = f[1] ? f[1] : p.threads;
    p.connections = f[2] ? f[2] : p.connections;
    return p;
  }
};

struct latency_params
{
  std::uint64_t round_trips = 100000;
  std::chrono::milliseconds time_limit = std::chrono::hours(24);
  std::size_t threads = 1;
  std::uint64_t warmup = 0; // untimed round trips first, on the same io_context

  /// The count of `--child pingpong`: round trips[/threads[/time limit in ms[/warm-up]]].
  std::string child_count() const
  {
    return count_of({round_trips, threads, static_cast<std::uint64_t>(time_limit.count()), warmup});
  }

  static latency_params from_child_count(const std::string& count)
  {
    const std::vector<std::uint64_t> f = count_fields(count, 4);
    latency_params p;
    p.round_trips = f[0];
    p.threads = f[1] ? f[1] : p.threads;
    p.time_limit = f[2] ? std::chrono::milliseconds(f[2]) : p.time_limit;
    p.warmup = f[3];
    return p;
  }
};

/// The async_wait storms: the read storm writes to `subset` sockets a phase; the write
/// storm (`write`) waits on every socket every phase.
struct storm_params
{
  bool write = false;
  std::size_t sockets = 10000;
  std::size_t subset = 1000;
  std::size_t phases = 200;

  const char* child_mode() const { return write ? "write_storm" : "storm"; }

  /// The count of `--child storm` (sockets[/subset[/phases]]) or `--child write_storm`
  /// (sockets[/phases]).
  std::string child_count() const
  {
    return write ? count_of({sockets, phases}) : count_of({sockets, subset, phases});
  }

  /// Missing fields: a tenth of the sockets written a phase, 200 phases.
  static storm_params from_child_count(bool write, const std::string& count)
  {
    const std::vector<std::uint64_t> f = count_fields(count, write ? 2 : 3);
    storm_params p;
    p.write = write;
    p.sockets = f[0];
    p.subset = write ? 0 : f[1] ? f[1] : std::max<std::size_t>(p.sockets / 10, 1);
    p.phases = f.back() ? f.back() : p.phases;
    return p;
  }
};

/** The throughput scenario on `b`, in this process, after a warm-up of a quarter of the
    duration (at most 500 ms) on the same io_context and connections' kind. */
throughput_result throughput_on(const backend& b, const throughput_params& p)
{
  return on_backend(b, [&](auto& ioc, auto tag) {
    using tcp = typename decltype(tag)::type;
    const auto warmup = std::min(p.duration / 4, std::chrono::milliseconds(500));
    throughput_result w =
        run_throughput<tcp>(ioc, p.connections, throughput_message, warmup, p.threads);
    if (!w.error.empty())
      return w;
    ioc.restart();
    return run_throughput<tcp>(ioc, p.connections, throughput_message, p.duration, p.threads);
  });
}

/// The ping-pong scenario on `b`, in this process, every round trip timed after p.warmup
/// untimed ones.
latency_result latency_on(const backend& b, const latency_params& p)
{
  return on_backend(b, [&](auto& ioc, auto tag) {
    using tcp = typename decltype(tag)::type;
    if (p.warmup != 0)
    {
      latency_result w =
          run_latency<tcp>(ioc, p.warmup, latency_message, false, p.time_limit, p.threads);
      if (!w.error.empty())
        return w;
      ioc.restart();
    }
    const long long switched_before = voluntary_switches();
    latency_result r =
        run_latency<tcp>(ioc, p.round_trips, latency_message, true, p.time_limit, p.threads);
    const long long switched_after = voluntary_switches();
    if (switched_before >= 0 && switched_after >= 0 && r.round_trips != 0)
      r.switches_per_round_trip = static_cast<double>(switched_after - switched_before) /
                                  static_cast<double>(r.round_trips);
    return r;
  });
}

/// The read or the write storm on `b`, in this process; the first phase of each warms up.
storm_result storm_on(const backend& b, const storm_params& p)
{
  return on_backend(b, [&](auto& ioc, auto tag) {
    using tcp = typename decltype(tag)::type;
    return p.write ? run_write_storm<tcp>(ioc, p.sockets, p.phases)
                   : run_storm<tcp>(ioc, p.sockets, p.subset, p.phases);
  });
}

/** `--child <what> <b.id> <count>` in a process of its own. Its standard output and error
    go to `output`; its warnings (lines "warning: ...") to driver_warnings. Returns why
    it failed, or "". */
std::string run_child(const std::string& what, const backend& b, const std::string& count,
                      std::string& output)
{
  const int status = run_self({"--child", what, b.id, count}, &output);
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);)
    if (line.compare(0, 9, "warning: ") == 0)
      driver_warnings.push_back(line.substr(9));
  if (status == 0)
    return "";
  const std::size_t end = output.find_last_not_of(" \n\r\t");
  return "child exited with " + std::to_string(status) + ": " +
         output.substr(0, end == std::string::npos ? 0 : end + 1);
}

/// The number after `<key>=` in a child's output, or NaN.
double output_value(const std::string& output, const std::string& key)
{
  const auto at = output.find(key + "=");
  if (at == std::string::npos)
    return NAN;
  const char* begin = output.c_str() + at + key.size() + 1;
  char* end = nullptr;
  const double v = std::strtod(begin, &end);
  return end == begin ? NAN : v;
}

/** A measurement in a child process of its own (`--child what`), so that no measurement
    inherits another's heap or threads; in this process (`local()`) where there are no
    children. `read(output, result)` takes the figures from the child's output, and the
    result fails when `key` is not among them. */
template <class Result, class Local, class Read>
Result isolated(const char* what, const backend& b, const std::string& count, const char* key,
                Local local, Read read)
{
  if (!can_spawn_children())
    return local();
  Result r;
  std::string output;
  r.error = run_child(what, b, count, output);
  read(output, r);
  if (r.error.empty() && std::isnan(output_value(output, key)))
    r.error = std::string("no ") + key + " in the child's output: " + output;
  return r;
}

throughput_result throughput_isolated(const backend& b, const throughput_params& p)
{
  return isolated<throughput_result>(
      "throughput", b, p.child_count(), "MB/s", [&] { return throughput_on(b, p); },
      [](const std::string& out, throughput_result& r) { r.mb_per_s = output_value(out, "MB/s"); });
}

latency_result latency_isolated(const backend& b, const latency_params& p)
{
  return isolated<latency_result>(
      "pingpong", b, p.child_count(), "p99_us", [&] { return latency_on(b, p); },
      [](const std::string& out, latency_result& r) {
        r.mean_us = output_value(out, "mean_us");
        r.p50_us = output_value(out, "p50_us");
        r.p99_us = output_value(out, "p99_us");
        r.switches_per_round_trip = output_value(out, "switches_per_round_trip");
        const double made = output_value(out, "round_trips");
        r.round_trips = std::isnan(made) ? 0 : static_cast<std::uint64_t>(made);
      });
}

storm_result storm_isolated(const backend& b, const storm_params& p)
{
  return isolated<storm_result>(
      p.child_mode(), b, p.child_count(), "events_per_s", [&] { return storm_on(b, p); },
      [](const std::string& out, storm_result& r) {
        r.events_per_s = output_value(out, "events_per_s");
        r.spurious = static_cast<std::uint64_t>(std::max(0.0, output_value(out, "spurious")));
        r.peers_in_child = output_value(out, "peers_in_child") == 1;
      });
}

// ---- running rounds ---------------------------------------------------------------------------

std::vector<std::string> failures;

std::mutex activity_mutex;
std::string activity = "starting"; // what the run is doing, for the quick mode's deadline

void set_activity(std::string what)
{
  std::lock_guard<std::mutex> lock(activity_mutex);
  activity = std::move(what);
}

/** --quick: a run not done after `limit` is stuck somewhere no scenario's own guard
    reaches (a teardown, say); say where, and exit with 1 before ctest's time-out kills it
    without a word. */
void start_quick_deadline(std::chrono::seconds limit)
{
  std::thread([limit] {
    std::this_thread::sleep_for(limit);
    std::string where;
    {
      std::lock_guard<std::mutex> lock(activity_mutex);
      where = activity;
    }
    std::cout << std::flush;
    std::cerr << "\nasio_notify_bench: FAILED: quick run not done after " << limit.count()
              << " s, stuck in: " << where << std::endl;
    std::_Exit(1);
  }).detach();
}

/// Whether `b` is the notify reactor as Windows configures it by default on the port it
/// runs on (the thread driver on PSN, io_context_port on AFD; one-shot level). On Linux,
/// the stand-in of PSN's: the thread driver, one-shot level.
bool is_windows_default(const backend& b)
{
#if defined(_WIN32)
  const an::driver_kind driver = default_driver_on(b.options.backend);
#else
  const an::driver_kind driver = an::driver_kind::thread;
#endif
  return b.notify && b.options.driver == driver &&
         b.options.trigger == an::trigger_strategy::oneshot_level;
}

/** A metric with a row per backend. The default configuration's row gets `target` (its
    bound on the ratio to stock), a row of the Windows default configuration (which is
    the default one on Windows) `windows_target` where there is one; 0: none. */
metric make_metric(const std::vector<backend>& backends, std::string key, std::string title,
                   std::string unit, bool lower_is_better, double target, double windows_target = 0)
{
  metric m;
  m.key = std::move(key);
  m.title = std::move(title);
  m.unit = std::move(unit);
  m.lower_is_better = lower_is_better;
  for (const backend& b : backends)
  {
    row r;
    r.on = &b;
    if (b.notify)
      r.note = unsupported_cause(b.options.backend);
    r.target = is_windows_default(b) && windows_target > 0 ? windows_target
               : b.is_default                              ? target
                                                           : 0;
    m.rows.push_back(r);
  }
  return m;
}

std::mt19937_64 backend_order; // seeded from the printed seed

/// The seed of backend_order: `asked`, or a random one; printed, so that --seed repeats it.
std::uint64_t seed_backend_order(std::optional<std::uint64_t> asked)
{
  std::random_device entropy;
  const std::uint64_t seed =
      asked ? *asked
            : std::uniform_int_distribution<std::uint32_t>(1, UINT32_MAX)(entropy); // as --seed
  backend_order.seed(seed);
  std::cout << "backend order: shuffled in each round, seed " << seed << '\n';
  return seed;
}

/** `rounds` rounds; in each, `one(backend, round)` on every backend, in an order shuffled
    anew each round (backend_order), so that no backend runs in the same place each time.
    `one` returns an error or "", and files its samples under the round (rows pair by it). */
void run_rounds(const char* scenario, int rounds, const std::vector<backend>& backends,
                const std::function<std::string(std::size_t, int)>& one)
{
  std::vector<std::size_t> order(backends.size());
  for (int round = 0; round < rounds; ++round)
  {
    std::cout << scenario << ", round " << round + 1 << '/' << rounds << ':' << std::flush;
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::shuffle(order.begin(), order.end(), backend_order);
    for (const std::size_t i : order)
    {
      if (backends[i].notify && !an::is_supported(backends[i].options.backend))
        continue; // reported as n/a, with the cause
      std::string error;
      set_activity(std::string(scenario) + " on " + backends[i].label);
      try
      {
        error = one(i, round);
      }
      catch (const std::exception& e)
      {
        error = e.what();
      }
      if (!error.empty())
      {
        failures.push_back(std::string(scenario) + " on " + backends[i].label + ": " + error);
        std::cout << "\n  FAILED on " << backends[i].label << ": " << error << '\n';
      }
      std::cout << '.' << std::flush;
    }
    std::cout << '\n';
  }
}

/// ", 2 threads"; "" for 0 (the thread count is given elsewhere).
std::string threads_text(std::size_t threads)
{
  return threads == 0 ? ""
                      : ", " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

std::string latency_unit(const config& c, std::size_t threads)
{
  return std::to_string(latency_message) + " B messages, 1 connection, " +
         std::to_string(c.latency_round_trips) + " round trips" + threads_text(threads);
}

std::string throughput_unit(const config& c, std::size_t threads)
{
  return "MB/s echoed to the clients; " + std::to_string(c.throughput_connections) +
         " connections, " + std::to_string(throughput_message / 1024) + " KiB messages" +
         threads_text(threads) + ", " + std::to_string(c.throughput_duration.count()) + " ms";
}

/// The backends that a time limit stopped short of the round trips asked for, for a note.
class shortfall
{
public:
  void record(const std::string& label, std::uint64_t made, std::uint64_t asked)
  {
    if (made >= asked)
      return;
    auto [it, fresh] = fewest_.emplace(label, made);
    if (!fresh)
      it->second = std::min(it->second, made);
  }

  std::string note(std::chrono::milliseconds limit) const
  {
    std::string note;
    for (const auto& [label, made] : fewest_)
      note += std::string(note.empty() ? "" : "; ") + label + ": stopped by the " +
              std::to_string(limit.count()) + " ms limit after " + std::to_string(made) +
              " round trips (fewest)";
    return note;
  }

private:
  std::map<std::string, std::uint64_t> fewest_; // label -> fewest round trips made
};

void latency_scenario(const config& c, const std::vector<backend>& backends,
                      std::vector<metric>& out)
{
  metric mean = make_metric(backends, "latency_mean_us", "ping-pong latency, mean",
                            "us per round trip; " + latency_unit(c, 1), true, 1.05, 1.30);
  metric p50 = make_metric(backends, "latency_p50_us", "ping-pong latency, p50", "us", true, 0);
  metric p99 =
      make_metric(backends, "latency_p99_us", "ping-pong latency, p99", "us", true, 0, 1.30);
  // What carries over from Wine to Windows, where timings do not: how often a round trip
  // puts a thread to sleep (the reactor thread's hand-off costs a wake on each side).
  metric switches =
      make_metric(backends, "switches_per_round_trip", "context switches per round trip",
                  "voluntary, of this process's live threads (/proc/self/task/*/status; under Wine "
                  "through Z:), in the measured run",
                  true, 0);
  switches.may_be_zero = true;
  const latency_params params{c.latency_round_trips, c.latency_time_limit, 1, c.latency_warmup};
  shortfall limited;
  run_rounds("ping-pong latency", c.rounds, backends, [&](std::size_t i, int round) {
    const latency_result r = latency_isolated(backends[i], params);
    if (r.error.empty())
    {
      limited.record(backends[i].label, r.round_trips, params.round_trips);
      mean.rows[i].add(round, r.mean_us);
      p50.rows[i].add(round, r.p50_us);
      p99.rows[i].add(round, r.p99_us);
      if (std::isnan(r.switches_per_round_trip))
        switches.rows[i].note = "not counted: no /proc/self/task (Linux's, or Wine's Z:)";
      else
        switches.rows[i].add(round, std::round(r.switches_per_round_trip * 100) / 100);
    }
    return r.error;
  });
  mean.note = limited.note(c.latency_time_limit);
  out.push_back(mean);
  out.push_back(p50);
  out.push_back(p99);
  out.push_back(switches);
}

void throughput_scenario(const config& c, const std::vector<backend>& backends, std::size_t threads,
                         std::vector<metric>& out)
{
  const std::string title = "echo throughput" + threads_text(threads);
  metric m = make_metric(backends,
                         "throughput_" + std::to_string(threads) +
                             (threads == 1 ? "_thread" : "_threads") + "_mb_s",
                         title, throughput_unit(c, 0), false, 1.0, 0.90);
  m.io_threads = threads;
  const throughput_params params{c.throughput_connections, c.throughput_duration, threads};
  run_rounds(title.c_str(), c.rounds, backends, [&](std::size_t i, int round) {
    const throughput_result r = throughput_isolated(backends[i], params);
    if (r.error.empty())
      m.rows[i].add(round, r.mb_per_s);
    return r.error;
  });
  out.push_back(m);
}

/// The read or the write storm, every round of it in a child.
metric storm_metric(const config& c, const std::vector<backend>& backends, metric m,
                    const storm_params& p)
{
  bool in_child = true;
  std::uint64_t spurious = 0;
  run_rounds(m.title.c_str(), c.rounds, backends, [&](std::size_t i, int round) {
    const storm_result r = storm_isolated(backends[i], p);
    if (!r.error.empty())
      return r.error;
    in_child = in_child && r.peers_in_child;
    spurious += r.spurious;
    m.rows[i].add(round, r.events_per_s / 1000);
    return r.error;
  });
  m.note = std::string("peers in ") + (in_child ? "a child process" : "this process") +
           (spurious ? "; " + std::to_string(spurious) + " spurious wake-ups" : "");
  return m;
}

void storm_scenario(const config& c, const std::vector<backend>& backends, std::size_t fd_limit,
                    std::vector<metric>& out, std::vector<std::string>& notes)
{
  std::size_t sockets = c.storm_sockets;
  if (!can_spawn_children() && fd_limit != 0 && 2 * sockets + 64 > fd_limit)
  {
    // Both ends in this process: two descriptors per connection.
    sockets = (fd_limit - 64) / 2 / 1000 * 1000;
    notes.push_back("async_wait storm: peers in this process, so " + std::to_string(sockets) +
                    " sockets instead of " + std::to_string(c.storm_sockets) +
                    " (descriptor limit " + std::to_string(fd_limit) + ")");
  }
  metric m = make_metric(backends, "storm_kevents_per_s", "async_wait storm",
                         "k readiness events/s; " + std::to_string(sockets) + " sockets, " +
                             std::to_string(c.storm_subset) + " written per phase, " +
                             std::to_string(c.storm_phases) + " phases",
                         false, 1.0, 0.90);
  m = storm_metric(c, backends, std::move(m), {false, sockets, c.storm_subset, c.storm_phases});
  m.note += "; only the io_context's runs are timed";
#if defined(_WIN32)
  m.note += "; stock Asio (IOCP) waits with a zero-byte overlapped WSARecv, cancelled before "
            "its socket closes: closed with it pending, Wine ends it with ERROR_HANDLES_CLOSED "
            "(676, from STATUS_HANDLES_CLOSED), which Asio does not map to operation_aborted "
            "as it does Windows' ERROR_OPERATION_ABORTED (995): Wine's difference, not a "
            "failure of either reactor (doc/performance.md)";
#endif
  out.push_back(m);
}

void write_storm_scenario(const config& c, const std::vector<backend>& backends,
                          std::vector<metric>& out)
{
  const std::size_t sockets = c.write_storm_sockets;
  metric m = make_metric(backends, "write_storm_kevents_per_s", "async_wait(write) storm",
                         "k writability events/s; " + std::to_string(sockets) +
                             " sockets waiting at once, " + std::to_string(c.write_storm_phases) +
                             " phases",
                         false, 1.0);
  m = storm_metric(c, backends, std::move(m), {true, sockets, 0, c.write_storm_phases});
  m.note += "; more sockets than FD_SETSIZE wait at once";
#if defined(_WIN32)
  m.note += "; stock Asio (IOCP) waits for writability on its select() thread, started on "
            "first use (doc/performance.md)";
#endif
  out.push_back(m);
}

void idle_scenario(const config& c, const std::vector<backend>& backends, std::vector<metric>& out)
{
  metric m = make_metric(backends, "idle_bytes_per_connection", "idle connection memory",
                         std::string("bytes of ") + resident_memory_counter() +
                             " per connection; " + std::to_string(c.idle_connections) +
                             " connections with a pending async_wait, fresh process each",
                         true, 1.0);
  if (!can_spawn_children() || resident_kib() < 0)
  {
    for (row& r : m.rows)
      r.note = "needs child processes and a resident memory counter (Linux, Windows)";
    out.push_back(m);
    return;
  }
  run_rounds("idle connections", c.rounds, backends, [&](std::size_t i, int round) {
    const idle_result r = isolated<idle_result>(
        "idle", backends[i], std::to_string(c.idle_connections), "bytes_per_connection",
        [] { return idle_result{"needs child processes"}; },
        [](const std::string& output, idle_result& result) {
          result.bytes_per_connection = output_value(output, "bytes_per_connection");
        });
    if (r.error.empty())
      m.rows[i].add(round, r.bytes_per_connection);
    return r.error;
  });
  out.push_back(m);
}

std::string file_name_for(const std::string& id)
{
  std::string s = id;
  for (char& ch : s)
    if (ch == ':' || ch == ',' || ch == '=')
      ch = '_';
  return s;
}

void syscall_scenario(const config& c, const std::vector<backend>& backends,
                      std::vector<metric>& out)
{
  const std::uint64_t n = c.syscall_round_trips;
  metric m = make_metric(backends, "syscalls_per_round_trip", "system calls per round trip",
                         "strace -f -c: (calls of " + std::to_string(n) +
                             " round trips - calls of 0) / " + std::to_string(n) +
                             ", to 0.01 (what set-up and tear-down leave is less); both ends",
                         true, 1.0);
  if (!can_spawn_children() || *syscalls_unavailable())
  {
    for (row& r : m.rows)
      r.note = *syscalls_unavailable() ? syscalls_unavailable() : "needs child processes";
    out.push_back(m);
    return;
  }
  std::string unavailable;
  run_rounds(
      "system calls", c.deterministic_rounds, backends,
      [&](std::size_t i, int round) -> std::string {
        if (!unavailable.empty())
          return "";
        const backend& b = backends[i];
        const std::string stem = c.out + "/strace_" + file_name_for(b.id);
        const syscall_counts full =
            strace_self({"--child", "pingpong", b.id, std::to_string(n)}, stem + ".txt");
        const syscall_counts base =
            strace_self({"--child", "pingpong", b.id, "0"}, stem + "_baseline.txt");
        if (!full.ok || !base.ok)
        {
          unavailable = full.ok ? base.error : full.error;
          return "";
        }
        const double made = static_cast<double>(full.total - base.total) / static_cast<double>(n);
        m.rows[i].add(round, std::round(made * 100) / 100);
        auto& by_name = m.breakdown[b.id];
        if (by_name.empty())
          for (const auto& [name, calls] : full.calls)
          {
            const auto it = base.calls.find(name);
            const double baseline = it == base.calls.end() ? 0.0 : static_cast<double>(it->second);
            const double per_round_trip =
                (static_cast<double>(calls) - baseline) / static_cast<double>(n);
            if (per_round_trip >= 0.005 || per_round_trip <= -0.005) // not set-up or tear-down
              by_name[name] = per_round_trip;
          }
        return "";
      });
  if (!unavailable.empty())
  {
    for (row& r : m.rows)
    {
      r.samples.clear();
      r.rounds.clear();
      r.note = unavailable;
    }
    m.breakdown.clear();
  }
  out.push_back(m);
}

/// Every sample finite and positive: anything else means a scenario misbehaved.
void check_sanity(const std::vector<metric>& metrics)
{
  for (const metric& m : metrics)
    for (const row& r : m.rows)
      for (double v : r.samples)
        if (!std::isfinite(v) || v < 0 || (v == 0 && !m.may_be_zero))
          failures.push_back(m.title + " on " + r.on->label + ": insane value " +
                             std::to_string(v));
}

// ---- --scaling --------------------------------------------------------------------------------

/// Throughput and ping-pong latency with the io_context run by `threads` threads, each run
/// in a child process of its own where there are children.
scaling_point scaling_at(const config& c, const std::vector<backend>& backends, std::size_t threads)
{
  scaling_point p;
  p.threads = threads;
  const std::string on =
      ", " + std::to_string(threads) + " io " + (threads == 1 ? "thread" : "threads");
  // The units leave the thread count out: the table shows it apart, the JSON as io_threads.
  p.throughput = make_metric(backends, "throughput_mb_s", "echo throughput" + on,
                             throughput_unit(c, 0), false, 0);
  const std::string latency = "us per round trip; " + latency_unit(c, 0);
  p.p50 = make_metric(backends, "pingpong_p50_us", "ping-pong p50" + on, latency, true, 0);
  p.p99 = make_metric(backends, "pingpong_p99_us", "ping-pong p99" + on, latency, true, 0);
  for (metric* m : {&p.throughput, &p.p50, &p.p99})
    m->io_threads = threads;

  const throughput_params tp{c.throughput_connections, c.throughput_duration, threads};
  run_rounds(p.throughput.title.c_str(), c.rounds, backends, [&](std::size_t i, int round) {
    const throughput_result r = throughput_isolated(backends[i], tp);
    if (r.error.empty())
      p.throughput.rows[i].add(round, r.mb_per_s);
    return r.error;
  });
  const latency_params lp{c.latency_round_trips, c.latency_time_limit, threads, c.latency_warmup};
  shortfall limited;
  run_rounds(("ping-pong" + on).c_str(), c.rounds, backends, [&](std::size_t i, int round) {
    const latency_result r = latency_isolated(backends[i], lp);
    if (r.error.empty())
    {
      limited.record(backends[i].label, r.round_trips, lp.round_trips);
      p.p50.rows[i].add(round, r.p50_us);
      p.p99.rows[i].add(round, r.p99_us);
    }
    return r.error;
  });
  p.p50.note = limited.note(c.latency_time_limit);
  return p;
}

std::string join(const std::vector<std::size_t>& values, const char* separator)
{
  std::string s;
  for (std::size_t v : values)
    s += (s.empty() ? "" : separator) + std::to_string(v);
  return s;
}

/** The thread counts to measure: each of `asked` capped at `hardware` (when known),
    duplicates dropped, in ascending order. What was capped or dropped goes to `notes`. */
std::vector<std::size_t> cap_thread_counts(const std::vector<std::size_t>& asked, unsigned hardware,
                                           std::vector<std::string>& notes)
{
  std::set<std::size_t> kept;
  std::vector<std::size_t> capped;
  for (std::size_t n : asked)
  {
    const std::size_t m = hardware != 0 ? std::min<std::size_t>(n, hardware) : n;
    if (m != n)
      capped.push_back(n);
    kept.insert(m);
  }
  std::vector<std::size_t> measured(kept.begin(), kept.end());
  if (!capped.empty())
    notes.push_back("--threads: " + join(capped, ", ") + " capped at " + std::to_string(hardware) +
                    ", the hardware threads of this machine");
  if (measured.size() < asked.size())
    notes.push_back(
        "--threads " + join(asked, ",") + ": " + std::to_string(asked.size() - measured.size()) +
        " duplicate(s) dropped after capping; measuring " + join(measured, ", ") + " io threads");
  return measured;
}

/// Connections for the throughput scenario that the descriptor limit allows (both ends
/// of each connection in one process); a note when that is fewer than `wanted`.
std::size_t fit_connections(std::size_t wanted, std::size_t fd_limit,
                            std::vector<std::string>& notes)
{
  if (fd_limit == 0 || 2 * wanted + 64 <= fd_limit)
    return wanted;
  const std::size_t fit = fd_limit > 66 ? (fd_limit - 64) / 2 : 1;
  notes.push_back("echo throughput: " + std::to_string(fit) + " connections instead of " +
                  std::to_string(wanted) + " (descriptor limit " + std::to_string(fd_limit) +
                  "; raise it with ulimit -n)");
  return fit;
}

// ---- child modes ----------------------------------------------------------------------------

int child_pingpong(const backend& b, const latency_params& p)
{
  const latency_result r = latency_on(b, p);
  if (!r.error.empty())
  {
    std::cerr << "pingpong: " << r.error << '\n';
    return 1;
  }
  std::cout << "mean_us=" << r.mean_us << " p50_us=" << r.p50_us << " p99_us=" << r.p99_us
            << " round_trips=" << r.round_trips;
  if (!std::isnan(r.switches_per_round_trip))
    std::cout << " switches_per_round_trip=" << r.switches_per_round_trip;
  std::cout << '\n';
  if (b.notify)
    std::cout << describe(last_statistics) << '\n';
  return 0;
}

// A child's report: `name=value`, or the error; then the reactor's statistics. The exit
// status says whether it ran.
int report_child(const backend& b, const std::string& error, const char* name, double value)
{
  std::cout << (error.empty() ? name + ("=" + std::to_string(value)) : "error: " + error) << '\n';
  if (b.notify)
    std::cout << describe(last_statistics) << '\n';
  return error.empty() ? 0 : 1;
}

int child_throughput(const backend& b, const throughput_params& p)
{
  const throughput_result r = throughput_on(b, p);
  return report_child(b, r.error, "MB/s", r.mb_per_s);
}

int child_storm(const backend& b, const storm_params& p)
{
  const storm_result r = storm_on(b, p);
  if (r.error.empty())
    std::cout << "spurious=" << r.spurious << " peers_in_child=" << r.peers_in_child << ' ';
  return report_child(b, r.error, "events_per_s", r.events_per_s);
}

int child_idle(const backend& b, std::size_t connections)
{
  const idle_result r = on_backend(
      b, [&](auto& ioc, auto p) { return run_idle<typename decltype(p)::type>(ioc, connections); });
  if (!r.error.empty())
  {
    std::cout << "error: " << r.error << '\n';
    return 1;
  }
  std::cout << "bytes_per_connection=" << r.bytes_per_connection
            << " rss_before_kib=" << r.rss_before_kib << " rss_after_kib=" << r.rss_after_kib
            << " connections=" << r.connections << '\n';
  return 0;
}

/** `--child <what> <backend id> <count>`: one measurement on one backend, in a process of
    its own (every measurement runs so). `pingpong` (count: round trips[/threads[/time
    limit ms[/warm-up round trips]]]; prints the mean, p50 and p99; also run under strace
    for the system call counts), `throughput` (count: milliseconds[/threads[/connections]]),
    `storm` (count: sockets[/subset[/phases]]), `write_storm` (count: sockets[/phases]),
    `idle` (count: connections). A reactor that ran with another driver than asked for prints
    "warning: ...". */
int child_main(const std::string& what, const std::string& id, const std::string& count)
{
  const backend b = backend_from_id(id);
  int status = 2;
  if (what == "pingpong")
    status = child_pingpong(b, latency_params::from_child_count(count));
  else if (what == "throughput")
    status = child_throughput(b, throughput_params::from_child_count(count));
  else if (what == "storm" || what == "write_storm")
    status = child_storm(b, storm_params::from_child_count(what == "write_storm", count));
  else if (what == "idle")
    status = child_idle(b, static_cast<std::size_t>(std::stoull(count)));
  else
    std::cerr << "unknown child mode " << what << '\n';
  for (const std::string& w : driver_warnings)
    std::cout << "warning: " << w << '\n';
  return status;
}

// ---- the command line -----------------------------------------------------------------------

int usage()
{
  std::cerr
      << "usage: asio_notify_bench [--quick] [--out DIR] [--rounds N] [--seed N] [--no-variants]\n"
         "                         [--only latency,throughput,storm,write_storm,idle,syscalls]\n"
#if defined(BOOST_ASIO_NOTIFY_BENCH_PSN_DOUBLE)
         "                         [--psn-double]\n"
#endif
         "       asio_notify_bench --scaling [--threads 1,2,4,8,16] [--quick] [--out DIR]\n"
         "                         [--rounds N] [--seed N] [--no-variants]\n";
  return 2;
}

int bad_command_line(const std::string& why)
{
  std::cerr << "asio_notify_bench: " << why << '\n';
  return usage();
}

/// The scenarios --only can name.
const char* const scenario_list = "latency,throughput,storm,write_storm,idle,syscalls";

bool is_scenario(const std::string& name)
{
  for (const std::string& known : split(scenario_list, ','))
    if (name == known)
      return true;
  return false;
}

/// A whole number from 1 to `max` written in decimal digits only, or nothing.
std::optional<std::size_t> parse_count(const std::string& s, std::size_t max)
{
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  const std::size_t n = std::stoul(s);
  if (n == 0 || n > max)
    return std::nullopt;
  return n;
}

/// "1,2,4": thread counts from 1 to max_io_threads; nothing when any is not.
std::optional<std::vector<std::size_t>> parse_thread_list(const std::string& list)
{
  std::vector<std::size_t> counts;
  for (const std::string& field : split(list, ','))
  {
    const std::optional<std::size_t> n = parse_count(field, max_io_threads);
    if (!n)
      return std::nullopt;
    counts.push_back(*n);
  }
  return counts;
}

/// Reads the options into `c`; returns 0, or 2 (after saying why) for a bad command line.
int parse_command_line(const std::vector<std::string>& args, config& c)
{
  bool quick = false;
  bool scaling = false;
  std::optional<std::size_t> rounds;
  std::optional<std::vector<std::size_t>> threads;
  for (std::size_t i = 0; i < args.size(); ++i)
  {
    const std::string& a = args[i];
    const bool has_value = i + 1 < args.size();
    if (a == "--quick")
      quick = true;
    else if (a == "--scaling")
      scaling = true;
    else if (a == "--out" && has_value)
      c.out = args[++i];
    else if (a == "--rounds" && has_value)
    {
      if (!(rounds = parse_count(args[++i], 1000)))
        return bad_command_line("--rounds takes a whole number from 1 to 1000, not \"" + args[i] +
                                "\"");
    }
    else if (a == "--threads" && has_value)
    {
      if (!(threads = parse_thread_list(args[++i])))
        return bad_command_line(
            "bad --threads list \"" + args[i] + "\": give io thread counts from 1 to " +
            std::to_string(max_io_threads) + " separated by commas, such as 1,2,4,8,16");
    }
    else if (a == "--seed" && has_value)
    {
      const std::optional<std::size_t> seed =
          parse_count(args[++i], std::numeric_limits<std::uint32_t>::max());
      if (!seed)
        return bad_command_line("--seed takes a whole number from 1 to 4294967295, not \"" +
                                args[i] + "\"");
      c.seed = *seed;
    }
    else if (a == "--no-variants")
      c.variants = false;
    else if (a == "--psn-double")
    {
#if defined(BOOST_ASIO_NOTIFY_BENCH_PSN_DOUBLE)
      c.psn_double = true;
#else
      return bad_command_line("--psn-double: this build has no PSN test double (it comes with "
                              "the Windows builds that build the tests)");
#endif
    }
    else if (a == "--only" && has_value)
    {
      for (const std::string& s : split(args[++i], ','))
      {
        if (!is_scenario(s))
          return bad_command_line("--only: no scenario \"" + s + "\" (" + scenario_list + ")");
        c.only.insert(s);
      }
    }
    else
      return bad_command_line("unknown option or missing value: " + a);
  }
  if (threads && !scaling)
    return bad_command_line("--threads goes with --scaling");
  if (scaling && !c.only.empty())
    return bad_command_line("--only does not go with --scaling");
  if (scaling)
    c.make_scaling();
  if (quick)
    c.make_quick();
  if (rounds)
    c.rounds = c.deterministic_rounds = static_cast<int>(*rounds);
  if (threads)
    c.io_threads_asked = *threads;
  c.deterministic_rounds = std::min(c.deterministic_rounds, c.rounds);
  return 0;
}

// ---- the run as a whole ---------------------------------------------------------------------

std::string platform_name()
{
#if defined(__linux__)
  std::string p = "Linux";
#elif defined(_WIN32)
  const std::string wine = wine_version();
  std::string p = wine.empty()
                      ? "Windows"
                      : "Windows under " + wine + " (Wine's figures: not Windows performance)";
#else
  std::string p = "unknown OS";
#endif
  return p + ", Boost " + std::to_string(BOOST_VERSION / 100000) + "." +
         std::to_string(BOOST_VERSION / 100 % 1000);
}

std::string compiler_name()
{
#if defined(__clang__)
  return std::string("Clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("GCC ") + __VERSION__;
#elif defined(_MSC_VER)
  return "MSVC " + std::to_string(_MSC_FULL_VER);
#else
  return "unknown compiler";
#endif
}

std::string build_type()
{
#if defined(BOOST_ASIO_NOTIFY_BENCH_BUILD_TYPE)
  std::string type = BOOST_ASIO_NOTIFY_BENCH_BUILD_TYPE;
#else
  std::string type;
#endif
  if (type.empty())
    type = "build type not set";
#if defined(NDEBUG)
  type += " (NDEBUG)";
#endif
#if defined(BOOST_ASIO_NOTIFY_BENCH_STATIC)
  type += ", statically linked";
#endif
  return type;
}

std::string json_counts(const std::vector<std::size_t>& values)
{
  return "[" + join(values, ", ") + "]";
}

/// The options of the run, for the JSON file.
std::vector<std::pair<std::string, std::string>> describe_options(const config& c)
{
  auto number = [](double v) {
    return json_number(v);
  };
  std::vector<std::pair<std::string, std::string>> o{
      {"quick", c.quick ? "true" : "false"},
      {"rounds", number(c.rounds)},
      {"variants", c.variants ? "true" : "false"},
      {"psn_double", psn_on_double ? "true" : "false"},
      {"out", json_string(c.out)},
      {"latency_round_trips", number(static_cast<double>(c.latency_round_trips))},
      {"latency_warmup_round_trips", number(static_cast<double>(c.latency_warmup))},
      {"latency_time_limit_ms", number(static_cast<double>(c.latency_time_limit.count()))},
      {"latency_message_bytes", number(latency_message)},
      {"throughput_connections", number(static_cast<double>(c.throughput_connections))},
      {"throughput_message_bytes", number(throughput_message)},
      {"throughput_duration_ms", number(static_cast<double>(c.throughput_duration.count()))}};
  if (c.scaling)
  {
    o.emplace_back("io_threads_asked", json_counts(c.io_threads_asked));
    o.emplace_back("io_threads", json_counts(c.io_threads));
    o.emplace_back("child_processes", can_spawn_children() ? "true" : "false");
  }
  else
  {
    std::string only;
    for (const std::string& s : c.only)
      only += (only.empty() ? "" : ",") + s;
    o.emplace_back("throughput_threads", json_counts(c.throughput_threads));
    o.emplace_back("only", json_string(only));
  }
  return o;
}

run_info make_run_info(const config& c)
{
  run_info info;
  info.mode = std::string(c.scaling ? "scaling " : "") + (c.quick ? "quick" : "full");
  info.rounds = c.rounds;
  info.platform = platform_name();
  info.hardware_threads = std::thread::hardware_concurrency();
  info.load_start = load_average();
  info.compiler = compiler_name();
  info.build_type = build_type();
  info.notes.push_back("timings from a machine shared with other work are noisy; compare ratios, "
                       "and the min/max spread");
  if (!wine_version().empty())
    info.notes.push_back("under Wine: not Windows performance. These are Wine's figures (its "
                         "emulation of IOCP, AFD and the sockets), only to show that every row "
                         "runs; measure on Windows (doc/performance.md, Comparing with IOCP)");
  if (psn_on_double)
    info.notes.push_back("psn (double): the PSN backend ran on the test double of "
                         "ProcessSocketNotifications (test/windows/psn_double.hpp, --psn-double), "
                         "built on the AFD engine, since this system has no PSN");
  for (const backend& b : make_backends(c.variants))
    if (b.notify && !an::is_supported(b.options.backend))
      info.notes.push_back("not run: " + b.label + ": " + unsupported_cause(b.options.backend));
  return info;
}

/** The end of a run: the table (standard output and `<stem>.txt`), `<stem>.json`, the
    chart, the failures. Returns the exit status. */
int conclude(const std::string& stem, run_info& info, clock_type::time_point t0,
             const std::vector<backend>& backends, const std::vector<metric>& metrics,
             const std::function<void(std::ostream&, const run_info&)>& table,
             const std::function<std::string(const std::string&)>& chart)
{
  set_activity("writing the results");
  info.elapsed_s = seconds_since(t0);
  info.load_end = load_average();
  for (const std::string& w : driver_warnings)
    if (std::find(info.notes.begin(), info.notes.end(), w) == info.notes.end())
      info.notes.push_back(w);
  check_sanity(metrics);

  table(std::cout, info);
  {
    std::ofstream file(stem + ".txt");
    table(file, info);
  }
  if (!write_json(stem + ".json", info, backends, metrics))
    failures.push_back("could not write " + stem + ".json");
  else
    std::cout << "results: " << stem << ".json\n";
  std::cout << chart(stem) << '\n';

  for (const std::string& f : failures)
    std::cout << "FAILED: " << f << '\n';
  return failures.empty() ? 0 : 1;
}

/// The six scenarios (those --only names), each on every backend.
int scenarios_main(config& c, std::size_t fd_limit)
{
  const std::vector<backend> backends = make_backends(c.variants);
  run_info info = make_run_info(c);
  info.options = describe_options(c);
  info.seed = seed_backend_order(c.seed);
  if (!can_spawn_children())
    info.notes.push_back("no child processes here: every measurement ran in this process");
  const auto t0 = clock_type::now();

  std::vector<metric> metrics;
  if (c.wants("latency"))
    latency_scenario(c, backends, metrics);
  if (c.wants("throughput"))
    for (const std::size_t threads : c.throughput_threads)
      throughput_scenario(c, backends, threads, metrics);
  if (c.wants("storm"))
    storm_scenario(c, backends, fd_limit, metrics, info.notes);
  if (c.wants("write_storm"))
    write_storm_scenario(c, backends, metrics);
  if (c.wants("idle"))
    idle_scenario(c, backends, metrics);
  if (c.wants("syscalls"))
    syscall_scenario(c, backends, metrics);

  return conclude(
      c.out + "/results", info, t0, backends, metrics,
      [&](std::ostream& out, const run_info& i) { print_table(out, i, metrics); },
      [&](const std::string& stem) { return write_chart(stem, backends, metrics); });
}

/// --scaling: throughput and ping-pong latency at each io thread count, on every backend.
int scaling_main(config& c, std::size_t fd_limit)
{
  const std::vector<backend> backends = make_backends(c.variants);
  run_info info = make_run_info(c);
  c.io_threads = cap_thread_counts(c.io_threads_asked, info.hardware_threads, info.notes);
  c.throughput_connections = fit_connections(c.throughput_connections, fd_limit, info.notes);
  info.options = describe_options(c);
  info.seed = seed_backend_order(c.seed);
  info.notes.push_back(can_spawn_children()
                           ? "each measurement ran in a child process of its own"
                           : "no child processes here: every measurement ran in this process");
  for (const std::string& note : info.notes)
    std::cout << "note: " << note << '\n';
  const auto t0 = clock_type::now();

  std::vector<scaling_point> points;
  std::vector<metric> metrics; // every point's, for the JSON file and the sanity check
  for (std::size_t threads : c.io_threads)
  {
    points.push_back(scaling_at(c, backends, threads));
    metrics.insert(metrics.end(), {points.back().throughput, points.back().p50, points.back().p99});
  }

  return conclude(
      c.out + "/scaling", info, t0, backends, metrics,
      [&](std::ostream& out, const run_info& i) { print_scaling_table(out, i, points); },
      [&](const std::string& stem) { return write_scaling_chart(stem, backends, points); });
}

} // namespace

int main(int argc, char** argv)
{
  set_program_path(argc > 0 ? argv[0] : nullptr);
  const std::size_t fd_limit = raise_descriptor_limit();
  const std::vector<std::string> args(argv + 1, argv + argc);
  try
  {
#if defined(BOOST_ASIO_NOTIFY_BENCH_PSN_DOUBLE)
    if (std::getenv(psn_double_variable)) // a child of a --psn-double run
      install_psn_double();
#endif
    if (args.size() == 5 && args[0] == "--peer")
      return peer_main(static_cast<unsigned short>(std::stoul(args[1])), std::stoull(args[2]),
                       args[3], args[4]);
    if (args.size() == 4 && args[0] == "--child")
      return child_main(args[1], args[2], args[3]);

    config c;
    if (const int status = parse_command_line(args, c))
      return status;
#if defined(BOOST_ASIO_NOTIFY_BENCH_PSN_DOUBLE)
    if (c.psn_double && !an::is_supported(an::port_backend::psn))
    {
      install_psn_double();
      ::_putenv_s(psn_double_variable, "1"); // for the child processes
    }
#endif
    std::filesystem::create_directories(c.out);
    if (c.quick)
      start_quick_deadline(std::chrono::seconds(240)); // ctest's limit is 300 s
    return c.scaling ? scaling_main(c, fd_limit) : scenarios_main(c, fd_limit);
  }
  catch (const std::exception& e)
  {
    std::cerr << "asio_notify_bench: " << e.what() << '\n';
    return 1;
  }
}
