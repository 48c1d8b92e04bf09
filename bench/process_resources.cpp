//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// This process as the system sees it: its descriptor limit, its resident memory, its
// threads' context switches, and the load average around it.
#include "process.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#if defined(__linux__)
#include <sys/resource.h>
#elif defined(_WIN32)
#include <windows.h>
#include <psapi.h> // GetProcessMemoryInfo: K32GetProcessMemoryInfo of kernel32
#include <algorithm>
#include <cstdlib> // __argv, __argc
#endif

namespace bench {

std::size_t raise_descriptor_limit()
{
#if defined(__linux__)
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0)
    return 0;
  if (limit.rlim_cur < limit.rlim_max)
  {
    limit.rlim_cur = limit.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &limit);
    ::getrlimit(RLIMIT_NOFILE, &limit);
  }
  return limit.rlim_cur == RLIM_INFINITY ? std::size_t(1) << 20
                                         : static_cast<std::size_t>(limit.rlim_cur);
#else
  return 0;
#endif
}

long resident_kib()
{
#if defined(__linux__)
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.compare(0, 6, "VmRSS:") == 0)
      return std::stol(line.substr(6));
#elif defined(_WIN32)
  PROCESS_MEMORY_COUNTERS counters{};
  if (::GetProcessMemoryInfo(::GetCurrentProcess(), &counters, sizeof(counters)))
    return static_cast<long>(counters.WorkingSetSize / 1024);
#endif
  return -1;
}

#if defined(_WIN32)
namespace {

/// The fields of a /proc/<pid>/cmdline, without the padding Wine leaves after them.
std::vector<std::string> cmdline_fields(const std::filesystem::path& file)
{
  std::ifstream in(file, std::ios::binary);
  std::vector<std::string> fields;
  for (std::string field; std::getline(in, field, '\0');)
    fields.push_back(field);
  while (!fields.empty() && fields.back().empty())
    fields.pop_back();
  return fields;
}

/// Under Wine, this process's /proc/<pid>/task, through Z:. Not /proc/self: Wine opens files
/// in wineserver, whose "self" that is. The process is the one whose Linux command line has
/// this program's name and arguments (Wine gives it those); "" where none or several have.
std::filesystem::path wine_task_directory()
{
  const std::filesystem::path program = std::filesystem::path(__argv[0]).filename();
  const std::vector<std::string> arguments(__argv + 1, __argv + __argc);
  std::filesystem::path found;
  std::error_code ec;
  for (std::filesystem::directory_iterator it("Z:/proc", ec), end; !ec && it != end;
       it.increment(ec))
  {
    const std::string pid = it->path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos)
      continue;
    const std::vector<std::string> fields = cmdline_fields(it->path() / "cmdline");
    if (fields.empty() || std::filesystem::path(fields[0]).filename() != program ||
        !std::equal(fields.begin() + 1, fields.end(), arguments.begin(), arguments.end()))
      continue;
    if (!found.empty())
      return {}; // another copy with the same arguments: which one is this?
    found = it->path() / "task";
  }
  return found;
}

} // namespace
#endif

long long voluntary_switches()
{
#if defined(_WIN32)
  static const std::filesystem::path tasks = wine_task_directory();
#else
  static const std::filesystem::path tasks = "/proc/self/task";
#endif
  std::error_code ec;
  std::filesystem::directory_iterator it(tasks, ec);
  if (tasks.empty() || ec)
    return -1;
  long long total = 0;
  const std::string field = "voluntary_ctxt_switches:";
  for (; it != std::filesystem::directory_iterator(); it.increment(ec))
  {
    std::ifstream status(it->path() / "status");
    for (std::string line; std::getline(status, line);)
      if (line.compare(0, field.size(), field) == 0)
        total += std::stoll(line.substr(field.size()));
  }
  return ec ? -1 : total;
}

cpu_time process_cpu_time()
{
  cpu_time t;
#if defined(__linux__)
  rusage usage{};
  if (::getrusage(RUSAGE_SELF, &usage) == 0)
  {
    auto seconds = [](const timeval& v) {
      return double(v.tv_sec) + double(v.tv_usec) / 1e6;
    };
    t.user_s = seconds(usage.ru_utime);
    t.system_s = seconds(usage.ru_stime);
  }
#elif defined(_WIN32)
  FILETIME created{}, exited{}, kernel{}, user{};
  if (::GetProcessTimes(::GetCurrentProcess(), &created, &exited, &kernel, &user))
  {
    auto seconds = [](const FILETIME& f) { // 100 ns units
      return double((std::uint64_t(f.dwHighDateTime) << 32) | f.dwLowDateTime) / 1e7;
    };
    t.user_s = seconds(user);
    t.system_s = seconds(kernel);
  }
#endif
  return t;
}

const char* resident_memory_counter()
{
#if defined(_WIN32)
  return "working set (GetProcessMemoryInfo)";
#else
  return "RSS";
#endif
}

double load_average()
{
#if defined(__linux__)
  std::ifstream in("/proc/loadavg");
  double one = -1;
  if (in >> one)
    return one;
#endif
  return -1;
}
} // namespace bench
