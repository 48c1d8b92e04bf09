//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The operating system's side of child processes, shared by process.cpp (run_self,
// strace_self) and peers.cpp (the `--peer` child): starting one (fork + exec, or
// CreateProcessW), waiting for it, and the pipes between parent and child. Where there are
// no child processes (neither Linux nor Windows) only program_path is declared.
#ifndef BOOST_ASIO_NOTIFY_BENCH_CHILD_PROCESSES_HPP
#define BOOST_ASIO_NOTIFY_BENCH_CHILD_PROCESSES_HPP

#include <cstddef>
#include <string>
#include <vector>

#if defined(__linux__) || defined(_WIN32)
#define BENCH_HAS_CHILDREN 1
#endif
#if defined(__linux__)
#include <sys/types.h>
#endif

namespace bench {

/// The path set_program_path settled on: what a child process of this program runs.
const std::string& program_path();

#if defined(BENCH_HAS_CHILDREN)
namespace os {

#if defined(__linux__)
using pipe_end = int; // a pipe's descriptor
inline constexpr pipe_end no_pipe = -1;
using child_process = pid_t;
inline constexpr child_process no_child = -1;
#else
// A HANDLE (void*, asserted in child_processes.cpp): <windows.h> is left out here, as it
// must come after Boost.Asio's <winsock2.h> in peers.cpp.
using pipe_end = void*; // an anonymous pipe's end
inline constexpr pipe_end no_pipe = nullptr;
using child_process = void*;
inline constexpr child_process no_child = nullptr;
#endif

/// One read: how many bytes it moved, or 0 at the end of the pipe or on an error.
std::size_t read_once(pipe_end end, char* data, std::size_t size);

/// Exactly `size` bytes, or false.
bool read_full(pipe_end end, char* data, std::size_t size);
bool write_full(pipe_end end, const char* data, std::size_t size);

void close_end(pipe_end end);

/// A pipe whose ends are not inherited by children, except when passed to spawn.
bool make_pipe(pipe_end& read_end, pipe_end& write_end);

/// How a child names an end it inherited: a descriptor, or a handle's value (the same in
/// both processes).
std::string end_argument(pipe_end end);
pipe_end end_from_argument(const std::string& s);

/** Start `args`: on Linux fork + exec, args[0] looked up in PATH, the child keeping only
    the descriptors in `keep` (and 0-2); on Windows CreateProcessW of this program (args[0],
    its name, replaced by its full path), inheriting only `keep` and `output`. `output`,
    when not no_pipe, becomes the child's standard output and standard error. */
child_process spawn(const std::vector<std::string>& args, const std::vector<pipe_end>& keep,
                    pipe_end output);

/// The child's exit status, or -1 when it did not exit normally or cannot be had.
int wait_for(child_process child);

} // namespace os
#endif

} // namespace bench

#endif
