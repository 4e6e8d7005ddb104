"""Per-lesson build work spread over the machine's cores.

Reading lessons, finding definitions, counting term mentions and writing Whoosh segments are
all pure Python and independent per lesson (or per chunk), so a build hands them to a pool of
processes. Small batches, one core, or a pool that cannot start are done in this process:
the results are the same either way, in the order of the items.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Generic, TypeVar

A = TypeVar("A")
R = TypeVar("R")

MAX_PROCESSES = 4
MIN_ITEMS = 64
"""Fewer items than this are not worth starting processes for."""


def workers() -> int:
    return max(1, min(os.cpu_count() or 1, MAX_PROCESSES))


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
        if workers() < 2 or not items or len(items) < min_items:
            return  # done in this process when the result is asked for
        count = min(workers(), len(items))
        method = "fork" if threading.active_count() == 1 else "spawn"
        chunk = max(1, len(items) // (count * 8))
        try:
            self._pool = ProcessPoolExecutor(
                count, mp_context=multiprocessing.get_context(method),
                initializer=_die_with_parent, initargs=(os.getpid(),))
            # Every task is handed over now: with fork, the workers start here, while this
            # is still the only thread (the pool's own thread starts after them).
            self._results = self._pool.map(fn, items, chunksize=chunk)
        except OSError:
            self.cancel()

    def result(self) -> list[R]:
        """The results in the order of the items (computed here if no pool could start)."""
        if self._pool is None:
            return [self._fn(item) for item in self._items]
        try:
            return list(self._results)
        except (BrokenProcessPool, OSError):
            return [self._fn(item) for item in self._items]
        finally:
            self.cancel()

    def cancel(self) -> None:
        """Drop the tasks not yet begun and wait for the ones running (at most one each)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


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
