"""YAML as the course's files use it (Markdown front matter, ``course.yml``, glossary entry
headers): plain data only.

Parsed by libyaml when PyYAML was built with it, as its wheels are: the same data eight times
faster than PyYAML's pure-Python parser, which took a fifth of reading a Markdown course.
"""

from __future__ import annotations

import datetime
from typing import Any

import yaml

YAMLError = yaml.YAMLError

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def reason(error: YAMLError) -> str:
    """PyYAML's complaint in one line (``mapping values are not allowed here``), as every
    warning is one line: its full text adds the parser's context and a quote of the input
    over several lines, and the warning names the line and column already."""
    return getattr(error, "problem", None) or " ".join(str(error).split())


def place(error: YAMLError) -> tuple[int | None, int | None]:
    """Where PyYAML says the error is: its 0-based line and 1-based column, or nothing."""
    mark = getattr(error, "problem_mark", None)
    return (mark.line, mark.column + 1) if mark is not None else (None, None)


def scalar_text(value: Any) -> str | None:
    """A name or a line of text as YAML read it: a string, or a number or date read from
    unquoted text (``title: 2024``); None for a list, a mapping, a boolean or null, which
    written as text would be "['a', 'b']" or "True"."""
    if isinstance(value, bool) or not isinstance(value, str | int | float | datetime.date):
        return None
    return str(value)


def safe_load(text: str) -> Any:
    """``yaml.safe_load``: mappings, lists, strings, numbers, booleans, dates and null."""
    return yaml.load(text, Loader=_LOADER)


Places = dict[str, tuple[int, tuple[int, ...]]]
"""Where a mapping's keys are written: for each, the 0-based line of the key and the lines of
its value's items (a list's, one a line; a single value's own line)."""


def load_placed(text: str) -> tuple[Any, Places]:
    """``safe_load``, and where the top-level mapping (if that is what the text holds) writes
    each key and its value's items, from the same parse. A key written twice is placed where
    its last value is, as that is the value YAML keeps; a quoted key where it is written."""
    loader = _LOADER(text)
    try:
        node = loader.get_single_node()
        data = None if node is None else loader.construct_document(node)
    finally:
        loader.dispose()
    places: Places = {}
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode):
                items = value.value if isinstance(value, yaml.SequenceNode) else (value,)
                places[key.value] = (key.start_mark.line,
                                     tuple(item.start_mark.line for item in items))
    return data, places
