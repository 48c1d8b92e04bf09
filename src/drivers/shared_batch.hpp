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

#include <atomic>
#include <cstddef>
#include <memory>
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
  virtual void batch_done() = 0;

protected:
  ~batch_done_hook() = default;
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
/// a time. Why: doc/design.md, "Sharing a batch".
class shared_batch final
{
public:
  shared_batch(driven_reactor& reactor, const std::vector<packet>& packets, const batch_target& to)
      : reactor_(reactor), executor_(to.executor), packets_(packets),
        dequeuer_(std::this_thread::get_id()), gate_(to.gate), done_hook_(to.done_hook)
  {
  }

  /// Perform packets of the batch until none is left unclaimed; call from a thread that
  /// runs the executor's context. No packet is stranded, even when a handler run inline
  /// throws out of here: a worker that claims its first packet while another is unclaimed
  /// has posted a new worker first, and without memory for that post it performs the rest
  /// itself.
  static void work(const std::shared_ptr<shared_batch>& self);

  /// Hand the batch to the executor's threads.
  static void invite(const std::shared_ptr<shared_batch>& self);

private:
  std::size_t claim() noexcept { return next_.fetch_add(1, std::memory_order_relaxed); }
  static bool try_invite(const std::shared_ptr<shared_batch>& self) noexcept;
  void perform(std::size_t i);
  void perform_uninvited(const std::shared_ptr<shared_batch>& self, std::size_t i);

  driven_reactor& reactor_;
  boost::asio::any_io_executor executor_;
  std::vector<packet> packets_;
  std::thread::id dequeuer_;
  std::shared_ptr<handoff_gate> gate_; // a reactor thread's, for the batches it hands over
  batch_done_hook* done_hook_;         // told when a thread finds nothing left to claim
  std::atomic<std::size_t> next_{0};
};

/// The first half of handling one dequeue: the port's own packets are handled at once, the
/// I/O packets copied to `io` (the port's buffer is the next dequeue's). Returns whether
/// the user packet with `exit_key` was among them. Allocates nothing when `io` has room
/// for `n`.
bool partition_dequeued(driven_reactor& reactor, const packet* packets, std::size_t n,
                        const void* exit_key, std::vector<packet>& io);

/// The second half: the I/O packets performed where `to` says. `io` is read before any
/// handler runs, so a handler that runs the io_context (and dequeues) inside may reuse it.
/// Without memory for a batch they are performed here, in order: no packet is dropped.
void perform_dequeued(driven_reactor& reactor, const std::vector<packet>& io,
                      const batch_target& to);

/// Posts the reactor threads' exit packet, retrying while the port has no memory for it:
/// a lost exit would leave a reactor thread waiting for good, and its join with it.
void post_exit(port& p, void* exit_key) noexcept;

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
