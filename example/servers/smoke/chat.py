# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# The chat scenario: participants who hear each other, then the limits of chat_server (slow
# participants, a newline flood, the participant limit) and of chat_client (an endless line
# from its server, its queue of stdin lines).

import re
import socket
import threading
import time

from .checks import check, Failure
from .clients import (bad_ports, check_memory_growth, closed_by_server, from_address, IDLE_TIMEOUT,
                      memory_baseline, memory_env, pattern)
from .hostile import fair_share, idle_connections, out_of_descriptors
from .process import Process, start_server


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
                     opt.work_dir, stdin=True, launch=opt.launch, env=memory_env(opt))
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
                     env={"BOOST_ASIO_NOTIFY_EXAMPLE_WRITE_QUEUE_LIMIT": str(CLIENT_QUEUE_LIMIT),
                          **memory_env(opt)})
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
    print("stdin bound: every line arrived once the server read")
