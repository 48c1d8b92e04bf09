# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# Client helpers the scenarios share: test data, a bad port on the command line, the memory
# and CPU time of a server, connections from a chosen address, an echo probe, and waits for
# what the server sends or for its close.

import os
import random
import socket
import time

from .checks import check, Failure
from .process import run


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


def tcp_connection(port):
    return socket.create_connection(("127.0.0.1", port), timeout=10)


def recv_exactly(s, n, closed):
    """The next `n` bytes of `s`; fails with `closed` if the peer closes first."""
    got = b""
    while len(got) < n:
        chunk = s.recv(64)
        check(chunk, closed)
        got += chunk
    return got


def echo_probe(port, connect=tcp_connection, what="echo", when="after running out of descriptors"):
    """Checks that the server echoes a line on a new connection made by `connect`."""
    with connect(port) as s:
        s.sendall(b"still there?")
        got = recv_exactly(s, 12, f"{what} {when}: connection closed")
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


def echo_active(port, connect=tcp_connection):
    """Talks for 2.5 idle time-outs, a message every 0.3 of one: every echo comes back."""
    with connect(port) as s:
        for i in range(int(2.5 / 0.3) + 1):
            s.sendall(b"tick")
            recv_exactly(s, 4, f"active connection closed by the server after {i * 0.3 * IDLE_TIMEOUT:.1f}s")
            time.sleep(0.3 * IDLE_TIMEOUT)


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


def from_address(source, timeout=1):
    """A connect(port) that connects to 127.0.0.1 from the address `source`: Linux lets a
    socket bind any address of 127/8."""
    return lambda port: socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                                 source_address=(source, 0))


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
