//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A test double of ProcessSocketNotifications for systems without it (Wine 8, Windows
// before build 20348), built on real readiness: the AFD engine of the library's AFD backend
// (src/port/win/afd_engine.cpp) working on the caller's own completion port. Installed through the
// library's testing hook, it lets the PSN backend of the port (src/port/win/psn_port.cpp) run its
// conformance and reactor tests: every line of that backend (batches, per-entry results,
// packet translation, user packets, timeouts) runs unchanged against packets that come from
// the kernel's (or Wine's) readiness, not from a sample.
//
// What it adds to the engine, as ProcessSocketNotifications does:
// - one engine per completion port, found by the port object (a duplicate handle is kept,
//   so a reused handle value is not mistaken for a closed port); when the duplicate is the
//   last handle, the port was closed and its registrations end with it;
// - entries checked as PSN would before they reach a registration (operation, filter,
//   trigger flags, an open socket) and answered with Win32 codes (see psn_double.cpp);
// - the engine's packets delivered in PSN's form: the registration's key, the events in
//   dwNumberOfBytesTransferred, lpOverlapped null; user packets pass through untouched, in
//   one FIFO with the notifications as on Windows.
//
// With BOOST_ASIO_NOTIFY_ADVERSARY set it also does, now and then, what the function's page
// does not rule out (early returns, entry results in the other error family, calls that fail
// as a whole after taking effect: see psn_double.cpp).
//
// Limits: it has the AFD backend's (doc/windows.md): edge triggering is emulated (a held
// condition may be reported again), and under Wine a peer's disconnect shows once the data
// before it is read; the error codes of refused entries are plausible Win32 codes, not
// verified against Windows.
#ifndef BOOST_ASIO_NOTIFY_TEST_WINDOWS_PSN_DOUBLE_HPP
#define BOOST_ASIO_NOTIFY_TEST_WINDOWS_PSN_DOUBLE_HPP

#include "port/win/psn.hpp" // the library's private PSN declarations (src/)

#include <cstddef>

namespace psn_double {

/// The double itself, with the signature of the system's ProcessSocketNotifications.
DWORD WSAAPI process_socket_notifications(
    HANDLE completion_port, UINT32 registration_count,
    boost::asio_notify::detail::sock_notify_registration* registration_infos, UINT32 timeout_ms,
    ULONG completion_count, OVERLAPPED_ENTRY* completion_port_entries,
    UINT32* received_entry_count);

/// Makes ports created from now on use the double.
void install() noexcept;

/// Makes ports created from now on use the system's function again (if it has one).
void uninstall() noexcept;

/// How many registrations the double holds, for every port (diagnostics for tests).
std::size_t registration_count();

} // namespace psn_double

#endif
