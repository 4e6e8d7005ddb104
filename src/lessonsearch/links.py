"""Which links from course content the index stores and serves.

A lesson's URL (and the base URL lessons derive theirs from) ends up in an ``href`` on the
service's pages and on every course page that embeds the search box. A ``javascript:`` URL
there runs in the reader's page when they click the hit, and a ``data:`` one shows a page of
the author's making, so only two kinds of link are taken from course content: an absolute
``http://`` or ``https://`` URL with a host, and a link within the site (no scheme:
``/lessons/x``, ``x.html``, ``../x``), which a browser resolves against the page it is on.

Not ``//host/x`` (a scheme-relative link), nor the same with backslashes for either slash,
which a browser reads as slashes: it looks like a path of the site but leads to another host,
which an author means to name with ``https://``. Nor ``http://`` without a host, a link to
nowhere.
"""

from __future__ import annotations

import re

from .model import quoted

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
_IGNORED = str.maketrans("", "", "\t\n\r")
_EDGES = "".join(map(chr, range(0x21)))
"""A browser drops tabs and line breaks anywhere in a URL, and control characters and spaces
at either end, before it reads the scheme: ``" java\\tscript:"`` is ``javascript:``."""

_SLASHES = re.compile(r"[/\\]{2}")
"""Two slashes, either way round: a browser reads ``\\`` in a web URL as ``/``."""
_HOST = re.compile(r"(?:[^/\\?#]*@)?([^/\\?#:]*)")
"""The host after ``scheme://``: no user, no port."""
ACCEPTED = "only http:// and https:// URLs and relative links are served"


def is_web_link(url: str) -> bool:
    """True for an absolute http(s) URL with a host, or a link within the site, as a browser
    reads it."""
    return _refusal(url) is None


def _refusal(url: str) -> str | None:
    """Why ``url`` is no web link, as the end of the warning's sentence; None if it is one."""
    cleaned = url.translate(_IGNORED).strip(_EDGES)
    scheme = _SCHEME.match(cleaned)
    if scheme is None:
        if not _SLASHES.match(cleaned):
            return None
        host = _HOST.match(cleaned, 2)[1]
        return (f": it leads to another host{f' ({host!r})' if host else ''}, as a link "
                "starting with two slashes does; write https:// to link another site, or one "
                "slash for a page of this one")
    rest = cleaned[scheme.end():]
    if scheme[1].lower() not in ("http", "https") or not rest.startswith("//"):
        return f" ({ACCEPTED})"
    if not _HOST.match(rest, 2)[1]:
        return " (it names no host)"
    return None


def not_a_link(name: str, url: str) -> str:
    """The warning's words for a value ``is_web_link`` refuses."""
    return f"{name} {quoted(url)} is not a web link{_refusal(url) or f' ({ACCEPTED})'}"


def href(url: str | None) -> str:
    """``url`` for an ``href`` attribute, or ``#`` (a link to nowhere) when it is no web link:
    the templates' own check, for an index written before links were checked at build time
    (autoescaping keeps an attribute closed but reads no scheme)."""
    return url if url and is_web_link(url) else "#"


FILTERS = {"href": href}
"""The Jinja filter: ``<a href="{{ lesson.url | href }}">``."""
