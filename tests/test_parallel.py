"""Build work handed to other processes gives what the plain loop gives, in order, and a
build forks its processes once, however many maps it makes."""

from __future__ import annotations

import os
from contextlib import nullcontext

import pytest

from lessonsearch import parallel
from lessonsearch.parallel import map_in_processes, shared_pool, start_in_processes

PARENT = os.getpid()

pytestmark = pytest.mark.skipif(parallel.workers() < 2, reason="one core: nothing is forked")


def square(n: int) -> int:
    return n * n


def pid(_: int) -> int:
    return os.getpid()


def fail_on_seven(n: int) -> int:
    if n == 7:
        raise ValueError("seven")
    return n


def die_on_seven_elsewhere(n: int) -> int:
    """Kills a worker process (never this one) at item 7."""
    if n == 7 and os.getpid() != PARENT:
        os._exit(3)
    return n


def test_results_are_the_loops_in_order():
    items = list(range(500))
    assert map_in_processes(square, items) == [n * n for n in items]
    assert map_in_processes(square, items[:3]) == [0, 1, 4]  # too few: done here


def test_a_build_forks_its_processes_once_for_all_its_maps():
    with shared_pool():
        first = set(map_in_processes(pid, range(200)))
        second = set(start_in_processes(pid, range(5), min_items=1).result())
    assert PARENT not in first
    assert second <= first  # the same processes, not new ones
    assert not set(map_in_processes(pid, range(200))) & first  # the block's pool is gone


def test_an_error_in_the_work_is_raised_here():
    for block in (shared_pool, nullcontext):
        with block(), pytest.raises(ValueError, match="seven"):
            map_in_processes(fail_on_seven, range(100))


def test_a_worker_that_dies_costs_nothing_but_time():
    with shared_pool():
        assert map_in_processes(die_on_seven_elsewhere, range(100)) == list(range(100))
        # The pool is broken now: what follows is done in this process.
        assert map_in_processes(square, range(100)) == [n * n for n in range(100)]

