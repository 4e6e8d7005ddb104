"""A build killed with SIGKILL at any moment leaves the live index intact, and the next build
succeeds and clears what the killed one left (its ``.tmp`` folder, a half-made link).

``lessonsearch index`` runs in a child process on a generated course of about 400 sections
(1,200 where the build must be running worker processes) and is killed either some time
into reading the lessons (a spread of moments across a full build), or at a named step of
publishing, by a child that wraps that step to kill itself.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lessonsearch.build import build_index
from lessonsearch.index_store import current_version
from lessonsearch.searcher import Searcher
from lessonsearch.whoosh_writer import POOL_MIN_DOCS

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from generate_course import generate  # noqa: E402

SECTIONS = 400
SECTIONS_WITH_WORKERS = POOL_MIN_DOCS + 200
"""Enough for a full build to write its segments in worker processes."""
QUERY = "attention head"
START_SECONDS = 30
FINISH_SECONDS = 60

STAGE_KILLER = """
import os, signal, sys
from lessonsearch import index_store, whoosh_writer
from lessonsearch.cli import main

def die(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)

def then_die(original):
    def wrapped(*args, **kwargs):
        original(*args, **kwargs)
        die()
    return wrapped

stage = sys.argv[1]
if stage == "whoosh-written":          # the new version's files, without a manifest
    whoosh_writer.WhooshWrite.finish = then_die(whoosh_writer.WhooshWrite.finish)
elif stage == "version-complete":      # manifest written and synced, still v-….tmp
    index_store._fsync_tree = then_die(index_store._fsync_tree)
elif stage == "version-renamed":       # v-… in place, `current` not yet pointing to it
    index_store.os.symlink = die
elif stage == "new-link-made":         # .current.xxxx made, not yet swapped in
    index_store.os.symlink = then_die(index_store.os.symlink)
elif stage == "link-swapped":          # `current` swapped, old versions not yet pruned
    index_store._prune = die
sys.exit(main(sys.argv[2:]))
"""
STAGES = ["whoosh-written", "version-complete", "version-renamed", "new-link-made",
          "link-swapped"]
SECONDS_INTO_BUILD = [0.0, 0.3, 0.8, 1.5, 2.5]
"""After the first lesson is read; a full build of the course takes a few seconds here."""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generated course and a first index version of it, copied by each test."""
    folder = tmp_path_factory.mktemp("crash")
    generate(folder / "course", SECTIONS)
    build_index(folder / "course" / "lessons", folder / "course" / "glossary", folder / "index")
    return folder


@pytest.fixture
def site(built: Path, tmp_path: Path) -> Path:
    return _copy(built, tmp_path)


@pytest.fixture
def large_site(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> Path:
    folder = tmp_path_factory.mktemp("crash-large")
    generate(folder / "course", SECTIONS_WITH_WORKERS)
    build_index(folder / "course" / "lessons", folder / "course" / "glossary", folder / "index")
    return _copy(folder, tmp_path)


def _copy(built: Path, to: Path) -> Path:
    shutil.copytree(built / "course", to / "course")
    shutil.copytree(built / "index", to / "index", symlinks=True)
    return to


def index_command(site: Path, *extra: str) -> list[str]:
    return ["index", "--lessons", str(site / "course" / "lessons"),
            "--glossary", str(site / "course" / "glossary"), "--out", str(site / "index"),
            *extra]


def answer(index_dir: Path) -> tuple[str, int]:
    """The live version's name, and how many sections match QUERY there."""
    searcher = Searcher.open(index_dir)
    try:
        return searcher.version, searcher.search(QUERY).total
    finally:
        searcher.close()


def leftovers(index_dir: Path) -> list[str]:
    return sorted(p.name for p in index_dir.iterdir()
                  if p.name.endswith(".tmp") or p.name.startswith(".current."))


def recovers(site: Path, before: tuple[str, int]) -> None:
    """The live version answers as it did; the next build succeeds and cleans up."""
    index_dir = site / "index"
    assert answer(index_dir)[1] == before[1] > 0
    report = build_index(site / "course" / "lessons", site / "course" / "glossary", index_dir)
    assert current_version(index_dir).name == report.version
    assert answer(index_dir)[1] == before[1]
    assert leftovers(index_dir) == []


def change_a_lesson(site: Path) -> None:
    lesson = sorted((site / "course" / "lessons").glob("*.md"))[0]
    lesson.write_text(lesson.read_text(encoding="utf-8") + "\nOne more line.\n",
                      encoding="utf-8")


def child_env() -> dict[str, str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("LESSONSEARCH_INDEX", None)
    return env


@pytest.mark.parametrize("seconds", SECONDS_INTO_BUILD)
def test_a_build_killed_part_way_leaves_the_live_index_intact(site: Path, seconds: float):
    before = answer(site / "index")
    log = site / "build.log"
    with log.open("w") as out:
        child = subprocess.Popen(
            [sys.executable, "-m", "lessonsearch.cli", *index_command(site, "--full")],
            stdout=out, stderr=subprocess.STDOUT, env=child_env(), cwd=site,
        )
        try:
            started = wait_for_line(log, "read ", child)
            if started:
                time.sleep(seconds)
            child.send_signal(signal.SIGKILL)
        finally:
            child.wait(FINISH_SECONDS)
    assert started, f"the build never began reading:\n{log.read_text()}"
    assert child.returncode in (0, -signal.SIGKILL)  # 0: it finished before the kill
    if any(name.endswith(".tmp") for name in leftovers(site / "index")):
        assert answer(site / "index")[0] == before[0]  # killed before its version was whole
    recovers(site, before)


@pytest.mark.parametrize("stage", STAGES)
def test_a_build_killed_while_publishing_leaves_a_whole_version_live(site: Path, stage: str):
    before = answer(site / "index")
    change_a_lesson(site)  # an incremental build, so the killed one differs from the live one
    child = subprocess.run(
        [sys.executable, "-c", STAGE_KILLER, stage, *index_command(site)],
        capture_output=True, text=True, env=child_env(), cwd=site, timeout=FINISH_SECONDS,
    )
    assert child.returncode == -signal.SIGKILL, child.stdout + child.stderr
    live = answer(site / "index")
    if stage == "link-swapped":
        assert live[0] > before[0]  # the new version is live, and whole
    else:
        assert live[0] == before[0]
    recovers(site, before)


def test_a_build_killed_while_its_worker_processes_run_takes_them_with_it(large_site: Path):
    """Per-lesson stages run in a pool of processes, which inherit the build's lock: killing
    the build must end them too, or they would hold the lock and refuse the next build."""
    site = large_site
    before = answer(site / "index")
    child = subprocess.Popen(
        [sys.executable, "-m", "lessonsearch.cli", *index_command(site, "--full")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=child_env(), cwd=site,
    )
    try:
        workers = wait_for_children(child)
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(FINISH_SECONDS)
    assert workers, "the build never started worker processes"
    deadline = time.monotonic() + FINISH_SECONDS
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in workers)
    recovers(site, before)


def wait_for_children(child: subprocess.Popen) -> list[int]:
    """The process ids of the child's own children, once it has some (none if it exits)."""
    deadline = time.monotonic() + START_SECONDS
    listing = Path(f"/proc/{child.pid}/task/{child.pid}/children")
    while time.monotonic() < deadline and child.poll() is None:
        try:
            pids = [int(pid) for pid in listing.read_text().split()]
        except OSError:
            pids = []
        if pids:
            return pids
        time.sleep(0.002)
    return []


def alive(pid: int) -> bool:
    """Running (not a zombie left for its new parent to reap)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def wait_for_line(log: Path, text: str, child: subprocess.Popen) -> bool:
    """Until ``text`` is in the child's output; False if it exits or START_SECONDS pass."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if text in log.read_text(encoding="utf-8", errors="replace"):
            return True
        if child.poll() is not None:
            return False
        time.sleep(0.01)
    return False
