"""The coverage allow-list: entries an editor has accepted, so they stop failing CI.

One line per entry, ``kind: name`` (``unused: beam search``, ``broken-anchors:
lesson#anchor``), ``#`` starting a comment. Lines come from two places: the course file's
``[coverage]`` table, read at build time (``course_allow``) and stored in the manifest, and a
file read at report time (``--allow FILE``, by default ``./coverage-allow.txt``). A term is
named in any spelling the glossary knows; the kinds themselves are defined here because this
is where people spell them.

A line that silences nothing is reported (``AllowWarning``): a typo would otherwise look to
the editor like an accepted entry while the problem it meant stays, or is hidden later.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .analysis import words
from .course_file import read_course_file
from .errors import LessonFormatError
from .nltk_parts import edit_distance
from .term_lookup import Glossary

if TYPE_CHECKING:
    from .coverage import CoverageReport

KINDS = ("used-before-definition", "missing-from-glossary", "unused", "undefined",
         "conflicting", "candidates", "broken-anchors")
"""Every problem list, in the order the report shows them."""
DEFAULT_ALLOW_FILE = Path("coverage-allow.txt")
_COMMENT = re.compile(r"(?:^|\s)#.*$")
"""A comment: ``#`` at the start or after a space, so ``lesson#anchor`` stays whole."""
COURSE_FILE = "the course file's [coverage] table"
TERM_KINDS = KINDS[:5]
"""The kinds whose entries are glossary or lesson terms, named in any of their spellings."""


@dataclass(frozen=True, slots=True)
class AllowLine:
    kind: str
    name: str
    source: str
    """The allow file, or ``COURSE_FILE``."""
    line: int | None
    """The line in ``source``; None for the course file's lines, read from the manifest."""


@dataclass(frozen=True, slots=True)
class AllowWarning:
    """An allow-list line that silenced nothing, and what the report can say about why."""

    source: str
    line: int | None
    kind: str
    name: str
    reason: str
    suggestion: str | None = None
    """The nearest name the line may have meant, when one is close."""

    def __str__(self) -> str:
        where = self.source + (f":{self.line}" if self.line is not None else "")
        return f"{where}: '{self.kind}: {self.name}' silences nothing: {self.reason}"


def read_allow(course_lines: Iterable[str], allow_file: Path | None) -> list[AllowLine]:
    """The course file's lines (from the manifest), then ``allow_file``'s."""
    allow = parse_allow(course_lines, COURSE_FILE, numbered=False)
    if allow_file is not None:
        if not Path(allow_file).is_file():
            raise FileNotFoundError(f"No allow-list file at {allow_file}")
        lines = Path(allow_file).read_text(encoding="utf-8").splitlines()
        allow += parse_allow(lines, str(allow_file))
    return allow


def default_allow_file() -> Path | None:
    """``coverage-allow.txt`` in the working directory, when there is one."""
    return DEFAULT_ALLOW_FILE if DEFAULT_ALLOW_FILE.is_file() else None


def entry_name(kind: str, entry: Any) -> str:
    """What an allow-list line names for ``entry``: a term, a phrase or ``lesson#anchor``."""
    if kind == "candidates":
        return entry.phrase
    if kind == "broken-anchors":
        return f"{entry.lesson}#{entry.anchor}"
    return entry.term


def parse_allow(lines: Iterable[str], source: str, numbered: bool = True) -> list[AllowLine]:
    """``kind: name`` lines → ``AllowLine``s; an unknown kind is an error, not a silent no-op,
    because a typo would otherwise leave CI failing for no visible reason."""
    allow: list[AllowLine] = []
    for number, raw in enumerate(lines, start=1):
        line = _COMMENT.sub("", raw).strip()
        if not line:
            continue
        kind, colon, name = line.partition(":")
        kind = kind.strip().lower()
        if not colon or kind not in KINDS or not name.strip():
            raise LessonFormatError(source, f"expected 'kind: name' with kind one of "
                                    f"{', '.join(KINDS)}; got {raw.strip()!r}", number)
        allow.append(AllowLine(kind, name.strip(), source, number if numbered else None))
    return allow


def silence(report: CoverageReport, allow: list[AllowLine], glossary: Glossary,
            history: bool = True) -> CoverageReport:
    """The report without the allowed entries; ``allowed`` counts them and
    ``allow_warnings`` names the lines that silenced nothing. ``history``: the index holds an
    older version, so its broken anchors could be known (without one, a broken-anchors line
    is not judged: a CI job that builds afresh sees none)."""
    silenced, changes, used = 0, {}, set()
    for kind in dict.fromkeys(a.kind for a in allow):
        lines = [(n, a, _term(a, glossary)) for n, a in enumerate(allow) if a.kind == kind]
        kept = []
        for entry in report.problems(kind):
            by = {n for n, a, term in lines if _names(a, term, entry)}
            used |= by
            if not by:
                kept.append(entry)
        silenced += len(report.problems(kind)) - len(kept)
        changes[kind.replace("-", "_")] = tuple(kept)
    idle = tuple(_idle(a, report, glossary) for n, a in enumerate(allow) if n not in used
                 and (history or a.kind != "broken-anchors"))
    return replace(report, **changes, allowed=silenced, allow_warnings=idle)


def _term(line: AllowLine, glossary: Glossary) -> str | None:
    """The term a line of a term kind names, in whichever of its spellings."""
    record = glossary.find(line.name) if line.kind in TERM_KINDS else None
    return record.term if record else None


def _names(line: AllowLine, term: str | None, entry: Any) -> bool:
    """Whether ``line`` names ``entry``: as written, as its ``term``, or by its old URL."""
    if _key(line.name) == _key(entry_name(line.kind, entry)):
        return True
    if line.kind in TERM_KINDS:
        return term is not None and term == entry.term
    return line.kind == "broken-anchors" and entry.old_url == line.name


def _idle(line: AllowLine, report: CoverageReport, glossary: Glossary) -> AllowWarning:
    """Why ``line`` silenced nothing: a name nothing has (a typo, or a term since removed),
    or an entry the report no longer lists (stale: the line can go)."""
    kind, name = line.kind, line.name
    record = glossary.find(name)
    if kind in TERM_KINDS:
        if record is not None:
            return _warning(line, f"the report lists no {kind} entry for '{record.term}': "
                                  "the line is stale and can go")
        near = next(iter(glossary.matcher.suggest(name, 1)), None)
        return _warning(line, "no term of the glossary or the lessons is called that: a "
                              "typo, or a term since removed", near)
    if kind == "candidates" and record is not None:
        return _warning(line, f"'{record.term}' is a term now, so no longer a candidate: "
                              "the line is stale and can go")
    listed = [entry_name(kind, e) for e in report.problems(kind)]
    if kind == "candidates":
        why = "no such jargon candidate: stale if the phrase no longer recurs, else a typo"
    else:
        why = "no such broken anchor: stale if the anchor is back, else a typo"
    return _warning(line, f"the report lists {why}", _nearest(name, listed))


def _warning(line: AllowLine, reason: str, near: str | None = None) -> AllowWarning:
    if near:
        reason += f" (did you mean '{near}'?)"
    return AllowWarning(line.source, line.line, line.kind, line.name, reason, near)


def _nearest(name: str, names: list[str]) -> str | None:
    """The closest of ``names`` by edit distance, when close enough to be a typo of it."""
    scored = sorted((edit_distance(_key(name), _key(n), transpositions=True), n) for n in names)
    if scored and scored[0][0] <= max(1, len(_key(name)) // 4):
        return scored[0][1]
    return None


def _key(name: str) -> str:
    return " ".join(words(name))


def course_allow(lessons_dir: Path) -> list[str]:
    """The course file's ``[coverage]`` table as ``kind: name`` lines.

    Two spellings are read: ``allow = ["unused: beam search"]`` and, per kind,
    ``unused = ["beam search"]``. A broken course file was already reported by the build.
    """
    try:
        table = read_course_file(Path(lessons_dir)).allow
    except LessonFormatError:
        return []
    lines: list[str] = []
    for key, value in table.items():
        values = value if isinstance(value, list) else [value]
        if key == "allow":
            lines.extend(str(v) for v in values)
        else:
            lines.extend(f"{key}: {v}" for v in values)
    return lines
