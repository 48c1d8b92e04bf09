# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# The tcp_echo scenario (and coro_echo, whose server answers the same client): the echo
# client and bulk Python connections, then the hostile clients, the dual-stack keys of the
# connection limit, and clients gone before their echo.

import contextlib
import random
import socket
import threading

from .checks import check
from .clients import (bad_ports, echo_active, echo_probe, from_address, pattern, read_until_closed,
                      tcp_connection)
from .hostile import (client_churn, connection_flood, fair_share, idle_connections,
                      out_of_descriptors)
from .launch import WindowsPrograms
from .process import run, start_server


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
    idle_connections(opt, ["0"], echo_active, tcp_connection)
    connection_flood(opt, ["0"], lambda port: echo_probe(port, when="during or after the flood"),
                     most_mib=5)
    fair_share(opt, ["0"], lambda port, source: echo_probe(port, from_address(source),
                                                           when="while others hold every place"),
               b"x")
    dual_stack_keys(opt)
    client_churn(opt, ["0"], reset_before_echo,
                 lambda port: echo_probe(port, when="after the churn"),
                 "clients gone before their echo")


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


def reset_before_echo(port):
    """Sends more than the server reads at once and closes without reading the echo: the
    echo finds the connection closed, then reset."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"x" * 65536)
