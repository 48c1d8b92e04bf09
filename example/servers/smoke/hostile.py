# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# Hostile clients, the checks that every connection-oriented server gets, each given the
# server's arguments and a probe of its own protocol: run out of descriptors, idle
# connections, a flood from one client, a fair share against a few addresses, and clients
# that leave before they are served.

import math
import re
import select
import socket
import time

from .checks import check, Failure
from .clients import (check_memory_growth, closed_by_server, cpu_seconds, from_address,
                      IDLE_TIMEOUT, memory_baseline, memory_env, served_again, settle)
from .process import start_server


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


def idle_connections(opt, args, active, silent, env_var="BOOST_ASIO_NOTIFY_EXAMPLE_IDLE_TIMEOUT"):
    """The server runs with a time-out of IDLE_TIMEOUT seconds: a connection that keeps
    talking (`active(port)`, for longer than that) stays open, and one that stays silent
    (`silent(port)` connects and returns the socket) is closed by the server in time."""
    server, port = start_server(opt, *args, env={env_var: str(IDLE_TIMEOUT)})
    active(port)
    closed_by_server(silent(port), f"silent connection ({env_var}={IDLE_TIMEOUT})")
    check(not server.stderr_text(), f"server: logged {server.stderr_text()!r}")
    server.stop()


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
        attacked_at = time.monotonic()
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
        # A line a second at most (rate_limited_log): the attack takes longer on a busy machine.
        most = max(4, 2 + int(time.monotonic() - attacked_at))
        check(len(log.splitlines()) <= most,
              f"server: floods its log with the attack ({most} lines allowed): {log!r}")
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
