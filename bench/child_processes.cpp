//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Starting children and passing them pipes, once for POSIX and once for Windows
// (child_processes.hpp says what each function does); and the path of this program, which
// the children run.
#include "child_processes.hpp"
#include "process.hpp"

#include <algorithm>
#include <cstdint>

#if defined(__linux__)
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <climits>
#elif defined(_WIN32)
#include <windows.h>
#include <type_traits>
#endif

namespace bench {

namespace {

std::string program_path_;

} // namespace

const std::string& program_path() { return program_path_; }

#if defined(BENCH_HAS_CHILDREN)
namespace os {

#if defined(__linux__)

// ---- POSIX ------------------------------------------------------------------------------------

std::size_t read_once(pipe_end end, char* data, std::size_t size)
{
  ssize_t n;
  while ((n = ::read(end, data, size)) < 0 && errno == EINTR)
  {
  }
  return n > 0 ? static_cast<std::size_t>(n) : 0;
}

namespace {

std::size_t write_once(pipe_end end, const char* data, std::size_t size)
{
  ssize_t n;
  while ((n = ::write(end, data, size)) < 0 && errno == EINTR)
  {
  }
  return n > 0 ? static_cast<std::size_t>(n) : 0;
}

} // namespace

void close_end(pipe_end end)
{
  if (end != no_pipe)
    ::close(end);
}

bool make_pipe(pipe_end& read_end, pipe_end& write_end)
{
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0)
    return false;
  read_end = ends[0];
  write_end = ends[1];
  return true;
}

std::string end_argument(pipe_end end) { return std::to_string(end); }
pipe_end end_from_argument(const std::string& s) { return std::stoi(s); }

child_process spawn(const std::vector<std::string>& args, const std::vector<pipe_end>& keep,
                    pipe_end output)
{
  // Everything the child needs is prepared before fork: between fork and exec only
  // async-signal-safe calls are allowed (this process may have threads).
  std::vector<std::string> copy(args);
  std::vector<char*> argv;
  for (std::string& a : copy)
    argv.push_back(&a[0]);
  argv.push_back(nullptr);
  rlimit limit{};
  const int max_fd = ::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
                             limit.rlim_cur < static_cast<rlim_t>(INT_MAX)
                         ? static_cast<int>(limit.rlim_cur)
                         : 65536;
  const pid_t pid = ::fork();
  if (pid != 0)
    return pid;
  if (output >= 0)
  {
    ::dup2(output, 1);
    ::dup2(output, 2);
  }
  for (int fd = 3; fd < max_fd; ++fd)
  {
    if (std::find(keep.begin(), keep.end(), fd) == keep.end())
      ::close(fd);
    else
      ::fcntl(fd, F_SETFD, 0); // survive exec
  }
  ::execvp(argv[0], argv.data());
  ::_exit(127);
}

int wait_for(child_process pid)
{
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

namespace {

std::string this_program()
{
  char buffer[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  return n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : std::string();
}

} // namespace

#elif defined(_WIN32)

// ---- Windows ----------------------------------------------------------------------------------

static_assert(std::is_same_v<pipe_end, HANDLE> && std::is_same_v<child_process, HANDLE>);

// The end of the pipe is ERROR_BROKEN_PIPE: 0 bytes, as for an error.
std::size_t read_once(pipe_end end, char* data, std::size_t size)
{
  DWORD n = 0;
  const DWORD chunk = static_cast<DWORD>(std::min<std::size_t>(size, 1 << 20));
  return ::ReadFile(end, data, chunk, &n, nullptr) ? n : 0;
}

namespace {

std::size_t write_once(pipe_end end, const char* data, std::size_t size)
{
  DWORD n = 0;
  const DWORD chunk = static_cast<DWORD>(std::min<std::size_t>(size, 1 << 20));
  return ::WriteFile(end, data, chunk, &n, nullptr) ? n : 0;
}

} // namespace

void close_end(pipe_end end)
{
  if (end != no_pipe)
    ::CloseHandle(end);
}

bool make_pipe(pipe_end& read_end, pipe_end& write_end)
{
  return ::CreatePipe(&read_end, &write_end, nullptr, 0) != 0;
}

std::string end_argument(pipe_end end)
{
  return std::to_string(reinterpret_cast<std::uintptr_t>(end));
}
pipe_end end_from_argument(const std::string& s)
{
  return reinterpret_cast<HANDLE>(static_cast<std::uintptr_t>(std::stoull(s)));
}

namespace {

/// This program's path, as CreateProcessW takes it (any characters).
std::wstring this_program_wide()
{
  std::wstring path(32768, L'\0');
  const DWORD n = ::GetModuleFileNameW(nullptr, &path[0], static_cast<DWORD>(path.size()));
  path.resize(n < path.size() ? n : 0);
  return path;
}

/// `s` in UTF-16, for the arguments here (ASCII).
std::wstring widen(const std::string& s)
{
  std::wstring wide;
  for (const char ch : s)
    wide += static_cast<wchar_t>(static_cast<unsigned char>(ch));
  return wide;
}

/// `arg` as CommandLineToArgvW and the C runtime read it back: quoted where it must be, with
/// the backslashes before a quote doubled.
std::wstring quote_argument(const std::string& arg)
{
  const std::wstring wide = widen(arg);
  if (!wide.empty() && wide.find_first_of(L" \t\"") == std::wstring::npos)
    return wide;
  std::wstring quoted = L"\"";
  std::size_t backslashes = 0;
  for (const wchar_t ch : wide)
  {
    if (ch == L'\\')
    {
      ++backslashes;
      continue;
    }
    quoted.append(ch == L'"' ? 2 * backslashes + 1 : backslashes, L'\\');
    backslashes = 0;
    quoted += ch;
  }
  quoted.append(2 * backslashes, L'\\');
  return quoted + L"\"";
}

} // namespace

// Each handle to inherit is made inheritable for the call only: pipes are made not
// inheritable, and so are the sockets.
child_process spawn(const std::vector<std::string>& args, const std::vector<pipe_end>& keep,
                    pipe_end output)
{
  const std::wstring program = this_program_wide();
  std::wstring command_line = L"\"" + program + L"\"";
  for (std::size_t i = 1; i < args.size(); ++i)
    command_line += L" " + quote_argument(args[i]);
  std::vector<pipe_end> inherited(keep);
  if (output != no_pipe)
    inherited.push_back(output);
  for (pipe_end h : inherited)
    ::SetHandleInformation(h, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
  STARTUPINFOW startup{};
  startup.cb = sizeof(startup);
  if (output != no_pipe)
  {
    startup.dwFlags = STARTF_USESTDHANDLES;
    startup.hStdOutput = output;
    startup.hStdError = output;
  }
  PROCESS_INFORMATION info{};
  const BOOL started = ::CreateProcessW(program.c_str(), &command_line[0], nullptr, nullptr, TRUE,
                                        0, nullptr, nullptr, &startup, &info);
  for (pipe_end h : inherited)
    ::SetHandleInformation(h, HANDLE_FLAG_INHERIT, 0);
  if (!started)
    return no_child;
  ::CloseHandle(info.hThread);
  return info.hProcess;
}

int wait_for(child_process process)
{
  DWORD code = 0;
  const bool ok = ::WaitForSingleObject(process, INFINITE) == WAIT_OBJECT_0 &&
                  ::GetExitCodeProcess(process, &code);
  ::CloseHandle(process);
  return ok ? static_cast<int>(code) : -1;
}

namespace {

std::string this_program()
{
  char buffer[MAX_PATH];
  const DWORD n = ::GetModuleFileNameA(nullptr, buffer, MAX_PATH);
  return n > 0 && n < MAX_PATH ? std::string(buffer, n) : std::string();
}

} // namespace

#endif

// ---- both -------------------------------------------------------------------------------------

namespace {

/// `size` bytes by `once` (read_once or write_once), or false.
template <class Buffer, class Once>
bool transfer_all(pipe_end end, Buffer* p, std::size_t size, Once once)
{
  while (size != 0)
  {
    const std::size_t n = once(end, p, size);
    if (n == 0)
      return false;
    p += n;
    size -= n;
  }
  return true;
}

} // namespace

bool read_full(pipe_end end, char* data, std::size_t size)
{
  return transfer_all(end, data, size, read_once);
}

bool write_full(pipe_end end, const char* data, std::size_t size)
{
  return transfer_all(end, data, size, write_once);
}

} // namespace os
#endif

void set_program_path(const char* argv0)
{
  program_path_ = argv0 ? argv0 : "";
#if defined(BENCH_HAS_CHILDREN)
  const std::string path = os::this_program();
  if (!path.empty())
    program_path_ = path;
#endif
}

bool can_spawn_children()
{
#if defined(BENCH_HAS_CHILDREN)
  return !program_path_.empty();
#else
  return false;
#endif
}

} // namespace bench
