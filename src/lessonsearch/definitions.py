"""Where a lesson's own prose defines a term, so the glossary can link to the lesson.

Lessons rarely use definition lists; they define in running prose ("… is called the prompt",
"This is next-token prediction, and …", "A **token** is …"). ``definition_patterns`` holds
one rule per phrasing; this module walks a lesson's sections and sentences in reading order,
keeps the first definition of each term, and builds the link to it.
"""

from __future__ import annotations

import re
from dataclasses import replace

from lessonsearch.definition_patterns import (
    Found,
    explains_itself,
    plain_definition,
    sentence_definitions,
)
from lessonsearch.definition_phrasings import (
    names_glossary_kind,
    phrased_definitions,
    says_its_kind,
    says_when,
)
from lessonsearch.definition_terms import split_sentences, term_or_none, tidy_case
from lessonsearch.model import Lesson, LessonDefinition, Section, link_to, text_fragment
from lessonsearch.term_forms import term_key

KINDS = (
    "naming",
    "pointing-back",
    "quoting",
    "contrasting",
    "setting",
    "defining",
    "emphasis",
    "abbreviation",
    "appositive",
    "definition-list",
    "plain",
)
"""Every ``LessonDefinition.kind`` this module produces."""


def find_definitions(lesson: Lesson) -> tuple[LessonDefinition, ...]:
    """The definitions a lesson makes, one per term (the first), in reading order."""
    found: dict[str, LessonDefinition] = {}
    words: str | None = None  # the lesson's text, read when a name needs it
    subject = _key_subject(lesson)
    for section in lesson.sections:
        before: str | None = None  # the section's sentence before this one, when it
        # defines no term itself: a definition that points back is read with it
        opening = True
        for text in section.prose:
            for sentence in split_sentences(text):
                hits = sentence_definitions(sentence, section.emphasis) + phrased_definitions(
                    sentence, section.emphasis)
                if hits:  # "We call these scripts." names only what the sentence before says
                    hits = [hit for hit in hits
                            if not hit.called or _says_what_these_are(before, hit.term)]
                if all(hit.passing for hit in hits) and (
                        plain := plain_definition(sentence)) and (
                        opening or _expects(section.heading, plain.term)
                        or names_glossary_kind(plain, sentence)):
                    plain = says_its_kind(plain, sentence)  # "Degreaser is a solvent that …"
                    hits = [_headed(plain, section.heading, subject), *hits]  # "A p-value is the
                    # probability …" opening its section; an abbreviation spelt out in
                    # passing defines nothing
                elif all(hit.passing for hit in hits) and (
                        plain := _plain_after_colon(sentence)) and _expects_name(
                            section.heading, plain.term):
                    hits = [plain, *hits]  # under "Leases": "… is only lent: a lease is …"
                opening = False
                for hit in hits:
                    term = tidy_case(hit.term, at_sentence_start=not sentence[: hit.start].strip(
                        "\"'“‘*_ ("))
                    alone = None
                    if hit.alone and hit.referring:
                        words = _words(lesson) if words is None else words
                        alone = None if _written_again(hit.term, words) else tidy_case(
                            hit.alone, at_sentence_start=False)
                    _keep(found, lesson, section, term, sentence, hit.kind, hit.abbreviation,
                          alone, hit.other and tidy_case(hit.other, at_sentence_start=not (
                              sentence[: sentence.find(hit.other)].strip("\"'“‘*_ ("))),
                          hit.glossary_only, _read_with(sentence, hit, before), hit.passing)
                before = None if any(not hit.passing for hit in hits) else sentence
        for item in section.definitions:
            term = term_or_none(item.term, code_ok=True)  # a list's term is a term: pass@k
            sentences = split_sentences(item.definition)
            if term and sentences:
                _keep(found, lesson, section, tidy_case(term, True), sentences[0],
                      "definition-list", None)
    return tuple(found.values())


_WORD = re.compile(r"[\w'’-]+")
_DEFINES = re.compile(r"\bdefin(?:ition|itions|e|es|ed|ing)\b|^\W*what\s*(?:is|are|['’]s)\s", re.I)


def _expects(heading: str | None, term: str) -> bool:
    """Whether a section whose heading is ``heading`` expects a definition of ``term`` in any
    of its sentences, not only in the first, where any section says what it is about: the
    heading says it defines ("The definition", "Defining a p-value", "What is a p-value?")
    or names the term, in any inflection ("Some more about remotes" names remote). There the
    plain form that names the glossary's term (``plain_definition``) is read."""
    if not heading:
        return False
    return bool(_DEFINES.search(heading)) or _expects_name(heading, term)


_COLON_CLAUSE = re.compile(r":\s+(?=[a-z])")
"""A colon and the small letter that opens the clause after it."""


def _plain_after_colon(sentence: str) -> Found | None:
    """The plain form (``plain_definition``) in the clause after a sentence's colon: "The
    address is only lent: a lease is the loan of an address for a fixed time." The colon
    says that what follows explains what came before it, as a new sentence would. Read only
    under a heading that names the term (``_expects_name``: "Leases"), where a definition is
    expected anywhere in the section; the clause's first word is read as a sentence's."""
    if (colon := _COLON_CLAUSE.search(sentence)) is None:
        return None
    clause = sentence[colon.end():]
    if (plain := plain_definition(clause[:1].upper() + clause[1:])) is None:
        return None
    at = colon.end() + plain.start
    return replace(plain, term=sentence[at: at + len(plain.term)], start=at)


def _headed(plain: Found, heading: str | None, subject: str | None = None) -> Found:
    """``plain`` with its name's last word as the name alone (``Found.alone``) when the
    section's heading names that word and not the whole name, or the lesson's key idea says
    what that word is (``subject``, ``_key_subject``): under "The colony", or in a lesson
    whose key idea is "A colony is one queen, thousands of workers …", "A honey bee colony
    is a family of bees …" says what a colony is, the words before it only which colonies
    the course keeps. The build takes the whole name where the glossary has it, and the
    last word where it has only that, unless the lesson writes the whole name again
    (``_written_again``), as it would a name of its own."""
    words = plain.term.split()
    if len(words) < 2 or plain.abbreviation or _expects_name(heading, plain.term) or not (
            _expects_name(heading, words[-1])
            or (subject is not None and term_key(subject) == term_key(words[-1]))):
        return plain
    return replace(plain, alone=words[-1], referring=True)


def _key_subject(lesson: Lesson) -> str | None:
    """The name whose meaning the lesson's key idea gives in the plain form, its first
    sentence "A colony is one queen, thousands of workers and a few hundred drones." (read
    as ``plain_definition`` reads a lesson's sentence): what the lesson is about, as a
    heading that names it says, though no heading of the lesson does."""
    if not lesson.key_idea or not (sentences := split_sentences(lesson.key_idea)):
        return None
    found = plain_definition(sentences[0])
    return found.term if found and not found.abbreviation else None


def _expects_name(heading: str | None, term: str) -> bool:
    """Whether ``heading`` names ``term``, in any inflection ("Some more about remotes")."""
    words, size, key = _WORD.findall(heading or ""), len(term.split()), term_key(term)
    return any(term_key(" ".join(words[at: at + size])) == key
               for at in range(len(words) - size + 1))


def _says_what_these_are(before: str | None, name: str) -> bool:
    """Whether ``before``, the sentence before "We call these scripts." (``Found.called``),
    can be what "these" points at, so that the sentence names them: it describes them
    without the name ("Some files hold shell commands run in order."). When it writes the
    name already ("The module defines two helper functions. We call these functions."), or
    ends with a colon that opens code or a list ("Here are two helpers:"), "these scripts"
    are the ones it showed, and the sentence calls them. With no such sentence (the naming
    opens its section, or follows another definition) nothing says what they are."""
    if before is None or before.rstrip(" \"'”’)").endswith(":"):
        return False
    key, start = term_key(name), name[:2].lower()
    return all(term_key(word) != key for word in _WORD.findall(before)
               if word[:2].lower() == start)  # only a word that starts as the name may be it


def _words(lesson: Lesson) -> str:
    """Every heading, paragraph and list item of the lesson, one after another."""
    return "\n".join(part for section in lesson.sections
                     for part in (section.heading or "", *section.prose))


def _written_again(name: str, words: str) -> bool:
    """Whether the lesson writes ``name`` ("pattern matching") anywhere besides the sentence
    that names it: then the kind noun belongs to the name, whatever the glossary holds."""
    pattern = (r"(?<![\w'’-])" + r"\s+".join(map(re.escape, name.split()))
               + r"(?![\w'’-])")
    return len(re.findall(pattern, words, re.I)) > 1


def _read_with(sentence: str, hit: Found, before: str | None) -> str | None | bool:
    """What ``hit``'s definition is read with (``_keep``'s ``before``): nothing (False) when
    the sentence says what the term is itself, with no pointer before the term or with an
    explanation after it past a colon or a dash ('The word for this is "airtime fairness":
    every client gets …') or in a clause opened by "when" ("This is called chain suck when
    the chain clings …": ``says_when``); else ``before``, the sentence before it. That is
    None when the sentence opens its section, or when the sentence before defines a term
    itself ("This is the NAT table. We refer to this number as the hop limit."): read
    together, the two would say the NAT table and the hop limit are one thing."""
    if not points_back(sentence[: hit.start]) or explains_itself(sentence, hit) or (
            says_when(sentence, hit)):
        return False
    return before


def _keep(found: dict[str, LessonDefinition], lesson: Lesson, section: Section, term: str,
          sentence: str, kind: str, abbreviation: str | None, alone: str | None = None,
          other: str | None = None, glossary_only: bool = False,
          before: str | None | bool = False, passing: bool = False) -> None:
    """Keep the lesson's first definition of ``term``. ``before``: False when the sentence
    says what the term is itself, else the sentence it points back to (None when nothing
    before it in its section can be shown as what it points at: ``_read_with``). An
    abbreviation spelt out in passing (``passing``: "Binoculars show a wide field of view
    (FOV) and …") defines nothing, so a later sentence that does takes its place, and keeps
    its abbreviation. So does a later sentence that names the term outright after one that
    names it only where the glossary has it (``glossary_only``: "Git keeps a special
    identifier called HEAD. … is referred to as HEAD."): else a course whose glossary lacks
    the term would lose the lesson's definition with the first."""
    key = term_key(term)
    if not key:
        return
    if key in found:
        if passing or not (found[key].passing or (found[key].glossary_only and not glossary_only)):
            return
        abbreviation = abbreviation or found.pop(key).abbreviation
        found.pop(key, None)
    fragment = None if section.anchor else text_fragment(sentence)
    found[key] = LessonDefinition(
        term=term,
        sentence=sentence,
        lesson=lesson.slug,
        url=link_to(lesson.url, section.anchor, fragment),
        anchor=section.anchor,
        kind=kind,
        abbreviation=abbreviation,
        alone=alone,
        other=other,
        glossary_only=glossary_only,
        points_back=before is not False,
        passing=passing,
        before=before or None,
    )


_POINTER = (r"(?:this|that|these|those|such|it|they|them)(?![\w'’-])"
            r"(?!\s+(?:lesson|course|chapter|section|page|module|unit|episode|tutorial|book)\b)")
_POINTS_BACK = re.compile(
    rf"(?:^|,\s*)[\"“‘(*_]*{_POINTER}"
    rf"|\b(?:call|calls|term|terms|dub|dubs|refer\s+to|refers\s+to)\s+{_POINTER}"
    rf"|\b(?:name|word|term|label)\s+(?:for|of)\s+{_POINTER}", re.I)
"""A demonstrative or a pronoun that opens a sentence ("That delay is called …", "This is
…", "In a home, this box is …"), or that a naming verb or "the word for" names ("We call
this box …", "The word for this is …"). "This lesson …" points at the lesson."""
_CLAUSE_BREAK = re.compile(r"[;:—–]|,\s+(?:and|but|so)\s", re.I)
"""After such a break a pointer points at the clause before it, in the same sentence: "Routers
join networks, and this is called routing." says it all itself."""


def points_back(words: str) -> bool:
    """Whether the words of a sentence before the term it defines point back at what the
    sentences before it said, so that the term's meaning is there and not in this one: a
    pointer in the sentence's first clause (``_POINTS_BACK``). A term past a semicolon is
    named in a clause that stands as a sentence of its own: a pointer before the semicolon
    belongs to that clause's own naming ("We call this letter italic; the small format became
    known as the enchiridion, a book for the hand."), and one after it points at the clause
    before, so the sentence says it all itself."""
    if ";" in words:
        return False
    first = _CLAUSE_BREAK.split(words, 1)[0]
    return bool(_POINTS_BACK.search(first))


def clarity(definition: LessonDefinition) -> int:
    """How well a definition reads alone, 0 best: one that says what the term is ("A
    **router** is the device that …", or after a colon: 'The word for this is "airtime
    fairness": every client …'), one that points back, read with the sentence it points
    to, and one that points back at nothing it can be shown with (it opens its section, or
    the sentence before defines another term). The term page shows a term
    several lessons define by its clearest definition, the first in course order of those."""
    return 0 if not definition.points_back else 1 if definition.before else 2
