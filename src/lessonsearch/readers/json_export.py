"""JSON lesson exports (reader schema 1, see formats.md).

Sections come from ``reader.blocks`` with their ``id`` taken verbatim as the anchor, since
that is what the public page puts on the heading, even where two headings give one. Without
reader blocks, ``body.text`` is read as Markdown and anchors are derived by the site's rule.
Unknown keys, block types and run attributes are ignored, so a newer export still reads.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import LessonFormatError
from ..model import (
    CheckQuestion,
    CodeBlock,
    CourseInfo,
    Lesson,
    LessonLink,
    Option,
    Problem,
    Section,
)
from ..slugs import heading_anchors
from .markdown import module_from, read_markdown_body
from .metadata import Checked

_EMPHASIS_KEYS = ("bold", "italic", "strong", "em", "b", "i")
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[{}\[\],:]')
"""A string, or a bracket or separator: every token but numbers, booleans and null."""
_STEP = re.compile(r"[^.\[\]]+|\[(\d+)\]")


def read_json_lesson(text: str, source: str) -> Lesson:
    if not text.strip():
        raise LessonFormatError(source, "empty lesson file", line=1)
    text, halves = _without_lone_surrogates(text, source)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LessonFormatError(source, f"invalid JSON: {exc.msg}{_before(exc)}",
                                exc.lineno, exc.colno) from exc
    doc = _Doc(data, text, source)
    lesson = doc.mapping(data, "", required=True)
    meta = doc.mapping(lesson.get("lesson"), "lesson", required=True)
    slug = doc.string(meta, "lesson.slug", required=True)
    title = doc.string(meta, "lesson.title", required=True)
    reader = doc.mapping(lesson.get("reader"), "reader")
    body = doc.mapping(lesson.get("body"), "body")
    blocks = reader.get("blocks")
    if blocks is not None and (blocks != [] or "text" not in body):
        sections, anchor_warnings = _sections_from_blocks(
            doc, doc.sequence(blocks, "reader.blocks"))
    elif "text" in body:  # no reader blocks (or an empty list of them): read the Markdown
        body_text = doc.string(body, "body.text", required=True)
        # A JSON string holds no raw newline: every section of body.text starts on its line.
        line = doc.line_after('"body"', '"text"')
        sections, anchor_warnings = read_markdown_body(body_text, source, line, title)
    else:
        doc.fail("body.text", "has neither reader.blocks nor body.text: no lesson content")
    course = doc.mapping(lesson.get("course"), "course")
    checked = Checked(source, doc.line_of_key)
    checked.warnings.extend(halves)
    instead = "the lesson links to the page its course gives it instead"
    check_path = "check" if "check" in lesson else "reader.check"
    check = lesson.get("check", reader.get("check"))
    position = checked.position(meta.get("position"), "lesson.position", typed=True)
    return Lesson(
        slug=slug,
        title=title,
        url=checked.page(meta.get("url"), "lesson.url", instead) or "",
        source=source,
        format="json",
        sections=sections,
        course=CourseInfo(
            slug=doc.string(course, "course.slug") or "",
            title=doc.string(course, "course.title")
            or doc.string(reader, "reader.courseTitle")
            or "",
            url=checked.link(course.get("url"), "course.url", "it is not linked"),
        )
        if course or reader.get("courseTitle")
        else None,
        module=module_from(reader.get("module")),
        position=position,
        position_line=None if position is None else doc.line_of_named_key("lesson.position"),
        minutes=checked.whole_number(meta.get("minutes"), "lesson.minutes", typed=True),
        key_idea=(checked.text(meta.get("keyIdea"), "lesson.keyIdea", typed=True)
                  or checked.text(reader.get("keyIdea"), "reader.keyIdea", typed=True)),
        answer=checked.text(meta.get("answer"), "lesson.answer", typed=True),
        check=_check(doc, check, check_path) if check is not None else None,
        prev=_link(checked, lesson.get("prev", reader.get("prev")), "prev"),
        next=_link(checked, lesson.get("next", reader.get("next")), "next"),
        warnings=tuple(checked.warnings) + anchor_warnings,
    )


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_ESCAPES = re.compile(r"\\\\|\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"
                      r"|(\\u[dD][89a-fA-F][0-9a-fA-F]{2})")
"""An escaped backslash (whose ``u`` after it is a letter), a surrogate pair (one character
written as two escapes), or half of a pair alone (the group)."""


_MISSING_BEFORE = ("Expecting ',' delimiter", "Expecting ':' delimiter")
"""Python's errors for a separator missing between two tokens, placed at the second."""
_AFTER_A_COMMA = ("Expecting value", "Expecting property name enclosed in double quotes")
"""Python's errors for a token missing after a comma: at a closing bracket, a comma too many."""


def _before(exc: json.JSONDecodeError) -> str:
    """Where the fault of an error Python places at the next token may be, when that token
    starts a later line: a comma missing at the end of line 13 is reported at line 14, where
    an editor finds nothing wrong. Said as "(after line 13, column 24, where …)". At the
    end of the file no comma is missing: a bracket is, or the rest of the file. Empty
    when the token before is on the error's own line, or the error is not of that kind."""
    text, at = exc.doc, exc.pos
    if not text[at:].strip() and exc.msg.startswith(_MISSING_BEFORE + _AFTER_A_COMMA):
        return (" (the file ends there, inside an object or a list: a closing '}' or ']' is "
                "missing, or the file was cut short)")
    end = len(text[:at].rstrip())
    if end == 0 or "\n" not in text[end:at]:
        return ""
    line, column = text.count("\n", 0, end - 1) + 1, end - text.rfind("\n", 0, end - 1) - 1
    if exc.msg.startswith(_MISSING_BEFORE):
        before = "key" if ":" in exc.msg else "value"
        return f" (after line {line}, column {column}, where the {before} before it ends)"
    if exc.msg.startswith(_AFTER_A_COMMA) and text[end - 1] == "," and (
            text[at:at + 1] in ("]", "}")):
        return (f" (after the ',' at line {line}, column {column}: JSON allows no comma "
                "before a closing bracket)")
    return ""


def _without_lone_surrogates(text: str, source: str) -> tuple[str, list[Problem]]:
    """The export with each ``\\ud800``-like escape that is half of a UTF-16 surrogate pair
    alone written as ``\\ufffd``, and a warning at the first one's line. JSON allows such
    an escape, but it is no character: the string it is in could be neither indexed nor
    stored, and the whole build stopped at it. Replaced, the lesson loses one character."""
    if _SURROGATE_ESCAPE.search(text) is None:  # most exports: no surrogate escape at all
        return text, []
    halves = [m for m in _ESCAPES.finditer(text) if m.group(1)]
    if not halves:
        return text, []
    at = halves[0].start()
    more = f" (and {len(halves) - 1} more)" if len(halves) > 1 else ""
    warning = Problem(source, f"a string holds {halves[0].group(1)}{more}, half of a UTF-16 "
                      "surrogate pair alone, which is no character; it is read as U+FFFD "
                      "(\ufffd)", text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at))
    return _ESCAPES.sub(lambda m: "\\ufffd" if m.group(1) else m.group(), text), [warning]


@dataclass
class _Doc:
    """Typed access to the parsed export, failing with the key path and its line."""

    data: Any
    text: str
    source: str
    _lines: dict[str, int] = field(default_factory=dict)
    _key_lines: dict[tuple[str | int, ...], int] | None = None

    def line_of(self, needle: str) -> int:
        if needle not in self._lines:
            at = self.text.find(needle)
            self._lines[needle] = self.text.count("\n", 0, at) + 1 if at >= 0 else 1
        return self._lines[needle]

    def line_after(self, anchor: str, needle: str) -> int:
        """The line of the first ``needle`` after ``anchor`` (``"text"`` inside ``"body"``)."""
        at = self.text.find(needle, max(self.text.find(anchor), 0))
        return self.text.count("\n", 0, at) + 1 if at >= 0 else 1

    def line_of_key(self, key_path: str) -> int:
        """The line of the key at ``key_path`` (``lesson.title``, ``reader.blocks[3].runs``),
        or for a missing key the line of the nearest parent present. Found by its path, as
        ``course`` and ``lesson`` both hold a ``title``."""
        if self._key_lines is None:  # read only when something fails
            self._key_lines = _key_lines(self.text)
        steps = tuple(int(i) if i else name for name, i in
                      ((m.group(), m.group(1)) for m in _STEP.finditer(key_path)))
        while steps and steps not in self._key_lines:
            steps = steps[:-1]
        return self._key_lines.get(steps, 1)

    def line_of_named_key(self, key_path: str) -> int:
        """``line_of_key`` without finding every key's line, where no other key has the
        name (as ``position`` in an export): for a line every lesson keeps, though few are
        ever warned about. The name in quotes before a colon, its opening quote after no
        backslash, is a key: quotes inside a string are escaped."""
        name = key_path.rsplit(".", 1)[-1]
        found = re.finditer(rf'(?<!\\)"{re.escape(name)}"\s*:', self.text)
        first, other = next(found, None), next(found, None)
        if first is None or other is not None:
            return self.line_of_key(key_path)
        return self.text.count("\n", 0, first.start()) + 1

    def fail(self, key_path: str, reason: str) -> None:
        line = self.line_of_key(key_path)
        raise LessonFormatError(self.source, f"{key_path or 'the file'} {reason}", line)

    def mapping(self, value: Any, key_path: str, required: bool = False) -> dict[str, Any]:
        if value is None and not required:
            return {}
        if not isinstance(value, dict):
            self.fail(key_path, "is missing" if value is None else "must be an object")
        return value

    def sequence(self, value: Any, key_path: str) -> list[Any]:
        if not isinstance(value, list):
            self.fail(key_path, "must be a list")
        return value

    def string(self, parent: dict[str, Any], key_path: str, required: bool = False) -> str | None:
        value = parent.get(key_path.rsplit(".", 1)[-1])
        if value is None or (isinstance(value, str) and not value.strip()):
            if required:  # "is missing" read wrong for a key written with "" or spaces
                self.fail(key_path, "is missing (a non-empty string is required)"
                          if value is None else "is empty (a non-empty string is required)")
            return None
        if not isinstance(value, str):
            self.fail(key_path, f"must be a string, not {type(value).__name__}")
        return value


def _key_lines(text: str) -> dict[tuple[str | int, ...], int]:
    """The line of every key of a JSON text, by its path: ``("lesson", "title")``, with a
    list element's index as a number (``("reader", "blocks", 3, "runs")``). The text has
    been parsed already, so its tokens are well formed."""
    lines: dict[tuple[str | int, ...], int] = {}
    path: list[str | int | None] = []  # a key (None before the first) or an index per level
    in_object: list[bool] = []
    expect_key = False
    line, counted = 1, 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "{[":
            in_object.append(token == "{")
            path.append(None if token == "{" else 0)
            expect_key = token == "{"
        elif token in "}]":
            in_object.pop()
            path.pop()
            expect_key = False
        elif token == ",":
            if in_object[-1]:
                expect_key = True
            else:
                path[-1] += 1
        elif token == ":":
            expect_key = False
        elif expect_key:
            line += text.count("\n", counted, match.start())
            counted = match.start()
            path[-1] = json.loads(token)
            lines.setdefault(tuple(path), line)
    return lines


def _runs_text(doc: _Doc, block: dict[str, Any], emphasis: list[str], where: str) -> str:
    """The text of a block (or list item) at key path ``where``."""
    runs = block.get("runs")
    if runs is None:
        return str(block.get("text") or "")
    if not isinstance(runs, list):
        doc.fail(f"{where}.runs", "must be a list")
    return _joined_runs(runs, emphasis)


def _item_text(doc: _Doc, item: Any, emphasis: list[str], where: str) -> str:
    """A list item as the page shows it. Exports write an item as a string, as an object
    with ``runs`` (or ``text``) like a paragraph, or as a bare list of runs."""
    if isinstance(item, str):
        return item
    if isinstance(item, dict):
        return _runs_text(doc, item, emphasis, where)
    if isinstance(item, list):
        return _joined_runs(item, emphasis)
    return ""


def _joined_runs(runs: list[Any], emphasis: list[str]) -> str:
    """The runs' text joined as the page shows it; bold and italic runs go to ``emphasis``."""
    parts: list[str] = []
    for run in runs:
        if not isinstance(run, dict) or not isinstance(run.get("text"), str):
            continue
        parts.append(run["text"])
        marks = run.get("marks") if isinstance(run.get("marks"), list) else ()
        marked = any(run.get(k) for k in _EMPHASIS_KEYS) or set(marks) & set(_EMPHASIS_KEYS)
        if marked and run["text"].strip():
            emphasis.append(run["text"].strip())
    return " ".join("".join(parts).split())


def _sections_from_blocks(doc: _Doc, blocks: list[Any]
                          ) -> tuple[tuple[Section, ...], tuple[Problem, ...]]:
    """The sections of ``reader.blocks``, and the warnings about their ids. A heading's
    ``id`` is the page's: kept verbatim even where another heading has it (it was numbered
    ``-1`` like a repeated heading's text), with a warning (``heading_anchors``)."""
    headings: list[tuple[dict[str, Any], str | None, int]] = []  # each with its id, block
    drafts: list[dict[str, Any]] = [_draft(None, None, 0, ())]
    path: list[tuple[int, str]] = []
    for number, block in enumerate(blocks):
        if not isinstance(block, dict):
            continue
        kind = block.get("t")
        current = drafts[-1]
        where = f"reader.blocks[{number}]"
        if kind in ("h1", "h2", "h3", "h4", "h5", "h6"):
            level = int(kind[1])
            heading = _runs_text(doc, block, [], where)
            given = block.get("id") if isinstance(block.get("id"), str) else None
            path = [(lvl, h) for lvl, h in path if lvl < level] + [(level, heading)]
            drafts.append(_draft(None, heading, level, tuple(h for _, h in path)))
            drafts[-1]["line"] = doc.line_of(f'"{block.get("id")}"') if block.get("id") else None
            headings.append((drafts[-1], given or None, number))
        elif kind == "code" and isinstance(block.get("text"), str):
            lang = block.get("lang") if isinstance(block.get("lang"), str) else None
            current["code"].append(CodeBlock(block["text"], lang))
        elif kind in ("ul", "ol", "list") and isinstance(block.get("items"), list):
            for i, item in enumerate(block["items"]):
                text = _item_text(doc, item, current["emphasis"], f"{where}.items[{i}]")
                if text:
                    current["list_items"].append(text)
                    current["list_places"].append(len(current["paragraphs"]))
        elif kind in ("p", "quote", "callout", "li") or "runs" in block:
            text = _runs_text(doc, block, current["emphasis"], where)
            if text:
                current["paragraphs"].append(text)
    warnings = _anchor_headings(doc, headings)
    return tuple(
        Section(**{k: tuple(v) if isinstance(v, list) else v for k, v in d.items()})
        for d in drafts
        if d["heading"] is not None or d["paragraphs"] or d["code"] or d["list_items"]
    ), warnings


def _anchor_headings(doc: _Doc, headings: list[tuple[dict[str, Any], str | None, int]]
                     ) -> tuple[Problem, ...]:
    """Each heading's anchor, and a warning at the ``id`` of each that an earlier heading
    has too: found by its path, as the id's first quoted text is the earlier one's."""
    anchors, clashes = heading_anchors([(d["heading"], given) for d, given, _ in headings])
    for (draft, _, _), anchor in zip(headings, anchors, strict=True):
        draft["anchor"] = anchor
    warnings = []
    for clash in clashes:
        (draft, _, number), (_, gives, other) = headings[clash.heading], headings[clash.other]
        line = doc.line_of_key(f"reader.blocks[{number}].id")
        draft["line"] = line
        other_line = doc.line_of_key(f"reader.blocks[{other}].{'id' if gives else 't'}")
        named = None if other_line == line else other_line  # an export on one line
        warnings.append(Problem(doc.source, clash.message(draft["heading"], named), line))
    return tuple(warnings)


def _draft(anchor: str | None, heading: str | None, level: int, path: tuple[str, ...]):
    return {
        "anchor": anchor,
        "heading": heading,
        "level": level,
        "heading_path": path,
        "paragraphs": [],
        "code": [],
        "list_items": [],
        "list_places": [],
        "emphasis": [],
    }


def _check(doc: _Doc, value: Any, where: str) -> CheckQuestion | None:
    check = doc.mapping(value, where)
    question = doc.string(check, f"{where}.question")
    if not question:
        return None
    options = []
    for raw in doc.sequence(check.get("options", []), f"{where}.options"):
        if isinstance(raw, dict) and isinstance(raw.get("text"), str):
            tempting = raw.get("tempting") if isinstance(raw.get("tempting"), str) else None
            options.append(Option(raw["text"], raw.get("correct") is True, tempting))
    return CheckQuestion(question, tuple(options))


def _link(checked: Checked, value: Any, key: str) -> LessonLink | None:
    if not isinstance(value, dict):
        return None
    slug, title = value.get("slug"), value.get("title")
    if not isinstance(slug, str) or not isinstance(title, str):
        return None
    url = value.get("url") if isinstance(value.get("url"), str) else ""
    if url:
        url = checked.link(url, f"{key}.url", "the course's own link is used instead") or ""
    return LessonLink(slug, title, url)
