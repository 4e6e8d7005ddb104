"""Markdown lessons, read from markdown-it-py's token stream.

Front matter, ATX headings, paragraphs, fenced code, lists, tables (as text), definition
lists and Pandoc fenced divs (``:::: challenge``) all arrive as tokens; this module turns
them into Sections. The JSON reader reuses ``read_markdown_body`` for an export's
``body.text`` when it has no reader blocks.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.attrs import attrs_plugin
from mdit_py_plugins.container import container_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from ..errors import LessonFormatError
from ..model import CodeBlock, DefinitionItem, Lesson, Module, Problem, Section
from ..slugs import heading_anchors, slug_from_filename, slugify
from ..yaml_data import Places, Repeats, YAMLError, fault, load_placed, repeated_key
from .metadata import DIGITS, Checked


def _parser(front_matter: bool = True) -> MarkdownIt:
    md = MarkdownIt("commonmark").enable("table")
    md.core.ruler.at("normalize", _normalize)
    md.core.ruler.after("block", "heading_attrs", _heading_attrs)
    if front_matter:
        front_matter_plugin(md)
    deflist_plugin(md)
    attrs_plugin(md, spans=True)
    # One container rule for every Pandoc fenced div, whatever its class.
    container_plugin(md, "div", validate=lambda params, *_: bool(params.strip()))
    return md


def _normalize(state: StateCore) -> None:
    """markdown-it's ``normalize`` rule (CR LF and CR to LF, NUL to U+FFFD) by
    ``str.replace``, only where there is one to replace. Its two regular expressions matched
    every line ending of every lesson, to put back the same LF: a tenth of the parse."""
    src = state.src
    if "\r" in src:
        src = src.replace("\r\n", "\n").replace("\r", "\n")
    if "\0" in src:
        src = src.replace("\0", "\ufffd")
    state.src = src


_ATTR = (r"""#(?P<id>[^\s}]+)|\.[^\s}]+|-"""
         r"""|(?P<key>[^\s}=#.'"]+)=(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[^\s}'"]*))""")
"""One attribute: ``#id``, ``.class``, ``-`` (Pandoc's ``.unnumbered``) or ``key=value``,
the value quoted or not. An id's characters are HTML's: anything but whitespace (and the
``}`` that ends the block)."""
_ANY_ATTR = re.sub(r"\?P<\w+>", "?:", _ATTR)  # the same, its groups unnamed to repeat it
_HEADING_ATTRS = re.compile(
    rf"\{{[ \t]*(?P<attrs>(?:{_ANY_ATTR})(?:[ \t]+(?:{_ANY_ATTR}))*)[ \t]*\}}[ \t]*$")
"""An attribute block ending a heading, as Pandoc, kramdown and markdown-it-attrs write it:
``{#id .class key=value}``, in any order, spaces allowed inside the braces. A block holding
anything else (``{x}``, ``{}``) is part of the heading's text."""
_ONE_ATTR = re.compile(_ATTR)
_ATX_CLOSING = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")
"""``## Heading ## {#id}``: the closing hashes Pandoc allows before the block."""


def _heading_attrs(state: StateCore) -> None:
    """A heading's attribute block (``## Intro {.unnumbered #sec:intro}``) cut from its text
    before the inline parse, its id put on the heading, verbatim, as the page puts it (an id
    read as ``[\\w-]+`` made ``sec:intro`` the anchor ``sec``). A block of classes only is
    cut too, so the anchor is made from the text alone. The raw text is read, so an escaped
    ``\\{`` stays text, and a block right after a code span, a link or a span is theirs, as
    Pandoc and markdown-it-attrs read it."""
    tokens = state.tokens
    for i, token in enumerate(tokens[:-1]):
        if token.type != "heading_open" or tokens[i + 1].type != "inline":
            continue
        inline = tokens[i + 1]
        found = _trailing_attrs(inline.content)
        if found is None:
            continue
        text = inline.content[: found.start()].rstrip()
        if token.markup.startswith("#"):
            text = _ATX_CLOSING.sub("", text)
        inline.content = text
        anchor = None
        for attr in _ONE_ATTR.finditer(found["attrs"]):  # the last id, as Pandoc keeps it
            if attr["id"] is not None:
                anchor = attr["id"]
            elif attr["key"] == "id":
                anchor = next(v for v in attr.group("dq", "sq", "bare") if v is not None)
        if anchor and not any(c.isspace() for c in anchor):  # no id has a space
            token.attrSet("id", anchor)


def _trailing_attrs(content: str) -> re.Match[str] | None:
    """The attribute block that ends a heading's raw text, if it has one."""
    start = 0
    while (found := _HEADING_ATTRS.search(content, start)) is not None:
        before = content[: found.start()]
        escaped = (len(before) - len(before.rstrip("\\"))) % 2
        if not escaped and not before.endswith(("`", ")", "]")):
            return found
        start = found.start() + 1
    return None


_MD = _parser()
_MD_RULES = _parser(front_matter=False)
"""For a file whose opening dashes are rules around prose, not front matter."""
_TRAILING_ATTRS = re.compile(r"^\{[^}]*\}")
_FRONT_MATTER_OPENING = re.compile(r"-{3,}[ \t]*\n\s*[A-Za-z_][\w-]*[ \t]*:")
"""A first line of dashes alone, then a ``key:`` line: front matter opened. (Dashes before
prose are a rule.)"""
_KEY_LINE = re.compile(r"""^[ \t]*(?:[A-Za-z_][\w -]*|"[^"\n]*"|'[^'\n]*')[ \t]*:(?:[ \t]|$)""",
                       re.MULTILINE)
"""A ``key: value`` line of YAML front matter (``key:`` alone opens a nested value)."""


@dataclass
class _Draft:
    """A section being filled while the token stream is walked."""

    anchor: str | None
    heading: str | None
    level: int
    heading_path: tuple[str, ...]
    line: int | None
    callout: str | None = None
    paragraphs: list[str] = field(default_factory=list)
    code: list[CodeBlock] = field(default_factory=list)
    list_items: list[str] = field(default_factory=list)
    list_places: list[int] = field(default_factory=list)
    emphasis: list[str] = field(default_factory=list)
    definitions: list[DefinitionItem] = field(default_factory=list)

    def add_item(self, text: str) -> None:
        """A list item, placed after the paragraphs read so far."""
        self.list_items.append(text)
        self.list_places.append(len(self.paragraphs))

    def freeze(self) -> Section:
        return Section(
            anchor=self.anchor,
            heading=self.heading,
            level=self.level,
            heading_path=self.heading_path,
            paragraphs=tuple(self.paragraphs),
            code=tuple(self.code),
            list_items=tuple(self.list_items),
            list_places=tuple(self.list_places),
            callout=self.callout,
            emphasis=tuple(self.emphasis),
            definitions=tuple(self.definitions),
            line=self.line,
        )


def inline_text(token: Token, emphasis: list[str] | None = None) -> str:
    """Plain text of an inline token: link text kept, images and raw HTML dropped.

    Bold and italic runs are also appended to ``emphasis``.
    """
    out: list[str] = []
    marked: list[list[str]] = []
    skip_attrs = False
    for child in token.children or ():
        kind = child.type
        if kind in ("text", "code_inline"):
            text = child.content
            if skip_attrs:
                text = _TRAILING_ATTRS.sub("", text)
            out.append(text)
            for run in marked:
                run.append(text)
        elif kind in ("softbreak", "hardbreak"):
            out.append(" ")
            for run in marked:
                run.append(" ")
        elif kind in ("strong_open", "em_open"):
            marked.append([])
        elif kind in ("strong_close", "em_close") and marked:
            run_text = "".join(marked.pop()).strip()
            if emphasis is not None and run_text:
                emphasis.append(run_text)
        skip_attrs = kind == "image"
    return " ".join("".join(out).split())


def read_markdown_lesson(text: str, source: str) -> Lesson:
    """A Markdown lesson: front matter for metadata, ``#`` as title, ``##`` and deeper as
    sections."""
    if not text.strip():
        raise LessonFormatError(source, "empty lesson file", line=1)
    tokens = _parse(text, source)
    if _rules_around_prose(tokens):
        tokens, meta, places, repeats = _parse(text, source, _MD_RULES), {}, {}, {}
    else:
        meta, places, repeats = _front_matter(tokens, text, source)
    checked = Checked(source, _key_line(tokens, places))
    _warn_repeats(checked, tokens, repeats)
    slug = checked.text(meta.get("slug"), "slug") or slug_from_filename(source)
    given = checked.text(meta.get("title"), "title")
    title, sections, anchor_warnings = _sections(tokens, source, given_title=given)
    title = given or title or slug.replace("-", " ").capitalize()
    minutes = checked.whole_number(meta.get("minutes"), "minutes")
    if minutes is None and meta.get("teaching") is not None:  # a Workbench episode's
        teaching = checked.whole_number(meta["teaching"], "teaching")
        exercises = checked.whole_number(meta.get("exercises"), "exercises")
        minutes = None if teaching is None else teaching + (exercises or 0)
    url = checked.page(meta.get("url"), "url", "the lesson links to the page its course "
                       "gives it instead")
    position = checked.position(meta.get("position"), "position")
    return Lesson(
        slug=slug,
        title=title,
        url=url or "",
        source=source,
        format="markdown",
        sections=sections,
        module=module_from(meta.get("module")),
        position=position,
        position_line=None if position is None else checked.line_of("position"),
        minutes=minutes,
        key_idea=(checked.text(meta.get("key_idea"), "key_idea")
                  or checked.text(meta.get("keyIdea"), "keyIdea")),
        answer=checked.text(meta.get("answer"), "answer"),
        warnings=tuple(checked.warnings) + anchor_warnings,
    )


def _key_line(tokens: list[Token], places: Places) -> Callable[[str], int | None]:
    """The line of a front matter key, for a warning about its value: where the YAML parse
    placed it (``yaml_data.load_placed``; a key written twice where its kept value is)."""
    start = _yaml_start(tokens)

    def line(key: str) -> int | None:
        return start + places[key][0] if key in places else None
    return line


def _yaml_start(tokens: list[Token]) -> int:
    """The file's line the front matter's YAML starts on: the line after '---'."""
    return tokens[0].map[0] + 2 if tokens and tokens[0].map else 2


def _warn_repeats(checked: Checked, tokens: list[Token], repeats: Repeats) -> None:
    """A warning for each front matter key written more than once, at its first line: YAML
    keeps the last value without a word, and a second ``title:`` pasted below the first
    silently renamed the lesson."""
    start = _yaml_start(tokens)
    for key, lines in repeats.items():
        written = tuple(start + line for line in lines)
        checked.warnings.append(Problem(checked.source, f"front matter key "
                                        f"{repeated_key(key, written)}", written[0]))


def read_markdown_body(text: str, source: str, line: int, title: str
                       ) -> tuple[tuple[Section, ...], tuple[Problem, ...]]:
    """Sections of a Markdown fragment written on one line of a file (an export's
    ``body.text``, a JSON string), and the warnings about it, all placed at ``line``; its
    first ``#`` heading is left out when it is the lesson's ``title`` again, and is a
    section's heading when it says something else."""
    _, sections, warnings = _sections(_parse(text, source), source, line, given_title=title)
    return sections, warnings


def _parse(text: str, source: str, md: MarkdownIt = _MD) -> list[Token]:
    try:
        return md.parse(text)
    except Exception as exc:  # markdown-it is total on strings; guard against plugin bugs
        raise LessonFormatError(source, f"cannot parse Markdown: {exc}") from exc


def _rules_around_prose(tokens: list[Token]) -> bool:
    """Whether what markdown-it took for front matter has no ``key:`` line: any text between
    two ``---`` lines at the top is front matter to it, so a rule, a paragraph and a rule
    opening a lesson were, and the lesson was skipped as front matter of the wrong shape."""
    return bool(tokens) and tokens[0].type == "front_matter" and not _KEY_LINE.search(
        tokens[0].content)


def _front_matter(tokens: list[Token], text: str, source: str
                  ) -> tuple[dict[str, Any], Places, Repeats]:
    if not tokens or tokens[0].type != "front_matter":
        if _FRONT_MATTER_OPENING.match(text):
            # markdown-it reads an unclosed block as a rule and its keys as a paragraph of
            # text: broken front matter, like invalid YAML, rather than a silent lesson.
            raise LessonFormatError(source, "front matter opened with '---' is never closed; "
                                    "end it with a '---' line", 1)
        return {}, {}, {}
    try:
        meta, places, repeats = load_placed(tokens[0].content)
    except YAMLError as exc:
        # The YAML starts on the line after the opening '---'.
        why, line, column = fault(exc, tokens[0].content, 2)
        raise LessonFormatError(source, f"invalid front matter: {why}", line or 1,
                                column) from exc
    if meta is None:
        return {}, {}, {}
    if not isinstance(meta, dict):
        raise LessonFormatError(source, "front matter must be a mapping of keys to values", 2)
    return meta, places, repeats


def _sections(
    tokens: list[Token], source: str, at: int | None = None, given_title: str | None = None
) -> tuple[str | None, tuple[Section, ...], tuple[Problem, ...]]:
    """The title and sections, and the warnings about them; ``at``: the line of the file
    that holds all the text, if one does.

    The first ``#`` heading is the title, unless ``given_title`` (front matter's, an
    export's) is one and the heading says something else ("Cold brew basics" over
    ``# Steeping slowly``): the page shows that heading too, so it heads a section, as a
    later ``#`` heading does, rather than its words being searchable nowhere."""
    title: str | None = None
    first_h1 = True
    headings: list[tuple[_Draft, str | None]] = []  # each with the id it gives, if any
    path: list[tuple[int, str]] = []
    divs: list[str] = []
    current = _Draft(None, None, 0, (), at or 1)
    drafts = [current]
    in_list = 0
    term: str | None = None
    table_row: list[str] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        kind = tok.type
        if kind == "heading_open":
            level = int(tok.tag[1])
            heading = inline_text(tokens[i + 1])
            i += 2
            if level == 1 and first_h1:
                first_h1 = False
                if given_title is None or _same_title(heading, given_title):
                    title = heading
                    i += 1
                    continue
            path = [(lvl, h) for lvl, h in path if lvl < level] + [(level, heading)]
            line = at or (tok.map[0] + 1 if tok.map else None)
            current = _Draft(None, heading, level, tuple(h for _, h in path), line)
            current.callout = divs[-1] if divs else None
            drafts.append(current)
            given = tok.attrGet("id")
            headings.append((current, str(given) if given else None))
        elif kind == "container_div_open":
            divs.append(tok.info.strip().split()[0].lstrip(".{"))
        elif kind == "container_div_close" and divs:
            divs.pop()
        elif kind in ("bullet_list_open", "ordered_list_open"):
            in_list += 1
        elif kind in ("bullet_list_close", "ordered_list_close"):
            in_list -= 1
        elif kind in ("fence", "code_block"):
            lang = tok.info.strip().split()[0].strip("{}.") if tok.info.strip() else None
            if tok.content.strip():
                current.code.append(CodeBlock(tok.content.rstrip("\n"), lang or None))
        elif kind == "dt_open":
            term = inline_text(tokens[i + 1], current.emphasis)
        elif kind in ("th_open", "td_open"):
            table_row.append(inline_text(tokens[i + 1]))
        elif kind == "tr_close":
            current.paragraphs.append(" | ".join(table_row))
            table_row = []
        elif kind == "inline" and tokens[i - 1].type == "paragraph_open":
            text = inline_text(tok, current.emphasis)
            if not text:
                pass
            elif term is not None:
                current.definitions.append(DefinitionItem(term, text))
                current.add_item(f"{term}: {text}")
                term = None
            elif in_list:
                current.add_item(text)
            else:
                current.paragraphs.append(text)
        elif kind == "dl_close":
            term = None
        i += 1
    warnings = _anchor_headings(headings, source)
    sections = tuple(d.freeze() for d in drafts if d.heading is not None or _has_content(d))
    return title, sections, warnings


def _same_title(heading: str, title: str) -> bool:
    """Whether a ``#`` heading is the lesson's title again, as its anchor would read
    (case, quotes and punctuation aside)."""
    return slugify(heading) == slugify(title)


def _anchor_headings(headings: list[tuple[_Draft, str | None]], source: str
                     ) -> tuple[Problem, ...]:
    """Each heading's anchor (``heading_anchors``), once every id the lesson gives is known;
    a warning at the line of each id that another heading has too."""
    anchors, clashes = heading_anchors([(d.heading or "", given) for d, given in headings])
    for (draft, _), anchor in zip(headings, anchors, strict=True):
        draft.anchor = anchor
    drafts = [draft for draft, _ in headings]
    return tuple(Problem(source, c.message(drafts[c.heading].heading or "",
                                           _other_line(drafts[c.heading], drafts[c.other])),
                         drafts[c.heading].line)
                 for c in clashes)


def _other_line(draft: _Draft, other: _Draft) -> int | None:
    """The other heading's line, for a warning at ``draft``'s; none when it is the same line
    (a JSON export's ``body.text``)."""
    return None if other.line == draft.line else other.line


def _has_content(draft: _Draft) -> bool:
    return bool(draft.paragraphs or draft.code or draft.list_items or draft.definitions)


def module_from(value: Any) -> Module | None:
    """A module from front matter: a mapping ``{index, slug, title}`` or just a title."""
    if isinstance(value, dict):
        title = str(value.get("title") or value.get("slug") or "")
        if not title:
            return None
        slug = str(value.get("slug") or slugify(title))
        return Module(_int_or_none(value.get("index")), slug, title)
    if isinstance(value, str) and value.strip():
        return Module(None, slugify(value), value.strip())
    return None


def _int_or_none(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and DIGITS.fullmatch(value):
        return int(value)
    return None
