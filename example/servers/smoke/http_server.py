# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# The http scenario: http_server's files through curl and wrk, and the files outside its
# document root; then the checks of http_protocol.py and http_limits.py, and the hostile
# clients. Its document root (make_doc_root) is the curl_multi scenario's too.

from http.client import HTTPConnection
import os
import random
import re
import shutil
import time

from .checks import check
from .clients import bad_ports, from_address, IDLE_TIMEOUT, read_until_closed, tcp_connection
from .hostile import fair_share, idle_connections, out_of_descriptors
from .http_limits import (big_request_bodies, bounded_linger, client_limits, connection_limit,
                          many_fields, slow_download, slow_header, slow_requests)
from .http_protocol import (bad_requests, byte_ranges, expect_continue, GET_CLOSE, head_errors,
                            request_targets, rfc_details)
from .process import run, start_server


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
    idle_connections(opt, ["0", root], http_active, tcp_connection)


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
