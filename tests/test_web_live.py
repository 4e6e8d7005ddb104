"""LiveIndex: one open version per worker, swapped for a rebuild, closed when unused."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import pytest
from web_fixtures import build, copy_course

from lessonsearch.errors import IndexNotBuilt
from lessonsearch.searcher import Searcher
from lessonsearch.web.live import LiveIndex


class CountingOpener:
    """Opens real Searchers and remembers them, to count opens and see which were closed."""

    def __init__(self):
        self.opened: list[Searcher] = []
        self.closed: list[str] = []
        self._lock = threading.Lock()

    def __call__(self, folder: Path) -> Searcher:
        searcher = Searcher(folder)
        original_close = searcher.close

        def close() -> None:
            self.closed.append(searcher.version)
            original_close()

        searcher.close = close  # type: ignore[method-assign]
        with self._lock:
            self.opened.append(searcher)
        return searcher


@pytest.fixture
def course(tmp_path: Path) -> Path:
    return copy_course(tmp_path / "course")


@pytest.fixture
def live(tmp_path: Path):
    opener = CountingOpener()
    live = LiveIndex(tmp_path / "index", opener=opener)
    live.opener = opener  # type: ignore[attr-defined]
    yield live
    live.close()


def served_once_swapped(live: LiveIndex, version: str):
    """The version ``live`` serves, asked again until it is ``version``: one a request finds
    ``current`` naming while another serves is opened and checked in the background."""
    deadline = time.monotonic() + 60
    while True:
        opened = live.acquire()
        live.release(opened)
        if opened.version == version or time.monotonic() > deadline:
            return opened
        time.sleep(0.01)


def test_the_same_version_is_opened_once_and_reused(live, course):
    build(course, live.index_dir)
    first = live.acquire()
    live.release(first)
    second = live.acquire()
    live.release(second)
    assert first is second
    assert len(live.opener.opened) == 1


def test_concurrent_first_requests_open_the_version_once(live, course):
    build(course, live.index_dir)
    got: list[object] = []
    start = threading.Barrier(8)

    def request() -> None:
        start.wait()
        opened = live.acquire()
        got.append(opened)
        live.release(opened)

    threads = [threading.Thread(target=request) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(got) == 8 and len({id(x) for x in got}) == 1
    assert len(live.opener.opened) == 1


def test_a_rebuild_is_picked_up_and_the_old_version_closed_after_its_last_request(live, course):
    first_version = build(course, live.index_dir)
    in_flight = live.acquire()
    second_version = build(course, live.index_dir, full=True)

    assert served_once_swapped(live, second_version).version == second_version
    fresh = live.acquire()
    assert fresh.version == second_version != first_version
    # The request that started before the rebuild still reads its own, complete version.
    assert in_flight.version == first_version
    assert in_flight.searcher.search("token").version == first_version
    assert live.opener.closed == []

    live.release(in_flight)
    assert live.opener.closed == [first_version]
    live.release(fresh)
    assert live.opener.closed == [first_version]
    assert live.version == second_version


def test_no_index_raises_until_one_is_built(live, course):
    with pytest.raises(IndexNotBuilt):
        live.acquire()
    assert live.warm() is False
    build(course, live.index_dir)
    assert live.warm() is True
    opened = live.acquire()
    assert opened.manifest["counts"]["lessons"] == 4
    live.release(opened)


def test_suggestions_are_built_once_per_version(live, course):
    build(course, live.index_dir)
    opened = live.acquire()
    assert opened.suggestions is opened.suggestions
    assert len(opened.suggestions) > 0
    live.release(opened)


def test_close_closes_every_open_version(live, course):
    version = build(course, live.index_dir)
    live.release(live.acquire())
    live.close()
    assert live.opener.closed == [version]
    assert live.version is None


def test_a_version_that_cannot_be_opened_leaves_the_previous_one_serving(tmp_path, course):
    index_dir = tmp_path / "index"
    good = build(course, index_dir)
    attempts: list[str] = []

    def opener(folder: Path) -> Searcher:
        attempts.append(folder.name)
        if folder.name != good:
            raise ValueError("an index written by an incompatible version")
        return Searcher(folder)

    live = LiveIndex(index_dir, opener=opener)
    try:
        live.release(live.acquire())
        bad = build(course, index_dir, full=True)
        deadline = time.monotonic() + 60
        while live.not_loaded() is None and time.monotonic() < deadline:
            opened = live.acquire()
            assert opened.version == good
            live.release(opened)
            time.sleep(0.01)
        for _ in range(3):
            opened = live.acquire()
            assert opened.version == good
            live.release(opened)
        assert attempts == [good, bad]  # tried once, not on every request
    finally:
        live.close()


def test_an_unopenable_first_version_is_an_error_not_a_stale_answer(tmp_path, course):
    index_dir = tmp_path / "index"
    build(course, index_dir)

    def opener(folder: Path) -> Searcher:
        raise ValueError("an index written by an incompatible version")

    live = LiveIndex(index_dir, opener=opener)
    with pytest.raises(ValueError):
        live.acquire()
    assert live.warm() is False


def test_a_current_link_to_nothing_leaves_the_previous_version_serving(tmp_path, course):
    """A ``current`` removed, or naming a folder not (yet) copied: no 503 while a version can
    answer, and the health check is told why."""
    index_dir = tmp_path / "index"
    good = build(course, index_dir)
    live = LiveIndex(index_dir)
    try:
        live.release(live.acquire())
        assert live.not_loaded() is None
        (index_dir / "current").unlink()
        for _ in range(2):
            opened = live.acquire()
            assert opened.version == good
            live.release(opened)
        assert not_loaded_once_tried(live) == ("", "The index folder has no current link.")
        (index_dir / "current").symlink_to("v-not-copied-yet")
        assert not_loaded_once_tried(live) == (
            "v-not-copied-yet",
            "It has no manifest: the folder is not there, or was not copied in full.")
        assert live.version == good
    finally:
        live.close()


def not_loaded_once_tried(live: LiveIndex) -> tuple[str, str] | None:
    """``not_loaded``, asked again after a request until it says something: the version
    ``current`` names is tried in the background while another serves."""
    deadline = time.monotonic() + 60
    while True:
        live.release(live.acquire())
        if live.not_loaded() is not None or time.monotonic() > deadline:
            return live.not_loaded()
        time.sleep(0.01)


def test_no_request_waits_for_a_new_version_to_be_opened_and_checked(tmp_path, course):
    """While one version serves, a request that finds ``current`` naming another gets the one
    served: the new one is opened and its files read in the background, and swapped in once
    they are as its build wrote them."""
    index_dir = tmp_path / "index"
    first = build(course, index_dir)
    go_on = threading.Event()

    def opener(folder: Path) -> Searcher:
        if folder.name != first:
            go_on.wait(60)  # a slow disk, for as long as the test needs
        return Searcher(folder)

    live = LiveIndex(index_dir, opener=opener)
    try:
        live.release(live.acquire())
        second = build(course, index_dir, full=True)
        for _ in range(3):
            opened = live.acquire()
            assert opened.version == first
            live.release(opened)
        go_on.set()
        assert served_once_swapped(live, second).version == second
        assert live.not_loaded() is None
    finally:
        go_on.set()
        live.close()


def test_a_version_whose_folder_goes_while_it_is_checked_is_not_swapped_in(tmp_path, course):
    """Removed after it opened, before its files were all read: the one served stays."""
    index_dir = tmp_path / "index"
    first = build(course, index_dir)

    def opener(folder: Path) -> Searcher:
        searcher = Searcher(folder)
        if folder.name != first:
            shutil.rmtree(folder)
        return searcher

    live = LiveIndex(index_dir, opener=opener)
    try:
        live.release(live.acquire())
        second = build(course, index_dir, full=True)
        assert not_loaded_once_tried(live) == (
            second, "It has no manifest: the folder is not there, or was not copied in full.")
        opened = live.acquire()
        assert opened.version == first
        assert opened.searcher.search("token").total > 0
        live.release(opened)
    finally:
        live.close()


def test_a_request_that_raced_a_failed_swap_does_not_try_the_version_again(
        tmp_path, course, monkeypatch):
    """A request that found ``current`` naming a version not yet tried, and lost the CPU
    while it checked the folder of the one served (a ``stat``, which lets the other threads
    run), while the swap in the background tried that version and failed: it serves the
    one served and starts no second try (which logged the failure a second time)."""
    index_dir = tmp_path / "index"
    good = build(course, index_dir)
    attempts: list[str] = []
    swap_may_fail, paused, may_go_on = threading.Event(), threading.Event(), threading.Event()

    def opener(folder: Path) -> Searcher:
        if folder.name != good:
            swap_may_fail.wait(60)
            attempts.append(folder.name)
            raise ValueError("an index written by an incompatible version")
        attempts.append(folder.name)
        return Searcher(folder)

    is_dir = Path.is_dir

    def checking(path: Path) -> bool:
        if threading.current_thread().name == "late request" and path.name == good:
            paused.set()
            may_go_on.wait(60)
        return is_dir(path)

    monkeypatch.setattr(Path, "is_dir", checking)
    live = LiveIndex(index_dir, opener=opener)
    served: list[str] = []

    def late_request() -> None:
        opened = live.acquire()
        served.append(opened.version)
        live.release(opened)

    try:
        live.release(live.acquire())
        bad = build(course, index_dir, full=True)
        live.release(live.acquire())  # starts the swap, which waits in the opener
        request = threading.Thread(target=late_request, name="late request")
        request.start()
        assert paused.wait(60)  # it saw no failed version yet
        swap_may_fail.set()
        assert not_loaded_once_tried(live)[0] == bad
        while any(t.name == "open the current index version" for t in threading.enumerate()):
            time.sleep(0.01)
        may_go_on.set()
        request.join(60)
        while any(t.name == "open the current index version" for t in threading.enumerate()):
            time.sleep(0.01)
        assert served == [good]
        assert attempts == [good, bad]
    finally:
        swap_may_fail.set()
        may_go_on.set()
        live.close()
