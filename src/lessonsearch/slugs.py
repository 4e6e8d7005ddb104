"""Anchor ids and slugs, derived exactly as the course site derives them."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

_NOT_ANCHOR_CHAR = re.compile(r"[^\w\s-]|_")
_SPACES = re.compile(r"\s+")
_NOT_SLUG_CHAR = re.compile(r"[^a-z0-9]+")


def anchor_for(heading: str) -> str:
    """The site's rule: lower-case, keep letters, digits, spaces and hyphens, spaces → ``-``.

    >>> anchor_for("Which is why “work step by step” helps")
    'which-is-why-work-step-by-step-helps'
    >>> anchor_for("Does it plan?")
    'does-it-plan'
    """
    kept = _NOT_ANCHOR_CHAR.sub("", heading.lower())
    return _SPACES.sub("-", kept.strip())


class AnchorRegistry:
    """Hands out anchors unique within one lesson: ``intro``, ``intro-1``, ``intro-2``…"""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}

    def __contains__(self, anchor: str) -> bool:
        """Whether ``anchor`` is handed out already."""
        return anchor in self._seen

    def reserve(self, anchor: str) -> None:
        """Hold ``anchor`` back from ``claim``, which numbers it as if handed out."""
        self._seen.setdefault(anchor, 0)

    def claim(self, anchor: str) -> str:
        if anchor not in self._seen:
            self._seen[anchor] = 0
            return anchor
        while True:
            self._seen[anchor] += 1
            candidate = f"{anchor}-{self._seen[anchor]}"
            if candidate not in self._seen:
                self._seen[candidate] = 0
                return candidate


@dataclass(frozen=True, slots=True)
class AnchorClash:
    """A heading whose own id a heading before it gives too, or takes from its text: what a
    warning at the heading's line names. ``heading`` and ``other`` index the headings
    given to ``heading_anchors``."""

    heading: int
    other: int
    anchor: str
    other_title: str
    other_anchor: str
    """The anchor ``other`` has: ``anchor`` when it gives that id too, else its text's,
    numbered past it."""

    def message(self, title: str, other_line: int | None) -> str:
        """The warning, for the heading ``title``; ``other_line`` is where the other is. It
        names both headings, the other's line (the warning's own line is this heading's)
        and the anchor each has now, as the glossary's anchor warnings do: "the heading id
        'examples' of 'Other' is the anchor 'Examples' takes" read as if 'Examples' were an
        anchor, and left out the anchor the heading giving way has."""
        other = f"the heading {self.other_title!r}" + (
            "" if other_line is None else f" (line {other_line})")
        if self.other_anchor == self.anchor:
            return (f"The id {self.anchor!r} of the heading {title!r} is the id of {other} "
                    f"too; both have the anchor {self.anchor!r}, and a link to "
                    f"#{self.anchor} opens {self.other_title!r}: give one of them another id.")
        return (f"The id {self.anchor!r} of the heading {title!r} is the anchor {other} "
                f"takes from its text too; {title!r} has the anchor {self.anchor!r} and "
                f"{self.other_title!r} the anchor {self.other_anchor!r}, but a site that "
                f"numbers headings as it meets them gives both {self.anchor!r}: give one of "
                "them another id.")


def heading_anchors(headings: Sequence[tuple[str, str | None]]
                    ) -> tuple[list[str], list[AnchorClash]]:
    """The anchors of a lesson's headings, given in order as (text, the id the heading
    gives or None), and the clashes of the ids given.

    A given id is the page's: it is kept verbatim, even where another heading has it. A
    heading without one gets its text's (``anchor_for``), numbered ``-1``, ``-2`` past the
    anchors before it and every id given in the lesson, before or after it, so that no
    link of its lands on another heading. A given id that a heading before it gives too, or
    takes from its text (``## Example``, then ``## Other {#example}``), is a clash: the page
    has that id twice, or numbers the first heading as this does, as renderers differ; the
    editor should know. (A heading after an id its text would give is numbered past it by
    every renderer: no clash.)"""
    registry = AnchorRegistry()
    for _, given in headings:
        if given:
            registry.reserve(given)
    one_pass = AnchorRegistry()  # the anchors of a renderer that numbers as it goes
    anchors: list[str] = []
    wanted: dict[str, int] = {}  # such an anchor → the heading without an id it goes to
    for number, (text, given) in enumerate(headings):
        if given:
            anchors.append(given)
            one_pass.reserve(given)
            continue
        anchors.append(registry.claim(anchor_for(text)))
        wanted.setdefault(one_pass.claim(anchor_for(text)), number)
    clashes: list[AnchorClash] = []
    first_given: dict[str, int] = {}
    for number, (_, given) in enumerate(headings):
        if not given:
            continue
        other = first_given.setdefault(given, number)
        if other == number:
            other = wanted.get(given, number)
        if other < number:
            clashes.append(AnchorClash(number, other, given, headings[other][0], anchors[other]))
    return anchors, clashes


def slugify(text: str) -> str:
    """An ASCII slug for lesson and term ids: ``KV cache`` → ``kv-cache``, ``Café`` →
    ``cafe``. Text with no Latin letter or digit keeps its own letters, as a heading's
    anchor does (``anchor_for``): ``Внимание`` → ``внимание``, where every such term of a
    glossary was ``untitled``, ``untitled-1``… Only text with no letter or digit at all is
    ``untitled``."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return (_NOT_SLUG_CHAR.sub("-", ascii_text.lower()).strip("-")
            or anchor_for(text).strip("-") or "untitled")


_ORDER_PREFIX = re.compile(r"^\d+[-_ .]+")


def slug_from_filename(name: str) -> str:
    """``07-sampling-temperature.txt`` → ``sampling-temperature``."""
    stem = name.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return slugify(_ORDER_PREFIX.sub("", stem) or stem)
