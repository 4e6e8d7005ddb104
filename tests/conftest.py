"""Shared fixtures: indexes are built once per test session into temporary folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from lessonsearch.build import build_index

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
