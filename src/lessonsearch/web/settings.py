"""What an operator can change about the service, read once when the app is created.

A frozen dataclass, so a running app's settings cannot drift between requests or threads.
The environment supplies defaults (``LESSONSEARCH_INDEX``, ``LESSONSEARCH_CORS_ORIGINS``) so a
process manager can configure the server without touching its command line.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..errors import BadSetting

ENV_INDEX = "LESSONSEARCH_INDEX"
ENV_CORS_ORIGINS = "LESSONSEARCH_CORS_ORIGINS"


@dataclass(frozen=True, slots=True)
class Settings:
    index_dir: Path = Path("index")
    """The folder ``lessonsearch index --out`` writes; its ``current`` link is followed."""
    cors_origins: tuple[str, ...] = ("*",)
    """Origins whose pages may call ``/api/*`` from a browser; ``*`` allows every origin."""
    groups_per_page: int = 10
    """Lessons per page of HTML results (each lesson shows its best few sections)."""
    sections_per_group: int = 3
    """Sections shown under a lesson before "more from this lesson"."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Defaults, then the environment, then explicit ``overrides`` (None means unset)."""
        environ = os.environ if environ is None else environ
        settings = cls()
        if environ.get(ENV_INDEX):
            settings = replace(settings, index_dir=Path(environ[ENV_INDEX]))
        if environ.get(ENV_CORS_ORIGINS):
            settings = replace(settings, cors_origins=parse_origins(environ[ENV_CORS_ORIGINS]))
        given = {k: v for k, v in overrides.items() if v is not None}
        if "index_dir" in given:
            given["index_dir"] = Path(given["index_dir"])
        if isinstance(given.get("cors_origins"), str):
            given["cors_origins"] = parse_origins(given["cors_origins"])
        return replace(settings, **given)

    def allows_origin(self, origin: str | None) -> str | None:
        """The ``Access-Control-Allow-Origin`` value for a request from ``origin``, if any."""
        if "*" in self.cors_origins:
            return "*"
        if origin and origin in self.cors_origins:
            return origin
        return None


DEFAULT_PORTS = {"http": 80, "https": 443}


def parse_origins(text: str) -> tuple[str, ...]:
    """``"https://a.example, https://b.example"`` → a tuple of origins as browsers write them.

    Raises ``BadSetting`` for a list naming no origin, or an entry that is none (origins
    parted by spaces, a host with no scheme, ``*.example.org``, a scheme other than http or
    https such as ``ftp://`` or ``file://``, which no page calling the API has): each
    allowed nothing, so the sites meant to embed the search were refused without a word."""
    origins = tuple(origin(part) for part in text.split(",") if part.strip())
    if not origins:
        raise BadSetting(f"{ENV_CORS_ORIGINS} names no origin ({text!r}); leave it unset, or "
                         "write *, to allow every origin")
    for given in origins:
        if given in ("*", "null"):
            continue
        scheme = _SCHEME.match(given)
        if scheme and scheme[1].lower() not in DEFAULT_PORTS:
            raise BadSetting(f"{ENV_CORS_ORIGINS}: {given!r} is not a web page's origin: "
                             "origins must be http:// or https:// (https://site.example)")
        if not _is_origin(given):
            raise BadSetting(f"{ENV_CORS_ORIGINS}: {given!r} is not an origin: write "
                             "http://host[:port] or https://host[:port] (https://site.example), "
                             "commas between several, or * for every origin (no other "
                             "wildcard)")
    return origins


_SCHEME = re.compile(r"([a-z][a-z0-9+.-]*)://", re.IGNORECASE)
"""The scheme an entry names, if it names one (``FILE:///srv/page.html`` → ``FILE``)."""

_ORIGIN = re.compile(r"https?://(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(?P<port>\d+))?")
"""An origin as ``origin`` writes it: http or https, a host without ``*`` or spaces, a port."""


def _is_origin(text: str) -> bool:
    found = _ORIGIN.fullmatch(text)
    return found is not None and (found["port"] is None or 0 < int(found["port"]) < 65536)


def origin(text: str) -> str:
    """``HTTPS://Site.Example:443/`` → ``https://site.example``.

    A browser's ``Origin`` header is lower case, with no path and no default port; the allow
    list is compared with it as a string, so a configured origin is written the same way.
    Anything that is not ``scheme://host[:port]`` (``*``, ``null``) is kept as written.
    """
    text = text.strip().rstrip("/")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return text
    if not (parts.scheme and parts.hostname) or parts.path or parts.query or parts.fragment:
        return text
    scheme, host = parts.scheme.lower(), parts.hostname  # hostname is already lower case
    if ":" in host:
        host = f"[{host}]"  # an IPv6 address
    if port is not None and port != DEFAULT_PORTS.get(scheme):
        host += f":{port}"
    return f"{scheme}://{host}"
