"""Spelling corrections from the index's own vocabulary, by symmetric deletes.

Every word the course writes is filed under itself and each string one deletion away from
it. A misspelt word looks up itself and its own one-deletion strings: every word one edit away
(a letter added, dropped, changed or two swapped) shares a key with it, and so do many two
edits away (one change on each side); a true edit distance then keeps those within the allowed
distance. Lookups are a few dictionary probes, where Whoosh's Levenshtein automaton
over the term file took most of a query's time for a misspelt word (bench/README.md).
"""

from __future__ import annotations

from collections.abc import Iterable

from .nltk_parts import edit_distance


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1:] for i in range(len(word))}


class Speller:
    def __init__(self, words: Iterable[str]):
        self._keys: dict[str, list[str]] = {}
        for word in words:
            for key in (word, *_deletes(word)):
                self._keys.setdefault(key, []).append(word)

    def candidates(self, word: str, maxdist: int) -> list[tuple[int, str]]:
        """(edits, word) for known words within ``maxdist`` (1 or 2) edits of ``word`` that
        share its first letter, nearest first."""
        found: set[str] = set()
        for key in (word, *_deletes(word)):
            found.update(self._keys.get(key, ()))
        near = ((edit_distance(c, word, transpositions=True), c)
                for c in found if c[:1] == word[:1] and c != word)
        return sorted((d, c) for d, c in near if d <= maxdist)
