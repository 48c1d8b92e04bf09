# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# http_server's limits and time-outs: connections in all and of one client, big bodies and
# many fields with its memory bounded, slow clients (header, body, download) and the bounded
# linger after a last response.

from http.client import HTTPConnection
import os
import random
import select
import socket
import time

from .checks import check, Failure
from .clients import (check_memory_growth, closed_by_server, IDLE_TIMEOUT, memory_baseline,
                      read_until_closed)
from .http_protocol import chunked, GET_CLOSE, raw_request
from .process import start_server


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
