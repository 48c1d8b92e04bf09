//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The global operator new and delete (their unaligned forms) of a test program that watches
// its allocations: they call the two functions below, which the program defines. Included
// by one file of the program only: it defines the operators.
#ifndef BOOST_ASIO_NOTIFY_TEST_SUPPORT_REPLACED_NEW_DELETE_HPP
#define BOOST_ASIO_NOTIFY_TEST_SUPPORT_REPLACED_NEW_DELETE_HPP

#include <cstddef>
#include <cstdlib>
#include <new>

namespace test_support {

/// What the program's operator new does: `malloc_or_throw`, or a failure it injects.
void* replaced_allocate(std::size_t n);

/// What the program's operator delete does with memory replaced_allocate gave.
void replaced_release(void* p) noexcept;

/// malloc of at least one byte, or std::bad_alloc.
inline void* malloc_or_throw(std::size_t n)
{
  if (void* p = std::malloc(n == 0 ? 1 : n))
    return p;
  throw std::bad_alloc();
}

} // namespace test_support

void* operator new(std::size_t n) { return test_support::replaced_allocate(n); }
void* operator new[](std::size_t n) { return test_support::replaced_allocate(n); }
void operator delete(void* p) noexcept { test_support::replaced_release(p); }
void operator delete[](void* p) noexcept { test_support::replaced_release(p); }
void operator delete(void* p, std::size_t) noexcept { test_support::replaced_release(p); }
void operator delete[](void* p, std::size_t) noexcept { test_support::replaced_release(p); }

#endif
