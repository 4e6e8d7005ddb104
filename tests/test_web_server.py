"""The real production server: ``lessonsearch serve`` (gunicorn) in a subprocess, over HTTP.

Few and slower than the test-client tests: they check what only a real server shows, that
the workers start, answer, pick up a rebuilt index without a restart, are replaced on
``kill -HUP`` and stop on SIGTERM without failing a request on its way.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from web_fixtures import build, copy_course

READY_SECONDS = 30
STOP_SECONDS = 15
MASTERS: dict[str, int] = {}
"""The gunicorn master's pid of each running ``server``, by base URL."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fetch(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, dict(error.headers), error.read()


def fetch_json(url: str) -> tuple[int, dict]:
    status, _, body = fetch(url)
    return status, json.loads(body)


def until_served(base: str, version: str, times: int = 6) -> None:
    """Until /healthz has named ``version`` ``times`` times in a row (for a minute at most),
    so that every worker of two serves it in all likelihood: each opens and checks a new
    version in the background, answering from the one it serves until then."""
    deadline = time.monotonic() + 60
    in_a_row = 0
    while in_a_row < times and time.monotonic() < deadline:
        status, health = fetch_json(base + "/healthz")
        assert status == 200
        in_a_row = in_a_row + 1 if health["version"] == version else 0
        if not in_a_row:
            time.sleep(0.02)


@contextmanager
def server(index_dir: Path, tmp_path: Path, *extra: str) -> Iterator[str]:
    """``lessonsearch serve`` on a free loopback port; yields its base URL, always stops it."""
    port = free_port()
    log = (tmp_path / f"server-{port}.log").open("w")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("LESSONSEARCH_INDEX", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "lessonsearch.cli", "serve", "--index", str(index_dir),
         "--host", "127.0.0.1", "--port", str(port), *extra],
        stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path, env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + READY_SECONDS
        while True:
            if process.poll() is not None:
                pytest.fail(f"the server exited with {process.returncode}:\n{read(log)}")
            try:
                fetch(base + "/healthz")
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"no answer within {READY_SECONDS} s:\n{read(log)}")
                time.sleep(0.1)
        MASTERS[base] = process.pid
        yield base
    finally:
        MASTERS.pop(base, None)
        process.terminate()
        try:
            process.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def read(log) -> str:
    log.flush()
    return Path(log.name).read_text()


@pytest.fixture
def course(tmp_path: Path) -> Path:
    return copy_course(tmp_path / "course")


def test_the_production_server_answers_pages_and_api(course: Path, tmp_path: Path):
    index_dir = tmp_path / "index"
    version = build(course, index_dir)
    with server(index_dir, tmp_path, "--workers", "2", "--threads", "2") as base:
        status, health = fetch_json(base + "/healthz")
        assert status == 200 and health["version"] == version

        status, body = fetch_json(base + "/api/search?q=token&limit=3")
        assert status == 200 and body["total"] > 0 and len(body["results"]) == 3

        status, headers, html = fetch(base + "/search?q=token")
        assert status == 200 and b"Tokens and vocabularies" in html
        assert "script-src 'self'" in headers["Content-Security-Policy"]

        status, headers, _ = fetch(base + "/api/terms", {"Origin": "https://other.example"})
        assert headers["Access-Control-Allow-Origin"] == "*"
        status, _, _ = fetch(base + "/api/terms", {"If-None-Match": headers["ETag"]})
        assert status == 304

        status, error = fetch_json(base + "/api/search?q=")
        assert status == 400 and list(error) == ["error"]
        assert headers["Server"].startswith("gunicorn")


def test_a_rebuilt_index_is_served_without_a_restart(course: Path, tmp_path: Path):
    index_dir = tmp_path / "index"
    first = build(course, index_dir)
    with server(index_dir, tmp_path, "--workers", "2") as base:
        assert fetch_json(base + "/healthz")[1]["version"] == first
        assert fetch_json(base + "/api/search?q=zephyrology")[1]["total"] == 0

        (course / "lessons" / "05-winds.md").write_text(
            "---\ntitle: Winds\nslug: winds\n---\n\n## Zephyrs\n\nZephyrology studies winds.\n",
            encoding="utf-8")
        second = build(course, index_dir)
        until_served(base, second)
        # A worker asked nothing since the build answers once more from the version before,
        # while it checks the new one in the background: every answer is one whole version,
        # and within a minute both workers answer every request from the new one.
        deadline, in_a_row = time.monotonic() + 60, 0
        while in_a_row < 12 and time.monotonic() < deadline:
            version = fetch_json(base + "/healthz")[1]["version"]
            found = fetch_json(base + "/api/search?q=zephyrology")[1]
            lessons = [hit["lesson"] for hit in found["results"]]
            assert version in (first, second) and lessons in ([], ["winds"])
            in_a_row = in_a_row + 1 if (version, lessons) == (second, ["winds"]) else 0
        assert in_a_row == 12


def test_the_server_starts_without_an_index_and_serves_the_first_build(course: Path,
                                                                        tmp_path: Path):
    index_dir = tmp_path / "index"
    with server(index_dir, tmp_path, "--workers", "1") as base:
        status, body = fetch_json(base + "/healthz")
        assert status == 503
        assert "lessonsearch index" in body["error"]
        status, _, html = fetch(base + "/")
        assert status == 503 and b"Search is not available yet." in html

        version = build(course, index_dir)
        status, body = fetch_json(base + "/healthz")
        assert status == 200 and body["version"] == version


def _children(pid: int) -> list[int]:
    return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _workers(master: int, ready) -> list[int]:
    """The master's workers once ``ready(workers)`` holds (gunicorn forks them one by one)."""
    deadline = time.monotonic() + READY_SECONDS
    while not ready(found := _children(master)):
        assert time.monotonic() < deadline, f"workers now: {found}"
        time.sleep(0.1)
    return found


def _open_files(pid: int) -> list[str]:
    folder = Path(f"/proc/{pid}/fd")
    found = []
    for fd in folder.iterdir():
        with contextlib.suppress(OSError):  # closed meanwhile
            found.append(os.readlink(fd))
    return found


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
def test_the_workers_open_the_index_themselves_and_a_replaced_worker_answers(
        course: Path, tmp_path: Path):
    """The app is made once in the master and shared by the workers it forks, but the index
    (Whoosh's files, SQLite) is opened in each worker, never in the master, whose open files
    every worker would otherwise share, reading positions included."""
    index_dir = tmp_path / "index"
    build(course, index_dir)
    with server(index_dir, tmp_path, "--workers", "2") as base:
        for _ in range(4):
            assert fetch_json(base + "/api/search?q=token")[0] == 200
        master = MASTERS[base]
        assert not [f for f in _open_files(master) if str(index_dir) in f]
        workers = _workers(master, lambda found: len(found) == 2)
        os.kill(workers[0], signal.SIGKILL)
        _workers(master, lambda found: len(found) == 2 and workers[0] not in found)
        for _ in range(6):
            status, body = fetch_json(base + "/api/search?q=token&limit=3")
            assert status == 200 and len(body["results"]) == 3



class Load:
    """Clients asking the server over and over, each on one thread, until ``stop()``: half
    keep one connection alive across requests, half open a new one for each. Counts the
    requests answered and keeps every failure (an exception or a 5xx)."""

    PATHS = ("/api/search?q=token&limit=3", "/healthz", "/api/suggest?q=to", "/search?q=token")

    def __init__(self, base: str, clients: int):
        self.port = int(base.rsplit(":", 1)[1])
        self.answered = 0
        self.failed: list[str] = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.threads = [threading.Thread(target=self.ask, args=(n % 2 == 0,), daemon=True)
                        for n in range(clients)]
        for thread in self.threads:
            thread.start()

    def ask(self, keep_alive: bool) -> None:
        conn, asked = None, 0
        while not self.stopping.is_set():
            path = self.PATHS[asked % len(self.PATHS)]
            asked += 1
            try:
                if conn is None:
                    conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
                conn.request("GET", path)
                response = conn.getresponse()
                response.read()
                if response.status >= 500:
                    raise AssertionError(f"{response.status} {response.reason}")
                if not keep_alive or response.will_close:
                    conn.close()
                    conn = None
                with self.lock:
                    self.answered += 1
            except Exception as error:  # noqa: BLE001 - every failure is counted
                with self.lock:
                    kind = "kept-alive" if keep_alive else "new"
                    self.failed.append(f"{path} on a {kind} connection: {error!r}")
                if conn is not None:
                    conn.close()
                conn = None
        if conn is not None:
            conn.close()

    def until_answered(self, more: int) -> None:
        """Until ``more`` requests more have been answered (for a minute at most)."""
        target, deadline = self.answered + more, time.monotonic() + 60
        while self.answered < target and time.monotonic() < deadline:
            time.sleep(0.05)

    def stop(self) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join()


HUPS = 4
"""When a stopping worker closed the connections it had read nothing from yet, each HUP
failed two to four of six clients' requests (connection resets): 10 to 16 in 4 HUPs."""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
def test_kill_hup_replaces_the_workers_without_failing_a_request(course: Path, tmp_path: Path):
    """`kill -HUP` on the master while clients keep asking, on kept-alive connections and on
    new ones: the old workers stop while requests are on their way to them, and answer
    those (with "Connection: close") rather than close the connection under them."""
    index_dir = tmp_path / "index"
    build(course, index_dir)
    with server(index_dir, tmp_path, "--workers", "2", "--threads", "2") as base:
        master = MASTERS[base]
        load = Load(base, clients=6)
        try:
            load.until_answered(50)
            for _ in range(HUPS):
                old = set(_workers(master, lambda found: len(found) == 2))
                os.kill(master, signal.SIGHUP)
                _workers(master, lambda found, old=old: len(found) == 2 and not old & set(found))
                load.until_answered(50)
        finally:
            load.stop()
        total = load.answered + len(load.failed)
        assert load.failed == [], f"{len(load.failed)} of {total} requests failed"
        assert load.answered >= 50 * (HUPS + 1)


def _connect(base: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])), timeout=20)


def _answer(sock: socket.socket) -> tuple[bytes, bytes]:
    """The head and body of the answer on ``sock`` (b"" and b"" if the server resets or
    closes it first)."""
    answer = b""
    with contextlib.suppress(ConnectionResetError):
        while b"\r\n\r\n" not in answer and (chunk := sock.recv(65536)):
            answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        length = re.search(rb"Content-Length: (\d+)", head)
        while length and len(body) < int(length.group(1)) and (chunk := sock.recv(65536)):
            body += chunk
        return head, body
    return b"", b""


def _until_not_accepting(base: str) -> None:
    """Until a request on a new connection goes unanswered: the workers have stopped
    accepting (the connection waits in the kernel's queue, or is refused)."""
    deadline = time.monotonic() + STOP_SECONDS
    while time.monotonic() < deadline:
        try:
            with _connect(base) as probe:
                probe.settimeout(0.3)
                probe.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                if not probe.recv(1):
                    return
        except (TimeoutError, ConnectionError):
            return
        time.sleep(0.05)
    pytest.fail(f"still accepting {STOP_SECONDS} s after SIGTERM")


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
def test_sigterm_answers_the_requests_already_on_their_way(course: Path, tmp_path: Path):
    """A stopping worker accepts no more connections but still answers, with "Connection:
    close", a request that comes on a connection it holds: one kept alive after an answer,
    one that has sent nothing yet, one halfway through its head."""
    index_dir = tmp_path / "index"
    build(course, index_dir)
    with server(index_dir, tmp_path, "--workers", "1") as base, contextlib.ExitStack() as stack:
        kept, fresh, half = (stack.enter_context(_connect(base)) for _ in range(3))
        kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        head, body = _answer(kept)
        assert head.startswith(b"HTTP/1.1 200 ") and b"Connection: close" not in head
        half.sendall(b"GET /api/search?q=tok")
        # One worker accepts connections in the order they came: this one answered, the
        # two before it are the worker's.
        assert fetch_json(base + "/healthz")[0] == 200
        os.kill(MASTERS[base], signal.SIGTERM)
        _until_not_accepting(base)
        kept.sendall(b"GET /api/search?q=token HTTP/1.1\r\nHost: x\r\n\r\n")
        fresh.sendall(b"GET /api/search?q=token HTTP/1.1\r\nHost: x\r\n\r\n")
        half.sendall(b"en HTTP/1.1\r\nHost: x\r\n\r\n")
        for name, sock in (("kept alive", kept), ("new", fresh), ("halfway", half)):
            head, body = _answer(sock)
            sock.close()  # gunicorn lingers on a connection it closes until the client does
            assert head.startswith(b"HTTP/1.1 200 "), f"{name}: {head!r}"
            assert b"Connection: close" in head and b'"total"' in body, name
