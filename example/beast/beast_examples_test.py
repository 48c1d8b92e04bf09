#!/usr/bin/env python3
#
# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# Drives one of Beast's example servers (built by example/beast/CMakeLists.txt on the notify
# reactor or on stock Asio) with real clients: curl, Python's http.client and Beast's
# http_client_async for HTTP; Python's websockets and Beast's websocket_client_async for
# WebSocket, over TLS too. Linux only (the server's port is checked in /proc). Nothing may
# hang: every client has a time-out, the whole run has a watchdog, and the server is killed
# in the end whatever happened.
#
#   beast_examples_test.py <scenario> --server PATH --work-dir DIR [--curl PATH]
#       [--http-client PATH] [--websocket-client PATH] [--certificate server_certificate.hpp]
#
# Scenarios (the servers' command lines are Beast's):
#   http           http_server_async, http_server_coro: <address> <port> <doc_root> <threads>
#   websocket      websocket_server_async: <address> <port> <threads>
#   websocket_ssl  websocket_server_async_ssl: the same, wss:// with Beast's test certificate
#   advanced       advanced_server: HTTP and WebSocket on one port, stopped by SIGTERM

import argparse
import asyncio
from http.client import HTTPConnection
import os
import random
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
import traceback

import websockets

TOTAL_TIME_LIMIT = 150  # seconds; ctest's TIMEOUT is larger, so the server is killed first
CLIENT_TIME_LIMIT = 30  # seconds, any one client program
SERVER_THREADS = 2  # the servers' io_context runs on this many threads
HOST = "127.0.0.1"


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


children = []  # every process started, killed at the end or by the watchdog


def kill_children():
    for proc in children:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def watchdog():
    time.sleep(TOTAL_TIME_LIMIT)
    print(f"FAIL: still running after {TOTAL_TIME_LIMIT} s", flush=True)
    kill_children()
    os._exit(1)


# ---- the server ---------------------------------------------------------------------------

def free_port():
    """A port that nothing listens on now: the server may still lose it to another process
    before it binds, which Server.start() sees and retries."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def listening_inodes(port):
    """The inodes of the sockets listening on HOST:port, from /proc/net/tcp."""
    want = "0100007F:%04X" % port  # 127.0.0.1 in the kernel's (little-endian) order
    inodes = set()
    with open("/proc/net/tcp") as f:
        next(f)
        for line in f:
            fields = line.split()
            if fields[1] == want and fields[3] == "0A":  # TCP_LISTEN
                inodes.add(fields[9])
    return inodes


def socket_inodes(pid):
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            m = re.fullmatch(r"socket:\[(\d+)\]", os.readlink(f"/proc/{pid}/fd/{fd}"))
        except OSError:
            continue  # closed meanwhile
        if m:
            inodes.add(m.group(1))
    return inodes


class Server:
    def __init__(self, path, args, work_dir):
        self.path = path
        self.args = args  # after <address> <port>
        self.work_dir = work_dir
        self.proc = None
        self.port = None

    def stderr_text(self):
        with open(self.stderr_path, errors="replace") as f:
            return f.read()

    def start(self):
        """Starts the server on a free port, and returns once it listens there: once a socket
        of its own does, so that no other process's is taken for it."""
        for attempt in range(1, 6):
            port = free_port()
            self.stderr_path = os.path.join(self.work_dir, f"server{attempt}.err")
            with open(os.path.join(self.work_dir, f"server{attempt}.out"), "wb") as out, \
                    open(self.stderr_path, "wb") as err:
                self.proc = subprocess.Popen([self.path, HOST, str(port)] + self.args,
                                             stdin=subprocess.DEVNULL, stdout=out, stderr=err)
            children.append(self.proc)
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                if self.proc.poll() is not None or self.stderr_text():
                    break  # Beast's servers report a failed bind, then run without listening
                mine = socket_inodes(self.proc.pid) & listening_inodes(port)
                if mine:
                    self.port = port
                    print(f"server {os.path.basename(self.path)} listening on {HOST}:{port}")
                    return
                time.sleep(0.02)
            self.proc.kill()
            self.proc.wait()
            err = self.stderr_text()
            if "Address already in use" in err:
                print(f"port {port} taken before the server bound it; another one")
                continue
            raise Failure(f"server did not start listening on port {port} "
                          f"(exit code {self.proc.returncode}); stderr:\n{err}")
        raise Failure("no free port for the server in 5 tries")

    def check_running(self, context):
        check(self.proc.poll() is None,
              f"server exited ({self.proc.returncode}) {context}; stderr:\n{self.stderr_text()}")

    def check_quiet(self):
        """Beast's servers report on stderr every failed operation but those of clients
        closing (end of stream, WebSocket close): the clients here give them none."""
        err = self.stderr_text()
        check(not err, f"server reported errors:\n{err}")


# ---- clients ------------------------------------------------------------------------------

def run_client(args, what):
    try:
        result = subprocess.run(args, stdin=subprocess.DEVNULL, capture_output=True,
                                timeout=CLIENT_TIME_LIMIT)
    except subprocess.TimeoutExpired:
        raise Failure(f"{what}: no end within {CLIENT_TIME_LIMIT} s: {args}")
    return result


def curl(options, what):
    result = run_client([ARGS.curl, "-sS", "--max-time", "20"] + options, what)
    check(result.returncode == 0,
          f"{what}: curl exit code {result.returncode}: {result.stderr.decode(errors='replace')}")
    return result.stdout.decode()


def beast_client(path, args, what):
    """Runs one of Beast's clients; they exit 0 even where they fail, and then say why on
    stderr."""
    result = run_client([path] + args, what)
    err = result.stderr.decode(errors="replace")
    check(result.returncode == 0 and not err,
          f"{what}: exit code {result.returncode}, stderr:\n{err}")
    return result.stdout.decode(errors="replace")


# ---- HTTP ---------------------------------------------------------------------------------

def make_doc_root(work_dir):
    root = os.path.join(work_dir, "doc_root")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(os.path.join(root, "sub"))
    rng = random.Random(27)
    files = {
        "index.html": b"<html><body>Beast on the notify reactor</body></html>\n",
        "style.css": b"body { color: black; }\n",
        "sub/index.html": b"<html><body>sub</body></html>\n",
        # Larger than any one write, so the file goes out in several.
        "data.bin": rng.randbytes(1024 * 1024 + 17),
    }
    for name, data in files.items():
        with open(os.path.join(root, name), "wb") as f:
            f.write(data)
    return root, files


def http_checks(server, files, http_client, spaced=False):
    """spaced: one request on a connection only once the previous response is out. Beast
    1.81's advanced_server starts a second write when a request comes in while a response
    is still being written (boostorg/beast#2739): asserts in Debug, mixed-up responses in
    Release, on stock Asio as on ours."""
    work = server.work_dir
    base = f"http://{HOST}:{server.port}"

    def get(target, what, options=()):
        body_path = os.path.join(work, "body")
        out = curl(list(options) + ["-o", body_path, "-w", "%{http_code} %{content_type}",
                                    base + target], what)
        with open(body_path, "rb") as f:
            return out.split(" ", 1), f.read()

    (code, ctype), body = get("/index.html", "GET /index.html")
    check(code == "200" and ctype == "text/html" and body == files["index.html"],
          f"GET /index.html: {code} {ctype} {body[:80]!r}")
    (code, ctype), body = get("/", "GET /")
    check(code == "200" and body == files["index.html"], f"GET /: {code} {body[:80]!r}")
    (code, ctype), body = get("/sub/", "GET /sub/")
    check(code == "200" and body == files["sub/index.html"], f"GET /sub/: {code} {body[:80]!r}")
    (code, ctype), body = get("/style.css", "GET /style.css")
    check(code == "200" and ctype == "text/css" and body == files["style.css"],
          f"GET /style.css: {code} {ctype} {body[:80]!r}")
    (code, ctype), body = get("/data.bin", "GET /data.bin")
    check(code == "200" and ctype == "application/text", f"GET /data.bin: {code} {ctype}")
    check(body == files["data.bin"],
          f"GET /data.bin: {len(body)} bytes, not the file's {len(files['data.bin'])}")
    print("curl: GET of 5 files: right status, type and bytes")

    (code, _), body = get("/missing.txt", "GET /missing.txt")
    check(code == "404" and body == b"The resource '/missing.txt' was not found.",
          f"GET /missing.txt: {code} {body!r}")
    (code, _), body = get("/index.html", "DELETE", ["-X", "DELETE"])
    check(code == "400" and body == b"Unknown HTTP-method", f"DELETE: {code} {body!r}")
    (code, _), body = get("/../secret", "GET /../secret", ["--path-as-is"])
    check(code == "400" and body == b"Illegal request-target", f"GET /../secret: {code} {body!r}")
    print("curl: 404, 400 for an unknown method and for '..'")

    # Keep-alive: curl makes one connection for both URLs (num_connects 0 for the second).
    paths = [os.path.join(work, f"keepalive{i}") for i in range(2)]
    spacing = ["--rate", "2/s"] if spaced else []
    out = curl(spacing + ["-w", "%{http_code} %{num_connects}\\n",
                          base + "/index.html", "-o", paths[0],
                          base + "/data.bin", "-o", paths[1]], "keep-alive")
    check(out.split("\n")[:2] == ["200 1", "200 0"],
          f"keep-alive: curl reports {out!r}, not '200 1' then '200 0' (one connection)")
    for path, name in zip(paths, ["index.html", "data.bin"]):
        with open(path, "rb") as f:
            check(f.read() == files[name], f"keep-alive: {name} differs")
    print("curl: two URLs on one kept-alive connection")

    # An HTTP/1.0 request gets an HTTP/1.0 response.
    body_path = os.path.join(work, "body10")
    out = curl(["-0", "-D", "-", "-o", body_path, base + "/index.html"], "HTTP/1.0")
    with open(body_path, "rb") as f:
        check(out.startswith("HTTP/1.0 200 OK\r\n") and f.read() == files["index.html"],
              f"HTTP/1.0: {out!r}")

    # HEAD: the headers of GET, no body.
    out = curl(["-I", base + "/data.bin"], "HEAD")
    check(re.match(r"HTTP/1\.1 200 ", out), f"HEAD: {out!r}")
    m = re.search(r"^content-length: *(\d+)", out, re.I | re.M)
    check(m and int(m.group(1)) == len(files["data.bin"]), f"HEAD: Content-Length: {out!r}")
    # HEAD then GET on one connection: a body sent after HEAD would be read as the GET's
    # status line.
    conn = HTTPConnection(HOST, server.port, timeout=20)
    try:
        conn.request("HEAD", "/style.css")
        res = conn.getresponse()
        check(res.status == 200 and res.read() == b"" and
              res.getheader("Content-Length") == str(len(files["style.css"])),
              f"HEAD /style.css: {res.status} {res.getheaders()}")
        if spaced:
            time.sleep(0.5)
        conn.request("GET", "/style.css")
        res = conn.getresponse()
        check(res.status == 200 and res.read() == files["style.css"],
              f"GET /style.css after HEAD: {res.status}")
    finally:
        conn.close()
    print("curl and http.client: HEAD has Content-Length and no body")

    # Several connections at once, one request each (--parallel-immediate: none waits to
    # reuse another's connection).
    urls = []
    for i in range(8):
        urls += [base + "/data.bin", "-o", os.path.join(work, f"parallel{i}")]
    out = curl(["-Z", "--parallel-immediate", "--parallel-max", "8",
                "-w", "%{http_code}\\n"] + urls, "parallel")
    check(out.split() == ["200"] * 8, f"parallel: {out!r}")
    for i in range(8):
        with open(os.path.join(work, f"parallel{i}"), "rb") as f:
            check(f.read() == files["data.bin"], f"parallel: transfer {i} differs")
    print("curl: 8 transfers of 1 MiB in parallel")

    out = beast_client(http_client, [HOST, str(server.port), "/index.html"], "http_client_async")
    check(out.startswith("HTTP/1.1 200 OK\r\n") and
          out.rstrip("\n").endswith(files["index.html"].decode().rstrip("\n")),
          f"http_client_async /index.html: {out!r}")
    out = beast_client(http_client, [HOST, str(server.port), "/missing.txt", "1.0"],
                       "http_client_async 1.0")
    check(out.startswith("HTTP/1.0 404 Not Found\r\n") and
          "The resource '/missing.txt' was not found." in out,
          f"http_client_async /missing.txt 1.0: {out!r}")
    print("http_client_async: GET over HTTP/1.1 and HTTP/1.0")
    server.check_running("after the HTTP checks")


# ---- WebSocket ----------------------------------------------------------------------------

async def websocket_session(uri, server_name, ssl_context, index):
    messages = ["hello", "", "ünïcødé ✓" * 100, bytes(range(256)),
                # Read by Beast in many reads, echoed in many frames (auto_fragment).
                random.Random(index).randbytes(3 * 1024 * 1024 + 5)]
    async with websockets.connect(uri, ssl=ssl_context,
                                  server_hostname="www.example.com" if ssl_context else None,
                                  max_size=None, open_timeout=20, close_timeout=20,
                                  ping_interval=None) as ws:
        server_header = ws.response_headers.get("Server", "")
        check(server_header.endswith(" " + server_name),
              f"websocket {index}: Server: {server_header!r}, not Beast's {server_name}")
        for message in messages:
            await ws.send(message)
            echo = await asyncio.wait_for(ws.recv(), 20)
            check(type(echo) is type(message) and echo == message,
                  f"websocket {index}: a {type(message).__name__} of {len(message)} came "
                  f"back as a {type(echo).__name__} of {len(echo)}")
        # Many at once, then their echoes in order.
        burst = [f"message {i}" for i in range(50)]
        for message in burst:
            await ws.send(message)
        for message in burst:
            echo = await asyncio.wait_for(ws.recv(), 20)
            check(echo == message, f"websocket {index}: {echo!r} for {message!r}")
    check(ws.close_code == 1000,
          f"websocket {index}: closed with code {ws.close_code} {ws.close_reason!r}, not 1000")


def websocket_checks(server, server_name, ssl_context=None, websocket_client=None):
    scheme = "wss" if ssl_context else "ws"
    uri = f"{scheme}://{HOST}:{server.port}/"

    async def sessions():
        await asyncio.wait_for(asyncio.gather(
            *(websocket_session(uri, server_name, ssl_context, i) for i in range(4))), 60)
    asyncio.run(sessions())
    print(f"websockets: 4 connections at once ({scheme}), each 5 messages up to 3 MiB "
          "and 50 at once echoed, closed with 1000")

    if websocket_client:
        text = "Hello from Beast's websocket_client_async"
        out = beast_client(websocket_client, [HOST, str(server.port), text],
                           "websocket_client_async")
        check(out == text + "\n", f"websocket_client_async: {out!r}")
        print("websocket_client_async: echoed and closed")
    server.check_running("after the WebSocket checks")


def certificate_pem(header):
    """The certificate in Beast's example/common/server_certificate.hpp (a C++ string)."""
    with open(header) as f:
        text = f.read()
    m = re.search(r"std::string const cert =\s*((?:\"[^\"]*\"\s*)+);", text)
    check(m, f"{header}: no certificate found")
    return "".join(re.findall(r"\"([^\"]*)\"", m.group(1))).replace("\\n", "\n")


# ---- scenarios ----------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=["http", "websocket", "websocket_ssl", "advanced"])
    parser.add_argument("--server", required=True)
    parser.add_argument("--work-dir", required=True)
    parser.add_argument("--curl", default="curl")
    parser.add_argument("--http-client")
    parser.add_argument("--websocket-client")
    parser.add_argument("--certificate")
    global ARGS
    ARGS = parser.parse_args()
    threading.Thread(target=watchdog, daemon=True).start()
    work = ARGS.work_dir
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    s = ARGS.scenario
    server = None
    try:
        if s == "http" or s == "advanced":
            doc_root, files = make_doc_root(work)
            server = Server(ARGS.server, [doc_root, str(SERVER_THREADS)], work)
        else:
            server = Server(ARGS.server, [str(SERVER_THREADS)], work)
        server.start()
        if s == "http":
            http_checks(server, files, ARGS.http_client)
        elif s == "websocket":
            websocket_checks(server, "websocket-server-async",
                             websocket_client=ARGS.websocket_client)
        elif s == "websocket_ssl":
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # verifies, host name too
            context.load_verify_locations(cadata=certificate_pem(ARGS.certificate))
            websocket_checks(server, "websocket-server-async-ssl", ssl_context=context)
        elif s == "advanced":
            http_checks(server, files, ARGS.http_client, spaced=True)
            websocket_checks(server, "advanced-server", websocket_client=ARGS.websocket_client)
        server.check_quiet()
        if s == "advanced":
            # Its signal_set stops the io_context; the sockets go with it.
            server.proc.send_signal(signal.SIGTERM)
            try:
                code = server.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                raise Failure("advanced_server: still running 20 s after SIGTERM")
            check(code == 0, f"advanced_server: exit code {code} after SIGTERM; stderr:\n"
                  f"{server.stderr_text()}")
            server.check_quiet()
            print("advanced_server: stopped by SIGTERM, exit code 0")
    except Exception as e:  # a client's own (a refused connection, a TLS error) too
        print(f"FAIL: {e}" if isinstance(e, Failure) else
              f"FAIL: {type(e).__name__}: {e}\n{traceback.format_exc()}", flush=True)
        proc = server and server.proc
        if proc and proc.poll() is not None and proc.returncode != 0:
            print(f"the server exited with {proc.returncode}; stderr:\n{server.stderr_text()}",
                  flush=True)
        return 1
    finally:
        kill_children()
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
