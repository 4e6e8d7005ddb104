"""Which links from course content the index stores and serves.

A lesson's URL (and the base URL lessons derive theirs from) ends up in an ``href`` on the
service's pages and on every course page that embeds the search box. A ``javascript:`` URL
there runs in the reader's page when they click the hit, and a ``data:`` one shows a page of
the author's making, so only two kinds of link are taken from course content: an absolute
``http://`` or ``https://`` URL, and a relative reference (no scheme: ``/lessons/x``,
``x.html``, ``//host/x``), which a browser resolves against the page it is on.
"""

from __future__ import annotations

import re

from .model import quoted

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
_IGNORED = str.maketrans("", "", "\t\n\r")
_EDGES = "".join(map(chr, range(0x21)))
"""A browser drops tabs and line breaks anywhere in a URL, and control characters and spaces
at either end, before it reads the scheme: ``" java\\tscript:"`` is ``javascript:``."""

ACCEPTED = "only http:// and https:// URLs and relative links are served"


def is_web_link(url: str) -> bool:
    """True for an absolute http(s) URL or a relative reference, as a browser reads it."""
    cleaned = url.translate(_IGNORED).strip(_EDGES)
    scheme = _SCHEME.match(cleaned)
    if scheme is None:
        return True
    return scheme[1].lower() in ("http", "https") and cleaned[scheme.end():].startswith("//")


def not_a_link(name: str, url: str) -> str:
    """The warning's words for a value ``is_web_link`` refuses."""
    return f"{name} {quoted(url)} is not a web link ({ACCEPTED})"


def href(url: str | None) -> str:
    """``url`` for an ``href`` attribute, or ``#`` (a link to nowhere) when it is no web link:
    the templates' own check, for an index written before links were checked at build time
    (autoescaping keeps an attribute closed but reads no scheme)."""
    return url if url and is_web_link(url) else "#"


FILTERS = {"href": href}
"""The Jinja filter: ``<a href="{{ lesson.url | href }}">``."""
