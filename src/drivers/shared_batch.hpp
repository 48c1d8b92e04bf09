//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// One dequeue's packets, from whichever driver: the port's own handled at once, the I/O
// packets performed where the driver says, shared by the io_context's threads.
#ifndef BOOST_ASIO_NOTIFY_SRC_DRIVERS_SHARED_BATCH_HPP
#define BOOST_ASIO_NOTIFY_SRC_DRIVERS_SHARED_BATCH_HPP

#include "handoff_gate.hpp"
#include "port_lease.hpp"
#include "reactor_driver.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/post.hpp>

#include <atomic>
#include <cstddef>
#include <memory>
#include <new>
#include <thread>
#include <vector>

namespace boost {
namespace asio_notify {
namespace detail {

/// Told by an io_context thread that has done its share of a batch (the thread driver's
/// look into the port, io_thread_dequeuer.hpp).
class batch_done_hook
{
public:
  virtual void batch_done() noexcept = 0;

protected:
  ~batch_done_hook() = default;
};

/// Tells `hook` (may be null) that this thread has done its share of a batch when it leaves
/// the scope, also when a handler called directly (op_work::dispatches_here) throws out of
/// it: the next look into the port must not wait for a reactor thread's patience.
class share_done
{
public:
  explicit share_done(batch_done_hook* hook) noexcept : hook_(hook) {}
  share_done(const share_done&) = delete;
  share_done& operator=(const share_done&) = delete;
  ~share_done()
  {
    if (hook_)
      hook_->batch_done();
  }

private:
  batch_done_hook* hook_;
};

/// Where a dequeue's I/O packets are performed.
enum class batch_site
{
  this_thread,   // the dequeuing thread runs the io_context: it starts on the batch itself
  context,       // a reactor thread: the batch goes to the io_context's threads (one post)
  reactor_thread // no io_context to hand it to: the reactor thread performs it all
};

/// Where a driver's dequeued packets go: `executor` is the io_context's (or thread pool's),
/// `gate` a reactor thread's hand-over limit (context only), `done_hook` told by each io thread
/// that has done its share (may be null), `lease` lent to the io threads with each batch
/// handed over (context only; may be null).
struct batch_target
{
  batch_site where;
  boost::asio::any_io_executor executor;
  std::shared_ptr<handoff_gate> gate;
  batch_done_hook* done_hook = nullptr;
  port_lease* lease = nullptr;
};

/// A batch of I/O packets that every io_context thread working on it claims one packet at
/// a time. Why: doc/design.md, "Sharing a batch". `Reactor` is driven_reactor but in a test
/// (handoff_failure_test's recording reactor).
template <class Reactor>
class shared_batch final
{
public:
  shared_batch(Reactor& reactor, const std::vector<packet>& packets, const batch_target& to)
      : reactor_(reactor), executor_(to.executor), packets_(packets),
        dequeuer_(std::this_thread::get_id()), gate_(to.gate), done_hook_(to.done_hook)
  {
  }

  /// Perform packets of the batch until none is left unclaimed; call from a thread that
  /// runs the executor's context. No packet is stranded, even when a handler run inline
  /// throws out of here: a worker that claims its first packet while another is unclaimed
  /// has posted a new worker first, and without memory for that post it performs the rest
  /// itself.
  static void work(const std::shared_ptr<shared_batch>& self)
  {
    shared_batch& b = *self;
    const share_done told(b.done_hook_);
    const std::size_t n = b.packets_.size();
    bool invited = false;
    for (std::size_t i = b.claim(); i < n; i = b.claim())
    {
      if (i + 1 == n && b.gate_)
        b.gate_->taken_up();
      if (!invited && i + 1 < n)
        invited = try_invite(self);
      if (invited)
        b.perform(i);
      else
        b.perform_uninvited(self, i);
    }
  }

  /// Hand the batch to the executor's threads.
  static void invite(const std::shared_ptr<shared_batch>& self)
  {
    boost::asio::post(self->executor_, [self] { work(self); });
  }

private:
  std::size_t claim() noexcept { return next_.fetch_add(1, std::memory_order_relaxed); }

  // Without memory for a worker this thread claims the rest itself: nothing is dropped.
  static bool try_invite(const std::shared_ptr<shared_batch>& self) noexcept
  {
    try
    {
      invite(self);
      return true;
    }
    catch (...)
    {
      return false;
    }
  }

  void perform(std::size_t i)
  {
    if (std::this_thread::get_id() != dequeuer_)
      reactor_counters::add(reactor_.counters.packets_handed_over);
    op_queue done;
    reactor_.handle(packets_[i], done);
    reactor_.complete(done, completion_mode::dispatch, completion_mode::defer);
  }

  // A handler that throws out of a batch nobody else works on must not strand the packets
  // after it: a worker is invited for them on the way out, if there is memory for one.
  void perform_uninvited(const std::shared_ptr<shared_batch>& self, std::size_t i)
  {
    try
    {
      perform(i);
    }
    catch (...)
    {
      if (next_.load(std::memory_order_relaxed) < packets_.size())
        try_invite(self);
      throw;
    }
  }

  Reactor& reactor_;
  boost::asio::any_io_executor executor_;
  std::vector<packet> packets_;
  std::thread::id dequeuer_;
  std::shared_ptr<handoff_gate> gate_; // a reactor thread's, for the batches it hands over
  batch_done_hook* done_hook_;         // told when a thread finds nothing left to claim
  std::atomic<std::size_t> next_{0};
};

/// Whether `p` carries readiness for a socket's operations, rather than being the port's own
/// (a REMOVE or a user packet), which is handled where it is dequeued.
inline bool is_io_packet(const packet& p) noexcept
{
  return p.kind != packet_kind::user && !has_any(p.events, events::remove);
}

/// The first half of handling one dequeue: the port's own packets are handled at once, the
/// I/O packets copied to `io` (the port's buffer is the next dequeue's). Returns whether
/// the user packet with `exit_key` was among them. Allocates nothing when `io` has room
/// for `n`.
template <class Reactor>
bool partition_dequeued(Reactor& reactor, const packet* packets, std::size_t n,
                        const void* exit_key, std::vector<packet>& io)
{
  io.clear();
  bool exit_seen = false;
  op_queue none; // the port's own packets finish no operation
  for (std::size_t i = 0; i < n; ++i)
  {
    const packet& p = packets[i];
    if (p.kind == packet_kind::user && p.key == exit_key)
      exit_seen = true;
    else if (!is_io_packet(p))
      reactor.handle(p, none);
    else
      io.push_back(p);
  }
  return exit_seen;
}

namespace batch_handover {

/// A batch of `io` for the context's threads, or null when there is no memory for it.
template <class Reactor>
std::shared_ptr<shared_batch<Reactor>> make_batch(Reactor& reactor, const std::vector<packet>& io,
                                                  const batch_target& to) noexcept
{
  try
  {
    return std::make_shared<shared_batch<Reactor>>(reactor, io, to);
  }
  catch (const std::bad_alloc&)
  {
    return nullptr;
  }
}

/// Hands `io` to the context's threads; false, having changed nothing, when there is no
/// memory for the batch or its post.
template <class Reactor>
bool hand_over(Reactor& reactor, const std::vector<packet>& io, const batch_target& to)
{
  std::shared_ptr<shared_batch<Reactor>> batch = make_batch(reactor, io, to);
  if (!batch)
    return false;
  to.gate->handing_over();
  if (to.lease) // before the post: the look that gives it back may come at once
    to.lease->lend(io.size());
  auto never_handed_over = [&to] {
    to.gate->taken_up();
    if (to.lease)
      to.lease->give_back();
  };
  try
  {
    shared_batch<Reactor>::invite(batch);
  }
  catch (const std::bad_alloc&)
  {
    never_handed_over();
    return false;
  }
  catch (...)
  {
    never_handed_over();
    throw;
  }
  return true;
}

} // namespace batch_handover

/// The second half: the I/O packets performed where `to` says. `io` is read before any
/// handler runs, so a handler that runs the io_context (and dequeues) inside may reuse it.
/// Without memory for a batch they are performed here, in order: no packet is dropped.
template <class Reactor>
void perform_dequeued(Reactor& reactor, const std::vector<packet>& io, const batch_target& to)
{
  // Without memory to hand the batch over, the reactor thread performs it and posts the
  // handlers, as where there is no context.
  if (to.where == batch_site::context && !io.empty() && batch_handover::hand_over(reactor, io, to))
    return;
  if (to.where == batch_site::this_thread && io.size() > 1)
    if (auto batch = batch_handover::make_batch(reactor, io, to))
      return shared_batch<Reactor>::work(batch);
  op_queue done;
  for (const packet& p : io)
    reactor.handle(p, done);
  if (to.where != batch_site::this_thread)
    return reactor.complete(done, completion_mode::post, completion_mode::post);
  const share_done told(to.done_hook);
  reactor.complete(done, completion_mode::dispatch, completion_mode::defer);
}

// The drivers' own instantiations are compiled once, in shared_batch.cpp.
extern template class shared_batch<driven_reactor>;
extern template bool partition_dequeued<driven_reactor>(driven_reactor&, const packet*, std::size_t,
                                                        const void*, std::vector<packet>&);
extern template void perform_dequeued<driven_reactor>(driven_reactor&, const std::vector<packet>&,
                                                      const batch_target&);

/// Posts the reactor threads' exit packet, retrying while the port has no memory for it:
/// a lost exit would leave a reactor thread waiting for good, and its join with it.
void post_exit(port& p, void* exit_key) noexcept;

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
