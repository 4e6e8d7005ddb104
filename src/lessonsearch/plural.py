"""Counts in words: "1 lesson", "2 lessons", "1 entry", "3 entries".

One helper for everything that prints a count: the CLI, the coverage report, and the HTML
pages and their templates (as the Jinja filters ``counted`` and ``plural``), so no line
says "1 lessons".
"""

from __future__ import annotations


def plural(noun: str, count: int, many: str | None = None) -> str:
    """``noun`` for a count of one, else ``many`` (default: ``noun`` plus "s")."""
    if count == 1:
        return noun
    return many if many is not None else noun + "s"


def counted(count: int, noun: str, many: str | None = None, width: int = 0) -> str:
    """``"1 lesson"``, ``"0 lessons"``: the count and its noun; ``width`` right-aligns the
    number, for a column."""
    return f"{count:>{width}} {plural(noun, count, many)}"


FILTERS = {"counted": counted, "plural": plural}
"""The Jinja filters: ``{{ n | counted("lesson") }}``, ``{{ "entry" | plural(n, "entries") }}``."""
