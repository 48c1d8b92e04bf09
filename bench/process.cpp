//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Running this program again: run_self, its output collected; strace_self and
// perf_count_self, its system calls counted; callgrind_count_self, its instructions.
#include "process.hpp"
#include "child_processes.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

#if defined(__linux__)
#include <fcntl.h>
#include <unistd.h>
#endif

namespace bench {

int run_self(const std::vector<std::string>& args, std::string* output)
{
#if defined(BENCH_HAS_CHILDREN)
  std::vector<std::string> all{program_path()};
  all.insert(all.end(), args.begin(), args.end());
  os::pipe_end read_end = os::no_pipe;
  os::pipe_end write_end = os::no_pipe;
  if (output && !os::make_pipe(read_end, write_end))
    return -1;
  const os::child_process child = os::spawn(all, {}, write_end);
  os::close_end(write_end); // the child's copy keeps the pipe open until it exits
  if (output)
  {
    char buffer[4096];
    while (const std::size_t n = os::read_once(read_end, buffer, sizeof(buffer)))
      output->append(buffer, n);
    os::close_end(read_end);
  }
  return child != os::no_child ? os::wait_for(child) : -1;
#else
  (void)args;
  (void)output;
  return -1;
#endif
}

namespace {

/// Runs `counter` (its command line up to this program's arguments) on this program with
/// `args`, its output discarded: only the file it writes is of interest. True when it and
/// the program both succeeded; otherwise `result.error` says why, `unavailable` off Linux.
bool run_counted(std::vector<std::string> counter, const std::vector<std::string>& args,
                 const std::string& file, [[maybe_unused]] const char* unavailable,
                 syscall_counts& result)
{
#if defined(__linux__)
  counter.push_back(program_path());
  counter.insert(counter.end(), args.begin(), args.end());
  std::remove(file.c_str());
  const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  const pid_t pid = os::spawn(counter, {}, null_fd);
  if (null_fd >= 0)
    ::close(null_fd);
  const int status = pid > 0 ? os::wait_for(pid) : -1;
  if (status == 0)
    return true;
  result.error = status == 127 ? counter[0] + " not found"
                               : counter[0] + " run failed (exit " + std::to_string(status) + ")";
#else
  (void)counter;
  (void)args;
  (void)file;
  result.error = unavailable;
#endif
  return false;
}

} // namespace

syscall_counts strace_self(const std::vector<std::string>& args, const std::string& summary_file)
{
  syscall_counts result;
  if (!run_counted({"strace", "-f", "-c", "-o", summary_file}, args, summary_file,
                   syscalls_unavailable(), result))
    return result;
  // "% time  seconds  usecs/call  calls  [errors]  syscall": calls is the fourth column,
  // the name the last; the errors column is empty for calls that never failed.
  std::ifstream in(summary_file);
  std::string line;
  bool table = false;
  while (std::getline(in, line))
  {
    if (line.compare(0, 6, "% time") == 0)
    {
      table = true;
      continue;
    }
    if (!table || line.empty() || line[0] == '-')
      continue;
    std::istringstream fields(line);
    std::vector<std::string> f;
    for (std::string s; fields >> s;)
      f.push_back(s);
    if (f.size() < 5)
      continue;
    const std::uint64_t calls = std::stoull(f[3]);
    if (f.back() == "total")
      result.total = calls;
    else
      result.calls[f.back()] += calls;
  }
  result.ok = result.total != 0;
  if (!result.ok)
    result.error = "no strace summary in " + summary_file;
  return result;
}

syscall_counts perf_count_self(const std::vector<std::string>& args, const std::string& csv_file)
{
  syscall_counts result;
  if (!run_counted({"perf", "stat", "-x,", "-o", csv_file, "-e", "raw_syscalls:sys_enter", "-e",
                    "syscalls:sys_enter_futex"},
                   args, csv_file, syscalls_unavailable(), result))
    return result;
  // "count,unit,event,...": a count perf could not take reads "<not counted>" or
  // "<not supported>".
  std::ifstream in(csv_file);
  std::string line;
  int counted = 0;
  while (std::getline(in, line))
  {
    std::vector<std::string> f;
    std::istringstream fields(line);
    for (std::string s; std::getline(fields, s, ',');)
      f.push_back(s);
    if (f.size() < 3 || f[0].empty() || f[0].find_first_not_of("0123456789") != std::string::npos)
      continue;
    const std::uint64_t calls = std::stoull(f[0]);
    if (f[2] == "raw_syscalls:sys_enter")
      result.total = calls;
    else if (f[2] == "syscalls:sys_enter_futex")
      result.calls["futex"] = calls;
    else
      continue;
    ++counted;
  }
  result.ok = counted == 2 && result.total != 0;
  if (!result.ok)
    result.error = "perf could not count the system call tracepoints (" + csv_file + ")";
  return result;
}

syscall_counts callgrind_count_self(const std::vector<std::string>& args,
                                    const std::string& profile_file)
{
  syscall_counts result;
  if (!run_counted({"valgrind", "--tool=callgrind", "--callgrind-out-file=" + profile_file}, args,
                   profile_file, instructions_unavailable(), result))
    return result;
  // The profile's header holds "summary: <instructions>" (event Ir, the only one recorded).
  std::ifstream in(profile_file);
  std::string line;
  const std::string key = "summary:";
  while (std::getline(in, line))
    if (line.compare(0, key.size(), key) == 0)
    {
      std::istringstream fields(line.substr(key.size()));
      fields >> result.total;
      break;
    }
  result.ok = result.total != 0;
  if (!result.ok)
    result.error = "no callgrind summary in " + profile_file;
  return result;
}

const char* instructions_unavailable()
{
#if defined(__linux__)
  return "";
#else
  return "needs Linux and Valgrind";
#endif
}

const char* syscalls_unavailable()
{
#if defined(_WIN32)
  return "not counted on Windows: strace is Linux's, and Windows has no counter of a "
         "process's system calls";
#elif defined(__linux__)
  return "";
#else
  return "needs Linux and strace";
#endif
}

} // namespace bench
