//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
#include "process.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>
#include <thread>

#if defined(__linux__)
#define BENCH_HAS_CHILDREN 1
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <climits>
#elif defined(_WIN32)
#define BENCH_HAS_CHILDREN 1
#include <windows.h>
#include <psapi.h> // GetProcessMemoryInfo: K32GetProcessMemoryInfo of kernel32
#endif
namespace bench {

namespace {

std::string program_path;

// The far ends of the connections, as plain blocking Asio sockets (this side of the
// benchmark is not measured; it only has to be simple and portable).
class peer_sockets
{
public:
  bool connect(unsigned short port, std::size_t count)
  {
    const boost::asio::ip::tcp::endpoint peer(boost::asio::ip::address_v4::loopback(), port);
    sockets_.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
    {
      boost::system::error_code ec;
      sockets_.emplace_back(ioc_);
      sockets_.back().connect(peer, ec);
      // One-byte writes to the same connection a few milliseconds apart: without no_delay,
      // Nagle would hold one back until the delayed ACK of the previous one.
      if (!ec)
        sockets_.back().set_option(boost::asio::ip::tcp::no_delay(true), ec);
      if (ec)
        return false;
    }
    order_.resize(count);
    std::iota(order_.begin(), order_.end(), std::size_t(0));
    return true;
  }

  bool write_random(std::size_t k, std::uint32_t seed)
  {
    std::mt19937 rng(seed);
    const std::size_t n = order_.size();
    k = std::min(k, n);
    for (std::size_t i = 0; i < k; ++i)
    {
      std::swap(order_[i], order_[i + rng() % (n - i)]); // partial Fisher-Yates: distinct
      const char byte = 'x';
      boost::system::error_code ec;
      boost::asio::write(sockets_[order_[i]], boost::asio::buffer(&byte, 1), ec);
      if (ec)
        return false;
    }
    return true;
  }

private:
  boost::asio::io_context ioc_;
  std::vector<boost::asio::ip::tcp::socket> sockets_;
  std::vector<std::size_t> order_;
};

// Peers on a thread of this process: they connect while the caller accepts.
class thread_peers final : public peer_group
{
public:
  thread_peers(unsigned short port, std::size_t count)
      : thread_([this, port, count] { connected_ = sockets_.connect(port, count); })
  {
  }

  ~thread_peers() override
  {
    if (thread_.joinable())
      thread_.join();
  }

  bool wait_connected() override
  {
    if (thread_.joinable())
      thread_.join();
    return connected_;
  }

  bool write_random(std::size_t k, std::uint32_t seed) override
  {
    return sockets_.write_random(k, seed);
  }

  bool separate_process() const override { return false; }

private:
  peer_sockets sockets_;
  bool connected_ = false;
  std::thread thread_;
};

#if defined(__linux__)

// ---- the operating system's side of child processes: POSIX -----------------------------------

using pipe_end = int; // a pipe's descriptor
const pipe_end no_pipe = -1;
using child_process = pid_t;
const child_process no_child = -1;

/// One read or write: how many bytes it moved, or 0 at the end of the pipe or on an error.
std::size_t read_once(pipe_end end, char* data, std::size_t size)
{
  ssize_t n;
  while ((n = ::read(end, data, size)) < 0 && errno == EINTR)
  {
  }
  return n > 0 ? static_cast<std::size_t>(n) : 0;
}

std::size_t write_once(pipe_end end, const char* data, std::size_t size)
{
  ssize_t n;
  while ((n = ::write(end, data, size)) < 0 && errno == EINTR)
  {
  }
  return n > 0 ? static_cast<std::size_t>(n) : 0;
}

void close_end(pipe_end end)
{
  if (end != no_pipe)
    ::close(end);
}

/// A pipe whose ends are not inherited by children, except when passed to spawn.
bool make_pipe(pipe_end& read_end, pipe_end& write_end)
{
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0)
    return false;
  read_end = ends[0];
  write_end = ends[1];
  return true;
}

/// How a child names an end it inherited (the same descriptor).
std::string end_argument(pipe_end end) { return std::to_string(end); }
pipe_end end_from_argument(const std::string& s) { return std::stoi(s); }

// fork + exec of `args` (args[0] is looked up in PATH). The child keeps only the
// descriptors in `keep` (and 0-2); `output`, when not no_pipe, becomes its standard output
// and standard error.
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

/// The child's exit status, or -1 when it did not exit normally.
int wait_for(child_process pid)
{
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string this_program()
{
  char buffer[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  return n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : std::string();
}

#elif defined(_WIN32)

// ---- the operating system's side of child processes: Windows ---------------------------------

using pipe_end = HANDLE; // an anonymous pipe's end
const pipe_end no_pipe = nullptr;
using child_process = HANDLE;
const child_process no_child = nullptr;

/// One read or write: how many bytes it moved, or 0 at the end of the pipe
/// (ERROR_BROKEN_PIPE) or on an error.
std::size_t read_once(pipe_end end, char* data, std::size_t size)
{
  DWORD n = 0;
  const DWORD chunk = static_cast<DWORD>(std::min<std::size_t>(size, 1 << 20));
  return ::ReadFile(end, data, chunk, &n, nullptr) ? n : 0;
}

std::size_t write_once(pipe_end end, const char* data, std::size_t size)
{
  DWORD n = 0;
  const DWORD chunk = static_cast<DWORD>(std::min<std::size_t>(size, 1 << 20));
  return ::WriteFile(end, data, chunk, &n, nullptr) ? n : 0;
}

void close_end(pipe_end end)
{
  if (end != no_pipe)
    ::CloseHandle(end);
}

/// A pipe whose ends are not inherited by children, except when passed to spawn.
bool make_pipe(pipe_end& read_end, pipe_end& write_end)
{
  return ::CreatePipe(&read_end, &write_end, nullptr, 0) != 0;
}

/// How a child names a handle it inherited (the same value in both processes).
std::string end_argument(pipe_end end)
{
  return std::to_string(reinterpret_cast<std::uintptr_t>(end));
}
pipe_end end_from_argument(const std::string& s)
{
  return reinterpret_cast<HANDLE>(static_cast<std::uintptr_t>(std::stoull(s)));
}

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

/// CreateProcess of this program with `args` (args[0], its name, is replaced by its full
/// path). Only the handles in `keep` and `output` are inherited, each made inheritable for
/// the call only (pipes are made not inheritable; so are the sockets). `output`, when not
/// no_pipe, becomes the child's standard output and standard error.
child_process spawn(const std::vector<std::string>& args, std::vector<pipe_end> keep,
                    pipe_end output)
{
  const std::wstring program = this_program_wide();
  std::wstring command_line = L"\"" + program + L"\"";
  for (std::size_t i = 1; i < args.size(); ++i)
    command_line += L" " + quote_argument(args[i]);
  if (output != no_pipe)
    keep.push_back(output);
  for (pipe_end h : keep)
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
  for (pipe_end h : keep)
    ::SetHandleInformation(h, HANDLE_FLAG_INHERIT, 0);
  if (!started)
    return no_child;
  ::CloseHandle(info.hThread);
  return info.hProcess;
}

/// The child's exit code, or -1 when it cannot be had.
int wait_for(child_process process)
{
  DWORD code = 0;
  const bool ok = ::WaitForSingleObject(process, INFINITE) == WAIT_OBJECT_0 &&
                  ::GetExitCodeProcess(process, &code);
  ::CloseHandle(process);
  return ok ? static_cast<int>(code) : -1;
}

std::string this_program()
{
  char buffer[MAX_PATH];
  const DWORD n = ::GetModuleFileNameA(nullptr, buffer, MAX_PATH);
  return n > 0 && n < MAX_PATH ? std::string(buffer, n) : std::string();
}

#endif

#if defined(BENCH_HAS_CHILDREN)

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

bool read_full(pipe_end end, char* data, std::size_t size)
{
  return transfer_all(end, data, size, read_once);
}

bool write_full(pipe_end end, const char* data, std::size_t size)
{
  return transfer_all(end, data, size, write_once);
}

// Peers in a child process (`--peer`), commanded through two pipes.
class process_peers final : public peer_group
{
public:
  process_peers(unsigned short port, std::size_t count)
  {
    pipe_end command_read = no_pipe;
    pipe_end reply_write = no_pipe;
    if (!make_pipe(command_read, command_))
      return;
    if (!make_pipe(reply_, reply_write))
    {
      close_end(command_read);
      return;
    }
    child_ = spawn({program_path, "--peer", std::to_string(port), std::to_string(count),
                    end_argument(command_read), end_argument(reply_write)},
                   {command_read, reply_write}, no_pipe);
    close_end(command_read);
    close_end(reply_write);
  }

  ~process_peers() override
  {
    if (command_ != no_pipe)
    {
      write_full(command_, "q", 1);
      close_end(command_);
    }
    close_end(reply_);
    if (child_ != no_child)
      wait_for(child_);
  }

  bool started() const { return child_ != no_child; }

  bool wait_connected() override { return expect('c'); }

  bool write_random(std::size_t k, std::uint32_t seed) override
  {
    char message[9] = {'w'};
    const auto k32 = static_cast<std::uint32_t>(k);
    std::copy_n(reinterpret_cast<const char*>(&k32), 4, message + 1);
    std::copy_n(reinterpret_cast<const char*>(&seed), 4, message + 5);
    return write_full(command_, message, sizeof(message)) && expect('d');
  }

  bool separate_process() const override { return true; }

private:
  bool expect(char what)
  {
    char c = 0;
    return read_full(reply_, &c, 1) && c == what;
  }

  child_process child_ = no_child;
  pipe_end command_ = no_pipe;
  pipe_end reply_ = no_pipe;
};

#endif

} // namespace

void set_program_path(const char* argv0)
{
  program_path = argv0 ? argv0 : "";
#if defined(BENCH_HAS_CHILDREN)
  const std::string path = this_program();
  if (!path.empty())
    program_path = path;
#endif
}

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

bool can_spawn_children()
{
#if defined(BENCH_HAS_CHILDREN)
  return !program_path.empty();
#else
  return false;
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

int run_self(const std::vector<std::string>& args, std::string* output)
{
#if defined(BENCH_HAS_CHILDREN)
  std::vector<std::string> all{program_path};
  all.insert(all.end(), args.begin(), args.end());
  pipe_end read_end = no_pipe;
  pipe_end write_end = no_pipe;
  if (output && !make_pipe(read_end, write_end))
    return -1;
  const child_process child = spawn(all, {}, write_end);
  close_end(write_end); // the child's copy keeps the pipe open until it exits
  if (output)
  {
    char buffer[4096];
    while (const std::size_t n = read_once(read_end, buffer, sizeof(buffer)))
      output->append(buffer, n);
    close_end(read_end);
  }
  return child != no_child ? wait_for(child) : -1;
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
  std::vector<std::string> all{"strace", "-f", "-c", "-o", summary_file, program_path};
  all.insert(all.end(), args.begin(), args.end());
  std::remove(summary_file.c_str());
  // What the program prints is of no interest here: only the summary file is.
  const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  const pid_t pid = spawn(all, {}, null_fd);
  if (null_fd >= 0)
    ::close(null_fd);
  const int status = pid > 0 ? wait_for(pid) : -1;
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

std::unique_ptr<peer_group> start_peers(unsigned short port, std::size_t count)
{
#if defined(BENCH_HAS_CHILDREN)
  if (can_spawn_children())
  {
    auto peers = std::make_unique<process_peers>(port, count);
    if (peers->started())
      return peers;
  }
#endif
  return std::make_unique<thread_peers>(port, count);
}

int peer_main(unsigned short port, std::size_t count, const std::string& command_pipe,
              const std::string& reply_pipe)
{
#if defined(BENCH_HAS_CHILDREN)
  const pipe_end command = end_from_argument(command_pipe);
  const pipe_end reply = end_from_argument(reply_pipe);
  peer_sockets sockets;
  if (!sockets.connect(port, count) || !write_full(reply, "c", 1))
    return 1;
  for (;;)
  {
    char what = 0;
    if (!read_full(command, &what, 1) || what == 'q')
      return 0; // end of the parent's pipe: it is gone
    char args[8];
    if (what != 'w' || !read_full(command, args, sizeof(args)))
      return 1;
    std::uint32_t k = 0;
    std::uint32_t seed = 0;
    std::copy_n(args, 4, reinterpret_cast<char*>(&k));
    std::copy_n(args + 4, 4, reinterpret_cast<char*>(&seed));
    if (!sockets.write_random(k, seed) || !write_full(reply, "d", 1))
      return 1;
  }
#else
  (void)port;
  (void)count;
  (void)command_pipe;
  (void)reply_pipe;
  return 1;
#endif
}

} // namespace bench
