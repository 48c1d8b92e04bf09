//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Memory set aside for the one handler a driver keeps in flight, so that posting or
// re-arming it cannot fail for want of memory (doc/design.md, "Exception safety").
#ifndef BOOST_ASIO_NOTIFY_SRC_SLOT_ALLOCATOR_HPP
#define BOOST_ASIO_NOTIFY_SRC_SLOT_ALLOCATOR_HPP

#include <cstddef>
#include <new>

namespace boost {
namespace asio_notify {
namespace detail {

/// Room for one of Asio's queued operations around a small handler.
struct handler_slot
{
  alignas(std::max_align_t) unsigned char bytes[256];
  bool used = false;
};

/** A handler's associated allocator over a handler_slot. A request that does not fit, or
    comes while the slot is taken, gets memory of its own from operator new. */
template <class T>
class slot_allocator
{
public:
  using value_type = T;

  explicit slot_allocator(handler_slot& s) noexcept : slot_(&s) {}
  template <class U>
  slot_allocator(const slot_allocator<U>& other) noexcept : slot_(other.slot_)
  {
  }

  T* allocate(std::size_t n)
  {
    if (!slot_->used && n * sizeof(T) <= sizeof(slot_->bytes) &&
        alignof(T) <= alignof(std::max_align_t))
    {
      slot_->used = true;
      return reinterpret_cast<T*>(slot_->bytes);
    }
    return static_cast<T*>(::operator new(n * sizeof(T)));
  }

  void deallocate(T* p, std::size_t) noexcept
  {
    if (reinterpret_cast<unsigned char*>(p) == slot_->bytes)
      slot_->used = false;
    else
      ::operator delete(p);
  }

  friend bool operator==(const slot_allocator& a, const slot_allocator& b) noexcept
  {
    return a.slot_ == b.slot_;
  }
  friend bool operator!=(const slot_allocator& a, const slot_allocator& b) noexcept
  {
    return a.slot_ != b.slot_;
  }

private:
  template <class U>
  friend class slot_allocator;
  handler_slot* slot_;
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
