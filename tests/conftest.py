"""Shared fixtures: indexes are built once per test session into temporary folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from lessonsearch.build import build_index
from lessonsearch.searcher import Searcher

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
TINY = DATA / "course"


@pytest.fixture(scope="session")
def tiny_course() -> Path:
    """Four lessons, one per format plus a lesson without headings, and a small glossary."""
    return TINY


@pytest.fixture(scope="session")
def tiny_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tiny") / "index"
    build_index(TINY / "lessons", TINY / "glossary", out)
    return out


@pytest.fixture(scope="session")
def sample_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's own sample course, as ``make run`` serves it."""
    out = tmp_path_factory.mktemp("sample") / "index"
    build_index(ROOT / "lessons", ROOT / "glossary", out)
    return out


@pytest.fixture(scope="session")
def sample_searcher(sample_index: Path):
    """A searcher over ``sample_index``, shared: it only reads, from any thread."""
    opened = Searcher.open(sample_index)
    yield opened
    opened.close()


@pytest.fixture(scope="session")
def browser():
    """Debian's headless Chromium driven by Playwright, launched once for every browser test."""
    from browser_support import launch, require_browser

    sync_playwright, chromium = require_browser()
    with sync_playwright() as playwright:
        launched = launch(playwright, chromium)
        yield launched
        launched.close()


@pytest.fixture
def tab(browser):
    """A fresh page; it must log no console errors and ask for nothing outside loopback."""
    from browser_support import open_tab

    tab = open_tab(browser)
    yield tab
    tab.page.context.close()
    assert tab.unexpected_errors() == []
    assert tab.refused == []


@pytest.fixture(scope="session")
def service(sample_index: Path):
    """The real app on the sample course, on a free loopback port: the embedding service."""
    from browser_support import serve_app

    with serve_app(sample_index) as url:
        yield url


@pytest.fixture(scope="session")
def host(service: str):
    """A course site that embeds the service, on another loopback port (really cross-origin)."""
    from browser_support import serve_host_pages

    with serve_host_pages(service) as url:
        yield url
