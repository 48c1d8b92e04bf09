//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Running this program again: run_self, its output collected, and strace_self, its system
// calls counted.
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

syscall_counts strace_self(const std::vector<std::string>& args, const std::string& summary_file)
{
  syscall_counts result;
#if defined(__linux__)
  std::vector<std::string> all{"strace", "-f", "-c", "-o", summary_file, program_path()};
  all.insert(all.end(), args.begin(), args.end());
  std::remove(summary_file.c_str());
  // What the program prints is of no interest here: only the summary file is.
  const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  const pid_t pid = os::spawn(all, {}, null_fd);
  if (null_fd >= 0)
    ::close(null_fd);
  const int status = pid > 0 ? os::wait_for(pid) : -1;
  if (status != 0)
  {
    result.error = status == 127 ? "strace not found"
                                 : "strace run failed (exit " + std::to_string(status) + ")";
    return result;
  }
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
#else
  (void)args;
  (void)summary_file;
  result.error = syscalls_unavailable();
#endif
  return result;
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
