# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# How the example programs are launched, one idea: the class of each system that runs them.
# Native (a POSIX build machine), Wine (Windows builds under Wine, driven by the host's
# tools) and Windows (Windows builds on Windows itself) say how a program is started and
# stopped, what its output looks like and how its memory is read, and which checks cannot
# run there, and why.

import os
import re
import signal
import subprocess
import sys

from .checks import check


class Native:
    """How programs run on a POSIX build machine itself: the host's tools, and the examples
    when they are built for it."""

    startup = 0  # seconds a program may take to start, on top of every time-out
    slow_start = False  # whether starting a program takes seconds: start fewer
    env = None  # inherited
    # Why a check cannot run on the examples so launched, or None where it can.
    no_descriptor_limit = None
    no_links = None

    def command(self, args):
        return args

    def never_started(self, returncode):
        """Whether a program that printed nothing and ended with `returncode` never ran:
        its system's loader failed to start it, and it may be started again."""
        return False

    def popen_options(self):
        """More arguments for Popen, for the programs that stop() may stop."""
        return {}

    def stdout(self, data):
        return data

    def argument_size(self, size):
        """The size of a command-line argument of `size` characters, or less where
        the system cannot pass one that long."""
        return size

    def stop(self, proc):
        """Asks the server `proc` (a Popen) to stop; returns how, for messages. The
        servers' signal_set stops their io_context on SIGTERM."""
        proc.send_signal(signal.SIGTERM)
        return "SIGTERM"

    def check_clean_stop(self, process):
        """What a server stopped by stop() must show beyond exit code 0: nothing here,
        since SIGTERM's default action (no handler) is death by the signal."""

    def no_memory(self, process):
        """Why the memory of `process` cannot be measured, or None where it can."""
        return None

    def resident_mib(self, process, peak):
        """A process's resident memory in MiB from /proc/<pid>/status: now (VmRSS), or its
        peak so far (VmHWM)."""
        field = "VmHWM" if peak else "VmRSS"
        with open(f"/proc/{process.proc.pid}/status") as f:
            m = re.search(rf"^{field}:\s*(\d+) kB", f.read(), re.M)
        return int(m.group(1)) / 1024

    def clients_peak_mib(self):
        """The peak resident memory in MiB of any client run to completion so far, or None
        where the system does not keep it."""
        import resource
        return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KiB on Linux


class WindowsPrograms(Native):
    """What Windows builds of the examples have in common, under Wine or on Windows."""

    # Windows limits a whole command line to 32767 characters.
    longest_argument = 30_000

    def stdout(self, data):
        return data.replace(b"\r\n", b"\n")  # text-mode stdout of the Windows C runtime

    def argument_size(self, size):
        if size > self.longest_argument:
            print(f"Windows: a {size}-character argument shortened to {self.longest_argument}"
                  " (Windows limits a command line to 32767 characters)")
        return min(size, self.longest_argument)


class Wine(WindowsPrograms):
    """Windows builds of the examples under Wine, started by its loader. Paths need no
    translation: a Windows program takes "/a/b" on the current drive, and Wine puts the
    current directory (the build tree) on Z:, its drive for the host's "/"."""

    # Starting a Wine process takes seconds where the wineserver is not running yet or the
    # machine is busy; the checks themselves keep their time-outs.
    startup = 45
    slow_start = True
    no_descriptor_limit = ("under Wine (the Windows process has no rlimit, and its CPU time"
                           " is not in /proc)")
    # Wine shows the host's links to Windows programs as the files they point to, as Windows
    # shows a junction or an 8.3 name to a path check that does not resolve them: the link
    # tests run, and http_server must find the file's real path (GetFinalPathNameByHandleW).

    def __init__(self, loader):
        self.loader = loader
        # Wine 8 ends a process that has no Ctrl-C handler with exit code 0 (newer Wines
        # with STATUS_CONTROL_C_EXIT), so exit code 0 alone proves no clean stop; its only
        # trace is a FIXME of the console channel, turned on here for check_clean_stop.
        self.env = dict(os.environ, WINEDEBUG=",".join(
            filter(None, [os.environ.get("WINEDEBUG"), "fixme+console"])))

    def command(self, args):
        return [self.loader] + args

    def never_started(self, returncode):
        # Wine's loader ends a process whose DLLs failed to initialise, before main(), with
        # exit status 0x42 (STATUS_DLL_INIT_FAILED): a loaded machine's, see cmake/wine-run.sh.
        return returncode == 0x42

    def stop(self, proc):
        """Wine lets SIGTERM kill the process: no Windows code sees it. SIGINT it turns
        into a console CTRL_C_EVENT, which the C runtime delivers to signal(SIGINT)
        handlers, Asio's signal_set among them: the Ctrl-C that stops the servers on
        Windows."""
        proc.send_signal(signal.SIGINT)
        return "SIGINT"

    def check_clean_stop(self, process):
        check("default_ctrl_handler" not in process.stderr_text(),
              f"{process.name}: ended by Wine's default Ctrl-C handler, not by its own")

    def no_memory(self, process):
        """/proc shows the server's own memory where Wine's loader, the process started,
        goes on to run the Windows program itself (its argv[0] becomes the program's): a
        Wine that ran it in another process would leave nothing of the program's there."""
        with open(f"/proc/{process.proc.pid}/cmdline", "rb") as f:
            argv0 = f.read().split(b"\0")[0].decode(errors="replace")
        if argv0.replace("\\", "/").endswith(os.path.basename(process.args[0])):
            return None
        return f"under Wine, process {process.proc.pid} runs {argv0!r}, not the server"


# Run by Windows.stop in a process of its own: Ctrl-C to every process of the console of
# process argv[1], not to this one, nor to the console of the test (ctest's, shared with
# the other tests).
CTRL_C_SENDER = """
import ctypes, sys
kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
def need(ok, what):
    if not ok:
        sys.exit(f"{what}: error {ctypes.get_last_error()}")
kernel32.FreeConsole()
need(kernel32.AttachConsole(int(sys.argv[1])), "AttachConsole")
need(kernel32.SetConsoleCtrlHandler(None, True), "SetConsoleCtrlHandler")
need(kernel32.GenerateConsoleCtrlEvent(0, 0), "GenerateConsoleCtrlEvent")  # CTRL_C_EVENT
"""


class Windows(WindowsPrograms):
    """Windows builds of the examples on Windows itself. No signal reaches a Windows
    program from outside: the C runtime raises SIGINT for a Ctrl-C of its console, which
    only a process attached to that console can send, to all of the console's processes.
    So each program started to be stopped gets a (hidden) console of its own, and stop()
    sends Ctrl-C to it from a helper process."""

    no_descriptor_limit = "on Windows (no limit on a process's sockets to lower)"
    no_links = "on Windows (making links takes a privilege the test may not have)"

    def __init__(self):
        # Ignoring Ctrl-C is inherited: a test started that way (as a new process group)
        # would start servers that ignore it too.
        import ctypes
        ctypes.WinDLL("kernel32").SetConsoleCtrlHandler(None, False)

    def popen_options(self):
        hidden = subprocess.STARTUPINFO(dwFlags=subprocess.STARTF_USESHOWWINDOW,
                                        wShowWindow=subprocess.SW_HIDE)
        return {"creationflags": subprocess.CREATE_NEW_CONSOLE, "startupinfo": hidden}

    def stop(self, proc):
        r = subprocess.run([sys.executable, "-c", CTRL_C_SENDER, str(proc.pid)],
                           capture_output=True, timeout=30,
                           creationflags=subprocess.DETACHED_PROCESS)
        check(r.returncode == 0, f"Ctrl-C to process {proc.pid}: {r.stderr.decode().strip()}")
        return "Ctrl-C"

    def check_clean_stop(self, process):
        """Nothing beyond exit code 0: without a handler, Ctrl-C ends a Windows program
        with STATUS_CONTROL_C_EXIT."""

    def resident_mib(self, process, peak):
        """The working set in MiB (GetProcessMemoryInfo): now, or its peak so far."""
        import ctypes
        from ctypes import wintypes
        size = ctypes.c_size_t

        class Counters(ctypes.Structure):  # PROCESS_MEMORY_COUNTERS
            _fields_ = [("cb", wintypes.DWORD), ("PageFaultCount", wintypes.DWORD),
                        ("PeakWorkingSetSize", size), ("WorkingSetSize", size),
                        ("QuotaPeakPagedPoolUsage", size), ("QuotaPagedPoolUsage", size),
                        ("QuotaPeakNonPagedPoolUsage", size), ("QuotaNonPagedPoolUsage", size),
                        ("PagefileUsage", size), ("PeakPagefileUsage", size)]

        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
        get = kernel32.K32GetProcessMemoryInfo
        get.argtypes = [wintypes.HANDLE, ctypes.POINTER(Counters), wintypes.DWORD]
        get.restype = wintypes.BOOL
        counters = Counters(cb=ctypes.sizeof(Counters))
        # Popen's handle of the process: it has every access right.
        check(get(int(process.proc._handle), ctypes.byref(counters), counters.cb),
              f"{process.name}: GetProcessMemoryInfo: error {ctypes.get_last_error()}")
        return (counters.PeakWorkingSetSize if peak else counters.WorkingSetSize) / 2**20

    def clients_peak_mib(self):
        return None  # no getrusage: a finished child's peak is gone with it


NATIVE = Native()
