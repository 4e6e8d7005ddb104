"""The plain data that flows from the readers to the index, the glossary and the web.

Every concept is a frozen, slotted dataclass holding tuples (``value``), so a reader's output
can be compared, hashed, snapshotted with ``dataclasses.asdict`` and handed between stages
without anyone mutating it. A lesson that was pickled (by another process, or by the build
cache) holds its sections as ``StoredSections``: read-only, equal to their tuple, unpickled
when first read. This module imports nothing of ours.
"""

from __future__ import annotations

import pickle
import reprlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import NamedTuple, TypeVar, dataclass_transform, overload
from urllib.parse import quote, unquote

T = TypeVar("T")


@dataclass_transform(frozen_default=True)
def value(cls: type[T]) -> type[T]:
    """A frozen, slotted dataclass that pickles as a call of its constructor.

    The ``__setstate__`` dataclasses give a frozen slotted class looks its fields up again
    for every object it restores: a build reading 10,000 cached sections spent a third of
    its unpickling there (bench/README.md).
    """
    cls = dataclass(frozen=True, slots=True)(cls)
    names = tuple(f.name for f in fields(cls))
    values = attrgetter(*names) if len(names) > 1 else lambda self: (getattr(self, names[0]),)

    def __reduce__(self):
        return cls, values(self)  # a tuple of the fields, made in C

    if "__reduce__" not in cls.__dict__:  # a class may pickle its own way (``Lesson``)
        cls.__reduce__ = __reduce__
    return cls


@value
class Module:
    """A group of lessons as the course site shows it."""

    index: int | None
    """1-based position of the module in the course, when the source says."""
    slug: str
    title: str


@value
class LessonLink:
    """A neighbouring lesson (``prev``/``next``)."""

    slug: str
    title: str
    url: str


@value
class Option:
    """One answer of a check question."""

    text: str
    correct: bool
    tempting: str | None = None
    """Why a wrong option attracts readers, when the export says."""


@value
class CheckQuestion:
    """The lesson's multiple-choice check."""

    question: str
    options: tuple[Option, ...] = ()


@value
class CodeBlock:
    text: str
    lang: str | None = None


@value
class DefinitionItem:
    """A ``term`` / ``: definition`` pair written as a definition list inside a lesson."""

    term: str
    definition: str


@value
class Section:
    """A heading and what follows it up to the next heading: the unit a search hit links to."""

    anchor: str | None
    """The id the public page puts on the heading; None for text before the first heading
    and for passages of a lesson without headings (see ``fragment``)."""
    heading: str | None
    level: int
    """Heading level (2 for ``##``); 0 for text before the first heading."""
    heading_path: tuple[str, ...] = ()
    """Enclosing headings from the outermost down to this one."""
    paragraphs: tuple[str, ...] = ()
    code: tuple[CodeBlock, ...] = ()
    list_items: tuple[str, ...] = ()
    list_places: tuple[int, ...] = ()
    """For each list item, how many paragraphs come before it in the source (``prose``
    puts it back there); without them, the items follow every paragraph."""
    callout: str | None = None
    """The kind of fenced block the heading sits in (``callout``, ``challenge``, ``solution``…)."""
    emphasis: tuple[str, ...] = ()
    """Text the source wrote bold or italic, in order: where lessons often define terms."""
    definitions: tuple[DefinitionItem, ...] = ()
    line: int | None = None
    """1-based line of the section's start in the source file, when known."""
    fragment: str | None = None
    """A ``:~:text=…`` directive (see ``text_fragment``) for a passage with no anchor."""

    @property
    def text(self) -> str:
        """The prose a reader sees (paragraphs and list items), for search and snippets."""
        return "\n\n".join(self.prose)

    @property
    def prose(self) -> tuple[str, ...]:
        """Paragraphs and list items in the order the source has them, as a reader meets
        them: a snippet must not put a list after the paragraph that follows it."""
        paragraphs, items = self.paragraphs, self.list_items
        if not items:
            return paragraphs
        places = self.list_places or (len(paragraphs),) * len(items)
        merged: list[str] = []
        done = 0
        for place, item in zip(places, items, strict=True):
            merged += paragraphs[done:place]
            merged.append(item)
            done = max(done, place)
        return (*merged, *paragraphs[done:])

    @property
    def is_empty(self) -> bool:
        return not (self.paragraphs or self.list_items or self.code or self.definitions)


class Outline(NamedTuple):
    """What a build needs of every section of every lesson, its text aside: each section's
    anchor, heading, heading path, callout and fragment, a tuple of each in section order."""

    anchors: tuple[str | None, ...] = ()
    headings: tuple[str | None, ...] = ()
    paths: tuple[tuple[str, ...], ...] = ()
    callouts: tuple[str | None, ...] = ()
    fragments: tuple[str | None, ...] = ()


def outline(sections: Sequence[Section]) -> Outline:
    """The sections' ``Outline``, without unpickling stored sections."""
    if isinstance(sections, StoredSections):
        return sections.outline
    return Outline(tuple([s.anchor for s in sections]), tuple([s.heading for s in sections]),
                   tuple([s.heading_path for s in sections]),
                   tuple([s.callout for s in sections]), tuple([s.fragment for s in sections]))


class StoredSections(Sequence[Section]):
    """A lesson's sections as a pickled lesson holds them: pickled apart, beside their
    ``Outline``, and unpickled the first time one is read.

    A build takes most lessons unchanged from its cache. It needs every lesson's outline
    (links, headings, anchors) but the text of only the few it writes again: unpickling
    every section of a 10,000-section course was a fifth of a one-lesson rebuild
    (bench/README.md). Equal to the tuple of the same sections, and hashed alike.
    """

    __slots__ = ("_pickled", "_sections", "outline")

    def __init__(self, pickled: bytes | None, outline: Outline,
                 sections: tuple[Section, ...] | None = None):
        self._pickled, self._sections, self.outline = pickled, sections, outline

    @classmethod
    def of(cls, sections: Sequence[Section]) -> StoredSections:
        if isinstance(sections, StoredSections):
            return sections
        sections = tuple(sections)
        return cls(None, outline(sections), sections)

    def _load(self) -> tuple[Section, ...]:
        sections = self._sections
        if sections is None:
            pickled = self._pickled
            if pickled is None:  # another thread has just unpickled them
                return self._sections
            sections = self._sections = tuple([
                Section(anchor, heading, level, path, paragraphs, code, items, places,
                        callout, emphasis, definitions, line, fragment)
                for (anchor, heading, path, callout, fragment),
                    (level, paragraphs, code, items, places, emphasis, definitions, line)
                in zip(zip(*self.outline, strict=True), pickle.loads(pickled), strict=True)])
            self._pickled = None  # the lesson's cache entry still holds these bytes
        return sections

    def __len__(self) -> int:
        return len(self.outline.anchors)

    @overload
    def __getitem__(self, index: int) -> Section: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Section, ...]: ...

    def __getitem__(self, index):
        return self._load()[index]

    def __iter__(self) -> Iterator[Section]:
        return iter(self._load())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, StoredSections):
            other = other._load()
        return self._load() == other if isinstance(other, tuple) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._load())

    def __repr__(self) -> str:
        return repr(self._load())

    def __reduce__(self):
        pickled = self._pickled
        if pickled is None:  # each section's fields but those of the outline
            pickled = pickle.dumps([_rest(s) for s in self._sections], protocol=5)
        return StoredSections, (pickled, self.outline)


_rest = attrgetter("level", "paragraphs", "code", "list_items", "list_places", "emphasis",
                   "definitions", "line")


@value
class CourseInfo:
    slug: str
    title: str
    url: str | None = None


@value
class Lesson:
    slug: str
    title: str
    url: str
    source: str
    """Path of the file it was read from, relative to the course folder when possible."""
    format: str
    """``json``, ``markdown`` or ``text``."""
    sections: Sequence[Section] = ()
    """A tuple, or ``StoredSections`` in a lesson that was pickled."""
    course: CourseInfo | None = None
    module: Module | None = None
    position: int | None = None
    position_line: int | None = None
    """The line its file gives its ``position`` on, for a warning no reader can give: that
    another lesson claims the same position."""
    minutes: int | None = None
    key_idea: str | None = None
    """The lesson's point in one sentence, as its author put it (an export's ``keyIdea``)."""
    answer: str | None = None
    """The lesson's short answer to the question its title asks (an export's ``answer``).
    Both are searched as one more document of the lesson, at its top (``whoosh_index``)."""
    check: CheckQuestion | None = None
    prev: LessonLink | None = None
    next: LessonLink | None = None
    warnings: tuple[Problem, ...] = ()
    """What its reader found wrong but could read past (a ``position`` that is no number,
    a ``url`` that is no web link): reported with the course's problems on every build,
    a lesson taken from the build cache too."""

    def section_url(self, section: Section) -> str:
        return link_to(self.url, section.anchor, section.fragment)

    @property
    def anchors(self) -> tuple[str, ...]:
        """Its sections' anchors, where they have one, in order."""
        return tuple(filter(None, outline(self.sections).anchors))

    def __reduce__(self):
        """Pickled with its sections apart (``StoredSections``)."""
        values = list(_lesson_values(self))
        values[_SECTIONS] = StoredSections.of(self.sections)
        return Lesson, tuple(values)

    @property
    def word_count(self) -> int:
        return sum(len(s.text.split()) for s in self.sections)


_lesson_values = attrgetter(*(f.name for f in fields(Lesson)))
_SECTIONS = [f.name for f in fields(Lesson)].index("sections")


@value
class Course:
    info: CourseInfo
    lessons: tuple[Lesson, ...] = ()
    modules: tuple[Module, ...] = ()


@value
class Problem:
    """Something wrong with an input file: named, located, never silently dropped."""

    path: str
    message: str
    line: int | None = None
    column: int | None = None
    skipped: bool = False
    """True when the whole file was left out of the index because of it."""

    def __str__(self) -> str:
        where = self.path
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.message}"


@value
class GlossaryGap(Problem):
    """A glossary warning the coverage report lists too, told by its fields rather than its
    words: a term written with no definition yet (``kept`` None: an editor's stub), or
    defined a second time, differently (``kept``: the ``file:line`` of the definition kept)."""

    term: str = ""
    """The term as this warning's own line writes it."""
    kept: str | None = None


QUOTED_CHARS = 60
"""The most characters of a value a problem quotes: enough to find it in the file. A
warning quoting a whole value was one line of 428 KB for a title of nested YAML aliases."""
_QUOTE = reprlib.Repr()
_QUOTE.maxstring = _QUOTE.maxother = 2 * QUOTED_CHARS
_QUOTE.maxlong = 5000  # whole: Python writes no longer number, and cutting it is below


def quoted(value: object) -> str:
    """``repr(value)`` as a problem quotes it: its first ``QUOTED_CHARS`` characters, then
    "…" where there is more. Made by ``reprlib``, which writes out only the first items of
    a list, so that a value of any size costs no more than a short one."""
    text = repr(value[:QUOTED_CHARS + 1]) if isinstance(value, str) else _QUOTE.repr(value)
    return text if len(text) <= QUOTED_CHARS else text[:QUOTED_CHARS] + "…"


@value
class CourseRead:
    """What reading a course folder produced: the course, and everything that went wrong."""

    course: Course
    problems: tuple[Problem, ...] = field(default=())
    keys: dict[str, str] = field(default_factory=dict, compare=False)
    """A digest of each lesson, by slug: equal digests, equal lessons as the index stores
    them. Made from the bytes of its file and what the course gave it (URL, module,
    position; not its neighbours' links, which the index does not store), so a build keys
    the work it keeps for the next build on it without pickling the lesson again."""
    own_keys: dict[str, str] = field(default_factory=dict, compare=False)
    """The same without the lesson's position: what its definitions, mentions and text
    depend on, which a lesson added before it leaves as they were."""
    files: dict[str, str] = field(default_factory=dict, compare=False)
    """The SHA-256 of each lesson's file, by slug: a file renamed with its bytes unchanged
    holds the same lesson, whose page moved (``coverage_facts``)."""

    @property
    def skipped(self) -> tuple[str, ...]:
        return tuple(p.path for p in self.problems if p.skipped)


def text_fragment(words: str, count: int = 6) -> str:
    """The ``:~:text=`` directive that makes a browser scroll to a passage's first words.

    Percent-encodes everything, dashes and commas included, since the directive syntax
    gives those a meaning of their own.
    """
    start = " ".join(words.split()[:count])
    return ":~:text=" + quote(start, safe="").replace("-", "%2D")


def link_to(url: str, anchor: str | None, fragment: str | None = None) -> str:
    """``url#anchor``, or ``url#:~:text=…`` for a passage with no anchor, or the page itself."""
    base = url.split("#", 1)[0]
    if anchor:
        return f"{base}#{anchor}"
    if fragment:
        return f"{base}#{fragment}"
    return base


def opening_words(url: str | None, text: str) -> str:
    """The first words of the passage ``url`` links to by its text fragment
    (``text_fragment``), spaces made single; ``text``'s, all of it, when the link has none."""
    _, _, fragment = (url or "").partition("#:~:text=")
    return " ".join((unquote(fragment) if fragment else text).split())


def defining_passage(opening: str, passages: Iterable[str]) -> int:
    """Which of a lesson's passages with no anchor (a plain-text lesson's paragraphs, which
    all share one, None) a definition there belongs to, by the passages' texts in order: the
    first holding ``opening``, the defining sentence's ``opening_words``; else the first.

    The build gives that passage the definition's weight (``whoosh_index.DEFINED_WEIGHT``)
    and a search for the term alone ranks it first (``Searcher.defining``): both choose by
    this rule. The build gave the weight to the first passage, which made the lesson's
    opening paragraph a hit for a term it never writes."""
    return next((number for number, text in enumerate(passages)
                 if opening in " ".join(text.split())), 0)


# --- Defined terms -------------------------------------------------------------------------


@value
class GlossaryEntry:
    """A term as an editor wrote it in ``glossary/``."""

    term: str
    definition: str
    source: str
    """``glossary/file.md:LINE``."""
    anchor: str | None = None
    """The ``{#anchor}`` written after the term, if any."""
    aliases: tuple[str, ...] = ()
    see_also: tuple[str, ...] = ()
    see_also_lines: tuple[int, ...] = ()
    """The line of the file each ``see_also`` name is written on: where a warning that it
    names no term points."""
    anchor_line: int | None = None
    """The line of the file ``anchor`` is written on (the term's, or its front-matter key's):
    where a warning about the anchor points."""
    everyday: bool = False
    """The editor marked the term an everyday word too (``everyday: true``, ``Everyday:
    yes``): the coverage report counts only its marked uses before its definition."""


@value
class LessonDefinition:
    """A place where a lesson's prose defines a term."""

    term: str
    sentence: str
    lesson: str
    """Lesson slug."""
    url: str
    """``lesson-url#anchor`` or a ``#:~:text=`` link to the sentence."""
    anchor: str | None = None
    kind: str = "naming"
    """Which phrasing gave it away: naming, pointing-back, quoting, contrasting, setting,
    defining, emphasis, abbreviation, definition-list, plain."""
    abbreviation: str | None = None
    alone: str | None = None
    """The name without the kind noun ``term`` starts with, when the sentence may name either
    ("We call this pattern memoization", not "We call this type inference") and the lesson
    does not write ``term`` again: the glossary decides (``glossary_build._merge``)."""
    other: str | None = None
    """The name the sentence gives ``term`` to, as another name of one thing ("records" in
    "records, also known as rows,"; never one ``term`` is made of, as NAT in "NAT, known as
    carrier-grade NAT"): the definition is that name's where the glossary has it and not
    ``term``."""
    glossary_only: bool = False
    """Whether the sentence defines ``term`` only where the glossary has it ("This is a
    firewall.": ``definition_patterns.Found.glossary_only``); elsewhere it defines nothing."""
    points_back: bool = False
    """Whether ``sentence`` leaves the meaning to what came before it ("We call this box a
    router.", "That delay is called bufferbloat.", but not 'The word for this is "airtime
    fairness": every client …', which says it after the colon): a term several lessons define
    is shown by a definition that says it itself (``definitions.clarity``)."""
    passing: bool = False
    """Whether ``sentence`` only spells out an abbreviation on the way to something else
    ("Binoculars show a wide field of view (FOV) and …":
    ``definition_patterns.Found.passing``): it makes the two names one term's, and defines
    nothing (``glossary_build._merge``)."""
    before: str | None = None
    """The sentence before ``sentence`` in its section, when ``sentence`` points back to it
    and it defines no term itself ("This is the NAT table." does): the definition is read
    with it (``text``)."""

    @property
    def text(self) -> str:
        """The definition as a reader is shown it: the sentence, after the one it points back
        to."""
        return f"{self.before} {self.sentence}" if self.before else self.sentence
