"""A count in words: ``1 lesson``, ``2 lessons``. One helper, so that every line the CLI and
the coverage report print agrees in number with its count."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None, width: int = 0) -> str:
    """``count`` and ``noun``, made plural unless the count is 1: ``plural`` where an "s" is
    not how (``counted(n, "entry", "entries")``); ``width`` right-aligns the number, for a
    column."""
    word = noun if count == 1 else plural or f"{noun}s"
    return f"{count:>{width}} {word}"
