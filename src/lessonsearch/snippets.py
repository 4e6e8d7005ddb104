"""Snippets: the passage of a section that holds most of the query's words, as safe HTML.

The text is escaped and only the matched words are wrapped in ``<mark>``, so a page may insert
a snippet as HTML. Words match by their Snowball stems, as the index does, so "calculation"
marks "calculated". One pass of the shared tokenizer finds the matches; the window with the
most different query words wins, ties going to the earliest. This replaced Whoosh's
highlighter, whose generator pipeline took about a third of a query's time (bench/README.md),
and it reads the whole text rather than the first 32K characters.
"""

from __future__ import annotations

import html

from .analysis import WORD, stem

WIDTH = 220
"""Characters of text around the matches."""
ELLIPSIS = " … "


def snippet(text: str, marks: frozenset[str], width: int = WIDTH) -> str:
    """The best window of ``text`` with ``marks`` (stems) in ``<mark>``; "" when none match."""
    if not text or not marks:
        return ""
    hits = [(m.start(), m.end(), key) for m in WORD.finditer(text)
            if (key := stem(m.group(0).lower())) in marks]
    if not hits:
        return ""
    first, last = _best_window(hits, width)
    start = max(0, hits[first][0] - (width - (hits[last][1] - hits[first][0])) // 3)
    start = _word_start(text, start)
    end = _word_end(text, max(hits[last][1], min(len(text), start + width)))
    parts = [ELLIPSIS.lstrip() if start > 0 else ""]
    at = start
    for begin, finish, _ in hits[first:]:
        if begin >= end:
            break
        parts.append(html.escape(text[at:begin], quote=False))
        parts.append(f"<mark>{html.escape(text[begin:finish], quote=False)}</mark>")
        at = finish
    parts.append(html.escape(text[at:end], quote=False))
    if end < len(text):
        parts.append(ELLIPSIS.rstrip())
    return " ".join("".join(parts).split())


def _best_window(hits: list[tuple[int, int, str]], width: int) -> tuple[int, int]:
    """Indexes of the first and last hit of the window with the most distinct stems."""
    best = (0, 0)
    best_score = (0, 0)
    right = 0
    for left in range(len(hits)):
        right = max(right, left)
        while right + 1 < len(hits) and hits[right + 1][1] - hits[left][0] <= width:
            right += 1
        distinct = len({key for _, _, key in hits[left:right + 1]})
        score = (distinct, right - left + 1)
        if score > best_score:
            best, best_score = (left, right), score
    return best


def _word_start(text: str, at: int) -> int:
    """Back up to the start of the word ``at`` falls in, so no word is cut in half."""
    while at > 0 and not text[at - 1].isspace():
        at -= 1
    return at


def _word_end(text: str, at: int) -> int:
    while at < len(text) and not text[at].isspace():
        at += 1
    return at
