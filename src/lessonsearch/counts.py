"""Counts in words ("1 lesson", "2 lessons", "1 entry", "3 entries"), and counts as a
client writes them.

One helper for everything that prints a count: the CLI, the coverage report, and the HTML
pages and their templates (as the Jinja filters ``counted`` and ``plural``), so no line
says "1 lessons". One reader of a count a client sends (``whole_number``), so the CLI
refuses what the API refuses.
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


def whole_number(raw: str) -> int | None:
    """A count as ``limit=``, ``page=`` or ``--lessons`` give it: digits alone (no sign, no
    space: ``limit=%205`` is a client's bug worth hearing about) for a number of at least 1;
    None for anything else. Past nine digits it is 10**9, above every bound the service
    has: ``int()`` refuses thousands of digits."""
    if not (raw.isascii() and raw.isdigit()) or not raw.strip("0"):
        return None
    return int(raw) if len(raw.lstrip("0")) <= 9 else 10**9


FILTERS = {"counted": counted, "plural": plural}
"""The Jinja filters: ``{{ n | counted("lesson") }}``, ``{{ "entry" | plural(n, "entries") }}``."""
