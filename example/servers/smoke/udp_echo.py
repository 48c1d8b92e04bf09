# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# The udp_echo scenario, one idea: the UDP client's datagrams, a 60000-byte one and an empty
# one come back.

import random
import socket

from .checks import check, Failure
from .clients import bad_ports, pattern
from .process import run, start_server


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
