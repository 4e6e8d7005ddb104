"""Abbreviations a sentence introduces: "large language model (LLM)", "RAG (retrieval-…)".

The long name counts only when the abbreviation's letters are its words' initials, in order
(small words like "of" may be skipped, a capital inside a word may give a letter:
"JavaScript Object Notation (JSON)"), so "values (OK)" or "see the table (T2)" give nothing.
"""

from __future__ import annotations

import re

from lessonsearch.definition_terms import term_or_none

_ABBR_AFTER = re.compile(r"\((?P<abbr>[A-Z][A-Za-z0-9]{0,7}?[A-Z0-9]s?)\)")
_ABBR_BEFORE = re.compile(
    r"\b(?P<abbr>[A-Z][A-Za-z0-9]{0,7}?[A-Z0-9]s?)\s+\((?P<long>[^()]{4,80})\)"
)
_LONG_WORD = re.compile(r"[^\W_]+")
_SKIPPABLE = frozenset(
    ("of", "and", "for", "the", "to", "in", "on", "a", "an", "with", "by", "from")
)


def abbreviations(sentence: str) -> list[tuple[str, int, str]]:
    """"large language model (LLM)" and "LLM (large language model)": initials must fit."""
    if "(" not in sentence:  # both patterns need one
        return []
    out = []
    for match in _ABBR_AFTER.finditer(sentence):
        abbr, letters = _letters(match["abbr"])
        if letters is None:
            continue
        before = list(_LONG_WORD.finditer(sentence, 0, match.start()))
        for start in range(len(before) - 1, max(len(before) - len(letters) - 4, -1), -1):
            if _fits(letters, [w.group() for w in before[start:]]):
                long = term_or_none(sentence[before[start].start(): before[-1].end()])
                if long:
                    out.append((long, before[start].start(), abbr))
                break
    for match in _ABBR_BEFORE.finditer(sentence):
        abbr, letters = _letters(match["abbr"])
        long = term_or_none(match["long"])
        if letters and long and _fits(letters, _LONG_WORD.findall(long)):
            out.append((long, match.start("long"), abbr))
    return out


def _letters(abbr: str) -> tuple[str, str | None]:
    """The abbreviation without a plural ``s``, and its letters when it has two capitals."""
    if abbr.endswith("s") and abbr[:-1].isupper():
        abbr = abbr[:-1]
    if sum(c.isupper() for c in abbr) < 2:
        return abbr, None
    return abbr, "".join(c for c in abbr.lower() if c.isalpha())


def _fits(letters: str, long_words: list[str]) -> bool:
    """Each letter is a word's initial (or a capital inside it), in order; small words may be
    skipped, but the first and last words must give a letter."""
    if not long_words or not letters or long_words[0][0].lower() != letters[0]:
        return False
    return _fit(letters, long_words, first=True)


def _fit(letters: str, long_words: list[str], first: bool = False) -> bool:
    if not long_words:
        return not letters
    word, rest = long_words[0], long_words[1:]
    if not first and word.lower() in _SKIPPABLE and rest and _fit(letters, rest):
        return True
    if not letters or word[0].lower() != letters[0]:
        return False
    inner = [c.lower() for c in word[1:] if c.isupper()]
    for extra in range(len(inner) + 1):
        taken = letters[1: 1 + extra]
        if taken == "".join(inner[:extra]) and _fit(letters[1 + extra:], rest):
            return True
    return False
