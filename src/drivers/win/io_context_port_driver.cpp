//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The io_context_port driver: AFD polls issued on helper handles associated with the
// io_context's own completion port, each poll's OVERLAPPED an operation of Asio's, so that
// io_context::run() completes them itself: no reactor thread, no second port, no hand-off;
// and stream transfers issued as overlapped receives and sends (overlapped_transfers.hpp).
// Why and how the work is counted: doc/windows.md, "On the io_context's own port".

#include "../io_context_port_shape.hpp"
#include "../reactor_driver.hpp"
#include "../../reactor/reactor_impl.hpp"
#include "../../port/win/afd.hpp"
#include "../../port/win/afd_engine.hpp"
#include "afd_helpers.hpp"
#include "../../port/win/afd_poll_site.hpp"
#include "overlapped_transfers.hpp"
#include "port_poll.hpp"

#include <boost/asio/io_context.hpp>

#include <memory>
#include <mutex>

namespace boost {
namespace asio_notify {
namespace detail {

#if defined(BOOST_ASIO_NOTIFY_HAS_IOCP_TYPES)

namespace win {
namespace {

using boost::system::error_code;

/// The AFD engine's site on the io_context's port. A poll in flight is counted as work, as
/// Asio counts its own overlapped operations (work_started, then on_pending), and its
/// completion is dequeued by run(), which calls the poll's operation (do_complete). When the
/// engine goes (the io_context's shutdown), the polls still in flight are cancelled and
/// left to Asio's shutdown, which dequeues each (it waits for every counted one) and
/// destroys it: the registration is freed then.
template <class Scheduler, class Operation>
class io_context_site final : public afd_poll_site
{
public:
  /// Where a completed poll goes: the driver.
  class receiver
  {
  public:
    virtual void poll_completed(afd_registration& reg) = 0;

  protected:
    ~receiver() = default;
  };

  io_context_site(boost::asio::io_context& ioc, receiver& r)
      : scheduler_(boost::asio::use_service<Scheduler>(ioc)), receiver_(r)
  {
  }

  afd_registration* make_registration(error_code& ec) override
  {
    auto reg = std::make_unique<registration>(*this);
    reg->helper = helpers_.acquire(
        [this](HANDLE h, error_code& e) { return scheduler_.register_handle(h, e); }, ec);
    return reg->helper ? reg.release() : nullptr;
  }

  void free_registration(afd_registration* reg) noexcept override
  {
    helpers_.release(reg->helper);
    delete static_cast<registration*>(reg);
  }

  NTSTATUS issue(afd_registration& base) noexcept override
  {
    registration& reg = static_cast<registration&>(base);
    const NTSTATUS status = issue_port_poll(scheduler_, reg.op, reg.helper, reg.iosb, reg.info);
    if (status != status_pending && !nt_success(status))
    {
      // No completion will come. Every caller holds work of its own (a queued operation's,
      // or run()'s for the completion it is in), so this never ends the io_context's.
      scheduler_.work_finished();
      return status;
    }
    link(reg);
    return status;
  }

  void completed(afd_registration& reg) noexcept override
  {
    unlink(static_cast<registration&>(reg));
  }

  void cancel(afd_registration& reg) noexcept override
  {
    IO_STATUS_BLOCK cancel_iosb{};
    nt().cancel_io_file_ex(reg.helper, &reg.iosb, &cancel_iosb); // STATUS_NOT_FOUND: done
  }

  // The reactor reads no REMOVE packet (its close does not wait for one).
  void post_remove(void*) noexcept override {}

  void abandon(std::size_t) noexcept override
  {
    for (registration* r = in_flight_; r; r = r->next)
      r->site = nullptr; // freed by its own completion or destruction from now on
    in_flight_ = nullptr;
    helpers_.cancel_all();
  }

private:
  struct registration;

  struct poll_op final : Operation
  {
    explicit poll_op(registration& r) : Operation(&do_complete), reg(r) {}

    // In run() (`owner` set) or in the io_context's shutdown (`owner` null).
    static void do_complete(void* owner, Operation* base, const error_code&, std::size_t)
    {
      registration& reg = static_cast<poll_op*>(base)->reg;
      if (!reg.site) // the engine has gone: nothing left to report to
      {
        delete &reg; // its helper was closed with the site
        return;
      }
      if (owner)
        reg.site->receiver_.poll_completed(reg);
    }

    registration& reg;
  };

  struct registration final : afd_registration
  {
    explicit registration(io_context_site& s) : op(*this), site(&s) {}

    poll_op op;
    io_context_site* site;        // null once abandoned
    registration* prev = nullptr; // in flight
    registration* next = nullptr;
  };

  void link(registration& r) noexcept
  {
    r.prev = nullptr;
    r.next = in_flight_;
    if (in_flight_)
      in_flight_->prev = &r;
    in_flight_ = &r;
  }

  void unlink(registration& r) noexcept
  {
    (r.prev ? r.prev->next : in_flight_) = r.next;
    if (r.next)
      r.next->prev = r.prev;
    r.prev = r.next = nullptr;
  }

  Scheduler& scheduler_;
  receiver& receiver_;
  afd_helpers helpers_;
  registration* in_flight_ = nullptr;
};

/// The driver: the engine on the io_context's port, and each packet it makes handled in
/// the io_context thread whose run() dequeued the poll.
template <class Scheduler, class Operation>
class io_context_port_driver final : public reactor_driver,
                                     io_context_site<Scheduler, Operation>::receiver
{
  using site = io_context_site<Scheduler, Operation>;

public:
  io_context_port_driver(boost::asio::io_context& ioc, driven_reactor& reactor)
      : engine_(open_afd_engine(std::make_unique<site>(ioc, as_receiver()))), reactor_(reactor),
        transfers_(boost::asio::use_service<Scheduler>(ioc), reactor)
  {
  }

  ~io_context_port_driver() override { stop(); }

  // The polls themselves are the io_context's work: nothing to arm.
  bool operation_queued() override { return false; }

  bool apply(boost::span<registration> regs) override
  {
    engine_->apply(regs);
    return true;
  }

  bool polls_hold_work() const noexcept override { return true; }

  channel_issuer* channels() noexcept override { return &transfers_; }

  void stop() override
  {
    transfers_.stop();
    engine_.reset();
  }

private:
  typename site::receiver& as_receiver() noexcept { return *this; }

  void poll_completed(afd_registration& reg) override
  {
    packet p;
    if (!engine_->poll_completed(reg, p))
      return;
    reactor_.counters.dequeued(1);
    op_queue done;
    reactor_.handle(p, done);
    reactor_.complete(done, completion_mode::dispatch, completion_mode::defer);
  }

  std::unique_ptr<afd_engine> engine_;
  driven_reactor& reactor_;
  transfer_channels<Scheduler, Operation> transfers_;
};

} // namespace
} // namespace win

// The driver where this Boost's io_context has the shape it was written for; else null.
template <class Scheduler, class Operation>
std::unique_ptr<reactor_driver> make_driver_on(boost::asio::io_context& ioc,
                                               driven_reactor& reactor)
{
  if constexpr (has_io_context_port)
    return std::make_unique<win::io_context_port_driver<Scheduler, Operation>>(ioc, reactor);
  else
    return nullptr;
}

std::unique_ptr<reactor_driver> make_io_context_port_driver(boost::asio::io_context& ioc,
                                                            driven_reactor& reactor)
{
  return make_driver_on<asio_iocp_scheduler, asio_iocp_operation>(ioc, reactor);
}

#endif

} // namespace detail
} // namespace asio_notify
} // namespace boost
