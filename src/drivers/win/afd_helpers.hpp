//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// AFD helper handles associated with a completion port that someone else dequeues (the
// io_context's), each shared by a group of sockets' polls, as wepoll and mio share theirs.
#ifndef BOOST_ASIO_NOTIFY_SRC_DRIVERS_WIN_AFD_HELPERS_HPP
#define BOOST_ASIO_NOTIFY_SRC_DRIVERS_WIN_AFD_HELPERS_HPP

#include "../../port/win/afd.hpp"
#include "../../port/win/system.hpp"

#include <boost/system/error_code.hpp>

#include <cstddef>
#include <vector>

namespace boost {
namespace asio_notify {
namespace detail {
namespace win {

/// Helper handles of up to `group` polling sockets each, associated with a port by the
/// `Associate` function given to `acquire` (Asio's `register_handle`). Never in skip-port
/// mode: a poll that completes at once still queues its completion. Not thread-safe.
class afd_helpers
{
public:
  /// How many sockets' polls share one helper (wepoll's and mio's number).
  static constexpr std::size_t group = 32;

  afd_helpers() = default;
  afd_helpers(const afd_helpers&) = delete;
  afd_helpers& operator=(const afd_helpers&) = delete;

  ~afd_helpers()
  {
    for (const slot& s : slots_)
      ::CloseHandle(s.handle);
  }

  /// A helper with room for one more socket, opened and associated where none has room;
  /// null and `ec` set on failure. Throws `bad_alloc`.
  template <class Associate>
  HANDLE acquire(Associate&& associate, boost::system::error_code& ec)
  {
    for (slot& s : slots_)
      if (s.users < group)
      {
        ++s.users;
        return s.handle;
      }
    slots_.reserve(slots_.size() + 1); // first: a bad_alloc leaves no handle open
    const HANDLE h = open_afd_helper(ec);
    if (!h)
      return nullptr;
    if (associate(h, ec) || !::SetFileCompletionNotificationModes(h, FILE_SKIP_SET_EVENT_ON_HANDLE))
    {
      if (!ec)
        ec = last_error();
      ::CloseHandle(h);
      return nullptr;
    }
    slots_.push_back(slot{h, 1});
    return h;
  }

  /// One socket fewer on `h`. The helper stays open for the next.
  void release(HANDLE h) noexcept
  {
    for (slot& s : slots_)
      if (s.handle == h)
      {
        --s.users;
        return;
      }
  }

  /// Asks every poll in flight on every helper to complete now.
  void cancel_all() noexcept
  {
    for (const slot& s : slots_)
    {
      IO_STATUS_BLOCK cancel_iosb{};
      nt().cancel_io_file_ex(s.handle, nullptr, &cancel_iosb);
    }
  }

private:
  struct slot
  {
    HANDLE handle;
    std::size_t users;
  };
  std::vector<slot> slots_;
};

} // namespace win
} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
