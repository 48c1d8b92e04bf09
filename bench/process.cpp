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

#if defined(BENCH_HAS_CHILDREN)

bool read_full(int fd, void* data, std::size_t size)
{
  auto* p = static_cast<char*>(data);
  while (size != 0)
  {
    const ssize_t n = ::read(fd, p, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

bool write_full(int fd, const void* data, std::size_t size)
{
  const auto* p = static_cast<const char*>(data);
  while (size != 0)
  {
    const ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// fork + exec of `args` (args[0] is looked up in PATH). The child keeps only the
// descriptors in `keep` (and 0-2); `stdout_fd` and `stderr_fd`, when not -1, become its
// standard output and standard error.
pid_t spawn(const std::vector<std::string>& args, const std::vector<int>& keep, int stdout_fd,
            int stderr_fd = -1)
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
  if (stdout_fd >= 0)
    ::dup2(stdout_fd, 1);
  if (stderr_fd >= 0)
    ::dup2(stderr_fd, 2);
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

int wait_for(pid_t pid)
{
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Peers in a child process (`--peer`), commanded through two pipes.
class process_peers final : public peer_group
{
public:
  process_peers(unsigned short port, std::size_t count)
  {
    int command[2];
    int reply[2];
    if (::pipe2(command, O_CLOEXEC) != 0)
      return;
    if (::pipe2(reply, O_CLOEXEC) != 0)
    {
      ::close(command[0]);
      ::close(command[1]);
      return;
    }
    pid_ = spawn({program_path, "--peer", std::to_string(port), std::to_string(count),
                  std::to_string(command[0]), std::to_string(reply[1])},
                 {command[0], reply[1]}, -1);
    ::close(command[0]);
    ::close(reply[1]);
    command_ = command[1];
    reply_ = reply[0];
  }

  ~process_peers() override
  {
    if (command_ >= 0)
    {
      write_full(command_, "q", 1);
      ::close(command_);
    }
    if (reply_ >= 0)
      ::close(reply_);
    if (pid_ > 0)
      wait_for(pid_);
  }

  bool started() const { return pid_ > 0; }

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

  pid_t pid_ = -1;
  int command_ = -1;
  int reply_ = -1;
};

#endif

} // namespace

void set_program_path(const char* argv0)
{
  program_path = argv0 ? argv0 : "";
#if defined(BENCH_HAS_CHILDREN)
  char buffer[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  if (n > 0)
    program_path.assign(buffer, static_cast<std::size_t>(n));
#endif
}

std::size_t raise_descriptor_limit()
{
#if defined(BENCH_HAS_CHILDREN)
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
#endif
  return -1;
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
  int out[2] = {-1, -1};
  if (output && ::pipe2(out, O_CLOEXEC) != 0)
    return -1;
  const pid_t pid = spawn(all, {}, out[1], out[1]);
  if (output)
  {
    ::close(out[1]);
    char buffer[4096];
    ssize_t n;
    while ((n = ::read(out[0], buffer, sizeof(buffer))) > 0 || (n < 0 && errno == EINTR))
      if (n > 0)
        output->append(buffer, static_cast<std::size_t>(n));
    ::close(out[0]);
  }
  return pid > 0 ? wait_for(pid) : -1;
#else
  (void)args;
  (void)output;
  return -1;
#endif
}

syscall_counts strace_self(const std::vector<std::string>& args, const std::string& summary_file)
{
  syscall_counts result;
#if defined(BENCH_HAS_CHILDREN)
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
  result.error = "needs Linux and strace";
#endif
  return result;
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

int peer_main(unsigned short port, std::size_t count, int command_fd, int reply_fd)
{
#if defined(BENCH_HAS_CHILDREN)
  peer_sockets sockets;
  if (!sockets.connect(port, count) || !write_full(reply_fd, "c", 1))
    return 1;
  for (;;)
  {
    char what = 0;
    if (!read_full(command_fd, &what, 1) || what == 'q')
      return 0; // end of the parent's pipe: it is gone
    char args[8];
    if (what != 'w' || !read_full(command_fd, args, sizeof(args)))
      return 1;
    std::uint32_t k = 0;
    std::uint32_t seed = 0;
    std::copy_n(args, 4, reinterpret_cast<char*>(&k));
    std::copy_n(args + 4, 4, reinterpret_cast<char*>(&seed));
    if (!sockets.write_random(k, seed) || !write_full(reply_fd, "d", 1))
      return 1;
  }
#else
  (void)port;
  (void)count;
  (void)command_fd;
  (void)reply_fd;
  return 1;
#endif
}

} // namespace bench
