"""The gunicorn worker ``serve`` runs: gthread's, but a thread is given only a whole request head.

Gunicorn's threaded worker hands a new connection straight to one of its few threads, which
then waits for the request: a client that connects and sends nothing, or half a request line,
holds a thread meanwhile (gunicorn 27 lets it go after 5 s of silence, and not at all once a
byte has come), so a few such connections left every request queued behind them.

Here the worker's event loop, which already watches the listening socket and the kept-alive
connections, reads each request head itself, without blocking, as its bytes arrive; only a
complete head goes to a thread, the bytes read handed to gunicorn's parser as if it had read
them. A connection whose head is not complete ``HEAD_SECONDS`` after it connected (or, kept
alive, after its next request began) is closed, and so is one whose head grows past
``MAX_HEAD`` bytes (with a 431). Waiting costs a socket and the bytes read, never a thread.

Plain HTTP/1 only, as ``serve`` configures gunicorn: with TLS the bytes on the socket are not
the request's, and the worker leaves connections to gthread as it is.
"""

from __future__ import annotations

import contextlib
import errno
import selectors
import time
from functools import partial
from typing import Any

from gunicorn.workers.gthread import TConn, ThreadWorker

HEAD_SECONDS = 10.0
"""How long a request head may take to arrive, from the connection (or the request) on."""
MAX_HEAD = 64 * 1024
"""Request heads larger than this are refused: browsers send a few kilobytes."""
TOO_LARGE = (b"HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n"
             b"Content-Type: text/plain; charset=utf-8\r\nContent-Length: 37\r\n\r\n"
             b"The request's headers are too large.\n")
STOP_LINGER = 2.0
"""How long a stopping worker still waits for heads under way (gunicorn's own linger)."""
HEAD_ENDS = (b"\n\r\n", b"\n\n")
"""A blank line ends a head; gunicorn's parser judges whether its line endings are valid."""


class HeadConn(TConn):
    """A connection with the bytes of a request head the event loop has read for it."""

    def __init__(self, *args: Any):
        super().__init__(*args)
        self.head = bytearray()

    def init(self) -> None:
        """In the thread, before gunicorn parses: the head read so far comes first."""
        super().init()
        if self.head:
            self.parser.unreader.unread(bytes(self.head))
            self.head.clear()


def head_complete(head: bytearray, new: int) -> bool:
    """Whether a blank line ends ``head``, looking only where its ``new`` last bytes can
    have made one (a head may come a byte at a time)."""
    start = max(0, len(head) - new - 2)
    return any(head.find(end, start) >= 0 for end in HEAD_ENDS)


class HeadFirstWorker(ThreadWorker):
    """gthread, with the request head read by the event loop (module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.heads: dict[HeadConn, float] = {}
        """Connections whose head is being read, oldest first, with their deadlines."""
        self.stop_by: float | None = None
        """Once the worker is stopping: when the heads still under way are given up."""

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
        next request's first bytes arrive: it waits for the whole head first, unless
        gunicorn's parser already holds the next request's bytes (a pipelined request)."""
        parser = getattr(conn, "parser", None)
        buffered = parser is not None and parser.unreader.buf.getvalue()
        if isinstance(conn, HeadConn) and not buffered:
            self.wait_for_head(conn)
        else:
            super().enqueue_req(conn)

    def wait_for_head(self, conn: HeadConn) -> None:
        conn.sock.setblocking(False)
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
        if head_complete(conn.head, len(chunk)) or (
                len(conn.head) >= MAX_HEAD and b"\n" not in conn.head):
            # A request line that long is gunicorn's to refuse (414), from the bytes read.
            self.stop_waiting(conn)
            conn.data_ready = True  # gunicorn 27 would otherwise wait for more bytes
            super().enqueue_req(conn)
        elif len(conn.head) >= MAX_HEAD:
            self.stop_waiting(conn)
            with contextlib.suppress(OSError):
                conn.sock.send(TOO_LARGE)
            self.drop(conn)

    def drop(self, conn: HeadConn) -> None:
        self.nr_conns -= 1
        conn.close()

    def murder_keepalived(self, *args: Any, **kwargs: Any) -> None:
        """Called by gunicorn's event loop on every turn: the heads past their deadline go
        too. A stopping worker closes at once the connections that have sent nothing, and
        the others STOP_LINGER later, rather than keep its exit waiting for them."""
        super().murder_keepalived(*args, **kwargs)
        force = bool(args[0] if args else kwargs.get("force"))
        now = time.monotonic()
        if not self.alive and self.stop_by is None:
            self.stop_by = now + STOP_LINGER
        late = []
        for conn, deadline in self.heads.items():
            if force or deadline <= now:
                late.append(conn)
            elif self.stop_by is None:
                break  # deadlines come in order
            elif not conn.head or now >= self.stop_by:
                late.append(conn)
        for conn in late:
            self.stop_waiting(conn)
            self.drop(conn)
