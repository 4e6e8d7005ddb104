"""The phrasings by which a lesson's sentence defines a term, one small rule per class.

Each rule reads one sentence and returns ``Found`` records; ``definitions.find_definitions``
keeps the first per term. Rules only find a cue ("is called", a quoted name, a pointing
"This is …"); deciding whether the words after the cue are a term is ``take_term``'s job, so
the near-misses ("is called every time", "This is important.") are refused in one place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from lessonsearch.definition_abbreviations import abbreviations, apposed_abbreviations
from lessonsearch.definition_terms import (
    describes,
    is_plain_noun_phrase,
    is_vague,
    opens_comparison,
    says_what_it_is,
    starts_description,
    take_term,
    term_before,
    term_or_none,
)
from lessonsearch.term_forms import term_key

_BE = r"(?:is|are|was|were|be|been|being|gets|get)"
_HEDGE = r"(?:(?:also|often|usually|sometimes|commonly|generally|simply|typically|widely)\s+)?"
_NAMERS = (r"(?:we|they|people|you|practitioners|researchers|engineers|programmers|developers|"
           r"statisticians|authors)")
_NAMER_WORDS = frozenset(_NAMERS[3:-1].replace('"', "").split("|"))
_NAMED = (r"(?:this|that|these|those|such)\s+(?:an?\s+)?(?P<named>(?:(?!(?:a|an|the)\s)[\w'’-]+\s+)"
          r"{0,2}?(?!(?:a|an|the)\s)[\w'’-]+)(?=\s+(?:(?:a|an|the)\s|[\"“‘']))")
"""What "we call …" names, when it has a noun of its own: "this quantity" in "We call this
quantity the bits per byte", "such a table" in "We call such a table a heap". The name is
the complement after it, which an article or a quote opens; without one ("We call this
gradient clipping") the words after the demonstrative are the name, unless the first is a
kind of thing (``_PRONOUN_KINDS``). The noun's words must be a plain noun phrase: in "We
call these methods in a loop" the article opens where they are called, not a name."""
_KINDS = tuple(
    """technique method process procedure approach trick idea concept phenomenon effect property
    quantity measure structure pattern practice strategy algorithm step stage operation
    setting""".split()
)
"""Nouns that say what kind of thing a term is: "a technique called X"."""
_KIND_OF = r"(?:kind|kinds|type|types|sort|sorts|form|forms|class|variety|family|category)"
"""Nouns that, with "of", say that what follows is a kind of thing: "a subtle kind of
anomaly called a phantom read" names a kind whatever the noun after "of" is, while "an
anomaly called …" might name one anomaly."""
_PRONOUN_KINDS = _KINDS + tuple(
    "number value behaviour behavior situation setup problem kind type mode arrangement".split()
)
"""Nouns a demonstrative may hold without being part of the name: "We call this process
fine-tuning" names fine-tuning."""
_COMPOUNDING = frozenset(
    "type mode value pattern step structure setting measure property stage effect".split()
)
"""Kinds that also open compound terms ("type inference", "mode collapse", "pattern
matching"): "We call this type inference" names type inference, so such a kind is part of
the name when the name would otherwise be one word. The sentence alone cannot tell that
from "We call this value perplexity", which names perplexity; so the hit keeps the one word
as ``Found.alone``, and the lesson's emphasis decides ("this value **perplexity**"); without
it the two words are the name, as most such phrases are (value iteration, type checking,
step size). A plural kind ("these values logits") never opens a compound: its first word
would be singular."""
_OPENS_COMPOUNDS = frozenset("type mode value".split())
"""The ``_COMPOUNDING`` kinds that open compounds too often for the glossary to split them off:
with inference in the glossary, "We call this type inference" still names type inference
(value iteration, mode collapse likewise). The other kinds mostly point at what the sentences
before described ("We call this pattern memoization", "this structure a trie"), so a hit after
them says ``Found.referring``: the glossary decides (``glossary_build._merge``)."""


def _plural(noun: str) -> str:
    if noun.endswith("y"):
        return noun[:-1] + "ies"
    return noun + ("es" if noun.endswith(("s", "ch", "sh", "x")) else "s")


_THIS_KIND = (rf"(?:this|that|these|those)\s+(?P<kind>"
              rf"{'|'.join(form for kind in _PRONOUN_KINDS for form in (_plural(kind), kind))})"
              r"(?![\w'’-])")


def _singular(noun: str) -> str:
    noun = noun.lower()
    return next((kind for kind in _PRONOUN_KINDS if noun in (kind, _plural(kind))), noun)


_GROUP = r"(?P<group>[A-Za-z][\w'’-]*[a-hj-rtv-z]s)"
"""A plural noun that may name a group of people as the subject of "call this X", besides
``_NAMERS``: "Roasters call this first crack.", "In Italy, baristas call this a ristretto."
Any such noun may also judge ("Critics call this nonsense.") or be a part of a program that
calls a thing ("The handlers call this cache."), so the hit names a term only where the
glossary has it (``Found.glossary_only``), and ``_group_names`` checks where it stands."""
_GROUP_ADVERB = (r"(?:also|often|usually|sometimes|commonly|generally|simply|typically|still|"
                 r"just|now|informally|affectionately|traditionally)")
_WE_CALL_VERB = (rf"\b(?:{_NAMERS}\s+(?:\w+\s+)?|{_GROUP}\s+(?:{_GROUP_ADVERB}\s+)?)"
                 r"(?P<verb>(?(group)(?:call|term|dub)|(?:call|calls|term|dub)))\s+")
_CALLED_PRONOUN = r"(?P<strict>this|that|it|these|those|them)|such\s+\w+"
_WE_CALL = re.compile(
    rf"{_WE_CALL_VERB}(?:{_NAMED}|{_THIS_KIND}|{_CALLED_PRONOUN})\s+(?P<rest>.+)", re.I)
_SOMEONE_CALLS = re.compile(
    r"(?:^|[,;:—–(]\s*)\W*(?:(?:almost|nearly)\s+)?(?:every|each|any|a|an|the)\s+"
    r"(?:(?P<modifier>[\w'’-]+)\s+)??(?P<person>[A-Za-z][\w'’-]*)\s+"
    rf"(?:{_GROUP_ADVERB}\s+)?(?P<verb>calls)\s+(?:{_THIS_KIND}|{_CALLED_PRONOUN})\s+"
    r"(?P<rest>.+)", re.I)
"""One person naming a thing for all of a group: "Every roaster calls this first crack.",
"In Italy, each barista calls this a ristretto." The subject opens the sentence or follows a
comma: "every", "each", "any" or an article, up to one word that describes, and a person noun
(``_person_names``); as with a plural group, the hit names only a term the glossary has."""
_WE_CALL_UNNAMED = re.compile(
    rf"{_WE_CALL_VERB}(?:{_THIS_KIND}|{_CALLED_PRONOUN})\s+(?P<rest>.+)", re.I)
"""``_WE_CALL`` without its ``_NAMED`` reading, for a sentence where that reading holds no
plain noun phrase: in "We call this pattern memoization in the rest of the course." the
article after "in" made "pattern memoization in" the noun, and the sentence was dropped
as "We call these methods in a loop." is, before "this pattern" (``_THIS_KIND``) was tried."""
_HOLDS_WHAT = (r"(?:is|are|was|were|be|been|becomes?|became|shares?|shared|sharing|has|have|had|"
               r"having|uses?|used|using|gets?|got|makes?|made|forms?|formed|builds?|built|"
               r"creates?|created|needs?|needed|contains?|contained|holds?|held|keeps?|kept|"
               r"gives?|gave|causes?|caused|produces?|produced|hits?|reach(?:es)?|reached|"
               r"into|of|with)")
"""The words before "what people call X" that make the clause a thing had, used or made, so
that it names X: "… is what practitioners call a transformer", "Two clients saving one row
have what database people call a write conflict", "an example of what statisticians call a
confounder".
Not any verb: "It does not matter what we call the variable" and "Check what we call the
function" ask which name, and name nothing."""
_NAMING = (
    re.compile(rf"\b{_BE}\s+{_HEDGE}(?:called|termed|dubbed|known\s+as|referred\s+to\s+as)"
               r"\s+(?P<rest>.+)", re.I),
    re.compile(rf"\b{_HOLDS_WHAT}\s+what\s+(?:[\w-]+\s+){{1,4}}?(?:call|calls|term|terms)"
               r"\s+(?P<rest>.+)", re.I),
    re.compile(r"^what\s+(?:[\w-]+\s+){1,4}?(?:call|calls)\s+(?P<rest>[^,;:]+?)\s+(?:is|are)\s",
               re.I),
    _WE_CALL,
    re.compile(rf"\b{_NAMERS}\s+(?:\w+\s+)?refers?\s+to\s+(?P<strict>(?:this|that|these|those|"
               r"such|the)\s+(?:[\w'’-]+\s+){0,5}?|it\s+|them\s+)as\s+"
               r"(?![\w'’-]+ed\s*(?:[.,;:!]|$)|follows\b)(?P<rest>.+)", re.I),
    re.compile(r"(?<!\bis\s)(?<!\bare\s)\b(?:known\s+as|goes\s+by\s+the\s+name(?:\s+of)?)"
               r"\s+(?=(?P<rest>.+))", re.I),
    re.compile(r"(?:,\s+|\(\s*)(?:also|often|sometimes|usually)\s+called\s+(?=(?P<rest>.+))",
               re.I),
    re.compile(rf"\b(?:a|an|the)\s+(?:(?!called\b)[\w'’-]+\s+){{0,2}}?(?:(?:{'|'.join(_KINDS)})"
               rf"\s+|{_KIND_OF}\s+of\s+(?:(?!called\b)[\w'’-]+\s+){{1,3}}?){_HEDGE}called\s+"
               r"(?P<rest>.+)", re.I),
    _SOMEONE_CALLS,
)
"""Besides "is called X": "we call this X", "we refer to this as X" (where the object is
``strict``, the name may not be a lone vague word: "We call this function twice."), "…, also
called X" and "… (also called X)", and a kind of thing "called X" (but not "a file called
notes.txt" or "a function called main", which name an instance, not a term). Up to two
words may describe the kind ("a simple technique called X"), and any noun is a kind after
"kind of", "type of", "sort of" and the like ("a subtle kind of anomaly called X", "a
special type of tree called X").

A sentence may give several things their other names ("columns (also known as fields) …,
and rows (also known as records) …"): the words after "known as" and "also called" are
looked at without being taken, so every such cue in it is read, not the first alone."""
_KNOWN_AS = _NAMING[5]
_ALSO_CALLED = _NAMING[6]
_WHAT_CALLS = (_NAMING[1], _NAMING[2])
"""The forms "… is what people call X" and "What people call X is …": ``_describes_only``
reads the name they give."""
_GIVEN_ANOTHER = re.compile(r",\s*(?:also|often|sometimes|usually|commonly)\s+$", re.I)
"""Before "known as": "records, also known as rows, …" gives records another name, and the
glossary may have either. The adverb says so: in "Behind two layers of NAT, known as
carrier-grade NAT, …" the name before is what the new name is made of, not another name of
one thing (see ``_other_name``). (After "a function, also called glob," the name before is
the kind of thing named, and in "rows (also known as records)" the name in brackets is the
one introduced: neither is looked up.)"""
_SUBJECT_NAMED_AGAIN = re.compile(
    r"^[\"“‘*_]*(?:(?:the|a|an)\s+)?(?P<term>[\w'’-]+(?:\s+[\w'’-]+){0,4}?)[\"”’*_]*\s*"
    r"(?P<open>,|\()\s*(?:also|often|sometimes|usually|commonly)\s+(?:called|known\s+as)\s+$",
    re.I)
"""The sentence's subject, then a comma or a bracket and an adverb that says it has another
name, before that name: "Propolis, also called bee glue, is …", "A hash join (also known as
a hash match) builds …". Read by ``_subject_named_again``."""
_NAME_IS = re.compile(
    r"\b(?:the|a|one)\s+(?:usual\s+|common\s+|technical\s+|standard\s+|proper\s+)?"
    r"(?:name|term|word|jargon|label)\s+(?:[\w-]+\s+){0,2}?(?:for|to|that|of)\s+"
    r"(?:(?!(?:it|they|we|you|he|she|i)\s)[\w-]+\s+){0,6}?(?:is|was)\s+(?!called|known|referred)"
    r"(?P<rest>.+)", re.I
)
""""The name usually given to this is …", "The word for this is …", "The term of art is …"."""
_QUOTED = re.compile(r"(?:^|(?<=[\s(]))[\"“‘](?P<term>[^\"“”‘’]{1,60})[\"”’](?P<after>.*)")
_OPENS_QUOTED = re.compile(r"^\s*(?:(?:a|an|the)\s+)?[\"“‘']", re.I)
_QUOTE_CUE = re.compile(r"\b(?:the|a)\s+(?:term|word|name|phrase|expression)\s*$", re.I)
"""Right before the quote: 'the term "overfitting": …'."""
_QUOTE_MEANS = re.compile(r"^\s*,?\s*(?:which\s+)?(?:means|refers\s+to|stands\s+for|"
                          r"is\s+short\s+for)\s+(?!and\b|or\b)\w")
_QUOTED_COMPLEMENT = re.compile(
    r"(?:^|[;:—–]\s*)(?P<subject>(?:[^\s;:—–]+\s+){3,}?(?P<last>[\w'’-]+)),?\s+"
    r"(?:is|are|was|were)\s+(?:a|an|the)\s+(?P<quoted>[\"“‘](?P<term>[^\"“”‘’]{1,60})[\"”’])"
    r"(?=(?P<after>.*))"
)
"""'A row that is marked deleted but kept until the next cleanup is a "dead tuple".': a
quoted name after "is a" or "is the" names what the words before described. Those words must
be a description: four words at least, a clause or a phrase among them ("that is marked",
"held by"), the last no pronoun. 'It is a "feature".' and 'The old export script is a
"hack".' name nothing: their quotes are scare quotes. The name must end the sentence or a
clause."""
_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.I)
_PRONOUNS = frozenset("it this that these those they which what who there here he she we you one"
                      .split())
_CLAUSE_ENDS = re.compile(r"^[\"”’)]*\s*(?:[.!]*\s*$|,\s+(?:and|which|so|but)\b|[;:(—–]|--)")
_EXPLAINS = re.compile(r"^\s*(?:[:—–]|--|\s-\s)\s*(?:[\w'’-]+\s+){2}")
_POINTING = re.compile(
    r"(?:^|[;:—–]\s*|,\s+and\s+)(?:this|that|these|those)(?P<noun>(?:\s+[\w'’-]+){0,6}?)\s+"
    r"(?:is|are|was|were)\s+(?!called\b|known\b|termed\b|referred\b|what\b)(?P<article>an?\s+)?"
    r"(?P<rest>.+)",
    re.I,
)
""""This is X.", "That limit is the context window, and …": a demonstrative names what the
sentences before it described. "This is a journal." names too, but only so, the whole
sentence (``_classifies``): "This is a problem for large tables." describes."""
_DEFINED_AS = re.compile(
    r"(?:^|[,;:]\s+)(?:(?:a|an|the)\s+)?(?P<term>[\w'’-]+(?:\s+[\w'’-]+){0,4}?)"
    r"(?:,\s+(?P<aside>[\w'’-]+(?:\s+[\w'’-]+){0,3}),)?\s+(?:is|are)\s+"
    r"(?:(?:usually|often|commonly|generally|formally|simply|sometimes)\s+)?defined\s+"
    r"(?:as|to\s+be)\s+(?!follows\b)\w", re.I
)
""""The fill factor is defined as …": the subject is the term, as in "A **token** is …", but
"defined as" says so without the emphasis. An aside of up to four words may stand between
commas before the verb: "Absolute magnitude, by contrast, is defined as …"."""
_ENDS = re.compile(r"^[\"”’)]*\s*[.!]*\s*$")
_GOES_ON = re.compile(r"^[\"”’)]*,\s+(?:and|which)\b")
""""…, and it is why …": how a sentence goes on after the term it points at."""
_APPOSED = re.compile(r"^[\"”’)]*,\s+(?:the|a|an)\b")
_CONTRAST = re.compile(
    r"\b(?:is|are|was|were)\s+(?P<rest>[^,.;:]{1,60}),\s+not\s+(?:an?\s+|the\s+)?"
    r"[^,.;:—–]{1,40}?\s*(?:—|–|--|:|;)\s*(?P<gloss>\w+)", re.I
)
""""it is a byte, not a character — the unit …": the contrast must be followed by a gloss."""
_GLOSS_OPENERS = frozenset(
    "a an the each every one its their it they this these that what".split())
"""Words a gloss after the contrast opens with when it goes on about the thing: a noun phrase
("— the unit the file is stored in", "— each row lives in one shard") or a clause about it
("— it fixes which draws …"). A clause with a subject of its own ("a convention, not an
event: nothing changed on 1 January 1501") argues for the contrast: the sentence weighs what
it names ("The cut-off date is a convention"), it does not say what the term means."""
_SETTING = re.compile(
    r"(?:^|[;:—–]\s*|,\s+(?:and|but|so)\s+)(?:how|what|which|whatever|the\s+(?:knob|setting|dial|"
    r"parameter|switch|control|number|amount)\s+(?:that|which|of))(?:\s+[\w'’-]+){3}", re.I
)
"""A clause that describes a quantity by what it does ("how hard the optimiser pushes")."""
_MEASURE_NOUNS = tuple(
    """time delay distance number amount fraction share proportion percentage count size length
    width height depth speed rate frequency duration interval ratio probability chance average
    total sum""".split())
"""Nouns of a measure: what a quantity is ("The time a query waits … is the lock timeout")."""
_MEASURES = rf"(?:{'|'.join(_MEASURE_NOUNS)})"
_UNITS = (r"(?:(?:milli|micro|nano)?seconds|minutes|hours|days|weeks|months|years|bytes|"
          r"(?:kilo|mega|giga)bytes|bits|grams|degrees)")
"""Units counted in the plural, which open a measure as its noun does: "The minutes between
first crack and the end of the roast are the development time." Their verb is plural."""
_MEASURE_IS = re.compile(
    r"(?:^|[;:—–]\s*|,\s+(?:and|but|so)\s+)the\s+(?:(?P<measure>"
    rf"{_MEASURES})|(?P<units>{_UNITS}))(?:\s+(?!(?:is|are|was|were)\b)[\w'’-]+){{3,12}}?\s+"
    r"(?(units)(?:are|were)|(?:is|are|was|were))\s+the\s+(?P<rest>.+)", re.I
)
"""A measure described by what it measures, as the subject, and its name after "is the":
"The time a query waits for a lock before giving up is the lock timeout." The subject must
open with "the" and a noun of time, amount, number or size, or a unit in the plural with a
plural verb ("The minutes between first crack and the end of the roast are the development
time.", ``_UNITS``), and go on three words at least before its verb (not "The size of it is
the limit.", "The minutes are the worst part."); "The problem is the network." names
nothing. It names a term the glossary has: "The amount of memory the model needs is the
bottleneck." and "The amount we pay each month is the price." are remarks."""
_SETTING_IS = re.compile(r"\s(?:is|are)\s+(?:the|what\s+[\w-]+\s+calls?)\s+(?P<rest>.+)")
_AS_SUBJECT = re.compile(r"(?:^|[,;:]\s+|\b(?:and|but)\s+)[\"“‘(]?(?:(?:a|an|the)\s+)?$", re.I)
_WHEN_OR_WHERE = (r"(?:in|on|at|for|during|from|to|with|after|before|until|by|per|each|every|"
                  r"once|twice|when|if)")
"""Words after a marked name's brackets that say when, where or for what to use the thing:
"- **1:1 syrup** (one kilo of sugar to a litre of water) in spring, which …;" is a line of a
list of things to use, and the brackets say how much, not what the name means."""
_SUBJECT_DEFINED = re.compile(
    r"^[\"”’]?\s*(?:\([^)]{1,60}\)\s*)?(?:(?:is|are)\s+(?:a|an|the|one|what|how|when|where|any|"
    r"just|simply|essentially|basically|defined)\b|"
    r"(?:(?:simply|just|basically|essentially|literally|roughly|usually|generally|commonly)\s+)?"
    r"(?:means|refers\s+to|stands\s+for|describes|denotes)\b|(?:[:—–]|--)\s*\S+\s+\S|,\s+(?:a|an|the)\b|"
    rf"\((?![^()]*\)\s*{_WHEN_OR_WHERE}\b))"
    r"|^\s*(?:is|are)\s+(?P<word>[\w'’-]+)\s+\w", re.I
)
""""A **token** is …", "**Token**: the unit …", "*tokens* (pieces of text) …"; a word that hedges
may stand before "means": "*Sgraffito* simply means …". After the brackets no word that says
when, where or for what (``_WHEN_OR_WHERE``)."""
_AS_PREDICATE = re.compile(r"\b(?:is|are|was|were)\s+(?:(?:a|an|the)\s+)?$", re.I)
_PREDICATE_DEFINED = re.compile(r"^[\"”’]?\s*(?:[:—–]|--)\s*\S+\s+\S")
""""The simplest rule is *greedy decoding*: always take …"."""
_AS_ONE_NAMED = re.compile(r"\b(?:(?:is|are|was|were)\s+one|names\s+(?:a|an|the))\s+$", re.I)
_NAMED_EXPLAINED = re.compile(r"^[\"”’]?\s*(?:[:—–]|--)\s*(?:a|an|the)\s+\S+\s+\S", re.I)
""""Each line is one **network interface**: the kernel's handle for …", "The line names the
*default gateway*: the router that …": one of a kind the sentence points at, or the thing a
line or a field names, then a colon or a dash and a noun phrase that says what it is. Only
with an article after the colon: "The form names the *pilot*: Jane Smith." gives a value."""
_APPOSITIVE = re.compile(
    r"^[\"”’]?\s*(?:(?:—|–|--)\s*(?:a|an|the|one)\s+\w|,\s*(?:a|an|the|one)\s+"
    r"(?:[\w'’-]+\s+){0,3}?(?:that|which|who|where|of|for|used|made|with)\b)", re.I
)
""""the *vocabulary* — the fixed list of …", "a *text cursor*, a character that …"."""
_APPOSED_NAME = re.compile(
    r"^[\"“‘(]?(?:(?:the|a|an)\s+)?(?P<term>[\w'’-]+(?:\s+[\w'’-]+){0,3}?),\s+"
    r"(?P<article>the|a|an)\s+(?P<head>(?:[\w'’-]+\s+){0,3}?[\w'’-]+)\s+"
    r"(?:that|which|who|whose|where|of|for|to|used|made|with|between|by)\s+[^,;:()—–]*?\w,\s+"
    r"(?P<verb>[a-z][\w'’]*)\s+(?P<next>[\w'’-]+)", re.I
)
"""'Alkalinity, the water's capacity to buffer acid, is …': a name that opens the sentence,
and between two commas what it is, an article and a noun that a clause or a phrase
describes ("that …", "of …", "to …", "used …"), before the sentence's verb. Read by
``_apposed``."""
_AUXILIARY = frozenset(
    "is are was were has have had does do did can could will would may might must should"
    .split())
_ORDINALS = frozenset("first second third last".split())
_REMARK_HEADS = frozenset(
    "topic subject focus theme star hero heart centre center core key secret point aim goal "
    "cause reason culprit source".split())
"""Nouns that, as what an appositive says a thing is, say where the course treats it or
what it does to something else, not what it is: "Extraction, the topic of the next
lesson, is …", "Channeling, the cause of most sour shots, is …"."""


@dataclass(frozen=True, slots=True)
class Found:
    """A term one rule found in a sentence, with where it starts in the sentence."""

    term: str
    kind: str
    start: int
    abbreviation: str | None = None
    alone: str | None = None
    """The name without the kind noun ``term`` starts with, when the kind may belong to the
    name or not ("We call this value perplexity"): see ``_COMPOUNDING``."""
    referring: bool = False
    """Whether that kind noun more often points back than opens a compound ("this pattern
    memoization", not "this type inference"): then ``alone`` is the name where the glossary
    has it and not ``term`` (see ``_OPENS_COMPOUNDS``)."""
    other: str | None = None
    """The name the sentence gives ``term`` to as another name of one thing ("records" in
    "records, also known as rows,": ``_other_name``): the glossary may have that one
    instead."""
    glossary_only: bool = False
    """Whether the sentence names a term only where the glossary has it: "This is a
    firewall." classifies what came before as the glossary's firewall, while "This is a
    bug." and "This is a hack." name nothing a course teaches (``_classifies``)."""
    called: bool = False
    """Whether the name is, unmarked, a thing a program calls, alone after "call these" and
    ending the sentence ("We call these scripts."): the sentence may as well call the
    scripts it points at. So it names the glossary's term only (``glossary_only``), and only
    after a sentence that says what "these" are without the name
    (``definitions.find_definitions``)."""
    passing: bool = False
    """Whether an abbreviation is spelt out in passing, where the sentence does not say what
    the thing is ("Binoculars show a wide field of view (FOV) and …": ``_in_passing``): the
    two names are one term's, and the sentence is no definition of it."""


_INTRODUCED_AFTER = re.compile(
    r"(?:^\W*(?:(?:the|a|an)\s+)?"
    r"|\b(?:is|are|was|were|becomes?|became|called|named|termed|dubbed|known\s+as)\s+"
    r"(?:(?:the|a|an)\s+)?(?:[\w'’-]+\s+){0,2}?)$", re.I)
"""What comes before a long name and its abbreviation that introduce a term: nothing (the
sentence opens with them: "Retrieval-augmented generation (RAG) gets around …"), or a verb
that says what the thing before it is, or names it ("the result is a large language model
(LLM)", "is byte-pair encoding (BPE)", "a method called …")."""
_INTRODUCED_SUBJECT = re.compile(r"(?:^|[,;:]\s+)\W*(?:(?:the|a|an)\s+)?$", re.I)
_SUBJECT_VERB = re.compile(
    r"^,?\s+(?:(?:also|often|usually|then|now|still|[a-z]+ly)\s+)?(?:is|are|was|were|has|have|"
    r"had|can|could|will|would|may|might|must|should|does|do|did|[a-z]+[^s\W]s)\b", re.I)
"""The verb of the subject a long name and its abbreviation make after an opening phrase:
"One such tool, continuous integration (CI), can run …", "In practice, the true field of
view (TFOV) is …"."""
_EXPLAINED_AFTER = re.compile(r"^\s*(?:[:—–]|--)\s*\S+\s+\S")
_APPOSED_AFTER = re.compile(
    r"^,\s+(?:the|a|an)\s+(?P<first>[\w'’-]+)(?P<rest>[^,;:()—–.!?]*)(?P<end>[,;:.!?]|$)"
    r"(?P<next>\s*[\w'’-]*)", re.I)
"""An appositive after a long name and its abbreviation: ", the angle you see across the
field stop, typically …", ", a text format for nested data." Read by ``_apposed_after``."""


_OPENERS = {"a": "a", "an": "a", **dict.fromkeys(
    "the this these those its their our your my his her".split(), "the")}
"""How a noun phrase opens, as coordination matches it: with "a" or "an", or with "the" or a
word that points or owns as "the" does. A phrase with neither opens bare."""


def lists_on(after: str) -> bool:
    """Whether ``after``, an appositive and what follows it (", a tripod for steadiness and a
    case."), goes on as a list, so that the appositive is one more thing listed, not what
    the name before it is: "Pack binoculars with a wide field of view (FOV), a tripod for
    steadiness and a case." lists three things. "and" and "or" join like with like, the
    nearest like first: a phrase after them that opens as the appositive does (both with
    "a") and not as the noun phrase right before them ("steadiness", bare; "the night" in
    "a tripod for the night and a case") joins the appositive, as a list's last item. One
    that opens as the phrase before it joins that one, inside the appositive: "the rules a
    client and a server follow", "the angle between the eyepiece and the field stop",
    "the delay between sending a probe and hearing its reply". After the comma that
    closes the appositive, "and" or "or" with a phrase that opens as it does go on with
    the list too ("…, a gauge for humidity, and a thermometer")."""
    tokens = [token.lower() for token in _NOUN_PHRASE_TOKEN.findall(after)]
    if len(tokens) < 2 or tokens[0] != "," or tokens[1] not in _OPENERS:
        return False
    head = nearest = _OPENERS[tokens[1]]
    for at, token in enumerate(tokens[2:], 2):
        if token in ("and", "or"):
            joined = _OPENERS.get(tokens[at + 1], "bare") if at + 1 < len(tokens) else None
            if joined == head != nearest:
                return True
            nearest = joined
        elif token == ",":
            if at + 1 < len(tokens) and tokens[at + 1] in ("and", "or"):
                nearest = None  # the appositive is closed: what follows may join it only
            else:
                return False
        elif not token[0].isalnum():
            return False  # the sentence or its clause ends
        elif token in _OPENERS:
            nearest = _OPENERS[token]
        elif token in _SETS_APART:
            nearest = "bare"  # "for steadiness": a phrase after a preposition opens bare
    return False


def _apposed_after(after: str) -> bool:
    """Whether ``after``, the words after a long name and its abbreviation, open with an
    appositive that says what the thing is: an article, a describing word and a noun phrase
    that sets its thing apart (``_sets_apart``: "the angle you see across …", "a text format
    for nested data", "the name inside the function"), ending the sentence or its clause,
    not a list going on ("…, a tripod for steadiness, and a chart"; "…, an upright image and
    a bright view" sets nothing apart; "…, a tripod for steadiness and a case":
    ``lists_on``) nor a remark ("the topic of the next lesson": ``_REMARK_HEADS``; "the
    most important number to check" judges, as the appositive that follows a name opening
    the sentence does: ``_apposed``)."""
    match = _APPOSED_AFTER.match(after)
    if match is None or not describes(match["first"]) or not is_plain_noun_phrase(
            match["first"]):
        return False
    words = [match["first"].lower(), *match["rest"].lower().split()[:2]]
    if any(word in _REMARK_HEADS for word in words):
        return False  # "…, the topic of the next lesson"
    if match["end"] == "," and match["next"].strip().lower() in ("and", "or"):
        return False  # "…, a tripod for steadiness, and a chart"
    return _sets_apart(match["rest"] + match["end"]) and not lists_on(after)


def _in_passing(before: str, after: str) -> bool:
    """Whether a long name and its abbreviation, ``before`` and ``after`` them in their
    sentence, are written in passing: not the subject that opens the sentence, nor what a
    verb says a thing is or is called (``_INTRODUCED_AFTER``), nor, after an opening phrase, the
    subject of the sentence's verb ("In practice, the true field of view (TFOV) is …", "One
    such tool, continuous integration (CI), can run …": ``_SUBJECT_VERB``),
    nor followed by a colon or dash that says it ("… (FFN): two matrix multiplications …").
    "Binoculars show a wide field of view (FOV) and an upright image" and "Each has a focal
    length and an apparent field of view (AFOV), …" spell a name out on the way to
    something else."""
    if (_INTRODUCED_AFTER.search(before) or _EXPLAINED_AFTER.match(after)
            or _apposed_after(after)):
        return False
    return not (_INTRODUCED_SUBJECT.search(before) and _SUBJECT_VERB.match(after))


_BE_THE = re.compile(r"\b(?:is|are|was|were)\s+the\s")
"""What ``_MEASURE_IS`` needs, looked for first: its own search is slow to fail."""


def sentence_definitions(sentence: str, emphasis: tuple[str, ...] = ()) -> list[Found]:
    """Every definition one sentence makes, the most telling rule first; questions make none."""
    if sentence.rstrip(" \"'”’)").endswith("?"):
        return []
    found = [Found(long, "abbreviation", at, abbr,
                   passing=_in_passing(sentence[:begin], sentence[end:]))
             for long, at, abbr, begin, end in abbreviations(sentence)]
    found += [Found(long, "abbreviation", at, abbr)  # "ICMP, the Internet Control …, is …"
              for long, at, abbr, _, _ in apposed_abbreviations(sentence)]
    lowered = _lowered(sentence)
    found += _by_cue(sentence, lowered, emphasis)
    # _POINTING, _SETTING and _MEASURE_IS match at the sentence's start, after a clause break
    # (;:—–) or after ", and" (", but", ", so"); _CONTRAST needs ", not" and then a dash, colon
    # or semicolon.
    breaks = ";" in sentence or ":" in sentence or "—" in sentence or "–" in sentence
    comma = "," in sentence
    setting: list[Found] = []
    if ("this" in lowered or "that" in lowered or "these" in lowered or "those" in lowered) and (
        breaks or lowered.startswith("th") or (comma and "and" in lowered)
    ):
        found += _pointing_back(sentence)
    if (
        breaks or lowered[:1] in ("h", "w", "t")
        or (comma and ("and" in lowered or "but" in lowered or "so" in lowered))
    ) and _may_set(sentence, lowered):
        setting = _setting(sentence)
    if not setting and (breaks or lowered.startswith("the ") or comma) and (
            _BE_THE.search(lowered)):
        setting = _measured(sentence)  # "The number of rows a page holds is …" is both
    found += setting
    if comma and "not" in lowered and (breaks or "--" in sentence):
        found += _contrasting(sentence)
    if "defined" in lowered:
        found += _defining(sentence)
    if comma and (first := sentence.find(", ")) > 0 and sentence.startswith(
            (", the ", ", a ", ", an "), first):
        found += _apposed(sentence)  # "Alkalinity, the water's capacity to buffer acid, is …"
    if " means " in sentence:
        found += _means(sentence)  # "Dialling in means adjusting grind, dose and time …"
    if " call" in lowered:  # "a thin clay slurry called slip", "the ring potters call a *foot*"
        found += _called_thing(sentence, emphasis)
    if emphasis:
        found += _emphasised(sentence, emphasis)
        found = [_marked(hit, emphasis) if hit.alone else hit for hit in found]
    kept = (_past_plural_noun(hit, sentence, emphasis) if hit.kind == "naming" else hit
            for hit in found)
    return [hit for hit in kept if hit is not None]


_PLURAL_DEMONSTRATIVE = re.compile(r"(?<![\w'’-])(?:these|those)\s+$", re.I)
_CALL_THESE = re.compile(r"\bcalls?\s+(?:these|those)\s+$", re.I)
_PLURAL_NOUN = re.compile(r"(?:[\w'’-]+\s+){0,2}?[a-z][\w'’-]*[^su's]s\s+(?=\S)", re.I)
"""A word in -s, not -ss, -us or -is, up to two words before it, and a word after it:
"outputs logits", "raw scores logits", "two raw scores logits". The first such word: in
"these numbers points of interest" the name is "points of interest"."""
_COUNT = (r"(?:\d+|two|three|four|five|six|seven|eight|nine|ten|both|few|several|many|multiple|"
          r"numerous)")
_COUNTED = re.compile(rf"{_COUNT}\s", re.I)
_HOW_OFTEN = re.compile(rf"(?:{_COUNT}\s+times|(?:number|couple)\s+of\s+times|"
                        r"(?:second|third|\w+th|whole|long)\s+time)", re.I)
"""How often or how long something is called, which no cue's name is: "The handler is called
three times", "We call this function a second time", "… a number of times", "… the whole
time". A name may end in "time" or "times" ("the round-trip time", "these delays response
times"), so only counts, ordinals and these few words before it say how often."""


_COURSE_PART = (r"(?:course|lesson|chapter|episode|section|tutorial|book|workshop|unit|guide|"
                r"notes|text)s?")
_NAME_HOLDS = (
    r"(?:(?:in|throughout|across|for)\s+(?:the\s+rest\s+of\s+)?(?:(?:this|that|the|these|"
    r"those|our|every|each|all|all\s+the|later|future|following|coming|remaining|other|"
    r"the\s+following|the\s+coming|the\s+remaining|the\s+other|the\s+next)\s+)?"
    rf"(?:{_COURSE_PART})(?:\s+(?:that|which)\s+follows?|\s+ahead|\s+to\s+come)?"
    r"|from\s+(?:now|here|this\s+point)\s+on(?:wards?)?|henceforth|hereafter|throughout"
    r"|in\s+what\s+follows|in\s+the\s+following)"
)
"""Words after a name that say where or from when the name holds, which no call of a
function is said with: "in every lesson", "in the rest of the course", "throughout this
course", "from now on", "in what follows". Only a part of a course follows the preposition:
"in every test", "throughout the program" and "across modules" say where a thing is called."""
_NAME_CLOSED = re.compile(rf"^[\"”’)]*\s*(?:{_NAME_HOLDS}[\"”’)]*\s*)?"
                          r"(?:[.!]*\s*$|,(?!\s*(?:and\s+)?then\b)|[;:(—–]|--|for\s+short\b)",
                          re.I)
"""After a name that is all the words after "these": the sentence ends, or a comma, a colon,
a dash or a bracket closes the name ("We call these stop words, and …"), or "for short",
right after it or after words that say where the name holds (``_NAME_HOLDS``: "Next, we call
this pattern memoization in every lesson."). A comma before "then" goes on to the next thing
called ("We call this loader, then the parser.")."""


def _past_plural_noun(hit: Found, sentence: str, emphasis: tuple[str, ...] = ()) -> Found | None:
    """"We call these outputs logits" names logits: after "these" or "those", a plural noun is
    what is named, as a listed kind is ("these values logits"), since the first word of a
    compound name is singular; so are the words before it, which describe what is named
    ("these raw scores logits" names logits too). "We call these stop words" names stop
    words: no word follows the plural noun. But after a number ("We call these two
    functions once per step") the plural noun is what is called, and nothing is named.

    In a programming lesson "call" also calls functions, and the words after them then say
    where, when or how: "We call these functions from both scripts", "… directly", "… per
    request", "… afterwards". So the name must end the sentence (or a comma, colon, dash or
    bracket must close it, or the lesson mark it), and the words after a plural noun must be
    a name: not a phrase that opens with a preposition ("per request"), nor one that says
    how, when or how often (``_says_how``)."""
    if not _PLURAL_DEMONSTRATIVE.search(sentence[: hit.start]):
        return hit
    noun = _PLURAL_NOUN.match(hit.term)
    if noun is None and (_COUNTED.match(hit.term) or _says_how(hit.term)):
        return None  # "We call these two functions once …", "We call those lazily."
    if noun is None and _is_called_thing(hit.term) and _CALL_THESE.search(
            sentence[: hit.start]):
        return _called_alone(hit, sentence, emphasis)  # "We call these getters."
    name = hit.term[noun.end():] if noun else hit.term
    if noun and (not term_or_none(name, strict=True) or _says_how(name)):
        return None
    closed = _NAME_CLOSED.match(_after(sentence[hit.start:], hit.term))
    if not closed and name.lower() not in _marked_names(emphasis):
        return None
    return replace(hit, term=name, start=hit.start + noun.end(), alone=None) if noun else hit


def _called_alone(hit: Found, sentence: str, emphasis: tuple[str, ...]) -> Found | None:
    """"We call these scripts.": a thing one calls (``_CALLED``), alone after "call these" or
    "call those", is what the sentence calls as often as what it names. It names when the
    sentence ends right after it and the lesson set it in bold or italics ("We call these
    *scripts*."; a quoted name is read as quoting); unmarked, it names only a term the
    glossary has (``Found.called``), and words after it ("We call these getters twice.")
    say how they are called."""
    if not _ENDS.match(_after(sentence[hit.start:], hit.term)):
        return None
    if hit.term.lower() in _marked_names(emphasis):
        return hit
    if _CALL_STEP.match(sentence):
        return None  # "Now we call these functions." is a step, as "Then …" is
    return replace(hit, glossary_only=True, called=True)


_CALL_STEP = re.compile(r"^\W*(?:now|here)\b", re.I)
"""Openers that make "we call these …" a step of what the lesson does, besides
``_IN_SEQUENCE``'s ("Now we call these functions.", "Here we call these helpers.")."""


_HOW_OR_WHERE = frozenset("inline online offline overnight upfront".split())
"""Words that say how or where something is done as often as they describe a thing ("online
learning", "an upfront cost"), so they may be in a term and are no ``_BREAK`` word; alone
after "these functions" they say how they are called. English marks no such word as an
adverb, so they are listed; the rest end in -ly or are ``_BREAK`` words."""


def _says_how(name: str) -> bool:
    """Whether the words after "We call these functions" say how, when or how often they are
    called, not what they are called: an adverb in -ly ("lazily", "daily"), a word of
    ``_HOW_OR_WHERE`` alone ("inline"), or a count ("three times")."""
    lowered = name.strip().lower()
    return lowered.endswith("ly") or lowered in _HOW_OR_WHERE or bool(_COUNTED.match(lowered))


_INTENSIFIER = re.compile(r"\b(?:very|really|quite|rather|so|too)\s+", re.I)
"""Words that grade a describing word ("these very large readings"), not function words there."""
_DESCRIBED = re.compile(r"(?P<words>(?:[\w'’-]+\s+){0,4}?)[a-z][\w'’-]*[^su's]s\s+(?=\w)", re.I)


def _described(rest: str) -> int | None:
    """Where the name starts in "We call these large unfiltered readings spikes.": past a
    plural noun and up to four words describing it, when one name follows it and ends the
    sentence. ``_past_plural_noun`` reads the same form in a term already taken, so the
    describing words must pass as a term there: a first word such as "large" or "new", or
    more than two of them, were refused with the name. Here they need only be a plain noun
    phrase (no function word: "these functions from both scripts" describes nothing), and
    the sentence's end is what says the last word is a name and not how or when something
    is called ("We call these small functions twice."). Nor may the name say how or when:
    "We call these expensive functions lazily", "… inline", "… three times" (``_says_how``)."""
    described = _DESCRIBED.match(rest)
    if described is None or not is_plain_noun_phrase(_INTENSIFIER.sub("", described["words"])):
        return None
    name = rest[described.end():]
    term = take_term(name, strict=True)
    if not term or _says_how(term) or not _ENDS.match(_after(name, term)):
        return None
    return described.end()


@lru_cache(maxsize=4096)
def _marked_names(emphasis: tuple[str, ...]) -> frozenset[str]:
    """What a section set in bold or italics, as names to compare a term with: lower case,
    without the quotes around them."""
    return frozenset(m.strip("\"'“”‘’ ").lower() for m in emphasis)


def _marked(hit: Found, emphasis: tuple[str, ...]) -> Found:
    """A name the lesson set in bold or italics is the name: "this value **perplexity**"
    names perplexity, "this **type inference**" type inference."""
    marked = _marked_names(emphasis)
    if hit.term.lower() in marked:
        return replace(hit, alone=None)
    if hit.alone and hit.alone.lower() in marked:
        return replace(hit, term=hit.alone, start=hit.start + len(hit.term) - len(hit.alone),
                       alone=None)
    return hit


# Most sentences define nothing, and the rules' regular expressions (case-blind, so with no
# literal prefix for the engine to skip to) cost far more than a look for the words and marks a
# rule cannot match without. Each rule runs only when they are in the sentence: every check is
# a necessary condition of the rule's patterns, so it never changes what is found.
_FOLD = str.maketrans({"İ": "i", "ı": "i", "ſ": "s"})
"""The letters outside ASCII that ``re.I`` matches to ASCII letters but ``str.lower`` does not
lower to them (the Kelvin sign lowers to "k" by itself)."""


def _lowered(sentence: str) -> str:
    """The sentence in lower case, so a plain ``in`` sees every word a ``re.I`` pattern would."""
    return sentence.lower() if sentence.isascii() else sentence.translate(_FOLD).lower()


def _may_set(sentence: str, lowered: str) -> bool:
    """Whether ``_SETTING``'s words and then ``_SETTING_IS``'s (case-sensitive) are there."""
    return (
        ("how" in lowered or "what" in lowered or "which" in lowered or "knob" in lowered
         or "setting" in lowered or "dial" in lowered or "parameter" in lowered
         or "switch" in lowered or "control" in lowered or "number" in lowered
         or "amount" in lowered)
        and ("is" in sentence or "are" in sentence)
        and ("the" in sentence or "what" in sentence)
    )


_ASKS_WHAT = re.compile(r"\bwhat\s+(?:\w+\s+)?$")
_WHY_NAMED = re.compile(r"\b(?:(?:this|that|which|it)\s+(?:is|was)|that[’']s)\s+why\s+"
                        r"(?:[\w'’-]+\s+){0,4}$", re.I)
"""Right before a naming cue: "This is why the command is called 'move'.", "That is why we
call it a heap.", "…, which is why the structure is known as a heap." Such a sentence says
where a name the reader has met comes from (often an instance's, a command's or a file's),
not what a term means; the term, if any, was defined before it. So the cue names nothing
there. Other "why" before a cue asks or promises a reason and may still name: "We will see
why this structure is called a trie.", "This explains why it is called a deque, a …"."""
_IN_SEQUENCE = re.compile(r"^\W*(?:then|next|finally|first|afterwards|after\s+that)\b[\s,]*$",
                          re.I)
"""A sentence that opens with a step of a sequence before "we call": "Then we call these
functions.", "Finally we call those methods." There "call" is the step done, not a naming,
unless a name follows the demonstrative all the same (``_names_after_step``)."""
_AS_NEXT = re.compile(r"\s+as\b")
_OPENS_ARTICLE = re.compile(r"^\s*(?:a|an|the)\s", re.I)
_DEMONSTRATIVE_BEFORE = re.compile(r"(?<![\w'’-])(?:this|that|these|those)\s+$", re.I)


def _names_after_step(match: re.Match[str], sentence: str, rest: str, found: str,
                      emphasis: tuple[str, ...]) -> bool:
    """Whether "we call this …" after a step of a sequence (``_IN_SEQUENCE``) names all the
    same, where one calls a function with its noun ("Then we call this function.") or with
    nothing ("Then we call these."). It names when

    - an article opens a name right after the demonstrative ("First, we call this a lost
      update."), or
    - the demonstrative holds a kind of thing (``_PRONOUN_KINDS``) that no program calls
      (``_CALLED``: not "this method", "this procedure"), and a name follows it, after an
      article or not: "Next, we call this situation a race condition.", "Finally, we call
      this approach dynamic programming."

    As after "We call these functions", the name must end the sentence or be closed or
    marked: "Finally, we call this an hour later." and "Then we call this approach
    instead." say when or how. How often it is called is refused before (``_HOW_OFTEN``:
    "… a second time.")."""
    groups = match.groupdict()
    if (groups["strict"] or "").lower() in ("this", "that", "these", "those"):
        opens = bool(_OPENS_ARTICLE.match(rest))
    else:
        noun = groups["kind"] or groups.get("named") or ""
        opens = (" " not in noun and _singular(noun) in _PRONOUN_KINDS
                 and _singular(noun) not in _CALLED
                 and bool(_DEMONSTRATIVE_BEFORE.search(sentence[: match.start(
                     "kind" if groups["kind"] else "named")])))
    return opens and bool(_NAME_CLOSED.match(_after(rest, found))
                          or found.lower() in _marked_names(emphasis))


def _by_cue(sentence: str, lowered: str, emphasis: tuple[str, ...] = ()) -> list[Found]:
    quote = '"' in sentence or "“" in sentence or "‘" in sentence
    call = "call" in lowered
    term = "term" in lowered
    known = "known" in lowered
    name = "name" in lowered or "word" in lowered or "jargon" in lowered or "label" in lowered
    refer = "refer" in lowered
    if not (quote or call or term or known or name or "dub" in lowered or refer
            or "goes" in lowered):
        return []
    out: list[Found] = []
    why = "why" in lowered
    called = call and "called" in lowered
    what = "what" in lowered
    naming = (
        called or term or known or "dubbed" in lowered or refer,  # "termed", "referred"
        what and (call or term),
        what and call,
        call or term or "dub" in lowered,
        refer,
        known or "goes" in lowered,
        called and ("," in sentence or "(" in sentence),
        called,
        " calls " in lowered,
    )
    for pattern, may_match in zip(_NAMING, naming, strict=True):
        if not may_match:
            continue
        for match in pattern.finditer(sentence):
            if why and _WHY_NAMED.search(sentence[: match.start()]):
                continue  # "This is why the command is called 'move'." explains a name
            if (group := match.groupdict().get("group")) and not _group_names(
                    sentence[: match.start()], group):
                continue  # "Then both handlers call this …", "Perhaps call this …"
            if (group := group or match.groupdict().get("person")) and not group.endswith(
                    "s") and not _person_names(match["modifier"], group):
                continue  # "The compiler calls this …", "Every critic calls this …"
            if ((named := match.groupdict().get("named")) and not is_plain_noun_phrase(named)
                    and not (match := _WE_CALL_UNNAMED.match(sentence, match.start()))):
                continue  # "We call these methods in a loop." says where they are called
            rest, at = match["rest"], match.start("rest")
            noun = match.groupdict().get("kind")
            # "We call this function twice." calls a function: after a bare "this" or a kind
            # (or after "refer to … as") the name may not be a lone vague word
            strict = bool(match.groupdict().get("strict") or noun)
            if (match.groupdict().get("strict") or "").lower() in ("these", "those") and (
                    described := _described(rest)):
                rest, at = rest[described:], at + described  # "these large readings spikes."
            found = take_term(rest, strict=strict)
            if found and (particle := _PARTICLE.match(_after(rest, found))) and (
                    " " not in found and found.lower().endswith("ing")
                    and _NAME_CLOSED.match(_after(rest, found)[particle.end():])):
                found = f"{found} {particle['particle']}"  # "Baristas call this dialling in."
            ordinal = None if found else _ORDINAL_NAME.match(rest)
            if ordinal and (found := _ordinal_name(ordinal)):
                at += ordinal.start("name")  # "We call this first crack."
            alone, referring = None, False
            if (found and noun and " " not in found and noun.lower() in _COMPOUNDING
                    and (both := take_term(sentence[match.start("kind"):], strict=strict))):
                alone, found, at = found, both, match.start("kind")  # "this type inference"
                rest = sentence[at:]
                referring = noun.lower() not in _OPENS_COMPOUNDS  # "this pattern memoization"
            if found and _HOW_OFTEN.fullmatch(found):
                continue  # "The handler is called three times."
            if found and pattern in _WHAT_CALLS and _describes_only(found):
                continue  # "A quick bake is what people call fast."
            if found and _calls_this(match, rest, found, emphasis):
                continue  # "We call this script nightly.", "Next, we call this method."
            if (found and pattern is _WE_CALL and _IN_SEQUENCE.match(sentence[: match.start()])
                    and not _names_after_step(match, sentence, rest, found, emphasis)):
                continue  # "Then we call these functions." is a step
            if found and not _AS_NEXT.match(_after(rest, found)):  # "known as long as"
                if pattern in (_KNOWN_AS, _ALSO_CALLED) and (
                        subject := _subject_named_again(sentence, at, rest, found)):
                    out.append(subject)  # "Propolis, also called bee glue, is a resin …"
                    continue
                kind = "quoting" if _OPENS_QUOTED.match(rest) else "naming"
                other = _other_name(sentence, match.start(), found) if (
                    pattern is _KNOWN_AS) else None
                second = _second_name(rest, found) if (
                    pattern is _NAMING[0] and not (alone or other or group or ordinal)) else None
                out.append(Found(found, kind, at, abbreviation=second, alone=alone,
                                 referring=referring, other=other,
                                 glossary_only=bool(group or ordinal)))
    if term or name:
        for match in _NAME_IS.finditer(sentence):
            if (found := take_term(match["rest"])):
                kind = "quoting" if _OPENS_QUOTED.match(match["rest"]) else "naming"
                out.append(Found(found, kind, match.start("rest")))
    if quote and (" is " in sentence or " are " in sentence or " was " in sentence
                  or " were " in sentence):
        out += _quoted_complement(sentence)
    if quote and (
        term or name or "phrase" in lowered or "expression" in lowered or "means" in sentence
        or "refers" in sentence or "stands" in sentence or "short" in sentence
    ):
        out += _quoted(sentence)
    return out


def _describes_only(name: str) -> bool:
    """Whether ``name``, what "what people call" gives ("… is what people call fast"), says
    how a thing is rather than name it: one word that judges or grades (``describes``:
    "fast", "good", "cheap"), a state a past participle gives ("done", "overproofed") or an
    everyday noun (``is_vague``: "the problem"). After "what people call" a name stands
    bare or with an article as the complement of "call", as an adjective does, so the word
    itself must tell: "what bakers call dividing", "what statisticians call a confounder"
    and names of several words ("a normal distribution") name."""
    if " " in name:
        return False
    word = name.lower()
    return (is_vague(word) or not describes(word) or word in _IRREGULAR_PARTICIPLES
            or (len(word) > 4 and word.endswith("ed") and not word.endswith("eed")))


_PARTICLE = re.compile(r"\s+(?P<particle>in|out|up|down|off|on|over|back)(?![\w'’-])", re.I)
"""The particle of a phrasal verb, which a name in -ing holds when it ends the name: "Baristas
call this dialling in.", "We call this warming up." (but "… dialling in the grinder")."""


_PARTICLE_AT_END = re.compile(rf"(?<=ing){_PARTICLE.pattern}$", re.I)
"""A name's closing particle, after a word in -ing ("dialling in")."""


_ORDINAL_NAME = re.compile(r"(?:(?:the|a)\s+)?(?P<name>(?P<ordinal>first|second|third)\s+"
                           r"(?P<rest>[\w'’-].*))", re.I | re.S)


def _ordinal_name(match: re.Match[str]) -> str | None:
    """A name a naming cue gives that opens with an ordinal ("Roasters call this first
    crack.", "This popping is called first crack."). ``take_term`` ends a name at "first",
    which far more often says when or in what order ("We call this first, then …", "is
    called first by the loader", "the first time"); so the ordinal joins only a name of its
    own that follows it, not an everyday noun or "time" ("is called first thing",
    "the first time a row changes"), and the hit names a term only where the glossary has
    it (``Found.glossary_only``)."""
    name = take_term(match["rest"], strict=True)
    if not name or not match["rest"].startswith(name) or name.split()[0].lower() in (
            "time", "times", "thing", "things", "place", "step", "steps", "one", "ones"):
        return None
    return f"{match['ordinal']} {name}"


_GROUP_OPENS = re.compile(r"(?:^|[,;:—–(]\s*)\W*(?P<words>(?:[\w'’-]+\s+){0,2})$")
_GROUP_WORDS = frozenset(
    "the most many some all other our their sometimes often usually generally typically".split())
_NOT_GROUP = frozenset("""perhaps besides plus yes lets critics sceptics skeptics cynics detractors
    opponents purists snobs""".split())
"""No naming group: words that end in -s but name no one, and people who judge rather than
name ("Critics call this nonsense.", "Purists call this cheating.")."""
_CALLERS = frozenset("""caller worker thread process job task class object module plugin
    component program app application package unit step stage layer""".split())
"""Parts of a program that call a thing, besides the ``_CALLED`` ones: "Both workers call
this cache." is no naming."""


def _group_names(before: str, group: str) -> bool:
    """Whether ``group``, a plural noun before "call this" (``_GROUP``), is the subject of a
    naming by a group of people: "Roasters call this first crack.", "Most home roasters call
    this …", "In Italy, baristas call this a ristretto." It opens the sentence or follows a
    comma, after up to two words that are a determiner or describe it ("Most", "Coffee"),
    not a step ("Then", "First": ``_IN_SEQUENCE``) or a clause word ("When", "If"); and it is
    no word that ends a term ("Sometimes", "Its"), no people who judge ("Critics call this
    nonsense.": ``_NOT_GROUP``), nor a thing a program calls or a part of one ("The handlers
    call this …", "Both workers call this …": ``_CALLED``, ``_CALLERS``), which calls rather
    than names. "Sometimes", "usually" and the like may come before it ("Sometimes roasters
    call this …")."""
    opens = _GROUP_OPENS.search(before)
    word = group.lower()
    return bool(opens) and not (
        word in _NOT_GROUP or term_or_none(group) is None or _is_called_thing(group)
        or word[:-1] in _CALLERS or word.endswith("es") and word[:-2] in _CALLERS
    ) and all(w.lower() in _GROUP_WORDS or term_or_none(w) for w in opens["words"].split())


_PERSON_ENDINGS = ("er", "or", "ist", "yst", "ian", "ista", "eer", "ant", "ent")
_PERSONS = frozenset("chef cook expert nurse pilot pro novice amateur enthusiast".split())
_NOT_PERSON = frozenset("""critic sceptic skeptic cynic detractor opponent purist snob
    compiler interpreter browser scheduler router container controller processor iterator
    allocator debugger linker runner dispatcher manager reader writer consumer producer
    publisher subscriber observer emitter renderer provider adapter executor collector
    monitor timer counter buffer filter driver editor computer operator tracker logger
    checker linter formatter bundler optimizer optimiser encoder decoder tokenizer tokeniser
    classifier trainer agent parent constant element event paper""".split())
"""Singular nouns before "calls this" that are no person naming a thing: people who judge
(as ``_NOT_GROUP``), and parts of a program ending as person nouns do ("The compiler calls
this …", "Each iterator calls this …")."""


def _person_names(modifier: str | None, person: str) -> bool:
    """Whether "Every <modifier> <person> calls this …" (``_SOMEONE_CALLS``) is a person naming
    a thing: a singular noun that ends as person nouns do (roaster, barista, statistician,
    engineer) or is one (``_PERSONS``), no thing a program calls or a part of one
    (``_CALLED``, ``_CALLERS``, ``_NOT_PERSON``), and a describing word before it at most."""
    word = person.lower()
    return (word in _PERSONS or word.endswith(_PERSON_ENDINGS)) and not (
        word in _NOT_PERSON or word in _CALLED or word in _CALLERS
        or term_or_none(person) is None
        or (modifier is not None and term_or_none(modifier) is None))


_CALLED = frozenset(
    """function method procedure routine subroutine script query hook api service endpoint
    constructor destructor callback handler helper command program macro lambda closure
    generator coroutine decorator wrapper trigger webhook tool utility binary executable
    module library server client getter setter accessor mutator validator loader parser
    serializer deserializer test fixture factory builder listener resolver""".split()
)
"""Things a program calls: after "We call this" such a word alone is what is called, and so
is its plural alone after "We call these" ("We call these getters.")."""


def _is_called_thing(plural: str) -> bool:
    """Whether ``plural`` is the plural of a thing one calls (``_CALLED``): getters, queries."""
    word = plural.lower()
    return (word.endswith("s") and word[:-1] in _CALLED
            or word.endswith("ies") and word[:-3] + "y" in _CALLED
            or word.endswith("es") and word[:-2] in _CALLED)


_OPENS_NAME = re.compile(r"^\s*(?:(?:a|an|the)\s|[\"“‘'])", re.I)


def _calls_this(match: re.Match[str], rest: str, found: str, emphasis: tuple[str, ...]) -> bool:
    """Whether "we call this/that …" calls a thing rather than names one.

    In a programming lesson "call" also calls functions, and the words after "this" are then
    the thing called, not a name: "We call this script nightly.", "… this query from
    Python.", "… this API twice per request.", "Next, we call this method." A naming has a
    name right after "this" ("We call this memoization.", "We call this gradient clipping.")
    or after "this <kind>" ("We call this technique memoization.", ``_THIS_KIND``), or an
    article or a quote opens it ("We call this a lost update."); what tells the two apart:

    - a lone word that is a thing one calls (``_CALLED``: script, query, hook, API …) or a
      kind (``_PRONOUN_KINDS``: method, process …) is what is called, even when it ends the
      sentence: "Next, we call this method." Named things are mass nouns (memoization,
      caching, dropout); a count noun after "this" points at one thing of the lesson's,
      unless the lesson set it in bold or italics and it ends the sentence ("We call this
      *hook*."). The glossary decides nothing here: a count noun named takes an article
      ("We call this a hook.");
    - any other name must end the sentence, or a comma, colon, dash or bracket must close it,
      or "for short" follow it, or the lesson set it in bold or italics: words after it say
      where, when or how it is called ("from Python", "nightly", "before every commit",
      "with no arguments", "every minute"), as after "We call these functions" (see
      ``_past_plural_noun``). So "We call this memoization in Python." names nothing either.

    "It" and "them" are left alone: nothing stands between them and the name."""
    if (match.re not in (_WE_CALL, _WE_CALL_UNNAMED, _SOMEONE_CALLS)
            or match["verb"].lower() not in ("call", "calls")
            or (match["strict"] or "").lower() not in ("this", "that") or _OPENS_NAME.match(rest)):
        return False
    if " " not in found and (found.lower() in _CALLED or _singular(found) in _PRONOUN_KINDS):
        # "We call this *hook*." names; unmarked, a count noun with no article is what is
        # called (a name would be "a hook"), whatever the glossary holds
        return not (found.lower() in _marked_names(emphasis)
                    and _ENDS.match(_after(rest, found)))
    if found.split()[-1].lower() in _HOW_OR_WHERE:
        return True  # "We call this lambda inline." says how
    if _NAME_CLOSED.match(_after(rest, found)):
        return False
    return found.lower() not in _marked_names(emphasis)


def _quoted(sentence: str) -> list[Found]:
    out = []
    for match in _QUOTED.finditer(sentence):
        before = sentence[: match.start()]
        if _ASKS_WHAT.search(before):
            continue  # 'what exactly "open" means' asks, it does not define
        cue = _QUOTE_CUE.search(before) and _EXPLAINS.match(match["after"])
        if (cue or _QUOTE_MEANS.match(match["after"])) and (
            term := take_term(match["term"], whole=True)
        ):
            out.append(Found(term, "quoting", match.start("term")))
    return out


def explains_itself(sentence: str, found: Found) -> bool:
    """Whether ``sentence`` says what ``found``'s term is right after naming it, past a colon
    or a dash (``_EXPLAINS``): 'The word for this is "airtime fairness": every client gets
    the same share …' leaves nothing to the sentence before, though it opens with a pointer."""
    after = _after(sentence[found.start:], found.term).lstrip("\"”’'*_)")
    return bool(_EXPLAINS.match(after))


def _quoted_complement(sentence: str) -> list[Found]:
    """'… until the next cleanup is a "dead tuple".' (``_QUOTED_COMPLEMENT``)."""
    for match in _QUOTED_COMPLEMENT.finditer(sentence):
        if (match["last"].lower() not in _PRONOUNS and _CLAUSE_ENDS.match(match["after"])
                and not is_plain_noun_phrase(_ARTICLE.sub("", match["subject"]))
                and (term := take_term(match["quoted"], whole=True, strict=True))):
            return [Found(term, "quoting", match.start("term"))]
    return []


def _after(rest: str, term: str) -> str:
    at = rest.find(term)
    return rest[at + len(term):] if at >= 0 else "?"


_SECOND_NAME = re.compile(r"^\s+or\s+(?P<name>[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*){0,2})"
                          r"(?P<end>[\"”’)]*\s*(?:[.!;:—–]|--|$))")
"""After the name "is called" gives: "or", a second name in small letters with no article,
and the end of the sentence or of its clause: "… is called NAT loopback or hairpinning;"."""


def _second_name(rest: str, found: str) -> str | None:
    """The second name "is called X or Y" gives one thing, kept as the term's other name as a
    short form is (``Found.abbreviation``): "Reaching your own public address from inside is
    called NAT loopback or hairpinning." makes hairpinning NAT loopback's. "Or" joins two
    things as often ("is called a list or a tuple, depending on …", "is called once or
    twice"), so the second name must be bare (no article, no capital), one to three words
    the name reader takes whole, and end the sentence or a clause, with no comma: "… is
    called NAT loopback or hairpinning, depending on the vendor" names hairpinning nothing."""
    match = _SECOND_NAME.match(_after(rest, found))
    if match is None or (name := take_term(match["name"], whole=True, strict=True)) != (
            match["name"]) or _HOW_OFTEN.fullmatch(name):
        return None
    return name


def _other_name(sentence: str, cue: int, found: str) -> str | None:
    """The name that "known as" at ``cue`` gives ``found`` to, as another name of one thing:
    "records" in "Records, also known as rows, …" (``_GIVEN_ANOTHER``). None when no adverb
    says the two are one thing, or when the name before is part of ``found``: "NAT" in "…
    layers of NAT, known as carrier-grade NAT," is what the new name is a kind of."""
    if not (before := _GIVEN_ANOTHER.search(sentence, 0, cue)):
        return None
    other = term_before(sentence[: before.start()])
    if other is None:
        return None
    inner, outer = _word_keys(other), _word_keys(found)
    if any(outer[at: at + len(inner)] == inner for at in range(len(outer) - len(inner) + 1)):
        return None  # "NAT, also known as carrier-grade NAT": a kind of it, not it
    return other


def _subject_named_again(sentence: str, at: int, rest: str, name: str) -> Found | None:
    """"Propolis, also called bee glue, is a resin …", "A hash join (also known as a hash
    match) builds …": the sentence's subject, given another name between commas or in
    brackets (``_SUBJECT_NAMED_AGAIN``) before its verb, is the term the sentence says
    what it is of, and ``name`` (at ``at``, ``rest`` the words from it on) its other name,
    kept as a short form is (``Found.abbreviation``): a glossary that has either links the
    sentence, and a search for the other finds the term's card. Not where the subject is
    the kind of thing named, not a name: one a program calls or has by a name of its own
    ("The function, also called glob, lists files.": ``_CALLED``, ``_ONE_OF_A_KIND``), a
    kind or an everyday noun alone ("The method, also called …"); nor where the new name
    is made of it ("Double NAT, also known as carrier-grade NAT, …": a kind of it), nor
    where no verb follows the name ("Honey, also called nectar, and pollen …")."""
    match = _SUBJECT_NAMED_AGAIN.match(sentence[:at])
    if match is None:
        return None
    subject = take_term(match["term"], whole=True, strict=True)
    if subject != match["term"] or not is_plain_noun_phrase(subject):
        return None
    last = subject.split()[-1].lower()
    if last in _CALLED or last in _ONE_OF_A_KIND or (
            " " not in subject and _singular(last) in _PRONOUN_KINDS):
        return None  # "The function, also called glob, …" names one function
    inner, outer = _word_keys(subject), _word_keys(name)
    if any(outer[i: i + len(inner)] == inner for i in range(len(outer) - len(inner) + 1)):
        return None  # "NAT, also known as double NAT": a kind of it, not it
    after = _after(rest, name).lstrip("\"”’'*_")
    if not after.startswith("," if match["open"] == "," else ")") or not _verb_follows_subject(
            subject, after[1:]):
        return None
    return Found(subject, "naming", match.start("term"), abbreviation=name)


def _verb_follows_subject(subject: str, after: str) -> bool:
    """Whether ``after``, the words after a subject's other name (" is a resin …", " hold
    one entry each."), open with the subject's verb: a helping verb or one in -s
    (``_SUBJECT_VERB``), or after a plural subject a word that ends no name and not in -s
    ("Records, also known as rows, hold …")."""
    if _SUBJECT_VERB.match(after):
        return True
    first = after.split(None, 1)[:1]
    return (bool(first) and subject.endswith("s") and first[0].isalpha()
            and first[0].islower() and not first[0].endswith("s")
            and term_or_none(first[0]) is not None)


def _word_keys(name: str) -> list[str]:
    """Each word of ``name`` as ``term_key`` spells it (a hyphen parts words: "carrier-grade
    NAT" is three), so a name's words are found in another's however either is inflected."""
    return [term_key(word) for word in re.split(r"[\s-]+", name) if term_key(word)]


_ENDS_OR_GOES_ON = re.compile(f"{_ENDS.pattern}|{_GOES_ON.pattern}")


def _pointing_back(sentence: str) -> list[Found]:
    """"This is X.", "That limit is the context window, and …" (``_POINTING``). With a noun
    after the pointer, ending the sentence there names only a term the glossary has: "That
    rewriting is NAT." names what the sentences before described, while "That limit is the
    default." or "This table is users." say which value or which table it is."""
    for match in _POINTING.finditer(sentence):
        rest = match["rest"]
        term = take_term(rest, strict=True)
        if term and match["article"] and not _classifies(match, term):
            continue
        if not (term and is_plain_noun_phrase(match["noun"])):
            continue
        after = _after(rest, term)
        if match["noun"].strip() and not _GOES_ON.match(after):
            if not match["article"] and _ENDS.match(after):  # "That rewriting is NAT."
                return [Found(term, "pointing-back", match.start("rest"), glossary_only=True)]
            continue
        if _ENDS_OR_GOES_ON.match(after):  # "This is X." may end there
            return [Found(term, "pointing-back", match.start("rest"),
                          glossary_only=bool(match["article"]))]
    return []


_DESCRIBING_COMPOUND = re.compile(r"^[\w'’]+-[\w'’]*(?:ing|ed|en|own)$", re.I)
"""A hyphenated word that describes: "fast-moving", "long-running", "well-known"."""


def _classifies(match: re.Match[str], term: str) -> bool:
    """Whether "This is a journal." names what the sentences before it described: with "a",
    a bare demonstrative and the name alone, ending the sentence. The name's last word may
    not be an everyday noun (``is_vague``: "This is a common problem.") or a thing a
    program runs (``_CALLED``: "This is a Python script." shows one), nor its first a
    describing word ("a fast-moving technology"; ``take_term`` refuses "a good idea"), and
    it may not hold "of": "This is a legacy of early systems." says where a thing comes
    from."""
    words = term.split()
    return (not match["noun"].strip() and bool(_ENDS.match(_after(match["rest"], term)))
            and "of" not in (w.lower() for w in words)
            and not is_vague(words[-1]) and words[-1].lower() not in _CALLED
            and not _DESCRIBING_COMPOUND.match(words[0]))


def _setting(sentence: str) -> list[Found]:
    for opener in _SETTING.finditer(sentence):
        for match in _SETTING_IS.finditer(sentence, opener.end()):
            rest = match["rest"]
            term = take_term(rest, strict=True)
            after = _after(rest, term) if term else "?"
            if term and (_ENDS.match(after) or _GOES_ON.match(after) or _APPOSED.match(after)):
                return [Found(term, "setting", match.start("rest"))]
    return []


def _measured(sentence: str) -> list[Found]:
    for match in _MEASURE_IS.finditer(sentence):
        rest = match["rest"]
        term = take_term(rest, strict=True)
        if term and not is_vague(term.split()[0]) and _ENDS_OR_GOES_ON.match(_after(rest, term)):
            # not "the number of items"; and "… is the bottleneck" is no name the course gives
            return [Found(term, "setting", match.start("rest"), glossary_only=True)]
    return []


def _contrasting(sentence: str) -> list[Found]:
    """The subject is the term ("The seed is a starting number, not … — it fixes …"); when
    it is a pronoun or a vague noun ("it is a byte, not a character — the unit …", "The
    result is a probability distribution, not …"), the complement is. The gloss after the
    contrast must go on about the thing (``_GLOSS_OPENERS``)."""
    match = _CONTRAST.search(sentence)
    if not match or match["gloss"].lower() not in _GLOSS_OPENERS:
        return []
    before = sentence[: match.start()].rstrip(" ,")
    subject_at = before.rfind(",") + 1
    subject_at += len(before[subject_at:]) - len(before[subject_at:].lstrip())
    for term, at in (
        (take_term(before[subject_at:], whole=True, strict=True), subject_at),
        (take_term(match["rest"], whole=True, strict=True), match.start("rest")),
        (take_term(before[subject_at:], whole=True), subject_at),
    ):
        if term:
            return [Found(term, "contrasting", at)]
    return []


def _apposed(sentence: str) -> list[Found]:
    """'Alkalinity, the water's capacity to buffer acid, is the number to watch.'
    (``_APPOSED_NAME``). Most such commas hold a remark about a thing ("Paris, the capital,
    is big.", "The server, a machine in the basement, is slow.", "Alkalinity, the most
    important number of all, is …"), so what is between them must describe what the thing
    is: an article, up to four plain words (no judging or function word, an ordinal aside:
    "the first pour that wets the grounds"), and "that", "which", "of", "to", "for", "used",
    "with" and the like, but not a noun that says where the course treats the thing or what
    it does to another (``_REMARK_HEADS``: "the topic of the next lesson", "the cause of
    most sour shots") nor an ordinal alone ("the second of the two numbers"); and a verb
    must follow it, a helping verb or one in -s ("is", "has",
    "can", "forms"), not a list going on ("…, hardness and calcium"). The name must be a
    term the glossary has (``Found.glossary_only``): "Paris, the capital of France, is big."
    defines Paris only in a course whose glossary has Paris."""
    match = _APPOSED_NAME.match(sentence)
    if match is None:
        return []
    head = [w for w in match["head"].split() if w.lower() not in _ORDINALS]
    if not head or head[-1].lower() in _REMARK_HEADS:
        return []  # "Bloom, the first of the things to watch, …", "X, the topic of …"
    verb, after = match["verb"].lower(), match["next"].lower()
    if not (verb in _AUXILIARY or (verb.endswith("s") and not verb.endswith(("ss", "us", "is"))
                                   and after not in ("and", "or"))):
        return []  # "Alkalinity, the capacity of water, hardness and …" lists
    term = take_term(match["term"], whole=True, strict=True)
    if (term != match["term"] or not describes(term.split()[0])
            or not describes(head[0]) or not is_plain_noun_phrase(" ".join(head))):
        return []  # "However, the …", "Our data, a list of …", "X, the most important …"
    return [Found(term, "appositive", match.start("term"), glossary_only=True)]


def _defining(sentence: str) -> list[Found]:
    """"The fill factor is defined as …" (``_DEFINED_AS``): the words before "is defined as"
    are the term when they are the whole subject, a plain noun phrase. A relative clause
    makes them the end of a longer sentence ("The heap stores every object that is defined
    as global.": the verb is "stores", and "that" is the subject of "is defined"), which no
    name holds; nor does a letter alone ("The table x is defined as …" defines a symbol
    for an example)."""
    for match in _DEFINED_AS.finditer(sentence):
        term = take_term(match["term"], whole=True, strict=True)
        if term and is_plain_noun_phrase(term) and all(len(word) > 1 for word in term.split()):
            return [Found(term, "defining", match.start("term"))]
    return []


def _emphasised(sentence: str, emphasis: tuple[str, ...]) -> list[Found]:
    out = []
    for marked in dict.fromkeys(emphasis):
        if marked not in sentence:  # the pattern below needs it verbatim
            continue
        term = _emphasised_term(marked) or _vague_term(marked)
        if not term:
            continue
        for match in _marked_pattern(marked).finditer(sentence):
            before, after = sentence[: match.start()], sentence[match.end():]
            if is_vague(term):
                if _names_vague_word(before, after):
                    out.append(Found(term, "emphasis", match.start()))
                    break
                continue
            if _listed(before, after):
                continue  # "a big bowl, a **lame**, a tin": one thing of a list
            subject = _AS_SUBJECT.search(before) and _SUBJECT_DEFINED.match(after)
            if subject and subject["word"] and not starts_description(subject["word"]):
                subject = None  # "**Tokens** are not words", "*order* is important here"
            if subject and _COMMA_PHRASE.match(after) and not _verb_follows(after):
                subject = None  # "Set out a bowl, the **couche**, a scraper and a tin."
            if (
                subject
                or (_AS_PREDICATE.search(before) and _PREDICATE_DEFINED.match(after))
                or (_AS_ONE_NAMED.search(before) and _NAMED_EXPLAINED.match(after))
                or (_APPOSITIVE.match(after) and not _LIKE_BEFORE.search(before)
                    and not lists_on(after))
            ):
                out.append(Found(term, "emphasis", match.start()))
                break
            if shortened := _SHORTENED.match(after):  # "**heat work**, often shortened to HW:"
                out.append(Found(term, "emphasis", match.start(),
                                 abbreviation=shortened["short"].rstrip(".")))
                break
            if _named_after_description(before, after) or _names_apposed(before, after):
                # "… is **wedging**", "a low wide bowl, a **shallow dish**,": a glossary term
                out.append(Found(term, "emphasis", match.start(), glossary_only=True))
                break
    return out


_COMMA_PHRASE = re.compile(r"^[\"”’]?\s*,\s+(?:a|an|the)\s", re.I)
"""A comma and an article after a marked name: what follows may say what it is ("A **lame**,
a razor blade on a handle, scores …") or be the next thing of a list ("a **lame**, a tin")."""
_ITEM_END = re.compile(r",\s+(?:(?:a|an|the|this|these|those|its|their|our|your|my|his|her)"
                       r"\s+)?[\"“‘(]?$", re.I)
"""Between a list's item and the marked name after it: a comma and the name's opener."""


def _listed(before: str, after: str) -> bool:
    """Whether a marked name, a comma and a phrase after it ("a **lame**, a tin") are things
    of a list, so that the phrase is the next thing listed and not what the name is: the
    name follows a list's item and a comma (``_follows_item``: "You need a big bowl, a
    **lame**, a tin."), or the phrase is closed by a comma and the list goes on with
    another phrase that opens as it does, after "and" or "or" or not ("Tools: a **lame**, a
    tin, a bowl.", "A **lame**, a tin, a bowl and a towel are all you need."), as
    ``lists_on`` reads a list after an appositive. A phrase that opens otherwise starts a
    clause: "a *text cursor*, a character that marks the spot, and the shell waits"."""
    if not (comma := _COMMA_PHRASE.match(after)):
        return False
    if _follows_item(before):
        return True
    following = _after_phrase(after)
    if following[:1] and following[0] in ("and", "or"):
        following = following[1:]
    opens = _OPENERS[comma.group().split()[-1].lower()]
    return bool(following) and _OPENERS.get(following[0]) == opens


def _follows_item(before: str) -> bool:
    """Whether ``before``, the words before a marked name, end with a list's item and a
    comma: a noun phrase that opens its clause or follows a verb, with an article or bare
    ("You need a big bowl, ", "A loaf needs flour, ", "Flour, "), not one after a
    preposition or a clause word ("In the oven, ", "When the dough doubles, ") nor an
    opening word ("However, ", "Historically, ")."""
    end = _ITEM_END.search(before)
    if end is None:
        return False
    words = re.split(r"[,;:]", before[: end.start()])[-1].split()
    at = next((i for i, word in enumerate(words) if word.lower() in _OPENERS), None)
    if at is not None:
        lead, phrase = words[:at], words[at + 1:]
        if lead and not _plain_word(lead[-1]):
            return False  # "In the oven, ", "After the first rise, "
    else:
        phrase = words
    return 0 < len(phrase) <= 4 and all(_plain_word(word) for word in phrase)


def _plain_word(word: str) -> bool:
    """A word a noun phrase or a verb may be, not a function word or an adverb in -ly."""
    word = word.strip("\"“”‘’()").lower()
    return bool(word) and is_plain_noun_phrase(word) and not (
        word.endswith("ly") and len(word) > 4)


def _after_phrase(after: str) -> list[str]:
    """The words after the comma that closes the phrase after a marked name's comma, in lower
    case ("scores the dough" of ", a razor blade on a handle, scores the dough."); none when
    the phrase ends the sentence or its clause instead."""
    tokens = [token.lower() for token in _NOUN_PHRASE_TOKEN.findall(after.lstrip("\"”’ "))]
    for at, token in enumerate(tokens[1:], 1):
        if not token[0].isalnum():
            return tokens[at + 1:] if token == "," else []
    return []


def _verb_follows(after: str) -> bool:
    """Whether the phrase after a marked subject's comma ("A **lame**, a razor blade on a
    handle, scores the dough.") is closed by a comma and the subject's verb, not by the
    sentence's end or a list going on: a name that is the subject of nothing is not
    defined by the phrase after it ("Set out a bowl, the **couche**, a scraper and a
    tin.")."""
    following = _after_phrase(after)
    return bool(following) and following[0][0].isalpha() and following[0] not in (
        "and", "or") and following[0] not in _OPENERS


_SHORTENED = re.compile(
    r"^[\"”’]?,\s+(?:(?:often|usually|commonly|sometimes|also|generally)\s+)?"
    r"(?:shortened|abbreviated|short)\s+(?:to|as|for)?\s*[\"“‘]?(?P<short>[\w'’.-]+)[\"”’]?"
    r"\s*(?:[,:;(—–]|--|[.!]\s*$|$)", re.I)
"""'Kilns are rated by **heat work**, often shortened to HW: what …': a marked name
given its short form is being introduced; a name already known needs none. The short form
ends the sentence or a clause, and is the term's other name (``Found.abbreviation``): a
search for HW shows heat work's card."""
_DESCRIBED_IS = re.compile(
    r"(?:^|[;:—–]\s*)[\"“‘(]?(?P<subject>(?:the|a|an)\s+(?:[^\s;:—–]+\s+){3,}?)"
    r"(?:is|are|was|were)\s+(?:(?:a|an|the)\s+)?[\"“‘(]?$", re.I)
_MARKED_ENDS = re.compile(r"^[\"”’)]*\s*(?:[.!]*\s*$|,\s+(?:and|which|or|so|but)\b|[;:(—–]|--)")
_WEIGHS = frozenset("most least only one key main real best worst".split())


def _named_after_description(before: str, after: str) -> bool:
    """'The kneading of clay in a spiral until no air is left in the clay is **wedging**.':
    a description as the subject, then "is" and the marked name, the definition the other
    way round (as a quoted name: ``_QUOTED_COMPLEMENT``). The subject opens the sentence or a
    clause with an article and four words at least, with a phrase or a clause among them
    (not a plain noun phrase: "The usual choice is **rye**."), its last no pronoun, its words
    neither judging nor weighing nor an everyday noun ("The most important step is **X**",
    "The key to a good pot is **wedging**", "The thing to check is **X**"); the name ends
    the sentence or a clause. Such a sentence may as well be a remark, so it names a term
    the glossary has (``Found.glossary_only``)."""
    match = _DESCRIBED_IS.search(before)
    if match is None or not _MARKED_ENDS.match(after):
        return False
    words = [w.strip(",\"“”‘’()").lower() for w in match["subject"].split()[1:]]
    words = [w for w in words if w]
    if (not words or words[-1] in _PRONOUNS or is_plain_noun_phrase(" ".join(words))
            or any(is_vague(w) or not describes(w) for w in words[:3])):
        return False  # "The usual choice is", "The key to …", "The only …"
    return not any(w == "not" or w in _WEIGHS for w in words)  # "The most important …"


_APPOSED_TO = re.compile(
    r"(?P<lead>^|.*?\S\s+)(?:a|an|the)\s+(?P<description>[\w'’-]+(?:\s+[\w'’-]+){1,3}),\s+"
    r"(?:a|an|the)\s+[\"“‘]?$", re.I | re.S)
_OPENS_CLAUSE = frozenset("so but because since if unless when while then before after until once"
                          .split())
"""Words after the comma that closes an appositive which open a clause, not a list's next
item: "a low wide bowl, a **shallow dish**, before it stiffens"."""
_COUNT_WORDS = frozenset("one two three four five six seven eight nine ten some many few several"
                         .split())


def _names_apposed(before: str, after: str) -> bool:
    """'Shape it into a low wide bowl, a **shallow dish**, before it stiffens.': after a thing
    described (an article, a describing word and a noun: "a low wide bowl"), a comma and the
    marked name with an article of its own, which names it. Most such commas run a list ("a
    damp sponge, a **needle tool**, two bats and …"), so the description may not follow a
    comma itself, may be no pronoun ("a tall one"), and the name must end the sentence, or a
    comma close it with no list going on (no "and", "or", article, count or function word in
    the next words, unless a clause opens: "before it stiffens"). It names a term the
    glossary has (``Found.glossary_only``)."""
    match = _APPOSED_TO.match(before)
    if match is None or match["lead"].rstrip().endswith((",", ";")):
        return False
    words = [w.lower() for w in match["description"].split()]
    if (not is_plain_noun_phrase(match["description"]) or not describes(words[0])
            or words[0] in _WEIGHS or words[-1] in _PRONOUNS or is_vague(words[-1])
            or "and" in words):
        return False
    if _ENDS.match(after):
        return True
    rest = after.lstrip("\"”’)")
    if not rest.startswith(","):
        return False
    following = [t.lower() for t in _NOUN_PHRASE_TOKEN.findall(rest[1:])[:3]]
    return (bool(following) and following[0][0].isalpha() and following[0] not in _COUNT_WORDS
            and following[0] not in _OPENERS and (following[0] in _OPENS_CLAUSE
                                                  or term_or_none(following[0]) is not None)
            and not any(t in ("and", "or") or not t[0].isalnum() for t in following))


_LIKE_BEFORE = re.compile(r"\b(?:like|as)\s+\S*\s*$")


_MEANS = re.compile(
    r"[\"“‘(]?(?:(?:the|a|an)\s+)?(?P<term>[\w'’-]+(?:\s+[\w'’-]+){0,4}?)\s+"
    r"(?:(?:simply|just|basically|essentially|literally|roughly|usually|generally|commonly)\s+)?"
    r"means\s+"
    r"(?P<what>(?P<article>(?:a|an|the)\s+)?(?P<next>[\w'’-]+)(?P<then>(?:\s+[\w'’-]+){0,4}))",
    re.I)
"""'Dialling in means adjusting grind, dose and time …': an unmarked name that opens the
sentence, "means" (after a word that hedges or not: "Bandwidth simply means capacity."), and
what it is: a gerund, an article or a noun phrase. Read by ``_means``."""
_MEANS_JUDGES = frozenset("little much more less nothing something anything everything".split())
"""Words after "means" that weigh a thing, not say what it is: "Tamping means nothing if …"."""
_CLAUSE_VERB = re.compile(
    r"^(?:\s+[\w'’-]+)?\s+(?:is|are|was|were|will|would|can|could|has|have|had|does|do|did|"
    r"must|should|may|might|gets?|got|runs?|ran|tastes?|goes|go|went|flows?|found|finds?|"
    r"comes?|came|makes?|made|takes?|took|breaks?|broke|needs?|[\w'’-]+ed)(?![\w'’-])", re.I)
"""A verb after the article's noun, or after a noun of two words: "Bloom means the gas is
escaping", "Channeling means the water found a crack" say what follows."""


_NOUN_PHRASE_TOKEN = re.compile(r"[\w'’-]+|[^\w\s]")
_SETS_APART = frozenset("""of with without in on at from for to into onto through under over
    between before after by across around within inside per that which who whose a an the
    this these those its our their your my we you they where""".split())
"""Words that, after a noun, start what sets the thing apart from others of its kind: a
prepositional phrase ("foam on top of the shot", "work done per second"), a relative clause
("the foam that forms", "the spot where the water runs", "the time we wait", "the time a
request waits")."""
_IRREGULAR_PARTICIPLES = frozenset("""done made given taken seen known written held kept built
    sent spent lost paid found brought bought thought caught taught shown grown drawn thrown
    chosen spoken broken driven eaten fallen forgotten hidden risen shaken worn begun drunk
    told sold said heard stood understood won meant bound fed led""".split())
"""Past participles without "-ed" that, after a noun, say what sets its thing apart as a
regular one does ("work done per second", "the data sent over the wire"). Words that are as
often nouns or verbs in the present ("set", "cut", "put", "read", "run", "left") are left
out."""
_MEANS_CONSEQUENCES = frozenset("""trouble troubles problem problems pain pains headache
    headaches danger dangers risk risks grief difficulty difficulties disaster hassle bother
    bugs errors failure failures""".split())
"""Nouns after "means" that judge what a thing leads to, not say what it is: "Recursion means
trouble for beginners.", "Shared state means headaches in tests." """
_CLAUSE_AFTER = frozenset("so but because since if unless when while as than then".split())
"""Words that end a noun phrase and start another clause: "fresh beans, so grind late"."""
_READ_WORDS = 8


def _sets_apart(rest: str) -> bool:
    """Whether the noun phrase that ``rest`` goes on with (the text after its first word)
    says what sets its thing apart before the sentence or its clause ends: a prepositional
    phrase, a relative clause or a participle after a noun ("coffee with the caffeine
    removed", "the foam that forms on top", "espresso pulled short", "water finding a
    path"). "and", "or" and a comma join another noun phrase ("a thin, sour shot"). A phrase
    longer than ``_READ_WORDS`` words is taken to."""
    opens = False  # the next word opens a noun phrase: an article or its first word
    for count, token in enumerate(_NOUN_PHRASE_TOKEN.findall(rest)):
        if count == _READ_WORDS:
            return True
        low = token.lower()
        if low in (",", "and", "or"):
            opens = True
        elif not token[0].isalnum() or low in _CLAUSE_AFTER:
            return False  # "sour coffee.", "fresh beans, so …"
        elif not opens and (low in _SETS_APART or low in _IRREGULAR_PARTICIPLES or (
                len(low) > 4 and low.endswith(("ed", "ing")) and not low.endswith(
                    ("eed", "thing")))):
            return True
        else:
            opens = low in ("a", "an", "the")
    return False


_QUANTITIES = frozenset(_MEASURE_NOUNS) - {"time"} | frozenset(
    """capacity volume mass weight pressure temperature density concentration intensity
    strength angle area range level""".split())
"""Nouns that name a quantity, something measured: besides the measure nouns
(``_MEASURE_NOUNS``: delay, rate, size …), the quantities a course measures a thing by. Not
time, which is as often what a thing costs ("Bloom means time.")."""
_COMPARATIVES = frozenset(
    """more less fewer extra worse better higher lower longer shorter faster slower bigger
    smaller larger wider narrower deeper shallower greater heavier lighter stronger weaker
    hotter colder warmer cooler thicker thinner""".split())
"""Words that compare: after "means" they say how the term changes a thing, what it leads
to ("Jitter means longer queues at every hop.", "Channeling means a higher flow rate")."""


def _names_a_quantity(what: str) -> bool:
    """Whether ``what``, the words after "means" with no article, are a noun phrase that ends
    at its noun and names a quantity (``_QUANTITIES``), in general: "Bandwidth means
    capacity.", "Latency means delay, counted in milliseconds." A term that measures
    something means the quantity it measures, and a bare noun in the singular names the
    quantity itself, not cases of it ("a delay", "delays", "a thin shot" are what happened).
    A noun that names a thing or a state ("sour coffee", "fresh beans", "trouble") says what
    the term leads to or shows, and so does a word that compares ("more pressure", "higher
    pressure": how the term changes a quantity). Up to two describing words may come first
    ("peak capacity")."""
    words = []
    for token in _NOUN_PHRASE_TOKEN.findall(what):
        low = token.lower()
        if not token[0].isalnum() or low in _CLAUSE_AFTER or low in ("and", "or"):
            break
        words.append(low)
    if not 0 < len(words) <= 3:
        return False
    *describing, noun = words
    if noun not in _QUANTITIES:
        return False  # "sour coffee", "fresh beans"; "delays" are cases of a delay
    return all(describes(word) and word not in _COMPARATIVES and word not in _SETS_APART
               for word in describing)


def _means(sentence: str) -> list[Found]:
    """"Dialling in means adjusting grind, dose and time until the shot tastes right.": an
    unmarked name opening the sentence, then "means" and what it is: a gerund, an article or
    a noun phrase (``_says_what_it_means``), or a clause a question word opens
    (``_asks_what_it_is``: "Hydration means how much water the dough holds"). The name
    must be a term-like noun phrase: a pointer ("This means how we …", "That means what you
    think") is refused by ``take_term``, and a name holding a function word before its end
    ("Looking up a token means reading its row", "Knowing this means …") by
    ``is_plain_noun_phrase``. "X means Y" as often says what follows from X, so the hit
    names only a term the glossary has (``Found.glossary_only``), as the other forms that
    also read as remarks."""
    match = _MEANS.match(sentence)
    if match is None or match["term"].split()[-1].lower() in ("by", "of"):
        return []
    if not match["article"] and match["next"].lower() in _ASKING:
        if not _asks_what_it_is(match["then"]):
            return []  # "… means what you think", "… means how we weigh it"
    elif not _says_what_it_means(match, sentence):
        return []
    term = take_term(match["term"], whole=True, strict=True)
    if term is None or term != match["term"].strip() or not is_plain_noun_phrase(
            _PARTICLE_AT_END.sub("", term)):
        return []  # "Looking up a token means reading its row, so …" says what it costs
    return [Found(term, "defining", match.start("term"), glossary_only=True)]


def _says_what_it_means(match: re.Match[str], sentence: str) -> bool:
    """Whether the words after "means" (``_MEANS``) say what the term is, not what follows
    from it ("This means the shot runs fast.", "Tamping means nothing if the grind is
    wrong.", "Bloom means that gas escapes", "… means we wait"): a pronoun, "that", a
    judging word (``_MEANS_JUDGES``) or a clause (an article, a noun and a verb: "means the
    shot runs fast") names nothing. A noun phrase says what the term is only when it also
    says what sets it apart (``_sets_apart``: "Crema means foam on top of the shot", "The
    dose means the mass of dry coffee"); one that ends at its noun says what the term leads
    to or shows ("Channeling means sour coffee.", "… a thin, sour shot.", "Bloom means
    fresh beans, so …"), unless, bare, it names a quantity (``_names_a_quantity``:
    "Bandwidth means capacity."). A word that compares first ("Jitter means longer queues at
    every hop.") says how the term changes a thing, set apart or not."""
    after = match["next"].lower()
    if after in _MEANS_JUDGES or after in _MEANS_CONSEQUENCES or after in _COMPARATIVES or (
            not match["article"] and term_or_none(after) is None):
        return False  # "means that …", "means we …", "means it …", "means nothing …"
    if not match["article"] and not after.endswith("ing") and not describes(after):
        return False  # "means usually …", "means different things"
    if match["article"] and _CLAUSE_VERB.match(match["then"]):
        return False  # "means the shot runs fast": what follows, not what it is
    return after.endswith("ing") or _sets_apart(sentence[match.end("next"):]) or (
        not match["article"] and _names_a_quantity(sentence[match.start("next"):]))


_ASKING = frozenset(("how", "what", "whether", "when", "where"))
"""Question words that, right after "means", open a clause saying what a term is: "how much
water the dough holds", "what is left inside the loaf", "whether the middle has set", "when
bees from one colony raid another", "where the queen lays"."""
_SPEAKERS = frozenset("i we you they he she it one people someone everyone".split())
"""Subjects of a clause after "means how" or "means what" that make it a remark about what
someone means, does or thinks: "what you think", "how we weigh the water"."""


def _asks_what_it_is(clause: str) -> bool:
    """Whether ``clause``, the words after "means" and a question word (``_ASKING``), says
    what the term is: "how much water the dough holds", "how long a packet waits", "what is
    left inside the loaf", "when bees from one colony raid another". A degree word may come
    first ("how much", "how long"); then a person or a pointer ("what you think", "how we
    weigh the water", "when you open the hive", "whether this …": ``_SPEAKERS``,
    ``_PRONOUNS``) makes a remark, and so does a clause of fewer than two words ("means what
    it says" aside, "means how."): nothing there is said of the term."""
    words = [w.lower() for w in _NOUN_PHRASE_TOKEN.findall(clause) if w[0].isalnum()]
    if words and words[0] in _DEGREE:
        words = words[1:]
    return len(words) >= 2 and words[0] not in _SPEAKERS and words[0] not in _PRONOUNS


_DEGREE = frozenset("""much many long far often big large small high low deep wide fast hard
    heavy strong hot cold warm well quickly soon""".split())
"""Words that follow "how" to ask how much of a thing: "how much water", "how long a packet
waits", "how far a loaf rises"."""


_ONE_OF_A_KIND = frozenset("""file folder directory variable column table field row branch
    remote repository repo database dataset command package project account user host machine
    site page document sheet tab channel book town city village street company person man woman
    boy girl dog cat horse ship band song album film notebook image container bucket volume
    cluster instance node parameter argument option flag attribute tag label keyword string
    array tuple dictionary dict dataframe frame series vector matrix map record element item
    entry plot figure chart graph window button menu widget""".split())
"""Nouns of one thing with a name of its own, as in "a file called notes.txt", "a branch called
main", "a town called Hope", "a dog called Rex", and the values a program holds by name ("a
string called greeting", "the dictionary we call counts"): the name is the thing's, not a
term's."""
_WHICH = (r"(?P<which>(?:\s+(?:on|in|at|of|with|from|inside|around|under|over|between)\s+"
          r"[^,;:()]{1,40}?)?,\s+which)")
"""A relative clause after the thing, past a comma and a place: "a tight ball on the combs,
which beekeepers call the winter cluster"."""
_CALLED_THING = re.compile(
    r"\b(?:a|an|the)\s+(?P<head>(?:(?!(?:a|an|the)\s)[\w'’-]+\s+){0,3}?"
    rf"(?!(?:a|an|the)\s)[\w'’-]+){_WHICH}?\s+(?:(?:(?:most|many|some|all)\s+)?"
    rf"(?P<group>{_NAMERS}|[A-Za-z][\w'’-]*[a-hj-rtv-z]s)\s+(?:{_GROUP_ADVERB}\s+)?call"
    r"|(?(which)(?!)|called))\s+(?P<rest>.+)", re.I)
"""'Dip the pot in a thin clay slurry called slip.', 'The wheel leaves a raised ring potters
call a *foot*.': a thing described by a noun phrase, then "called" or a group of people
and "call" (after ", which" too: ``_WHICH``), then its name. Read by ``_called_thing``."""
_NAME_ENDS = re.compile(r"^[\"”’)]*\s*(?:[.!]*\s*$|[,;:(—–]|--)")


def _called_thing(sentence: str, emphasis: tuple[str, ...]) -> list[Found]:
    """"Dip the pot in a thin clay slurry called slip.", "The wheel leaves a raised ring
    potters call a *foot*.": a thing described by an article and a noun phrase, named after
    "called" or after a group of people and "call" (a relative clause without "that", or
    after ", which": "a tight ball, which beekeepers call the winter cluster"). Any
    noun may be named so, not only a kind of thing (``_NAMING``'s "a technique called X"),
    and most such names are an instance's, not a term's: "a function called average", "a
    file called notes", "a dog called Rex", "the function we call first". So the name must
    end the sentence or a clause, may be no code ("a function called `average`"), no proper
    name (one capitalised word) nor a word that says how or how often; the noun may be no
    thing a program calls (``_CALLED``) nor a thing with a name of its own
    (``_ONE_OF_A_KIND``); the group must be people who name (not "the function tests call
    twice", nor critics); and the name must be one the lesson set in bold or italics, or,
    unmarked, a term the glossary has (``Found.glossary_only``). "what people call fast"
    has no thing described and is ``_NAMING``'s concern."""
    out = []
    for match in _CALLED_THING.finditer(sentence):
        head, rest = match["head"].split(), match["rest"]
        last = head[-1].lower()
        if (not is_plain_noun_phrase(match["head"]) or not describes(head[0])
                or last in _CALLED or last in _CALLERS or last in _ONE_OF_A_KIND
                or (_singular(last) in _PRONOUN_KINDS
                    and not (match["group"] and _singular(last) in _KINDS))
                or last in _PRONOUNS or is_vague(last)):
            continue  # "the function we call …", "a file called …", "the step called …"
        if (group := match["group"]) and group.lower() not in _NAMER_WORDS and (
                group.lower() in _NOT_GROUP or term_or_none(group) is None
                or _is_called_thing(group) or group.lower()[:-1] in _CALLERS):
            continue  # "the helper tests call", "the dish critics call …"
        bare = _ARTICLE.sub("", rest)
        if bare.startswith("`"):
            continue  # "a function called `average`" names a thing in the code
        name = take_term(rest, strict=True)
        if not name or _HOW_OFTEN.fullmatch(name) or _says_how(name) or not (
                _NAME_ENDS.match(_after(rest, name).lstrip("*_"))):
            continue  # "the function we call twice", "called average by the loader"
        if " " not in name and name[:1].isupper() and not name.isupper():
            continue  # "a dog called Rex"
        marked = name.lower() in _marked_names(emphasis)
        out.append(Found(name, "naming", match.start("rest") + rest.find(name),
                         glossary_only=not marked))
    return out


_PART_OF = (r"(?:(?:half|part|most|much|some|a\s+(?:third|quarter|half|part|fraction)|"
            r"(?:two|three)\s+(?:thirds|quarters))(?:\s+or\s+(?:more|less|so))?\s+of)")
"""What a thing may be a share of, in place of an article: "A swarm is half or more of a
colony …", "A cutting is part of a stem …"."""
_OR_MORE = r"(?:one|two|three)\s+or\s+more"
"""A least count that may stand where an article does: "A ligature is two or more letters
cast as one sort" says what a ligature is, as "a pair of letters" would."""
_PLAIN = re.compile(
    r"(?:(?P<opener>An?|The)\s+)?(?P<term>[\w'’-]+(?:\s+[\w'’-]+){0,4}?)"
    r"(?:\s+\([^()]{1,30}\))?(?:,\s+(?P<aside>[^,;:()\"“”]{1,60}?),)?\s+is\s+"
    rf"(?P<article>(?:(?P<part>{_PART_OF})\s+)?(?:a|an|the|{_OR_MORE}|one(?!\s+of\b))\s+)?(?P<what>.+)"
)
"""'A p-value is the probability …': the subject opens the sentence, after "A", "An", "The" or
nothing ("Light pollution is artificial light …"), and what it is follows "is": after "A" or
"An" an article opens it ("A model is trained on …" says what is done to it), or a share of
what the article opens (``_PART_OF``). An aside between commas may follow the subject ("A
nuc, short for nucleus colony, is …": ``_ASIDE_NAMES``)."""
_ASIDE_NAMES = re.compile(
    r"^(?:(?:often|usually|commonly|sometimes|also)\s+)?(?:short\s+for|shortened\s+from|"
    r"abbreviated\s+from)\s+(?P<long>.+)$", re.I)
"""An aside that gives the subject's long name ("A nuc, short for nucleus colony, is …"): the
long name is the term and the subject its short form (``Found.abbreviation``), so a glossary
that has either links the lesson, and a search for the one it lacks finds the other's card."""
_LISTS_ON = re.compile(r"(?:^|\s)(?:and|or)\s", re.I)
"""An aside with "and" or "or" in it may be the rest of a list ("Flour, water and salt is
…"), not a word on the subject."""
_GERUND = re.compile(
    r"^(?P<verb>[a-z][\w'’-]*ing)\s+(?:the|a|an|its|their|your|our|his|her|one|each|every|"
    r"some|all|both)\s", re.I)
"""A gerund that says what a gerund subject is, with its object: "Hefting is lifting the
back of the hive …". After a gerund subject, an -ing word with no object after "is" is a
progressive that says how the thing goes ("Pruning is getting easier", "Pruning is taking
longer"). After any other subject an -ing word may be a noun ("Rope is string twisted …")."""


_NOUN_THAT = re.compile(
    r"(?P<noun>[a-z][a-z'’-]+)(?<!est)(?<!ly)(?<!ed)(?<!ous)(?<!ful)(?<!able)(?<!ible)"
    r"\s+(?:that(?!\s+(?:way|much|far|often)\b)|which|whose|who)\s+\w")
"""A noun alone with no article and a relative clause after it: "Garbage is memory that no
variable can reach." says what garbage is, as "… is artificial light scattered …" does; an
adjective, a participle or an adverb ("is tricky", "is harder that way", "is slowly") does
not, nor a vague word (``take_term`` refuses "something that …")."""


_ONLY = re.compile(r"(?:only|sole|single)\s+(?P<what>\w.*)", re.I)
"""After "is the", what makes the subject unlike all else of its kind: "The queen is the only
fully fertile female …". Read by ``_one_of_its_kind``."""


def _one_of_its_kind(what: str) -> str | None:
    """The words after "is the only" (``what``: "fully fertile female, and she …") as the
    plain form reads the words after "is the", or None where they say what someone does
    with the thing, not what it is. "The queen is the only fully fertile female." says what
    a queen is, as "The queen is the fertile female." does (a degree word before the
    describing one is dropped: "fully"); "The kettle is the only pot we need." and "… the
    only pan that you heat" say how the lesson uses it (``_SPEAKERS``, as after "means
    how")."""
    first, _, rest = what.partition(" ")
    if rest and first.lower().endswith("ly") and not describes(first):
        what = rest  # "fully fertile female"
    name = take_term(what)
    after = [w.lower() for w in _NOUN_PHRASE_TOKEN.findall(_after(what, name))[:2]] if (
        name) else []
    if after and (after[0] in _SPEAKERS or (
            after[0] in ("that", "which", "who") and after[1:2] and after[1] in _SPEAKERS)):
        return None
    return what


def plain_definition(sentence: str) -> Found | None:
    """"A p-value is the probability, computed …": the plain form, with nothing marked. Such
    sentences mostly describe ("A lower number is a better result"), so the caller reads one
    only where a definition is expected (``definitions.find_definitions``: the first sentence
    of its section, or under a heading that says it defines or names the term; elsewhere
    only "The X is the <kind> that <does …>": ``definition_phrasings.names_glossary_kind``),
    and the hit
    names the term only where the glossary has it (``Found.glossary_only``). What the
    subject is must be a thing described, not judged or compared: "A test is a good idea",
    "An index is the first thing to check", "Declination is tricky to read at first." and
    "The exit pupil is larger in binoculars." define nothing (``says_what_it_is``). A
    subject after "The" or with no article ("The exit pupil is the width of …",
    "Declination is the angle …", "Light pollution is artificial light …") may not be an
    everyday noun alone ("The problem is the network."), and what it is may not open with
    one or with a word that compares ("is the same in both", "is the main reason":
    ``opens_comparison``). A share of a thing (``_PART_OF``) needs a phrase, a clause or a
    participle after its noun that says which ("half or more of a colony leaving …", not
    "half of the fun"); a gerund subject may be another gerund with its object
    (``_GERUND``); an aside that gives the long name makes it the term
    (``_ASIDE_NAMES``). "The only", "the sole" or "the single" may stand for "the": "The
    queen is the only fully fertile female." (``_one_of_its_kind``). Read anywhere, that
    form as often weighs a thing or states a fact of it ("A bounded timeout is the only
    defence that is both complete and …"), so it too is read only where a definition is
    expected."""
    if " is " not in sentence:
        return None  # what the pattern needs: most sentences fail here
    match = _PLAIN.match(sentence)
    if match is None:
        return None
    indefinite = match["opener"] in ("A", "An")
    if indefinite and not match["article"]:
        return None
    if (term := take_term(match["term"], strict=not indefinite)) != match["term"]:
        return None  # "A row that nobody reads is …" describes one row
    if not is_vague(term) and take_term(term, strict=True) is None:
        return None  # "A good idea is a small transaction." judges
    if match["aside"] and _LISTS_ON.search(match["aside"]):
        return None  # "Flour, water and salt is …" lists
    if (not match["article"] and term.lower().endswith("ing")
            and match["what"].split()[0].lower().endswith("ing")):
        if not _GERUND.match(match["what"]):
            return None  # "Pruning is getting easier." says how it goes
        return Found(term, "plain", match.start("term"), glossary_only=True)
    described = match["what"]
    if (match["article"] or "").strip().lower() == "the" and (
            only := _ONLY.match(described)):
        described = _one_of_its_kind(only["what"])
        if described is None:
            return None  # "The kettle is the only pot we need."
    what = take_term(described)
    if what is None or not (says_what_it_is(what, bool(match["article"])) or (
            not match["article"] and _NOUN_THAT.match(match["what"]))):
        return None
    if match["part"] and not _sets_apart(match["what"].split(None, 1)[-1]):
        return None  # "A division is half of the fun." says how much, not of what
    if not indefinite and opens_comparison(what):
        return None
    if match["aside"] and (named := _ASIDE_NAMES.match(match["aside"])):
        long = take_term(named["long"], whole=True, strict=True)
        if long is None:
            return None
        return Found(long, "plain", match.start("aside") + named.start("long"),
                     abbreviation=term, glossary_only=True)
    return Found(term, "plain", match.start("term"), glossary_only=True)


@lru_cache(maxsize=4096)
def _emphasised_term(marked: str) -> str | None:
    return take_term(marked, whole=True, strict=True, marked=True)


@lru_cache(maxsize=4096)
def _vague_term(marked: str) -> str | None:
    """A marked word that only ``strict`` refuses for being vague: "function", "list"."""
    term = take_term(marked, whole=True)
    return term if term and is_vague(term) else None


_VAGUE_SUBJECT_BEFORE = re.compile(r"(?:^|[,;:]\s+|\b(?:and|but)\s+)[\"“‘(]?(?:(?:a|an)\s+)?$",
                                   re.I)
_VAGUE_SUBJECT_DEFINED = re.compile(
    r"^[\"”’]?\s*(?:\([^)]{1,60}\)\s*)?(?:(?:is|are)\s+(?:(?:a|an|the|one)\s+\w|defined\b)|"
    r"means\b|refers\s+to\b|stands\s+for\b|denotes\b)", re.I
)


def _names_vague_word(before: str, after: str) -> bool:
    """Whether a marked everyday word ("function", "list", "value", "key", "step": the
    ``_VAGUE`` nouns that ``strict`` refuses) is the subject of a sentence that says what it
    is: "A **function** is a named block of code …", "**Step** means one update …". Marked
    so, the author defines the word, however ordinary. Only that form counts: "**Question**:
    what will we see?", "**Output**: a table" label a paragraph, and after "the" such a word
    is emphasised, not defined ("The **point** is the index, not the table.", "The
    **problem** is a missing comma."); unmarked, "A value is a number" stays a description."""
    return bool(_VAGUE_SUBJECT_BEFORE.search(before) and _VAGUE_SUBJECT_DEFINED.match(after))


@lru_cache(maxsize=4096)
def _marked_pattern(marked: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w.]){re.escape(marked)}(?![\w(]|\.\w)")
