"""Abbreviations a sentence introduces: "large language model (LLM)", "RAG (retrieval-…)".

The long name counts only when the abbreviation's letters are its words' initials, in order
(small words like "of" may be skipped, a capital inside a word may give a letter:
"JavaScript Object Notation (JSON)", and so may the start of a word after a prefix:
"interquartile range (IQR)"), so "values (OK)" or "see the table (T2)" give nothing.
A digit is a word for its number: "two-phase commit (2PC)", "third normal form (3NF)",
"three-dimensional (3D)", "three dimensions (3D)"; between two letters a 2 may be "to" and a
4 "for", as they sound: "peer-to-peer (P2P)". A number that counts letters
("internationalization (I18N)") is not read.
"""

from __future__ import annotations

import re

from lessonsearch.definition_terms import term_or_none

_ABBR_AFTER = re.compile(r"\((?P<abbr>[A-Z0-9][A-Za-z0-9]{0,7}?[A-Z0-9]s?)\)")
_ABBR_BEFORE = re.compile(
    r"\b(?P<abbr>[A-Z0-9][A-Za-z0-9]{0,7}?[A-Z0-9]s?)\s+\((?P<long>[^()]{4,80})\)"
)
_LONG_WORD = re.compile(r"(?:(?<=[^\W_])-)?[^\W_]+")
"""A word of the long name; a part of a hyphenated word after the first keeps its hyphen
("Wi", "-Fi"): it may give a letter ("peer-to-peer (P2P)") or none ("Wi-Fi Protected Setup
(WPS)"), and no long name starts with it."""
_SKIPPABLE = frozenset(
    ("of", "and", "for", "the", "to", "in", "on", "a", "an", "with", "by", "from", "per")
)
"""Small words a long name may hold that give no letter: "pounds per square inch (PSI)"."""
_NUMBER_WORDS = {
    "0": ("zero",),
    "1": ("one", "first", "single"),
    "2": ("two", "second", "double", "dual", "twice"),
    "3": ("three", "third", "triple"),
    "4": ("four", "fourth", "quad", "quadruple"),
    "5": ("five", "fifth"),
    "6": ("six", "sixth"),
    "7": ("seven", "seventh"),
    "8": ("eight", "eighth"),
    "9": ("nine", "ninth"),
    "10": ("ten", "tenth"),
}
_SOUNDS_LIKE = {"2": "to", "4": "for"}
"""A digit between two letters read as the word it sounds like: "business-to-business (B2B)"."""
_PART = re.compile(r"[A-Za-z]|[0-9]+")

Letter = str | frozenset[str]
"""One letter of an abbreviation: a lower-case letter, which a word's initial gives, or for a
number the words that may write it in full."""


def abbreviations(sentence: str) -> list[tuple[str, int, str, int, int]]:
    """"large language model (LLM)" and "LLM (large language model)": initials must fit.
    Each as the long name, where it starts, the abbreviation, and where the two written
    together start and end ("large language model (LLM)")."""
    if "(" not in sentence:  # both patterns need one
        return []
    out = []
    for match in _ABBR_AFTER.finditer(sentence):
        abbr, letters = _letters(match["abbr"])
        if letters is not None and (named := _long_before(sentence, match.start(), letters)):
            out.append((named[0], named[1], abbr, named[1], match.end()))
    for match in _ABBR_BEFORE.finditer(sentence):
        abbr, letters = _letters(match["abbr"])
        long = _long_name(match["long"], letters) if letters else None
        if letters and long and _fits(letters, _LONG_WORD.findall(long)):
            out.append((long, match.start("long"), abbr, match.start(), match.end()))
    return out


def _long_before(sentence: str, end: int, letters: list[Letter]) -> tuple[str, int] | None:
    """The long name whose words end at ``end`` and whose initials are ``letters``, and where
    it starts: the nearest words that fit, a few small words allowed."""
    before = list(_LONG_WORD.finditer(sentence, 0, end))
    for start in range(len(before) - 1, max(len(before) - len(letters) - 4, -1), -1):
        if _joined(before[start].group()) or before[start].group().lower() == "per":
            continue  # "Fi Protected Access" is no name: "Wi-Fi" is one word; nor is
            # "per square inch", which "per" joins to the word before it
        if _fits(letters, [w.group() for w in before[start:]]):
            long = _long_name(sentence[before[start].start(): before[-1].end()], letters)
            return (long, before[start].start()) if long else None
    return None


_ABBR = r"[A-Z][A-Z0-9]{1,7}"
"""An abbreviation written without brackets: capitals (a digit after the first), so that a
word between commas that only starts with a capital is never read as one."""
_ABBR_APPOSED = re.compile(
    rf"^[\"“‘(]?(?:The\s+)?(?P<abbr>{_ABBR}),\s+the\s+(?P<long>[A-Z][^,;:()]{{3,80}}?),\s+"
    r"(?:(?:also|often|usually|still|then|now)\s+)?(?:is|are|was|were|has|have|can|"
    r"[a-z]+[^s\W]s)\b")
"""The abbreviation opening the sentence and its long name, capitalised, between commas
before the verb: "ICMP, the Internet Control Message Protocol, is the messaging side of
IP." The long name must be all the words between the commas."""
_ABBR_OFFERED = re.compile(rf",\s+or\s+(?P<abbr>{_ABBR})\s*(?=(?:[:—–]|--)\s*\S+\s+\S)")
"""A long name, ", or" and its abbreviation, then a colon or a dash that says what it is:
"Every packet carries a time to live, or TTL: a counter that …"."""
_ABBR_CLOSING = re.compile(
    r"\b(?:(?:is|are|was|were)(?:\s+(?:called|named|known\s+as))?|called|named|known\s+as)\s+"
    rf"(?:(?:the|a|an)\s+)?"
    rf"(?P<long>[a-z][\w'’ -]{{3,80}}?),\s+(?:or\s+)?(?P<abbr>{_ABBR})[\"”’)]*\s*[.!]?\s*$")
"""A verb that says what a thing is or names it, the long name in small letters and, after a
comma, its abbreviation ending the sentence: "That rewriting is network address
translation, NAT." The long name must be all the words after the verb and its article."""


def apposed_abbreviations(sentence: str) -> list[tuple[str, int, str, int, int]]:
    """Abbreviations spelt out beside their long name with a comma instead of brackets, as
    ``abbreviations`` gives them, only where the sentence says what the thing is: the
    abbreviation opening the sentence and the long name between commas before the verb
    (``_ABBR_APPOSED``), the long name, ", or" and the abbreviation before a colon that says
    what it is (``_ABBR_OFFERED``), or the two ending the sentence after "is" or "called"
    (``_ABBR_CLOSING``). A comma joins many things that are not one thing's two names, so
    the long name must fit the letters whole (``_ABBR_APPOSED``, ``_ABBR_CLOSING``) or
    end right before the comma (``_ABBR_OFFERED``)."""
    if "," not in sentence:
        return []
    out = []
    for pattern in (_ABBR_APPOSED, _ABBR_CLOSING):
        if (match := pattern.search(sentence)) is None:
            continue
        abbr, letters = _letters(match["abbr"])
        long = match["long"].strip()
        if letters and _fits(letters, _LONG_WORD.findall(long)) and (
                name := _long_name(long, letters)):
            out.append((name, match.start("long"), abbr, match.start(), match.end("abbr")))
    for match in _ABBR_OFFERED.finditer(sentence):
        abbr, letters = _letters(match["abbr"])
        if letters is not None and (named := _long_before(sentence, match.start(), letters)):
            out.append((named[0], named[1], abbr, named[1], match.end()))
    return out


_MEASURES = ("dimension",)
"""Nouns whose number is the name of a space, not a count of things: "three dimensions (3D)"
names 3D, as "three-dimensional (3D)" does. Nothing in the words tells it from a count:
"two days (2D)" and "three disks (3D)" are written alike, number, plural noun and initial.
So the few measures written so are listed (the stem, for "dimensions" and "dimensional"); a
measure missing here is only a definition missed, while reading every such pair as a name
made counts into terms."""


def _long_name(text: str, letters: list[Letter]) -> str | None:
    """The long name as a term. A number word that gives the first letter may open it, though
    "first" or "one" ends a term anywhere else: "first normal form (1NF)". A number and one
    other letter ("3D") name a thing only as one hyphenated word, "three-dimensional", or
    with a measure (``_MEASURES``), "three dimensions": "three nodes (3N)" or "two days (2D)"
    are counts."""
    if len(letters) == 2 and not isinstance(letters[0], str) and "-" not in text.split()[0] and (
            not text.split()[-1].lower().startswith(_MEASURES)):
        return None
    if isinstance(letters[0], str) or " " not in text.strip():
        return term_or_none(text)
    number, rest = text.strip().split(None, 1)
    return term_or_none(text) or (f"{number} {rest}" if term_or_none(rest) else None)


def _letters(abbr: str) -> tuple[str, list[Letter] | None]:
    """The abbreviation without a plural ``s``, and its letters when it has two capitals, or
    one and a number ("3D"). With one capital the number must be written as a word: "table 2
    (T2)" spells nothing out."""
    if abbr.endswith("s") and abbr[:-1].isupper():
        abbr = abbr[:-1]
    capitals = sum(c.isupper() for c in abbr)
    parts = _PART.findall(abbr)
    if capitals < 2 and not (capitals and len(parts) > 1 and any(p.isdigit() for p in parts)):
        return abbr, None
    if not all(i == 0 or (i < len(parts) - 1 and part in _SOUNDS_LIKE)
               for i, part in enumerate(parts) if part.isdigit()):
        return abbr, None  # a number first (2PC), or sounding a word between letters (P2P):
        # after a letter it is a count or a version ("version two (V2)", "level three (L3)")
    letters: list[Letter] = []
    for i, part in enumerate(parts):
        if not part.isdigit():
            letters.append(part.lower())
            continue
        words = set(_NUMBER_WORDS.get(part, ()))
        if capitals > 1:
            words.add(part)
        if 0 < i < len(parts) - 1 and part in _SOUNDS_LIKE:
            words.add(_SOUNDS_LIKE[part])
        letters.append(frozenset(words))
    return abbr, letters


def letters_fit(abbr: str, long: str) -> bool:
    """Whether ``abbr``'s letters are the initials of ``long``'s words, as brackets need them
    ("pounds per square inch (PSI)"): for an abbreviation a sentence spells out in words
    ("PSI stands for pounds per square inch")."""
    abbr, letters = _letters(abbr)
    return letters is not None and _fits(letters, _LONG_WORD.findall(long))


def _joined(word: str) -> bool:
    """Whether ``word`` is a part of a hyphenated word after its first ("-Fi" of "Wi-Fi")."""
    return word.startswith("-")


def _gives(word: str, letter: Letter) -> bool:
    """Whether ``word`` gives that letter: its initial, or the whole word for a number."""
    word = word.lstrip("-")
    if isinstance(letter, str):
        return word[0].lower() == letter
    return word.lower() in letter


_PREFIXES = ("inter", "intra", "multi", "sub", "super", "pre", "post", "micro", "macro",
             "hyper", "non", "semi")
"""Prefixes written into a word whose next letter an abbreviation may take, as if the word
were hyphenated: "interquartile range (IQR)" as "inter-quartile range", "nonparametric
test (NPT)". Only these, before four letters at least, and only in a long name of two
words or more: a letter from anywhere inside a word ("tables (TB)") fits too many words by
chance, and so would a word that only starts as a prefix does, alone ("presentation (PS)")."""
_PREFIX = re.compile(rf"(?:{'|'.join(_PREFIXES)})(?=[a-z]{{4}})")


def _inner_letters(word: str, prefixed: bool) -> list[str]:
    """The letters inside ``word`` (after its first) that may give an abbreviation's, in
    order: a capital ("JavaScript") and, when ``prefixed``, the first letter after a prefix
    ("interquartile"), prefixes after prefixes too ("nonsubmodular")."""
    at: set[int] = {i for i, c in enumerate(word) if i and c.isupper()}
    lowered, start = word.lower(), 0
    while prefixed and (prefix := _PREFIX.match(lowered, start)):
        start = prefix.end()
        at.add(start)
    return [word[i].lower() for i in sorted(at)]


def _fits(letters: list[Letter], long_words: list[str]) -> bool:
    """Each letter is a word's initial (or a capital inside it, or the letter after a prefix:
    ``_inner_letters``), in order; small words and the
    later parts of a hyphenated word ("Wi-Fi") may be skipped, but the first and last words
    must give a letter."""
    if not long_words or not letters or not _gives(long_words[0], letters[0]):
        return False
    prefixed = sum(not _joined(word) for word in long_words) > 1
    return _fit(letters, long_words, prefixed, first=True)


def _fit(letters: list[Letter], long_words: list[str], prefixed: bool,
         first: bool = False) -> bool:
    if not long_words:
        return not letters
    word, rest = long_words[0], long_words[1:]
    if not first and (word.lstrip("-").lower() in _SKIPPABLE or _joined(word)) and rest and (
            _fit(letters, rest, prefixed)):
        return True
    if not letters or not _gives(word, letters[0]):
        return False
    inner = _inner_letters(word.lstrip("-"), prefixed)
    for extra in range(len(inner) + 1):
        taken = letters[1: 1 + extra]
        if taken == inner[:extra] and _fit(letters[1 + extra:], rest, prefixed):
            return True
    return False
