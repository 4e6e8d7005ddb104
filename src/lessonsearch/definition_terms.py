"""Sentences, and the words a definition pattern captured turned into a clean term — or refused.

Precision matters more than recall for lesson definitions: a wrong "definition" puts junk in
the glossary, a missed one only leaves a gap the glossary folder usually fills. So every
pattern hands its capture to ``take_term``, which stops at the first word that cannot belong to
a term and refuses pronouns, adverbs, code, vague nouns and anything longer than five words.
"""

from __future__ import annotations

import re

from lessonsearch.analysis import STOP_WORDS

MAX_TERM_WORDS = 5


def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


_BREAK = STOP_WORDS | _word_set(
    """also always usually often sometimes never ever just simply really quite rather even
    every each many much several most more less another one ones someone something anything
    nothing everything everyone well again once twice first last next later now then today
    here there yet already still instead too may might must shall can cannot per etc via
    since unless whether although though however thus hence therefore either neither upon
    whatever whichever whoever whose like unlike far elsewhere everywhere anywhere somewhere nowhere
    nearby otherwise together apart away ahead aside around inside outside within without
    throughout across onto toward towards beside beneath underneath behind beyond among amid
    despite till whenever wherever using afterward afterwards beforehand soon tomorrow tonight
    yesterday meanwhile anyway onwards nowadays lot lots"""
)
"""Words that end a term: function words, adverbs, quantifiers and modal verbs."""
_INNER = frozenset(("of", "per", "without", "with"))
"""Break words a term may hold between two of its words: "rate of change", "bits per byte",
"sampling without replacement". "Per" joins a name only after a plural noun, a unit's
("bits per byte", "rows per second"); after anything else it says how the thing named is
applied ("label smoothing per class"). "With" joins one only before the few words of
``_WITH_NAMES``: "sampling with replacement", but "caching with Redis"."""
_WITH_NAMES = frozenset(("replacement", "momentum"))
_ADVERB = re.compile(r"(ally|ively|ously|ently|antly|ately|edly|ingly|fully|lessly|tly|rly|sly)$")
_VAGUE = _word_set(
    """answer aspect basis case catch cause challenge choice consequence default detail
    difference effect end example fact goal heart idea issue job key kind lesson matter
    mistake model name number part plan point problem purpose question rate reason result
    rule same sort start step story thing trick type way whole word solution output input
    code file line value list program function command text version option error message
    data information work task"""
)
"""Nouns so general that "This is the point." or "is called a problem" never names a term."""
_EVALUATIVE = _word_set(
    """important useful true false wrong right correct incorrect easy hard simple difficult
    possible impossible necessary fine good bad better worse best worst normal expected
    deliberate intentional fast slow expensive cheap common rare new old different similar
    obvious clear enough crucial essential key interesting surprising strange odd tricky
    subtle worth wasteful handy helpful harmless dangerous safe unsafe big small large"""
)
"""Describing words that, first in an unmarked name a weak cue gives ("This is normal
behaviour.", "This is a common mistake."), say how a thing is rather than name it. Many also
open a term ("normal distribution", "expected value", "common cause", "simple random
sample"), so a name the lesson set in bold or italics may start with one: see ``_judges``."""
_JUDGING = _word_set(
    """important useful wrong correct incorrect fine good bad better worse best worst obvious
    crucial essential interesting surprising strange odd tricky worth wasteful handy helpful
    harmless dangerous enough possible impossible necessary new old different"""
)
"""The ``_EVALUATIVE`` words that only judge or compare and open no term: "the *best way*",
"a *good idea*", "the *new version*" stress a remark even when marked."""
_NOT_DESCRIBING = _word_set(
    """not never no nothing none hardly rarely seldom also only always often usually sometimes
    still already even just too so very quite rather much more less there here"""
)
_CODE = re.compile(r"[()\[\]{}=<>/\\_@#$%^*+|~;]|\w\.\w|^\W|\.\.|::")
_WORD = re.compile(r"\w+(?:['’-]\w+)*")
_LEADING_WORDS = re.compile(r"^(?:(?:a|an|the|its|their|his|her|our|your|my|so-called)\s+)+", re.I)
"""Words dropped from the front of a capture: "is called *its* query" names "query"."""
_QUOTED_START = re.compile(r"^(?:\"([^\"]+)\"|“([^”]+)”|‘(.+?)’(?!\w)|'(.+?)'(?!\w))")
_CODE_NEXT = re.compile(r"[._/\\(]\w|\(|\.\.")
"""A word glued to ``.py``, ``()`` or ``/path`` is code, not a term."""
_EDGE = "\"'“”‘’`«»*,.;:!?()[]{} \t\n"

_SENTENCE_END = re.compile(r"[.!?][.!?]*[\"'”’)\]]*(?=\s+[\"“‘(\[]?[A-Z0-9])")
"""``[.!?]+`` spelt so that the engine can skip straight to the punctuation."""
_ABBREVIATIONS = _word_set("e.g i.e etc vs cf fig eq no mr mrs ms dr st approx al")


def split_sentences(text: str) -> list[str]:
    """Sentences of a paragraph as exact substrings; ``e.g.`` and initials do not end one."""
    sentences, start = [], 0
    for end in _SENTENCE_END.finditer(text):
        before = text[start:end.start()].rsplit(None, 1)[-1:] or [""]
        last = before[0].lower().rstrip(".").lstrip("([\"'“‘")
        if last in _ABBREVIATIONS or (len(last) == 1 and last.isalpha()):
            continue
        sentences.append(text[start:end.end()].strip())
        start = end.end()
    if text[start:].strip():
        sentences.append(text[start:].strip())
    return sentences


def take_term(rest: str, whole: bool = False, strict: bool = False,
              marked: bool = False) -> str | None:
    """The term at the start of ``rest``, the words a cue ("is called …") was followed by.

    The term ends at the first word that cannot belong to one, or at punctuation; a quoted
    term is taken whole. With ``whole`` the capture must be the term and nothing else
    (emphasised text, a definition-list term); with ``marked`` too it is a name the lesson
    set in bold or italics, which may open with a describing word (``_judges``).
    """
    rest = _LEADING_WORDS.sub("", rest.lstrip(" \t*_"))
    quoted = _QUOTED_START.match(rest)
    if quoted:
        if whole and rest[quoted.end():].strip(_EDGE):
            return None
        return _whole_term(next(g for g in quoted.groups() if g is not None), strict, marked)
    if whole:
        return _whole_term(rest, strict, marked)
    found = list(_WORD.finditer(rest))
    taken: list[re.Match[str]] = []
    for i, match in enumerate(found):
        if i and rest[found[i - 1].end(): match.start()].strip():
            break  # a comma, bracket, dash or quote between two words ends the term
        word = match.group().lower()
        if word in _BREAK or (_ADVERB.search(word) and len(word) > 4):
            if word in _INNER and taken and i + 1 < len(found) and (
                found[i + 1].group().lower() not in _BREAK
            ) and _joins(word, taken[-1].group().lower(), found[i + 1].group().lower()):
                taken.append(match)
                continue
            break
        taken.append(match)
    if not taken or _CODE_NEXT.match(rest, taken[-1].end()):
        return None
    return term_or_none(rest[taken[0].start(): taken[-1].end()], strict)


def term_before(text: str) -> str | None:
    """The term that ends ``text``: "rows" in "… and rows (", "hash join" in "A hash join,".
    It starts after the last word that cannot belong to one, or at punctuation: the name a
    sentence gives another name to ("rows (also known as records)")."""
    text = text.rstrip(" \t(,")
    found = list(_WORD.finditer(text))
    if not found or text[found[-1].end():].strip():
        return None
    first = len(found)
    while first and len(found) - first < MAX_TERM_WORDS and (
            found[first - 1].group().lower() not in _BREAK) and not (
            first < len(found) and text[found[first - 1].end(): found[first].start()].strip()):
        first -= 1
    if first == len(found):
        return None
    return term_or_none(text[found[first].start():])


def _joins(inner: str, before: str, after: str) -> bool:
    """Whether an ``_INNER`` word between ``before`` and ``after`` is inside the term."""
    if inner == "per":
        return before.endswith("s") and not before.endswith(("ss", "us", "is"))
    if inner == "with":
        return after in _WITH_NAMES
    return True


def _whole_term(text: str, strict: bool, marked: bool = False) -> str | None:
    """A term given whole (quoted, emphasised): names like "Don't Repeat Yourself" may hold
    function words, but it may not start with one or be mostly made of them."""
    text = _LEADING_WORDS.sub("", text.strip(_EDGE))
    lowered = [w.lower() for w in _WORD.findall(text)]
    if not lowered or lowered[0] in _BREAK or sum(w in _BREAK for w in lowered) * 2 > len(lowered):
        return None
    return term_or_none(text, strict, inner_ok=True, marked=marked)


def term_or_none(
    term: str, strict: bool = False, inner_ok: bool = False, code_ok: bool = False,
    marked: bool = False,
) -> str | None:
    """``term`` when it can name a concept: 1–5 words, not code, not a pronoun.

    ``strict`` is for the weak cues ("This is X.", emphasis): there a lone vague noun or
    a describing word ("This is the point.", "This is **important**", "This is normal
    behaviour.") is refused as well; ``marked`` says the lesson set the name in bold or
    italics, and then only a judgement is (``_judges``).
    """
    term = term.strip(_EDGE)
    parts = term.split()
    if not parts or len(parts) > MAX_TERM_WORDS or len(term) > 60:
        return None
    if _CODE.search(term) and not code_ok:
        return None
    lowered = [p.lower() for p in parts]
    if lowered[0] in _BREAK or any(w.isdigit() for w in lowered):
        return None
    if lowered[-1] in _BREAK and not inner_ok:
        return None
    if strict and ((len(parts) == 1 and lowered[0] in _VAGUE) or _judges(lowered, marked)):
        return None
    if not any(c.isalpha() for c in term):
        return None
    return term


def _judges(lowered: list[str], marked: bool) -> bool:
    """Whether a name's words, opened by a describing word (``_EVALUATIVE``), say how a thing
    is rather than name it. Unmarked, any such opening does: "This is normal behaviour.",
    "This is a simple fix." Marked, the author set the words apart as one name, and a
    describing word opens many ("A *normal distribution* is …", "The **expected value** is
    …", "*simple random sample*"); only these judge: the word alone ("**important**"), words
    that are all describing or function words, or hold a function word ("*fast and cheap*",
    "**difficult to maintain**": a name holds only "of", "per", "with" or "without"), and a
    word that only judges before one everyday noun ("the *best way*", "a *good idea*")."""
    if lowered[0] not in _EVALUATIVE:
        return False
    if not marked or len(lowered) == 1 or lowered[-1] in _EVALUATIVE:
        return True
    if any(word in _BREAK and word not in _INNER for word in lowered):
        return True
    return len(lowered) == 2 and lowered[0] in _JUDGING and lowered[1] in _VAGUE


def is_vague(term: str) -> bool:
    """Whether ``term`` is one of ``_VAGUE``'s nouns alone ("value", "list", "step"), which
    ``strict`` refuses."""
    return term.lower() in _VAGUE


def starts_description(word: str) -> bool:
    """Whether "X is <word> …" goes on to say what X is, not how X is ("is not", "is
    important", "is usually")."""
    return describes(word) and not word.lower().endswith("ed")  # passive: "is followed by"


def describes(word: str) -> bool:
    """Whether a phrase that opens with ``word`` may say what a thing is, not judge it: "a
    sorted copy", but not "a good idea", "not a table", "usually a list"."""
    word = word.lower()
    return not (word in _NOT_DESCRIBING or word in _EVALUATIVE
                or (_ADVERB.search(word) and len(word) > 4))


_SIZES = _word_set("big small large tiny huge")
"""The ``_EVALUATIVE`` words that say how big a thing is, not how good: "An eyepiece is the
small lens you look through." says what an eyepiece is."""
_COMPARING = _word_set("same other main real whole opposite usual")
"""Words after "is the" that compare a thing with others or weigh it, not say what it is:
"The exit pupil is the same in both.", "Declination is the main reason …"."""


def says_what_it_is(what: str, article: bool) -> bool:
    """Whether ``what``, the words "X is" goes on with in the plain form ("A p-value is
    the probability …"), say what X is rather than how it is: a describing word (a size too:
    "the small lens you look through") or a noun first, not a judgement ("a good idea", "a
    cheap way"). Without an article after "is" ("Light pollution is artificial light …")
    they must be a noun phrase of two words at least, not opening with a past participle,
    so that "Declination is tricky to read." and "The exit pupil is larger in binoculars."
    say nothing of what the thing is."""
    words = [w.lower() for w in what.split()]
    if not words:
        return False
    first, rest = words[0], words[1:]
    fits = (bool(rest) and not is_vague(rest[0])) if first in _SIZES else describes(first)
    if not article:
        fits = fits and len(words) > 1 and not first.endswith("ed")
    return fits


def opens_comparison(what: str) -> bool:
    """Whether ``what`` ("same in both", "main reason") opens with a word that compares or
    weighs (``_COMPARING``) or an everyday noun (``_VAGUE``: "the reason", "the key")."""
    first = what.split()[0].lower() if what.split() else ""
    return first in _COMPARING or first in _VAGUE


def is_plain_noun_phrase(text: str) -> bool:
    """Words that can only be a short noun phrase: no pronoun, verb-like adverb or clause
    word ("That limit", "That pattern of allowed and blocked positions")."""
    found = [w.lower() for w in _WORD.findall(text)]
    return all(w in ("of", "and") or w not in _BREAK for w in found)


def tidy_case(term: str, at_sentence_start: bool) -> str:
    """Lower case, except acronyms, mixed case and capitalised words inside a sentence."""
    out = []
    for i, word in enumerate(term.split()):
        capitals = sum(c.isupper() for c in word)
        proper = word[:1].isupper() and not (i == 0 and at_sentence_start)
        out.append(word if capitals > 1 or (capitals == 1 and not word[:1].isupper()) or proper
                   else word.lower())
    return " ".join(out)
