"""How one word or term of the glossary is keyed, so its variants in the text find it.

Three keys serve three jobs: Snowball stems (``analysis.stem``) let inflections meet in the
matcher's trie; ``inflects`` refuses the derivations Snowball also folds together
("headings" for "head"); ``term_key`` is the light, exact key for look-ups and for telling
apart terms that share a stem (token, tokenizer).
"""

from __future__ import annotations

import re
from functools import lru_cache

from lessonsearch.analysis import normalize, stem, words

CAPS = "\x01"
"""Prefix of a trie key a word matches only when written in capitals (RAG, KV)."""
TITLE = "\x02"
"""Prefix of a trie key a word matches only when capitalised (Make, Git)."""
_APOSTROPHE_S = re.compile(r"['’]s$")


def term_key(text: str) -> str:
    """What two spellings of one term share: lower-case words, the last one singular.

    Lighter than stemming on purpose: Snowball gives "token", "tokenizer" and "tokenization"
    one stem, and they are three terms.
    """
    found = words(text)
    if found:
        last = found[-1]
        if last.endswith("ies") and len(last) > 4:
            last = found[-1] = last[:-3] + "y"
        elif last.endswith("es") and last[:-2].endswith(("s", "x", "z", "ch", "sh")):
            last = found[-1] = last[:-2]
        elif last.endswith("s") and not last.endswith(("ss", "us", "is")) and len(last) > 3:
            last = found[-1] = last[:-1]
        if last.endswith("e") and last[:-1].endswith(("s", "x", "z", "ch", "sh")):
            found[-1] = last[:-1]  # "cache" and "caches" (like "match", "matches") share "cach"
    return " ".join(found)


def abbreviation_core(surface: str) -> str | None:
    """The capital core of ``RAG``, ``LLMs`` or ``KV's``; None for ordinary words."""
    core = _APOSTROPHE_S.sub("", surface)
    if len(core) > 2 and core.endswith("s") and core[:-1].isupper():
        core = core[:-1]
    if 1 <= len(core) <= 5 and core.isupper() and core[0].isalpha():
        return core.lower()
    return None


_INFLECTIONS = frozenset(("", "s", "es", "ed", "d", "ing", "'s", "'"))


def inflects(word: str, base: str) -> bool:
    """``word`` is ``base`` plus an inflectional ending, allowing for Snowball's y→i and a
    dropped final e (queries/queri, making/make) and a doubled consonant (overfitting)."""
    for root in {base, base[:-1] + "y" if base.endswith("i") else base,
                 base[:-1] if base.endswith("e") else base}:
        if root and word.startswith(root):
            rest = word[len(root):]
            if rest in _INFLECTIONS or (rest[:1] == root[-1:] and rest[1:] in ("ing", "ed")):
                return True
    return False


@lru_cache(maxsize=100_000)
def text_keys(surface: str) -> tuple[str, ...]:
    """Every trie key a word of the text can follow: its stem, and its case-marked forms."""
    plain = stem(normalize(surface))
    core = abbreviation_core(surface)
    if core is not None:
        return (plain, CAPS + core, TITLE + plain)
    if surface[:1].isupper():
        return (plain, TITLE + plain)
    return (plain,)
