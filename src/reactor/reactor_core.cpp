//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The reactor (reactor_core::impl, reactor_impl.hpp), one idea in one file: operations
// started, performed, cancelled and completed on per-socket queues over the notification
// port, with the sockets' registrations and teardown (design.md, "The path of one
// operation", "Teardown"); then reactor_core's exported entry points into it.

#include <boost/asio_notify/detail/op_work.hpp>
#include <boost/asio_notify/detail/reactor_core.hpp>
#include <boost/asio_notify/detail/socket_ops.hpp>
#include <boost/asio_notify/port.hpp>

#include "reactor_impl.hpp"

#include <boost/asio/error.hpp>
#include <boost/system/system_error.hpp>

#include <atomic>
#include <cstdlib>
#include <exception>
#include <new>
#include <optional>
#include <vector>

namespace boost {
namespace asio_notify {
namespace detail {

using boost::system::error_code;

namespace {

// How often an entry is applied again when the whole call fails: such a call may have taken
// effect (ponyc #5738), and applying an entry twice is the same as once (a second `remove`
// reports not_found, which the close does not read).
constexpr int whole_call_attempts = 8;

// `o` with the adversary it leaves to the environment filled in, and the backend the
// driver asked for needs.
reactor_options with_adversary(reactor_options o)
{
  if (!o.adversary)
    o.adversary = adversary_from_environment();
#if defined(_WIN32)
  if (o.driver == driver_kind::io_context_port && o.backend == port_backend::automatic)
    o.backend = port_backend::afd; // the only backend whose polls Asio's port can complete
#endif
  return o;
}

// `op` with the results it finished with.
reactor_op* finished(reactor_op* op, const error_code& ec, std::size_t bytes) noexcept
{
  op->ec_ = ec;
  op->bytes_ = bytes;
  return op;
}

} // namespace

reactor_core::impl::impl(const reactor_options& o) : options(with_adversary(o)), the_port(options)
{
  if (options.batch_size == 0 || options.threads == 0)
    throw boost::system::system_error(
        boost::asio::error::invalid_argument,
        "boost::asio_notify::reactor: batch_size and threads must be positive");
}

reactor_core::impl::~impl() { shutdown(); }

// The driver starts with the first socket, whose executor tells which context runs it.
void reactor_core::impl::attach(const boost::asio::any_io_executor& io_executor)
{
  learn_abort_hop(io_executor);
  if (driver_ready.load(std::memory_order_acquire))
    return;
  std::lock_guard<std::mutex> lock(driver_mutex);
  if (driver || shut_down.load())
    return;
  install_driver(make_driver(io_executor, options, the_port, *this, driver_note));
}

void reactor_core::impl::install_driver(std::unique_ptr<reactor_driver> d)
{
  driver = std::move(d);
  registrations_by_driver.store(driver->apply({}), std::memory_order_relaxed);
  if (options.overlapped_receives || options.overlapped_sends)
    issuer.store(driver->channels(), std::memory_order_release);
  tell_driver_queued.store(true, std::memory_order_release);
  driver_ready.store(true, std::memory_order_release);
}

// The io_context beneath the first socket's executor that has one: this reactor's
// execution context, through which aborted operations on a program's executor hop.
void reactor_core::impl::learn_abort_hop(const boost::asio::any_io_executor& io_executor)
{
  if (abort_hop_known.load(std::memory_order_acquire))
    return;
  const auto hop = io_context_beneath(io_executor);
  if (!hop)
    return;
  std::lock_guard<std::mutex> lock(driver_mutex);
  if (abort_hop)
    return;
  abort_hop.emplace(*hop);
  abort_hop_known.store(true, std::memory_order_release);
}

const boost::asio::io_context::executor_type*
reactor_core::impl::abort_hop_executor() const noexcept
{
  return abort_hop_known.load(std::memory_order_acquire) ? &*abort_hop : nullptr;
}

reactor_options reactor_core::impl::current_options() const
{
  std::lock_guard<std::mutex> lock(driver_mutex); // attach() settles the driver under it
  return options;
}

reactor_statistics reactor_core::impl::statistics() const noexcept
{
  reactor_statistics s = counters.read();
  s.socket_states_allocated = states.allocated();
  if (driver_ready.load(std::memory_order_acquire))
    s.driver_note = driver_note;
  return s;
}

// --- sockets ---

descriptor_state* reactor_core::impl::adopt(native_socket_type s, error_code& ec) noexcept
{
  try
  {
    ec.clear();
    return states.acquire(s);
  }
  catch (const std::bad_alloc&)
  {
    ec = boost::asio::error::no_memory;
    return nullptr;
  }
}

void reactor_core::impl::close(descriptor_state*& s, error_code& ec)
{
  ec = {};
  if (!s)
    return;
  const native_socket_type fd = detach(s, false);
  socket_ops::close(fd, ec);
}

native_socket_type reactor_core::impl::release(descriptor_state*& s, error_code& ec)
{
  if (!s)
  {
    ec = boost::asio::error::bad_descriptor;
    return socket_ops::invalid_socket;
  }
  ec = {};
  return detach(s, true);
}

// Takes the socket out of the reactor. `handing_back`: the socket stays open for the
// program (release), so it is left as the program gave it (no TCP_INQ of ours).
native_socket_type reactor_core::impl::detach(descriptor_state*& s, bool handing_back)
{
  op_queue aborted;
  bool registered;
  bool hinted;
  void* key;
  {
    std::lock_guard<std::mutex> lock(s->mutex);
    s->closed = true;
    s->abort_all(aborted, boost::asio::error::operation_aborted);
    s->close_channel();
    registered = s->registered;
    hinted = s->drained_hint;
    key = descriptor_state_table::key_of(*s);
  }
  const native_socket_type fd = s->socket;
  if (registered)
    end_registration(fd, key);
  states.release(*s);
  s = nullptr;
  if (handing_back && hinted)
    socket_ops::set_drained_hint(fd, false);
  try
  {
    complete(aborted, completion_mode::aborted);
  }
  catch (...)
  {
    // Only where the I/O executor is not an io_context's (aborted completions through one
    // allocate nothing): an executor that could not take an aborted handler destroyed it
    // with its operation; the close itself has happened and does not fail for that.
  }
  return fd;
}

// --- registrations ---

// Applies one entry; returns its result, or the call's error when the call kept failing
// as a whole.
error_code reactor_core::impl::apply_entry(registration& r)
{
  if (registrations_by_driver.load(std::memory_order_relaxed) &&
      driver_ready.load(std::memory_order_acquire) &&
      driver->apply(boost::span<registration>(&r, 1)))
    return r.result;
  port* p = the_port.opened();
  if (!p) // the io_context_port driver took every registration, and it has stopped
    return boost::asio::error::operation_aborted;
  error_code call_failed;
  for (int attempt = 0; attempt < whole_call_attempts; ++attempt)
  {
    p->apply(boost::span<registration>(&r, 1), call_failed);
    if (!call_failed)
      return r.result;
  }
  return call_failed;
}

// Ends the registration of a socket being closed. Its `remove` packet is not waited for:
// the slot's generation changes with the close, so that packet, and any other still on its
// way, finds a stranger; nothing is leaked if it never comes.
void reactor_core::impl::end_registration(native_socket_type socket, void* key)
{
  counters.registered_sockets.fetch_sub(1, std::memory_order_relaxed);
  registration r;
  r.socket = socket;
  r.key = key;
  r.operation = operation::remove;
  apply_entry(r);
}

void reactor_core::impl::change_registration(descriptor_state& s, op_queue& done)
{
  const bool edge = options.trigger == trigger_strategy::persistent_edge;
  const events wanted = edge ? (events::in | events::out | events::hangup) : s.wanted_events();
  if (wanted == events::none || (edge && s.registered) || has_all(s.armed, wanted))
    return;
  registration r;
  r.socket = s.socket;
  r.key = descriptor_state_table::key_of(s);
  r.filter = wanted | s.armed;
  r.operation = operation::enable;
  r.triggers = edge ? (trigger::edge | trigger::persistent) : (trigger::level | trigger::oneshot);
  r.unready = s.unready;
  if (error_code ec = apply_entry(r))
  {
    s.abort_all(done, ec);
    return;
  }
  if (!s.registered)
  {
    reactor_counters::add(counters.registered_sockets);
    s.drained_hint = socket_ops::set_drained_hint(s.socket, true);
  }
  s.registered = true;
  s.armed = r.filter;
  if (edge) // rule 8: a condition true before an edge registration may never be reported
    for (int t = 0; t < max_ops; ++t)
      s.perform_queue(static_cast<op_type>(t), done, false, channels_for(s));
}

// Disarms a socket that nothing waits for any more (its operations cancelled), where an
// armed registration would hold the io_context's work: run() then returns as with Asio.
void reactor_core::impl::disarm_if_idle(descriptor_state& s)
{
  if (!driver_ready.load(std::memory_order_acquire) || !driver->polls_hold_work() ||
      !s.registered || s.armed == events::none || s.wanted_events() != events::none)
    return;
  registration r;
  r.socket = s.socket;
  r.key = descriptor_state_table::key_of(s);
  r.operation = operation::disable;
  apply_entry(r);
  s.armed = events::none;
}

// After a packet or a transfer's completion (with the state's mutex held).
void reactor_core::impl::rearm(descriptor_state& s, op_queue& done)
{
  try
  {
    update_registration(s, done);
  }
  catch (const std::bad_alloc&)
  {
    // No memory to re-arm with: the operations that would wait on without a registration
    // complete with no_memory rather than never.
    s.abort_all(done, boost::asio::error::no_memory);
  }
}

// --- operations ---

void reactor_core::impl::start_op(descriptor_state* s, op_type type, reactor_op* op,
                                  const error_code& start_error)
{
  // `finished`: the new operation, when it finishes here, inside its initiating function
  // (completion_mode::immediate); `done`: what a failed registration update aborts.
  op_queue finished;
  op_queue done;
  std::exception_ptr not_started;
  if (!s || shut_down.load(std::memory_order_relaxed))
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
    if (start_error)
    {
      op->ec_ = start_error;
      finished.push(op);
    }
    else if (s->ops[type].empty() && s->attempt(type, *op, false, channels_for(*s)))
      finished.push(op);
    else
    {
      s->ops[type].push(op);
      try
      {
        // A direction with a transfer in flight asks the port for nothing; nor may the
        // operation leave below once the system has its buffers.
        if (!s->in_flight[type])
          update_registration(*s, done);
      }
      catch (...)
      {
        // The port could not take the registration (out of memory): the operation was
        // never started, so it leaves as it came, its handler destroyed, uncounted.
        s->ops[type].remove(op);
        not_started = std::current_exception();
      }
      if (!not_started)
      {
        op->queued();
        // Only a queued operation tells the driver: its tracked work is what keeps the
        // context's count above zero while an inline driver's first wait takes its own
        // back. Told under the lock, which keeps the operation from completing: once it
        // can, its handler may end the program's use of this reactor (the last step of a
        // composed operation on another thread), and this call may touch nothing of it.
        if (tell_driver_queued.load(std::memory_order_acquire) && !driver->operation_queued())
          tell_driver_queued.store(false, std::memory_order_relaxed);
      }
    }
  }
  if (not_started)
  {
    op->complete(completion_mode::destroy);
    std::rethrow_exception(not_started);
  }
  // Operations in hand keep their context's work (op_work.hpp): the reactor outlives them.
  if (!finished.empty())
    complete_immediately(finished);
  if (!done.empty())
    complete(done, completion_mode::aborted);
}

// Completes the one operation `finished` may hold as the head of a completion (not through
// the noexcept complete_all): an immediate executor may run its handler here, and what that
// handler throws leaves the initiating function, as with Asio.
void reactor_core::impl::complete_immediately(op_queue& finished)
{
  complete(finished, completion_mode::immediate, completion_mode::post);
}

std::size_t reactor_core::impl::receive_now(descriptor_state& s, socket_ops::native_buffer* bufs,
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
    s.record_read(drained);
  return n;
}

void reactor_core::impl::cancel(descriptor_state& s)
{
  op_queue aborted;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    s.abort_all(aborted, boost::asio::error::operation_aborted);
    for (const op_type direction : {read_op, write_op})
      if (s.in_flight[direction])
        s.channel->cancel(direction); // its completion finishes the operation in it
    disarm_if_idle(s);
  }
  complete(aborted, completion_mode::aborted);
}

void reactor_core::impl::cancel_op(descriptor_state& s, op_type type, const void* key)
{
  op_queue aborted;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.in_flight[type] && s.ops[type].front()->cancellation_key_ == key)
      return s.channel->cancel(type); // its completion finishes the operation
    reactor_op* op = s.ops[type].erase(key);
    if (!op)
      return;
    op->ec_ = boost::asio::error::operation_aborted;
    aborted.push(op);
    disarm_if_idle(s);
  }
  complete(aborted, completion_mode::aborted);
}

// --- packets ---

void reactor_core::impl::handle(const packet& p, op_queue& done)
{
  if (p.kind == packet_kind::user)
    return; // a driver's wake-up
  if (has_any(p.events, events::remove))
    return; // the close did not wait for it (end_registration)
  descriptor_state* s = states.find(p.key);
  if (!s)
    return drop_stale();
  std::lock_guard<std::mutex> lock(s->mutex);
  if (s->closed || !descriptor_state_table::names(*s, p.key))
    return drop_stale();
  if (options.trigger == trigger_strategy::oneshot_level)
    s->armed = events::none; // rule 7: the one-shot registration is disabled now
  s->unready = events::none; // what was seen before the packet no longer holds
  const bool error = has_any(p.events, events::error);
  const bool hangup = error || has_any(p.events, events::hangup);
  const bool readable = hangup || has_any(p.events, events::in);
  s->hangup_seen = s->hangup_seen || hangup;
  if (readable)
  {
    s->read_drained = false;
    s->perform_queue(read_op, done, true, channels_for(*s));
  }
  if (error || has_any(p.events, events::out))
    s->perform_queue(write_op, done, true, channels_for(*s));
  if (hangup)
    s->perform_queue(except_op, done, true, {});
  rearm(*s, done);
}

// A packet for a socket closed since (its slot free, or another socket's now).
void reactor_core::impl::drop_stale() { reactor_counters::add(counters.stale_packets); }

// --- overlapped transfers (transfer_channel.hpp) ---

// The key is only read where a driver issues transfers.
channel_site reactor_core::impl::channels_for(const descriptor_state& s) const noexcept
{
  channel_issuer* i = issuer.load(std::memory_order_acquire);
  if (!i)
    return {};
  return {i, options.overlapped_receives, options.overlapped_sends,
          descriptor_state_table::key_of(s)};
}

void reactor_core::impl::transfer_completed(transfer_channel& channel, op_type direction,
                                            const error_code& ec, std::size_t bytes, bool drained,
                                            op_queue& done)
{
  if (descriptor_state* s = states.find(channel.key))
  {
    std::lock_guard<std::mutex> lock(s->mutex);
    if (!s->closed && s->channel == &channel && descriptor_state_table::names(*s, channel.key))
    {
      s->in_flight[direction] = false;
      done.push(finished(s->ops[direction].pop(), ec, bytes));
      if (direction == read_op)
        s->record_read(drained);
      // Data or an error is what a readiness packet would have reported: the operations
      // queued behind go on as after one (a cancelled transfer reports nothing).
      const bool reported = ec != boost::asio::error::operation_aborted;
      s->perform_queue(direction, done, reported, channels_for(*s));
      return rearm(*s, done);
    }
  }
  // The socket left the reactor with the transfer in flight (close_channel).
  if (reactor_op* op = channel.orphans[direction].exchange(nullptr, std::memory_order_acq_rel))
    done.push(finished(op, ec, bytes));
}

// --- completion ---

void reactor_core::impl::complete(op_queue& done, completion_mode first, completion_mode rest)
{
  std::size_t n = 0;
  for (reactor_op* op = done.front(); op; op = op->next_)
    ++n;
  if (n == 0)
    return;
  // Counted before the handlers are scheduled: a handler that reads the statistics
  // sees its own operation.
  reactor_counters::add(counters.operations_completed, n);
  if (first == rest && first == completion_mode::aborted)
  {
    const abort_hop_scope hop(abort_hop_executor()); // only here: off the I/O path
    return done.complete_all(rest);
  }
  if (first == rest)
    return done.complete_all(rest); // in order
  reactor_op* head = done.pop();
  std::exception_ptr failed;
  try
  {
    done.complete_all(rest);
  }
  catch (...)
  {
    failed = std::current_exception();
  }
  head->complete(first);
  if (failed)
    std::rethrow_exception(failed);
}

// --- shutdown ---

void reactor_core::impl::shutdown()
{
  {
    // The driver goes now, not in the destructor: services created after this one
    // (such as the one behind the inline driver's descriptor) are destroyed before it.
    std::lock_guard<std::mutex> lock(driver_mutex);
    if (shut_down.exchange(true))
      return;
    driver_ready.store(false, std::memory_order_release);
    tell_driver_queued.store(false, std::memory_order_relaxed);
    registrations_by_driver.store(false, std::memory_order_relaxed);
    // Before the driver, whose channels they are: a transfer in flight keeps its
    // operation (and the buffers it uses) until its completion, in Asio's shutdown.
    states.for_each([](descriptor_state& s) {
      std::lock_guard<std::mutex> state_lock(s.mutex);
      s.close_channel();
    });
    issuer.store(nullptr, std::memory_order_release);
    if (driver)
      driver->stop();
    driver.reset();
  }
  // Collect under the locks, destroy outside them: destroying a handler may destroy a
  // socket, whose close comes back here.
  op_queue doomed;
  states.for_each([&](descriptor_state& s) {
    std::lock_guard<std::mutex> state_lock(s.mutex);
    for (op_queue& q : s.ops)
      doomed.splice(q);
  });
  doomed.complete_all(completion_mode::destroy);
}

// --- reactor_core: the entry points the I/O objects call, exported ---

reactor_core::reactor_core(const reactor_options& options) : impl_(new impl(options)) {}

reactor_core::~reactor_core() = default;

void reactor_core::attach(const boost::asio::any_io_executor& io_executor)
{
  impl_->attach(io_executor);
}

void reactor_core::shutdown() { impl_->shutdown(); }

reactor_options reactor_core::options() const { return impl_->current_options(); }

reactor_statistics reactor_core::statistics() const noexcept { return impl_->statistics(); }

descriptor_state* reactor_core::adopt(native_socket_type s, error_code& ec) noexcept
{
  return impl_->adopt(s, ec);
}

void reactor_core::close(descriptor_state*& s, error_code& ec) { impl_->close(s, ec); }

native_socket_type reactor_core::release(descriptor_state*& s, error_code& ec)
{
  return impl_->release(s, ec);
}

void reactor_core::start_op(descriptor_state* s, op_type type, reactor_op* op,
                            const error_code& start_error)
{
  impl_->start_op(s, type, op, start_error);
}

std::size_t reactor_core::receive_now(descriptor_state& s, socket_ops::native_buffer* bufs,
                                      std::size_t count, socket_ops::message_flags flags,
                                      error_code& ec)
{
  return impl_->receive_now(s, bufs, count, flags, ec);
}

void reactor_core::cancel(descriptor_state& s) { impl_->cancel(s); }

void reactor_core::cancel_op(descriptor_state& s, op_type type, const void* key)
{
  impl_->cancel_op(s, type, key);
}

} // namespace detail
} // namespace asio_notify
} // namespace boost
