"""Lesson metadata checked alike in every format.

A value of the wrong type (``title: [a]``, ``position: three``, a ``url`` that is no web
link) is not worth losing the lesson over, nor worth indexing as written (a title
``"['a']"``): it becomes a warning naming the file, the key and its line, and the lesson is
read as if the key were absent.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..links import is_web_link, not_a_link
from ..model import Problem, quoted
from ..yaml_data import scalar_text

DIGITS = re.compile(r"\s*[0-9]+\s*")
"""A number in quotes: ASCII digits, as ``str.isdigit`` also takes "²", which ``int``
refuses."""

MAX_POSITION = 1_000_000
"""The farthest from 0 a lesson's ``position`` may be. The index keeps positions as 32-bit
numbers, and a lesson placed after another takes the next one: ``position: 2147483648``
stopped the whole build."""


class Checked:
    """One file's metadata checks, collecting their warnings; ``line_of(key)`` is the line
    a key is written on, looked for only when there is something to warn about."""

    def __init__(self, source: str, line_of: Callable[[str], int | None]):
        self.source, self.line_of = source, line_of
        self.warnings: list[Problem] = []

    def warn(self, key: str, message: str) -> None:
        self.warnings.append(Problem(self.source, message, self.line_of(key)))

    def text(self, value: Any, key: str, typed: bool = False) -> str | None:
        """A line of text: a string, or a number or date YAML read from unquoted text.
        ``typed``: the format writes text as a string (JSON), so nothing else is text."""
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        text = scalar_text(value) if isinstance(value, str) or not typed else None
        if text is None:
            self.warn(key, f"{key} must be text, not {quoted(value)}; it is ignored")
        return text

    def position(self, value: Any, key: str, typed: bool = False) -> int | None:
        """``whole_number`` within ``MAX_POSITION`` of 0, the lesson placed as if it gave
        none where it is not one."""
        instead = ", and the lesson takes its place from the course file or its file name"
        number = self.whole_number(value, key, typed, instead)
        if number is not None and abs(number) > MAX_POSITION:
            self.warn(key, f"{key} must be between -{MAX_POSITION:,} and {MAX_POSITION:,}, not "
                      f"{quoted(number)}; it is ignored{instead}")
            return None
        return number

    def whole_number(self, value: Any, key: str, typed: bool = False, instead: str = ""
                     ) -> int | None:
        """A whole number, or a string of digits. ``typed``: the format writes a number as
        one (JSON), so a string of digits is read with a warning: the exporter that quoted it
        has a bug its author will want to know of. Anything else is ignored with a warning
        (``instead`` says what the lesson does without it): a reading time or a position is
        not worth losing the lesson over."""
        if value is None:
            return None
        if isinstance(value, str) and DIGITS.fullmatch(value):
            if typed:
                self.warn(key, f"{key} must be a number, not the string {quoted(value)}; it "
                          f"is read as {int(value)}")
            return int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            self.warn(key, f"{key} must be a whole number, not {quoted(value)}; it is "
                      f"ignored{instead}")
            return None
        return value

    def page(self, value: Any, key: str, instead: str) -> str | None:
        """The link of a lesson's own page (``link``), cut at a fragment with a warning: each
        section links the page and its own anchor, so a fragment of the lesson's would be
        lost there without a word."""
        url = self.link(value, key, instead)
        if url is None or "#" not in url:
            return url
        page, _, fragment = url.partition("#")
        self.warn(key, f"{key} {quoted(url)} ends in a fragment ({quoted('#' + fragment)}); "
                  "a lesson's URL is its page's, and the fragment is dropped")
        return page or None

    def link(self, value: Any, key: str, instead: str) -> str | None:
        """A web link (``links.is_web_link``); ``instead`` says what is used in its place."""
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        if not isinstance(value, str):
            self.warn(key, f"{key} must be a URL, not {quoted(value)}; {instead}")
            return None
        if not is_web_link(value):
            self.warn(key, f"{not_a_link(key, value)}; {instead}")
            return None
        return value
