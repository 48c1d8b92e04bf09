//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A test double of ProcessSocketNotifications for systems without it (Wine 8, Windows
// before build 20348), built from what they do have: completion ports,
// PostQueuedCompletionStatus, GetQueuedCompletionStatusEx and WSAPoll. Installed through
// the library's testing hook, it lets the Windows backend of the port run its conformance
// tests for real: every other line of the backend (batches, per-entry results, packet
// translation, user packets, timeouts) runs unchanged.
//
// What it implements (psn-contract.md):
// - a process-wide table of registrations, so a socket belongs to one port (rule 1),
//   re-registering overwrites, and a key cannot change while registered (rule 2);
// - remove queues exactly one packet with SOCK_NOTIFY_EVENT_REMOVE and nothing for the
//   registration follows it (rule 3); a closed socket loses its registration silently
//   (rule 4), also when its handle value is reused by a new socket at once;
// - disable (rule 5), level (rule 6), one-shot (rule 7), edge (rule 8: changes after the
//   registration is enabled; a condition already true then is not reported), ERR whatever
//   the filter (rule 9), no HANGUP for datagram sockets (rule 10);
// - notification packets are posted to the port with lpOverlapped == NULL and the events in
//   dwNumberOfBytesTransferred, and dequeued with GetQueuedCompletionStatusEx, so they mix
//   with user packets in one FIFO as on Windows.
//
// How: readiness is sampled with WSAPoll whenever a thread is in the double's dequeue (at
// its start and every few milliseconds while it waits), and a registration has at most one
// packet queued at a time (a level-triggered condition that still holds is queued again
// after that packet is dequeued). A queued packet carries the registration's generation in
// the high bits of dwNumberOfBytesTransferred; the double strips it when dequeuing and drops
// packets of registrations that were disabled, re-registered or removed since.
//
// Limits (a double, not the kernel): readiness is sampled, so an edge whose condition goes
// false and true again between two samples (a few ms apart while a dequeue waits, none while
// nobody dequeues) can be missed; packets are only produced while some thread is in the
// double's ProcessSocketNotifications; the error codes of refused entries are plausible
// Win32 codes, not verified against Windows (see psn_double.cpp).
#ifndef BOOST_ASIO_NOTIFY_TEST_WINDOWS_PSN_DOUBLE_HPP
#define BOOST_ASIO_NOTIFY_TEST_WINDOWS_PSN_DOUBLE_HPP

#include <boost/asio_notify/detail/win_psn.hpp>

#include <cstddef>

namespace psn_double {

/// The double itself, with the signature of the system's ProcessSocketNotifications.
DWORD WSAAPI process_socket_notifications(
    HANDLE completion_port, UINT32 registration_count,
    boost::asio_notify::detail::sock_notify_registration* registration_infos,
    UINT32 timeout_ms, ULONG completion_count, OVERLAPPED_ENTRY* completion_port_entries,
    UINT32* received_entry_count);

/// Makes ports created from now on use the double.
void install() noexcept;

/// Makes ports created from now on use the system's function again (if it has one).
void uninstall() noexcept;

/// How many registrations the double holds, for every port (diagnostics for tests).
std::size_t registration_count();

} // namespace psn_double

#endif
