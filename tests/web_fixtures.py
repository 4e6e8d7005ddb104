"""Helpers for the web tests, imported by the ``test_web_*`` modules.

Web tests read the session's ``tiny_index`` (conftest.py). Tests that need an index of their
own (a rebuild, odd characters) copy the tiny course and build into a temporary folder.
Every app is closed after use: Whoosh files left open surface as ResourceWarnings, which the
test settings turn into errors.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from lessonsearch.build import build_index
from lessonsearch.web import Settings, create_app
from lessonsearch.web.request_index import live_index

TINY = Path(__file__).resolve().parent / "data" / "course"

ODD_LESSON = """---
title: Zephyr <b>& friends</b>
slug: zephyr
---

## Odd characters

The zephyrology of models & "quotes" <i>is studied</i> here.
"""
"""A lesson with markup and entities in its title and body, to see them escaped."""


def copy_course(dest: Path) -> Path:
    """A writable copy of the tiny course; returns its folder (with lessons/ and glossary/)."""
    shutil.copytree(TINY, dest)
    return dest


def build(course: Path, index_dir: Path, full: bool = False) -> str:
    """Build ``course`` into ``index_dir``; returns the live version: a new one, unless
    nothing changed since the last build (``full`` always makes a new one)."""
    return build_index(course / "lessons", course / "glossary", index_dir, full=full).version


@contextmanager
def serving(index_dir: Path, **settings: Any) -> Iterator[FlaskClient]:
    """A test client for an app over ``index_dir``; the app's index is closed afterwards."""
    app = create_app(Settings(index_dir=index_dir, **settings))
    try:
        yield app.test_client()
    finally:
        live_index(app).close()


def health_until(client: FlaskClient, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """/healthz's body, asked again until ``done`` holds of it (for a minute at most): a
    server that serves a version opens the one ``current`` names next, and checks its files,
    in the background, answering from the one it serves until then."""
    deadline = time.monotonic() + 60
    while True:
        body = client.get("/healthz").get_json()
        if done(body) or time.monotonic() > deadline:
            return body
        time.sleep(0.01)


def build_odd_index(folder: Path) -> Path:
    """The tiny course plus ODD_LESSON, built into ``folder/index``."""
    course = copy_course(folder / "course")
    (course / "lessons" / "05-zephyr.md").write_text(ODD_LESSON, encoding="utf-8")
    index_dir = folder / "index"
    build(course, index_dir)
    return index_dir


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class Page(HTMLParser):
    """The parts of an HTML page the tests look at: tags with attributes, and the text."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self._inside: dict[int, set[str]] = {}
        """For each tag (by position in ``tags``), the classes of the elements around it."""
        self._open: list[tuple[str, set[str]]] = []
        self._text: list[str] = []
        self._title: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attributes = {k: v or "" for k, v in attrs}
        self._inside[len(self.tags)] = set().union(*(c for _, c in self._open))
        self.tags.append((tag, attributes))
        if tag not in VOID:
            self._open.append((tag, set(attributes.get("class", "").split())))

    def handle_endtag(self, tag):
        for depth in range(len(self._open) - 1, -1, -1):
            if self._open[depth][0] == tag:
                del self._open[depth:]
                break

    def handle_data(self, data):
        if self._open and self._open[-1][0] == "title":
            self._title.append(data)
        self._text.append(data)

    @property
    def title(self) -> str:
        """The text of the page's ``<title>``, as a tab or a bookmark shows it."""
        return " ".join(" ".join(self._title).split())

    @property
    def text(self) -> str:
        return " ".join(" ".join(self._text).split())

    def find(self, tag: str, **attrs: str) -> list[dict[str, str]]:
        """Every ``tag`` whose attributes include ``attrs`` (``class_`` for ``class``)."""
        wanted = {k.rstrip("_"): v for k, v in attrs.items()}
        return [a for t, a in self.tags
                if t == tag and all(a.get(k) == v for k, v in wanted.items())]

    def links(self, within: str | None = None) -> list[str]:
        """Every link's href; only those inside an element of class ``within`` when given."""
        return [a["href"] for number, (t, a) in enumerate(self.tags)
                if t == "a" and "href" in a and (within is None or within in self._inside[number])]
