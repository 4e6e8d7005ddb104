"""The coverage allow-list: entries an editor has accepted, so they stop failing CI.

One line per entry, ``kind: name`` (``unused: beam search``, ``broken-anchors:
lesson#anchor``, ``moved-links: https://old.example/base/``), ``#`` starting a comment. Lines
come from two places: the course file's ``[coverage]`` table, read at build time
(``course_allow``) and stored in the manifest, and a file read at report time (``--allow
FILE``, by default ``./coverage-allow.txt``). A term is named in any spelling the glossary
knows; the kinds themselves are defined here because this is where people spell them.

A line that silences nothing is reported (``AllowWarning``): a typo would otherwise look to
the editor like an accepted entry while the problem it meant stays, or is hidden later. So is
a line that is no ``kind: name`` line at all: the build reports the course file's as warnings
and stores only the good ones, the server shows a bad line of the file among the warnings and
ignores it (an editor still gets the report), and ``lessonsearch coverage`` refuses the file
with its line (a CI job's allow-list is fixed, not half read).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .analysis import stems, words
from .collocations import edge_word
from .course_file import read_course_file
from .errors import LessonFormatError
from .model import Problem
from .nltk_parts import edit_distance
from .term_lookup import Glossary
from .text_files import SAVE_AS_UTF8, wide_encoding

if TYPE_CHECKING:
    from .coverage import CoverageReport

KINDS = ("used-before-definition", "missing-from-glossary", "unused", "undefined",
         "conflicting", "candidates", "broken-anchors", "needs-definition")
"""Every problem list, in the order the report shows them."""
MOVES = "moved-links"
"""The moves of lessons' links (``CoverageReport.moved_links``): never a problem (no
``--fail-on`` kind), but carried from version to version until the links are the old ones
again, so a move whose old links the site redirects, or that a one-off build made, would be
listed for good unless an editor accepts it."""
ALLOW_KINDS = (*KINDS, MOVES)
"""Every kind an allow line may name."""
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
    problem: str | None = None
    """Why the line is no ``kind: name`` line (``kind`` and ``name`` then hold what it says),
    or None: such a line silences nothing and is reported with the idle ones."""
    suggestion: str | None = None
    """The line it may have meant, for a ``problem`` line."""

    @property
    def written(self) -> str:
        """The line as the editor wrote it (without its comment)."""
        return _written(self.kind, self.name)


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

    @property
    def written(self) -> str:
        """The line as the editor wrote it (without its comment)."""
        return _written(self.kind, self.name)

    def __str__(self) -> str:
        where = self.source + (f":{self.line}" if self.line is not None else "")
        if not self.written:  # the file itself
            return f"{where}: {self.reason}"
        return f"{where}: '{self.written}' silences nothing: {self.reason}"


def _written(kind: str, name: str) -> str:
    return f"{kind}: {name}" if kind else name


def read_allow(course_lines: Iterable[str], allow_file: Path | None,
               strict: bool = False) -> list[AllowLine]:
    """The course file's lines (from the manifest), then ``allow_file``'s. ``strict``: a line
    of ``allow_file`` that is no ``kind: name`` line is an error (``LessonFormatError``)
    rather than a line that silences nothing. The course file's are never an error here: the
    build reported them, and a report must not fail on what an index holds."""
    allow = parse_allow(course_lines, COURSE_FILE, numbered=False)
    if allow_file is not None:
        if not Path(allow_file).is_file():
            raise FileNotFoundError(f"No allow-list file at {allow_file}")
        lines = read_allow_file(Path(allow_file))
        if strict:
            refuse_malformed(lines)
        allow += lines
    return allow


def read_allow_file(path: Path) -> list[AllowLine]:
    """The file's lines, each decoded on its own: a byte that is not UTF-8 spoils its line,
    not the file. A BOM, which Windows editors write, is skipped. A file that cannot be read,
    or is no UTF-8 text at all (saved as UTF-16, or holding NUL bytes, which a warning
    quoting its lines would show as garbage), is one line with a problem."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        return [_whole_file(path, f"the file cannot be read ({exc.strerror or exc})")]
    if encoding := wide_encoding(data):
        return [_whole_file(path, f"the file is saved as {encoding}, not UTF-8", SAVE_AS_UTF8)]
    if b"\x00" in data:
        return [_whole_file(path, "the file is no UTF-8 text (it holds NUL bytes)",
                            SAVE_AS_UTF8)]
    data = data.removeprefix(codecs.BOM_UTF8)
    allow: list[AllowLine] = []
    for number, raw in enumerate(data.splitlines(), start=1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            allow.append(AllowLine("", raw.decode("utf-8", "replace").strip(), str(path),
                                   number, f"not UTF-8 text (byte 0x{raw[exc.start]:02x})"))
            continue
        if (line := read_line(text, str(path), number)) is not None:
            allow.append(line)
    return allow


def _whole_file(path: Path, why: str, fix: str = "") -> AllowLine:
    """The file as one line with a problem: ``why`` it is not read, and what to do."""
    return AllowLine("", "", str(path), None, f"{why}, so none of its lines silences "
                     f"anything{'; ' + fix if fix else ''}")


def refuse_malformed(allow: Iterable[AllowLine]) -> None:
    """Raise ``LessonFormatError`` at the first line that is no ``kind: name`` line."""
    for line in allow:
        if line.problem is not None:
            hint = f" (did you mean '{line.suggestion}'?)" if line.suggestion else ""
            what = f"'{line.written}' is no allow-list line: " if line.written else ""
            raise LessonFormatError(line.source, f"{what}{line.problem}{hint}", line.line)


def default_allow_file() -> Path | None:
    """``coverage-allow.txt`` in the working directory, when there is one."""
    return DEFAULT_ALLOW_FILE if DEFAULT_ALLOW_FILE.is_file() else None


def entry_name(kind: str, entry: Any) -> str:
    """What an allow-list line names for ``entry``: a term, a phrase, ``lesson#anchor`` (the
    lesson's slug alone for its page), or for a move what its old links start with (its
    ``old_url``, as the report prints it)."""
    if kind == MOVES:
        return entry.old_url
    if kind == "candidates":
        return entry.phrase
    if kind == "broken-anchors":
        return f"{entry.lesson}#{entry.anchor}" if entry.anchor else entry.lesson
    return entry.term


def parse_allow(lines: Iterable[str], source: str, numbered: bool = True) -> list[AllowLine]:
    """``kind: name`` lines → ``AllowLine``s, blank lines and comments left out. A line that
    is none (an unknown kind, no colon, no name) is kept with its ``problem``: never a silent
    no-op, since a typo would otherwise leave CI failing for no visible reason."""
    return [line for number, raw in enumerate(lines, start=1)
            if (line := read_line(str(raw), source, number if numbered else None)) is not None]


def read_line(raw: str, source: str, number: int | None) -> AllowLine | None:
    """One line, or None for a blank line or a comment."""
    text = _COMMENT.sub("", raw).strip()
    if not text:
        return None
    kind, colon, name = (part.strip() for part in text.partition(":"))
    if not colon:
        first, _, rest = text.partition(" ")
        meant = f"{first.lower()}: {rest.strip()}" if first.lower() in ALLOW_KINDS else None
        return AllowLine("", text, source, number, "expected 'kind: name', a kind of "
                         f"problem, a colon, then what to accept; the kinds are {_KINDS}", meant)
    if kind.lower() not in ALLOW_KINDS:
        near = _nearest(kind, list(ALLOW_KINDS))
        return AllowLine(kind, name, source, number, f"'{kind}' is no kind of problem; the "
                         f"kinds are {_KINDS}", f"{near}: {name}" if near and name else None)
    if not name:
        return AllowLine(kind, "", source, number, "nothing is named after the colon")
    return AllowLine(kind.lower(), name, source, number)


_KINDS = ", ".join(ALLOW_KINDS)


def silence(report: CoverageReport, allow: list[AllowLine], glossary: Glossary,
            history: bool = True, anchors: frozenset[str] = frozenset()) -> CoverageReport:
    """The report without the allowed entries; ``allowed`` counts them and
    ``allow_warnings`` names the lines that silenced nothing. ``history``: the index holds an
    older version, so its broken anchors and moved links could be known (without one, a
    broken-anchors or moved-links line is not judged: a CI job that builds afresh sees
    none). ``anchors``: the broken-anchors
    lines' names the course has again (``anchors_back``)."""
    silenced, changes, used = 0, {}, set()
    for kind in dict.fromkeys(a.kind for a in allow if a.problem is None):
        lines = [(n, a, _term(a, glossary)) for n, a in enumerate(allow)
                 if a.kind == kind and a.problem is None]
        kept = []
        for entry in report.problems(kind):
            by = {n for n, a, term in lines if _names(a, term, entry)}
            used |= by
            if not by:
                kept.append(entry)
        silenced += len(report.problems(kind)) - len(kept)
        changes[kind.replace("-", "_")] = tuple(kept)
    idle = tuple(_idle(a, report, glossary, anchors) for n, a in enumerate(allow)
                 if n not in used and (history or a.kind not in _HISTORY or a.problem))
    return replace(report, **changes, allowed=silenced, allow_warnings=idle)


_HISTORY = ("broken-anchors", MOVES)
"""The kinds whose entries only a build over an earlier version finds."""


def _term(line: AllowLine, glossary: Glossary) -> str | None:
    """The term a line of a term kind names, in whichever of its spellings."""
    record = glossary.find(line.name) if line.kind in TERM_KINDS else None
    return record.term if record else None


def _names(line: AllowLine, term: str | None, entry: Any) -> bool:
    """Whether ``line`` names ``entry``: as written, as its ``term``, a candidate in any
    inflection (as the candidates are counted), or by its old URL (or, for a lesson whose
    link moved since, the link it would have now). A move is named by its
    old link exactly (but for a last ``/``): a redirect is set up per link, and two bases
    whose words alone differ (``/intro-to-x`` and ``/intro_to_x``) are two sites' links."""
    if line.kind == MOVES:
        return line.name.rstrip("/") == entry.old_url.rstrip("/")
    if _key(line.name) == _key(entry_name(line.kind, entry)):
        return True
    if line.kind in TERM_KINDS:
        return term is not None and term == entry.term
    if line.kind == "candidates":  # counted with its inflections: "nine bar", "nine bars"
        return stems(line.name) == stems(entry.phrase)
    return line.kind == "broken-anchors" and line.name in (entry.old_url, entry.url)


def _idle(line: AllowLine, report: CoverageReport, glossary: Glossary,
          anchors: frozenset[str]) -> AllowWarning:
    """Why ``line`` silenced nothing: it is no ``kind: name`` line, it names nothing (a typo,
    or a term since removed), or an entry the report no longer lists (stale: the line can
    go). A typo's suggestion is an entry listed under the line's kind: an entry of another
    kind would silence nothing either."""
    kind, name = line.kind, line.name
    if line.problem is not None:
        return _warning(line, line.problem, line.suggestion)
    record = glossary.find(name)
    listed = [entry_name(kind, e) for e in report.problems(kind)]
    if kind in TERM_KINDS:
        if record is not None:
            return _warning(line, f"the report lists no {kind} entry for '{record.term}': "
                                  "the line is stale and can go")
        why = ("no term of the glossary or the lessons is called that: a typo, or a term "
               "since removed")
        near = _nearest(name, listed)
        term = None if near else next(iter(glossary.matcher.suggest(name, 1)), None)
        if term in listed:
            near = term
        elif term is not None:
            why += f"; the report lists no {kind} entry for the nearest term, '{term}'"
        return _warning(line, why, near)
    if kind == "candidates" and record is not None:
        return _warning(line, f"'{record.term}' is a term now, so no longer a candidate: "
                              "the line is stale and can go")
    if kind == MOVES:
        return _idle_move(line, report, listed)
    if kind == "broken-anchors" and name.lower() in anchors:
        what = "anchor" if "#" in name else "lesson page"
        return _warning(line, f"the course has this {what} again, so it is no broken "
                              f"{what}: the line is stale and can go")
    if kind == "needs-definition" and record is not None:
        # A stub the glossary still wrote would be listed, whoever else defines the term.
        how = (f"the glossary defines '{record.term}' now" if record.in_glossary else
               f"a lesson defines '{record.term}' and the glossary writes no stub of it")
        return _warning(line, f"{how}, so it needs no definition: the line is stale and can go")
    if kind == "candidates" and (edge := edge_word(name)) is not None:
        return _warning(line, f"no phrase that begins or ends with '{edge}' is ever a "
                              "jargon candidate (a number, a function word or a common verb "
                              "there makes it a measure or a phrase, not a term): the line "
                              "can go")
    if kind == "candidates":
        why = "no such jargon candidate: stale if the phrase no longer recurs, else a typo"
    elif kind == "needs-definition":
        why = ("no such term without a definition, and no term is called that: a typo, or "
               "a stub since removed from the glossary")
    else:
        why = "no such broken anchor, and the course has no such anchor: a typo"
    return _warning(line, f"the report lists {why}", _nearest(name, listed))


def _idle_move(line: AllowLine, report: CoverageReport, listed: list[str]) -> AllowWarning:
    """Why a moved-links line silenced nothing: the lessons' links start with its name again
    (stale: the move is over), it names one link under a listed move's old base (the move
    is named by the base, as the report prints it), or nothing the report lists (a typo:
    the nearest old link listed is suggested)."""
    name = line.name
    if any(_under(lesson.url, name) for lesson in report.lessons):
        return _warning(line, "the lessons' links start with it now, so no move from it is "
                              "listed: the line is stale and can go")
    base = next((old for old in listed if old.endswith("/") and name.startswith(old)), None)
    if base is not None:
        return _warning(line, "the report lists the move of lessons' links from the old base "
                              "this link starts with; an allow line names the move as the "
                              "report prints it", base)
    return _warning(line, "the report lists no move of lessons' links from there: stale if "
                          "the move was never in this index, else a typo",
                    _nearest_link(name, listed))


def _under(url: str, old: str) -> bool:
    """Whether the page ``url`` is at ``old`` or under it (``old`` a base, ending in ``/``)."""
    page = url.split("#", 1)[0]
    return page.rstrip("/") == old.rstrip("/") or (old.endswith("/") and page.startswith(old))


def _nearest_link(name: str, links: list[str]) -> str | None:
    """The closest of ``links`` by edit distance on the text itself (a URL's punctuation is
    part of it), when close enough to be a typo of it."""
    scored = sorted((edit_distance(name, link, transpositions=True), link) for link in links)
    if scored and scored[0][0] <= max(1, len(name) // 8):
        return scored[0][1]
    return None


def anchors_back(allow: Iterable[AllowLine], lessons: Iterable[dict]) -> frozenset[str]:
    """The names of broken-anchors lines (``lesson#anchor`` or the old URL, lower case; a
    lesson's page, its slug or URL) that a lesson of the course (its manifest entries) has
    again. Read only when such a line is there: a big course has many anchors."""
    wanted = {a.name.lower() for a in allow if a.kind == "broken-anchors" and not a.problem}
    if not wanted:
        return frozenset()
    back = set()
    for lesson in lessons:
        back.update(page.lower() for page in (lesson["slug"], lesson["url"])
                    if page.lower() in wanted)
        for anchor in lesson.get("anchors", []):
            for written in (f"{lesson['slug']}#{anchor}", f"{lesson['url']}#{anchor}"):
                if written.lower() in wanted:
                    back.add(written.lower())
    return frozenset(back)


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


def course_allow(lessons_dir: Path) -> tuple[list[str], list[Problem]]:
    """The course file's ``[coverage]`` table as ``kind: name`` lines, and a warning for
    each entry that is none, at its line of the course file: the build reports these and
    stores only the good lines, so ``--strict`` fails on a typo and the report never meets it.

    Two spellings are read: ``allow = ["unused: beam search"]`` and, per kind,
    ``unused = ["beam search"]``. A broken course file was already reported by the build.
    """
    try:
        course = read_course_file(Path(lessons_dir))
    except LessonFormatError:
        return [], []
    lines: list[str] = []
    problems: list[Problem] = []

    def warn(key: str, value: str | None, why: str, meant: str | None = None) -> None:
        hint = f" (did you mean {meant}?)" if meant else ""
        problems.append(Problem(str(course.source), f"[coverage] {why}{hint}; the coverage "
                                "report ignores it", _line_of(course.text, key, value)))

    for key, value in course.allow.items():
        values = value if isinstance(value, list) else [value]
        if key != "allow" and key.lower() not in ALLOW_KINDS:
            near = _nearest(key, list(ALLOW_KINDS))
            warn(key, None, f"'{key}' is no kind of problem; the keys are allow and the kinds, "
                 f"{_KINDS}", near and f"'{near}'")
            continue
        for v in values:
            if not isinstance(v, str):
                warn(key, None, f"{key}: {v!r} is not a string")
                continue
            line = read_line(v if key == "allow" else f"{key}: {v}", "", None)
            if line is None or line.problem is not None:
                why = line.problem if line else "nothing is named"
                meant = line.suggestion if line else None
                warn(key, v, f"{key}: {v!r}: {why}", meant and repr(meant))
            else:
                lines.append(line.written)
    return lines, problems


_TABLE = re.compile(r"\s*\[\s*coverage\s*\]")


def _line_of(text: str, key: str, value: str | None) -> int | None:
    """The line of the course file that writes ``key`` of the ``[coverage]`` table, or the
    string ``value`` in its list (tomllib keeps no places); else the table's own line."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1)
             if not line.lstrip().startswith("#")]
    table = next((n for n, line in lines if _TABLE.match(line)), None)
    written = re.compile(rf"""\s*(?:coverage\s*\.\s*)?(["']?){re.escape(key)}\1\s*=""")
    at = next((n for n, line in lines if n > (table or 0) and written.match(line)), None)
    if at is not None and value is not None:
        quoted = re.compile(rf"""(["']){re.escape(value)}\1""")
        at = next((n for n, line in lines if n >= at and quoted.search(line)), at)
    return at if at is not None else table
