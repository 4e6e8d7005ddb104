"""A running server picks up each rebuilt index version without a restart, under load.

The real server (gunicorn, 2 workers × 4 threads) serves a copy of the tiny course while
client threads search it without pause and the index is rebuilt five times. Version ``k`` of
the course has a lesson with ``k + 1`` sections, each headed "Quokka versionk", so a search
for "quokka" tells which version answered and whether the answer is whole: every hit names
the same version, and there are exactly as many hits as that version has sections.

Each worker swaps a new version in once it has checked its files, in the background, and
until then answers from the one it serves: a client whose requests go to both workers may
have an answer from the version before after one from the new one, for as long as the check
takes. Each answer is still one whole version, and each version answers with its own ETag.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from test_web_server import fetch, fetch_json, server, until_served
from web_fixtures import build, copy_course

REBUILDS = 5
CLIENTS = 4
DEADLINE_SECONDS = 60
MAX_REQUESTS_PER_CLIENT = 5_000
SEARCH = "/api/search?q=quokka&limit=50"
TAG = re.compile(r"version(\d+)")


def marker_lesson(k: int) -> str:
    sections = "".join(
        f"\n## Quokka version{k} part {n}\n\nThe quokka of version{k} lives in part {n}.\n"
        for n in range(k + 1)
    )
    return f"---\ntitle: Quokka notes\nslug: quokka\n---\n{sections}"


@dataclass
class Client:
    """What one client thread saw, in order: the version of each answer, and any failure."""

    seen: list[int] = field(default_factory=list)
    etags: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))
    failures: list[str] = field(default_factory=list)

    def run(self, base: str, stop: threading.Event, deadline: float) -> None:
        for _ in range(MAX_REQUESTS_PER_CLIENT):
            if stop.is_set() or time.monotonic() > deadline:
                return
            try:
                status, headers, body = fetch(base + SEARCH)
            except OSError as error:  # refused, reset, timed out: all count as failures
                self.failures.append(f"connection error: {error!r}")
                continue
            if status != 200:
                self.failures.append(f"status {status}: {body[:200]!r}")
                continue
            version = whole_version(body)
            if version is None:
                self.failures.append(f"hits from more than one version: {body[:300]!r}")
                continue
            self.seen.append(version)
            self.etags[headers.get("ETag", "")].add(version)


def whole_version(body: bytes) -> int | None:
    """The version every hit comes from, if they agree and all its sections are there."""
    found = json.loads(body)
    tags = {int(t) for hit in found["results"] for t in TAG.findall(hit["heading"] or "")}
    if len(tags) != 1:
        return None
    (k,) = tags
    complete = found["total"] == k + 1 and len(found["results"]) == k + 1
    return k if complete else None


def test_rebuilds_under_load_are_served_whole_and_without_errors(tmp_path: Path):
    course = copy_course(tmp_path / "course")
    lesson = course / "lessons" / "05-quokka.md"
    lesson.write_text(marker_lesson(0), encoding="utf-8")
    index_dir = tmp_path / "index"
    versions = [build(course, index_dir)]

    with server(index_dir, tmp_path, "--workers", "2", "--threads", "4") as base:
        stop = threading.Event()
        deadline = time.monotonic() + DEADLINE_SECONDS
        clients = [Client() for _ in range(CLIENTS)]
        threads = [threading.Thread(target=c.run, args=(base, stop, deadline), daemon=True)
                   for c in clients]
        for thread in threads:
            thread.start()
        try:
            wait_until_seen(clients, 0, deadline)
            for k in range(1, REBUILDS + 1):
                lesson.write_text(marker_lesson(k), encoding="utf-8")
                versions.append(build(course, index_dir))
                wait_until_seen(clients, k, deadline)
        finally:
            stop.set()
            for thread in threads:
                thread.join(15)

        assert not any(t.is_alive() for t in threads), "a client thread did not stop"
        failures = [f for c in clients for f in c.failures]
        assert failures == [], f"{len(failures)} failed requests, first ones: {failures[:5]}"
        seen = {k for c in clients for k in c.seen}
        assert seen == set(range(REBUILDS + 1))
        etags: dict[str, set[int]] = defaultdict(set)
        for client in clients:
            for etag, ks in client.etags.items():
                etags[etag] |= ks
        assert all(len(ks) == 1 for ks in etags.values()), "one ETag for two versions"
        assert len(etags) == REBUILDS + 1, "each version answers with its own ETag"

        until_served(base, versions[-1])
        for _ in range(6):  # both workers, in all likelihood
            status, health = fetch_json(base + "/healthz")
            assert status == 200 and health["version"] == versions[-1]
            status, _, body = fetch(base + SEARCH)
            assert status == 200 and whole_version(body) == REBUILDS


def wait_until_seen(clients: list[Client], k: int, deadline: float) -> None:
    """Until some client has had an answer from version ``k`` (bounded by ``deadline``)."""
    while time.monotonic() < deadline:
        if any(c.seen and c.seen[-1] >= k for c in clients):
            return
        if any(c.failures for c in clients):
            return  # the assertions after the run report them
        time.sleep(0.02)
