#!/usr/bin/env python3
#
# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# Smoke tests for the example servers: each scenario starts a server on a free port
# (port 0, read back from its "listening on port N" line), drives it with a real client
# and checks what comes back. Nothing here may hang: every wait has a time-out, the whole
# run has a watchdog, and every process started is killed in the end. It runs on POSIX and
# on Windows (the GitHub Windows job), so nothing in it may need what only one of them has.
#
#   smoke_test.py <scenario> --variant notify|default --work-dir DIR --bin NAME=PATH...
#                 [--wine LOADER]
#
# Scenarios: tcp_echo (and coro_echo), udp_echo, chat, http, tls, curl_multi (see below).
# With --wine, the binaries are Windows builds (the MinGW cross build) run under Wine, and
# the host's programs (Python sockets, curl, wrk) still drive them: Wine's sockets are the
# host's. What differs under Wine is in class Wine, what differs on Windows in class Windows.

import _thread
import argparse
import contextlib
from http.client import HTTPConnection
import io
import math
import os
import queue
import random
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

TOTAL_TIME_LIMIT = 100  # seconds; ctest's own TIMEOUT is larger, so we clean up first


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


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


class Process:
    """A child process whose stdout lines are collected by a thread, so that reading
    them can time out. `launch` is how it runs: Native, Wine or Windows."""

    def __init__(self, name, args, work_dir, stdin=False, launch=NATIVE, nofile=None, env=None):
        self.name = name
        self.args = args
        self.launch = launch
        self.startup = launch.startup  # used up by the first line
        self.log_path = os.path.join(work_dir, name + ".stderr")
        self.log = open(self.log_path, "w")
        # Bytes both ways: what is sent ends its lines with "\n" on every system (a text
        # stream would write "\r\n" on Windows); lines read end in "\n" or "\r\n".
        self.proc = subprocess.Popen(
            launch.command(args), stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=self.log,
            env=dict(launch.env or os.environ, **env) if env else launch.env,
            preexec_fn=None if nofile is None else lambda: limit_descriptors(nofile),
            **launch.popen_options())
        children.append(self.proc)
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        running.append(self)

    def _read(self):
        for line in io.TextIOWrapper(self.proc.stdout, encoding="utf-8", errors="replace"):
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)  # end of output

    def next_line(self, timeout=10):
        timeout += self.startup
        self.startup = 0
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise Failure(f"{self.name}: no output within {timeout}s")
        check(line is not None, f"{self.name}: output ended early (exit code {self.proc.poll()})")
        return line

    def send(self, text):
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()

    def close_stdin(self):
        self.proc.stdin.close()

    def wait(self, timeout=10):
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise Failure(f"{self.name}: still running after {timeout}s")

    def stop(self):
        """SIGTERM (SIGINT under Wine, Ctrl-C on Windows), which the servers handle by
        stopping their io_context: must exit 0."""
        check(self.proc.poll() is None, f"{self.name}: died early (exit code {self.proc.poll()})")
        how = self.launch.stop(self.proc)
        check(self.wait(10) == 0, f"{self.name}: exit code {self.proc.returncode} after {how}")
        self.launch.check_clean_stop(self)
        print(f"{self.name}: stopped cleanly by {how}")

    def stderr_text(self):
        self.log.flush()
        with open(self.log_path) as f:
            return f.read().strip()

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


running = []  # the Processes started
children = []  # every child process started (Popen), for the watchdog


def limit_descriptors(n):
    """In the child before exec: at most n open descriptors (the soft limit)."""
    import resource
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (n, hard))


def start_server(opt, *args, nofile=None, env=None):
    """Starts the scenario's server example with `args` and reads its port; with
    `nofile`, the server may have at most that many descriptors open; `env`: variables
    added to its environment."""
    server = Process("server", [opt.bin["server"], *args], opt.work_dir, launch=opt.launch,
                     nofile=nofile, env=env)
    line = server.next_line(timeout=15)
    m = re.match(r"listening on port (\d+) \[(\w+)", line)
    check(m, f"server: unexpected first line {line!r}")
    check(m.group(2) == opt.variant,
          f"server: runs on backend {m.group(2)!r}, expected {opt.variant!r}")
    print(f"server: {line}")
    return server, int(m.group(1))


def run(args, timeout=30, launch=NATIVE, env=None, nofile=None):
    """Runs a client to completion; a client still running after `timeout` is killed.
    `env`: variables added to its environment; with `nofile`, the client may have at most
    that many descriptors open. Returns a CompletedProcess."""
    timeout += launch.startup
    preexec = None if nofile is None else lambda: limit_descriptors(nofile)
    with subprocess.Popen(launch.command(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=dict(launch.env or os.environ, **env) if env else launch.env,
                          preexec_fn=preexec) as p:
        children.append(p)
        try:
            stdout, stderr = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            raise Failure(f"{os.path.basename(args[0])}: timed out after {timeout}s")
    return subprocess.CompletedProcess(p.args, p.returncode, launch.stdout(stdout), stderr)


def bad_ports(opt, *more_args):
    """A port that is not a whole number from 0 to 65535 is refused, with a message that
    names it, before anything listens: never read as some other port. (Where starting a
    program takes seconds, only the first: every server reads its port with the same code.)"""
    texts = ("70000", "65536", "-1", "1e3")
    for text in texts[:1] if opt.launch.slow_start else texts:
        r = run([opt.bin["server"], text, *more_args], timeout=10, launch=opt.launch)
        check(r.returncode != 0, f"server: port {text!r} accepted")
        check(f'port "{text}"' in r.stderr.decode(errors="replace"),
              f"server: port {text!r} refused without naming it: {r.stderr!r}")


def pattern(size, seed):
    """Printable, reproducible test data (usable as a command-line argument)."""
    rnd = random.Random(seed)
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    return "".join(rnd.choice(alphabet) for _ in range(size))


def cpu_seconds(pid):
    """User plus system CPU time of a process so far, from /proc/<pid>/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()  # after "pid (comm)": state is field 3
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # fields 14, 15


def memory_env(opt):
    """Environment for a server whose memory a check measures. AddressSanitizer keeps freed
    memory in a quarantine (256 MB by default) where it stays resident: in a sanitized
    build a small quarantine keeps the figure the server's own."""
    if not opt.sanitized:
        return {}
    return {"ASAN_OPTIONS": ":".join(filter(None, [os.environ.get("ASAN_OPTIONS"),
                                                   "quarantine_size_mb=1"]))}


def check_memory_growth(server, baseline, most, what):
    """The server's peak resident memory exceeds `baseline` (its resident memory read
    earlier) by at most `most` MiB."""
    peak = server.launch.resident_mib(server, peak=True)
    print(f"{what}: peak resident memory {peak:.1f} MiB, {peak - baseline:+.1f} MiB"
          f" (at most {most} MiB allowed)")
    check(peak - baseline <= most,
          f"server: resident memory grew by {peak - baseline:.0f} MiB with {what}")


def memory_baseline(server, what):
    """The server's resident memory in MiB now, or None (and why, printed) where its
    memory cannot be measured."""
    why_not = server.launch.no_memory(server)
    if why_not:
        print(f"{what}: memory check skipped: {why_not}")
        return None
    return server.launch.resident_mib(server, peak=False)


DESCRIPTOR_LIMIT = 40  # for the server; a few more connections than that exhaust it


def out_of_descriptors(opt, args, probe, churn=0):
    """The server runs with few descriptors; more clients connect than it can accept and
    stay connected for a while: accepting fails with EMFILE. The server must then neither
    spin (CPU time well below a busy loop) nor flood its log, must keep running, and must
    serve a new client (`probe(port)`) once the others are gone. With `churn` (seconds),
    it then runs out again and again for that long (see descriptor_churn)."""
    if opt.launch.no_descriptor_limit:
        print(f"out of descriptors: skipped {opt.launch.no_descriptor_limit}")
        return
    if opt.sanitized:
        print("out of descriptors: skipped in a sanitized build (the sanitizer runtime needs"
              " descriptors of its own: UBSan checks memory through a pipe)")
        return
    server, port = start_server(opt, *args, nofile=DESCRIPTOR_LIMIT)
    held = []
    try:
        for _ in range(DESCRIPTOR_LIMIT + 20):  # the rest wait in the listen queue
            held.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        time.sleep(0.5)  # the server accepts what it can and runs out
        cpu0, t0 = cpu_seconds(server.proc.pid), time.monotonic()
        time.sleep(2)
        cpu = cpu_seconds(server.proc.pid) - cpu0
        share = cpu / (time.monotonic() - t0)
        log = server.stderr_text()
        print(f"out of descriptors: {cpu:.2f}s CPU in 2s ({share:.0%}),"
              f" {len(log.splitlines())} line(s) logged:\n{log}")
        check(server.proc.poll() is None,
              f"server: exited when out of descriptors (exit code {server.proc.poll()})")
        check(share < 0.2, f"server: spins when out of descriptors ({share:.0%} CPU)")
        check(re.search(r"(?i)too many open files", log),
              "server: did not log running out of descriptors")
        check(len(log.splitlines()) <= 6 and len(log) < 1000,
              "server: floods its log when out of descriptors")
        if churn:
            descriptor_churn(server, port, held, churn)
    finally:
        for s in held:
            s.close()
    # The failed connections are accepted once descriptors are free again (at most a
    # second's pause later), and a new client is served.
    probe(port)
    check(server.proc.poll() is None, "server: exited after running out of descriptors")
    server.stop()


def descriptor_churn(server, port, held, seconds):
    """The server is out of descriptors with clients `held` (the oldest accepted, the rest
    in its listen queue): for `seconds`, the oldest closes and a new one connects, as fast
    as the server takes them, so that each close lets it accept once more and run out once
    more. Its recoveries ("accepting again") must not flood the log."""
    before = len(server.stderr_text().splitlines())
    cycles = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        held.pop(0).close()
        held.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        cycles += 1
        time.sleep(0.005)
    log = server.stderr_text().splitlines()[before:]
    recoveries = sum("accepting again" in line for line in log)
    print(f"descriptor churn: {cycles} close(s) in {seconds}s, {len(log)} line(s) logged,"
          f" {recoveries} of them \"accepting again\"")
    check(recoveries <= seconds + 2, f"server: logged {recoveries} recoveries in {seconds}s")
    check(len(log) <= 3 * (seconds + 2), f"server: logged {len(log)} lines in {seconds}s")


def tcp_connection(port):
    return socket.create_connection(("127.0.0.1", port), timeout=10)


def echo_probe(port, connect=tcp_connection, what="echo", when="after running out of descriptors"):
    """Checks that the server echoes a line on a new connection made by `connect`."""
    with connect(port) as s:
        s.sendall(b"still there?")
        got = b""
        while len(got) < 12:
            chunk = s.recv(64)
            check(chunk, f"{what} {when}: connection closed")
            got += chunk
        check(got == b"still there?", f"{what} {when}: {got!r}")


IDLE_TIMEOUT = 1  # seconds, for the servers' BOOST_ASIO_NOTIFY_EXAMPLE_*_TIMEOUT


def closed_by_server(s, what, least=IDLE_TIMEOUT - 0.2, most=IDLE_TIMEOUT + 4):
    """Waits, reading and discarding, until the server closes the connection `s`: not
    before `least` seconds from now, not after `most`."""
    start = time.monotonic()
    s.settimeout(most)
    try:
        while s.recv(4096):
            pass
    except socket.timeout:
        raise Failure(f"{what}: still open after {most}s")
    except OSError:
        pass  # reset, or the TLS layer's complaint about the missing close_notify
    waited = time.monotonic() - start
    check(waited >= least, f"{what}: closed after {waited:.1f}s, before the time-out")
    print(f"{what}: closed by the server after {waited:.1f}s")


def idle_connections(opt, args, active, silent, env_var="BOOST_ASIO_NOTIFY_EXAMPLE_IDLE_TIMEOUT"):
    """The server runs with a time-out of IDLE_TIMEOUT seconds: a connection that keeps
    talking (`active(port)`, for longer than that) stays open, and one that stays silent
    (`silent(port)` connects and returns the socket) is closed by the server in time."""
    server, port = start_server(opt, *args, env={env_var: str(IDLE_TIMEOUT)})
    active(port)
    closed_by_server(silent(port), f"silent connection ({env_var}={IDLE_TIMEOUT})")
    check(not server.stderr_text(), f"server: logged {server.stderr_text()!r}")
    server.stop()


def echo_active(port, connect=None):
    """Talks for 2.5 idle time-outs, a message every 0.3 of one: every echo comes back."""
    with (connect or silent_connection)(port) as s:
        for i in range(int(2.5 / 0.3) + 1):
            s.sendall(b"tick")
            got = b""
            while len(got) < 4:
                chunk = s.recv(64)
                check(chunk, f"active connection closed by the server after {i * 0.3 * IDLE_TIMEOUT:.1f}s")
                got += chunk
            time.sleep(0.3 * IDLE_TIMEOUT)


def silent_connection(port):
    return socket.create_connection(("127.0.0.1", port), timeout=10)


def served_again(port, probe, what, timeout=3):
    """`probe(port)` succeeds within `timeout` seconds: the server may first have to see
    the close of the connections that held its places."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return probe(port)
        except (Failure, OSError) as e:
            if time.monotonic() > deadline:
                raise Failure(f"{what}: no client served {timeout}s later: {e}")
            time.sleep(0.05)


FLOOD_LIMIT = 50  # the echo servers' BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS in connection_flood
FLOOD_CLIENT_LIMIT = 40  # and their BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS_PER_CLIENT
FLOOD_CONNECTIONS = 200
FLOODER = ("127.0.0.2", 0)  # the flood's source address; the probes come from 127.0.0.1


def connection_flood(opt, args, probe, most_mib):
    """The server runs with a limit of FLOOD_LIMIT connections, FLOOD_CLIENT_LIMIT from
    one client; one client (FLOODER) opens FLOOD_CONNECTIONS and says nothing. Those past
    its limit are closed at once and the others stay open; meanwhile another client
    (`probe(port)`) is served; the server's memory grows by at most `most_mib` MiB, it logs
    the refusals in a line or two, and once the flood is gone the probe is served again."""
    server, port = start_server(opt, *args, env=dict(
        memory_env(opt), BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS=str(FLOOD_LIMIT),
        BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS_PER_CLIENT=str(FLOOD_CLIENT_LIMIT)))
    baseline = memory_baseline(server, "connection flood")
    held = []
    refused = FLOOD_CONNECTIONS - FLOOD_CLIENT_LIMIT
    try:
        for _ in range(FLOOD_CONNECTIONS):
            held.append(socket.create_connection(("127.0.0.1", port), timeout=5,
                                                 source_address=FLOODER))
        # A silent server's connection turns readable only when closed (eof or reset).
        closed = set()
        deadline = time.monotonic() + 5
        while len(closed) < refused and time.monotonic() < deadline:
            closed.update(select.select([s for s in held if s not in closed], [], [], 0.1)[0])
        time.sleep(0.2)  # and no more after those
        closed.update(select.select([s for s in held if s not in closed], [], [], 0)[0])
        print(f"connection flood: {len(closed)} of {FLOOD_CONNECTIONS} silent connections"
              f" closed by the server at once (BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS={FLOOD_LIMIT},"
              f" _PER_CLIENT={FLOOD_CLIENT_LIMIT})")
        check(len(closed) == refused,
              f"server: closed {len(closed)} of {FLOOD_CONNECTIONS} silent connections of one"
              f" client at once, not the {refused} past its limit of {FLOOD_CLIENT_LIMIT}")
        probe(port)  # another client, while the flood holds its places
        if baseline is not None:
            check_memory_growth(server, baseline, most_mib,
                                f"{FLOOD_CONNECTIONS} silent connections")
    finally:
        for s in held:
            s.close()
    served_again(port, probe, "connection flood")
    log = server.stderr_text()
    print(f"connection flood: log:\n{log}")
    check(0 < len(log.splitlines()) <= 3, "server: refusals not logged in a line or two")
    server.stop()


def from_address(source, timeout=1):
    """A connect(port) that connects to 127.0.0.1 from the address `source`: Linux lets a
    socket bind any address of 127/8."""
    return lambda port: socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                                 source_address=(source, 0))


FAIR_LIMIT = 64  # BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS in fair_share
FAIR_PER_CLIENT = 16  # its _PER_CLIENT; _PER_NETWORK is half the total by default, 32
ATTACKS = (  # what, the attacking addresses, the newcomer's address
    ("4 addresses of one /24", [f"127.0.0.{i}" for i in range(2, 6)], "127.0.0.1"),
    ("32 addresses of 8 /24s", [f"127.0.{n}.{i}" for n in range(8) for i in range(2, 6)],
     "127.0.100.1"),
)


def fair_share(opt, args, probe, one_byte):
    """The rule that a few addresses cannot beat (connection_limit.hpp): with FAIR_LIMIT
    places, FAIR_PER_CLIENT an address, each attacking address of ATTACKS opens as many
    connections as it may, half of them silent, half sending `one_byte` (the start of a
    request that never ends); then a client from another address (`probe(port, source)`)
    must be served within 1 s once the server has taken the attack (see settle): the
    network's or the server's connection idle longest gives way to it. The server logs it
    in a few lines."""
    for what, attackers, newcomer in ATTACKS:
        server, port = start_server(opt, *args, env={
            "BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS": str(FAIR_LIMIT),
            "BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS_PER_CLIENT": str(FAIR_PER_CLIENT)})
        held = []
        try:
            for address in attackers:
                for i in range(FAIR_PER_CLIENT):
                    held.append(from_address(address, timeout=5)(port))
                    try:
                        if i % 2:
                            held[-1].sendall(one_byte)
                    except OSError:
                        pass  # closed already: another attacker's connection took its place
            settled = settle(held)
            start = time.monotonic()
            tries = 0
            while True:
                tries += 1
                try:
                    probe(port, newcomer)
                    break
                except (Failure, OSError) as e:
                    check(time.monotonic() - start < 1,
                          f"fair share, {what}: a client from {newcomer} not served within 1s"
                          f" ({tries} tries): {e}")
                    time.sleep(0.05)
            print(f"fair share, {what}: {len(held)} connections of the attackers ({settled}"
                  f" closed by the server), a client from {newcomer} served after"
                  f" {time.monotonic() - start:.2f}s ({tries} tries)")
        finally:
            for s in held:
                s.close()
        log = server.stderr_text()
        check(len(log.splitlines()) <= 4, f"server: floods its log with the attack: {log!r}")
        server.stop()


def settle(sockets, quiet=0.3, most=10):
    """Waits until the server has dealt with the connections `sockets`: none of them closed
    by it for `quiet` seconds (at most `most`; under Wine, taking 512 connections takes a
    while). Returns how many it closed; what they received is dropped."""
    closed = set()
    start = last = time.monotonic()
    for s in sockets:
        s.setblocking(False)
    while time.monotonic() - last < quiet and time.monotonic() - start < most:
        for s in sockets:
            if s in closed:
                continue
            try:
                if s.recv(4096):
                    continue
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                pass  # reset: closed
            closed.add(s)
            last = time.monotonic()
        time.sleep(0.05)
    return len(closed)


def dual_stack_keys(opt):
    """On a "::" listener an IPv4 client's address is IPv4-mapped (::ffff:127.0.0.2): it
    counts as its IPv4 address, in its /24, not in the /64 that every mapped address shares
    (which would make every IPv4 client one network). With 2 connections an address and 2
    a network: two from 127.0.0.2 are served, a third is refused, one from 127.0.1.2
    (another /24) and one from ::1 (a client of its own) are served without the first two
    giving way."""
    if isinstance(opt.launch, WindowsPrograms):
        print("dual-stack keys: skipped (a Windows listener on :: takes IPv6 only)")
        return
    if not socket.has_ipv6:
        print("dual-stack keys: skipped (no IPv6)")
        return
    server, port = start_server(opt, "0", "::", env={
        "BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS": "64",
        "BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS_PER_CLIENT": "2",
        "BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS_PER_NETWORK": "2"})
    held = [from_address("127.0.0.2", timeout=5)(port) for _ in range(2)]
    try:
        for s in held:
            echo_probe(port, lambda _: contextlib.nullcontext(s), when="from 127.0.0.2")
        with from_address("127.0.0.2", timeout=5)(port) as third:
            check(read_until_closed(third, "a third connection from 127.0.0.2", 3) == b"",
                  "a third connection from 127.0.0.2: served past the limit of 2")
        echo_probe(port, from_address("127.0.1.2", timeout=5), when="from 127.0.1.2")
        echo_probe(port, lambda p: socket.create_connection(("::1", p), timeout=5), when="from ::1")
        for s in held:
            echo_probe(port, lambda _: contextlib.nullcontext(s),
                       when="from 127.0.0.2, after 127.0.1.2 and ::1 (gave way)")
    finally:
        for s in held:
            s.close()
    print("dual-stack keys: 127.0.0.2, 127.0.1.2 and ::1 counted apart on a :: listener")
    server.stop()


def client_churn(opt, args, client, probe, what, seconds=2, rate=1000):
    """Clients made by `client(port)`, each one connection that ends before it is served
    (closed, reset, or talking nonsense), come and go for `seconds`, `rate` a second: the
    server logs at most two lines a second, and then serves `probe(port)`. Not faster:
    each client leaves a port in TIME_WAIT where the system does not reuse those (Windows:
    16384 ports, for 4 minutes), and other tests may run meanwhile."""
    server, port = start_server(opt, *args)
    count = 0
    start = time.monotonic()
    while time.monotonic() < start + seconds:
        time.sleep(max(0, start + count / rate - time.monotonic()))
        try:
            client(port)
        except OSError:
            pass  # the server's reset of an earlier one: it only has to go on
        count += 1
    time.sleep(0.3)  # what the server has not handled yet
    served_again(port, probe, what)
    log = server.stderr_text().splitlines()
    # The server may still be working through the clients' backlog after they stopped (a
    # busy machine, Wine): the lines it may have logged are counted over the whole time.
    took = time.monotonic() - start
    print(f"{what}: {count} connection(s) in {seconds}s, {len(log)} line(s) logged in"
          f" {took:.1f}s" + (f", the first {log[0]!r}" if log else ""))
    check(len(log) <= 2 * math.ceil(took) + 1,
          f"server: {len(log)} lines logged for {count} connection(s) ({what}) in {took:.1f}s")
    server.stop()


def reset_before_echo(port):
    """Sends more than the server reads at once and closes without reading the echo: the
    echo finds the connection closed, then reset."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"x" * 65536)


def not_a_client_hello(port):
    """Connects to a TLS server and closes, having sent nothing or a line of plain text."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        if random.random() < 0.5:
            s.sendall(b"GET / HTTP/1.0\r\n\r\n")


# ---- scenarios ----------------------------------------------------------------------------

def tcp_echo(opt):
    """The echo client example sends short and long messages and checks each echo; then
    four raw Python connections push 1 MiB each through the server at the same time. Then
    hostile clients: too many, silent, flooding, leaving before their echo."""
    bad_ports(opt)
    server, port = start_server(opt, "0")
    long_message = pattern(opt.launch.argument_size(100_000), 1)
    messages = ["hello", "echo through " + opt.variant, long_message]
    r = run([opt.bin["client"], "127.0.0.1", str(port)] + messages, launch=opt.launch)
    check(r.returncode == 0, f"client failed: {r.stderr.decode()}")
    check(r.stdout.decode().split("\n")[:-1] == messages, "client printed other echoes")
    # The client resolves "localhost" too (IPv6 first, falling back to IPv4 if needed).
    r = run([opt.bin["client"], "localhost", str(port), "via localhost"], launch=opt.launch)
    check(r.returncode == 0 and r.stdout == b"via localhost\n", f"localhost: {r.stderr.decode()}")

    errors = []

    def bulk(seed):
        data = random.Random(seed).randbytes(1 << 20)
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
                # Send from a second thread: the echo must be read while we still send.
                sender = threading.Thread(target=lambda: (s.sendall(data), s.shutdown(socket.SHUT_WR)))
                sender.start()
                received = bytearray()
                while True:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    received += chunk
                sender.join()
                if bytes(received) != data:
                    errors.append(f"connection {seed}: {len(received)} bytes back, differing")
        except OSError as e:
            errors.append(f"connection {seed}: {e}")

    threads = [threading.Thread(target=bulk, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    check(not any(t.is_alive() for t in threads), "bulk echo timed out")
    check(not errors, "; ".join(errors))
    server.stop()

    out_of_descriptors(opt, ["0"], echo_probe, churn=2)
    idle_connections(opt, ["0"], echo_active, silent_connection)
    connection_flood(opt, ["0"], lambda port: echo_probe(port, when="during or after the flood"),
                     most_mib=5)
    fair_share(opt, ["0"], lambda port, source: echo_probe(port, from_address(source),
                                                           when="while others hold every place"),
               b"x")
    dual_stack_keys(opt)
    client_churn(opt, ["0"], reset_before_echo,
                 lambda port: echo_probe(port, when="after the churn"),
                 "clients gone before their echo")


def udp_echo(opt):
    """The UDP client example sends datagrams and checks each echo; a raw Python socket
    sends a 60000-byte datagram and an empty one."""
    bad_ports(opt)
    server, port = start_server(opt, "0")
    messages = ["ping", "datagram through " + opt.variant, pattern(8000, 2)]
    r = run([opt.bin["client"], "127.0.0.1", str(port)] + messages, launch=opt.launch)
    check(r.returncode == 0, f"client failed: {r.stderr.decode()}")
    check(r.stdout.decode().split("\n")[:-1] == messages, "client printed other echoes")

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.settimeout(5)
        big = random.Random(3).randbytes(60000)
        s.sendto(big, ("127.0.0.1", port))
        reply, sender = s.recvfrom(65536)
        check(reply == big and sender[1] == port, "60000-byte datagram not echoed")
        # RFC 862: every datagram comes back, an empty one too.
        s.sendto(b"", ("127.0.0.1", port))
        try:
            reply, sender = s.recvfrom(65536)
        except socket.timeout:
            raise Failure("empty datagram not echoed within 5s")
        check(reply == b"" and sender[1] == port, f"empty datagram: {reply[:20]!r} back")
    server.stop()


def chat(opt):
    """Five chat clients join; each sends two lines; each must receive exactly the
    other clients' eight lines, and none of its own."""
    bad_ports(opt)
    # Before the other clients: it measures the peak memory of every child run to completion
    # so far (bad_ports' servers, which exit at once, are small).
    endless_line(opt)
    stdin_bound(opt)
    server, port = start_server(opt, "0")
    n = 5
    clients = [Process(f"client{i}", [opt.bin["client"], "127.0.0.1", str(port)],
                       opt.work_dir, stdin=True, launch=opt.launch) for i in range(n)]
    for c in clients:  # once welcomed, a client is in the room and will get every line
        line = c.next_line()
        check(line.startswith("* welcome"), f"{c.name}: expected a welcome, got {line!r}")
    for i, c in enumerate(clients):
        c.send(f"hello from client{i}\nbye from client{i}\n")
    for i, c in enumerate(clients):
        expected = {f"{w} from client{k}" for k in range(n) if k != i for w in ("hello", "bye")}
        got = {c.next_line() for _ in expected}
        check(got == expected, f"{c.name}: got {sorted(got)}")
    # End of stdin: each client flushes, shuts down its side, and exits when the server
    # closes the connection.
    for c in clients:
        c.close_stdin()
    for c in clients:
        check(c.wait() == 0, f"{c.name}: exit code {c.proc.returncode}")
        check(c.lines.get(timeout=5) is None, f"{c.name}: got a line nobody sent")
    server.stop()

    def welcome_probe(port):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            line = s.makefile("rb").readline()
            check(line.startswith(b"* welcome"), f"no welcome after running out of descriptors: {line!r}")
    out_of_descriptors(opt, ["0"], welcome_probe)

    def chat_active(port):
        """Sends a line every 0.3 idle time-outs, for 2.5 of them: still in the room."""
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            check(s.makefile("rb").readline().startswith(b"* welcome"), "no welcome")
            for i in range(int(2.5 / 0.3) + 1):
                s.sendall(b"tick %d\n" % i)
                time.sleep(0.3 * IDLE_TIMEOUT)
            with socket.create_connection(("127.0.0.1", port), timeout=10) as other:
                lines = other.makefile("rb")
                welcome = lines.readline()
                check(welcome.startswith(b"* welcome, 2 "), f"talking client dropped: {welcome!r}")
                s.sendall(b"still here\n")
                check(lines.readline() == b"still here\n", "talking client dropped")

    def chat_silent(port):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        check(s.makefile("rb").readline().startswith(b"* welcome"), "no welcome")
        return s
    idle_connections(opt, ["0"], chat_active, chat_silent)
    slow_participants(opt)
    newline_flood(opt)
    participant_limit(opt)

    def chat_probe(port, source):
        with from_address(source)(port) as s:
            line = s.makefile("rb").readline()
            check(line.startswith(b"* welcome"), f"not welcomed: {line!r}")
    fair_share(opt, ["0"], chat_probe, b"x")


WRITE_QUEUE_LIMIT = 256 * 1024  # bytes, for chat_server's BOOST_ASIO_NOTIFY_EXAMPLE_WRITE_QUEUE_LIMIT


def join_chat(port, receive_buffer=None):
    """A new participant of the chat server on `port`, once welcomed: (socket, its lines)."""
    s = socket.socket()
    if receive_buffer:  # small: the server's queue for it fills soon
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    s.settimeout(10)
    s.connect(("127.0.0.1", port))
    lines = s.makefile("rb")
    check(lines.readline().startswith(b"* welcome"), "no welcome")
    return s, lines


def slow_participants(opt):
    """Five participants never read, one reads every line, one sends 250 lines of 60 KB,
    each as soon as the reader has the previous one (15 MB in all). The server queues at
    most WRITE_QUEUE_LIMIT bytes for a participant and disconnects one that falls further
    behind: the non-readers are disconnected, the reader gets every line, the server's
    memory grows by a few MiB (not the 5 x 15 MB of lines queued for the non-readers), and
    its log says so in a few lines."""
    server, port = start_server(opt, "0", env={
        "BOOST_ASIO_NOTIFY_EXAMPLE_WRITE_QUEUE_LIMIT": str(WRITE_QUEUE_LIMIT), **memory_env(opt)})
    silent = [join_chat(port, receive_buffer=4096)[0] for _ in range(5)]
    reader, reader_lines = join_chat(port)
    sender, _ = join_chat(port)
    baseline = memory_baseline(server, "slow participants")
    start = time.monotonic()
    text = pattern(60_000 - 7, 8).encode()
    for i in range(250):
        line = b"%05d " % i + text + b"\n"
        sender.sendall(line)
        check(reader_lines.readline() == line, f"reading participant: line {i} missing")
    print(f"slow participants: 250 lines of 60 KB sent and read in"
          f" {time.monotonic() - start:.1f}s")
    if baseline is not None:
        check_memory_growth(server, baseline, 5 * WRITE_QUEUE_LIMIT / 2**20 + 16,
                            "5 participants not reading")
    for i, s in enumerate(silent):
        closed_by_server(s, f"participant {i} not reading", least=0, most=5)
        s.close()
    reader.close()
    sender.close()
    log = server.stderr_text()
    print(f"server log:\n{log}")
    check(len(log.splitlines()) <= 3, "server: floods its log with slow participants")
    server.stop()


FLOODED = 10  # participants that never read while a million empty lines go by


def newline_flood(opt):
    """FLOODED participants never read while one sends a million empty lines (1 MB of
    newlines) as fast as the server takes them. A queued line costs the server far more
    than its byte (the string that holds it, ~32 bytes): the limit counts that cost, so the
    non-readers are disconnected, and the server's memory grows by at most about
    WRITE_QUEUE_LIMIT for each (not the ~85 MB of a limit that counts bytes only)."""
    server, port = start_server(opt, "0", env={
        "BOOST_ASIO_NOTIFY_EXAMPLE_WRITE_QUEUE_LIMIT": str(WRITE_QUEUE_LIMIT), **memory_env(opt)})
    silent = [join_chat(port, receive_buffer=4096)[0] for _ in range(FLOODED)]
    sender, _ = join_chat(port)
    baseline = memory_baseline(server, "newline flood")
    start = time.monotonic()
    sender.sendall(b"\n" * 1_000_000)
    still_open = []  # reported after the memory, the first sign of a queue too long
    for i, s in enumerate(silent):
        try:
            closed_by_server(s, f"flooded participant {i}", least=0,
                             most=max(0.1, start + 10 - time.monotonic()))
        except Failure as e:
            still_open.append(str(e))
        s.close()
    print(f"newline flood: a million lines sent, {FLOODED - len(still_open)} of {FLOODED}"
          f" participants disconnected in {time.monotonic() - start:.1f}s")
    if baseline is not None:
        check_memory_growth(server, baseline, FLOODED * WRITE_QUEUE_LIMIT / 2**20 + 16,
                            f"{FLOODED} participants not reading a million empty lines")
    check(not still_open, "; ".join(still_open))
    sender.close()
    log = server.stderr_text()
    print(f"server log:\n{log}")
    check(len(log.splitlines()) <= 3, "server: floods its log with slow participants")
    server.stop()


MAX_PARTICIPANTS = 3  # for chat_server's BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS


def participant_limit(opt):
    """With BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS at MAX_PARTICIPANTS, that many
    participants join and the first talks. Then one more joins: the participant idle
    longest (the second: listening is idle) gives way, closed by the server; the newcomer
    is welcomed, and the others still talk. The log says so in a line or two."""
    server, port = start_server(opt, "0", env={
        "BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS": str(MAX_PARTICIPANTS)})
    held = [join_chat(port) for _ in range(MAX_PARTICIPANTS)]
    held[0][0].sendall(b"talking\n")
    for i, (_, lines) in enumerate(held[1:], 1):
        check(lines.readline() == b"talking\n", f"participant {i}: a line missing")
    newcomer = join_chat(port)  # welcomed, or it fails
    closed_by_server(held[1][0], "the participant idle longest", least=0, most=3)
    held[2][0].sendall(b"still here\n")
    for what, (_, lines) in (("participant 0", held[0]), ("the newcomer", newcomer)):
        check(lines.readline() == b"still here\n", f"{what}: dropped after a newcomer")
    for s, _ in held + [newcomer]:
        s.close()
    log = server.stderr_text()
    print(f"participant limit: {MAX_PARTICIPANTS} joined, the one idle longest gave way; log:\n{log}")
    check(0 < len(log.splitlines()) <= 3, "server: giving way not logged in a line or two")
    server.stop()


ENDLESS_LINE = 128 * 2**20  # bytes without a newline that a fake chat server sends


def endless_line(opt):
    """A fake chat server (Python) sends a line that never ends: ENDLESS_LINE bytes without
    a newline, then nothing, the connection held open. The client, its stdin left open as a
    user's is, must exit within seconds with an error that says the line is too long, its
    peak memory below half the line's (it holds no more than its line limit of it). The
    peak is of any child process so far: that of a Python forked to start one counts."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(10)
    sent = 0

    def feed():
        nonlocal sent
        try:
            conn, _ = listener.accept()
            with conn:
                conn.settimeout(10)
                piece = b"x" * 65536
                while sent < ENDLESS_LINE:
                    conn.sendall(piece)
                    sent += len(piece)
                conn.recv(1)  # the connection held open until the client closes it
        except OSError:
            pass  # the client has gone

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    port = listener.getsockname()[1]
    client = Process("endless_line_client", [opt.bin["client"], "127.0.0.1", str(port)],
                     opt.work_dir, stdin=True, launch=opt.launch)
    start = time.monotonic()
    try:
        client.wait(5 + opt.launch.startup)
    except Failure as e:
        if not opt.launch.no_memory(client):
            e.args = (f"{e.args[0]} with {opt.launch.resident_mib(client, peak=True):.0f} MiB"
                      f" resident, {sent / 2**20:.0f} MiB of the line sent",)
        raise
    finally:
        listener.close()
    elapsed = time.monotonic() - start
    feeder.join(10)
    error = client.stderr_text()
    peak = opt.launch.clients_peak_mib()  # of any client so far
    print(f"endless line: client exit code {client.proc.returncode} after {elapsed:.1f}s,"
          f" {sent / 2**20:.1f} MiB sent, {error.splitlines()[-1:]} (the last line of its"
          " stderr, below Wine's), peak resident memory of any client so far " +
          ("unknown (not kept on Windows)" if peak is None else f"{peak:.0f} MiB"))
    check(client.proc.returncode != 0, "client: exit code 0 after an endless line")
    check(re.search(r"longer than \d+ bytes", error), f"client: endless line not named: {error!r}")
    check(peak is None or peak < ENDLESS_LINE / 2**21, f"client: {peak:.0f} MiB resident")


STDIN_FLOOD = 32 << 20  # bytes of lines fed to chat_client while its server reads nothing
CLIENT_QUEUE_LIMIT = 256 * 1024  # chat_client's BOOST_ASIO_NOTIFY_EXAMPLE_WRITE_QUEUE_LIMIT


def stdin_line(i):
    return b"%07d " % i + b"x" * 1015 + b"\n"  # 1 KiB, numbered


def stdin_bound(opt):
    """A fake chat server (Python) takes chat_client's connection and reads nothing for 2 s
    while STDIN_FLOOD bytes of numbered 1 KiB lines are fed to the client's stdin. With
    its queue limited to CLIENT_QUEUE_LIMIT, the client stops reading stdin once the queue
    and the socket's buffers are full: under half the lines are taken, and its resident
    memory grows by less than 16 MiB. Then the server reads: every line arrives, in order,
    and the client exits 0 after the end of stdin."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)  # inherited: small
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.settimeout(10 + opt.launch.startup)
    client = Process("stdin_bound_client", [opt.bin["client"], "127.0.0.1", str(listener.getsockname()[1])],
                     opt.work_dir, stdin=True, launch=opt.launch,
                     env={"BOOST_ASIO_NOTIFY_EXAMPLE_WRITE_QUEUE_LIMIT": str(CLIENT_QUEUE_LIMIT)})
    conn, _ = listener.accept()
    listener.close()
    baseline = memory_baseline(client, "stdin bound")
    taken = 0

    def feed():
        nonlocal taken
        try:
            for first in range(0, STDIN_FLOOD // 1024, 64):
                chunk = b"".join(stdin_line(i) for i in range(first, first + 64))
                client.proc.stdin.write(chunk)
                client.proc.stdin.flush()
                taken += len(chunk)
            client.close_stdin()
        except OSError:
            pass  # the client has gone: the checks below say so

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    time.sleep(2)
    taken_stalled = taken
    grown = None if baseline is None else opt.launch.resident_mib(client, peak=True) - baseline
    print(f"stdin bound: {taken_stalled / 2**20:.1f} of {STDIN_FLOOD / 2**20:.0f} MiB of stdin"
          f" taken while the server read nothing" +
          ("" if grown is None else f", resident memory {grown:+.1f} MiB"))
    check(taken_stalled < STDIN_FLOOD / 2, f"chat_client: took {taken_stalled} bytes of stdin"
                                           " while its server read nothing")
    check(grown is None or grown < 16, f"chat_client: resident memory grew by {grown:.0f} MiB")
    with conn:
        conn.settimeout(30)
        got = 0
        pending = b""
        while chunk := conn.recv(1 << 20):
            pending += chunk
            whole = len(pending) // 1024 * 1024
            for k in range(0, whole, 1024):
                check(pending[k:k + 1024] == stdin_line(got), f"stdin bound: line {got} differs")
                got += 1
            pending = pending[whole:]
        check(got * 1024 == STDIN_FLOOD and not pending,
              f"stdin bound: {got} lines of {STDIN_FLOOD // 1024} arrived")
    feeder.join(10)
    check(client.wait(10) == 0, f"chat_client: exit code {client.proc.returncode}")
    print(f"stdin bound: every line arrived once the server read")


def make_doc_root(path):
    files = {
        "index.html": b"<html><body>asio_notify example</body></html>\n",
        "hello.txt": b"Hello, world!\n",
        "empty.txt": b"",
        "sub/dir/nested.txt": b"nested file\n",
        "small.bin": random.Random(4).randbytes(1000),
        "medium.bin": random.Random(5).randbytes(300_000),
        "large.bin": random.Random(6).randbytes(3 << 20),
    }
    shutil.rmtree(path, ignore_errors=True)
    for name, data in files.items():
        os.makedirs(os.path.dirname(os.path.join(path, name)), exist_ok=True)
        with open(os.path.join(path, name), "wb") as f:
            f.write(data)
    with open(os.path.join(os.path.dirname(path), "secret.txt"), "w") as f:
        f.write("outside the doc root\n")
    return files


def curl(*args):
    r = run(["curl", "-sS", "--max-time", "10"] + list(args))
    check(r.returncode == 0, f"curl {' '.join(args)}: {r.stderr.decode()}")
    return r.stdout


def http(opt):
    """curl checks contents, status codes, HEAD, keep-alive and path traversal; then wrk
    loads the server for a second and must report requests and no errors."""
    root = os.path.join(opt.work_dir, "www")
    files = make_doc_root(root)
    bad_ports(opt, root)
    # Its checks open a hundred connections or more at once, all from 127.0.0.1.
    server, port = start_server(opt, "0", root, "2",
                                env={"BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS_PER_CLIENT": "512"})
    base = f"http://127.0.0.1:{port}"

    def status(path, *extra):
        return curl("-o", os.devnull, "-w", "%{http_code}", *extra, base + path).decode()

    for name, data in files.items():
        check(curl(f"{base}/{name}") == data, f"GET /{name}: wrong content")
    check(curl(base + "/") == files["index.html"], "GET /: not index.html")
    check(status("/hello.txt") == "200", "GET /hello.txt: not 200")
    check(status("/no/such/file") == "404", "missing file: not 404")
    check(status("/sub") == "404", "directory: not 404")
    check(status("/../secret.txt", "--path-as-is") == "400", "/../secret.txt: not 400")
    check(status("/sub/../../secret.txt", "--path-as-is") == "400", "/sub/../..: not 400")
    check(status("/hello.txt", "-X", "DELETE") == "405", "DELETE: not 405")

    head = curl("-I", base + "/large.bin").decode()
    check(head.startswith("HTTP/1.1 200"), f"HEAD: {head!r}")
    check(re.search(r"(?i)^content-length: %d\r?$" % len(files["large.bin"]), head, re.M),
          "HEAD: wrong Content-Length")
    check(re.search(r"(?i)^server: .* on %s" % opt.variant, head, re.M), "HEAD: wrong Server")

    # Keep-alive: two URLs in one curl run share the connection (num_connects 1, then 0).
    reuse = curl("-o", os.devnull, "-o", os.devnull, "-w", "%{num_connects} ",
                 base + "/hello.txt", base + "/small.bin").decode()
    check(reuse.split() == ["1", "0"], f"connection not re-used: num_connects {reuse!r}")
    # HTTP/1.0 without keep-alive: the server closes after the response.
    check(curl("--http1.0", base + "/hello.txt") == files["hello.txt"], "HTTP/1.0 GET")

    r = run(["wrk", "-t1", "-c8", "-d1s", "--timeout", "2s", base + "/hello.txt"], timeout=20)
    out = r.stdout.decode()
    print(out)
    m = re.search(r"(\d+) requests in", out)
    check(r.returncode == 0 and m and int(m.group(1)) > 0, "wrk: no requests")
    check("Socket errors" not in out and "Non-2xx" not in out, "wrk reported errors")
    check(curl(f"{base}/hello.txt") == files["hello.txt"], "GET after wrk")
    outside_the_doc_root(opt, root, status)
    byte_ranges(port, files)
    bad_requests(server, port, files)
    head_errors(port, files)
    request_targets(port, root, files)
    expect_continue(port, files)
    rfc_details(port, files)
    many_fields(opt, server, port)
    big_request_bodies(opt, server, port)
    bounded_linger(port)
    server.stop()

    connection_limit(opt, root, files)
    client_limits(opt, root, files)

    def http_probe(port, source):
        with from_address(source)(port) as s:
            s.sendall(GET_CLOSE + b"\r\n")
            response = read_until_closed(s, f"GET from {source}", 1)
        check(response.startswith(b"HTTP/1.1 200 "), f"GET from {source}: {response[:40]!r}")
    fair_share(opt, ["0", root], http_probe, b"G")
    slow_header(opt, root)
    slow_download(opt, root, files)
    slow_requests(opt, root)
    out_of_descriptors(opt, ["0", root, "1"],
                       lambda port: check(curl(f"http://127.0.0.1:{port}/hello.txt") == files["hello.txt"],
                                          "GET after running out of descriptors"))

    def http_active(port):
        """Asks for a file every 0.3 idle time-outs on one connection, for 2.5 of them."""
        c = HTTPConnection("127.0.0.1", port, timeout=10)
        for i in range(int(2.5 / 0.3) + 1):
            c.request("GET", "/hello.txt")
            r = c.getresponse()
            check(r.status == 200 and r.read() == files["hello.txt"], f"request {i}: {r.status}")
            time.sleep(0.3 * IDLE_TIMEOUT)
        c.close()
    idle_connections(opt, ["0", root], http_active, silent_connection)


def get(port, path, headers={}, method="GET"):
    """One request on a new connection (Python's http.client): the response, body read."""
    c = HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        c.request(method, path, headers=headers)
        r = c.getresponse()
        r.body = r.read()
        return r
    finally:
        c.close()


def check_nosniff(headers, what):
    """Every response says X-Content-Type-Options: nosniff: a browser must not take a text
    file (or the path echoed in a 404) for HTML and run it."""
    check(re.search(rb"(?im)^x-content-type-options: *nosniff\r?$", headers),
          f"{what}: no X-Content-Type-Options: nosniff")


def byte_ranges(port, files):
    """Range requests: one byte range is answered 206 with Content-Range and those bytes
    (first-last, first-, -suffix; a last beyond the end is the end); a range that starts
    beyond the end is 416 with Content-Range: bytes */size; several ranges, a header that
    is not a valid range, or one with If-Range (the server has no validators to compare) are
    ignored (200, the whole file); HEAD gives the 206's headers."""
    data = files["medium.bin"]
    n = len(data)

    def check_range(path, spec, status, content_range, body=None):
        r = get(port, path, {"Range": f"bytes={spec}"})
        what = f"{path} Range: bytes={spec}"
        check(r.status == status, f"{what}: status {r.status}, not {status}")
        check(r.getheader("Content-Range") == content_range,
              f"{what}: Content-Range {r.getheader('Content-Range')!r}, not {content_range!r}")
        check(body is None or r.body == body, f"{what}: {len(r.body)} bytes, not the range's")
        check_nosniff(bytes(r.headers), what)

    for spec, first, last in (("0-99", 0, 99), ("299990-", n - 10, n - 1), ("-500", n - 500, n - 1),
                              ("100-99999999", 100, n - 1), ("-999999", 0, n - 1), ("7-7", 7, 7)):
        check_range("/medium.bin", spec, 206, f"bytes {first}-{last}/{n}", data[first:last + 1])
    for path, spec in (("/medium.bin", "300000-"), ("/medium.bin", "400000-400100"),
                       ("/medium.bin", "-0"), ("/empty.txt", "0-")):
        check_range(path, spec, 416, f"bytes */{len(files[path[1:]])}")
    for header in ("bytes=0-1,5-6", "bytes=abc", "bytes=5-2", "lines=1-2"):
        r = get(port, "/medium.bin", {"Range": header})
        check(r.status == 200 and r.body == data, f"Range: {header}: {r.status}, not the whole file")
        check(r.getheader("Accept-Ranges") == "bytes", "no Accept-Ranges: bytes")
    r = get(port, "/medium.bin", {"Range": "bytes=0-99", "If-Range": '"an-etag"'})
    check(r.status == 200 and r.body == data, f"Range with If-Range: {r.status}, not the whole file")
    r = get(port, "/medium.bin", {"Range": "bytes=10-19"}, method="HEAD")
    check(r.status == 206 and r.getheader("Content-Length") == "10" and not r.body
          and r.getheader("Content-Range") == f"bytes 10-19/{n}", f"HEAD with Range: {r.status}")
    r = get(port, "/hello.txt")
    check_nosniff(bytes(r.headers), "200 response")
    r = get(port, "/<script>alert(1)</script>.html")
    check(r.status == 404, f"missing file: {r.status}")
    check_nosniff(bytes(r.headers), "404 response")
    print("byte ranges: 206, 416 and ignored ranges as expected; nosniff on every response")


def read_until_closed(s, what, timeout):
    """Reads from `s` until the server closes the connection or resets it: what it sent
    before. A connection still open after `timeout` seconds is a failure."""
    s.settimeout(timeout)
    data = b""
    try:
        while chunk := s.recv(65536):
            data += chunk
    except socket.timeout:
        raise Failure(f"{what}: connection still open after {timeout}s")
    except OSError:
        pass  # reset: whatever came before it counts
    return data


def raw_request(port, request, timeout=5):
    """Sends the bytes `request` on a new connection and reads until the server closes it:
    returns the status of the response (None if there was none) and the response."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        try:
            s.sendall(request)
        except OSError:
            pass  # closed before it took everything: what it answered is still to be read
        response = read_until_closed(s, f"request {request[:40]!r}...", timeout)
    m = re.match(rb"HTTP/1\.[01] (\d{3}) ", response)
    return (int(m.group(1)) if m else None), response


def chunked(size, piece=65536):
    """A chunked body of `size` bytes of 'a', without its last chunk."""
    body = b""
    while size > 0:
        n = min(size, piece)
        body += b"%x\r\n" % n + b"a" * n + b"\r\n"
        size -= n
    return body


GET_CLOSE = b"GET /hello.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"

BAD_REQUESTS = [  # what, request (Connection: close, so that a server taking it closes), status
    ("a malformed request line", b"HELLO\r\n\r\n", 400),
    ("a malformed header", GET_CLOSE + b"no colon here\r\n\r\n", 400),
    ("a bad Content-Length", GET_CLOSE + b"Content-Length: 12x\r\n\r\n", 400),
    ("two Content-Lengths", GET_CLOSE + b"Content-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef", 400),
    ("Content-Length and Transfer-Encoding", GET_CLOSE +
     b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
    ("Transfer-Encoding and Content-Length", GET_CLOSE +
     b"Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n", 400),
    ("a bad chunk", GET_CLOSE + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
    ("64 KiB of headers", GET_CLOSE + b"X-Filler: " + b"a" * 65536 + b"\r\n\r\n", 431),
    ("a 1 GB body announced", b"POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\n", 413),
    ("a GET with a 100 kB body", GET_CLOSE + b"Content-Length: 100000\r\n\r\n" + b"a" * 100000, 413),
    ("a GET with a 100 kB chunked body", GET_CLOSE + b"Transfer-Encoding: chunked\r\n\r\n" +
     chunked(100000) + b"0\r\n\r\n", 413),
    # RFC 9112, section 6.3: only a body whose final coding is chunked can be framed, and
    # Transfer-Encoding with Content-Length is a smuggling attempt, in either order.
    *((f"Transfer-Encoding: {coding.decode()}", GET_CLOSE + b"Transfer-Encoding: %s\r\n\r\n" % coding +
       b"GET /hello.txt HTTP/1.1\r\nHost: x\r\n\r\n", 400)
      for coding in (b"gzip", b"identity", b"chunked, gzip", b'"chunked"')),
    ("Transfer-Encoding: gzip and Content-Length", GET_CLOSE +
     b"Transfer-Encoding: gzip\r\nContent-Length: 5\r\n\r\nabcde", 400),
    ("Content-Length and Transfer-Encoding: gzip", GET_CLOSE +
     b"Content-Length: 5\r\nTransfer-Encoding: gzip\r\n\r\nabcde", 400),
    # Section 6.1: HTTP/1.0 has no Transfer-Encoding, so its framing there is faulty.
    ("Transfer-Encoding in HTTP/1.0", b"GET /hello.txt HTTP/1.0\r\nConnection: keep-alive\r\n"
     b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
    ("1,200 empty fields", GET_CLOSE + b"X:\r\n" * 1200 + b"\r\n", 431),
    ("101 fields", GET_CLOSE + b"".join(b"X-%d: a\r\n" % i for i in range(101)) + b"\r\n", 431),
    *((f"{n} KiB of trailers", GET_CLOSE + b"Transfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\n" +
       b"X-Trailer: " + b"a" * (n * 1024) + b"\r\n\r\n", 431) for n in (9, 20)),
    ("no Host", b"GET /hello.txt HTTP/1.1\r\nConnection: close\r\n\r\n", 400),
    ("two Hosts", GET_CLOSE + b"Host: y\r\n\r\n", 400),
    # RFC 9112, section 3: a target too long is 414, not 431; section 3.2: a Host value
    # that is not uri-host [":" port] is 400; RFC 3986: no fragment, raw space, control
    # byte or non-ASCII byte in a target.
    ("a 9 KiB target", b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 414),
    *((f"Host: {host!r}", b"GET /hello.txt HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % host, 400)
      for host in (b"a b/c", b"a/b", b"x:8o", b"[::1", b"[::1]x", b"a@b")),
    *((f"target {target!r}", b"GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % target, 400)
      for target in (b"/hello.txt#x", b"/hello\xff.txt", b"/hello\x01.txt", b"/hello\x7f.txt")),
    ("an invalid percent-escape", b"GET /hello%zz.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 400),
    ("a percent-escaped NUL", b"GET /hello.txt%00 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 400),
]


def bad_requests(server, port, files):
    """Each request the server cannot take gets its status before the connection closes:
    400 for a malformed one, 431 for headers over the limit, 413 for a body over the limit
    (GET and HEAD need none), 400 for conflicting Content-Length and Transfer-Encoding. A
    small body is read and the request served. Many bad requests leave a few log lines."""
    for what, request, expected in BAD_REQUESTS:
        status, response = raw_request(port, request)
        check(status == expected, f"{what}: status {status}, not {expected}")
        check_nosniff(response, what)
    status, response = raw_request(port, GET_CLOSE + b"Content-Length: 100\r\n\r\n" + b"a" * 100)
    check(status == 200 and response.endswith(files["hello.txt"]), f"a GET with a small body: {status}")
    log_before = len(server.stderr_text().splitlines())
    for i in range(200):
        raw_request(port, BAD_REQUESTS[i % len(BAD_REQUESTS)][1])
    log = server.stderr_text()
    print(f"bad requests: statuses as expected; {len(log.splitlines())} line(s) logged:\n{log}")
    check(len(log.splitlines()) - log_before <= 5, "server: floods its log with bad requests")


def big_request_bodies(opt, server, port):
    """100 connections each send a GET with 900 KiB of a chunked body (short of Beast's
    default limit of 1 MiB, without the last chunk) and stay open: the server must answer
    each 413 without taking the body in, its memory growing by a few MiB (a server that
    buffered bodies would hold 90 MB)."""
    baseline = memory_baseline(server, "big request bodies")
    body = chunked(900 * 1024)
    held = []
    try:
        for _ in range(100):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            held.append(s)
            try:
                s.sendall(b"GET /hello.txt HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
                s.sendall(body)
            except OSError:
                pass  # the server may close once it has answered
        time.sleep(0.2)
        if baseline is not None:
            check_memory_growth(server, baseline, 16, "100 connections sending 900 KiB bodies")
        for i, s in enumerate(held):
            response = read_until_closed(s, f"big request body {i}", 10)
            check(response.startswith(b"HTTP/1.1 413 "), f"big request body {i}: {response[:40]!r}")
    finally:
        for s in held:
            s.close()


MAX_CONNECTIONS = 8  # for http_server's BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS


def connection_limit(opt, root, files):
    """The server runs with a limit of MAX_CONNECTIONS: that many keep-alive connections
    are served; the first asks again. Then one more connection comes: the one idle
    longest (the second) gives way to it, closed by the server, the newcomer is served and
    so are the other connections. The log says so in a line or two."""
    server, port = start_server(opt, "0", root, "2",
                                env={"BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS": str(MAX_CONNECTIONS)})
    held = [HTTPConnection("127.0.0.1", port, timeout=10) for _ in range(MAX_CONNECTIONS)]

    def served(c, what):
        c.request("GET", "/hello.txt")
        r = c.getresponse()
        check(r.status == 200 and r.read() == files["hello.txt"], f"{what}: {r.status}")

    for i, c in enumerate(held):
        served(c, f"connection {i + 1} of {MAX_CONNECTIONS}")
    served(held[0], "connection 1 again")
    status, response = raw_request(port, GET_CLOSE + b"\r\n", timeout=3)
    check(status == 200, f"connection {MAX_CONNECTIONS + 1}: answered {response[:40]!r}")
    check(read_until_closed(held[1].sock, "the connection idle longest", 3) == b"",
          "the connection idle longest: sent something when it gave way")
    for i, c in enumerate(held):
        if i != 1:
            served(c, f"connection {i + 1} after a newcomer")
    for c in held:
        c.close()
    log = server.stderr_text()
    print(f"connection limit: {MAX_CONNECTIONS} served, the one idle longest gave way; log:\n{log}")
    check(0 < len(log.splitlines()) <= 3, "server: giving way not logged in a line or two")
    server.stop()


MAX_CONNECTIONS_PER_CLIENT = 4  # for http_server's BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS_PER_CLIENT
FIRST_BYTE_TIMEOUT = 1  # seconds, for its BOOST_ASIO_NOTIFY_EXAMPLE_FIRST_BYTE_TIMEOUT


def client_limits(opt, root, files):
    """One client (127.0.0.1) opens as many silent connections as the server serves in
    all: only MAX_CONNECTIONS_PER_CLIENT of them are served, the rest closed at once, and
    another client (127.0.0.2) is still served. The silent ones are closed after the
    first-byte time-out; one that has sent part of a request has the (longer) idle
    time-out."""
    server, port = start_server(opt, "0", root, env={
        "BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS": str(MAX_CONNECTIONS),
        "BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS_PER_CLIENT": str(MAX_CONNECTIONS_PER_CLIENT),
        # Its network may fill the server: the address limit is what is checked here.
        "BOOST_ASIO_NOTIFY_EXAMPLE_MAX_CONNECTIONS_PER_NETWORK": str(MAX_CONNECTIONS),
        "BOOST_ASIO_NOTIFY_EXAMPLE_FIRST_BYTE_TIMEOUT": str(FIRST_BYTE_TIMEOUT)})
    start = time.monotonic()
    talking = socket.create_connection(("127.0.0.1", port), timeout=10)
    talking.sendall(b"GET /hello.txt HTTP/1.1\r\n")
    silent = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(MAX_CONNECTIONS - 1)]
    try:
        time.sleep(0.2)  # the server accepts them all
        with socket.create_connection(("127.0.0.1", port), timeout=5, source_address=("127.0.0.2", 0)) as s:
            s.sendall(GET_CLOSE + b"\r\n")
            response = read_until_closed(s, "another client", 5)
        check(response.startswith(b"HTTP/1.1 200 ") and response.endswith(files["hello.txt"]),
              f"another client locked out: answered {response[:40]!r}")
        for i, s in enumerate(silent[MAX_CONNECTIONS_PER_CLIENT - 1:]):
            check(read_until_closed(s, f"silent connection {i} over the client's limit", 3) == b"",
                  f"silent connection {i} over the client's limit: answered")
        closed_by_server(silent[0], f"silent connection (FIRST_BYTE_TIMEOUT={FIRST_BYTE_TIMEOUT})",
                         least=FIRST_BYTE_TIMEOUT - 0.2 - (time.monotonic() - start))
        time.sleep(max(0, 1.5 * FIRST_BYTE_TIMEOUT - (time.monotonic() - start)))
        talking.sendall(b"Host: x\r\nConnection: close\r\n\r\n")
        response = read_until_closed(talking, "a request begun before the first-byte time-out", 5)
        check(response.startswith(b"HTTP/1.1 200 "),
              f"a request begun before the first-byte time-out: answered {response[:40]!r}")
    finally:
        talking.close()
        for s in silent:
            s.close()
    print(f"client limits: {MAX_CONNECTIONS_PER_CLIENT} connections of one client served,"
          f" another client served, silent ones closed after {FIRST_BYTE_TIMEOUT}s")
    server.stop()


def slow_download(opt, root, files):
    """With a time-out of IDLE_TIMEOUT, a client that reads a large file steadily but
    slowly (2.5 time-outs in all) gets all of it: the time-out is for each step of the
    response, not for the whole. One that stops reading is still closed. The file is four
    times the most a socket's send buffer takes (4 MiB by Linux's default tcp_wmem), so
    that the server really waits for the client."""
    try:
        with open("/proc/sys/net/ipv4/tcp_wmem") as f:
            send_buffer = int(f.read().split()[2])
    except (OSError, ValueError, IndexError):
        send_buffer = 4 << 20
    data = random.Random(9).randbytes(max(16 << 20, 4 * send_buffer))
    with open(os.path.join(root, "huge.bin"), "wb") as f:
        f.write(data)
    server, port = start_server(opt, "0", root, env={"BOOST_ASIO_NOTIFY_EXAMPLE_IDLE_TIMEOUT": str(IDLE_TIMEOUT)})

    def request():
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
        s.settimeout(10)
        s.connect(("127.0.0.1", port))
        s.sendall(b"GET /huge.bin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return s

    rate = len(data) / (2.5 * IDLE_TIMEOUT)  # bytes a second
    with request() as s:
        received = bytearray()
        start = time.monotonic()
        try:
            while chunk := s.recv(65536):
                received += chunk
                ahead = len(received) / rate - (time.monotonic() - start)
                if ahead > 0:
                    time.sleep(ahead)
        except OSError as e:
            raise Failure(f"slow download: {e} after {len(received)} bytes")
        elapsed = time.monotonic() - start
    print(f"slow download: {len(received)} bytes in {elapsed:.1f}s")
    check(received.endswith(data), f"slow download: cut off after {len(received)} bytes,"
                                   f" {elapsed:.1f}s (time-out {IDLE_TIMEOUT}s)")
    with request() as s:
        time.sleep(2 * IDLE_TIMEOUT)
        received = len(read_until_closed(s, "stalled download", 10))
        check(received < len(data), "stalled download: not closed by the server")
        print(f"stalled download: closed by the server after {received} bytes")
    check(not server.stderr_text(), f"server: logged {server.stderr_text()!r}")
    server.stop()
    os.remove(os.path.join(root, "huge.bin"))


def slow_header(opt, root):
    """With a header time-out of 1 s (the idle time-out at its 30 s), a client that sends a
    request's header a byte every 0.1 s is closed 1 s after its first byte, unanswered: a
    byte now and then does not hold a place for the idle time-out."""
    server, port = start_server(opt, "0", root, env={"BOOST_ASIO_NOTIFY_EXAMPLE_HEADER_TIMEOUT": "1"})
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"GET /hello.txt HTTP/1.1\r\n")
        waited, received = send_until_closed(s, b"X", 0.1, 5, "a header a byte at a time")
    check(waited >= 0.8 and not received, f"a header a byte at a time: closed after {waited:.1f}s,"
                                          f" answered {received[:40]!r}")
    print(f"a header a byte at a time: closed by the server after {waited:.1f}s")
    server.stop()


def send_until_closed(s, piece, interval, most, what, fin_closes=True):
    """Sends `piece` on `s` every `interval` seconds, reading what comes back, until the
    server closes the connection: its end of stream (where `fin_closes`: else only the
    server's reset, once it has closed a socket that was shut down for sending, counts) or
    a reset. Returns the seconds that took and what the server sent; a connection still
    open after `most` seconds is a failure."""
    start = time.monotonic()
    received = b""
    fin = False
    while time.monotonic() - start < most:
        try:
            s.sendall(piece)
            if fin:
                time.sleep(interval)
            elif select.select([s], [], [], interval)[0]:
                chunk = s.recv(65536)
                received += chunk
                fin = not chunk
                if fin and fin_closes:
                    return time.monotonic() - start, received
        except OSError:
            return time.monotonic() - start, received  # reset
    raise Failure(f"{what}: still open after {most}s")


def slow_requests(opt, root):
    """With a time-out of IDLE_TIMEOUT, a client that sends half a request and stops is
    closed after the time-out, and so is one that sends the body of its request a byte
    every tenth of it: the time-out is for the whole request, not for each read (Beast's
    parser takes a body as it comes, but headers only whole). Neither is logged."""
    server, port = start_server(opt, "0", root, env={"BOOST_ASIO_NOTIFY_EXAMPLE_IDLE_TIMEOUT": str(IDLE_TIMEOUT)})
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"GET /hello.txt HTTP/1.1\r\nHost: x\r\n")
        closed_by_server(s, "half a request")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"GET /hello.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 8000\r\n\r\n")
        waited, received = send_until_closed(s, b"a", 0.1 * IDLE_TIMEOUT, IDLE_TIMEOUT + 4,
                                             "a body a byte at a time")
    check(waited >= IDLE_TIMEOUT - 0.2, f"a body a byte at a time: closed after {waited:.1f}s")
    check(not received, f"a body a byte at a time: answered {received[:40]!r}")
    print(f"a body a byte at a time: closed by the server after {waited:.1f}s")
    check(not server.stderr_text(), f"server: logged {server.stderr_text()!r}")
    server.stop()


def responses(data, bodies):
    """Splits what a server sent on one connection into (status, Content-Length, body),
    the i-th response having a body only where `bodies[i]` (not for HEAD): a body that
    should not be there misframes what follows."""
    out = []
    for has_body in bodies:
        head, sep, data = data.partition(b"\r\n\r\n")
        m = re.match(rb"HTTP/1\.1 (\d{3}) ", head)
        length = re.search(rb"(?im)^content-length: *(\d+)\r?$", head)
        check(sep and m and length, f"response {len(out)}: not a response: {head[:60]!r}")
        n = int(length.group(1)) if has_body else 0
        out.append((int(m.group(1)), int(length.group(1)), data[:n]))
        data = data[n:]
    check(not data, f"more than {len(bodies)} responses: {data[:60]!r}")
    return out


def head_errors(port, files):
    """HEAD gets the headers GET would (Content-Length included) and no body, errors too:
    on a kept-alive connection the GET that follows each HEAD is answered intact."""
    heads = [("/no/such/file", b"", 404), ("/hello.txt", b"Range: bytes=99-\r\n", 416),
             ("/../secret.txt", b"", 400), ("/hello.txt", b"", 200)]
    request = b"".join(b"HEAD %s HTTP/1.1\r\nHost: x\r\n%s\r\n" % (path.encode(), extra)
                       + b"GET /hello.txt HTTP/1.1\r\nHost: x\r\n\r\n" for path, extra, _ in heads)
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(request)
        s.shutdown(socket.SHUT_WR)
        got = responses(read_until_closed(s, "HEAD then GET", 5), [False, True] * len(heads))
    for i, (path, _, expected) in enumerate(heads):
        status, length, _ = got[2 * i]
        check(status == expected and length > 0, f"HEAD {path}: {status}, Content-Length {length}")
        status, _, body = got[2 * i + 1]
        check(status == 200 and body == files["hello.txt"], f"GET after HEAD {path}: {status} {body!r}")
    print("HEAD: headers without a body, errors too")


def request_targets(port, root, files):
    """Targets in absolute form are served by their path; percent-escapes are decoded
    before the checks, so that an escaped '..', '/' or '.' leaves the doc root no more
    than a plain one; HTTP/1.0 needs no Host."""
    with open(os.path.join(root, "my file.txt"), "wb") as f:
        f.write(files["hello.txt"])
    for target, expected in ((f"http://127.0.0.1:{port}/hello.txt", 200), ("HTTP://x/hello.txt", 200),
                             ("/my%20file.txt", 200), ("/%68ello.txt", 200), ("/sub%2Fdir/nested.txt", 200),
                             ("/%2e%2e/secret.txt", 400), ("/sub%2F..%2F..%2Fsecret.txt", 400),
                             ("/sub/dir%2F%2E%2E%2F%2E%2E%2F..%2Fsecret.txt", 400),
                             ("/%2ehidden", 404), ("/%2Egit/config", 404), ("/sub/%2eenv", 404)):
        status, response = raw_request(port, b"GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                                       % target.encode())
        check(status == expected, f"GET {target}: {status}, not {expected}")
    status, response = raw_request(port, b"GET /hello.txt HTTP/1.0\r\n\r\n")
    check(status == 200 and response.endswith(files["hello.txt"]), f"HTTP/1.0 without Host: {status}")
    print("request targets: absolute form, percent-escapes and Host as expected")


def answer_within(s, seconds, what):
    """What the server sends on `s` up to the end of a response header, which must come
    within `seconds`."""
    s.settimeout(seconds)
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = s.recv(65536)
            check(chunk, f"{what}: closed after {data[:40]!r}")
            data += chunk
    except socket.timeout:
        raise Failure(f"{what}: no answer within {seconds}s, got {data[:40]!r}")
    return data


def expect_continue(port, files):
    """RFC 9110, section 10.1.1: a client that sends "Expect: 100-continue" waits for the
    server before sending its body. A request whose final status the header decides (405,
    404, 413) gets it at once, the connection closing; one the server will take gets
    "100 Continue", then its answer once the body is sent, the connection kept. An
    unknown expectation is 417; HTTP/1.0 has no Expect (the field is ignored)."""
    head = b"%s %s HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: %d\r\n\r\n"
    for method, path, length, expected in ((b"PUT", b"/upload.bin", 8000, 405),
                                           (b"POST", b"/hello.txt", 10, 405),
                                           (b"GET", b"/nope", 10, 404), (b"GET", b"/hello.txt", 9000, 413)):
        what = f"{method.decode()} {path.decode()} with Expect: 100-continue"
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(head % (method, path, length))
            answer = answer_within(s, 1, what)
            check(answer.startswith(b"HTTP/1.1 %d " % expected), f"{what}: {answer[:40]!r}")
            check(re.search(rb"(?im)^connection: *close\r?$", answer), f"{what}: no Connection: close")
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(head % (b"GET", b"/hello.txt", 10))
        answer = answer_within(s, 1, "GET /hello.txt with Expect: 100-continue")
        check(answer == b"HTTP/1.1 100 Continue\r\n\r\n", f"GET with Expect: answered {answer[:40]!r}")
        s.sendall(b"0123456789" + b"GET /hello.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        s.shutdown(socket.SHUT_WR)
        got = responses(read_until_closed(s, "the body after 100 Continue", 5), [True, True])
    check([(status, body) for status, _, body in got] == [(200, files["hello.txt"])] * 2,
          f"the body after 100 Continue: {got}")
    status, _ = raw_request(port, GET_CLOSE + b"Expect: something-else\r\n\r\n")
    check(status == 417, f"an unknown expectation: {status}, not 417")
    status, response = raw_request(port, b"GET /hello.txt HTTP/1.0\r\nExpect: 100-continue\r\n"
                                         b"Content-Length: 3\r\n\r\nabc")
    check(status == 200 and b" 100 " not in response.split(b"\r\n")[0] and
          response.endswith(files["hello.txt"]), f"HTTP/1.0 with Expect: {response[:40]!r}")
    print("Expect: 100-continue: errors at once, 100 Continue for a request taken, 417, HTTP/1.0")


def rfc_details(port, files):
    """Valid Host values are taken (a name, an address with a port, an IP literal, empty);
    a suffix range of an empty file is ignored (RFC 9110, section 14.1.1: 200, not 416);
    If-Match without a current entity tag fails (412; the server sends none), "*" holds,
    and a missing file stays 404 (section 13.2.1)."""
    for host in (b"x", b"127.0.0.1:8080", b"[::1]:80", b"[::1]", b"", b"a-b.c_d~e%41:1"):
        status, _ = raw_request(port, b"GET /hello.txt HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % host)
        check(status == 200, f"Host: {host!r}: {status}, not 200")
    r = get(port, "/empty.txt", {"Range": "bytes=-1"})
    check(r.status == 200 and r.body == b"", f"Range: bytes=-1 of an empty file: {r.status}, not 200")
    for path, value, expected in (("/hello.txt", '"nope"', 412), ("/hello.txt", '"a", "b"', 412),
                                  ("/hello.txt", "*", 200), ("/nope", '"nope"', 404), ("/nope", "*", 404)):
        for method in ("GET", "HEAD"):
            r = get(port, path, {"If-Match": value, "Range": "bytes=0-1"}, method=method)
            expected_here = 206 if expected == 200 else expected
            check(r.status == expected_here, f"{method} {path} If-Match: {value}: {r.status},"
                                             f" not {expected_here}")
    print("RFC details: Host values, a suffix range of an empty file, If-Match")


def many_fields(opt, server, port):
    """120 connections each send a header of 1,200 empty fields and wait with the body
    they announced: the field count is bounded (431), so that the server's memory grows by
    a few MiB (fields of 112 kB a connection would be 13 MB)."""
    baseline = memory_baseline(server, "many fields")
    held = []
    try:
        for _ in range(120):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            held.append(s)
            s.sendall(b"GET /hello.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n"
                      + b"X:\r\n" * 1200 + b"\r\n")
        time.sleep(0.2)
        if baseline is not None:
            check_memory_growth(server, baseline, 6, "120 connections with 1,200 fields each")
    finally:
        for s in held:
            s.close()


LINGER_TIME = 2  # seconds: how long http_server drains a connection after its last response


def bounded_linger(port):
    """A client that gets 413 for the body it announced and goes on sending it gets the
    whole answer, and the server's end of stream; the server reads and drops the rest for
    LINGER_TIME, then closes (its reset fails the client's sends)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\n")
        waited, received = send_until_closed(s, b"a" * 1024, 0.05, LINGER_TIME + 4,
                                             "sending after the answer", fin_closes=False)
    check(received.startswith(b"HTTP/1.1 413 ") and received.endswith(b"\r\n\r\nPayload Too Large\n"),
          f"sending after the answer: answered {received[:40]!r}...{received[-20:]!r}")
    check(waited >= LINGER_TIME - 0.2, f"sending after the answer: closed after {waited:.1f}s")
    print(f"sending after the answer: answered 413, closed by the server after {waited:.1f}s")


def outside_the_doc_root(opt, root, status):
    """Links inside the document root to files or directories outside it are not
    followed, and no file or directory whose name starts with '.' is served; links that
    stay inside are. Under Wine the links are not links to the Windows program but other
    names of the files (as a junction or an 8.3 name are on Windows): what is checked
    there is the path of the file opened (GetFinalPathNameByHandleW)."""
    outside = os.path.join(opt.work_dir, "outside")
    os.makedirs(outside, exist_ok=True)
    with open(os.path.join(outside, "secret.txt"), "w") as f:
        f.write("outside the doc root\n")
    for name in (".hidden", ".git/config", "sub/.env"):
        os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
        with open(os.path.join(root, name), "w") as f:
            f.write("not for clients\n")
    for path in ("/.hidden", "/.git/config", "/sub/.env", "/.git/", "/sub/./dir/nested.txt"):
        check(status(path, "--path-as-is") == "404", f"{path}: served (a dot file or directory)")
    if opt.launch.no_links:
        print(f"links out of the doc root: skipped {opt.launch.no_links}")
        return
    os.symlink(os.path.join(outside, "secret.txt"), os.path.join(root, "file-link.txt"))
    os.symlink("/etc/passwd", os.path.join(root, "passwd"))
    os.symlink(outside, os.path.join(root, "dir-link"))
    os.symlink("hello.txt", os.path.join(root, "inside-link.txt"))
    os.symlink("sub/dir", os.path.join(root, "inside-dir"))
    for path in ("/file-link.txt", "/passwd", "/dir-link/secret.txt"):
        check(status(path) == "404", f"{path}: served, a link out of the doc root")
    check(status("/inside-link.txt") == "200", "/inside-link.txt: a link inside not served")
    check(status("/inside-dir/nested.txt") == "200", "/inside-dir/: a link inside not served")
    # The name the client asked for is not hidden, the file it resolves to is.
    os.symlink(os.path.join("sub", ".env"), os.path.join(root, "envlink"))
    os.symlink(".git", os.path.join(root, "gitlink"))
    for path in ("/envlink", "/gitlink/config"):
        check(status(path) == "404", f"{path}: served, a link to a dot file or directory")


def tls(opt):
    """A throwaway self-signed certificate is generated with the openssl CLI; openssl
    s_client verifies it, and lines typed into it come back. Then hostile clients: too
    many, silent, flooding, without a ClientHello."""
    cert = os.path.join(opt.work_dir, "cert.pem")
    key = os.path.join(opt.work_dir, "key.pem")
    r = run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
             "-nodes", "-days", "1", "-subj", "/CN=localhost",
             "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
             "-keyout", key, "-out", cert])
    check(r.returncode == 0, f"openssl req: {r.stderr.decode()}")
    bad_ports(opt, cert, key)
    server, port = start_server(opt, "0", cert, key)

    # -verify_return_error: a certificate that does not verify ends the handshake.
    # -no_ign_eof: end of our input closes the connection. -nocommands: lines starting
    # with Q or R are data, not s_client commands.
    client = Process("s_client", ["openssl", "s_client", "-connect", f"127.0.0.1:{port}",
                                  "-CAfile", cert, "-verify_return_error", "-verify_ip", "127.0.0.1",
                                  "-quiet", "-no_ign_eof", "-nocommands"],
                     opt.work_dir, stdin=True)
    for text in ["hello over TLS", "Quit is not a command", pattern(50_000, 7)]:
        client.send(text + "\n")
        got = client.next_line()
        check(got == text, f"s_client: echo differs ({len(got)} of {len(text)} characters)")
    client.close_stdin()
    check(client.wait() == 0, f"s_client: exit code {client.proc.returncode}")
    server.stop()

    import ssl
    context = ssl.create_default_context(cafile=cert)

    def tls_connection(port):
        raw = socket.create_connection(("127.0.0.1", port), timeout=10)
        return context.wrap_socket(raw, server_hostname="localhost")

    def tls_probe(when):
        return lambda port: echo_probe(port, tls_connection, "TLS echo", when)

    out_of_descriptors(opt, ["0", cert, key], tls_probe("after running out of descriptors"),
                       churn=2)
    # A client that connects and never starts the handshake; then one that finishes it
    # and then says nothing.
    idle_connections(opt, ["0", cert, key], lambda port: echo_active(port, tls_connection),
                     silent_connection, env_var="BOOST_ASIO_NOTIFY_EXAMPLE_HANDSHAKE_TIMEOUT")
    idle_connections(opt, ["0", cert, key], lambda port: echo_active(port, tls_connection),
                     tls_connection)
    # A pending handshake costs the server ~90 kB: FLOOD_LIMIT of them about 4.5 MB.
    connection_flood(opt, ["0", cert, key], tls_probe("during or after the flood"), most_mib=10)
    fair_share(opt, ["0", cert, key],
               lambda port, source: echo_probe(
                   port, lambda p: context.wrap_socket(from_address(source)(p), server_hostname="localhost"),
                   "TLS echo", "while others hold every place"),
               b"\x16")  # a TLS record's first byte: a ClientHello that never comes
    client_churn(opt, ["0", cert, key], not_a_client_hello, tls_probe("after the churn"),
                 "clients without a ClientHello")


def curl_multi(opt):
    """The libcurl multi-socket example downloads every file of the HTTP example at once
    (plus one missing file) and must save them byte for byte."""
    root = os.path.join(opt.work_dir, "www")
    files = make_doc_root(root)
    out_dir = os.path.join(opt.work_dir, "downloads")
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    server, port = start_server(opt, "0", root)
    base = f"http://127.0.0.1:{port}"
    # index.html comes through "localhost" (tried as ::1 first, then 127.0.0.1, where the
    # server listens); every other file through 127.0.0.1.
    urls = {name: f"{base}/{name}" for name in files}
    urls["index.html"] = f"http://localhost:{port}/"
    missing = f"{base}/missing.txt"
    r = run([opt.bin["client"], out_dir] + list(urls.values()) + [missing], timeout=60,
            launch=opt.launch)
    print(r.stdout.decode(), r.stderr.decode(), sep="")
    check(r.returncode == 0, "client failed")
    results = download_results(r, list(urls.values()) + [missing])
    for name, data in files.items():
        check(results.get(urls[name]) == ("200", str(len(data))), f"{urls[name]}: {results.get(urls[name])}")
        with open(os.path.join(out_dir, os.path.basename(name)), "rb") as f:
            check(f.read() == data, f"/{name}: downloaded content differs")
    check(results.get(missing, ("",))[0] == "404", "missing file not reported as 404")
    download_limit(opt, port, files, out_dir)
    many_downloads(opt, port, root)
    awkward_names(opt, port, files, root)
    no_descriptors_left(opt, port)
    server.stop()


def download_results(r, urls):
    """{url: (status or "failed", bytes or reason)} from curl_multi_client's output `r` (a
    CompletedProcess), which must have one line for each of `urls` and no other."""
    results = {}
    for line in r.stdout.decode().splitlines():
        status, url, rest = line.split(" ", 2)
        url = url.rstrip(":")
        check(url not in results, f"{url}: reported twice")
        results[url] = (status, rest)
    missed = [url for url in urls if url not in results]
    check(not missed, f"no result for {len(missed)} of {len(urls)} URL(s) (exit code"
                      f" {r.returncode}, stderr: {r.stderr.decode().strip()!r})")
    check(len(results) == len(urls),
          f"results for URLs not asked for: {results.keys() - set(urls)}")
    return results


def fresh_dir(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


CLIENT_DESCRIPTOR_LIMIT = 64  # for curl_multi_client, with more URLs than that


def many_downloads(opt, port, root):
    """60 files downloaded at once with at most 64 descriptors: the client must bound what
    it has open, each output file only while its transfer runs."""
    if opt.launch.no_descriptor_limit:
        print(f"many downloads: skipped {opt.launch.no_descriptor_limit}")
        return
    files = {f"many/{i}.txt": f"file {i}\n".encode() * (i + 1) for i in range(60)}
    for name, data in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
        with open(os.path.join(root, name), "wb") as f:
            f.write(data)
    out_dir = fresh_dir(os.path.join(opt.work_dir, "downloads_many"))
    urls = {name: f"http://127.0.0.1:{port}/{name}" for name in files}
    start = time.monotonic()
    r = run([opt.bin["client"], out_dir] + list(urls.values()), timeout=30, launch=opt.launch,
            nofile=CLIENT_DESCRIPTOR_LIMIT)
    print(f"many downloads: {len(urls)} files with {CLIENT_DESCRIPTOR_LIMIT} descriptors,"
          f" exit code {r.returncode} after {time.monotonic() - start:.1f}s")
    results = download_results(r, urls.values())
    for name, data in files.items():
        check(results[urls[name]] == ("200", str(len(data))),
              f"{urls[name]}: {results[urls[name]]}")
        with open(os.path.join(out_dir, os.path.basename(name)), "rb") as f:
            check(f.read() == data, f"/{name}: downloaded content differs")
    check(r.returncode == 0, f"client: exit code {r.returncode}")


def awkward_names(opt, port, files, root):
    """URLs whose last segment is "..", "." or empty, two with the same last segment, one
    that differs from those only in case, one with ':': no URL may end the run, each gets
    its line and a file of its own, named in command-line order (".1", ".2", ... for a name
    taken already, in any case), none overwritten."""
    another = b"another hello.txt\n"
    os.makedirs(os.path.join(root, "dup"), exist_ok=True)
    with open(os.path.join(root, "dup", "hello.txt"), "wb") as f:
        f.write(another)
    out_dir = fresh_dir(os.path.join(opt.work_dir, "downloads_names"))
    base = f"http://127.0.0.1:{port}"
    # (URL, file it is saved as, content expected, or None for the server's answer to a
    # directory, whatever its status)
    expected = [(f"{base}/hello.txt", "hello.txt", files["hello.txt"]),
                (f"{base}/dup/hello.txt", "hello.txt.1", another),
                (f"{base}/", "index.html", files["index.html"]),
                (f"{base}/sub/dir/..", "index.html.1", None),
                (f"{base}/sub/dir/.", "index.html.2", None),
                (f"{base}/sub/dir/", "index.html.3", None),
                # One file where names differ only in case (Windows, macOS); no stream or
                # directory named by ':' or '\\' on Windows.
                (f"{base}/HELLO.txt", "HELLO.txt.2", None),
                (f"{base}/a:b%5Cc.txt", "a_b%5Cc.txt", None)]
    r = run([opt.bin["client"], out_dir] + [url for url, _, _ in expected], timeout=30,
            launch=opt.launch)
    print(r.stdout.decode(), r.stderr.decode(), sep="")
    results = download_results(r, [url for url, _, _ in expected])
    for url, name, data in expected:
        status, size = results[url]
        check(status == "200" if data is not None else status != "failed",
              f"{url}: {results[url]}")
        with open(os.path.join(out_dir, name), "rb") as f:
            saved = f.read()
        check(saved == data if data is not None else str(len(saved)) == size,
              f"{url}: {name} holds something else (overwritten?)")
    check(sorted(os.listdir(out_dir)) == sorted(name for _, name, _ in expected),
          f"files saved: {sorted(os.listdir(out_dir))}")
    check(r.returncode == 0, f"client: exit code {r.returncode}")


def no_descriptors_left(opt, port):
    """The client with a descriptor limit from 4 (no reactor can be created: for the notify
    build its port, the first thing created) up to where sockets and files open: every URL
    must get its line, failed or not, and the client must exit 1 (0 if none failed), never
    by a signal or std::terminate (an exception through libcurl's C callbacks)."""
    if opt.launch.no_descriptor_limit:
        print(f"no descriptors left: skipped {opt.launch.no_descriptor_limit}")
        return
    if opt.sanitized:
        print("no descriptors left: skipped in a sanitized build (the sanitizer runtime needs"
              " descriptors of its own)")
        return
    out_dir = fresh_dir(os.path.join(opt.work_dir, "downloads_no_descriptors"))
    urls = [f"http://127.0.0.1:{port}/{name}" for name in ("hello.txt", "small.bin", "medium.bin")]
    problems = []
    for limit in range(4, 17):
        r = run([opt.bin["client"], out_dir] + urls, timeout=15, launch=opt.launch, nofile=limit)
        try:
            results = download_results(r, urls)
            failed = [reason for status, reason in results.values() if status == "failed"]
            print(f"no descriptors left: limit {limit}: {len(failed)} of {len(urls)} failed"
                  f"{', first: ' + failed[0] if failed else ''}")
            check(r.returncode == (1 if failed else 0), f"exit code {r.returncode}")
            check(b"terminate" not in r.stderr, f"stderr: {r.stderr.decode().strip()!r}")
            check(limit > 4 or (len(failed) == len(urls) and
                                all(re.search("(?i)too many open files", f) for f in failed)),
                  f"not every URL failed for want of descriptors: {results}")
        except Failure as e:
            print(f"no descriptors left: limit {limit}: FAILED: {e}")
            problems.append(str(limit))
    check(not problems, f"with a descriptor limit of {', '.join(problems)} (see above)")


DOWNLOAD_LIMIT = 1 << 20  # bytes, for curl_multi_client's BOOST_ASIO_NOTIFY_EXAMPLE_MAX_DOWNLOAD
ENDLESS_MOST = 64 << 20  # what the endless body sends before it stalls (the disk of a test)


def endless_body_server():
    """A Python HTTP server on a thread that answers every request 200 with a chunked body
    that never ends: ENDLESS_MOST bytes of chunks as fast as the client takes them, then
    nothing, the connection held open, until stop() (the function it returns)."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    stopping = threading.Event()

    def feed(conn):
        with conn:
            conn.settimeout(2)
            request = b""
            try:
                while b"\r\n\r\n" not in request:
                    chunk = conn.recv(4096)
                    if not chunk:
                        return
                    request += chunk
                conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
                piece = chunked(65536)
                for _ in range(ENDLESS_MOST // 65536):
                    if stopping.is_set():
                        return
                    conn.sendall(piece)
                stopping.wait()  # never the last chunk
            except OSError:
                pass  # the client has gone

    def serve():
        while not stopping.is_set():
            try:
                conn, _ = listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            threading.Thread(target=feed, args=(conn,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()

    def stop():
        stopping.set()
        listener.close()
    return listener.getsockname()[1], stop


def download_limit(opt, port, files, out_dir):
    """With BOOST_ASIO_NOTIFY_EXAMPLE_MAX_DOWNLOAD at 1 MiB, the client downloads a body that
    never ends (a Python server's), a 3 MiB file and a 300 kB one: it must stop the first
    at the limit and refuse the second, each with an error that names the limit, save the
    third, and exit within seconds, having written no more than the limit, with its memory
    bounded (the body goes to disk, so memory was never the risk: time and disk were)."""
    endless_port, stop = endless_body_server()
    try:
        endless = f"http://127.0.0.1:{endless_port}/endless.bin"
        large = f"http://127.0.0.1:{port}/large.bin"
        medium = f"http://127.0.0.1:{port}/medium.bin"
        start = time.monotonic()
        r = run([opt.bin["client"], out_dir, endless, large, medium], timeout=15, launch=opt.launch,
                env={"BOOST_ASIO_NOTIFY_EXAMPLE_MAX_DOWNLOAD": str(DOWNLOAD_LIMIT)})
        elapsed = time.monotonic() - start
    finally:
        stop()
    out = r.stdout.decode()
    peak = opt.launch.clients_peak_mib()  # of any client so far
    print(out, r.stderr.decode(), f"download limit: exit code {r.returncode} after {elapsed:.1f}s,"
          " peak resident memory of any client so far " +
          ("unknown (not kept on Windows)" if peak is None else f"{peak:.0f} MiB"), sep="")
    check(r.returncode != 0, "client: exit code 0 despite downloads over the limit")
    for url in (endless, large):
        check(re.search(rf"^failed {re.escape(url)}: larger than the download limit of"
                        rf" {DOWNLOAD_LIMIT} bytes", out, re.M), f"{url}: not stopped at the limit")
    check(f"200 {medium} {len(files['medium.bin'])}\n" in out, f"{medium}: not downloaded")
    saved = os.path.getsize(os.path.join(out_dir, "endless.bin"))
    check(saved <= DOWNLOAD_LIMIT, f"endless body: {saved} bytes saved, over the limit")
    check(elapsed < 5, f"client: took {elapsed:.1f}s to stop at the limit")
    check(peak is None or peak < 256, f"client: {peak:.0f} MiB resident")


def start_watchdog(limit):
    """The time limit of the whole run, kept by a thread (Windows has no SIGALRM): when
    it passes, the main thread gets a Failure through SIGINT's handler, by a real SIGINT
    to that thread where threads can be signalled (it ends a blocking call there too);
    5 seconds later every child process still running is killed, which ends any wait for
    one; 20 seconds after that the run ends, failed, whatever the main thread does.
    Returns the Event that the main thread sets when it is done."""
    expired = threading.Event()
    done = threading.Event()

    def on_sigint(*_):
        if expired.is_set():
            raise Failure(f"time limit of {limit}s exceeded")
        raise KeyboardInterrupt
    signal.signal(signal.SIGINT, on_sigint)

    def kill_children():
        for p in list(children):
            try:
                p.kill()
            except OSError:
                pass  # ended meanwhile

    def watch():
        if done.wait(limit):
            return
        expired.set()
        if hasattr(signal, "pthread_kill"):
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
        else:
            _thread.interrupt_main()
        if done.wait(5):
            return
        kill_children()
        if done.wait(20):
            return
        kill_children()
        print(f"FAILED: time limit of {limit}s exceeded, and the test did not stop", flush=True)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()
    return done


SCENARIOS = {f.__name__: f for f in (tcp_echo, udp_echo, chat, http, tls, curl_multi)}
SCENARIOS["coro_echo"] = tcp_echo  # the coroutine server answers the same client


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=SCENARIOS)
    parser.add_argument("--variant", choices=["notify", "default"], required=True)
    parser.add_argument("--work-dir", required=True)
    parser.add_argument("--bin", action="append", default=[], metavar="NAME=PATH")
    parser.add_argument("--wine", metavar="LOADER", help="run the binaries under Wine")
    parser.add_argument("--sanitized", action="store_true",
                        help="the binaries are built with sanitizers: skip running them"
                             " out of descriptors")
    opt = parser.parse_args()
    opt.bin = dict(b.split("=", 1) for b in opt.bin)
    opt.launch = Wine(opt.wine) if opt.wine else Windows() if os.name == "nt" else NATIVE
    os.makedirs(opt.work_dir, exist_ok=True)

    done = start_watchdog(TOTAL_TIME_LIMIT)
    try:
        SCENARIOS[opt.scenario](opt)
        print(f"{opt.scenario} ({opt.variant}): OK")
        return 0
    except Failure as e:
        print(f"{opt.scenario} ({opt.variant}): FAILED: {e}")
        for p in running:  # what the servers and clients said on stderr
            text = p.stderr_text()
            if text:
                print(f"--- {p.name} stderr ---\n{text}")
        return 1
    finally:
        done.set()
        for p in running:
            p.kill()


if __name__ == "__main__":
    sys.exit(main())
