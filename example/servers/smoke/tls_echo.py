# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# The tls scenario, one idea: tls_echo_server with a throwaway certificate, through openssl
# s_client and Python's ssl, then the hostile clients over TLS.

import os
import random
import socket

from .checks import check
from .clients import bad_ports, echo_active, echo_probe, from_address, pattern, tcp_connection
from .hostile import (client_churn, connection_flood, fair_share, idle_connections,
                      out_of_descriptors)
from .process import Process, run, start_server


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
                     tcp_connection, env_var="BOOST_ASIO_NOTIFY_EXAMPLE_HANDSHAKE_TIMEOUT")
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


def not_a_client_hello(port):
    """Connects to a TLS server and closes, having sent nothing or a line of plain text."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        if random.random() < 0.5:
            s.sendall(b"GET / HTTP/1.0\r\n\r\n")
