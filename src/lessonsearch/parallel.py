"""Per-lesson build work spread over the machine's cores.

Reading lessons, finding definitions, counting term mentions and writing Whoosh segments are
all pure Python and independent per lesson (or per chunk), so a build hands them to a pool of
processes. Small batches, one core, or a pool that cannot start are done in this process:
the results are the same either way, in the order of the items.

A build shares one pool between all its maps (``shared_pool``), forked before it holds much:
a process forked from a large heap shares it page by page, and every page either process
then writes (reading an object writes its reference count) is copied on that first write.
In a virtual machine each copy is a costly fault: 100,000 of them in a 10,000-section build,
a tenth of a one-lesson rebuild (bench/README.md).
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent import futures
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Generic, TypeVar

A = TypeVar("A")
R = TypeVar("R")

MAX_PROCESSES = 4
MIN_ITEMS = 64
"""Fewer items than this are not worth starting processes for."""


def workers() -> int:
    return max(1, min(os.cpu_count() or 1, MAX_PROCESSES))


class _Shared:
    """The pool of a ``shared_pool`` block: started by the first map that needs processes,
    and used by every map after it."""

    def __init__(self):
        self.pool: ProcessPoolExecutor | None = None
        self.broken = False

    def get(self) -> ProcessPoolExecutor | None:
        if self.pool is None and not self.broken:
            self.pool = _fork_pool()
            self.broken = self.pool is None
        return self.pool


_shared: _Shared | None = None


@contextmanager
def shared_pool() -> Iterator[None]:
    """Every map inside the block uses one pool of processes, forked once (and only where
    fork is safe: no other thread). Elsewhere each map starts and ends its own pool."""
    global _shared
    if _shared is not None or workers() < 2 or threading.active_count() != 1:
        yield
        return
    shared = _shared = _Shared()
    try:
        yield
    finally:
        _shared = None
        if shared.pool is not None:
            shared.pool.shutdown(wait=True, cancel_futures=True)


def _fork_pool() -> ProcessPoolExecutor | None:
    """A pool whose processes are all forked by the time it is returned."""
    pool = ProcessPoolExecutor(workers(), mp_context=multiprocessing.get_context("fork"),
                               initializer=_die_with_parent, initargs=(os.getpid(),))
    try:
        pool.submit(int).result()  # with fork, every worker starts at the first task
    except (BrokenProcessPool, OSError):
        pool.shutdown(wait=False, cancel_futures=True)
        return None
    return pool


def map_in_processes(fn: Callable[[A], R], items: Sequence[A], min_items: int = MIN_ITEMS,
                     ) -> list[R]:
    """``[fn(item) for item in items]``, computed by a pool of processes when worth it.

    ``fn`` and the items must pickle. Fork is used only when no other thread could hold a
    lock across it (a build inside a server thread spawns fresh interpreters instead).
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
        try:
            pool = _shared.get() if _shared is not None else None
            if pool is None:  # this map's own pool, ended with it
                method = "fork" if threading.active_count() == 1 else "spawn"
                pool = self._pool = ProcessPoolExecutor(
                    count, mp_context=multiprocessing.get_context(method),
                    initializer=_die_with_parent, initargs=(os.getpid(),))
            # Every task is handed over now: with fork, a new pool's workers start here,
            # while this is still the only thread (the pool's own thread starts after them).
            self._tasks = [pool.submit(_run, fn, items[start:end])
                           for start, end in _batches(len(items), count)]
        except (BrokenProcessPool, OSError, RuntimeError):
            self.cancel()  # done in this process

    def result(self) -> list[R]:
        """The results in the order of the items (computed here if no pool could start)."""
        return [value for batch in self.batches() for value in batch]

    def batches(self) -> Iterator[list[R]]:
        """The results a batch at a time, in the order of the items, each as soon as it is
        done: a caller can report progress. Without a pool, one batch, computed here; a pool
        that breaks midway leaves the rest to this process."""
        if not self._tasks:
            yield [self._fn(item) for item in self._items]
            return
        done = 0
        try:
            for task in self._tasks:
                try:
                    batch = task.result()
                except (BrokenProcessPool, OSError):
                    yield [self._fn(item) for item in self._items[done:]]
                    return
                done += len(batch)
                yield batch
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


class Lazy(Sequence[R]):
    """``[make(item) for item in items]``, each made when it is asked for. Given to
    ``start_in_processes``, the items are made and handed over a batch at a time: the other
    processes start on the first batch while this one makes the rest (they waited a tenth
    of a second at 10,000 sections while it made every item first)."""

    def __init__(self, items: Sequence[A], make: Callable[[A], R]):
        self._items, self._make = items, make

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self._make(item) for item in self._items[index]]
        return self._make(self._items[index])


def _batches(count: int, processes: int) -> Iterator[tuple[int, int]]:
    """(start, end) of each batch of ``count`` items handed to ``processes``: large at
    first (an eighth of each process's share of what is left, as large as the batches were
    when they were all one size), smaller and smaller down to a thirty-second of each
    one's share (a sixty-fourth of the items for two), so the processes run out of work at
    nearly the same time."""
    least = max(1, count // (processes * 32))
    start = 0
    while start < count:
        end = min(count, start + max(least, (count - start) // (processes * 8)))
        yield start, end
        start = end


def _run(fn: Callable[[A], R], items: Sequence[A]) -> list[R]:
    return [fn(item) for item in items]


def start_in_processes(fn: Callable[[A], R], items: Sequence[A], min_items: int = MIN_ITEMS,
                       ) -> Started[R]:
    """``map_in_processes``, handed to the pool now and collected with ``result()``; with
    ``min_items`` 1, even a single item goes to another process, so this one is free."""
    return Started(fn, items, min_items)


_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int) -> None:
    """A worker ends when the build that started it is killed. Otherwise it would wait for
    work forever, holding the build lock it inherited, and the next build would be refused."""
    if sys.platform.startswith("linux"):
        # The process's own symbols include libc's; find_library would run ldconfig.
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # it died before the line above took effect
        os._exit(1)
