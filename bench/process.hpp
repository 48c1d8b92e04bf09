//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What the benchmarks need from the operating system beyond sockets: child processes
// (fork + exec, or CreateProcess, of this same program), resident memory (/proc, or
// Windows' process memory counters), strace and the descriptor limit; the "peer" ends of
// many connections are in peers.hpp. What is Linux- or Windows-only lives behind #if in
// child_processes.cpp (starting children; set_program_path, can_spawn_children), process.cpp
// (run_self, strace_self, perf_count_self) and process_resources.cpp (the rest); elsewhere
// the functions say "unavailable" and the scenarios that need them report n/a.
#ifndef BOOST_ASIO_NOTIFY_BENCH_PROCESS_HPP
#define BOOST_ASIO_NOTIFY_BENCH_PROCESS_HPP

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bench {

/// Remember how this program was started (for re-executing itself).
void set_program_path(const char* argv0);

/// Raise the soft RLIMIT_NOFILE to the hard limit; returns the soft limit now in force
/// (0 when the system has no such limit).
std::size_t raise_descriptor_limit();

/// True where this program can run copies of itself as child processes (Linux, Windows).
bool can_spawn_children();

/// Resident memory of this process in KiB, or -1 where unknown: the RSS of
/// /proc/self/status on Linux, the working set of GetProcessMemoryInfo on Windows.
long resident_kib();

/// What resident_kib reads, for the reports ("RSS", "working set (GetProcessMemoryInfo)").
const char* resident_memory_counter();

/// Why system calls cannot be counted here, or "" where strace_self can count them.
const char* syscalls_unavailable();

/// The voluntary context switches of this process's live threads so far, from Linux's
/// /proc/self/task/*/status (under Wine through its Z: drive: a Windows program there is a
/// Linux process, its threads Linux threads); -1 where there is no such count.
long long voluntary_switches();

/// CPU time this process has used so far, in seconds: getrusage on Linux, GetProcessTimes
/// on Windows (under Wine, what Wine reports for it). Negative where unknown.
struct cpu_time
{
  double user_s = -1;
  double system_s = -1;
};
cpu_time process_cpu_time();

/// The system's load average over the last minute, or -1 where unknown.
double load_average();

/// Run this program again with `args`; returns its exit status (-1 when it could not run)
/// and, when `output` is not null, what it wrote to its standard output and error.
int run_self(const std::vector<std::string>& args, std::string* output);

/// System calls of a child run of this program, every thread's.
struct syscall_counts
{
  bool ok = false;
  std::string error;                          // why not, when !ok
  std::uint64_t total = 0;                    // every call of every thread
  std::map<std::string, std::uint64_t> calls; // by system call name
};

/// Run this program with `args` under `strace -f -c -o <summary_file>` and parse the summary.
syscall_counts strace_self(const std::vector<std::string>& args, const std::string& summary_file);

/// Run this program with `args` under `perf stat`, counting the kernel's system-call
/// tracepoints: every call, and `futex` by name. No stop per call, as strace's ptrace
/// makes, so threads that contend for a lock contend as they do untraced (doc/performance.md,
/// "Counting system calls"). An error where perf or the tracepoints are not available.
syscall_counts perf_count_self(const std::vector<std::string>& args, const std::string& csv_file);

/// Why instructions cannot be counted here, or "" where callgrind_count_self can try.
const char* instructions_unavailable();

/// Run this program with `args` under Valgrind's callgrind, writing its profile to
/// `profile_file`: `total` is the instructions every thread executed (callgrind's summary),
/// a count that does not move with the machine's load. `calls` stays empty.
syscall_counts callgrind_count_self(const std::vector<std::string>& args,
                                    const std::string& profile_file);

} // namespace bench

#endif
