"""Phrasings that define a term, read apart from ``definition_patterns``' rules.

"… is what mechanics mean by truing" (the "what people call" family said with "mean by"),
and "PSI stands for pounds per square inch" (an abbreviation spelt out in words, as the
brackets of "pounds per square inch (PSI)" spell it). ``definitions.find_definitions`` reads
these beside ``definition_patterns.sentence_definitions``; each returns ``Found`` records
as those rules do, and hands the words it captured to ``take_term``.
"""

from __future__ import annotations

import re
from dataclasses import replace

from lessonsearch.definition_abbreviations import letters_fit
from lessonsearch.definition_patterns import (
    _HOLDS_WHAT,
    _NAME_ENDS,
    Found,
    _describes_only,
    _emphasised_term,
    _marked_pattern,
)
from lessonsearch.definition_terms import is_vague, take_term, term_or_none
from lessonsearch.term_forms import term_key

_MEANT_BY = re.compile(
    rf"\b{_HOLDS_WHAT}\s+what\s+(?:[\w-]+\s+){{1,4}}?(?:mean|means|meant)\s+by\s+(?P<rest>.+)",
    re.I)
"""'… is what mechanics mean by truing', '… is what is meant by truing': as "… is what
mechanics call truing" (``definition_patterns._NAMING``), after a verb that has or is the
thing, so that "It depends on what you mean by fast" names nothing."""
_MEANT_BY_SUBJECT = re.compile(
    r"^\W*what\s+(?:[\w-]+\s+){1,4}?(?:mean|means|meant)\s+by\s+(?P<rest>[^,;:]+?)\s+"
    r"(?:is|are)\s", re.I)
"""'What mechanics mean by truing is …', as "What mechanics call truing is …"."""


def meant_by(sentence: str) -> list[Found]:
    """"Bringing a wheel back true is what mechanics mean by truing.", "What we mean by
    truing is …": the name "what … mean by" gives, read as "what … call" gives one. It ends
    the sentence or a clause after "is what … mean by" ("… what we mean by truing a wheel
    by eye" says more than a name), and a word that judges or a state names nothing, as
    after "call" ("That is what I mean by simple.")."""
    out = []
    for pattern in (_MEANT_BY, _MEANT_BY_SUBJECT):
        for match in pattern.finditer(sentence):
            rest = match["rest"]
            name = take_term(rest)
            if not name or _describes_only(name):
                continue
            if pattern is _MEANT_BY and not _NAME_ENDS.match(rest[rest.find(name) + len(name):]):
                continue
            out.append(Found(name, "naming", match.start("rest") + rest.find(name)))
    return out


_STANDS_FOR = re.compile(
    r"(?:^|[;:]\s+)\W*(?:(?i:the)\s+(?:abbreviation|acronym|initialism)\s+)?"
    r"(?P<abbr>[A-Z][A-Za-z0-9]{0,6}[A-Z0-9])\s+"
    r"(?:stands\s+for|is\s+short\s+for|is\s+an\s+(?:abbreviation|acronym)\s+(?:of|for))\s+"
    r"[\"“‘]?(?P<long>[^\"”’,;:()—–.!?]+?)[\"”’]?\s*(?:[,;:(—–]|--|[.!]\s*$|$)")
"""'PSI stands for pounds per square inch.', 'ABV is short for alcohol by volume': an
abbreviation opening the sentence (or a clause), and its long name, which ends the sentence
or a clause."""


def spelt_out(sentence: str) -> list[Found]:
    """"PSI stands for pounds per square inch.": the long name of an abbreviation, with the
    abbreviation, as "pounds per square inch (PSI)" gives it. The abbreviation's letters
    must be the long name's initials (``letters_fit``): "PSI stands for the pressure in the
    tyre" gives no name, nor does "Red stands for danger" (one capital)."""
    out = []
    for match in _STANDS_FOR.finditer(sentence):
        long = term_or_none(match["long"])
        if long and letters_fit(match["abbr"], long):
            out.append(Found(long, "abbreviation", match.start("long"),
                             abbreviation=match["abbr"]))
    return out


_SAYS_WHEN = re.compile(r"^[\"”’)*_]*\s+(?:when|whenever)\s+(?:[\w'’-]+\s+){2}\S", re.I)
"""'This is called chain suck when the chain clings to …': a clause of three words at least
after the name, opened by "when", that says in which case the thing named happens."""


def says_when(sentence: str, found: Found) -> bool:
    """Whether ``sentence`` says what its named term is after the name, in a clause opened by
    "when" ("This is called chain suck when the chain clings to the chainring …"), so that
    the sentence before, which "This" points back at, is not its meaning: the clause is.
    Only for a naming cue ("is called", "is known as"), where the name is complete before
    "when"."""
    if found.kind != "naming":
        return False
    at = sentence.find(found.term, found.start)
    return at >= 0 and bool(_SAYS_WHEN.match(sentence[at + len(found.term):]))


_GERUND_SUBJECT = re.compile(
    r"(?:^|[;:]\s+)[\"“‘(]?(?P<gerund>[A-Z][a-z]{2,}ing)(?:\s+[^\s,;:—–()]+){1,14}?\s+"
    r"(?P<verb>is|gives|yields)\s+(?:(?:the|a|an)\s+)?$")
"""What comes before a marked name a gerund clause says it is or gives: "Getting the air
out is ", "Dividing the teeth of the ring by those of the sprocket gives the "."""
_NOT_GERUNDS = frozenset("""nothing something anything everything during morning evening
thing string spring king ring ceiling building wedding pudding""".split())
"""Words in -ing that open a sentence as a noun or a preposition, not as an act: "Nothing is
**free**", "Spring is the **season** …"."""
_ITS_OBJECT = re.compile(
    r"^[\"”’)]*\s+(?:it|them|(?:the|a|an|its|your|their|our|his|her)\s+[\w'’-]+"
    r"(?:\s+[\w'’-]+)?)(?=\s*(?:[:—–]|--|[.!]*\s*$))", re.I)
"""The object of a marked name in -ing, before a colon, a dash or the sentence's end:
"**bleeding** the brake:", "**kicking** it."."""
_EXPLAINED = re.compile(r"^[\"”’)]*\s*(?:(?:[:—–]|--)\s*\S+\s+\S|[.!]*\s*$)")
"""A colon or a dash that opens what the name is, or the sentence's end."""


def marked_by_gerund(sentence: str, emphasis: tuple[str, ...]) -> list[Found]:
    """"Getting the air out is **bleeding** the brake: you push …", "Dividing the teeth of
    the ring by those of the sprocket gives the **gear ratio**: …": a marked name that a
    gerund clause, opening the sentence, says an act is ("is": the name is an act too, in
    -ing, not a word that says how it goes: "Coiling the lines is **tidy**.") or a sum
    gives ("gives", "yields"). What follows the name says what it is after a colon or a
    dash, or the sentence ends; an act in -ing may keep its object first ("the brake"). A
    list label ("**Bleeding**: …") or a marked word among listed things ("a bowl, a
    **lame**, a tin") has no such clause before it, and a sentence opened by a noun in -ing
    ("Nothing is **free**.") is no act."""
    out = []
    for marked in dict.fromkeys(emphasis):
        term = _emphasised_term(marked) if marked in sentence else None
        if not term:
            continue
        for match in _marked_pattern(marked).finditer(sentence):
            subject = _GERUND_SUBJECT.search(sentence[: match.start()])
            if subject is None or subject["gerund"].lower() in _NOT_GERUNDS:
                continue
            after = sentence[match.end():]
            if subject["verb"] == "is":
                if not term.lower().endswith("ing"):
                    continue  # "Coiling the lines is **tidy**." says how it is
                if its := _ITS_OBJECT.match(after):
                    after = after[its.end():]  # "**bleeding** the brake: …"
            if _EXPLAINED.match(after):
                out.append(Found(term, "emphasis", match.start()))
                break
    return out


_KIND_AND_CLAUSE = re.compile(
    r"^[\"”’*_]*\s+(?:is|are)\s+an?\s+(?P<kind>(?:[\w'’-]+\s+){0,4}?[\w'’-]+)\s+"
    r"(?:that|which|who)\s+(?!(?:is|are|was|were|has|have|can|could|will|would|may|might|"
    r"should|must)\b)[a-z]+s?\b")
"""After the name of a plain definition, "is a", its kind (up to five words: "a sorted copy
of one column") and a relative clause opened by a verb of its own that says what the kind
does: "Degreaser is a solvent that dissolves old
lube.", "SSH is a cryptographic network protocol that allows …"."""


def says_its_kind(plain: Found, sentence: str) -> Found:
    """``plain`` (``definition_patterns.plain_definition``: "A p-value is the probability
    …"), which names a term only where the glossary has it, made a definition of its own
    when the sentence has the classic shape of one: "X is a", a kind that is no everyday
    noun ("a thing that", "a way that"), and what that kind does ("Degreaser is a solvent
    that dissolves old lube and dirt."). A lesson's term then, as a marked name's is: the
    coverage report lists it as missing from the glossary. A kind described otherwise ("is
    the ideal for science", "is a good idea") is left to the glossary."""
    if not plain.glossary_only or plain.abbreviation:
        return plain
    at = sentence.find(plain.term, plain.start)
    match = _KIND_AND_CLAUSE.match(sentence[at + len(plain.term):]) if at >= 0 else None
    if match is None or any(is_vague(word) for word in match["kind"].lower().split()):
        return plain
    return replace(plain, glossary_only=False)


_THE_SUBJECT = re.compile(r"^[\"“‘*_]*The\s+$")
"""What opens the sentence before the name in "The headset is the …": "The" alone."""
_THE_KIND_AND_CLAUSE = re.compile(
    r"^[\"”’*_]*(?:\s+\([^()]{1,30}\))?\s+is\s+the\s+(?P<kind>(?:[\w'’-]+\s+){0,4}?[\w'’-]+)\s+"
    r"(?:(?:that|which|who)\s+(?!(?:is|are|was|were|has|have|can|could|will|would|may|might|"
    r"should|must|i|we|you|they|he|she|it|one|people|the|a|an|this|these|those|its|their|our|"
    r"your|my|his|her)\b)[a-z]+s?\b|(?:in|of|on|at|inside|between)\s+(?:the|a|an)\s)")
"""After the name, "is the", a kind of up to five words and what sets it apart: a relative
clause whose own verb says what it does ("the sprung arm that moves the chain") or a
place or part it belongs to ("the pair of bearings in the head tube"). A clause with a
subject of its own ("the bolt that you tighten last", "the tool which the shop lends")
says how someone uses the thing, not what it is. A gloss in brackets may stand between the
name and "is", as ``definition_patterns.plain_definition`` allows it: 'The imprimatur ("let
it be printed") is the licence printed in …'."""
_WHICH_ONE = frozenset("""only sole single first second third fourth last next previous
    final following preceding above below former latter other same best worst most least
    largest smallest biggest highest lowest longest shortest easiest simplest fastest slowest
    newest oldest latest earliest""".split())
"""Words that pick one thing out by its place or its rank ("the first bolt that …", "the
topmost directory", "The following is the …", "the only lens that …"): a sentence with one
in its subject or its kind says which one, or weighs it, as often as it defines. "The X is
the only …" stays a definition where one is expected (``definitions.find_definitions``)."""


def names_glossary_kind(plain: Found, sentence: str) -> bool:
    """Whether ``plain`` (``definition_patterns.plain_definition``), read past the first
    sentence of a section whose heading does not name its term, still defines it: "The
    headset is the pair of bearings in the head tube that lets the fork steer.", "The rear
    derailleur is the sprung arm that moves the chain …". The plain form read anywhere
    mostly describes ("The problem is the network."), but after "The", "is the" with a
    kind and what sets that kind apart (``_THE_KIND_AND_CLAUSE``) it says what the thing
    is. It still names only a term the glossary has, or one of its aliases
    (``Found.glossary_only``), so the glossary decides; a subject or kind that picks one
    thing out by rank or place (``_WHICH_ONE``), an everyday kind ("the part that …") or
    a kind that says the name again ("The mode argument is the file mode of …", "The
    identifier is the identifier of …": which one, not what it is) is left to the first
    sentence."""
    if not plain.glossary_only or plain.abbreviation or not _THE_SUBJECT.match(
            sentence[: plain.start]):
        return False
    match = _THE_KIND_AND_CLAUSE.match(sentence[plain.start + len(plain.term):])
    if match is None:
        return False
    name, kind = plain.term.lower().split(), match["kind"].lower().split()
    if {term_key(word) for word in name} & {term_key(word) for word in kind}:
        return False
    return not any(word in _WHICH_ONE or word.endswith("most") or is_vague(word)
                   for word in name + kind)


def phrased_definitions(sentence: str, emphasis: tuple[str, ...] = ()) -> list[Found]:
    """Every definition one sentence makes by the phrasings of this module; questions make
    none, as in ``definition_patterns.sentence_definitions``."""
    if sentence.rstrip(" \"'”’)").endswith("?"):
        return []
    lowered = sentence.lower()
    found = []
    if "what" in lowered and " by " in lowered and "mean" in lowered:
        found += meant_by(sentence)
    if "stands for" in lowered or " short for" in lowered or "abbreviation" in lowered or (
            "acronym" in lowered):
        found += spelt_out(sentence)
    if emphasis and "ing " in sentence:
        found += marked_by_gerund(sentence, emphasis)
    return found
