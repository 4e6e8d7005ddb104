"""The Whoosh side of the index: schema, analyzer, and writing one document per section.

Only this module and ``searcher.py`` know Whoosh. Each section becomes a document; each
lesson's check question becomes one more (kind ``check``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from whoosh import fields, index
from whoosh.analysis import Filter, LowercaseFilter, RegexTokenizer

from .analysis import WORD, stem
from .model import Course, Lesson, text_fragment

WHOOSH_DIR = "whoosh"


class SnowballFilter(Filter):
    """Stems every token with NLTK's Snowball stemmer (through the shared, cached ``stem``)."""

    def __call__(self, tokens):
        for token in tokens:
            if not token.stopped:
                token.text = stem(token.text)
            yield token


def course_analyzer():
    """Identifiers split at ``.`` and ``_``, curly apostrophes kept in words, Snowball stems.

    Stop words are kept in the index so phrase queries stay exact; the query side decides
    what to ignore.
    """
    return RegexTokenizer(WORD.pattern) | LowercaseFilter() | SnowballFilter()


FIELD_BOOSTS = {
    "lesson_title": 1.0,
    "heading": 1.3,
    "parents": 1.0,
    "terms": 1.0,
    "body": 1.0,
    "code": 1.0,
}
"""Per-field weights. A word is scored by its best field (see ``query_plan``), and short
fields already score high under BM25F, so a heading match outranks a body mention with a
small boost; larger boosts measured worse on the judged questions (bench/README.md)."""


def schema() -> fields.Schema:
    text = course_analyzer()
    return fields.Schema(
        id=fields.ID(stored=True, unique=True),
        kind=fields.ID(stored=True),
        lesson=fields.ID(stored=True),
        module=fields.ID(stored=True),
        module_title=fields.STORED,
        lesson_title=fields.TEXT(analyzer=text, stored=True, phrase=True),
        heading=fields.TEXT(analyzer=text, stored=True, phrase=True),
        heading_path=fields.STORED,
        parents=fields.TEXT(analyzer=text, phrase=False),
        terms=fields.TEXT(analyzer=text, phrase=True),
        body=fields.TEXT(analyzer=text, stored=True, phrase=True),
        code=fields.TEXT(analyzer=text, stored=True, phrase=True),
        spell=fields.TEXT(analyzer=RegexTokenizer(WORD.pattern) | LowercaseFilter(),
                          phrase=False),
        anchor=fields.STORED,
        url=fields.STORED,
        callout=fields.STORED,
        position=fields.NUMERIC(stored=True, sortable=True),
        order=fields.NUMERIC(stored=True, sortable=True),
    )


@dataclass(frozen=True, slots=True)
class Document:
    """What one search hit is: a section, or a lesson's check question."""

    id: str
    kind: str
    lesson: Lesson
    heading: str | None
    heading_path: tuple[str, ...]
    body: str
    code: str
    anchor: str | None
    url: str
    callout: str | None
    order: int

    def fields(self, terms: Iterable[str] = ()) -> dict[str, object]:
        module = self.lesson.module
        return {
            "id": self.id,
            "kind": self.kind,
            "lesson": self.lesson.slug,
            "module": module.slug if module else "",
            "module_title": module.title if module else None,
            "lesson_title": self.lesson.title,
            "heading": self.heading or "",
            "heading_path": self.heading_path,
            "parents": " ".join(self.heading_path[:-1]),
            "terms": " ; ".join(terms),
            "body": self.body,
            "code": self.code,
            "spell": f"{self.lesson.title}\n{self.heading or ''}\n{self.body}",
            "anchor": self.anchor,
            "url": self.url,
            "callout": self.callout,
            "position": self.lesson.position or 0,
            "order": self.order,
        }


def documents(course: Course) -> Iterator[Document]:
    """Every searchable unit of the course, in course order."""
    order = 0
    for lesson in course.lessons:
        for number, section in enumerate(lesson.sections):
            order += 1
            yield Document(
                id=f"{lesson.slug}#{section.anchor or number}",
                kind="section",
                lesson=lesson,
                heading=section.heading,
                heading_path=section.heading_path,
                body=section.text,
                code="\n\n".join(block.text for block in section.code),
                anchor=section.anchor,
                url=lesson.section_url(section),
                callout=section.callout,
                order=order,
            )
        if lesson.check is not None:
            order += 1
            check = lesson.check
            lines = [check.question] + [o.text for o in check.options]
            lines += [o.tempting for o in check.options if o.tempting]
            yield Document(
                id=f"{lesson.slug}#check",
                kind="check",
                lesson=lesson,
                heading="Check: " + check.question,
                heading_path=("Check your understanding",),
                body="\n\n".join(lines),
                code="",
                anchor=None,
                url=f"{lesson.url.split('#')[0]}#{text_fragment(check.question)}",
                callout=None,
                order=order,
            )


def write_whoosh(
    folder: Path, docs: Iterable[Document], terms_of: dict[str, tuple[str, ...]] | None = None
) -> int:
    """Write the documents into a fresh Whoosh index in ``folder``; returns how many."""
    target = folder / WHOOSH_DIR
    target.mkdir(parents=True, exist_ok=True)
    ix = index.create_in(str(target), schema())
    # A compound segment file is copied into memory on every open; separate files are mapped.
    writer = ix.writer(limitmb=256, compound=False)
    count = 0
    try:
        for doc in docs:
            writer.add_document(**doc.fields((terms_of or {}).get(doc.id, ())))
            count += 1
    except BaseException:
        writer.cancel()
        raise
    # A compound segment file is copied into memory on every open; separate files are mapped.
    writer.commit()
    return count
