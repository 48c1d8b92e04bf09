//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The reactor: per-socket operation queues on top of the notification port, the
// REMOVE-synchronised teardown of socket state, and the drivers that dequeue packets.

#include <boost/asio_notify/detail/reactor_core.hpp>
#include <boost/asio_notify/detail/socket_ops.hpp>
#include <boost/asio_notify/port.hpp>

#include "reactor_driver.hpp"
#include "socket_state.hpp"
#include "state_reclaimer.hpp"

#include <boost/asio/error.hpp>
#include <boost/system/system_error.hpp>

#include <atomic>
#include <cstdlib>
#include <vector>

namespace boost {
namespace asio_notify {
namespace detail {

using boost::system::error_code;

namespace {

events wanted_events(const socket_state& s)
{
  events e = events::none;
  if (!s.ops[read_op].empty())
    e |= events::in | events::hangup;
  if (!s.ops[write_op].empty())
    e |= events::out;
  if (!s.ops[except_op].empty())
    e |= events::hangup;
  return e;
}

// After a read that finished (with the state's mutex held): whether the next read or
// readiness wait may skip asking the socket. A hang-up seen means there is always
// something to read (end of file, an error).
void record_read(socket_state& s, bool drained) { s.read_drained = drained && !s.hangup_seen; }

// One attempt at an operation's system call (with the state's mutex held); keeps
// `read_drained` up to date.
bool attempt(socket_state& s, op_type type, reactor_op& op, bool from_packet)
{
  const bool read = type == read_op;
  perform_context c{s.socket, from_packet, read && s.read_drained, read && s.drained_hint};
  if (!op.perform(c))
    return false;
  if (read)
    record_read(s, c.drained);
  return true;
}

// Perform queued operations of one type in order until one would block.
void perform_queue(socket_state& s, op_type type, op_queue& done, bool from_packet)
{
  while (reactor_op* op = s.ops[type].front())
  {
    if (!attempt(s, type, *op, from_packet))
      break;
    done.push(s.ops[type].pop());
  }
}

void abort_all(socket_state& s, op_queue& aborted, const error_code& ec)
{
  for (op_queue& q : s.ops)
    while (reactor_op* op = q.pop())
    {
      op->ec_ = ec;
      aborted.push(op);
    }
}

} // namespace

struct reactor_core::impl final : packet_handler
{
  explicit impl(const reactor_options& o)
      : options(o), the_port(o.backend), reclaimer([this](socket_state* s) { free_state(s); })
  {
    if (options.batch_size == 0 || options.threads == 0)
      throw boost::system::system_error(
          boost::asio::error::invalid_argument,
          "boost::asio_notify::reactor: batch_size and threads must be positive");
  }

  // The driver starts with the first socket, whose executor tells which context runs it.
  void attach(const boost::asio::any_io_executor& io_executor)
  {
    if (driver_ready.load(std::memory_order_acquire))
      return;
    std::lock_guard<std::mutex> lock(driver_mutex);
    if (driver || shut_down.load())
      return;
    driver = make_driver(io_executor, options, the_port, *this);
    driver_ready.store(true, std::memory_order_release);
  }

  ~impl()
  {
    shutdown();
    while (states)
      free_state(states);
  }

  // --- socket states ---

  socket_state* adopt(native_socket_type s)
  {
    auto* state = new socket_state(s);
    std::lock_guard<std::mutex> lock(states_mutex);
    state->next = states;
    if (states)
      states->prev = state;
    states = state;
    return state;
  }

  void free_state(socket_state* s)
  {
    {
      std::lock_guard<std::mutex> lock(states_mutex);
      (s->prev ? s->prev->next : states) = s->next;
      if (s->next)
        s->next->prev = s->prev;
    }
    delete s;
  }

  // Ends the registration of a socket being closed; the state is freed after `remove`.
  void end_registration(socket_state* s, bool registered)
  {
    if (!registered)
      return free_state(s); // no packet has ever named this state
    registered_sockets.fetch_sub(1, std::memory_order_relaxed);
    registration r;
    r.socket = s->socket;
    r.key = s;
    r.operation = operation::remove;
    if (!the_port.apply(r))
      return; // the `remove` packet retires the state
    // No `remove` will come, but packets dequeued before may still name the state.
    reclaimer.retire(s);
  }

  // Takes the socket out of the reactor. `handing_back`: the socket stays open for the
  // program (release), so it is left as the program gave it (no TCP_INQ of ours).
  native_socket_type detach(socket_state*& s, bool handing_back)
  {
    op_queue aborted;
    bool registered;
    bool hinted;
    {
      std::lock_guard<std::mutex> lock(s->mutex);
      s->closed = true;
      abort_all(*s, aborted, boost::asio::error::operation_aborted);
      registered = s->registered;
      hinted = s->drained_hint;
    }
    complete(aborted, completion_mode::post);
    const native_socket_type fd = s->socket;
    end_registration(s, registered);
    s = nullptr;
    if (handing_back && hinted)
      socket_ops::set_drained_hint(fd, false);
    return fd;
  }

  // --- registration (with the state's mutex held) ---

  // Make the port report what the queued operations wait for. Operations that finish
  // or fail on the way are moved to `done`.
  void update_registration(socket_state& s, op_queue& done)
  {
    const bool edge = options.trigger == trigger_strategy::persistent_edge;
    const events wanted = edge ? (events::in | events::out | events::hangup) : wanted_events(s);
    if (wanted == events::none || (edge && s.registered) || has_all(s.armed, wanted))
      return;
    registration r;
    r.socket = s.socket;
    r.key = &s;
    r.filter = wanted | s.armed;
    r.operation = operation::enable;
    r.triggers = edge ? (trigger::edge | trigger::persistent) : (trigger::level | trigger::oneshot);
    if (error_code ec = the_port.apply(r))
    {
      abort_all(s, done, ec);
      return;
    }
    if (!s.registered)
    {
      registered_sockets.fetch_add(1, std::memory_order_relaxed);
      s.drained_hint = socket_ops::set_drained_hint(s.socket, true);
    }
    s.registered = true;
    s.armed = r.filter;
    if (edge) // rule 8: a condition true before an edge registration may never be reported
      for (int t = 0; t < max_ops; ++t)
        perform_queue(s, static_cast<op_type>(t), done, false);
  }

  // --- packets ---

  void handle(const packet& p, op_queue& done) override
  {
    if (p.kind == packet_kind::user)
      return; // a driver's wake-up
    auto* s = static_cast<socket_state*>(p.key);
    if (has_any(p.events, events::remove))
    {
      reclaimer.retire(s);
      return;
    }
    std::lock_guard<std::mutex> lock(s->mutex);
    if (s->closed)
      return;
    if (options.trigger == trigger_strategy::oneshot_level)
      s->armed = events::none; // rule 7: the one-shot registration is disabled now
    const bool error = has_any(p.events, events::error);
    const bool hangup = error || has_any(p.events, events::hangup);
    const bool readable = hangup || has_any(p.events, events::in);
    s->hangup_seen = s->hangup_seen || hangup;
    if (readable)
    {
      s->read_drained = false;
      perform_queue(*s, read_op, done, true);
    }
    if (error || has_any(p.events, events::out))
      perform_queue(*s, write_op, done, true);
    if (hangup)
      perform_queue(*s, except_op, done, true);
    update_registration(*s, done);
  }

  std::uint64_t begin_round() override { return reclaimer.begin_round(); }

  void dequeued(std::size_t packets) override
  {
    if (packets == 0)
      return;
    wakeups.fetch_add(1, std::memory_order_relaxed);
    packets_dequeued.fetch_add(packets, std::memory_order_relaxed);
  }

  void handed_over(std::size_t packets) override
  {
    packets_handed_over.fetch_add(packets, std::memory_order_relaxed);
  }

  void io_thread_looked() override { io_thread_looks.fetch_add(1, std::memory_order_relaxed); }

  void end_round(std::uint64_t round) override { reclaimer.end_round(round); }

  // Schedules the handlers of `done`: the first with `first`, the others with `rest` and
  // before the first (as Asio's reactor does: nothing is lost if the first handler throws).
  void complete(op_queue& done, completion_mode first, completion_mode rest) override
  {
    std::size_t n = 0;
    for (reactor_op* op = done.front(); op; op = op->next_)
      ++n;
    if (n == 0)
      return;
    // Counted before the handlers are scheduled: a handler that reads the statistics
    // sees its own operation.
    operations_completed.fetch_add(n, std::memory_order_relaxed);
    if (first == rest)
      return done.complete_all(rest); // in order
    reactor_op* head = done.pop();
    done.complete_all(rest);
    head->complete(first);
  }

  void complete(op_queue& done, completion_mode mode) { complete(done, mode, mode); }

  // --- shutdown ---

  void shutdown()
  {
    {
      // The driver goes now, not in the destructor: services created after this one
      // (such as the one behind the inline driver's descriptor) are destroyed before it.
      std::lock_guard<std::mutex> lock(driver_mutex);
      if (shut_down.exchange(true))
        return;
      driver_ready.store(false, std::memory_order_release);
      if (driver)
        driver->stop();
      driver.reset();
    }
    // Collect under the locks, destroy outside them: destroying a handler may destroy a
    // socket, whose close comes back here.
    op_queue doomed;
    {
      std::lock_guard<std::mutex> lock(states_mutex);
      for (socket_state* s = states; s; s = s->next)
      {
        std::lock_guard<std::mutex> state_lock(s->mutex);
        for (op_queue& q : s->ops)
          doomed.splice(q);
      }
    }
    doomed.complete_all(completion_mode::destroy);
  }

  reactor_options options;
  port the_port;
  state_reclaimer<socket_state> reclaimer;
  std::mutex driver_mutex;
  std::unique_ptr<reactor_driver> driver;
  std::atomic<bool> driver_ready{false};
  std::atomic<bool> shut_down{false};

  std::mutex states_mutex;
  socket_state* states = nullptr;

  std::atomic<std::uint64_t> registered_sockets{0};
  std::atomic<std::uint64_t> packets_dequeued{0};
  std::atomic<std::uint64_t> wakeups{0};
  std::atomic<std::uint64_t> packets_handed_over{0};
  std::atomic<std::uint64_t> io_thread_looks{0};
  std::atomic<std::uint64_t> operations_completed{0};
};

reactor_core::reactor_core(const reactor_options& options) : impl_(new impl(options)) {}

void reactor_core::attach(const boost::asio::any_io_executor& io_executor)
{
  impl_->attach(io_executor);
}

reactor_core::~reactor_core() = default;

void reactor_core::shutdown() { impl_->shutdown(); }

reactor_options reactor_core::options() const
{
  std::lock_guard<std::mutex> lock(impl_->driver_mutex); // attach() settles the driver under it
  return impl_->options;
}

reactor_statistics reactor_core::statistics() const noexcept
{
  reactor_statistics s;
  s.registered_sockets = impl_->registered_sockets.load(std::memory_order_relaxed);
  s.packets_dequeued = impl_->packets_dequeued.load(std::memory_order_relaxed);
  s.wakeups = impl_->wakeups.load(std::memory_order_relaxed);
  s.packets_handed_over = impl_->packets_handed_over.load(std::memory_order_relaxed);
  s.io_thread_looks = impl_->io_thread_looks.load(std::memory_order_relaxed);
  s.operations_completed = impl_->operations_completed.load(std::memory_order_relaxed);
  s.closed_states_pending = impl_->reclaimer.waiting();
  return s;
}

socket_state* reactor_core::adopt(native_socket_type s) { return impl_->adopt(s); }

void reactor_core::close(socket_state*& s, error_code& ec)
{
  ec = {};
  if (!s)
    return;
  const native_socket_type fd = impl_->detach(s, false);
  socket_ops::close(fd, ec);
}

native_socket_type reactor_core::release(socket_state*& s, error_code& ec)
{
  if (!s)
  {
    ec = boost::asio::error::bad_descriptor;
    return socket_ops::invalid_socket;
  }
  ec = {};
  return impl_->detach(s, true);
}

// Completes the one operation `finished` may hold as the head of a completion (not through
// the noexcept complete_all): an immediate executor may run its handler here, and what that
// handler throws leaves the initiating function, as with Asio.
void reactor_core::complete_immediately(op_queue& finished)
{
  impl_->complete(finished, completion_mode::immediate, completion_mode::post);
}

void reactor_core::start_op(socket_state* s, op_type type, reactor_op* op,
                            const error_code& not_ready)
{
  // `finished`: the new operation, when it finishes here, inside its initiating function
  // (completion_mode::immediate); `done`: what a failed registration update aborts.
  op_queue finished;
  op_queue done;
  bool queued = false;
  if (!s || impl_->shut_down.load(std::memory_order_relaxed))
  {
    if (!s)
    {
      op->ec_ = boost::asio::error::bad_descriptor;
      finished.push(op);
      complete_immediately(finished);
    }
    else
      op->complete(completion_mode::destroy); // the context is shutting down
    return;
  }
  {
    std::lock_guard<std::mutex> lock(s->mutex);
    if (not_ready)
    {
      op->ec_ = not_ready;
      finished.push(op);
    }
    else if (s->ops[type].empty() && attempt(*s, type, *op, false))
      finished.push(op);
    else
    {
      op->queued();
      s->ops[type].push(op);
      impl_->update_registration(*s, done);
      queued = true;
    }
  }
  complete_immediately(finished);
  impl_->complete(done, completion_mode::post);
  // Only a queued operation tells the driver: its tracked work is what keeps the context's
  // count above zero while an inline driver's first wait takes its own back. An operation
  // whose handler an immediate executor has already run leaves nothing counted.
  if (queued && impl_->driver_ready.load(std::memory_order_acquire))
    impl_->driver->operation_queued();
}

std::size_t reactor_core::receive_now(socket_state& s, socket_ops::native_buffer* bufs,
                                      std::size_t count, socket_ops::message_flags flags,
                                      error_code& ec)
{
  // Under the lock, as the reactor's own attempts: a packet for data that arrives after
  // this read is handled after it and clears what it records.
  std::lock_guard<std::mutex> lock(s.mutex);
  bool drained = false;
  const std::size_t n =
      socket_ops::recv(s.socket, bufs, count, flags, ec, s.drained_hint ? &drained : nullptr);
  if (!socket_ops::would_block(ec))
    record_read(s, drained);
  return n;
}

void reactor_core::cancel(socket_state& s)
{
  op_queue aborted;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    abort_all(s, aborted, boost::asio::error::operation_aborted);
  }
  impl_->complete(aborted, completion_mode::post);
}

void reactor_core::cancel_op(socket_state& s, op_type type, const void* key)
{
  op_queue aborted;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    reactor_op* op = s.ops[type].erase(key);
    if (!op)
      return;
    op->ec_ = boost::asio::error::operation_aborted;
    aborted.push(op);
  }
  impl_->complete(aborted, completion_mode::post);
}

} // namespace detail
} // namespace asio_notify
} // namespace boost
