"""``lessonsearch serve``: gunicorn in production, Flask's reloading server with ``--dev``.

Gunicorn runs as a library (``BaseApplication``), so the one console script is all a deploy
needs. Workers are processes, each with its own open index (``LiveIndex``); ``gthread``
workers add threads, which keep a worker answering while one request waits on the network.
Searching is CPU work under the GIL, so processes give the parallelism: one per core, at
most four. Threads add none, and each thread opens a Whoosh searcher of its own that must warm
its caches: at 10k sections, 4 workers × 4 threads answered 4 clients at 24 searches/s in
575 MB, 2 × 2 at 72/s in 317 MB (bench/README.md). Two threads keep a worker answering while
one request waits on a slow client.
"""

from __future__ import annotations

import ctypes
import gc
import logging
import os
import sys
from pathlib import Path
from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication

from ..index_store import current_version_name
from . import create_app
from .request_index import live_index
from .settings import Settings
from .worker import HeadFirstWorker

log = logging.getLogger(__name__)

DEFAULT_THREADS = 2
MAX_DEFAULT_WORKERS = 4
REQUEST_LINE = 8190
"""The longest request line gunicorn reads (its most; its default, 4094, is a 414 before the
app): a query of ``searcher.MAX_QUERY_CHARS`` characters, its escapes written out (``%2F``
for each ``/`` of a pasted traceback's paths, ``%0A`` for its line breaks), reaches the app,
which answers it or names its own limit."""
NEWER_SETTINGS = {"control_socket_disable"}
"""Settings older gunicorns (pyproject allows >=22) lack; skipped there rather than fatal."""


def default_workers(cores: int | None = None) -> int:
    cores = cores or os.cpu_count() or 1
    return max(1, min(cores, MAX_DEFAULT_WORKERS))


class GunicornServer(BaseApplication):
    """The app under gunicorn, configured from a dict rather than gunicorn's own CLI."""

    def __init__(self, settings: Settings, options: dict[str, Any]):
        self.settings = settings
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            if key in self.cfg.settings or key not in NEWER_SETTINGS:
                self.cfg.set(key, value)

    def load(self) -> Flask:
        """The app, made once in the master (``preload_app``); each worker opens its own
        index after the fork (``post_worker_init``)."""
        return create_app(self.settings)


def before_fork(_arbiter: Any, _worker: Any) -> None:
    """In the master, before each worker is forked: the objects made so far (the imported
    modules, the app) move out of the cycle collector's sight, so collections in the workers
    do not write to, and so copy, the pages they share with the master (``gc.freeze``).
    The collector, off while the master loaded them (``serve``), runs again from here."""
    gc.freeze()
    gc.enable()


def after_fork(worker: Any) -> None:
    """In each worker, before its first request: its own index, never the master's."""
    live_index(worker.wsgi).warm()


MMAP_THRESHOLD = 128 * 1024
M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameter (malloc.h)."""


def return_freed_memory() -> bool:
    """Blocks over 128 kB from their own mappings, given back to the system when freed.

    glibc starts with this threshold but raises it to the size of each large block freed, so
    a search's score tables (megabytes at 100,000 sections) came to be carved from the heap,
    where the freed space stayed with the process between the long-lived blocks: 20 MB per
    worker after a thousand searches. Setting it fixes it at its first value. False where
    the C library is not glibc.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None)
        return bool(libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))
    except (OSError, AttributeError):
        return False


def gunicorn_options(host: str, port: int, workers: int | None = None,
                     threads: int | None = None) -> dict[str, Any]:
    return {
        "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
        "workers": workers or default_workers(),
        "threads": threads or DEFAULT_THREADS,
        # gthread, but a request's head is read before a thread is given it (worker.py).
        "worker_class": HeadFirstWorker,
        "timeout": 30,
        "graceful_timeout": 10,
        "keepalive": 5,
        "limit_request_line": REQUEST_LINE,
        "accesslog": "-",
        "errorlog": "-",
        "proc_name": "lessonsearch",
        # The imported code and the app are made once, in the master, and shared by the
        # workers' pages; each worker opens the index itself (after_fork).
        "preload_app": True,
        "pre_fork": before_fork,
        "post_worker_init": after_fork,
        # gunicorn 25+ opens a control socket at one fixed path per user, which two servers
        # on a host would fight over; nothing here uses it.
        "control_socket_disable": True,
    }


def serve(index_dir: Path | None, host: str, port: int, workers: int | None = None,
          threads: int | None = None, dev: bool = False) -> int:
    settings = Settings.from_env(index_dir=index_dir)
    if current_version_name(settings.index_dir) is None:
        log.warning("No index at %s yet: pages answer 503 until `lessonsearch index --out %s` "
                    "builds one (no restart needed).", settings.index_dir, settings.index_dir)
    if dev:
        create_app(settings).run(host=host, port=port, debug=True, use_reloader=True)
        return 0
    return_freed_memory()  # the workers inherit it
    gc.disable()  # no collections in the master until the fork: no freed holes in its pages
    GunicornServer(settings, gunicorn_options(host, port, workers, threads)).run()
    return 0
