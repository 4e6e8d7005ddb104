"""Reading query-string parameters, shared by the JSON API and the HTML pages.

The rules, documented in the OpenAPI description too: ``q`` is required (empty → 400, but
the search page shows its empty box instead; over ``MAX_QUERY_CHARS`` (4,096) characters, with
no word to search for
(``?``) or only excluding (``-model``) → 400, checked by the searcher); ``limit`` and
``page`` are whole numbers of at least 1 written in digits alone, else 400 (a client sending
``page=abc``, ``page=`` or ``page=%205`` has a bug worth hearing about); ``limit`` above 50
is quietly capped, as the body's ``limit`` shows; ``page`` above 1000 is a 400,
because deep pages cost a search of every result before them. ``lesson`` and ``module`` are
slugs of the course's; an unknown one is a 400 too (``UnknownFilter``), empty means no filter.
``typing`` is 1 (the search box's words, still being typed) or 0; another value is a 400.
``q`` must be UTF-8 once its percent-escapes are decoded, else 400 (``utf8_arg``). The
completion routes take a ``q`` of spaces and control characters alone as no text, with no
completions (``prefix_text``).
"""

from __future__ import annotations

from urllib.parse import parse_qsl

from flask import request

from .. import counts
from ..errors import BadQuery
from ..search_log import clean_query
from ..searcher import MAX_LIMIT, MAX_PAGE, check_query
from .live import OpenIndex

DEFAULT_LIMIT = 10


def query_text() -> str:
    """The ``q`` parameter, whitespace-normalised and without control characters (which reach
    the page, the JSON and the zero-result log otherwise); raises BadQuery when empty or too
    long."""
    return check_query(clean_query(utf8_arg("q")))


def prefix_text() -> str:
    """The ``q`` of the completion routes, read as ``query_text`` reads it, but "" for one
    of spaces and control characters alone (``q=%C2%94``, ``q=%20``): a search box asks as
    the reader types, and such text has no completions, which is no error. Still a 400:
    ``q`` missing or empty, not UTF-8, or words over ``MAX_QUERY_CHARS`` characters."""
    raw = utf8_arg("q")
    text = clean_query(raw)
    return check_query(text) if text or not raw else ""


def utf8_arg(name: str) -> str:
    """The first ``name`` parameter ("" when there is none), its escapes decoded as UTF-8.

    Werkzeug keeps escapes that are not UTF-8 as they came (``q=%ff%fe`` reads ``%FF%FE``),
    so such a query was searched, shown and logged as text no reader typed, the same as a
    typed ``%FF%FE``; raises BadQuery instead, naming the first byte that is not.
    """
    raw = _raw_arg(name)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadQuery(f"The {name} parameter must be UTF-8 text, and its byte "
                       f"%{raw[error.start]:02X} is not part of any character.") from None


def shown_arg(name: str) -> str:
    """The ``name`` parameter as an error page shows it back: bytes that are not UTF-8 as
    U+FFFD, so the reader sees where the text broke."""
    return _raw_arg(name).decode("utf-8", errors="replace")


def _raw_arg(name: str) -> bytes:
    fields = parse_qsl(request.query_string.decode("latin-1"), keep_blank_values=True,
                       encoding="latin-1")  # one character per byte, as sent
    return next((value for key, value in fields if key == name), "").encode("latin-1")


def whole_number(name: str, default: int, most: int | None = None, cap: int | None = None) -> int:
    raw = request.args.get(name)
    if raw is None:
        return default
    value = counts.whole_number(raw)
    if value is None:
        raise BadQuery(f"The {name} parameter must be a whole number of at least 1, "
                       f"not {raw[:20]!r}.")
    if most is not None and value > most:
        raise BadQuery(f"The {name} parameter can be at most {most}.")
    return min(value, cap) if cap is not None else value


def limit() -> int:
    return whole_number("limit", DEFAULT_LIMIT, cap=MAX_LIMIT)


def page() -> int:
    return whole_number("page", 1, most=MAX_PAGE)


def typing() -> bool:
    """Whether ``q`` is still being typed (``typing=1``, the search box's): its last word may
    be cut short (``Searcher.search``)."""
    raw = request.args.get("typing", "0")
    if raw not in ("0", "1"):
        raise BadQuery(f"The typing parameter must be 1 or 0, not {raw[:20]!r}.")
    return raw == "1"


def slug(name: str) -> str | None:
    """A lesson or module filter; empty means no filter."""
    value = (request.args.get(name) or "").strip()
    return value or None


def filters(opened: OpenIndex) -> tuple[str | None, str | None]:
    """The ``lesson`` and ``module`` filters, each a slug ``opened`` knows; an unknown one
    raises ``UnknownFilter`` (``Searcher.check_filters``, which the CLI calls too)."""
    lesson, module = slug("lesson"), slug("module")
    opened.searcher.check_filters(lesson, module)
    return lesson, module
