//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// How many descriptors (handles on Windows) this process has open now: for the tests that
// show a failure leaves none behind, which LeakSanitizer cannot see. Allocates nothing with
// operator new, so that a test whose allocator fails can count too.
#ifndef BOOST_ASIO_NOTIFY_TEST_SUPPORT_OPEN_DESCRIPTORS_HPP
#define BOOST_ASIO_NOTIFY_TEST_SUPPORT_OPEN_DESCRIPTORS_HPP

#if defined(_WIN32)
#include <winsock2.h> // before windows.h, as Asio includes it
#include <windows.h>

#include <cstdlib>
#include <string_view>
#else
#include <dirent.h>
#include <unistd.h>
#endif

namespace test_support {

#if defined(_WIN32)
namespace detail {

// NtQuerySystemInformation's SystemExtendedHandleInformation: every handle of the system, as
// ntdll lays them out (not in the SDK's headers).
struct system_handle
{
  void* object;
  ULONG_PTR process_id;
  ULONG_PTR value;
  ULONG access;
  USHORT back_trace;
  USHORT type_index;
  ULONG attributes;
  ULONG reserved;
};
struct system_handles
{
  ULONG_PTR count;
  ULONG_PTR reserved;
  system_handle handles[1];
};

template <class Function>
Function ntdll_function(const char* name) noexcept
{
  return reinterpret_cast<Function>(
      reinterpret_cast<void*>(::GetProcAddress(::GetModuleHandleA("ntdll.dll"), name)));
}

/// Whether `h` is a file (sockets and \Device\Afd handles are) or a completion port.
inline bool is_file_or_port(HANDLE h) noexcept
{
  using query_object_t = LONG(WINAPI*)(HANDLE, int, void*, ULONG, ULONG*);
  static const auto query = ntdll_function<query_object_t>("NtQueryObject");
  constexpr int type_information = 2; // ObjectTypeInformation: a UNICODE_STRING first
  struct
  {
    USHORT length;
    USHORT maximum_length;
    const wchar_t* name;
    char rest[512];
  } type{};
  if (!query || query(h, type_information, &type, sizeof type, nullptr) < 0 || !type.name)
    return false;
  const std::wstring_view name(type.name, type.length / sizeof(wchar_t));
  return name == L"File" || name == L"IoCompletion";
}

/// This process's files and completion ports in the system's handle table, or -1.
inline long files_and_ports() noexcept
{
  using query_system_t = LONG(WINAPI*)(ULONG, void*, ULONG, ULONG*);
  static const auto query = ntdll_function<query_system_t>("NtQuerySystemInformation");
  constexpr ULONG extended_handle_information = 64;
  constexpr LONG info_length_mismatch = LONG(0xC0000004);
  for (ULONG size = 1 << 16; query && size != 0; size *= 2)
  {
    void* table = std::malloc(size); // not operator new, which a test may make fail
    if (!table)
      return -1;
    const LONG status = query(extended_handle_information, table, size, nullptr);
    long n = -1;
    if (status >= 0)
    {
      const auto* t = static_cast<const system_handles*>(table);
      n = 0;
      for (ULONG_PTR i = 0; i < t->count; ++i)
        n += t->handles[i].process_id == ::GetCurrentProcessId() &&
             is_file_or_port(reinterpret_cast<HANDLE>(t->handles[i].value));
    }
    std::free(table);
    if (status != info_length_mismatch)
      return n;
  }
  return -1;
}

} // namespace detail
#endif

/// /proc/self/fd's entries but the one that reads them, or on Windows the process's handles
/// of files (sockets among them) and completion ports: not its events, semaphores and
/// threads, which the C runtime's thread library keeps for reuse after a thread ends (and
/// GetProcessHandleCount, which would count them, gives 0 under Wine). -1 where neither can
/// be read (a caller must not take that for "none").
inline long open_descriptors() noexcept
{
#if defined(_WIN32)
  return detail::files_and_ports();
#else
  DIR* dir = ::opendir("/proc/self/fd");
  if (!dir)
    return -1;
  long n = 0;
  while (const dirent* e = ::readdir(dir))
    n += e->d_name[0] != '.';
  ::closedir(dir);
  return n - 1; // the directory's own
#endif
}

/// Whether the count comes back to `before` or below within 2 s (a thread's handle, under
/// Wine, may outlive its join for a moment); `after` is the last count read. `settle()`
/// runs before each count: a test double may let go of what it kept.
template <class Settle>
bool descriptors_back_to(long before, long& after, Settle settle)
{
  for (int i = 0; i < 200; ++i)
  {
    settle();
    after = open_descriptors();
    if (before >= 0 && after >= 0 && after <= before)
      return true;
#if defined(_WIN32)
    ::Sleep(10);
#else
    ::usleep(10000);
#endif
  }
  return false;
}

} // namespace test_support

#endif
