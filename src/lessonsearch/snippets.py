"""Snippets: the passage of a section that holds most of the query's words, as safe HTML.

The text is escaped and only the matched words are wrapped in ``<mark>``, so a page may insert
a snippet as HTML. Words match by their Snowball stems, as the index does, so "calculation"
marks "calculated". One pass of the shared tokenizer finds the matches; the window with the
most of the query's phrases written whole wins (``data_file`` or "data file", not "file" in
passing), then the one with the most different query words, ties going to the earliest; of
a section's text and its code, the one whose best window is better so, the text on a tie.
This replaced Whoosh's highlighter, whose generator pipeline took about a third of a query's
time (bench/README.md), and it reads the whole text rather than the first 32K characters.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from .analysis import WORD, lowered, made_from, stem

WIDTH = 220
"""Characters of text around the matches."""
ELLIPSIS = " … "


Phrases = tuple[tuple[str, ...], ...]
"""The stems of runs of words a query wants side by side: an identifier (``data_file``) or a
quoted phrase."""


def snippet(text: str, marks: frozenset[str], width: int = WIDTH,
            family: frozenset[str] | None = None, phrases: Phrases = (),
            names: Phrases = ()) -> str:
    """The best window of ``text`` with ``marks`` (stems) in ``<mark>``; "" when none match."""
    return marked_snippet(text, marks, width, family=family, phrases=phrases, names=names)[0]


def _phrase_at(stems: list[str], phrases: Phrases) -> dict[int, int]:
    """For each word of ``stems`` that starts one of ``phrases``, the index of its last word."""
    starts: dict[int, int] = {}
    for phrase in phrases:
        size = len(phrase)
        for at in range(len(stems) - size + 1):
            if tuple(stems[at:at + size]) == phrase:
                starts[at] = max(starts.get(at, at), at + size - 1)
    return starts


def _marked(word: str, marks: frozenset[str], family: frozenset[str]) -> str | None:
    """The stem in ``marks`` that ``word`` is marked for: its own, or, for a stem in
    ``family``, that of the word it was made from (a "token" search marks "tokenizer", as the
    index counts it for "token"; a search for "token" in quotes does not)."""
    key = stem(word)
    if key in marks:
        return key
    return next((base for base in made_from(word) if base in family), None)


def marked_snippet(text: str, marks: frozenset[str], width: int = WIDTH,
                   blocks: bool = False,
                   family: frozenset[str] | None = None,
                   phrases: Phrases = (), names: Phrases = ()) -> tuple[str, int]:
    """``snippet``, and where in ``text`` its first marked word starts (-1 when none match).
    ``family``: the stems whose -ize words are marked too (all of ``marks`` when None).
    ``phrases``: a window that writes more of them whole wins over one with more words; only
    those whose every word is marked (a phrase's stop words are not). ``names``: runs of
    words marked where they are written whole, and only there: the names of several words of
    a term the query names ("Wi-Fi" for a search of wifi, where "fi" alone is nothing).

    With ``blocks``, ``text`` is a section's text (blocks joined by blank lines, see
    ``Section.text``): a block that ends without punctuation (a list item, a check question's
    answer) is followed by `` · ``, so list items do not run together into one sentence.
    """
    window = _window(text, marks, width, family, phrases, names)
    if window is None:
        return "", -1
    return _rendered(text, window, width, blocks), window.hits[window.first][0]


def section_snippet(text: str, code: str, marks: frozenset[str], width: int = WIDTH,
                    family: frozenset[str] | None = None, phrases: Phrases = (),
                    names: Phrases = ()) -> str:
    """The ``marked_snippet`` of a section's ``text`` (its blocks shown apart), or of its
    ``code`` where the code's passage is the fuller one (``_Window.fuller_than``): where only
    the code writes one of ``phrases`` whole (``data_file``, where the text says "each
    file"), or its passage holds every query word the text's does and more (``ipconfig
    /renew`` for "ipconfig renew", where the text names ipconfig alone). The text's
    otherwise, and whichever matches when only one does; "" when neither does."""
    prose = _window(text, marks, width, family, phrases, names)
    listing = _window(code, marks, width, family, phrases, names)
    if listing is not None and (prose is None or listing.fuller_than(prose, code, text)):
        return _rendered(code, listing, width, blocks=False, lines=True)
    return "" if prose is None else _rendered(text, prose, width, blocks=True)


@dataclass(frozen=True, slots=True)
class _Window:
    """The matched words of a text (start, end, stem), the first and last of its best
    window with that window's ``_best_window`` score, and whether the text writes one of the
    query's phrases whole anywhere (its stop words too: ``do_sample``)."""

    hits: list[tuple[int, int, str]]
    first: int
    last: int
    score: tuple[int, int, int]
    writes_phrase: bool

    def fuller_than(self, other: _Window, text: str, other_text: str) -> bool:
        """Whether this window of ``text`` (code) is to be shown before ``other``, of
        ``other_text`` (prose): its text writes a phrase whole where the other writes none,
        or, both or neither writing one, the different words it writes alone (not as a part
        of a name) are all of the other's and more. Code's names hold many words in passing
        (``max_new_tokens`` is no "new", ``use_cache`` no "use"), and a passage that leaves
        out a word the prose's shows is no better for another."""
        if self.writes_phrase != other.writes_phrase:
            return self.writes_phrase
        return self.words(text, alone=True) > other.words(other_text, alone=False)

    def words(self, text: str, alone: bool) -> set[str]:
        """The stems the window marks; with ``alone``, only of words that are no part of a
        name (``data_file``, ``numpy.mean``)."""
        return {key for start, end, key in self.hits[self.first:self.last + 1]
                if not alone or not (_joins(text, start - 1, start - 2)
                                     or _joins(text, end, end + 1))}


_NAME_JOINS = frozenset("_.")


def _joins(text: str, at: int, beyond: int) -> bool:
    """Whether ``text[at]`` joins a word to another in a name (``data_file``,
    ``numpy.mean``): an ``_`` or a ``.`` with a letter or digit on its far side, ``beyond``."""
    return (0 <= at < len(text) and text[at] in _NAME_JOINS
            and 0 <= beyond < len(text) and text[beyond].isalnum())


def _window(text: str, marks: frozenset[str], width: int, family: frozenset[str] | None,
            phrases: Phrases, names: Phrases = ()) -> _Window | None:
    """The best window of ``text`` (``marked_snippet``), None when no word of it is marked."""
    if not text or not (marks or names):
        return None
    family = marks if family is None else family
    found = [(m.start(), m.end(), lowered(m.group(0))) for m in WORD.finditer(text)]
    keys = [_marked(word, marks, family) for _, _, word in found]
    stems = [stem(word) for _, _, word in found] if names or phrases else []
    if names:
        for at, last in _phrase_at(stems, names).items():
            keys[at:last + 1] = [key or stems[n] for n, key in enumerate(keys[at:last + 1], at)]
    hits = [(start, end, key) for (start, end, _), key in zip(found, keys, strict=True)
            if key is not None]
    if not hits:
        return None
    written = bool(_phrase_at(stems, phrases))
    phrases = tuple(p for p in phrases if marks.issuperset(p))
    together: dict[int, int] = {}
    if phrases:  # in hits' places: every word of such a phrase is a hit
        place = {at: n for n, at in enumerate(i for i, key in enumerate(keys) if key)}
        together = {place[at]: place[last] for at, last in _phrase_at(stems, phrases).items()}
    first, last, score = _best_window(hits, width, together)
    return _Window(hits, first, last, score, written)


def _rendered(text: str, window: _Window, width: int, blocks: bool,
              lines: bool = False) -> str:
    """The window's passage of ``text``, escaped, its matched words in ``<mark>``; with
    ``lines`` (code), its line breaks kept (``squeezed``)."""
    hits, first, last = window.hits, window.first, window.last
    start = max(0, hits[first][0] - (width - (hits[last][1] - hits[first][0])) // 3)
    start = _word_start(text, start)
    end = _word_end(text, max(hits[last][1], min(len(text), start + width)))
    shown = _shown if blocks else _escaped
    parts = [ELLIPSIS.lstrip() if start > 0 else ""]
    at = start
    for begin, finish, _ in hits[first:]:
        if begin >= end:
            break
        parts.append(shown(text, at, begin))
        parts.append(f"<mark>{html.escape(text[begin:finish], quote=False)}</mark>")
        at = finish
    parts.append(shown(text, at, end))
    if end < len(text):
        parts.append(ELLIPSIS.rstrip())
    return squeezed("".join(parts), lines)


LINE_BREAK = "\n"
"""What a code snippet keeps between its lines (the pages and the widget show it as a line
break, the command line indents the next line): joined by spaces, ``ip -br addr`` and
``ip route`` on lines of their own read as one command."""


def squeezed(shown: str, lines: bool = False) -> str:
    """``shown`` with each run of spaces a single space; with ``lines`` (code), each line
    so, blank lines and the spaces that indent them dropped, ``LINE_BREAK`` between them."""
    if not lines:
        return " ".join(shown.split())
    kept = (" ".join(line.split()) for line in shown.splitlines())
    return LINE_BREAK.join(line for line in kept if line)


def plain_code(code: str, limit: int = WIDTH) -> str:
    """The start of a section's code, escaped, its lines kept as a code snippet keeps them
    (``squeezed``): for a section of code alone that matched by its heading or title."""
    shown = squeezed(code, lines=True)
    if len(shown) > limit:
        cut = shown[:limit]
        at = max(cut.rfind(" "), cut.rfind(LINE_BREAK))
        shown = (cut[:at] if at > 0 else cut).rstrip() + ELLIPSIS.rstrip()
    return html.escape(shown, quote=False)


def plain_snippet(text: str, limit: int = WIDTH) -> str:
    """The start of a section's text, escaped, blocks shown apart as ``marked_snippet`` shows
    them: for a section that matched by its heading or lesson title alone."""
    shown = " ".join(_shown(text, 0, len(text)).split())
    if len(shown) <= limit:
        return shown
    cut = shown[:limit].rsplit(" ", 1)[0].removesuffix(SEPARATOR.rstrip())
    return cut + ELLIPSIS.rstrip()


BLOCK_BREAK = re.compile(r"[ \t]*\n\s*\n")
SEPARATOR = " · "
"""Between blocks that would otherwise read as one sentence."""
_ENDS = frozenset(".!?:;…")
_CLOSING = "\"'”’)]»"


def _escaped(text: str, begin: int, end: int) -> str:
    return html.escape(text[begin:end], quote=False)


def _shown(text: str, begin: int, end: int) -> str:
    """``text[begin:end]`` escaped, with ``SEPARATOR`` at each break after a block that ends
    without punctuation."""
    out: list[str] = []
    at = begin
    for found in BLOCK_BREAK.finditer(text, begin, end):
        before = text[max(0, found.start() - 3):found.start()].rstrip(_CLOSING)[-1:]
        out.append(html.escape(text[at:found.start()], quote=False))
        out.append(" " if not before or before in _ENDS else SEPARATOR)
        at = found.end()
    out.append(html.escape(text[at:end], quote=False))
    return "".join(out)


def _best_window(hits: list[tuple[int, int, str]], width: int,
                 together: dict[int, int] | None = None) -> tuple[int, int, tuple[int, int, int]]:
    """Indexes of the first and last hit of the window with the most phrases written whole
    (``together``: the first hit of each such phrase, and its last), then the most distinct
    stems; and its score (phrases whole, distinct stems, hits)."""
    together = together or {}
    best = (0, 0)
    best_score = (0, 0, 0)
    right = 0
    for left in range(len(hits)):
        right = max(right, left)
        while right + 1 < len(hits) and hits[right + 1][1] - hits[left][0] <= width:
            right += 1
        distinct = len({key for _, _, key in hits[left:right + 1]})
        whole = sum(1 for at in range(left, right + 1)
                    if together.get(at, right + 1) <= right) if together else 0
        score = (whole, distinct, right - left + 1)
        if score > best_score:
            best, best_score = (left, right), score
    return (*best, best_score)


def _word_start(text: str, at: int) -> int:
    """Back up to the start of the word ``at`` falls in, so no word is cut in half."""
    while at > 0 and not text[at - 1].isspace():
        at -= 1
    return at


def _word_end(text: str, at: int) -> int:
    while at < len(text) and not text[at].isspace():
        at += 1
    return at
