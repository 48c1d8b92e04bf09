# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# What http_server answers to HTTP/1.1 requests (RFC 9110, RFC 9112), each checked on the
# wire: byte ranges, malformed and over-limit requests, HEAD, request targets, Expect:
# 100-continue and other details; X-Content-Type-Options: nosniff on every response.

from http.client import HTTPConnection
import os
import re
import socket

from .checks import check, Failure
from .clients import read_until_closed


def get(port, path, headers={}, method="GET"):
    """One request on a new connection (Python's http.client): the response, body read."""
    c = HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        c.request(method, path, headers=headers)
        r = c.getresponse()
        r.body = r.read()
        return r
    finally:
        c.close()


def check_nosniff(headers, what):
    """Every response says X-Content-Type-Options: nosniff: a browser must not take a text
    file (or the path echoed in a 404) for HTML and run it."""
    check(re.search(rb"(?im)^x-content-type-options: *nosniff\r?$", headers),
          f"{what}: no X-Content-Type-Options: nosniff")


def byte_ranges(port, files):
    """Range requests: one byte range is answered 206 with Content-Range and those bytes
    (first-last, first-, -suffix; a last beyond the end is the end); a range that starts
    beyond the end is 416 with Content-Range: bytes */size; several ranges, a header that
    is not a valid range, or one with If-Range (the server has no validators to compare) are
    ignored (200, the whole file); HEAD gives the 206's headers."""
    data = files["medium.bin"]
    n = len(data)

    def check_range(path, spec, status, content_range, body=None):
        r = get(port, path, {"Range": f"bytes={spec}"})
        what = f"{path} Range: bytes={spec}"
        check(r.status == status, f"{what}: status {r.status}, not {status}")
        check(r.getheader("Content-Range") == content_range,
              f"{what}: Content-Range {r.getheader('Content-Range')!r}, not {content_range!r}")
        check(body is None or r.body == body, f"{what}: {len(r.body)} bytes, not the range's")
        check_nosniff(bytes(r.headers), what)

    for spec, first, last in (("0-99", 0, 99), ("299990-", n - 10, n - 1), ("-500", n - 500, n - 1),
                              ("100-99999999", 100, n - 1), ("-999999", 0, n - 1), ("7-7", 7, 7)):
        check_range("/medium.bin", spec, 206, f"bytes {first}-{last}/{n}", data[first:last + 1])
    for path, spec in (("/medium.bin", "300000-"), ("/medium.bin", "400000-400100"),
                       ("/medium.bin", "-0"), ("/empty.txt", "0-")):
        check_range(path, spec, 416, f"bytes */{len(files[path[1:]])}")
    for header in ("bytes=0-1,5-6", "bytes=abc", "bytes=5-2", "lines=1-2"):
        r = get(port, "/medium.bin", {"Range": header})
        check(r.status == 200 and r.body == data, f"Range: {header}: {r.status}, not the whole file")
        check(r.getheader("Accept-Ranges") == "bytes", "no Accept-Ranges: bytes")
    r = get(port, "/medium.bin", {"Range": "bytes=0-99", "If-Range": '"an-etag"'})
    check(r.status == 200 and r.body == data, f"Range with If-Range: {r.status}, not the whole file")
    r = get(port, "/medium.bin", {"Range": "bytes=10-19"}, method="HEAD")
    check(r.status == 206 and r.getheader("Content-Length") == "10" and not r.body
          and r.getheader("Content-Range") == f"bytes 10-19/{n}", f"HEAD with Range: {r.status}")
    r = get(port, "/hello.txt")
    check_nosniff(bytes(r.headers), "200 response")
    r = get(port, "/<script>alert(1)</script>.html")
    check(r.status == 404, f"missing file: {r.status}")
    check_nosniff(bytes(r.headers), "404 response")
    print("byte ranges: 206, 416 and ignored ranges as expected; nosniff on every response")


def raw_request(port, request, timeout=5):
    """Sends the bytes `request` on a new connection and reads until the server closes it:
    returns the status of the response (None if there was none) and the response."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        try:
            s.sendall(request)
        except OSError:
            pass  # closed before it took everything: what it answered is still to be read
        response = read_until_closed(s, f"request {request[:40]!r}...", timeout)
    m = re.match(rb"HTTP/1\.[01] (\d{3}) ", response)
    return (int(m.group(1)) if m else None), response


def chunked(size, piece=65536):
    """A chunked body of `size` bytes of 'a', without its last chunk."""
    body = b""
    while size > 0:
        n = min(size, piece)
        body += b"%x\r\n" % n + b"a" * n + b"\r\n"
        size -= n
    return body


GET_CLOSE = b"GET /hello.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"

BAD_REQUESTS = [  # what, request (Connection: close, so that a server taking it closes), status
    ("a malformed request line", b"HELLO\r\n\r\n", 400),
    ("a malformed header", GET_CLOSE + b"no colon here\r\n\r\n", 400),
    ("a bad Content-Length", GET_CLOSE + b"Content-Length: 12x\r\n\r\n", 400),
    ("two Content-Lengths", GET_CLOSE + b"Content-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef", 400),
    ("Content-Length and Transfer-Encoding", GET_CLOSE +
     b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
    ("Transfer-Encoding and Content-Length", GET_CLOSE +
     b"Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n", 400),
    ("a bad chunk", GET_CLOSE + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
    ("64 KiB of headers", GET_CLOSE + b"X-Filler: " + b"a" * 65536 + b"\r\n\r\n", 431),
    ("a 1 GB body announced", b"POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\n", 413),
    ("a GET with a 100 kB body", GET_CLOSE + b"Content-Length: 100000\r\n\r\n" + b"a" * 100000, 413),
    ("a GET with a 100 kB chunked body", GET_CLOSE + b"Transfer-Encoding: chunked\r\n\r\n" +
     chunked(100000) + b"0\r\n\r\n", 413),
    # RFC 9112, section 6.3: only a body whose final coding is chunked can be framed, and
    # Transfer-Encoding with Content-Length is a smuggling attempt, in either order.
    *((f"Transfer-Encoding: {coding.decode()}", GET_CLOSE + b"Transfer-Encoding: %s\r\n\r\n" % coding +
       b"GET /hello.txt HTTP/1.1\r\nHost: x\r\n\r\n", 400)
      for coding in (b"gzip", b"identity", b"chunked, gzip", b'"chunked"')),
    ("Transfer-Encoding: gzip and Content-Length", GET_CLOSE +
     b"Transfer-Encoding: gzip\r\nContent-Length: 5\r\n\r\nabcde", 400),
    ("Content-Length and Transfer-Encoding: gzip", GET_CLOSE +
     b"Content-Length: 5\r\nTransfer-Encoding: gzip\r\n\r\nabcde", 400),
    # Section 6.1: HTTP/1.0 has no Transfer-Encoding, so its framing there is faulty.
    ("Transfer-Encoding in HTTP/1.0", b"GET /hello.txt HTTP/1.0\r\nConnection: keep-alive\r\n"
     b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
    ("1,200 empty fields", GET_CLOSE + b"X:\r\n" * 1200 + b"\r\n", 431),
    ("101 fields", GET_CLOSE + b"".join(b"X-%d: a\r\n" % i for i in range(101)) + b"\r\n", 431),
    *((f"{n} KiB of trailers", GET_CLOSE + b"Transfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\n" +
       b"X-Trailer: " + b"a" * (n * 1024) + b"\r\n\r\n", 431) for n in (9, 20)),
    ("no Host", b"GET /hello.txt HTTP/1.1\r\nConnection: close\r\n\r\n", 400),
    ("two Hosts", GET_CLOSE + b"Host: y\r\n\r\n", 400),
    # RFC 9112, section 3: a target too long is 414, not 431; section 3.2: a Host value
    # that is not uri-host [":" port] is 400; RFC 3986: no fragment, raw space, control
    # byte or non-ASCII byte in a target.
    ("a 9 KiB target", b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 414),
    *((f"Host: {host!r}", b"GET /hello.txt HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % host, 400)
      for host in (b"a b/c", b"a/b", b"x:8o", b"[::1", b"[::1]x", b"a@b")),
    *((f"target {target!r}", b"GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % target, 400)
      for target in (b"/hello.txt#x", b"/hello\xff.txt", b"/hello\x01.txt", b"/hello\x7f.txt")),
    ("an invalid percent-escape", b"GET /hello%zz.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 400),
    ("a percent-escaped NUL", b"GET /hello.txt%00 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 400),
]


def bad_requests(server, port, files):
    """Each request the server cannot take gets its status before the connection closes:
    400 for a malformed one, 431 for headers over the limit, 413 for a body over the limit
    (GET and HEAD need none), 400 for conflicting Content-Length and Transfer-Encoding. A
    small body is read and the request served. Many bad requests leave a few log lines."""
    for what, request, expected in BAD_REQUESTS:
        status, response = raw_request(port, request)
        check(status == expected, f"{what}: status {status}, not {expected}")
        check_nosniff(response, what)
    status, response = raw_request(port, GET_CLOSE + b"Content-Length: 100\r\n\r\n" + b"a" * 100)
    check(status == 200 and response.endswith(files["hello.txt"]), f"a GET with a small body: {status}")
    log_before = len(server.stderr_text().splitlines())
    for i in range(200):
        raw_request(port, BAD_REQUESTS[i % len(BAD_REQUESTS)][1])
    log = server.stderr_text()
    print(f"bad requests: statuses as expected; {len(log.splitlines())} line(s) logged:\n{log}")
    check(len(log.splitlines()) - log_before <= 5, "server: floods its log with bad requests")


def responses(data, bodies):
    """Splits what a server sent on one connection into (status, Content-Length, body),
    the i-th response having a body only where `bodies[i]` (not for HEAD): a body that
    should not be there misframes what follows."""
    out = []
    for has_body in bodies:
        head, sep, data = data.partition(b"\r\n\r\n")
        m = re.match(rb"HTTP/1\.1 (\d{3}) ", head)
        length = re.search(rb"(?im)^content-length: *(\d+)\r?$", head)
        check(sep and m and length, f"response {len(out)}: not a response: {head[:60]!r}")
        n = int(length.group(1)) if has_body else 0
        out.append((int(m.group(1)), int(length.group(1)), data[:n]))
        data = data[n:]
    check(not data, f"more than {len(bodies)} responses: {data[:60]!r}")
    return out


def head_errors(port, files):
    """HEAD gets the headers GET would (Content-Length included) and no body, errors too:
    on a kept-alive connection the GET that follows each HEAD is answered intact."""
    heads = [("/no/such/file", b"", 404), ("/hello.txt", b"Range: bytes=99-\r\n", 416),
             ("/../secret.txt", b"", 400), ("/hello.txt", b"", 200)]
    request = b"".join(b"HEAD %s HTTP/1.1\r\nHost: x\r\n%s\r\n" % (path.encode(), extra)
                       + b"GET /hello.txt HTTP/1.1\r\nHost: x\r\n\r\n" for path, extra, _ in heads)
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(request)
        s.shutdown(socket.SHUT_WR)
        got = responses(read_until_closed(s, "HEAD then GET", 5), [False, True] * len(heads))
    for i, (path, _, expected) in enumerate(heads):
        status, length, _ = got[2 * i]
        check(status == expected and length > 0, f"HEAD {path}: {status}, Content-Length {length}")
        status, _, body = got[2 * i + 1]
        check(status == 200 and body == files["hello.txt"], f"GET after HEAD {path}: {status} {body!r}")
    print("HEAD: headers without a body, errors too")


def request_targets(port, root, files):
    """Targets in absolute form are served by their path; percent-escapes are decoded
    before the checks, so that an escaped '..', '/' or '.' leaves the doc root no more
    than a plain one; HTTP/1.0 needs no Host."""
    with open(os.path.join(root, "my file.txt"), "wb") as f:
        f.write(files["hello.txt"])
    for target, expected in ((f"http://127.0.0.1:{port}/hello.txt", 200), ("HTTP://x/hello.txt", 200),
                             ("/my%20file.txt", 200), ("/%68ello.txt", 200), ("/sub%2Fdir/nested.txt", 200),
                             ("/%2e%2e/secret.txt", 400), ("/sub%2F..%2F..%2Fsecret.txt", 400),
                             ("/sub/dir%2F%2E%2E%2F%2E%2E%2F..%2Fsecret.txt", 400),
                             ("/%2ehidden", 404), ("/%2Egit/config", 404), ("/sub/%2eenv", 404)):
        status, response = raw_request(port, b"GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                                       % target.encode())
        check(status == expected, f"GET {target}: {status}, not {expected}")
    status, response = raw_request(port, b"GET /hello.txt HTTP/1.0\r\n\r\n")
    check(status == 200 and response.endswith(files["hello.txt"]), f"HTTP/1.0 without Host: {status}")
    print("request targets: absolute form, percent-escapes and Host as expected")


def answer_within(s, seconds, what):
    """What the server sends on `s` up to the end of a response header, which must come
    within `seconds`."""
    s.settimeout(seconds)
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = s.recv(65536)
            check(chunk, f"{what}: closed after {data[:40]!r}")
            data += chunk
    except socket.timeout:
        raise Failure(f"{what}: no answer within {seconds}s, got {data[:40]!r}")
    return data


def expect_continue(port, files):
    """RFC 9110, section 10.1.1: a client that sends "Expect: 100-continue" waits for the
    server before sending its body. A request whose final status the header decides (405,
    404, 413) gets it at once, the connection closing; one the server will take gets
    "100 Continue", then its answer once the body is sent, the connection kept. An
    unknown expectation is 417; HTTP/1.0 has no Expect (the field is ignored)."""
    head = b"%s %s HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: %d\r\n\r\n"
    for method, path, length, expected in ((b"PUT", b"/upload.bin", 8000, 405),
                                           (b"POST", b"/hello.txt", 10, 405),
                                           (b"GET", b"/nope", 10, 404), (b"GET", b"/hello.txt", 9000, 413)):
        what = f"{method.decode()} {path.decode()} with Expect: 100-continue"
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(head % (method, path, length))
            answer = answer_within(s, 1, what)
            check(answer.startswith(b"HTTP/1.1 %d " % expected), f"{what}: {answer[:40]!r}")
            check(re.search(rb"(?im)^connection: *close\r?$", answer), f"{what}: no Connection: close")
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(head % (b"GET", b"/hello.txt", 10))
        answer = answer_within(s, 1, "GET /hello.txt with Expect: 100-continue")
        check(answer == b"HTTP/1.1 100 Continue\r\n\r\n", f"GET with Expect: answered {answer[:40]!r}")
        s.sendall(b"0123456789" + b"GET /hello.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        s.shutdown(socket.SHUT_WR)
        got = responses(read_until_closed(s, "the body after 100 Continue", 5), [True, True])
    check([(status, body) for status, _, body in got] == [(200, files["hello.txt"])] * 2,
          f"the body after 100 Continue: {got}")
    status, _ = raw_request(port, GET_CLOSE + b"Expect: something-else\r\n\r\n")
    check(status == 417, f"an unknown expectation: {status}, not 417")
    status, response = raw_request(port, b"GET /hello.txt HTTP/1.0\r\nExpect: 100-continue\r\n"
                                         b"Content-Length: 3\r\n\r\nabc")
    check(status == 200 and b" 100 " not in response.split(b"\r\n")[0] and
          response.endswith(files["hello.txt"]), f"HTTP/1.0 with Expect: {response[:40]!r}")
    print("Expect: 100-continue: errors at once, 100 Continue for a request taken, 417, HTTP/1.0")


def rfc_details(port, files):
    """Valid Host values are taken (a name, an address with a port, an IP literal, empty);
    a suffix range of an empty file is ignored (RFC 9110, section 14.1.1: 200, not 416);
    If-Match without a current entity tag fails (412; the server sends none), "*" holds,
    and a missing file stays 404 (section 13.2.1)."""
    for host in (b"x", b"127.0.0.1:8080", b"[::1]:80", b"[::1]", b"", b"a-b.c_d~e%41:1"):
        status, _ = raw_request(port, b"GET /hello.txt HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % host)
        check(status == 200, f"Host: {host!r}: {status}, not 200")
    r = get(port, "/empty.txt", {"Range": "bytes=-1"})
    check(r.status == 200 and r.body == b"", f"Range: bytes=-1 of an empty file: {r.status}, not 200")
    for path, value, expected in (("/hello.txt", '"nope"', 412), ("/hello.txt", '"a", "b"', 412),
                                  ("/hello.txt", "*", 200), ("/nope", '"nope"', 404), ("/nope", "*", 404)):
        for method in ("GET", "HEAD"):
            r = get(port, path, {"If-Match": value, "Range": "bytes=0-1"}, method=method)
            expected_here = 206 if expected == 200 else expected
            check(r.status == expected_here, f"{method} {path} If-Match: {value}: {r.status},"
                                             f" not {expected_here}")
    print("RFC details: Host values, a suffix range of an empty file, If-Match")
