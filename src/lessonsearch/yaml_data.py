"""YAML as the course's files use it (Markdown front matter, ``course.yml``, glossary entry
headers): plain data only.

Parsed by libyaml when PyYAML was built with it, as its wheels are: the same data eight times
faster than PyYAML's pure-Python parser, which took a fifth of reading a Markdown course.

An alias (``*name``) repeats the value its anchor (``&name``) names without copying it, so a
kilobyte of nested aliases ("billion laughs") stands for a billion values: anything that
walks or writes out the value (a warning quoting it) runs for minutes and takes gigabytes.
Aliases are read, as an editor may share one list between two keys, but a value they would
expand past ``MAX_VALUES`` (or into itself) is refused as invalid YAML, at its line.
"""

from __future__ import annotations

import datetime
import re
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


_OPENERS = {"flow sequence": "'['", "flow mapping": "'{'", "quoted scalar": "quote"}
"""What a YAML context that runs until it is closed was opened with, as an editor wrote it."""


def fault(error: YAMLError, text: str, first_line: int) -> tuple[str, int | None, int | None]:
    """The complaint and the file's line and 1-based column of a YAML error in ``text``,
    which starts on the file's ``first_line``. Mostly where PyYAML stopped (``place``); but
    a ``[``, ``{`` or quote left open is found only where the text ends or the next key
    stands, lines below the mistake: at ``aliases: [a, b`` on line 3, the error was placed
    on the closing ``---``. Such an error is placed at the bracket or quote, and says where
    the parser gave up."""
    line, column = place(error)
    context, opened = getattr(error, "context", None), getattr(error, "context_mark", None)
    opener = next((name for kind, name in _OPENERS.items() if context and kind in context),
                  None)
    if opener is None or opened is None or line is None or opened.line >= line:
        hint = _hint(error, text, line, column)
        return (f"{reason(error)}{hint and f' ({hint})'}",
                None if line is None else line + first_line, column)
    ended = error.problem_mark.index >= len(text.rstrip())
    until = "is never closed" if ended else f"is not closed before line {line + first_line}"
    return (f"the {opener} here {until} ({reason(error)})", opened.line + first_line,
            opened.column + 1)


_VALUE = re.compile(r"^(?P<key>\s*(?:- )?[^\s#:'\"{\[][^:]*?):[ \t]+(?P<value>\S.*?)\s*$")
"""A ``key: value`` line, the value unquoted (as it is when YAML stops within it)."""


def _hint(error: YAMLError, text: str, line: int | None, column: int | None) -> str:
    """What an editor should do about the commonest mistakes, whose parser complaints say
    nothing of them: a tab in a line's indent ("found character that cannot start any
    token"), and a value that holds ': ' unquoted (``title: Colon: in title``, "mapping
    values are not allowed in this context"). Empty for any other error."""
    lines = text.split("\n")
    if line is None or not 0 <= line < len(lines):
        return ""
    written = lines[line]
    if "\t" in written[:len(written) - len(written.lstrip(" \t"))]:
        return "YAML does not allow tabs for indentation: indent with spaces"
    found = _VALUE.match(written)
    if ("mapping values are not allowed" in reason(error) and found and column is not None
            and column > found.start("value")):
        value = found["value"]
        quoted = (f'"{value}"' if '"' not in value and "\\" not in value
                  else "'" + value.replace("'", "''") + "'")
        return f"put the value in quotes: {found['key'].strip()}: {quoted}"
    return ""


def scalar_text(value: Any) -> str | None:
    """A name or a line of text as YAML read it: a string, or a number or date read from
    unquoted text (``title: 2024``); None for a list, a mapping, a boolean or null, which
    written as text would be "['a', 'b']" or "True"."""
    if isinstance(value, bool) or not isinstance(value, str | int | float | datetime.date):
        return None
    return str(value)


MAX_VALUES = 10_000
"""The most values (mappings, lists and scalars, each item of an alias counted again) that
one YAML text may expand to; hand-written front matter holds a few dozen."""


class TooManyValues(yaml.MarkedYAMLError):
    """A value whose aliases expand it past ``MAX_VALUES``, or into itself."""


def safe_load(text: str) -> Any:
    """``yaml.safe_load``: mappings, lists, strings, numbers, booleans, dates and null."""
    return load_placed(text)[0]


Places = dict[str, tuple[int, tuple[int, ...]]]
"""Where a mapping's keys are written: for each, the 0-based line of the key and the lines of
its value's items (a list's, one a line; a single value's own line)."""
Repeats = dict[str, tuple[int, ...]]
"""Each key a mapping writes more than once, with the 0-based lines it is written on. YAML
keeps the last value without a word, so a second ``title:`` below the first silently won."""


def load_placed(text: str) -> tuple[Any, Places, Repeats]:
    """``safe_load``, and where the top-level mapping (if that is what the text holds) writes
    each key and its value's items, from the same parse. A key written twice is placed where
    its last value is, as that is the value YAML keeps; a quoted key where it is written.
    And the keys written more than once, each with its lines."""
    loader = _LOADER(text)
    try:
        node = loader.get_single_node()
        if node is not None and "*" in text:  # no alias is written without one
            _refuse_expansion(node)
        data = None if node is None else loader.construct_document(node)
    finally:
        loader.dispose()
    places: Places = {}
    written: dict[str, list[int]] = {}
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode):
                items = value.value if isinstance(value, yaml.SequenceNode) else (value,)
                places[key.value] = (key.start_mark.line,
                                     tuple(item.start_mark.line for item in items))
                written.setdefault(key.value, []).append(key.start_mark.line)
    return data, places, _repeats(written)


def _repeats(written: dict[str, list[int]]) -> Repeats:
    return {key: tuple(lines) for key, lines in written.items() if len(lines) > 1}


def repeated_key(key: str, lines: tuple[int, ...]) -> str:
    """How a warning says that ``key`` is written on each of ``lines`` (the file's, in
    order), and which value is kept: ``'title' is written twice (lines 2 and 5); only the
    last, on line 5, is kept``."""
    times = "twice" if len(lines) == 2 else f"{len(lines)} times"
    listed = " and ".join(filter(None, [", ".join(map(str, lines[:-1])), str(lines[-1])]))
    return (f"{key!r} is written {times} (lines {listed}); only the last, on line "
            f"{lines[-1]}, is kept")


_KEY = re.compile(r"""^(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<plain>[^\s#:][^:]*?))[ \t]*:""")
"""The key a top-level line of a mapping opens with, for naming a key that could not be read."""


def load_readable_keys(text: str) -> tuple[dict[str, Any], Places, list[str], Repeats]:
    """What can still be read of a top-level mapping that is not valid YAML as a whole: each
    key read alone, with the lines indented below it, and kept when that is valid; and the
    keys (or, for a line that opens none, its first characters) that were not. One broken
    ``aliases: [a, b`` then costs the aliases, not the ``term:`` above it and the definition
    below. Each read alone, a key cannot take an anchor from another: such an alias is one
    of the keys not read, as it would be in a mapping that expands too far. And the keys
    read more than once (``load_placed``): the last one read is kept, as YAML keeps it."""
    lines = text.split("\n")
    starts = [n for n, line in enumerate(lines)
              if line[:1] not in ("", " ", "\t", "#") and not line.startswith("- ")]
    data: dict[str, Any] = {}
    places: Places = {}
    unread: list[str] = []
    written: dict[str, list[int]] = {}
    for start, end in zip(starts, [*starts[1:], len(lines)], strict=True):
        try:
            value, placed, _ = load_placed("\n".join(lines[start:end]))
        except YAMLError:
            value, placed = None, {}
        if isinstance(value, dict):
            data.update(value)
            places.update({key: (line + start, tuple(item + start for item in items))
                           for key, (line, items) in placed.items()})
            for key, (line, _) in placed.items():
                written.setdefault(key, []).append(line + start)
            continue
        found = _KEY.match(lines[start])
        unread.append(next((g for g in found.group("dq", "sq", "plain") if g is not None), "")
                      if found else lines[start][:20])
    return data, places, unread, _repeats(written)


def _refuse_expansion(root: yaml.Node) -> None:
    """``TooManyValues`` at the innermost value that aliases expand past ``MAX_VALUES``, or
    that an alias makes hold itself. Each node is counted once, with what it expands to
    remembered, so the count costs what the text's own nodes do; a loop, not recursion, as
    the text may nest deeply."""
    expanded: dict[int, int] = {}
    open_nodes: set[int] = set()  # being counted: met again below itself, it holds itself
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, counted = stack.pop()
        key = id(node)
        if counted:
            open_nodes.discard(key)
            expanded[key] = 1 + sum(expanded[id(child)] for child in _children(node))
            if expanded[key] > MAX_VALUES:
                raise TooManyValues(problem=f"YAML aliases (*name) expand this value past "
                                    f"{MAX_VALUES:,} values", problem_mark=node.start_mark)
        elif key in open_nodes:
            raise TooManyValues(problem="a YAML alias (*name) makes this value hold itself",
                                problem_mark=node.start_mark)
        elif key not in expanded:
            open_nodes.add(key)
            stack.append((node, True))
            stack.extend((child, False) for child in _children(node))


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return node.value
    return []
