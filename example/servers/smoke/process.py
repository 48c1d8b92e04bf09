# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# The processes a smoke test starts, and the watchdog that ends them: Process (a server or
# client whose stdout lines are read with a time-out), start_server, run (a client to
# completion), and start_watchdog, the time limit of the whole run. Every child started is
# in `children`, for the watchdog; every Process in `running`, for the report and the
# clean-up of the entry point. A program its loader failed to start (Wine's, on a loaded
# machine) is started again: retry_start.

import _thread
import io
import os
import queue
import re
import signal
import subprocess
import threading

from .checks import check, Failure
from .launch import NATIVE


class Process:
    """A child process whose stdout lines are collected by a thread, so that reading
    them can time out. `launch` is how it runs: Native, Wine or Windows."""

    def __init__(self, name, args, work_dir, stdin=False, launch=NATIVE, nofile=None, env=None):
        self.name = name
        self.args = args
        self.launch = launch
        self.startup = launch.startup  # used up by the first line (None after it)
        self.log_path = os.path.join(work_dir, name + ".stderr")
        self.log = open(self.log_path, "w")
        self.starts = 0
        # Bytes both ways: what is sent ends its lines with "\n" on every system (a text
        # stream would write "\r\n" on Windows); lines read end in "\n" or "\r\n".
        self.popen_arguments = dict(
            args=launch.command(args), stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=self.log,
            env=dict(launch.env or os.environ, **env) if env else launch.env,
            preexec_fn=None if nofile is None else lambda: limit_descriptors(nofile),
            **launch.popen_options())
        self._start()
        running.append(self)

    def _start(self):
        self.starts += 1
        self.proc = subprocess.Popen(**self.popen_arguments)
        children.append(self.proc)
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in io.TextIOWrapper(self.proc.stdout, encoding="utf-8", errors="replace"):
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)  # end of output

    def next_line(self, timeout=10):
        first = self.startup is not None
        timeout += self.startup or 0
        self.startup = None
        line = self._line(timeout)
        while line is None and first and self._never_started():
            self._start()
            line = self._line(timeout)
        check(line is not None, f"{self.name}: output ended early (exit code {self.proc.poll()})")
        return line

    def _line(self, timeout):
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            raise Failure(f"{self.name}: no output within {timeout}s")

    def _never_started(self):
        """Whether the process, having printed nothing, ended as one its loader failed to
        start, and may be started again (what stdin was sent to it is lost)."""
        try:
            returncode = self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            return False
        return retry_start(self.launch, self.name, returncode, self.starts)

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
START_ATTEMPTS = 5  # starts of a program whose loader fails to start it (never_started)


def retry_start(launch, name, returncode, starts):
    """Whether program `name`, started `starts` times, which printed nothing and ended with
    `returncode`, is to be started again: its loader failed to start it, and attempts are
    left. Says so when it is."""
    if starts >= START_ATTEMPTS or not launch.never_started(returncode):
        return False
    print(f"{name}: exit code {returncode} before it ran (its loader failed to start it);"
          f" starting it again, attempt {starts + 1} of {START_ATTEMPTS}")
    return True


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
    name = os.path.basename(args[0])
    starts = 0
    while True:
        starts += 1
        with subprocess.Popen(launch.command(args), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE,
                              env=dict(launch.env or os.environ, **env) if env else launch.env,
                              preexec_fn=preexec) as p:
            children.append(p)
            try:
                stdout, stderr = p.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                p.kill()
                p.communicate()
                raise Failure(f"{name}: timed out after {timeout}s")
        if stdout or not retry_start(launch, name, p.returncode, starts):
            break
    return subprocess.CompletedProcess(p.args, p.returncode, launch.stdout(stdout), stderr)


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
