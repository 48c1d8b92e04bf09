//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What the two Windows backends of the port share: the port's state is a completion port
// (win::completion_port, a `port::impl`), filled by ProcessSocketNotifications (port_win.cpp) or by
// IOCTL_AFD_POLL (port_afd.cpp); user packets, Winsock start-up, error and timeout
// conversions are the same for both.
#ifndef BOOST_ASIO_NOTIFY_SRC_PORT_WIN_COMMON_HPP
#define BOOST_ASIO_NOTIFY_SRC_PORT_WIN_COMMON_HPP

#include "port_backend.hpp"

#include <winsock2.h>
#include <windows.h>

#include <chrono>
#include <cstdint>
#include <memory>

namespace boost {
namespace asio_notify {

namespace detail {
namespace win {

/// A Windows port: a completion port, filled with packets by the derived backend.
class completion_port : public port::impl
{
public:
  ~completion_port() override;

  /// Queue a user packet: the same for every backend (see user_packet_marker).
  void post(void* key, std::uint32_t value, boost::system::error_code& ec) override;

  port::native_handle_type native_handle() const noexcept override { return iocp; }

protected:
  /// Creates `iocp`; false (and `ec` set) on failure.
  bool open_completion_port(boost::system::error_code& ec) noexcept;

  HANDLE iocp = nullptr;
};

/// A Win32 error as an error_code; "not registered" is the contract's `not_found`.
boost::system::error_code win32_error(DWORD code) noexcept;

/// `GetLastError()` as an error_code.
boost::system::error_code last_error() noexcept;

/// A socket call's Win32 result as an error_code: every code that means "no such socket"
/// (an invalid handle, not a socket) is the contract's `bad_descriptor`.
boost::system::error_code socket_error(DWORD code) noexcept;

/// An NTSTATUS as an error_code, through ntdll's RtlNtStatusToDosError and socket_error.
boost::system::error_code nt_status_error(LONG status) noexcept;

/// A function exported by a module this process has loaded (ws2_32, ntdll, kernelbase), or
/// null: the APIs that exist only on some Windows builds are looked up at run time.
template <class F>
F system_function(const wchar_t* module, const char* name) noexcept
{
  const HMODULE m = ::GetModuleHandleW(module);
  // Through void(*)(), the type GCC accepts as a cast between unrelated function types.
  return m ? reinterpret_cast<F>(reinterpret_cast<void (*)()>(::GetProcAddress(m, name))) : nullptr;
}

/// Turns a user packet (its lpOverlapped is user_packet_marker) into `out`; false for any
/// other entry.
bool translate_user_packet(const OVERLAPPED_ENTRY& e, packet& out) noexcept;

/// A socket's file identity (Wine: the Unix socket's inode), so that a handle value that was
/// closed and reused is not mistaken for the socket it named before. All zero where the
/// system gives none; then only handle values tell sockets apart.
struct socket_identity
{
  FILE_ID_INFO id{};

  bool operator==(const socket_identity& o) const noexcept;
  bool operator!=(const socket_identity& o) const noexcept { return !(*this == o); }
};

/// The identity of socket `s` now.
socket_identity identify(SOCKET s) noexcept;

/// Starts Winsock once for the process (cleaned up at exit).
boost::system::error_code start_winsock() noexcept;

/// The `lpOverlapped` of every user packet: an address only this library produces, so a
/// user packet is recognised by a field the port sets itself. Never read or written through.
extern OVERLAPPED user_packet_marker;

/// A port timeout as a Win32 one: `port::infinite` -> INFINITE; otherwise clamped to
/// [0, INFINITE - 1].
DWORD to_wait_ms(std::chrono::milliseconds timeout) noexcept;

/// The time left of a wait that began at `start`; `port::infinite` stays infinite. Waits
/// may end early (smol-rs/polling saw a 1 s ProcessSocketNotifications return after 991 ms),
/// so a backend waits again for what is left rather than trusting one call.
class wait_budget
{
public:
  explicit wait_budget(std::chrono::milliseconds timeout) noexcept
      : timeout_(timeout), start_(std::chrono::steady_clock::now())
  {
  }

  /// What is left, as a Win32 timeout; 0 once the time is up.
  DWORD left_ms() const noexcept;

  /// Whether any time is left.
  bool expired() const noexcept { return left_ms() == 0; }

private:
  std::chrono::milliseconds timeout_;
  std::chrono::steady_clock::time_point start_;
};

/// The port contract emulated on IOCTL_AFD_POLL for one completion port, which the engine
/// does not own (it must outlive the engine): what the AFD backend runs on, and what the
/// tests' ProcessSocketNotifications double runs on, so that both see real readiness.
/// Thread-safe. The caller waits on the completion port itself, calling `before_wait` before
/// each wait and passing what it dequeued to `complete`.
class afd_engine
{
public:
  /// What an entry dequeued from the completion port was to the engine.
  enum class entry_kind
  {
    packet,  ///< a packet for the port's user (a notification or a REMOVE)
    nothing, ///< the engine's, reporting nothing (filtered, closed socket, stale poll)
    foreign  ///< not the engine's (a user packet, or something else posted to the port)
  };

  virtual ~afd_engine();

  /// Applies each entry, setting its `result` (validated as the contract says).
  virtual void apply(boost::span<registration> regs) = 0;

  /// Polls again for what completed since the last call and samples edge conditions: call
  /// it before each wait on the completion port. Returns `wait` (milliseconds) shortened to
  /// when the engine needs to be called again.
  virtual DWORD before_wait(DWORD wait) = 0;

  /// Sorts `count` dequeued entries into `kinds`, writing `out[i]` for each `packet`.
  virtual void complete(const OVERLAPPED_ENTRY* entries, std::size_t count, packet* out,
                        entry_kind* kinds) = 0;

  /// How many registrations the engine holds.
  virtual std::size_t size() = 0;
};

/// An AFD engine on `iocp`, or null and `ec` set (`operation_not_supported` where the system
/// has no usable `\Device\Afd`).
std::unique_ptr<afd_engine> open_afd_engine(HANDLE iocp, boost::system::error_code& ec);

/// The AFD backend, or null and `ec` set (`operation_not_supported` where the system has no
/// usable `\Device\Afd`).
std::unique_ptr<port::impl, port::impl_deleter> open_afd_port(boost::system::error_code& ec);

/// Whether an AFD helper handle can be opened here (checked once).
bool afd_available() noexcept;

} // namespace win
} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
