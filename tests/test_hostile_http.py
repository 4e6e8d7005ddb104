"""Hostile requests to the real server get a quick 4xx or results, and never hang a worker.

Nor do connections that send nothing, half a request or a body a byte at a time: the server
reads request heads and bodies without a thread, and closes those not complete within its
deadline.

Each request goes over a raw socket (so bytes no HTTP library would send can be sent too)
with a timeout: an answer must come, or the connection must close, before it runs out. A
5xx is a failure, and after every request the server must still answer ``/healthz``.
Gunicorn refuses request lines over 8 KB itself (414); shorter queries reach the app, which
refuses those over 4,096 characters (400) and caps how deep and wide a query may be.
"""

from __future__ import annotations

import contextlib
import re
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest
from test_web_server import fetch_json, server
from web_fixtures import serving

ANSWER_SECONDS = 10
"""A request not answered (or closed) by then has hung a worker."""

REFUSED = {400, 414, 431}
"""Too long or malformed: said by gunicorn (414, 400) or by the app (400)."""
ANSWERED = {200, 400}
CLOSED = None
"""The server closed the connection without a status line: fine for a 10 MB request line."""


def q(text: str) -> bytes:
    return quote(text, safe="").encode("ascii")


PASTED = "Traceback (most recent call last):\n" + "".join(
    f'  File "/srv/app/pkg/mod{n}.py", line {n}, in step{n}\n    out = step{n + 1}(frame, {n})\n'
    for n in range(60))[:4060]
"""A traceback's frames, near 4,096 characters (the app's limit), a third of them escaped
(``/``, ``"``, ``,``, spaces, line breaks): gunicorn's default request line (4 KB) answered it
with 414 before the app could search its first words."""

HOSTILE: dict[str, tuple[bytes, set[int | None]]] = {
    "10 MB query string": (b"/api/search?q=" + b"a" * (10 * 1024 * 1024), REFUSED | {CLOSED}),
    "5000 nested parentheses": (b"/api/search?q=" + q("(" * 5000 + "token" + ")" * 5000),
                                REFUSED),
    "200 nested parentheses": (b"/api/search?q=" + q("(" * 200 + "token" + ")" * 200),
                               ANSWERED),
    "unbalanced parentheses": (b"/api/search?q=" + q("((((token ))) OR (" * 20), ANSWERED),
    "wildcard only": (b"/api/search?q=" + q("*"), ANSWERED),
    "question marks only": (b"/api/search?q=" + q("???"), ANSWERED),
    "wildcards after words": (b"/api/search?q=" + q("t* a* c* *k"), ANSWERED),
    "3000 terms": (b"/api/search?q=" + q(" ".join(f"w{n}" for n in range(3000))), REFUSED),
    "250 one-letter terms": (b"/api/search?q=" + q(" ".join("abcdefghij" * 25)), ANSWERED),
    "100 ORs": (b"/api/search?q=" + q(" OR ".join(["token"] * 100)), ANSWERED),
    "120 NOTs": (b"/api/search?q=" + q("NOT " * 120 + "token"), ANSWERED),
    "256 minus signs": (b"/api/search?q=" + q("- " * 255 + "token"), ANSWERED),
    "500 quotes": (b"/api/search?q=" + q('"' * 500), ANSWERED),
    "NUL byte, escaped": (b"/api/search?q=tok%00en", ANSWERED),
    "NUL byte, raw": (b"/api/search?q=tok\x00en", REFUSED | {CLOSED}),
    "invalid UTF-8 escapes": (b"/api/search?q=%ff%fe%c3%28token", ANSWERED),
    "lone surrogate escape": (b"/api/search?q=%ed%a0%80token", ANSWERED),
    "huge limit": (b"/api/search?q=token&limit=" + b"9" * 30, {200}),
    "huge page": (b"/api/search?q=token&page=" + b"9" * 30, {400}),
    "4000-digit limit": (b"/api/search?q=token&limit=" + b"9" * 4000, {200} | REFUSED),
    "4000-digit page": (b"/api/search?q=token&page=" + b"9" * 4000, REFUSED),
    "negative limit": (b"/api/search?q=token&limit=-5", {400}),
    "limit with a NUL": (b"/api/search?q=token&limit=1%00", {400}),
    "suggest with a NUL": (b"/api/suggest?q=%00", ANSWERED),
    "term named with invalid UTF-8": (b"/api/terms/%ff%fe", {404}),
    "term with a 3000-character name": (b"/api/terms/" + b"a" * 3000, {404}),
    "page with nested parentheses": (b"/search?q=" + q("(" * 200 + "x" + ")" * 200), ANSWERED),
    "page with invalid UTF-8": (b"/search?q=%ff%fe", ANSWERED),
    "page with a huge page number": (b"/search?q=token&page=" + b"9" * 30, {400}),
    "a pasted traceback at the limit": (b"/search?q=" + q(PASTED), {200}),
    "a pasted traceback at the limit, API": (b"/api/search?q=" + q(PASTED), {200}),
    "a thousand NOTs": (b"/api/search?q=" + q("NOT " * 1000 + "token"), {200}),
}


IDLE = 50
"""Connections that send nothing: many more than the server's threads (2 workers × 4)."""
CLOSE_SECONDS = 60
"""Generous: the server closes a connection whose head has not come after 10 s."""


@pytest.fixture(scope="module")
def base(tiny_index: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with server(tiny_index, tmp_path_factory.mktemp("hostile"),
                "--workers", "2", "--threads", "4") as url:
        yield url


def exchange(base_url: str, target: bytes) -> int | None:
    """Send ``GET target`` as raw bytes; the answer's status, or None if the server closed.

    Raises TimeoutError when the server neither answers nor closes within ANSWER_SECONDS.
    """
    address = urlsplit(base_url)
    with socket.create_connection((address.hostname, address.port),
                                  timeout=ANSWER_SECONDS) as sock:
        request = (b"GET " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   b"Connection: close\r\n\r\n")
        # A server refusing a huge request line answers and closes before reading it all.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(request)
        head = b""
        with contextlib.suppress(ConnectionResetError):
            while b"\r\n" not in head:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                head += chunk
    status = re.match(rb"HTTP/1\.[01] (\d{3}) ", head)
    return int(status.group(1)) if status else None


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_request_gets_a_quick_refusal_or_results(base: str, name: str):
    target, allowed = HOSTILE[name]
    status = exchange(base, target)
    assert status in allowed, f"{name}: {status}"
    status, health = fetch_json(base + "/healthz")
    assert status == 200 and health["status"] == "ok"


def test_the_server_still_searches_normally_after_them(base: str):
    for target, _ in HOSTILE.values():  # all of them again, back to back
        exchange(base, target)
    for _ in range(4):  # each worker, in all likelihood
        status, found = fetch_json(base + "/api/search?q=token&limit=3")
        assert status == 200 and found["total"] > 0 and len(found["results"]) == 3


@pytest.mark.parametrize(("name", "status"), [("limit", 200), ("page", 400)])
def test_a_5000_digit_number_is_capped_or_refused_by_the_app_itself(
    tiny_index: Path, name: str, status: int
):
    """Gunicorn's request line (8 KB, for a long query's escapes) holds such a number too, as
    other servers and --dev do: the app caps or refuses it."""
    with serving(tiny_index) as client:
        got = client.get(f"/api/search?q=token&{name}=" + "9" * 5000)
    assert got.status_code == status
    if status == 200:
        assert got.get_json()["limit"] == 50


def connect(base_url: str) -> socket.socket:
    address = urlsplit(base_url)
    return socket.create_connection((address.hostname, address.port), timeout=ANSWER_SECONDS)


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closes ``sock`` before CLOSE_SECONDS pass (TimeoutError if not)."""
    sock.settimeout(CLOSE_SECONDS)
    try:
        return sock.recv(4096) == b""
    except ConnectionResetError:
        return True


def test_idle_and_stalled_connections_leave_the_server_answering(base: str):
    with contextlib.ExitStack() as stack:
        idle = [stack.enter_context(connect(base)) for _ in range(IDLE)]
        stalled = [stack.enter_context(connect(base)) for _ in range(5)]
        for sock in stalled:
            sock.sendall(b"GET /api/search?q=tok")
        status, health = fetch_json(base + "/healthz")
        assert status == 200 and health["status"] == "ok"
        status, found = fetch_json(base + "/api/search?q=token&limit=3")
        assert status == 200 and found["total"] > 0
        assert all(closed_by_server(sock) for sock in idle + stalled)


def test_a_request_sent_in_pieces_on_a_kept_alive_connection_is_answered(base: str):
    with connect(base) as sock:
        for pieces in ([b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"],
                       [b"GET /api/sea", b"rch?q=token HTTP/1.1\r\nHo", b"st: x\r\n",
                        b"Connection: close\r\n\r\n"]):
            for piece in pieces:
                sock.sendall(piece)
            head = b""
            while b"\r\n\r\n" not in head:
                head += sock.recv(1)
            assert head.startswith(b"HTTP/1.1 200 ")
            length = int(re.search(rb"Content-Length: (\d+)", head).group(1))
            body = b""
            while len(body) < length:
                body += sock.recv(length - len(body))
        assert b'"total"' in body


def test_a_request_head_over_64_kb_is_refused(base: str):
    with connect(base) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n"
                     + b"".join(b"X-Filler-%d: %s\r\n" % (n, b"x" * 1000) for n in range(70)))
        assert sock.recv(4096).startswith(b"HTTP/1.1 431 ")
    assert fetch_json(base + "/healthz")[0] == 200


DRIBBLED = 40
"""Connections whose body comes a byte at a time: gthread let each hold a thread 5 s after
its answer, so many more than the server's threads (2 workers × 4) kept others waiting."""


def read_answer(sock: socket.socket) -> tuple[bytes, bytes]:
    """The head and body of one answer on ``sock`` (with a Content-Length)."""
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        assert chunk, f"closed after {head!r}"
        head += chunk
    length = int(re.search(rb"Content-Length: (\d+)", head).group(1))
    body = b""
    while len(body) < length:
        body += sock.recv(length - len(body))
    return head, body


def test_dribbled_bodies_leave_the_server_answering(base: str):
    stop = threading.Event()

    def dribble(socks: list[socket.socket]) -> None:
        while not stop.wait(0.5):
            for sock in socks:
                with contextlib.suppress(OSError):
                    sock.send(b"a")

    with contextlib.ExitStack() as stack:
        slow = [stack.enter_context(connect(base)) for _ in range(DRIBBLED)]
        for sock in slow:
            sock.sendall(b"GET /api/search?q=token HTTP/1.1\r\nHost: x\r\n"
                         b"Content-Length: 1000\r\n\r\nq=")
        dribbler = threading.Thread(target=dribble, args=(slow,), daemon=True)
        dribbler.start()
        stack.callback(dribbler.join)
        stack.callback(stop.set)
        status, health = fetch_json(base + "/healthz")
        assert status == 200 and health["status"] == "ok"
        status, found = fetch_json(base + "/api/search?q=token&limit=3")
        assert status == 200 and found["total"] > 0
        # The body's deadline is the head's: still dribbling, they are closed unanswered.
        assert all(closed_by_server(sock) for sock in slow)


def test_a_request_with_a_small_body_is_answered_and_the_connection_kept(base: str):
    with connect(base) as sock:
        sock.sendall(b"GET /api/search?q=token HTTP/1.1\r\nHost: x\r\nContent-Length: 7\r\n"
                     b"\r\nq=t")
        sock.sendall(b"ok")  # the body in pieces, then the next request with its end
        sock.sendall(b"en" + b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
                     + b"GET /api/search?q=token HTTP/1.1\r\nHost: x\r\n")
        head, body = read_answer(sock)
        assert head.startswith(b"HTTP/1.1 200 ") and b'"total"' in body
        head, body = read_answer(sock)
        assert head.startswith(b"HTTP/1.1 200 ") and b'"ok"' in body
        sock.sendall(b"Connection: close\r\n\r\n")
        head, body = read_answer(sock)
        assert head.startswith(b"HTTP/1.1 200 ") and b'"total"' in body


@pytest.mark.parametrize(("header", "status"), [
    (b"Content-Length: 100000", b"413"),
    (b"Transfer-Encoding: chunked", b"411"),
])
def test_a_large_or_chunked_body_is_refused_at_once(base: str, header: bytes, status: bytes):
    with connect(base) as sock:
        sock.sendall(b"GET /api/search?q=token HTTP/1.1\r\nHost: x\r\n" + header + b"\r\n\r\n")
        head, _ = read_answer(sock)
        assert head.startswith(b"HTTP/1.1 " + status + b" ")
        assert closed_by_server(sock)
    assert fetch_json(base + "/healthz")[0] == 200


def test_a_client_expecting_100_continue_is_asked_for_its_body(base: str):
    with connect(base) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
                     b"Content-Length: 3\r\nConnection: close\r\n\r\n")
        interim = b""
        while not interim.endswith(b"\r\n\r\n"):
            interim += sock.recv(1)
        assert interim.startswith(b"HTTP/1.1 100 ")
        sock.sendall(b"abc")
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
        assert b"HTTP/1.1 200 " in answer and b'"ok"' in answer


@pytest.mark.parametrize(("request_bytes", "status"), [
    (b"GET /api/search?q=" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", b"414"),
    (b"G<T /search?q=token HTTP/1.1\r\nHost: x\r\n\r\n", b"400"),
    (b"GET /search?q=token HTTP/1.1\r\nHo<st: x\r\n\r\n", b"400"),
    (b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n", b"413"),
], ids=["request line over 8 KB", "malformed method", "malformed header name", "large body"])
def test_a_refusal_before_the_app_is_plain_text_with_the_security_headers(
        base: str, request_bytes: bytes, status: bytes):
    """Gunicorn answered a request line over its limit, or a malformed one, with an HTML page
    quoting it, and none of the headers the app's answers carry."""
    with connect(base) as sock:
        sock.sendall(request_bytes)
        head, body = read_answer(sock)
    assert head.startswith(b"HTTP/1.1 " + status + b" ")
    fields = dict(line.split(b": ", 1) for line in head.split(b"\r\n")[1:] if line)
    assert fields[b"Content-Type"] == b"text/plain; charset=utf-8"
    assert fields[b"X-Content-Type-Options"] == b"nosniff"
    assert fields[b"Referrer-Policy"] == b"strict-origin-when-cross-origin"
    assert body.strip() and b"<html>" not in body


SOURCE_MARK = b"from __future__ import annotations"
"""A line of every module of the package: a body holding it is a source file served."""
PASSWD_MARK = b"root:"

OUTSIDE_STATIC = [
    b"/static/../__init__.py", b"/static/..%2f__init__.py", b"/static/%2e%2e/__init__.py",
    b"/static/%2e%2e%2f%2e%2e%2fsearcher.py", b"/static/..%5c__init__.py",
    b"/static/%252e%252e%252f__init__.py", b"/static/..%c0%af__init__.py",
    b"/static/%2fetc%2fpasswd", b"/static//etc/passwd", b"//etc/passwd",
    b"/static/" + b"../" * 12 + b"etc/passwd", b"/static/__init__.py%00.css",
    b"/glossary/..%2f..%2f..%2fetc%2fpasswd", b"/api/terms/..%2f..%2fsearcher.py",
    b"/templates/base.html", b"/static/../templates/base.html",
]
"""Paths that name a file outside the package's static folder, raw and escaped."""


def fetched(base_url: str, target: bytes) -> tuple[int | None, bytes]:
    """``GET target`` as raw bytes, not normalised by any client: the status and body."""
    address = urlsplit(base_url)
    with socket.create_connection((address.hostname, address.port),
                                  timeout=ANSWER_SECONDS) as sock:
        sock.sendall(b"GET " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Connection: close\r\n\r\n")
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    status = re.match(rb"HTTP/1\.[01] (\d{3}) ", answer)
    return (int(status.group(1)) if status else None), answer.partition(b"\r\n\r\n")[2]


@pytest.mark.parametrize("target", OUTSIDE_STATIC)
def test_no_path_reads_a_file_outside_the_static_folder(base: str, target: bytes):
    """Whatever the escaping, a path out of ``static/`` is a 404, 400 or a redirect, and no
    answer holds a source file's or the system's text."""
    status, body = fetched(base, target)
    assert status in {400, 404, 301, 308} or status is None, (target, status)
    assert SOURCE_MARK not in body and PASSWD_MARK not in body and b"{% block" not in body


def test_a_file_of_the_static_folder_is_served(base: str):
    """The check above would pass on a server that served nothing: it does serve its own."""
    status, body = fetched(base, b"/static/lessonsearch.js")
    assert status == 200 and b"function" in body
