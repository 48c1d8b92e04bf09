//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The project's own declarations of the Windows socket state notification API
// (`ProcessSocketNotifications`, `SOCK_NOTIFY_REGISTRATION`, the `SOCK_NOTIFY_*` values).
//
// Why the project carries them: MinGW-w64's headers (Debian's, for one) declare none of
// it, and the function is resolved at run time anyway (it exists from build 20348). The
// names are the project's, in `detail`, so they never clash with an SDK that has them;
// where the SDK does declare them the layouts and values are checked against it below.
// Private to the library and its Windows tests (test/windows), which install a double
// through the testing hook declared here.
#ifndef BOOST_ASIO_NOTIFY_SRC_PORT_WIN_PSN_HPP
#define BOOST_ASIO_NOTIFY_SRC_PORT_WIN_PSN_HPP

#if defined(_WIN32)

#include <boost/asio_notify/detail/config.hpp>

#include <winsock2.h> // SOCKET, DWORD, HANDLE, OVERLAPPED_ENTRY, WSAAPI (includes windows.h)

#include <cstddef>

namespace boost {
namespace asio_notify {
namespace detail {

/// `SOCK_NOTIFY_REGISTRATION`: one entry of a `ProcessSocketNotifications` batch.
struct sock_notify_registration
{
  SOCKET socket;             ///< The socket the entry acts on.
  PVOID completion_key;      ///< Returned as `OVERLAPPED_ENTRY::lpCompletionKey`.
  UINT16 event_filter;       ///< `psn::register_event_*` bits.
  UINT8 operation;           ///< One of `psn::op_*`.
  UINT8 trigger_flags;       ///< `psn::trigger_*` bits.
  DWORD registration_result; ///< Out: this entry's Win32 error code.
};

/// The `SOCK_NOTIFY_*` values.
namespace psn {

constexpr UINT16 register_event_none = 0x00;   // SOCK_NOTIFY_REGISTER_EVENT_NONE
constexpr UINT16 register_event_in = 0x01;     // SOCK_NOTIFY_REGISTER_EVENT_IN
constexpr UINT16 register_event_out = 0x02;    // SOCK_NOTIFY_REGISTER_EVENT_OUT
constexpr UINT16 register_event_hangup = 0x04; // SOCK_NOTIFY_REGISTER_EVENT_HANGUP
constexpr UINT16 event_err = 0x40;             // SOCK_NOTIFY_EVENT_ERR
constexpr UINT16 event_remove = 0x80;          // SOCK_NOTIFY_EVENT_REMOVE

constexpr UINT8 op_none = 0x00;    // SOCK_NOTIFY_OP_NONE
constexpr UINT8 op_enable = 0x01;  // SOCK_NOTIFY_OP_ENABLE
constexpr UINT8 op_disable = 0x02; // SOCK_NOTIFY_OP_DISABLE
constexpr UINT8 op_remove = 0x04;  // SOCK_NOTIFY_OP_REMOVE

constexpr UINT8 trigger_oneshot = 0x01;    // SOCK_NOTIFY_TRIGGER_ONESHOT
constexpr UINT8 trigger_persistent = 0x02; // SOCK_NOTIFY_TRIGGER_PERSISTENT
constexpr UINT8 trigger_level = 0x04;      // SOCK_NOTIFY_TRIGGER_LEVEL
constexpr UINT8 trigger_edge = 0x08;       // SOCK_NOTIFY_TRIGGER_EDGE

} // namespace psn

/// The type of `ProcessSocketNotifications` (exported by ws2_32.dll from build 20348).
using process_socket_notifications_fn = DWORD(WSAAPI*)(HANDLE completion_port,
                                                       UINT32 registration_count,
                                                       sock_notify_registration* registration_infos,
                                                       UINT32 timeout_ms, ULONG completion_count,
                                                       OVERLAPPED_ENTRY* completion_port_entries,
                                                       UINT32* received_entry_count);

/** Testing hook: make every port created after this call use `fn` instead of the
    system's `ProcessSocketNotifications`; `nullptr` restores the system's (which may be
    absent). While a function is installed, `is_supported()` is true.

    For tests only: it lets the Windows backend run where the API is missing (under Wine,
    on older Windows) against a double that implements the documented contract. Ports
    that already exist keep the function they were created with. The library itself never
    installs anything. Thread-safe. */
BOOST_ASIO_NOTIFY_DECL void
set_process_socket_notifications_for_testing(process_socket_notifications_fn fn) noexcept;

// The documented layout (x64: 24 bytes; x86: 16 bytes), whichever SDK is in use.
static_assert(offsetof(sock_notify_registration, socket) == 0, "SOCK_NOTIFY_REGISTRATION layout");
static_assert(offsetof(sock_notify_registration, completion_key) == sizeof(void*),
              "SOCK_NOTIFY_REGISTRATION layout");
static_assert(offsetof(sock_notify_registration, event_filter) == 2 * sizeof(void*),
              "SOCK_NOTIFY_REGISTRATION layout");
static_assert(offsetof(sock_notify_registration, operation) == 2 * sizeof(void*) + 2,
              "SOCK_NOTIFY_REGISTRATION layout");
static_assert(offsetof(sock_notify_registration, trigger_flags) == 2 * sizeof(void*) + 3,
              "SOCK_NOTIFY_REGISTRATION layout");
static_assert(offsetof(sock_notify_registration, registration_result) == 2 * sizeof(void*) + 4,
              "SOCK_NOTIFY_REGISTRATION layout");
static_assert(sizeof(sock_notify_registration) == (sizeof(void*) == 8 ? 24 : 16),
              "SOCK_NOTIFY_REGISTRATION layout");
static_assert(sizeof(DWORD) == 4 && sizeof(SOCKET) == sizeof(void*), "Win32 type sizes");

// Where the SDK declares the API (Windows SDK 10.0.20348 and later), ours must match it.
#if defined(SOCK_NOTIFY_OP_ENABLE)
static_assert(sizeof(::SOCK_NOTIFY_REGISTRATION) == sizeof(sock_notify_registration),
              "SOCK_NOTIFY_REGISTRATION size differs from the SDK's");
static_assert(offsetof(::SOCK_NOTIFY_REGISTRATION, completionKey) ==
                      offsetof(sock_notify_registration, completion_key) &&
                  offsetof(::SOCK_NOTIFY_REGISTRATION, eventFilter) ==
                      offsetof(sock_notify_registration, event_filter) &&
                  offsetof(::SOCK_NOTIFY_REGISTRATION, operation) ==
                      offsetof(sock_notify_registration, operation) &&
                  offsetof(::SOCK_NOTIFY_REGISTRATION, triggerFlags) ==
                      offsetof(sock_notify_registration, trigger_flags) &&
                  offsetof(::SOCK_NOTIFY_REGISTRATION, registrationResult) ==
                      offsetof(sock_notify_registration, registration_result),
              "SOCK_NOTIFY_REGISTRATION layout differs from the SDK's");
static_assert(SOCK_NOTIFY_REGISTER_EVENT_IN == psn::register_event_in &&
                  SOCK_NOTIFY_REGISTER_EVENT_OUT == psn::register_event_out &&
                  SOCK_NOTIFY_REGISTER_EVENT_HANGUP == psn::register_event_hangup &&
                  SOCK_NOTIFY_EVENT_ERR == psn::event_err &&
                  SOCK_NOTIFY_EVENT_REMOVE == psn::event_remove &&
                  SOCK_NOTIFY_OP_ENABLE == psn::op_enable &&
                  SOCK_NOTIFY_OP_DISABLE == psn::op_disable &&
                  SOCK_NOTIFY_OP_REMOVE == psn::op_remove &&
                  SOCK_NOTIFY_TRIGGER_ONESHOT == psn::trigger_oneshot &&
                  SOCK_NOTIFY_TRIGGER_PERSISTENT == psn::trigger_persistent &&
                  SOCK_NOTIFY_TRIGGER_LEVEL == psn::trigger_level &&
                  SOCK_NOTIFY_TRIGGER_EDGE == psn::trigger_edge,
              "SOCK_NOTIFY_* values differ from the SDK's");
#endif

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif // defined(_WIN32)

#endif
