# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# The curl_multi scenario: curl_multi_client downloads http_server's files and must save
# them byte for byte, then many files with few descriptors, awkward names, no descriptors at
# all, and a download limit against an endless body.

import os
import re
import shutil
import socket
import threading
import time

from .checks import check, Failure
from .http_protocol import chunked
from .http_server import make_doc_root
from .process import run, start_server


def curl_multi(opt):
    """The libcurl multi-socket example downloads every file of the HTTP example at once
    (plus one missing file) and must save them byte for byte."""
    root = os.path.join(opt.work_dir, "www")
    files = make_doc_root(root)
    out_dir = os.path.join(opt.work_dir, "downloads")
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    server, port = start_server(opt, "0", root)
    base = f"http://127.0.0.1:{port}"
    # index.html comes through "localhost" (tried as ::1 first, then 127.0.0.1, where the
    # server listens); every other file through 127.0.0.1.
    urls = {name: f"{base}/{name}" for name in files}
    urls["index.html"] = f"http://localhost:{port}/"
    missing = f"{base}/missing.txt"
    r = run([opt.bin["client"], out_dir] + list(urls.values()) + [missing], timeout=60,
            launch=opt.launch)
    print(r.stdout.decode(), r.stderr.decode(), sep="")
    check(r.returncode == 0, "client failed")
    results = download_results(r, list(urls.values()) + [missing])
    for name, data in files.items():
        check(results.get(urls[name]) == ("200", str(len(data))), f"{urls[name]}: {results.get(urls[name])}")
        with open(os.path.join(out_dir, os.path.basename(name)), "rb") as f:
            check(f.read() == data, f"/{name}: downloaded content differs")
    check(results.get(missing, ("",))[0] == "404", "missing file not reported as 404")
    download_limit(opt, port, files, out_dir)
    many_downloads(opt, port, root)
    awkward_names(opt, port, files, root)
    no_descriptors_left(opt, port)
    server.stop()


def download_results(r, urls):
    """{url: (status or "failed", bytes or reason)} from curl_multi_client's output `r` (a
    CompletedProcess), which must have one line for each of `urls` and no other."""
    results = {}
    for line in r.stdout.decode().splitlines():
        status, url, rest = line.split(" ", 2)
        url = url.rstrip(":")
        check(url not in results, f"{url}: reported twice")
        results[url] = (status, rest)
    missed = [url for url in urls if url not in results]
    check(not missed, f"no result for {len(missed)} of {len(urls)} URL(s) (exit code"
                      f" {r.returncode}, stderr: {r.stderr.decode().strip()!r})")
    check(len(results) == len(urls),
          f"results for URLs not asked for: {results.keys() - set(urls)}")
    return results


def fresh_dir(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


CLIENT_DESCRIPTOR_LIMIT = 64  # for curl_multi_client, with more URLs than that


def many_downloads(opt, port, root):
    """60 files downloaded at once with at most 64 descriptors: the client must bound what
    it has open, each output file only while its transfer runs."""
    if opt.launch.no_descriptor_limit:
        print(f"many downloads: skipped {opt.launch.no_descriptor_limit}")
        return
    files = {f"many/{i}.txt": f"file {i}\n".encode() * (i + 1) for i in range(60)}
    for name, data in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
        with open(os.path.join(root, name), "wb") as f:
            f.write(data)
    out_dir = fresh_dir(os.path.join(opt.work_dir, "downloads_many"))
    urls = {name: f"http://127.0.0.1:{port}/{name}" for name in files}
    start = time.monotonic()
    r = run([opt.bin["client"], out_dir] + list(urls.values()), timeout=30, launch=opt.launch,
            nofile=CLIENT_DESCRIPTOR_LIMIT)
    print(f"many downloads: {len(urls)} files with {CLIENT_DESCRIPTOR_LIMIT} descriptors,"
          f" exit code {r.returncode} after {time.monotonic() - start:.1f}s")
    results = download_results(r, urls.values())
    for name, data in files.items():
        check(results[urls[name]] == ("200", str(len(data))),
              f"{urls[name]}: {results[urls[name]]}")
        with open(os.path.join(out_dir, os.path.basename(name)), "rb") as f:
            check(f.read() == data, f"/{name}: downloaded content differs")
    check(r.returncode == 0, f"client: exit code {r.returncode}")


def awkward_names(opt, port, files, root):
    """URLs whose last segment is "..", "." or empty, two with the same last segment, one
    that differs from those only in case, one with ':': no URL may end the run, each gets
    its line and a file of its own, named in command-line order (".1", ".2", ... for a name
    taken already, in any case), none overwritten."""
    another = b"another hello.txt\n"
    os.makedirs(os.path.join(root, "dup"), exist_ok=True)
    with open(os.path.join(root, "dup", "hello.txt"), "wb") as f:
        f.write(another)
    out_dir = fresh_dir(os.path.join(opt.work_dir, "downloads_names"))
    base = f"http://127.0.0.1:{port}"
    # (URL, file it is saved as, content expected, or None for the server's answer to a
    # directory, whatever its status)
    expected = [(f"{base}/hello.txt", "hello.txt", files["hello.txt"]),
                (f"{base}/dup/hello.txt", "hello.txt.1", another),
                (f"{base}/", "index.html", files["index.html"]),
                (f"{base}/sub/dir/..", "index.html.1", None),
                (f"{base}/sub/dir/.", "index.html.2", None),
                (f"{base}/sub/dir/", "index.html.3", None),
                # One file where names differ only in case (Windows, macOS); no stream or
                # directory named by ':' or '\\' on Windows.
                (f"{base}/HELLO.txt", "HELLO.txt.2", None),
                (f"{base}/a:b%5Cc.txt", "a_b%5Cc.txt", None)]
    r = run([opt.bin["client"], out_dir] + [url for url, _, _ in expected], timeout=30,
            launch=opt.launch)
    print(r.stdout.decode(), r.stderr.decode(), sep="")
    results = download_results(r, [url for url, _, _ in expected])
    for url, name, data in expected:
        status, size = results[url]
        check(status == "200" if data is not None else status != "failed",
              f"{url}: {results[url]}")
        with open(os.path.join(out_dir, name), "rb") as f:
            saved = f.read()
        check(saved == data if data is not None else str(len(saved)) == size,
              f"{url}: {name} holds something else (overwritten?)")
    check(sorted(os.listdir(out_dir)) == sorted(name for _, name, _ in expected),
          f"files saved: {sorted(os.listdir(out_dir))}")
    check(r.returncode == 0, f"client: exit code {r.returncode}")


def no_descriptors_left(opt, port):
    """The client with a descriptor limit from 4 (no reactor can be created: for the notify
    build its port, the first thing created) up to where sockets and files open: every URL
    must get its line, failed or not, and the client must exit 1 (0 if none failed), never
    by a signal or std::terminate (an exception through libcurl's C callbacks)."""
    if opt.launch.no_descriptor_limit:
        print(f"no descriptors left: skipped {opt.launch.no_descriptor_limit}")
        return
    if opt.sanitized:
        print("no descriptors left: skipped in a sanitized build (the sanitizer runtime needs"
              " descriptors of its own)")
        return
    out_dir = fresh_dir(os.path.join(opt.work_dir, "downloads_no_descriptors"))
    urls = [f"http://127.0.0.1:{port}/{name}" for name in ("hello.txt", "small.bin", "medium.bin")]
    problems = []
    for limit in range(4, 17):
        r = run([opt.bin["client"], out_dir] + urls, timeout=15, launch=opt.launch, nofile=limit)
        try:
            results = download_results(r, urls)
            failed = [reason for status, reason in results.values() if status == "failed"]
            print(f"no descriptors left: limit {limit}: {len(failed)} of {len(urls)} failed"
                  f"{', first: ' + failed[0] if failed else ''}")
            check(r.returncode == (1 if failed else 0), f"exit code {r.returncode}")
            check(b"terminate" not in r.stderr, f"stderr: {r.stderr.decode().strip()!r}")
            check(limit > 4 or (len(failed) == len(urls) and
                                all(re.search("(?i)too many open files", f) for f in failed)),
                  f"not every URL failed for want of descriptors: {results}")
        except Failure as e:
            print(f"no descriptors left: limit {limit}: FAILED: {e}")
            problems.append(str(limit))
    check(not problems, f"with a descriptor limit of {', '.join(problems)} (see above)")


DOWNLOAD_LIMIT = 1 << 20  # bytes, for curl_multi_client's BOOST_ASIO_NOTIFY_EXAMPLE_MAX_DOWNLOAD
ENDLESS_MOST = 64 << 20  # what the endless body sends before it stalls (the disk of a test)


def endless_body_server():
    """A Python HTTP server on a thread that answers every request 200 with a chunked body
    that never ends: ENDLESS_MOST bytes of chunks as fast as the client takes them, then
    nothing, the connection held open, until stop() (the function it returns)."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    stopping = threading.Event()

    def feed(conn):
        with conn:
            conn.settimeout(2)
            request = b""
            try:
                while b"\r\n\r\n" not in request:
                    chunk = conn.recv(4096)
                    if not chunk:
                        return
                    request += chunk
                conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
                piece = chunked(65536)
                for _ in range(ENDLESS_MOST // 65536):
                    if stopping.is_set():
                        return
                    conn.sendall(piece)
                stopping.wait()  # never the last chunk
            except OSError:
                pass  # the client has gone

    def serve():
        while not stopping.is_set():
            try:
                conn, _ = listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            threading.Thread(target=feed, args=(conn,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()

    def stop():
        stopping.set()
        listener.close()
    return listener.getsockname()[1], stop


def download_limit(opt, port, files, out_dir):
    """With BOOST_ASIO_NOTIFY_EXAMPLE_MAX_DOWNLOAD at 1 MiB, the client downloads a body that
    never ends (a Python server's), a 3 MiB file and a 300 kB one: it must stop the first
    at the limit and refuse the second, each with an error that names the limit, save the
    third, and exit within seconds, having written no more than the limit, with its memory
    bounded (the body goes to disk, so memory was never the risk: time and disk were)."""
    endless_port, stop = endless_body_server()
    try:
        endless = f"http://127.0.0.1:{endless_port}/endless.bin"
        large = f"http://127.0.0.1:{port}/large.bin"
        medium = f"http://127.0.0.1:{port}/medium.bin"
        start = time.monotonic()
        r = run([opt.bin["client"], out_dir, endless, large, medium], timeout=15, launch=opt.launch,
                env={"BOOST_ASIO_NOTIFY_EXAMPLE_MAX_DOWNLOAD": str(DOWNLOAD_LIMIT)})
        elapsed = time.monotonic() - start
    finally:
        stop()
    out = r.stdout.decode()
    peak = opt.launch.clients_peak_mib()  # of any client so far
    print(out, r.stderr.decode(), f"download limit: exit code {r.returncode} after {elapsed:.1f}s,"
          " peak resident memory of any client so far " +
          ("unknown (not kept on Windows)" if peak is None else f"{peak:.0f} MiB"), sep="")
    check(r.returncode != 0, "client: exit code 0 despite downloads over the limit")
    for url in (endless, large):
        check(re.search(rf"^failed {re.escape(url)}: larger than the download limit of"
                        rf" {DOWNLOAD_LIMIT} bytes", out, re.M), f"{url}: not stopped at the limit")
    check(f"200 {medium} {len(files['medium.bin'])}\n" in out, f"{medium}: not downloaded")
    saved = os.path.getsize(os.path.join(out_dir, "endless.bin"))
    check(saved <= DOWNLOAD_LIMIT, f"endless body: {saved} bytes saved, over the limit")
    check(elapsed < 5, f"client: took {elapsed:.1f}s to stop at the limit")
    check(peak is None or peak < 256, f"client: {peak:.0f} MiB resident")
