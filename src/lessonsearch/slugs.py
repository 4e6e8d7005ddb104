"""Anchor ids and slugs, derived exactly as the course site derives them."""

from __future__ import annotations

import re
import unicodedata

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


def slugify(text: str) -> str:
    """An ASCII slug for lesson and term ids: ``KV cache`` → ``kv-cache``."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return _NOT_SLUG_CHAR.sub("-", ascii_text.lower()).strip("-") or "untitled"


_ORDER_PREFIX = re.compile(r"^\d+[-_ .]+")


def slug_from_filename(name: str) -> str:
    """``07-sampling-temperature.txt`` → ``sampling-temperature``."""
    stem = name.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return slugify(_ORDER_PREFIX.sub("", stem) or stem)
