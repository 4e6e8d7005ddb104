"""The coverage report's faces: JSON, a terminal table, Markdown, and the HTML page's data.

``report_body`` is the one JSON body (``--format json`` and ``GET /api/coverage``). The HTML
page and ``--format html`` render one template, ``web/templates/coverage.html``, from
``page_context``: inside the site's layout for the server, inside a standalone layout (styles
and script inlined) for a file a CI job can publish. Jinja is used directly for the latter, so
the CLI needs no Flask.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from markupsafe import Markup, escape

from . import counts, links
from .counts import counted
from .coverage import STRIP_BARS, CoverageReport, LinksMoved, TermCoverage
from .coverage_allow import KINDS, MOVES, entry_name
from .links import href

WEB = Path(__file__).resolve().parent / "web"
TITLES = {
    "used-before-definition": "Used before definition",
    "missing-from-glossary": "Missing from the glossary",
    "unused": "Unused glossary entries",
    "undefined": "Never defined in a lesson",
    "conflicting": "Conflicting definitions",
    "candidates": "Jargon with no entry",
    "broken-anchors": "Broken anchors",
    "needs-definition": "Glossary terms with no definition yet",
}
ALLOW_WARNINGS = "Allow-list lines that silence nothing"
TERM_KINDS = KINDS[:5]
"""The kinds whose entries are terms of the table (a filter shows those rows)."""
SORTS = ("term", "glossary", "defined", "mentions", "lessons", "first")
ORDERS = ("ascending", "descending")
"""``/coverage?order=``: the way the sorted column reads, when not its default."""
DESCENDING = ("mentions", "lessons")
"""The columns whose sort keys are negated counts: their default order reads most first."""
TEXT_SORTS = ("term",)
"""The columns whose sort keys are text, compared as text even where a value reads as a
number (a term ``2048`` sorts before ``9``, as here): the page marks them for coverage.js."""


def report_body(report: CoverageReport) -> dict[str, Any]:
    body: dict[str, Any] = {"summary": report.summary()}
    body["terms"] = [_without_spread(asdict(t)) for t in report.terms]
    for kind in KINDS:
        body[kind.replace("-", "_")] = [asdict(e) for e in report.problems(kind)]
    body["zero_result_searches"] = [asdict(z) for z in report.zero_result_searches]
    body["moved_links"] = [asdict(m) for m in report.moved_links]
    body["allow_warnings"] = [{**asdict(w), "message": str(w)} for w in report.allow_warnings]
    body["version"] = report.version
    body["course"] = report.course
    body["lessons"] = [asdict(lesson) for lesson in report.lessons]
    return body


def describe(kind: str, entry: Any, urls: bool = True) -> str:
    """One line on what is wrong with ``entry``, for the terminal and for CI logs; pages
    that link the lessons anyway pass ``urls=False``."""
    if kind == "used-before-definition":
        early = ", ".join(p.lesson for p in entry.used_at)
        if entry.used_count > len(entry.used_at):
            early += f" and {counted(entry.used_count - len(entry.used_at), 'more lesson')}"
        said = f"used in {early} before {entry.defined_at.lesson} defines it"
        if entry.everyday:
            said += " (marked uses only"
            if entry.plain_count:
                said += (f"; it is only the everyday word in "
                         f"{counted(entry.plain_count, 'more lesson')}")
            said += ")"
        return f"{said}; {entry.hint}" if entry.hint else said
    if kind == "missing-from-glossary":
        return f"defined in {entry.defined_at.lesson}" + (
            f": {entry.defined_at.url}" if urls else "")
    if kind in ("unused", "undefined"):
        return f"glossary entry at {entry.glossary_entry}"
    if kind == "needs-definition":
        return f"written at {entry.glossary_entry} with no definition"
    if kind == "conflicting":
        return f"{entry.reason}: " + " vs ".join(d.source for d in entry.definitions)
    if kind == "candidates":
        why = "named by See also" if entry.kind == "see-also" else entry.kind
        return f"{why}, {entry.count}× in {counted(len(entry.lessons), 'lesson')}"
    moved = (f"; its lesson is at {entry.url.split('#', 1)[0]} now"
             if urls and entry.url and entry.url != entry.old_url else "")
    was = f"was {entry.old_url}{moved} " if urls else ""
    if not entry.anchor:  # the lesson's page itself
        was = f"the lesson's page, which no lesson has now{', ' if urls else ' '}{was}"
    return f"{was}(last in {entry.last_seen})"


MOVED_LINKS = "Lesson links moved"


def describe_move(move: LinksMoved) -> str:
    """One line on a move of lessons' links: where from, where to, what to do, and the allow
    line that accepts it once done (the move is listed until the links are back, else)."""
    return (f"{counted(move.lesson_count, 'lesson link')} moved from {move.old_url} to "
            f"{move.url} (the old links last published by {move.last_seen}): redirect the old "
            "links to the new ones, so readers' and sites' links still lead to the lessons; "
            "once they are redirected (or were never public), accept the move with the allow "
            f"line '{MOVES}: {entry_name(MOVES, move)}'")


def fail_lines(report: CoverageReport, kinds: tuple[str, ...]) -> list[str]:
    """``kind: name  # why`` per failing entry: the allow-list's own format, ready to paste."""
    return [f"{kind}: {entry_name(kind, e)}  # {describe(kind, e)}"
            for kind in kinds for e in report.problems(kind)]


def render_table(report: CoverageReport) -> str:
    lines = [f"Term coverage: {report.course.get('title') or 'course'} ({report.version})",
             _summary_line(report), ""]
    widths = (30, 34, 28, 8, 7)
    head = ("TERM", "GLOSSARY", "DEFINED IN", "MENTIONS", "LESSONS")
    lines.append("  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)) + "  FIRST")
    for t in report.terms:
        cells = (t.term, t.glossary_entry or "-", t.defined_at.lesson if t.defined_at else "-",
                 str(t.mentions), str(t.lesson_count))
        lines.append("  ".join(_cut(c, w).ljust(w) for c, w in zip(cells, widths, strict=True))
                     + "  " + (t.first_mention.lesson if t.first_mention else "-"))
    for kind in KINDS:
        entries = report.problems(kind)
        lines += ["", f"{TITLES[kind]} ({len(entries)})"]
        lines += [f"  {entry_name(kind, e)}: {describe(kind, e)}" for e in entries]
        if kind == "broken-anchors" and report.moved_links:
            lines += ["", f"{MOVED_LINKS} ({len(report.moved_links)})"]
            lines += [f"  {describe_move(m)}" for m in report.moved_links]
    if report.zero_result_searches:
        lines += ["", f"Searches with no results ({len(report.zero_result_searches)})"]
        lines += [f"  {z.count:>4}× {z.query}" for z in report.zero_result_searches]
    return "\n".join(lines)


def render_markdown(report: CoverageReport) -> str:
    lines = [f"# Term coverage: {report.course.get('title') or 'course'}", "",
             f"Index version `{report.version}`. {_summary_line(report)}", ""]
    if report.allow_warnings:
        lines += [f"## {ALLOW_WARNINGS} ({len(report.allow_warnings)})", ""]
        lines += [f"- {_md(str(w))}" for w in report.allow_warnings] + [""]
    for kind in KINDS:
        entries = report.problems(kind)
        lines += [f"## {TITLES[kind]} ({len(entries)})", ""]
        for e in entries:
            links = [f"[{_md(p.lesson)}]({href(p.url)})" for p in _places(kind, e)]
            if kind == "broken-anchors":
                links.append(f"<{href(e.old_url)}>")
                if e.url and e.url != e.old_url:
                    links.append(f"(its lesson is at <{href(e.url.split('#', 1)[0])}> now)")
            lines.append(" ".join([f"- **{_md(entry_name(kind, e))}**:",
                                   _md(describe(kind, e, False)), *links]))
            if kind == "conflicting":
                lines += [f"  - {_md(d.source)}: {_md(d.text)}" for d in e.definitions]
        if not entries:
            lines.append("None.")
        lines.append("")
        if kind == "broken-anchors" and report.moved_links:
            lines += [f"## {MOVED_LINKS} ({len(report.moved_links)})", ""]
            lines += [f"- {_md(describe_move(m))}" for m in report.moved_links] + [""]
    lines += ["## Terms", "",
              "| term | glossary | defined in | mentions | lessons | first mention |",
              "| --- | --- | --- | ---: | ---: | --- |"]
    for t in report.terms:
        defined, first = (f"[{_md(p.lesson)}]({href(p.url)})" if p else "–"
                          for p in (t.defined_at, t.first_mention))
        lines.append(f"| {_md(t.term)} | {_md(t.glossary_entry or '–')} | {defined} | "
                     f"{t.mentions} | {t.lesson_count} | {first} |")
    if report.zero_result_searches:
        lines += ["", "## Searches with no results", ""]
        lines += [f"- {z.count}× {_md(z.query)}" for z in report.zero_result_searches]
    return "\n".join(lines) + "\n"


def render_html(report: CoverageReport) -> str:
    """A standalone page (styles and script inlined) with what ``/coverage`` shows."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    env = Environment(loader=FileSystemLoader(WEB / "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    env.filters.update(counts.FILTERS)  # the app's filters (web/__init__.py)
    env.filters.update(links.FILTERS)
    layout = env.from_string(_STANDALONE)
    page = env.get_template("coverage.html")
    css = "\n".join((WEB / "static" / name).read_text("utf-8")
                    for name in ("style.css", "coverage.css"))
    return page.render(layout=layout, css=css, js=(WEB / "static/coverage.js").read_text("utf-8"),
                       term_url=None, **page_context(report))


@dataclass(frozen=True, slots=True)
class Cell:
    """A bar in a term's strip: a lesson that mentions or defines the term, or on a course of
    more than ``STRIP_BARS`` lessons, a run of consecutive lessons with one that does."""

    x: int
    height: int
    css: str
    """``hit``, or ``def`` for the defining lesson."""
    title: str
    url: str


STRIP_STEP = 8
STRIP_HEIGHT = 18


def page_context(report: CoverageReport, kind: str | None = None,
                 sort: str = "term", order: str | None = None,
                 lessons: int | None = None) -> dict[str, Any]:
    """What the template needs: every row, sorted, each with its kinds, its strip and
    whether ``kind`` (the filter) shows it. The rows it hides are in the page too, hidden,
    so coverage.js can show them again when the reader picks another filter. ``order`` is
    the way the sorted column reads (``ascending`` or ``descending``); None, or a column's
    default, its default order (most first for counts)."""
    kinds_of: dict[str, list[str]] = {}
    for k in TERM_KINDS:
        for e in report.problems(k):
            kinds_of.setdefault(e.term, []).append(k)
    position = {lesson.slug: n for n, lesson in enumerate(report.lessons, start=1)}
    entries = sorted({t.glossary_entry for t in report.terms if t.glossary_entry},
                     key=_file_then_line)
    entry_position = {entry: n for n, entry in enumerate(entries, start=1)}
    rows = [{"t": t, "kinds": kinds_of.get(t.term, []), "cells": strip(report, t),
             "order": sort_keys(t, position, entry_position),
             "shown": kind not in TERM_KINDS or kind in kinds_of.get(t.term, [])}
            for t in report.terms]
    reversed_ = order in ORDERS and order != default_order(sort)
    # Ties by term A–Z whichever way the column reads: a stable sort keeps them so, reversed.
    rows.sort(key=lambda row: row["order"]["term"])
    rows.sort(key=lambda row: row["order"][sort], reverse=reversed_)
    bars = max(1, min(len(report.lessons), STRIP_BARS))
    reads = _flip(default_order(sort)) if reversed_ else default_order(sort)
    filtered = kind if kind in TERM_KINDS else None
    return {
        "report": report, "summary": report.summary(), "rows": rows, "kind": kind,
        "shown": sum(row["shown"] for row in rows),
        "sort": sort, "reads": reads, "reversed": reversed_,
        "filter_href": lambda k: _page_href(k, sort, reads if reversed_ else None, lessons),
        "sort_href": lambda key: _page_href(
            filtered, key, _flip(default_order(key)) if key == sort and not reversed_ else None,
            lessons),
        "descending": DESCENDING, "text_sorts": TEXT_SORTS, "kinds": KINDS,
        "titles": TITLES,
        "term_kinds": TERM_KINDS,
        "strip_width": bars * STRIP_STEP, "strip_height": STRIP_HEIGHT,
        "describe": describe, "entry_name": entry_name, "places": _places,
        "allow_warnings_title": ALLOW_WARNINGS, "path_breaks": path_breaks,
        "moved_links_title": MOVED_LINKS, "describe_move": describe_move,
    }


def default_order(sort: str) -> str:
    """The way a column reads when first sorted: counts most first, the others A–Z."""
    return "descending" if sort in DESCENDING else "ascending"


def _flip(order: str) -> str:
    return "ascending" if order == "descending" else "descending"


def _page_href(kind: str | None, sort: str, order: str | None,
               lessons: int | None = None) -> str:
    """The page's own link to a filter and sort, for a reader without JavaScript (and the
    URL coverage.js writes in the address bar: the same query); ``lessons``, the lessons
    listed per term when the page was asked for a number, is kept."""
    args = {"lessons": lessons, "kind": kind, "sort": sort, "order": order}
    return "?" + urlencode({k: v for k, v in args.items() if v}) + "#terms"


def path_breaks(path: str) -> Markup:
    """A glossary entry's ``file:line`` with a line-break chance (``<wbr>``) after each ``/``:
    a narrow column then wraps it between folders (and after a name's hyphens, where browsers
    break anyway), not inside a word. A run longer than ``LONG_RUN`` with neither
    (``the_bakers_glossary_of_….md``) is a ``long`` span, which the page's CSS lets break
    anywhere: whole, it would widen the table past its box. Only such runs: breaking
    anywhere in the whole path, the browser narrowed the column and split short words
    too."""
    pieces = []
    for run in _BREAK_AFTER.split(path):
        text = str(escape(run)).replace("/", "/<wbr>")
        pieces.append(f'<span class="long">{text}</span>' if len(run) > LONG_RUN else text)
    return Markup("".join(pieces))


LONG_RUN = 24
"""Characters with no break after a ``/`` or ``-`` that a path's column is kept wide for."""
_BREAK_AFTER = re.compile(r"(?<=[/-])")


def strip(report: CoverageReport, term: TermCoverage) -> list[Cell]:
    """A bar per lesson that uses the term, in course order, taller for more mentions, the
    defining lesson marked; past ``STRIP_BARS`` lessons, a bar per run of lessons, as tall as
    their mentions together. The template draws a dashed baseline, so the lessons without a
    bar show as gaps. A bar's title numbers its lessons as the course does (a skipped
    lesson leaves a gap in the numbers, not in the strip)."""
    most = max((s.count for s in term.spread), default=1) or 1
    cells = []
    for s in term.spread:
        what = counted(s.count, "mention")
        first, last = report.lessons[s.first - 1], report.lessons[s.last - 1]
        if s.first == s.last:
            title = f"{first.position}. {first.title}: {what}"
            if s.defines:
                title += "; defines it"
        else:
            title = (f"{first.position}–{last.position}. {first.title} … {last.title}: "
                     f"{what} in {s.lessons} of {counted(s.last - s.first + 1, 'lesson')}")
            if s.defines and term.defined_at:
                title += f"; {term.defined_at.title or term.defined_at.lesson} defines it"
        cells.append(Cell(
            x=s.bar * STRIP_STEP,
            height=3 + round((STRIP_HEIGHT - 5) * s.count / most),
            css="def" if s.defines else "hit",
            title=title,
            url=s.url,
        ))
    return cells


def sort_keys(t: TermCoverage, position: dict[str, int],
              entry_position: dict[str, int]) -> dict[str, Any]:
    """Each column's ascending sort value; counts negated so the default puts most first.
    The page writes them as ``data-*`` attributes, so coverage.js sorts exactly as the server
    does: numbers where the order is not the text's (a glossary entry's place, file then line,
    so ``glossary.md:9`` comes before ``glossary.md:10``)."""
    last = len(position) + 1
    return {
        "term": t.term.lower(),
        "glossary": entry_position.get(t.glossary_entry or "", len(entry_position) + 1),
        "defined": position.get(t.defined_at.lesson, last) if t.defined_at else last,
        "mentions": -t.mentions,
        "lessons": -t.lesson_count,
        "first": position.get(t.first_mention.lesson, last) if t.first_mention else last,
    }


def _file_then_line(entry: str) -> tuple[str, int]:
    """``glossary/glossary.md:101`` → ``("glossary/glossary.md", 101)``."""
    file, _, line = entry.rpartition(":")
    return (file, int(line)) if line.isdigit() else (entry, 0)


def _without_spread(term: dict[str, Any]) -> dict[str, Any]:
    """A term's JSON: its strip is the page's drawing; ``lessons`` and ``lesson_count`` say
    the same for clients."""
    del term["spread"]
    return term


def _places(kind: str, entry: Any) -> list:
    """The lesson links an entry involves, for the HTML and Markdown lists."""
    if kind == "used-before-definition":
        return [*entry.used_at, entry.defined_at]
    if kind == "missing-from-glossary":
        return [entry.defined_at]
    if kind == "undefined":
        return [entry.first_mention] if entry.first_mention else []
    if kind == "candidates":
        return list(entry.lessons)
    return []


def _summary_line(report: CoverageReport) -> str:
    s = report.summary()
    parts = [f"{counted(s['terms'], 'term')}, {s['in_glossary']} in the glossary"]
    parts += [counted(s[k.replace("-", "_")], _SINGULAR.get(k, k.replace("-", " ")),
                      _PLURAL.get(k, k.replace("-", " "))) for k in KINDS]
    parts.append(f"{s['allowed']} allowed")
    return "; ".join(parts) + "."


_SINGULAR = {"candidates": "candidate", "broken-anchors": "broken anchor",
             "needs-definition": "term with no definition"}
"""The kinds that are nouns, in the singular; the others (``unused``, …) read as they are."""
_PLURAL = {"needs-definition": "terms with no definition"}


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("[", "\\[").replace("]", "\\]").replace("*", "\\*")


_STANDALONE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{% block title %}{% endblock %} · {{ report.course.title or "Course" }}</title>
<style>{{ css | safe }}</style>
</head>
<body>
<main id="main-content" class="wrap">{% block main %}{% endblock %}</main>
<script>{{ js | safe }}</script>
</body>
</html>
"""
