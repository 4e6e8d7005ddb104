"""The line reader behind ``glossary_source``: Pandoc definition lists to plain-text drafts.

Lines are grouped into blocks separated by blank lines (code fences dropped), then each
``:`` line is tied to the term line just above it. That covers the tight form
(``term`` / ``: definition``), the loose form with a blank line between them, several
entries with no blank line between them, indented second paragraphs, and Pandoc's second
``:`` definition of the same term. Definitions become plain text: links keep their text,
emphasis, code ticks and HTML tags go, because the CLI, the index and the web page all show
a definition as text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_MARK = re.compile(r"^ {0,3}(?::(?!:)|~(?=[ \t]))[ \t]*(?P<text>.*)$")
_IGNORED = re.compile(r"^\s*(\{:.*\}|<!--.*-->)\s*$")
"""kramdown attribute lines (``{:auto\\_ids}``) and one-line comments: not content."""
_SPAN_TERM = re.compile(r"^\[(?P<term>[^\]]+)\]\{#(?P<anchor>[^}\s]+)[^}]*\}$")
_LINK_TERM = re.compile(r"^\[(?P<term>[^\]]+)\]\(#(?P<anchor>[^)\s]+)\)$")
_ATTR_TERM = re.compile(r"^(?P<term>.*?)\s*\{#(?P<anchor>[^}\s]+)[^}]*\}$")
_NOT_TERM = re.compile(
    r"^(#|>|\||<|!\[|:::|\{|[-*+][ \t]|\d+[.)][ \t]|\[[^\]]+\]:\s)|[.,;:!]$"
)
_LIST_MARKER = re.compile(
    r"(?:^|(?<=[.!?])[ \t]+)(?P<kind>see also|also|everyday)[ \t]*:[ \t]*", re.I | re.M
)
_LIST_START = re.compile(r"^\s*(?P<kind>(?:see also|also|everyday)[ \t]*:)", re.I)
EVERYDAY_YES = frozenset({"yes", "true"})
"""What ``Everyday:`` (``everyday:`` in a term file's front matter) says yes with."""
_INDENTED = re.compile(r"^(?: {2}|\t| \t)")
"""Indented enough to continue a definition after a blank line (markdown-it's rule)."""
_SEE_ONLY = re.compile(r"^See (?P<target>[^.,;:]{1,60}?)\.?$")

_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)(\{[^}]*\})?")
_LINK = re.compile(r"\[([^\]]+)\](?:\([^)]*\)|\[[^\]]*\]|\{[^}]*\})")
_CODE = re.compile(r"(`+)(.+?)\1")
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_EM = re.compile(r"(?<![\w*])([*_])(?=\S)(.+?)(?<=\S)\1(?![\w*])")
_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


@dataclass(frozen=True, slots=True)
class Draft:
    """A glossary entry before conflicts are resolved; ``line`` is the term's line."""

    term: str
    anchor: str | None
    line: int
    paragraphs: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    see_also: tuple[str, ...] = ()
    see_also_lines: tuple[int, ...] = ()
    """The line each ``see_also`` name is written on, for a warning about the name."""
    anchor_line: int | None = None
    """The line ``anchor`` is written on, when not the term's (a front-matter key's)."""
    everyday: bool = False
    """``Everyday: yes`` (``everyday: true`` in front matter): the term is also an everyday
    word, so the coverage report counts only its marked uses before its definition."""


@dataclass(slots=True)
class _Open:
    """The entry being read; ``term`` is None while skipping a definition with no term.
    Its paragraphs' lines are (line number, text)."""

    term: str | None
    anchor: str | None
    line: int
    paragraphs: list[list[tuple[int, str]]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class DefinitionList:
    """What ``read_definition_list`` found, and the lines it could not tie to an entry."""

    drafts: list[Draft]
    orphans: list[int]
    """The lines of ``:`` definitions with no term above them."""
    strays: list[tuple[int, str]]
    """``Also:`` and ``See also:`` lines that continue no definition (line, as written)."""


def read_definition_list(lines: list[str], first_line: int) -> DefinitionList:
    """Entries found in ``lines``. A block after a definition, blank lines between, is more
    of it when indented two spaces or more (or a tab), as markdown-it reads a definition
    list in a lesson; Pandoc asks for four, which is the more."""
    drafts: list[Draft] = []
    orphans: list[int] = []
    strays: list[tuple[int, str]] = []
    current: _Open | None = None
    lone_term: tuple[str, str | None, int] | None = None
    after_definition = False
    for block in _blocks(lines, first_line):
        marks = [i for i, (_, text) in enumerate(block) if _MARK.match(text)]
        if not marks:
            if after_definition and current and _INDENTED.match(block[0][1]):
                current.paragraphs.append([(n, text.strip()) for n, text in block])
                continue
            if listed := _LIST_START.match(block[0][1]):
                strays.append((block[0][0], listed["kind"]))
            parsed = _term(block[0][1]) if len(block) == 1 else None
            lone_term = (*parsed, block[0][0]) if parsed else None
            after_definition = False
            continue
        first = marks[0]
        if first > 0 and (parsed := _term(block[first - 1][1])):
            current = _start(drafts, current, *parsed, block[first - 1][0])
        elif first == 0 and lone_term:
            current = _start(drafts, current, *lone_term)
        elif not (first == 0 and after_definition and current):
            orphans.append(block[first][0])
            current = _start(drafts, current, None, None, 0)
        for k in range(first, len(block)):
            number, text = block[k]
            mark = _MARK.match(text)
            if mark:
                if current is not None:
                    current.paragraphs.append([(number, mark["text"].strip())])
            elif k + 1 < len(block) and _MARK.match(block[k + 1][1]) and (
                parsed := _term(text)
            ):
                current = _start(drafts, current, *parsed, number)
            elif current is not None:
                current.paragraphs[-1].append((number, text.strip()))
        after_definition, lone_term = current is not None, None
    _start(drafts, current, None, None, 0)
    return DefinitionList(drafts, orphans, strays)


def body_definition(lines: list[str], first_line: int) -> Draft:
    """The body of a one-term file as a definition: its paragraphs, minus headings."""
    paragraphs = [
        [(number, text.strip()) for number, text in block if not text.lstrip().startswith("#")]
        for block in _blocks(lines, first_line)
    ]
    return _finish("", None, first_line, paragraphs)


def _blocks(lines: list[str], first_line: int) -> list[list[tuple[int, str]]]:
    """Runs of non-blank lines as (line number, text); fenced code ends a run and is dropped."""
    blocks: list[list[tuple[int, str]]] = [[]]
    fence: str | None = None
    for number, text in enumerate(lines, start=first_line):
        opener = _FENCE.match(text)
        if fence is not None:
            if opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence):
                fence = None
            continue
        if opener:
            fence = opener.group(1)
            blocks.append([])
        elif not text.strip():
            blocks.append([])
        elif not _IGNORED.match(text):
            blocks[-1].append((number, text.rstrip()))
    return [block for block in blocks if block]


def _term(text: str) -> tuple[str, str | None] | None:
    """(term, anchor) when ``text`` can be a term line, else None."""
    text = text.strip()
    if not text or text.startswith(("    ", "\t")) or _NOT_TERM.search(text):
        return None
    for shape in (_SPAN_TERM, _LINK_TERM, _ATTR_TERM):
        found = shape.match(text)
        if found:
            term, anchor = plain(found["term"]), found["anchor"]
            break
    else:
        term, anchor = plain(text), None
    if not term or len(term) > 80 or len(term.split()) > 10:
        return None
    return term, anchor


def _start(drafts: list[Draft], current: _Open | None, term: str | None,
           anchor: str | None, line: int) -> _Open:
    """Close the entry being read (if any) and open the next one."""
    if current is not None and current.term is not None:
        drafts.append(_finish(current.term, current.anchor, current.line, current.paragraphs))
    return _Open(term, anchor, line)


def _finish(term: str, anchor: str | None, line: int,
            paragraphs: list[list[tuple[int, str]]]) -> Draft:
    """Plain-text paragraphs, with ``Also:`` and ``See also:`` lists taken out of them; a
    ``See also`` name is placed on the line it is written on."""
    aliases: list[str] = []
    see_also: list[str] = []
    see_also_lines: list[int] = []
    everyday = False
    kept: list[tuple[int, str]] = []
    for lines in paragraphs:
        numbers = [number for number, text in lines if text]
        text = "\n".join(text for _, text in lines if text)
        markers = list(_LIST_MARKER.finditer(text))
        for marker, following in zip(markers, [*markers[1:], None][: len(markers)], strict=True):
            end = following.start() if following else len(text)
            listed = _split_list(text[marker.end(): end])
            if marker["kind"].lower() == "see also":
                see_also.extend(listed)
                see_also_lines.extend(_name_lines(listed, text, marker, end, numbers))
            elif marker["kind"].lower() == "everyday":
                everyday = bool(listed) and listed[0].lower() in EVERYDAY_YES
            else:
                aliases.extend(listed)
        kept.append((numbers[0] if numbers else line,
                     plain(text[: markers[0].start()] if markers else text)))
    kept = [(number, p) for number, p in kept if p]
    if len(kept) == 1 and (see := _SEE_ONLY.match(kept[0][1])) and not see_also:
        see_also.append(see["target"].strip())
        see_also_lines.append(kept[0][0])
    return Draft(term, anchor, line, tuple(p for _, p in kept), tuple(aliases),
                 tuple(see_also), tuple(see_also_lines), everyday=everyday)


def _name_lines(names: list[str], text: str, marker: re.Match[str], end: int,
                numbers: list[int]) -> list[int]:
    """The line each of ``names``, listed after ``marker`` up to ``end`` of ``text`` (a
    paragraph whose lines are ``numbers``), is written on: where its first word is found,
    in order, so a list spread over several lines places each name on its own, as the
    front matter's does. A name whose word is not there as written (an escape ``plain``
    undid) takes the line of the name before it, or the marker's."""
    lines, at = [], marker.end()
    line = numbers[text.count("\n", 0, marker.start())]
    for name in names:
        found = text.find(name.split()[0], at, end)
        if found >= 0:
            at = found + len(name.split()[0])
            line = numbers[text.count("\n", 0, found)]
        lines.append(line)
    return lines


def _split_list(text: str) -> list[str]:
    items = re.split(r"[,;]|\s+and\s+|\n", plain(text.replace("\n", " ")))
    cleaned = (re.sub(r"^(and|or)\s+", "", item.strip()).rstrip(".").strip() for item in items)
    return [item for item in cleaned if item]


def plain(text: str) -> str:
    """Markdown inline markup to the text a reader sees, on one line."""
    pieces = []
    for i, part in enumerate(_CODE.split(_IMAGE.sub("", text))):
        if i % 3 == 2:
            pieces.append(part.strip())  # the contents of a code span stay verbatim
        elif i % 3 == 0:
            part = _LINK.sub(r"\1", part)
            part = _EM.sub(r"\2", _STRONG.sub(r"\2", part))
            pieces.append(_ESCAPE.sub(r"\1", _TAG.sub("", part)))
    return " ".join("".join(pieces).split())
