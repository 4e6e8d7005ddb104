"""Read a plain-text lesson: what copying a lesson page out of the browser gives.

There is no markup, so structure is inferred from the shape of lines and of blank-line separated
blocks (formats.md §3). Where a guess is uncertain it leans towards prose: a line wrongly taken
for a heading gives links an anchor the page does not have, and prose wrongly taken for code
drops out of snippets, while a missed heading only makes a link land a little higher up.
"""

from __future__ import annotations

import re
import textwrap
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import groupby
from typing import NamedTuple

from lessonsearch.errors import LessonFormatError
from lessonsearch.model import CodeBlock, Lesson, Section, text_fragment
from lessonsearch.slugs import AnchorRegistry, anchor_for, slug_from_filename

MAX_HEADING_WORDS = 12
MAX_HEADING_CHARS = 90
MIN_PASSAGE_WORDS = 8  # without headings, a shorter passage is too thin to be a hit of its own
MAX_FRAGMENT_WORDS = 16  # fragments grow past six words only while the opening is not unique
MAX_JUNK_SHARE = 0.10  # above this share of control characters, a file is binary, not a lesson

_JUNK = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f\ufffd]")  # and the decoder's replacement mark
_BULLET = re.compile(r"\s*(?:•\s*|[-*]\s+)(?=\S)")
_PROMPT = re.compile(r"(?:>>>|\$)(?:\s|$)")  # the lines after it in its block are its output
_CODE = (
    re.compile(  # assignment: x = …, a, b = …, cache[k] += …
        r"[A-Za-z_][\w.]*(?:\[[^\]]*\])*(?:\s*,\s*[A-Za-z_][\w.]*)*\s*(?:[-+*/%@&|^]|//|\*\*)?=(?!=)"
    ),
    re.compile(r"(?:let|const|var)\s+\w+\s*="),
    re.compile(r"[A-Za-z_][\w.]*\([^()]*(?:\([^()]*\)[^()]*)*\);?$"),  # the whole line is one call
    re.compile(r"(?:async\s+)?def\s+\w+\s*\(.*:$|class\s+[A-Z]\w*(?:\(.*\))?:$|@\w"),
    re.compile(r"import\s+[\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+)*$|from\s+[\w.]+\s+import\s"),
    re.compile(r".*[{}]$|[}\])]"),
)
_MAYBE_CODE = re.compile(
    r"\s{2,}|#|\.\.\.(?:\s|$)|(?:for|while|if|elif|else|try|except|finally|with)\b.*:$"
    r"|(?:return|yield|raise)\b"
)
"""Signs that count only next to a sure one: indented quotations and wrapped sentences that
start with "if" stay prose, while the body of a loop joins the loop."""


class _Block(NamedTuple):
    start: int  # 1-based number of the block's first line
    lines: list[str]


class _Part(NamedTuple):
    kind: str  # heading, para, code or item
    line: int
    text: str


@dataclass
class _Draft:
    """A section being filled; frozen into a Section once every part has found its place."""

    line: int
    heading: str | None = None
    anchor: str | None = None
    texts: defaultdict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    item_places: list[int] = field(default_factory=list)
    """For each list item, how many paragraphs came before it."""
    opening: str = ""
    """The first words a reader sees, for a text fragment."""
    last_kind: str = ""

    def add(self, part: _Part) -> None:
        if part.kind == self.last_kind == "code":
            self.texts["code"][-1] += "\n\n" + part.text  # a blank line inside one snippet
        else:
            if part.kind == "item":
                self.item_places.append(len(self.texts["para"]))
            self.texts[part.kind].append(part.text)
        self.opening = self.opening or part.text.split("\n", 1)[0]
        self.last_kind = part.kind

    def absorb(self, other: _Draft) -> None:
        before = len(self.texts["para"])
        self.item_places += [before + place for place in other.item_places]
        for kind, texts in other.texts.items():
            self.texts[kind] += texts
        self.opening = self.opening or other.opening

    @property
    def words(self) -> int:
        return sum(len(text.split()) for text in self.texts["para"] + self.texts["item"])

    def freeze(self, fragment: str | None) -> Section:
        return Section(
            anchor=self.anchor,
            heading=self.heading,
            level=2 if self.heading else 0,
            heading_path=(self.heading,) if self.heading else (),
            paragraphs=tuple(self.texts["para"]),
            code=tuple(CodeBlock(textwrap.dedent(text)) for text in self.texts["code"]),
            list_items=tuple(self.texts["item"]),
            list_places=tuple(self.item_places),
            line=self.line,
            fragment=fragment,
        )


_HEADING_MARK = re.compile(r"^#{1,6}\s+")
"""Markdown's heading mark, which a title or a heading pasted into a text file may keep."""


def _title(line: str) -> str:
    """The first line, its spaces single, without a Markdown heading mark (``# Summary``): a
    copy of a Markdown lesson saved as text has the same title as the original."""
    return " ".join(_HEADING_MARK.sub("", line).split()) or " ".join(line.split())


def read_text_lesson(text: str, source: str) -> Lesson:
    """Turn the text of a ``*.txt`` lesson into a Lesson; ``source`` names it in errors.

    ``url`` is left empty: the course reader knows the base URL and fills it in.
    """
    title_block, *body = _blocks(_clean_lines(text, source))
    glued = len(title_block.lines) > 1
    if glued:  # the standfirst (or the intro) follows the title without a blank line
        body.insert(0, _Block(title_block.start + 1, title_block.lines[1:]))
    parts = _parts(body, standfirst=glued)
    if _question_standfirst(parts):
        parts[0] = parts[0]._replace(kind="para")
    has_headings = any(part.kind == "heading" for part in parts)
    drafts = _drafts(parts, has_headings)
    page = " ".join(" ".join([title_block.lines[0], *(p.text for p in parts)]).split()).lower()
    return Lesson(
        slug=slug_from_filename(source),
        title=_title(title_block.lines[0]),
        url="",
        source=source,
        format="text",
        sections=tuple(
            draft.freeze(None if has_headings else _fragment(draft.opening, page))
            for draft in drafts
        ),
    )


def _question_standfirst(parts: list[_Part]) -> bool:
    """Whether the heading-shaped question opening the lesson is its standfirst, not its
    first heading: only where the lesson has no other heading.

    A lesson that has headings goes from its title (and standfirst) straight to the first
    one, as every page of a course written for the site does; a standfirst is then followed
    by that heading, which the shape rule already tells apart. So a question followed by
    prose and later headings is the first heading ("Why wait?" in a lesson on caching), and
    links to its section need its anchor. Alone, it asks what the whole lesson answers, and
    the passages keep their text fragments; a missed heading costs only an anchor there.
    A question written on the line right under the title is a standfirst whatever follows
    (``_parts`` never takes it for a heading): that is how an author says so.
    """
    return (
        bool(parts)
        and parts[0].kind == "heading"
        and parts[0].text.endswith("?")
        and not any(part.kind == "heading" for part in parts[1:])
    )


def _clean_lines(text: str, source: str) -> list[str]:
    """Lines without BOM, carriage returns, tabs or stray control characters, or an error."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    junk = [match.start() for match in _JUNK.finditer(text)]
    if len(junk) > MAX_JUNK_SHARE * len(text):
        line = text.count("\n", 0, junk[0]) + 1
        share = len(junk) / len(text)
        reason = f"looks like a binary file ({share:.0%} control characters); save it as UTF-8 text"
        raise LessonFormatError(source, reason, line)
    text = _JUNK.sub("", text).translate({0x0B: " ", 0x0C: " "})
    if not text.strip():
        raise LessonFormatError(source, "empty lesson file; put the lesson title on line 1", 1)
    return [line.expandtabs(4).rstrip() for line in text.split("\n")]


def _blocks(lines: list[str]) -> list[_Block]:
    """Runs of non-blank lines, each with the number of its first line."""
    blocks: list[_Block] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if blocks and blocks[-1].start + len(blocks[-1].lines) == number:
            blocks[-1].lines.append(line)
        else:
            blocks.append(_Block(number, [line]))
    return blocks


def _parts(blocks: list[_Block], standfirst: bool) -> list[_Part]:
    """Headings, paragraphs, code and list items in reading order.

    A heading must be followed by something that is not heading-shaped itself: two short lines
    in a row are more likely a label and a heading, or a standfirst, than two empty sections.
    """
    shaped = [_heading_shaped(block) for block in blocks] + [True]
    parts: list[_Part] = []
    for i, block in enumerate(blocks):
        if shaped[i] and not shaped[i + 1] and not (i == 0 and standfirst):
            # without a Markdown mark, as the title is (a Markdown lesson saved as text)
            parts.append(_Part("heading", block.start, _HEADING_MARK.sub("", block.lines[0])))
            continue
        runs: list[tuple[str, int, list[str]]] = []
        kinds = _line_kinds(block.lines)
        for number, (line, kind) in enumerate(zip(block.lines, kinds, strict=True), block.start):
            last = runs[-1][0] if runs else None
            if last == kind == "code" or (kind == "para" and last in ("para", "item")):
                runs[-1][2].append(line)  # the next line of a snippet, or a wrapped line
            else:
                runs.append((kind, number, [_BULLET.sub("", line, count=1)]))
        parts += [_Part(kind, number, "\n".join(lines)) for kind, number, lines in runs]
    return [p if p.kind == "code" else p._replace(text=" ".join(p.text.split())) for p in parts]


def _heading_shaped(block: _Block) -> bool:
    """A short line on its own, with no sentence-ending or run-on punctuation, and not code."""
    if len(block.lines) != 1:
        return False
    line = block.lines[0].strip()
    last = line.rstrip("\"'”’)]»")[-1:]
    return (
        len(line) <= MAX_HEADING_CHARS
        and len(line.split()) <= MAX_HEADING_WORDS
        and last not in ".!:;,…"  # an empty `last` (only quotes) is "in" too
        and any(char.isalnum() for char in line)
        and _line_kinds(block.lines) == ["para"]
    )


def _line_kinds(lines: list[str]) -> list[str]:
    """``item``, ``code`` or ``para`` for each line of one block."""
    kinds: list[str] = []
    after_prompt = False
    for line in lines:
        bare = line.strip()
        after_prompt = after_prompt or bool(_PROMPT.match(bare))
        if _BULLET.match(line):
            kinds.append("item")
        elif _PROMPT.match(bare) or (
            not bare.endswith(("?", "."))  # how sentences end, and code never does
            and any(pattern.match(bare) for pattern in _CODE)
        ):
            kinds.append("code")
        else:
            kinds.append("maybe" if after_prompt or _MAYBE_CODE.match(line) else "para")
    resolved: list[str] = []
    for codeish, run in groupby(kinds, key=lambda kind: kind in ("code", "maybe")):
        group = list(run)
        resolved += ["code" if "code" in group else "para"] * len(group) if codeish else group
    return resolved


def _drafts(parts: list[_Part], has_headings: bool) -> list[_Draft]:
    """Sections by heading; in a lesson without headings, a section per paragraph."""
    registry = AnchorRegistry()
    drafts: list[_Draft] = []
    for part in parts:
        if part.kind == "heading":
            drafts.append(_Draft(part.line, part.text, registry.claim(anchor_for(part.text))))
            continue
        if not drafts or (part.kind == "para" and not has_headings):
            drafts.append(_Draft(part.line))
        drafts[-1].add(part)
    if has_headings:
        return drafts
    merged: list[_Draft] = []
    for draft in drafts:
        if merged and merged[-1].words < MIN_PASSAGE_WORDS:
            merged[-1].absorb(draft)
        else:
            merged.append(draft)
    if len(merged) > 1 and merged[-1].words < MIN_PASSAGE_WORDS:
        merged[-2].absorb(merged.pop())
    return merged


def _fragment(opening: str, page: str) -> str:
    """A text fragment long enough to be unique: the browser scrolls to the first match on the
    page, and passages often open alike ("The model …")."""
    words = opening.split()[:MAX_FRAGMENT_WORDS]
    count = 6
    while count < len(words) and page.count(" ".join(words[:count]).lower()) > 1:
        count += 1
    return text_fragment(opening, count)
