//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The drivers: reactor threads blocking in the port, or the io_context's own threads
// waiting for the port's descriptor through the io_context itself, either as an operation
// of Asio's own reactor (inline_driver) or as a public async_wait (inline_portable).

#include "reactor_driver.hpp"
#include "inline_driver_shape.hpp"
#include "exception_mailbox.hpp"

#include <boost/asio/defer.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/system/system_error.hpp>

#if defined(BOOST_ASIO_NOTIFY_HAS_INLINE_DRIVERS) // see inline_driver_shape.hpp
#include <boost/asio/posix/stream_descriptor.hpp>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace boost {
namespace asio_notify {
namespace detail {

namespace {

/* How many handed-over batches may wait to be taken up by the context's threads: a reactor
   thread that handed over every dequeue at once would hand over one packet per wake-up (a
   post and a thread wake-up each) while the context is busy. Waiting until its last batch
   has been taken up lets the port gather what becomes ready meanwhile into the next batch.

   The wait comes after the dequeue, not before it: while the context keeps up (the usual
   case, and always in a request-response exchange) the last batch has been taken up long
   before the next packet arrives, so the reactor thread goes straight back to the port and
   each packet costs it one wake-up, the port's, instead of a second one from the gate. */
class handoff_gate
{
public:
  explicit handoff_gate(std::size_t limit) : limit_(limit) {}

  /// Block until fewer than `limit` batches wait to be taken up, or the gate is opened.
  /// Returns whether it had to wait.
  bool wait_for_room()
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (has_room())
      return false;
    room_.wait(lock, [this] { return has_room(); });
    return true;
  }

  /// A batch is about to be handed over.
  void handing_over()
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++waiting_;
  }

  /// A context thread claimed a handed-over batch's last packet.
  void taken_up()
  {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      --waiting_;
    }
    room_.notify_one();
  }

  /// Let every reactor thread through from now on (the driver is stopping).
  void open()
  {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      opened_ = true;
    }
    room_.notify_all();
  }

private:
  bool has_room() const noexcept { return waiting_ < limit_ || opened_; }

  std::mutex mutex_;
  std::condition_variable room_;
  std::size_t waiting_ = 0;
  const std::size_t limit_;
  bool opened_ = false;
};

/// Told by an io_context thread that has done its share of a batch (see thread_driver).
class batch_done_hook
{
public:
  virtual void batch_done() = 0;

protected:
  ~batch_done_hook() = default;
};

/* Spreading a batch over the io_context's threads (both drivers).

   A dequeue returns up to `batch_size` packets. Performing all of their I/O in the thread
   that dequeued them would make that thread do the work of the whole context while the
   others wait; stock Asio instead hands each ready descriptor to whichever of its threads
   is free. So a batch of I/O packets is shared: every io_context thread that works on it
   claims one packet at a time (an atomic counter), performs its operations and runs the
   first finished handler at once, where its data is hot. A thread that claims a packet
   while another is still unclaimed first invites one more thread (one post: the
   scheduler's lock and at most one wake-up), so the helpers grow one by one while there is
   work left, as Asio's own wake-up chain does, rather than one post per packet. The other
   handlers a packet finishes are deferred: queued by Asio without its lock or a wake-up
   until the work returns, then handed to the other threads in one go.

   The port's own packets (`remove`, user packets) carry no I/O: the dequeuing thread
   handles them itself. */
class shared_batch final
{
public:
  shared_batch(packet_handler& handler, boost::asio::any_io_executor ex,
               const std::vector<packet>& packets, std::shared_ptr<handoff_gate> gate,
               batch_done_hook* done)
      : handler_(handler), executor_(std::move(ex)), packets_(packets),
        dequeuer_(std::this_thread::get_id()), gate_(std::move(gate)), done_(done)
  {
  }

  /// Perform packets of the batch until none is left unclaimed; call from a thread that
  /// runs the executor's context.
  ///
  /// No packet is ever stranded, even when a handler run inline throws out of here: a
  /// worker that claims its first packet while another is unclaimed has posted a new
  /// worker first, so while packets remain unclaimed a posted worker is waiting for them.
  static void work(const std::shared_ptr<shared_batch>& self)
  {
    shared_batch& b = *self;
    const std::size_t n = b.packets_.size();
    bool invited = false;
    for (std::size_t i = b.claim(); i < n; i = b.claim())
    {
      if (i + 1 == n && b.gate_)
        b.gate_->taken_up();
      if (!invited && i + 1 < n)
      {
        invited = true;
        invite(self);
      }
      b.perform(i);
    }
    if (b.done_)
      b.done_->batch_done();
  }

  /// Hand the batch to the executor's threads.
  static void invite(const std::shared_ptr<shared_batch>& self)
  {
    boost::asio::post(self->executor_, [self] { work(self); });
  }

private:
  std::size_t claim() noexcept { return next_.fetch_add(1, std::memory_order_relaxed); }

  void perform(std::size_t i)
  {
    if (std::this_thread::get_id() != dequeuer_)
      handler_.handed_over(1);
    op_queue done;
    handler_.handle(packets_[i], done);
    handler_.complete(done, completion_mode::dispatch, completion_mode::defer);
  }

  packet_handler& handler_;
  boost::asio::any_io_executor executor_;
  std::vector<packet> packets_;
  std::thread::id dequeuer_;
  std::shared_ptr<handoff_gate> gate_; // a reactor thread's, for the batches it hands over
  batch_done_hook* done_;              // told when a thread finds nothing left to claim
  std::atomic<std::size_t> next_{0};
};

/// Where a dequeue's I/O packets are performed.
enum class batch_site
{
  this_thread,   // the dequeuing thread runs the io_context: it starts on the batch itself
  context,       // a reactor thread: the batch goes to the io_context's threads (one post)
  reactor_thread // no io_context to hand it to: the reactor thread performs it all
};

/// Where a driver's dequeued packets go: `executor` is the io_context's (or thread pool's),
/// `gate` a reactor thread's hand-over limit (context only), `done` told by each io thread
/// that has done its share (may be null).
struct batch_target
{
  batch_site where;
  boost::asio::any_io_executor executor;
  std::shared_ptr<handoff_gate> gate;
  batch_done_hook* done = nullptr;
};

/* The first half of handling one dequeue, from whichever driver: the port's own packets
   are handled at once, the I/O packets copied to `io` (the port's buffer is the next
   dequeue's). Returns whether the user packet with `exit_key` was among them. */
bool partition_dequeued(packet_handler& handler, const packet* packets, std::size_t n,
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
    else if (p.kind == packet_kind::user || has_any(p.events, events::remove))
      handler.handle(p, none);
    else
      io.push_back(p);
  }
  return exit_seen;
}

/// A batch of `io` for the context's threads, or null when there is no memory for it.
std::shared_ptr<shared_batch> make_batch(packet_handler& handler, const std::vector<packet>& io,
                                         const batch_target& to) noexcept
{
  try
  {
    return std::make_shared<shared_batch>(handler, to.executor, io, to.gate, to.done);
  }
  catch (const std::bad_alloc&)
  {
    return nullptr;
  }
}

/// Hands `io` to the context's threads; false, having changed nothing, when there is no
/// memory for the batch or its post.
bool hand_over(packet_handler& handler, const std::vector<packet>& io, const batch_target& to)
{
  std::shared_ptr<shared_batch> batch = make_batch(handler, io, to);
  if (!batch)
    return false;
  to.gate->handing_over();
  try
  {
    shared_batch::invite(batch);
  }
  catch (const std::bad_alloc&)
  {
    to.gate->taken_up(); // never handed over after all
    return false;
  }
  catch (...)
  {
    to.gate->taken_up();
    throw;
  }
  return true;
}

/* The second half: the dequeue's I/O packets performed where `to` says. `io` is read before
   any handler runs, so a handler that runs the io_context (and dequeues) inside may reuse
   it. Without memory for a batch, they are performed here, in order: no packet is dropped. */
void perform_dequeued(packet_handler& handler, const std::vector<packet>& io,
                      const batch_target& to)
{
  // Without memory to hand the batch over, the reactor thread performs it and posts the
  // handlers, as where there is no context.
  if (to.where == batch_site::context && !io.empty() && hand_over(handler, io, to))
    return;
  if (to.where == batch_site::this_thread && io.size() > 1)
    if (std::shared_ptr<shared_batch> batch = make_batch(handler, io, to))
      return shared_batch::work(batch);
  op_queue done;
  for (const packet& p : io)
    handler.handle(p, done);
  if (to.where != batch_site::this_thread)
    return handler.complete(done, completion_mode::post, completion_mode::post);
  handler.complete(done, completion_mode::dispatch, completion_mode::defer);
  if (to.done)
    to.done->batch_done();
}

/* Reactor threads block in the port. Where the sockets run on an io_context (or a thread
   pool), they only dequeue and hand the I/O packets to the context's threads, one post per
   dequeue: several reactor threads can share the port (one-shot level registrations are
   Microsoft's pattern for that), and the I/O runs on every thread of the context. Where
   the sockets' executor has no context we can see, the reactor thread performs the I/O
   and posts the handlers.

   A hand-over costs a thread switch, and an idle reactor thread is woken by the port: two
   wake-ups for every packet where an io thread that waits in the port itself (the inline
   drivers, stock Asio) needs none while it keeps busy. So an io thread that has done its
   share of a batch also looks into the port once, without waiting (a "speculative"
   dequeue, deferred behind the handlers it has queued), and performs what it finds as the
   inline drivers do: what its own handlers made ready (the other end of a local exchange,
   a response's next request) is handled without waking anyone. One io thread looks at a
   time; looks that keep finding nothing become rarer (after the second in a row, 1, 3,
   7 ... up to 63 batches are skipped), so a server whose packets come from afar pays one
   non-waiting dequeue per 64 batches at most. The reactor threads stay blocked in the port all along:
   they still take what becomes ready while every io thread is busy. */
class thread_driver final : public reactor_driver, private batch_done_hook
{
public:
  thread_driver(port& p, packet_handler& handler, const reactor_options& options,
                boost::asio::any_io_executor context_executor)
      : port_(p), handler_(handler),
        batch_size_(options.batch_size), target_{context_executor ? batch_site::context
                                                                  : batch_site::reactor_thread,
                                                 context_executor,
                                                 std::make_shared<handoff_gate>(options.threads),
                                                 this},
        io_thread_target_{batch_site::this_thread, std::move(context_executor), nullptr, this}
  {
    for (std::size_t i = 0; i < options.threads; ++i)
      threads_.emplace_back([this, b = std::make_unique<buffers>(batch_size_)] { run(*b); });
  }

  ~thread_driver() override { stop(); }

  void operation_queued() override {}

  void stop() override
  {
    std::lock_guard<std::mutex> lock(stop_mutex_);
    stopped_.store(true, std::memory_order_release);
    if (threads_.empty())
      return;
    target_.gate->open(); // a context that no longer runs must not hold a thread back
    port_.post(&exit_key_, 0);
    for (std::thread& t : threads_)
      t.join();
    threads_.clear();
  }

private:
  // Made before the thread starts, so that a reactor thread never allocates to sort.
  struct buffers
  {
    explicit buffers(std::size_t batch) : dequeued(batch) { io.reserve(batch); }
    std::vector<packet> dequeued;
    std::vector<packet> io;
  };

  void run(buffers& b)
  {
    bool exit_seen = false;
    while (!exit_seen)
    {
      boost::system::error_code ec;
      std::size_t n = dequeue(b, ec);
      handler_.dequeued(n);
      exit_seen = partition_dequeued(handler_, b.dequeued.data(), n, &exit_key_, b.io);
      try
      {
        perform_dequeued(handler_, b.io, target_);
      }
      catch (...)
      {
        deliver(std::current_exception());
      }
      if (ec && n == 0) // cannot happen short of a broken port: do not spin on it
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    port_.post(&exit_key_, 0); // pass the exit on to the next thread
  }

  // The ports report failures as error codes; an exception all the same (a port that ran
  // out of memory) goes to run() like any other, rather than end the process.
  std::size_t dequeue(buffers& b, boost::system::error_code& ec) noexcept
  {
    std::size_t n = 0;
    try
    {
      n = port_.dequeue(b.dequeued, port::infinite, ec);
      if (target_.gate->wait_for_room() && n < batch_size_) // what became ready meanwhile
        n += port_.dequeue(boost::span<packet>(b.dequeued).subspan(n), std::chrono::milliseconds(0),
                           ec);
    }
    catch (...)
    {
      deliver(std::current_exception());
      ec = boost::asio::error::no_memory;
    }
    return n;
  }

  // An exception on a reactor thread (an executor that refused a handler, which went with
  // its operation) is rethrown from the io_context's run(), as Asio's would be; the thread
  // goes on. Without an io_context to give it to it is dropped.
  void deliver(std::exception_ptr e) noexcept
  {
    if (target_.executor)
      thrown_->deliver(std::move(e), target_.executor);
  }

  // An io thread has done its share of a batch: look into the port once it has run what it
  // queued, unless another io thread is about to, or recent looks found nothing.
  void batch_done() override
  {
    int skip = batches_to_skip_.load(std::memory_order_relaxed);
    while (skip > 0 &&
           !batches_to_skip_.compare_exchange_weak(skip, skip - 1, std::memory_order_relaxed))
    {
    }
    if (skip > 0 || stopped_.load(std::memory_order_acquire) ||
        looking_.exchange(true, std::memory_order_acq_rel))
      return;
    boost::asio::defer(io_thread_target_.executor, [this] { look_into_port(); });
  }

  void look_into_port()
  {
    if (stopped_.load(std::memory_order_acquire))
      return;
    thread_local std::vector<packet> buffer;
    thread_local std::vector<packet> io;
    buffer.resize(batch_size_);
    boost::system::error_code ec;
    const std::size_t n = port_.dequeue(buffer, std::chrono::milliseconds(0), ec);
    handler_.io_thread_looked();
    handler_.dequeued(n);
    // A single miss is no sign: a reactor thread may have taken what this look was for.
    misses_ = n == 0 ? std::min(misses_ + 1, 7) : 0; // only the looking thread writes it
    batches_to_skip_.store(misses_ < 2 ? 0 : (1 << (misses_ - 1)) - 1, std::memory_order_relaxed);
    looking_.store(false, std::memory_order_release); // its batch may look again
    if (n == 0)
      return;
    if (partition_dequeued(handler_, buffer.data(), n, &exit_key_, io))
      port_.post(&exit_key_, 0); // the reactor threads' exit: theirs to see
    perform_dequeued(handler_, io, io_thread_target_);
  }

  port& port_;
  packet_handler& handler_;
  const std::size_t batch_size_;
  const batch_target target_;           // a reactor thread's batches: to the context
  const batch_target io_thread_target_; // an io thread's own look: performed there
  // Made before the threads: it delivers their exceptions without allocating.
  const std::shared_ptr<exception_mailbox> thrown_ = std::make_shared<exception_mailbox>();
  std::mutex stop_mutex_;
  std::vector<std::thread> threads_;
  std::atomic<bool> stopped_{false};
  std::atomic<bool> looking_{false};    // a look into the port is deferred or running
  std::atomic<int> batches_to_skip_{0}; // before the next look, after looks that missed
  int misses_ = 0;                      // guarded by `looking_`
  char exit_key_ = 0;
};

#if defined(BOOST_ASIO_NOTIFY_HAS_INLINE_DRIVERS)

/* What both inline drivers share: the io_context's threads dequeue the port, without
   waiting, when the io_context's reactor reports the port's descriptor readable, and handle
   the batch in the thread that dequeued it: no thread of ours, no thread switch, the first
   finished operation's handler run inline as Asio runs its own.

   The wait on the port is not work, just as Asio's reactor task is not: its count in the
   io_context is taken back once the wait is queued, and given again when it completes
   (the scheduler counts a finished operation off after its completion returns). */
class port_batch
{
public:
  port_batch(boost::asio::io_context& ioc, port& p, packet_handler& handler, std::size_t batch)
      : ioc_(ioc), target_{batch_site::this_thread, ioc.get_executor(), nullptr}, port_(p),
        handler_(handler), packets_(batch)
  {
  }

  /// Dequeue what the port holds, without waiting. False when it held nothing.
  bool dequeue_now()
  {
    boost::system::error_code ec;
    count_ = port_.dequeue(packets_, std::chrono::milliseconds(0), ec);
    handler_.dequeued(count_);
    return count_ != 0;
  }

  /// Whether the last dequeue took fewer packets than asked: the port had no more (the
  /// epoll port polls again rather than return a short batch while more may be ready).
  bool exhausted() const noexcept { return count_ < packets_.size(); }

  /// Handle the dequeued packets (see partition_dequeued). `rearm(continuation)` queues the
  /// next wait once they are out of the port's buffer, so that another thread can dequeue
  /// the next batch meanwhile; after a full batch the next wait is no continuation and its
  /// completion goes to the shared queue for an idle thread to take.
  template <class Rearm>
  void handle(Rearm&& rearm)
  {
    thread_local std::vector<packet> io;
    try
    {
      io.reserve(count_); // partition_dequeued then cannot fail
    }
    catch (const std::bad_alloc&)
    {
      return handle_in_place(rearm);
    }
    partition_dequeued(handler_, packets_.data(), count_, nullptr, io);
    rearm(exhausted());
    perform_dequeued(handler_, io, target_);
  }

  boost::asio::io_context& context() const noexcept { return ioc_; }
  port& the_port() const noexcept { return port_; }

private:
  // Without memory to copy the packets out of the port's buffer: every packet is handled
  // from it before the next wait is queued (which lets the buffer be reused), on this thread.
  template <class Rearm>
  void handle_in_place(Rearm& rearm)
  {
    op_queue done;
    for (std::size_t i = 0; i < count_; ++i)
      handler_.handle(packets_[i], done);
    rearm(exhausted());
    handler_.complete(done, completion_mode::dispatch, completion_mode::defer);
  }

private:
  boost::asio::io_context& ioc_;
  const batch_target target_; // made once: helpers are posted to its executor
  port& port_;
  packet_handler& handler_;
  std::vector<packet> packets_;
  std::size_t count_ = 0;
};

// ---- inline_driver: an operation of Asio's own epoll reactor ------------------------------

/* Why Asio's detail API (epoll_reactor, reactor_op, scheduler) rather than the public
   posix::stream_descriptor::async_wait of inline_portable: a public wait costs an
   epoll_ctl(MOD) per wait (Asio re-arms every non-speculative wait): half again a
   ping-pong's system calls. Our own operation stays queued on the port's descriptor while
   the port is empty (perform() says not_done), dequeues inside Asio's perform_io exactly
   when the descriptor is reported, and re-arms without a system call when the dequeue
   emptied the port (done_and_exhausted, as Asio's own reads do).

   Availability is decided from what the code uses, not from a version window:
   `asio_reactor_shape` (inline_driver_shape.hpp) checks every member, type and value this
   adapter names (they have had this shape from Boost 1.81 to 1.90 at least). A Boost
   where they differ gets inline_portable instead.

   perform_io and start_op of one descriptor never run at once: Asio's per-descriptor lock
   keeps them apart, or, where an io_context turns that lock off (concurrency hint
   BOOST_ASIO_CONCURRENCY_HINT_UNSAFE_IO, or from Boost 1.87 `reactor.io_locking=0`),
   Asio's rule for doing so: the io_context and its I/O objects (ours included) are used
   by one thread at a time. The waiter's own state is touched by perform and then by the
   completion, never by two threads at once either way. */
using asio_reactor = boost::asio::detail::epoll_reactor;
using asio_operation = boost::asio::detail::reactor_op;
using asio_scheduler = boost::asio::detail::scheduler;

template <class Reactor, class Operation, class Scheduler>
class asio_reactor_waiter final
    : public std::enable_shared_from_this<asio_reactor_waiter<Reactor, Operation, Scheduler>>
{
public:
  asio_reactor_waiter(boost::asio::io_context& ioc, port& p, packet_handler& handler,
                      std::size_t batch)
      : batch_(ioc, p, handler, batch), reactor_(boost::asio::use_service<Reactor>(ioc)),
        scheduler_(boost::asio::use_service<Scheduler>(ioc)), op_(*this)
  {
    reactor_.init_task();
    if (int err = reactor_.register_descriptor(p.native_handle(), descriptor_data_))
      throw boost::system::system_error(err, boost::system::system_category(),
                                        "boost::asio_notify::reactor: inline driver");
  }

  /// Queue the wait on the port's descriptor. `continuation`: called from our own
  /// completion, in a thread running the io_context.
  void arm(bool continuation)
  {
    op_.keep_alive = this->shared_from_this();
    reactor_.start_op(Reactor::read_op, batch_.the_port().native_handle(), descriptor_data_, &op_,
                      continuation, true);
    scheduler_.work_finished();
  }

  /// Take the wait out of Asio's reactor; it completes (aborted) or is destroyed later.
  /// The descriptor's state is released now, as Asio's own sockets release theirs on
  /// close: Asio's reactor frees every state it still holds when it shuts down.
  void stop()
  {
    stopped_ = true;
    reactor_.deregister_descriptor(batch_.the_port().native_handle(), descriptor_data_, false);
    reactor_.cleanup_descriptor_data(descriptor_data_);
  }

private:
  // The operation Asio's reactor holds; it keeps the waiter alive while Asio has it.
  struct wait_op final : Operation
  {
    explicit wait_op(asio_reactor_waiter& w)
        : Operation(boost::system::error_code(), &do_perform, &do_complete), waiter(w)
    {
    }

    // In Asio's perform_io.
    static typename Operation::status do_perform(boost::asio::detail::reactor_op* base)
    {
      port_batch& batch = static_cast<wait_op*>(base)->waiter.batch_;
      if (!batch.dequeue_now())
        return Operation::not_done;
      return batch.exhausted() ? Operation::done_and_exhausted : Operation::done;
    }

    static void do_complete(void* owner, boost::asio::detail::scheduler_operation* base,
                            const boost::system::error_code& ec, std::size_t)
    {
      auto self = std::move(static_cast<wait_op*>(base)->keep_alive);
      if (owner && self) // else destroyed by the io_context's shutdown
        self->on_dequeued(ec);
    }

    asio_reactor_waiter& waiter;
    std::shared_ptr<asio_reactor_waiter> keep_alive;
  };

  void on_dequeued(const boost::system::error_code& ec)
  {
    scheduler_.work_started(); // for the scheduler's work_finished() after us
    if (ec || stopped_)
      return; // deregistered: the reactor is shutting down
    batch_.handle([this](bool continuation) { arm(continuation); });
  }

  port_batch batch_;
  Reactor& reactor_;
  Scheduler& scheduler_;
  typename Reactor::per_descriptor_data descriptor_data_ = nullptr;
  wait_op op_;
  bool stopped_ = false;
};

// ---- inline_portable: a public async_wait on the port's descriptor --------------------------

/* Built on Asio's public API alone, for a Boost whose reactor the adapter above does not
   recognise (and selectable, for tests and comparison). Costs one epoll_ctl per wake-up
   more than inline_driver, and a handler object per wait. The wait's count as work is
   taken back with the executor's on_work_finished(), a public member of io_context's
   executor that BOOST_ASIO_NO_TS_EXECUTORS removes: then this driver is unavailable
   (`has_work_counting`). */
template <class Executor>
class descriptor_waiter final : public std::enable_shared_from_this<descriptor_waiter<Executor>>
{
public:
  descriptor_waiter(boost::asio::io_context& ioc, port& p, packet_handler& handler,
                    std::size_t batch)
      : batch_(ioc, p, handler, batch), descriptor_(std::in_place, ioc, p.native_handle())
  {
  }

  // The wait's memory is the slot's, so that arming, in an initiating function or in the
  // handler that re-arms, cannot fail for want of memory (which would stop the driver).
  void arm(bool)
  {
    descriptor_->async_wait(descriptor::wait_read, ready_handler{this->shared_from_this()});
    work().on_work_finished();
  }

  /// Hand the port's descriptor back (the port owns it) and drop the wait: it completes
  /// aborted, or is destroyed with the io_context's queue.
  void stop()
  {
    stopped_ = true;
    descriptor_->release();
    descriptor_.reset();
  }

private:
  Executor work() const { return batch_.context().get_executor(); }

  void on_ready(const boost::system::error_code& ec)
  {
    work().on_work_started(); // for the scheduler's count after this handler
    if (ec || stopped_)
      return;
    if (!batch_.dequeue_now())
      return arm(true); // nothing after all (another thread took it): wait again
    batch_.handle([this](bool continuation) { arm(continuation); });
  }

  struct ready_handler
  {
    using allocator_type = arena_allocator<void, basic_arena<256>>;
    allocator_type get_allocator() const noexcept { return allocator_type(self->slot_); }
    void operator()(const boost::system::error_code& ec) const { self->on_ready(ec); }
    std::shared_ptr<descriptor_waiter> self;
  };

  // On the io_context's own executor type: no type-erased executor per wait.
  using descriptor = boost::asio::posix::basic_stream_descriptor<Executor>;

  port_batch batch_;
  std::optional<descriptor> descriptor_;
  basic_arena<256> slot_; // one wait at a time
  bool stopped_ = false;
};

/// A driver around a waiter: arms it once, with the first operation to wait (its tracked
/// work keeps the io_context's count above zero while arm() takes the wait's back); from
/// then on the waiter re-arms itself.
template <class Waiter>
class inline_driver final : public reactor_driver
{
public:
  inline_driver(boost::asio::io_context& ioc, port& p, packet_handler& handler,
                const reactor_options& options)
      : waiter_(std::make_shared<Waiter>(ioc, p, handler, options.batch_size))
  {
  }

  ~inline_driver() override { stop(); }

  void operation_queued() override
  {
    if (!armed_once_.load(std::memory_order_acquire) && !armed_once_.exchange(true))
      waiter_->arm(false);
  }

  void stop() override
  {
    if (std::exchange(stopped_, true))
      return;
    waiter_->stop();
  }

private:
  std::shared_ptr<Waiter> waiter_;
  std::atomic<bool> armed_once_{false};
  bool stopped_ = false;
};

// The inline driver `options.driver` asks for, or the next best one that this Boost and
// this io_context allow (options.driver says which); null where neither can run.
template <class Reactor, class Operation, class Scheduler, class Executor>
std::unique_ptr<reactor_driver> make_inline_driver(boost::asio::io_context& ioc,
                                                   reactor_options& options, port& p,
                                                   packet_handler& handler)
{
  if constexpr (asio_reactor_shape<Reactor, Operation, Scheduler>::value)
    if (options.driver == driver_kind::inline_driver)
      return std::make_unique<inline_driver<asio_reactor_waiter<Reactor, Operation, Scheduler>>>(
          ioc, p, handler, options);
  if constexpr (has_work_counting<Executor>::value)
  {
    options.driver = driver_kind::inline_portable;
    return std::make_unique<inline_driver<descriptor_waiter<Executor>>>(ioc, p, handler, options);
  }
  return nullptr;
}

#endif

// The io_context behind an executor, where the executor says so through public API.
boost::asio::io_context* io_context_of(const boost::asio::any_io_executor& ex)
{
  using io_executor = boost::asio::io_context::executor_type;
  if (const auto* e = ex.target<io_executor>())
    return &e->context();
  if (const auto* s = ex.target<boost::asio::strand<io_executor>>())
    return &s->get_inner_executor().context();
  return nullptr;
}

// The executor of the context whose threads run an I/O executor's work (an io_context or a
// thread pool, directly or through a strand: the strand is the handlers' business, not
// the I/O's); empty where the executor does not say.
boost::asio::any_io_executor context_executor_of(const boost::asio::any_io_executor& ex)
{
  using pool_executor = boost::asio::thread_pool::executor_type;
  if (boost::asio::io_context* ioc = io_context_of(ex))
    return ioc->get_executor();
  if (const auto* e = ex.target<pool_executor>())
    return *e;
  if (const auto* s = ex.target<boost::asio::strand<pool_executor>>())
    return s->get_inner_executor();
  return {};
}

} // namespace

std::unique_ptr<reactor_driver> make_driver(const boost::asio::any_io_executor& io_executor,
                                            reactor_options& options, port& p,
                                            packet_handler& handler)
{
#if defined(BOOST_ASIO_NOTIFY_HAS_INLINE_DRIVERS)
  if (options.driver != driver_kind::thread)
    if (boost::asio::io_context* ioc = io_context_of(io_executor))
      if (auto driver =
              make_inline_driver<asio_reactor, asio_operation, asio_scheduler,
                                 boost::asio::io_context::executor_type>(*ioc, options, p, handler))
        return driver;
#endif
  options.driver = driver_kind::thread;
  return std::make_unique<thread_driver>(p, handler, options, context_executor_of(io_executor));
}

} // namespace detail
} // namespace asio_notify
} // namespace boost
