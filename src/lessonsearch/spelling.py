"""Spelling corrections from the index's own vocabulary, by symmetric deletes.

Every word the course writes is filed under itself and each string one deletion away from
it. A misspelt word looks up itself and its own one-deletion strings: every word one edit away
(a letter added, dropped, changed or two swapped) shares a key with it, and so do many two
edits away (one change on each side); a true edit distance then keeps those within the allowed
distance. Lookups are a few dictionary probes, where Whoosh's Levenshtein automaton
over the term file took most of a query's time for a misspelt word (bench/README.md).

Accents are left out of both sides: a word is filed under its letters without them, and
edits are counted between such letters, so "émbedding" is no edit from the course's
"embedding", "naive" none from its "naïve", and "émbedings" one from "embeddings".
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_left
from collections.abc import Iterable

from .nltk_parts import edit_distance


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1:] for i in range(len(word))}


def fold_accents(word: str) -> str:
    """``word`` without its accents: "émbèdding" → "embedding" (Unicode's compatibility
    decomposition, combining marks dropped)."""
    if word.isascii():
        return word
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


class Speller:
    def __init__(self, words: Iterable[str]):
        self._keys: dict[str, list[str]] = {}
        self._sorted: list[tuple[str, str]] = []
        """(letters, word) of every word, in order: the words a prefix starts."""
        for word in words:
            letters = fold_accents(word)
            for key in (letters, *_deletes(letters)):
                self._keys.setdefault(key, []).append(word)
            self._sorted.append((letters, word))
        self._sorted.sort()

    def starting(self, prefix: str) -> list[str]:
        """The known words that begin with ``prefix`` (accents aside), other than itself."""
        letters = fold_accents(prefix)
        found = []
        for at in range(bisect_left(self._sorted, (letters,)), len(self._sorted)):
            known, word = self._sorted[at]
            if not known.startswith(letters):
                break
            if word != prefix:
                found.append(word)
        return found

    def candidates(self, word: str, maxdist: int) -> list[tuple[int, str]]:
        """(edits, word) for known words other than ``word`` within ``maxdist`` (0, 1 or 2)
        edits of it that share its first letter, nearest first. Accents are no edit: 0 finds
        the words that differ from ``word`` in accents alone."""
        letters = fold_accents(word)
        found: set[str] = set()
        for key in (letters, *_deletes(letters)):
            found.update(self._keys.get(key, ()))
        near = ((edit_distance(known, letters, transpositions=True), c)
                for c, known in ((c, fold_accents(c)) for c in found)
                if c != word and known[:1] == letters[:1])
        return sorted((d, c) for d, c in near if d <= maxdist)
