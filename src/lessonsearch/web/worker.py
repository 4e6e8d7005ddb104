"""The gunicorn worker ``serve`` runs: gthread's, but a thread is given only a whole request.

Gunicorn's threaded worker hands a new connection straight to one of its few threads, which
then waits for the request: a client that connects and sends nothing, or half a request line,
holds a thread meanwhile (gunicorn 27 lets it go after 5 s of silence, and not at all once a
byte has come), so a few such connections left every request queued behind them.

Here the worker's event loop, which already watches the listening socket and the kept-alive
connections, reads each request head itself, without blocking, as its bytes arrive, and then
the body its ``Content-Length`` declares; only a complete request goes to a thread, the bytes
read handed to gunicorn's parser as if it had read them. A connection whose request is not
complete ``HEAD_SECONDS`` after it connected (or, kept alive, after its next request began) is
closed, and so is one whose head grows past ``MAX_HEAD`` bytes (with a 431). Waiting costs a
socket and the bytes read, never a thread. A stopping worker (``kill -HUP`` replacing it, or
SIGTERM) accepts no more connections but waits ``STOP_LINGER`` more for the requests of those
it holds, new or kept alive, as gunicorn does for kept-alive ones: closing one whose request
is on its way resets it, and the client's request fails.

No route of the service reads a request body, so bodies are kept small: one declared larger
than ``MAX_BODY`` is answered 413 at once, and a chunked one (any ``Transfer-Encoding``),
whose length only its end would tell, 411. Otherwise gthread let a body tie up a thread: the
app answers without reading it, and gunicorn then reads it off the socket for up to 5 s
before keeping the connection alive, however slowly it came.

Every refusal carries the security headers the app's own answers do (``headers``), gunicorn's
too (a request line over ``server.REQUEST_LINE``, a malformed head): gunicorn writes those as
an HTML page without them, the worker as plain text with them (``write_error``).

Plain HTTP/1 only, as ``serve`` configures gunicorn: with TLS the bytes on the socket are not
the request's, and the worker leaves connections to gthread as it is.
"""

from __future__ import annotations

import contextlib
import errno
import re
import selectors
import time
from functools import partial
from typing import Any

from gunicorn import util
from gunicorn.workers.gthread import TConn, ThreadWorker

from .headers import SECURITY_HEADERS

HEAD_SECONDS = 10.0
"""How long a request (head and body) may take to arrive, from the connection (or the
request) on."""
MAX_HEAD = 64 * 1024
"""Request heads larger than this are refused: browsers send a few kilobytes."""
MAX_BODY = 64 * 1024
"""Request bodies declared larger than this are refused: no route reads one."""


def refusal(status: str, text: str) -> bytes:
    """A whole response refusing a request, after which the connection closes: plain text,
    never sniffed as a page, with the security headers of every answer."""
    body = text.encode("utf-8", "replace")
    security = "".join(f"{name}: {value}\r\n" for name, value in SECURITY_HEADERS.items())
    return (f"HTTP/1.1 {status}\r\nConnection: close\r\n{security}"
            f"Content-Type: text/plain; charset=utf-8\r\nContent-Length: {len(body)}\r\n\r\n"
            ).encode("ascii") + body


def write_error(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    """Gunicorn's answer to a request it refuses before the app (``util.write_error``, which
    its worker calls by name): its status and words, as a ``refusal``. Its own is an HTML
    page without a Content-Security-Policy or ``nosniff``, whose words may quote the request
    line."""
    util.write_nonblock(sock, refusal(f"{status_int} {reason}", f"{mesg}\n"))


TOO_LARGE = refusal("431 Request Header Fields Too Large", "The request's headers are too large.\n")
BODY_TOO_LARGE = refusal("413 Content Too Large",
                         f"A request body may be at most {MAX_BODY // 1024} KB.\n")
LENGTH_REQUIRED = refusal("411 Length Required",
                          "A request body needs a Content-Length (chunked bodies are refused).\n")
CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"
STOP_LINGER = 2.0
"""How long a stopping worker still waits for a request on a connection it holds, from the
stop or from when the request began (gunicorn's own linger for kept-alive connections)."""
HEAD_ENDS = (b"\n\r\n", b"\n\n")
"""A blank line ends a head; gunicorn's parser judges whether its line endings are valid."""
CHUNKED = -1
UNKNOWN = -2


class HeadConn(TConn):
    """A connection with the bytes of a request the event loop has read for it."""

    def __init__(self, *args: Any):
        super().__init__(*args)
        self.head = bytearray()
        """The request's bytes read so far (its head, then its body, maybe the next's)."""
        self.whole: int | None = None
        """Once the head is complete: how many bytes the head and its body make."""

    def init(self) -> None:
        """In the thread, before gunicorn parses: the head read so far comes first."""
        super().init()
        if self.head:
            self.parser.unreader.unread(bytes(self.head))
            self.head.clear()


def head_end(head: bytearray, new: int) -> int | None:
    """Where the first blank line ends ``head``, looking only where its ``new`` last bytes
    can have made one (a head may come a byte at a time); None while there is none."""
    start = max(0, len(head) - new - 2)
    ends = [at + len(end) for end in HEAD_ENDS if (at := head.find(end, start)) >= 0]
    return min(ends) if ends else None


def declared_body(head: bytes) -> int:
    """The length of the body ``head`` declares: 0 for none, CHUNKED for any
    Transfer-Encoding, UNKNOWN for a Content-Length that is not one string of digits.

    Header names are matched loosely (case and spaces aside), so that no head gunicorn's
    parser reads with a body passes here as one without; gunicorn refuses with a 400, before
    reading any body, the heads with an UNKNOWN length and those whose names are malformed.
    """
    lengths, coded = [], False
    for line in head.split(b"\n")[1:]:
        name, colon, value = line.partition(b":")
        name = name.strip().lower()
        if colon and name == b"transfer-encoding":
            coded = True
        elif colon and name == b"content-length":
            lengths.append(value.strip())
    if coded:
        return CHUNKED
    if not lengths:
        return 0
    if len(lengths) > 1 or not lengths[0].isdigit():
        return UNKNOWN
    return int(lengths[0])


def expects_continue(head: bytes) -> bool:
    """Whether the client waits for a 100 Continue before it sends the body."""
    return re.search(rb"\n[ \t]*expect[ \t]*:[ \t]*100-continue", head.lower()) is not None


class HeadFirstWorker(ThreadWorker):
    """gthread, with the request head read by the event loop (module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.heads: dict[HeadConn, float] = {}
        """Connections whose head is being read, oldest first, with their deadlines."""
        self.stopped_at: float | None = None
        """Once the worker is stopping: when it began to."""

    def init_process(self) -> None:
        util.write_error = write_error  # in this worker's process only, forked to serve
        super().init_process()

    def accept(self, *args: Any) -> None:
        """A new connection waits on the event loop for its head (gunicorn 27 passes the
        listener alone, older ones the listener's address first)."""
        if self.cfg.is_ssl:
            super().accept(*args)
            return
        listener = args[-1]
        try:
            sock, client = listener.accept()
        except OSError as error:
            if error.errno in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                return
            raise
        self.nr_conns += 1
        server = args[0] if len(args) > 1 else listener.getsockname()
        self.wait_for_head(HeadConn(self.cfg, sock, client, server))

    def enqueue_req(self, conn: TConn) -> None:
        """Every connection bound for a thread passes here, a kept-alive one as soon as its
        next request's first bytes arrive: it waits for the whole request first. Bytes of the
        next request gunicorn's parser already holds (read with the last one, or pipelined)
        are taken back, and may make it whole at once."""
        if not isinstance(conn, HeadConn):
            super().enqueue_req(conn)
            return
        buffered = conn.parser.unreader.take_buffered() if conn.parser is not None else b""
        self.wait_for_head(conn)
        if buffered:
            conn.head += buffered
            self.consider(conn, len(buffered))

    def wait_for_head(self, conn: HeadConn) -> None:
        conn.sock.setblocking(False)
        conn.whole = None
        self.heads[conn] = time.monotonic() + HEAD_SECONDS
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.read_head, conn))

    def stop_waiting(self, conn: HeadConn) -> None:
        del self.heads[conn]
        with contextlib.suppress(OSError, KeyError, ValueError):
            self.poller.unregister(conn.sock)

    def read_head(self, conn: HeadConn, _sock: Any) -> None:
        """The event loop's callback when a waiting connection is readable."""
        try:
            chunk = conn.sock.recv(MAX_HEAD)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        if not chunk:  # the client has gone
            self.stop_waiting(conn)
            self.drop(conn)
            return
        conn.head += chunk
        self.consider(conn, len(chunk))

    def consider(self, conn: HeadConn, new: int) -> None:
        """With ``new`` bytes more: the request goes to a thread once whole, or is refused."""
        if conn.whole is None:
            end = head_end(conn.head, new)
            if end is None:
                if len(conn.head) < MAX_HEAD:
                    return
                if b"\n" in conn.head:
                    self.refuse(conn, TOO_LARGE)
                else:  # a request line that long is gunicorn's to refuse (414)
                    self.hand_over(conn)
                return
            length = declared_body(bytes(conn.head[:end]))
            if length == CHUNKED:
                self.refuse(conn, LENGTH_REQUIRED)
                return
            if length > MAX_BODY:
                self.refuse(conn, BODY_TOO_LARGE)
                return
            conn.whole = end + max(length, 0)  # gunicorn refuses an UNKNOWN one unread
            if len(conn.head) < conn.whole and expects_continue(bytes(conn.head[:end])):
                # gunicorn sends its own once the request is whole: a second 1xx is allowed
                with contextlib.suppress(OSError):
                    conn.sock.send(CONTINUE)
        if len(conn.head) >= conn.whole:
            self.hand_over(conn)

    def hand_over(self, conn: HeadConn) -> None:
        self.stop_waiting(conn)
        conn.data_ready = True  # gunicorn 27 would otherwise wait for more bytes
        super().enqueue_req(conn)

    def refuse(self, conn: HeadConn, answer: bytes) -> None:
        self.stop_waiting(conn)
        with contextlib.suppress(OSError):
            conn.sock.send(answer)
        self.drop(conn)

    def drop(self, conn: HeadConn) -> None:
        self.nr_conns -= 1
        conn.close()

    def give_up_at(self, deadline: float) -> float:
        """When the head due by ``deadline`` is given up: then, or in a stopping worker
        STOP_LINGER after the stop or after the head began, whichever came later."""
        if self.stopped_at is None:
            return deadline
        began = deadline - HEAD_SECONDS
        return min(deadline, max(self.stopped_at, began) + STOP_LINGER)

    def murder_keepalived(self, *args: Any, **kwargs: Any) -> None:
        """Called by gunicorn's event loop on every turn: the heads past their deadline go
        too. A stopping worker keeps waiting for a request STOP_LINGER more, on a new
        connection as on a kept-alive one, whether or not its first bytes have been read:
        the client may have sent it already (the bytes wait in the kernel, unread) or be
        sending it, and closing the socket then resets the connection, a failed request.
        Gunicorn answers such a request with "Connection: close". Past the linger the
        connection is closed rather than keep the worker's exit waiting for its deadline."""
        super().murder_keepalived(*args, **kwargs)
        force = bool(args[0] if args else kwargs.get("force"))
        now = time.monotonic()
        if not self.alive and self.stopped_at is None:
            self.stopped_at = now
        late = []
        for conn, deadline in self.heads.items():
            if not force and now < self.give_up_at(deadline):
                break  # heads come in the order they began, and are given up in it
            late.append(conn)
        for conn in late:
            self.stop_waiting(conn)
            self.drop(conn)

    def wait_for_and_dispatch_events(self, timeout: float) -> None:
        """Gunicorn's wait for the next events, cut short for a stopping worker when its
        first head is given up sooner, so that its exit is not held up to a second later."""
        if self.stopped_at is not None and self.heads:
            first = self.give_up_at(next(iter(self.heads.values())))
            timeout = min(timeout, max(first - time.monotonic(), 0.0))
        super().wait_for_and_dispatch_events(timeout)
