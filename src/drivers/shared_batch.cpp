//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// One dequeue's packets: partitioned, then performed where the driver says (design.md,
// "Sharing a batch").

#include "shared_batch.hpp"

#include <boost/asio/error.hpp>
#include <boost/asio/post.hpp>

#include <chrono>
#include <new>
#include <thread>
#include <utility>

namespace boost {
namespace asio_notify {
namespace detail {

void shared_batch::work(const std::shared_ptr<shared_batch>& self)
{
  shared_batch& b = *self;
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
  if (b.done_hook_)
    b.done_hook_->batch_done();
}

void shared_batch::invite(const std::shared_ptr<shared_batch>& self)
{
  boost::asio::post(self->executor_, [self] { work(self); });
}

// Without memory for a worker this thread claims the rest itself: nothing is dropped.
bool shared_batch::try_invite(const std::shared_ptr<shared_batch>& self) noexcept
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

// A handler that throws out of a batch nobody else works on must not strand the packets
// after it: a worker is invited for them on the way out, if there is memory for one.
void shared_batch::perform_uninvited(const std::shared_ptr<shared_batch>& self, std::size_t i)
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

void shared_batch::perform(std::size_t i)
{
  if (std::this_thread::get_id() != dequeuer_)
    reactor_counters::add(reactor_.counters.packets_handed_over);
  op_queue done;
  reactor_.handle(packets_[i], done);
  reactor_.complete(done, completion_mode::dispatch, completion_mode::defer);
}

bool partition_dequeued(driven_reactor& reactor, const packet* packets, std::size_t n,
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
      reactor.handle(p, none);
    else
      io.push_back(p);
  }
  return exit_seen;
}

namespace {

/// A batch of `io` for the context's threads, or null when there is no memory for it.
std::shared_ptr<shared_batch> make_batch(driven_reactor& reactor, const std::vector<packet>& io,
                                         const batch_target& to) noexcept
{
  try
  {
    return std::make_shared<shared_batch>(reactor, io, to);
  }
  catch (const std::bad_alloc&)
  {
    return nullptr;
  }
}

/// Hands `io` to the context's threads; false, having changed nothing, when there is no
/// memory for the batch or its post.
bool hand_over(driven_reactor& reactor, const std::vector<packet>& io, const batch_target& to)
{
  std::shared_ptr<shared_batch> batch = make_batch(reactor, io, to);
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
    shared_batch::invite(batch);
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

} // namespace

void perform_dequeued(driven_reactor& reactor, const std::vector<packet>& io,
                      const batch_target& to)
{
  // Without memory to hand the batch over, the reactor thread performs it and posts the
  // handlers, as where there is no context.
  if (to.where == batch_site::context && !io.empty() && hand_over(reactor, io, to))
    return;
  if (to.where == batch_site::this_thread && io.size() > 1)
    if (std::shared_ptr<shared_batch> batch = make_batch(reactor, io, to))
      return shared_batch::work(batch);
  op_queue done;
  for (const packet& p : io)
    reactor.handle(p, done);
  if (to.where != batch_site::this_thread)
    return reactor.complete(done, completion_mode::post, completion_mode::post);
  reactor.complete(done, completion_mode::dispatch, completion_mode::defer);
  if (to.done_hook)
    to.done_hook->batch_done();
}

void post_exit(port& p, void* exit_key) noexcept
{
  for (;;)
  {
    boost::system::error_code ec;
    try
    {
      p.post(exit_key, 0, ec);
    }
    catch (...)
    {
      ec = boost::asio::error::no_memory;
    }
    // Only a want of memory passes; a broken port fails its dequeues too.
    if (ec != boost::asio::error::no_memory && ec != boost::asio::error::no_buffer_space)
      return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

} // namespace detail
} // namespace asio_notify
} // namespace boost
