//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A table indexed by POSIX descriptor: the epoll port's registrations and the Linux owner
// table (socket_owners.hpp).
#ifndef BOOST_ASIO_NOTIFY_SRC_PORT_EPOLL_FD_TABLE_HPP
#define BOOST_ASIO_NOTIFY_SRC_PORT_EPOLL_FD_TABLE_HPP

#include <cstddef>
#include <memory>
#include <vector>

namespace boost {
namespace asio_notify {
namespace detail {

/// A table indexed by descriptor, grown a page at a time. Descriptors are small, dense
/// integers: this takes a third of a hash map's memory per socket and no hashing. `T` says
/// whether a slot holds something with its `used()` member; a new page's slots are
/// value-initialised (zero, for bit-fields).
template <class T>
class fd_table
{
public:
  T* find(int fd) noexcept
  {
    const auto i = static_cast<std::size_t>(fd);
    if (fd < 0 || i / page_size >= pages_.size() || !pages_[i / page_size])
      return nullptr;
    T& slot = pages_[i / page_size][i % page_size];
    return slot.used() ? &slot : nullptr;
  }

  /// The slot of `fd`, created unused if missing (fd >= 0).
  T& slot(int fd)
  {
    const auto i = static_cast<std::size_t>(fd);
    if (i / page_size >= pages_.size())
      pages_.resize(i / page_size + 1);
    if (!pages_[i / page_size])
      pages_[i / page_size].reset(new T[page_size]());
    return pages_[i / page_size][i % page_size];
  }

  /// Makes the slot of `fd` unused again (its page stays).
  void erase(int fd) noexcept
  {
    if (T* slot = find(fd))
      *slot = T{};
  }

  template <class F>
  void for_each(F f)
  {
    for (std::size_t p = 0; p < pages_.size(); ++p)
      for (std::size_t i = 0; pages_[p] && i < page_size; ++i)
        if (pages_[p][i].used())
          f(static_cast<int>(p * page_size + i), pages_[p][i]);
  }

private:
  static constexpr std::size_t page_size = 256;
  std::vector<std::unique_ptr<T[]>> pages_;
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
