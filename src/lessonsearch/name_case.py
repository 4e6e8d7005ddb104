"""How a suggestion writes a word of the course: as the name it is ("Python", "GitHub",
"Notepad++") or as a word, in the reader's case.

The spelling vocabulary holds each word in lower case. Whether the course writes a word as a
name is read only when a "Did you mean" shows it, from the stored text of a few sections
that hold the word (``Searcher``): counting every word's capitals while a course is built
cost a second pass over all its prose, 1.5 % of a full build, for a suggestion few
searches show. So is whether a query's lower-case word is a capitalised term's name
(``read_as_name``), from every section that holds it, up to a bound: only the words of a
glossary's one-word capitalised names are ever asked about.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from .analysis import WORD, find_words

_OPENING = re.compile(rf"[.!?:\n][\"'”’)\]]*\s[\W_]*+({WORD.pattern})")
"""A sentence's first word: after the end of a sentence, of a paragraph (a list item is one:
a section's stored text parts them by a blank line) or a colon, and any quotes, brackets or
marks."""


_ADDRESS = re.compile(r"\S*(?:://|\w@\w|[\w.~]/|/\w|\w\\\w)\S*"
                      r"|(?<![\w.])[a-z\d_-]+(?:\.[a-z\d_-]+)+")
"""A web address, an email address, a path or a dotted lower-case name (``github.com``,
``config.py``, ``numpy.array``): what names a place or a thing in code, in the lower case
that code and hosts are written in, not a word of prose. A lesson's link keeps only its text
in the stored text, but an address written out is kept as written, and so is a code span,
its backticks dropped."""

_TRAILING = ".,;:!?)]\"'”’"
"""Marks after an address that end its sentence or clause, not the address."""


def name_of(word: str, prose: Iterable[str], headings: Iterable[str]) -> str | None:
    """The name the course writes ``word`` (lower case) as, from some of its texts: ``prose``
    (a section's text) and ``headings`` (its heading, its lesson's title); None when the
    course writes it as a word.

    A word is a name when it is written with capitals in mid-sentence prose more often than
    in lower case anywhere (a name is also a command: `docker run`), in the capitals it is
    most written with ("JavaScript", not an odd "Javascript"). A capital at a sentence's
    start, after a colon or in a heading says nothing: "Recursion calls itself" and "##
    Working With Files" name nothing; but a capital after the first letter (``_camel``:
    JavaScript, GitHub, iPhone) is a name's wherever it is written. An address, a path or
    an email (``_ADDRESS``: https://github.com/…) says nothing either: it is written in
    lower case whatever the name. But a word the texts only ever write with one capital, at
    sentences' starts and in headings, is a name too (``_always_capital``: Kraków)."""
    named, lower = _tally(word, prose, headings)
    count, form = max((n, form) for form, n in named.items()) if named else (0, None)
    if count > lower:
        return form
    return _always_capital(word, prose, headings) if not lower else None


def _always_capital(word: str, prose: Iterable[str], headings: Iterable[str]) -> str | None:
    """The one capitalised form the course writes ``word`` in, where it never writes it in
    lower case, only where a capital says nothing alone (``name_of``: a sentence's start, a
    heading), and once at least after a heading's first word: a place opening each of its
    sentences and standing inside a heading ("Kraków (Cracow in older English) was…",
    "## Printing in Kraków") is a name all the same, which the reader's "krakow" asks for as
    the course writes it. A word only ever first, in its sentences and its headings, may be
    capitalised for that alone ("## Notepad++", "Notepad++ is an editor"), so stays in the
    reader's case; a word in capitals somewhere is not one form ("Tempo" and "TEMPO"); one
    written only in headings may be their Title Case ("## Working With Files", found by
    its stem through sections that write "file")."""
    written = {w for text in prose for w in _forms(word, text)}
    titled = [_forms(word, text) for text in headings]
    inside = {w for text in headings for w in _forms(word, _after_first(text))}
    forms = written.union(*titled)
    if not (written and inside) or len(forms) != 1:
        return None
    form = forms.pop()
    return form if form[:1].isupper() and form[1:] == word[1:] else None


def _after_first(heading: str) -> str:
    """``heading`` past its first word."""
    first = WORD.search(heading)
    return heading[first.end():] if first else ""


NAME_RATIO = 10
"""How many times as often as in lower case a course writes a word as a name for a reader's
lower-case word to be that name (``read_as_name``)."""


def read_as_name(word: str, prose: Iterable[str], headings: Iterable[str]) -> bool:
    """Whether a reader's lower-case ``word``, which a term's name writes with a capital
    ("dobsonian" for Dobsonian), is that name, by the course's texts holding it
    (``name_of``'s): the course never writes it in lower case, or writes it as a name at
    least ``NAME_RATIO`` times as often, a slip now and then ("our makefile" among
    make-novice's eighty Makefiles). A word it writes in lower case more often than that
    is a word of its own too ("make", a verb and the command, where a build tool Make is a
    term and written as one three times as often): a reader's lower-case word may be it."""
    named, lower = _tally(word, prose, headings)
    return not lower or max(named.values(), default=0) >= NAME_RATIO * lower


def _tally(word: str, prose: Iterable[str], headings: Iterable[str]
           ) -> tuple[Counter[str], int]:
    """The capitalised forms of ``word`` that say it is a name, counted, and how often it is
    written in lower case (``name_of``)."""
    lower = 0
    named: Counter[str] = Counter()
    for text in headings:
        if word in text.lower():
            found = _forms(word, text)
            lower += found.count(word)
            named.update(w for w in found if _camel(w))
    for text in prose:
        if word not in text.lower():
            continue
        text = _ADDRESS.sub(_blank, text)
        found = _forms(word, text)
        lower += found.count(word)
        capitals = Counter(w for w in found if w != word)
        if capitals:
            opening = Counter(w for w in _OPENING.findall(f"\n\n{text}")
                              if w in capitals and not _camel(w))
            named.update(capitals - opening)
    return named, lower


def _forms(word: str, text: str) -> list[str]:
    """The words of ``text`` that are ``word`` in some case."""
    return [w for w in find_words(text) if len(w) == len(word) and w.lower() == word]


def _camel(form: str) -> bool:
    """Whether ``form`` has a capital after its first letter and is not all capitals, as a
    name's is (JavaScript, PyTorch, iPhone) and a word's at a sentence's start, or in a
    heading in capitals, is not."""
    return any(c.isupper() for c in form[1:]) and any(c.islower() for c in form)


def _blank(address: re.Match[str]) -> str:
    """Spaces for an ``address``, the marks that end its sentence kept: a sentence that
    starts after it still starts there (``_OPENING``)."""
    written = address.group(0)
    kept = written.rstrip(_TRAILING)
    return " " * len(kept) + written[len(kept):]


def as_typed(typed: str, word: str, name: str | None) -> str:
    """How a suggestion writes the course's ``word`` (lower case) for the reader's ``typed``
    one: as the course writes the ``name`` it is, if it is one, whatever the reader's case
    ("pyhton", "Pyhton" and "PYHTON": Python, "githb": GitHub, "NOTPAD++": Notepad++), since
    a name is spelt one way and typing one in capitals (caps lock, a shout) asks for it all
    the same; else the word in their case ("recursoin": recursion, "Recursoin": Recursion,
    "RECURSOIN": RECURSION), as the rest of their words stay. A name is searched as the word,
    so the suggestion finds what the corrected search found."""
    if name is not None:
        return name
    if typed.isupper() and sum(map(str.isalpha, typed)) > 1:
        return word.upper()
    return word[:1].upper() + word[1:] if typed[:1].isupper() else word
