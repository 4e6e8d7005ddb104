"""Build work handed to other processes gives what the plain loop gives, in order, and a
build forks its processes once, however many maps it makes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from contextlib import nullcontext
from pathlib import Path

import pytest

from lessonsearch import parallel
from lessonsearch.parallel import map_in_processes, shared_pool

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


def wait_for_file(path: str | None) -> bool | None:
    """True once ``path`` exists (False after 30 s); None at once for no path."""
    if path is None:
        return None
    for _ in range(3000):
        if os.path.exists(path):
            return True
        time.sleep(0.01)
    return False


def die_on_seven_elsewhere(n: int) -> int:
    """Kills a worker process (never this one) at item 7."""
    if n == 7 and os.getpid() != PARENT:
        os._exit(3)
    return n


def test_results_are_the_loops_in_order():
    items = list(range(500))
    assert map_in_processes(square, items) == [n * n for n in items]
    assert map_in_processes(square, items[:3]) == [0, 1, 4]  # too few: done here


def test_lazy_items_are_made_here_as_they_are_handed_over():
    """Each item is made once, in this process, and the results keep the items' order."""
    made: list[int] = []

    def make(n: int) -> int:
        made.append(n)
        return n + 1

    items = list(range(300))
    assert map_in_processes(square, parallel.Lazy(items, make)) == [(n + 1) ** 2 for n in items]
    assert made == items
    made.clear()
    assert map_in_processes(square, parallel.Lazy(items[:3], make)) == [1, 4, 9]  # done here
    assert made == [0, 1, 2]


def in_a_fresh_process(body: str) -> dict:
    """Run ``body`` in a new interpreter, as a build runs: a pool is shared only where fork
    is safe, with no other thread, and this test process may hold other tests' threads."""
    script = textwrap.dedent("""
        import json, os
        from test_parallel import die_on_seven_elsewhere, pid, square, wait_for_file
        from lessonsearch.parallel import map_in_processes, shared_pool, start_in_processes
        out = {}
    """) + textwrap.dedent(body) + "\nprint(json.dumps(out))\n"
    tests = str(Path(__file__).resolve().parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [tests, *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=60, check=True)
    return json.loads(done.stdout)


def test_a_build_forks_its_processes_once_for_all_its_maps():
    out = in_a_fresh_process("""
        with shared_pool():
            out["first"] = sorted(set(map_in_processes(pid, range(200))))
            out["second"] = sorted(set(start_in_processes(pid, range(5), min_items=1).result()))
        out["after"] = sorted(set(map_in_processes(pid, range(200))))
        out["parent"] = os.getpid()
    """)
    first, second, after = set(out["first"]), set(out["second"]), set(out["after"])
    assert out["parent"] not in first
    assert second <= first  # the same processes, not new ones
    assert not after & first  # the block's pool is gone


def test_batches_come_back_as_they_are_done(tmp_path: Path):
    """The first batch comes back while the last is still running: its item waits for a
    file this process writes only once it holds the first batch."""
    flag = str(tmp_path / "first batch seen")
    out = in_a_fresh_process(f"""
        with shared_pool():
            started = start_in_processes(wait_for_file, [None] * 199 + [{flag!r}])
            batches = started.batches()
            out["first"] = next(batches)
            open({flag!r}, "w").close()
            out["rest"] = [value for batch in batches for value in batch]
    """)
    assert out["first"] and set(out["first"]) == {None}
    assert len(out["first"]) + len(out["rest"]) == 200
    assert out["rest"][-1] is True  # it saw the file: it was still running


def test_an_error_in_the_work_is_raised_here():
    for block in (shared_pool, nullcontext):
        with block(), pytest.raises(ValueError, match="seven"):
            map_in_processes(fail_on_seven, range(100))


def test_a_worker_that_dies_costs_nothing_but_time():
    out = in_a_fresh_process("""
        with shared_pool():
            out["died"] = map_in_processes(die_on_seven_elsewhere, range(100))
            # The pool is broken now: what follows is done in this process.
            out["after"] = map_in_processes(square, range(100))
        out["alone"] = map_in_processes(die_on_seven_elsewhere, range(100))
    """)
    assert out["died"] == out["alone"] == list(range(100))
    assert out["after"] == [n * n for n in range(100)]


@pytest.mark.parametrize("count", [1, 7, 64, 1250, 12_500])
def test_batches_cover_every_item_once_and_end_small(count: int):
    """Largest first, so the processes finish together: the last batch is at most a
    sixty-fourth of the items (for two processes), never larger than any before it."""
    batches = list(parallel._batches(count, 2))
    assert [start for start, _ in batches] == [0, *(end for _, end in batches[:-1])]
    assert batches[-1][1] == count
    sizes = [end - start for start, end in batches]
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[-1] <= max(1, count // 64)
    assert len(batches) <= max(count, 1) and (count < 64 or len(batches) <= 48)
