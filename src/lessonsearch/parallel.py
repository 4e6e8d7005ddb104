"""Per-lesson build work spread over the machine's cores.

Reading lessons, finding definitions, counting term mentions and writing Whoosh segments are
all pure Python and independent per lesson (or per chunk), so a build hands them to a pool of
processes. Small batches, one core, or a pool that cannot start are done in this process:
the results are the same either way, in the order of the items.

The workers are forked by a fork server (multiprocessing's ``forkserver``): a small process,
started once per process that builds, which has imported the build's modules and nothing
else. A worker forked from the build itself would share the build's heap page by page, and
every page the build then wrote (reading an object writes its reference count) was copied
on that first write: in a virtual machine a costly fault, 15,000 of them in a one-lesson
rebuild at 10,000 sections (bench/README.md). A fork server also forks safely while the
building process has other threads (a server's), where fork could copy a held lock.

A build shares one pool between all its maps (``shared_pool``). As with any ``spawn`` or
``forkserver`` pool, a script that builds must guard its top-level code with
``if __name__ == "__main__":``, since each worker imports the script's main module.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent import futures
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from multiprocessing import connection
from typing import Generic, TypeVar

A = TypeVar("A")
R = TypeVar("R")

MAX_PROCESSES = 4
MIN_ITEMS = 64
"""Fewer items than this are not worth starting processes for."""


def workers() -> int:
    return max(1, min(os.cpu_count() or 1, MAX_PROCESSES))


PRELOAD = ["lessonsearch.build"]
"""What the fork server imports once, so that no worker imports it again."""


def _context() -> multiprocessing.context.BaseContext:
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context


def start_server() -> None:
    """Start the fork server now, if this machine gives a build more than one process: it
    imports the build's modules beside this process, not while a build waits for its first
    worker. Cheap once it runs; a build that needs no worker leaves it idle."""
    if workers() > 1 and _context().get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


def _new_pool(count: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(count, mp_context=_context(), initializer=_die_with_parent)


class _Shared:
    """The pool of a ``shared_pool`` block: started by the first map that needs processes,
    and used by every map after it."""

    def __init__(self):
        self.pool: ProcessPoolExecutor | None = None
        self.broken = False

    def get(self) -> ProcessPoolExecutor | None:
        if self.pool is None and not self.broken:
            self.pool = _new_pool(workers())
            try:  # every worker starts now: each task given to a pool with none idle
                futures.wait([self.pool.submit(int) for _ in range(workers())])
                self.pool.submit(int).result()  # raises if no worker could start
            except (BrokenProcessPool, OSError):
                self.pool.shutdown(wait=False, cancel_futures=True)
                self.pool, self.broken = None, True
        return self.pool


_local = threading.local()
"""Each thread's ``shared_pool`` block, if it is in one: two builds in two threads of one
process (a server's) never share, or end, each other's pool."""


@contextmanager
def shared_pool() -> Iterator[None]:
    """Every map inside the block uses one pool of processes, started once. Elsewhere each
    map starts and ends its own pool."""
    if getattr(_local, "shared", None) is not None or workers() < 2:
        yield
        return
    shared = _local.shared = _Shared()
    try:
        yield
    finally:
        _local.shared = None
        if shared.pool is not None:
            shared.pool.shutdown(wait=True, cancel_futures=True)


def map_in_processes(fn: Callable[[A], R], items: Sequence[A], min_items: int = MIN_ITEMS,
                     ) -> list[R]:
    """``[fn(item) for item in items]``, computed by a pool of processes when worth it.

    ``fn`` and the items must pickle, and ``fn`` must be importable from its module.
    An exception raised by ``fn`` is raised here, as it would be in the loop.
    """
    return start_in_processes(fn, items, min_items).result()


class Started(Generic[R]):
    """``map_in_processes`` begun: the pool works while this process does something else."""

    def __init__(self, fn: Callable[[A], R], items: Sequence[A], min_items: int):
        self._fn, self._items = fn, items
        self._pool: ProcessPoolExecutor | None = None
        self._tasks: list[Future] = []
        if workers() < 2 or not items or len(items) < min_items:
            return  # done in this process when the result is asked for
        count = min(workers(), len(items))
        chunk = max(1, len(items) // (count * 8))
        try:
            shared = getattr(_local, "shared", None)
            pool = shared.get() if shared is not None else None
            if pool is None:  # this map's own pool, ended with it
                pool = self._pool = _new_pool(count)
            self._tasks = [pool.submit(_run, fn, items[start:start + chunk])
                           for start in range(0, len(items), chunk)]
        except (BrokenProcessPool, OSError, RuntimeError):
            self.cancel()  # done in this process

    def result(self) -> list[R]:
        """The results in the order of the items (computed here if no pool could start)."""
        if not self._tasks:
            return [self._fn(item) for item in self._items]
        try:
            return [value for task in self._tasks for value in task.result()]
        except (BrokenProcessPool, OSError):
            return [self._fn(item) for item in self._items]
        finally:
            self.cancel()

    def cancel(self) -> None:
        """Drop the tasks not yet begun and wait for the ones running (at most one each)."""
        for task in self._tasks:
            task.cancel()
        futures.wait(self._tasks)
        self._tasks = []
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def _run(fn: Callable[[A], R], items: Sequence[A]) -> list[R]:
    return [fn(item) for item in items]


def start_in_processes(fn: Callable[[A], R], items: Sequence[A], min_items: int = MIN_ITEMS,
                       ) -> Started[R]:
    """``map_in_processes``, handed to the pool now and collected with ``result()``; with
    ``min_items`` 1, even a single item goes to another process, so this one is free."""
    return Started(fn, items, min_items)


def _die_with_parent() -> None:
    """A worker ends when the process it works for ends, killed or not. Otherwise it would
    wait for work forever, and so would the fork server, which ends when its last worker
    does. The fork server is the worker's parent, not the build: the build is watched
    through the pipe multiprocessing keeps open for that (``parent_process().sentinel``)."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_when_closed, args=(parent.sentinel,), daemon=True,
                         name="exit with the build").start()


def _exit_when_closed(sentinel: int) -> None:
    connection.wait([sentinel])
    os._exit(1)
