"""Whether a course writes the verb of a glossary term word in -ing as a verb.

A term word in -ing is the act of a verb, and the verb written bare or with -s is a mention
of it: "the model overfits" uses overfitting. But the bare word is often a noun that names
another thing: a coffee course's "a cup of coffee" is no cupping, a shell lesson's "put it in
quotes" no quoting. The course's own text tells the two apart, as the jargon candidates tell
a verb (``collocations.base_verb``): the course writes the word with its -ed or -ing form and
after "to", a modal or a pronoun rather than after an article, or never as a noun at all.
A term word whose verb it does not write so is ``nouns``: the term matcher takes its bare
word and -s form for no mention of it (``term_forms.writes_term_word``).

The evidence is counted lesson by lesson (``count_forms``: the verbs' forms, and the word
before each), so a build counts again only the lessons that changed. It decides only the uses
whose own word before says nothing (``reading_after``): "a cup" is a noun and "we cup" a
verb wherever they are written, whatever the rest of the course writes; and so is the end of
a noun phrase with a word or two between its opener and it (``reading_in_phrase``: "a good
cup", "your morning cup").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from .analysis import STOP_WORDS, american, find_words, normalize
from .collocations import NgramCounts, base_verb
from .spelling import verb_forms
from .term_forms import (
    abbreviation_core,
    derived_together,
    inflections,
    ing_verbs,
    writes_term_word,
)

_LOOK_BACK = 40
"""How far before a form the word before it is looked for (``_word_before``)."""
_WORD_CHARACTER = re.compile(r"[\w'’]")
_WORD_RUN = re.compile(r"[\w'’]+")


_AS_NOUN = """a an the this these those its our their your my his whose of every any another
    no some many few several one two three four five six seven eight nine ten""".split()
"""Words after which a bare verb or its -s form is a noun ("a cup", "two cups"): articles,
determiners, numbers, possessives and "of" (not "her", "that", "each" or "all", which a
verb may follow: "let her cup", "models that overfit", "we each tamp")."""
_AS_VERB = """to can could will would should must may might shall we you i they he she it who
    let's don't doesn't didn't can't cannot won't wouldn't shouldn't couldn't mustn't""".split()
"""Words after which it is the verb ("to cup", "we cup", "it overfits"): "to", a modal, a
subject pronoun."""
_READING_AFTER: dict[str, bool] = {**dict.fromkeys(_AS_NOUN, False),
                                   **dict.fromkeys(_AS_VERB, True)}


def reading_after(before: str) -> bool | None:
    """Whether the bare verb or -s form of a term word in -ing, written right after the word
    ``before`` (lower case, as ``analysis.normalize`` gives it), is the verb (True: "we
    cup"), a noun (False: "a cup", "two cups", "the taster's cup", "2 cups"), or what the
    course's text as a whole says (None: "Cup the samples", "good cup")."""
    found = _READING_AFTER.get(before)
    if found is None and (before.isdigit() or before.endswith("'s")):
        return False
    return found


_IN_NOUN_PHRASE = frozenset("very same other own only more most".split())
"""Function words (``analysis.STOP_WORDS``) that may stand between a determiner and its
noun: "the same cup", "your own cup", "a very good cup". Any other ("and", "then", "us")
ends the noun phrase: "the sample and cup it", "the tasters then cup", "most of us cup"."""
_FUNCTION_WORDS = STOP_WORDS - _IN_NOUN_PHRASE | set(
    """us also always never often usually sometimes still already even now rarely seldom
    actually typically generally normally""".split())
"""The words that end a noun phrase before its noun (``_IN_NOUN_PHRASE``): the function
words, "us", which ``STOP_WORDS`` leaves out, and the adverbs that stand between a subject
and its verb ("option 2 also works")."""
_PLURAL_OPENERS = frozenset(
    "these those many few several two three four five six seven eight nine ten".split())
"""Determiners of a plural noun: the -s form they open a noun phrase with is the noun's
plural ("two small cups"), where "the model overfits" may be the verb's. Not a number in
digits, which is as often a label ("option 2 works")."""
_OBJECT_OPENERS = frozenset((*_AS_NOUN, "it", "them", "him", "her", "us", "me", "each", "all",
                             "both")) - {"of"}
"""Words an object starts with, after its verb: "the head barista cups every lot", "the
new hires cup them"; not "of" ("a cup of coffee")."""


def reading_in_phrase(before: Sequence[str], bare: bool, after: str | None) -> bool | None:
    """Whether the bare verb or -s form of a term word in -ing ends a noun phrase that a
    word before it opens (False: "a good cup", "a filter cup", "the first cup", "your
    morning cup", "a very good cup", "two small cups"), where the word right before it says
    nothing (``reading_after`` is None); None where it may be the verb ("the tasters cup",
    "the model overfits") and the course's text as a whole decides.

    ``before`` holds up to three words before it, the nearest last, lower case, with only
    spaces (or a hyphen, within a compound: "a single-origin cup") between them and it;
    ``after`` the word after it, with only spaces between and no capital (which starts a
    sentence, or the text after a heading), or None. The phrase is an
    article, a determiner, a number in words, a possessive or "of" (``reading_after``
    False), then one or two words that are no function word, adverb or contraction
    (``_FUNCTION_WORDS``: "the sample and cup it", "the team also cups") and no plural (the
    verb agreeing with its subject: "the tasters cup", "these ways work"), then the form,
    which no object follows ("the head barista cups every lot", ``_OBJECT_OPENERS``). The
    -s form is the noun's plural only after a plural opener ("two small cups"): after
    another ("the model overfits", "the paper cups") the course decides."""
    for size in (2, 3):
        if len(before) < size:
            return None
        opener = before[-size]
        found = reading_after(opener)
        if found is False and not opener.isdigit():
            break
        if found is True:
            return None  # "we really cup"
    else:
        return None
    between = before[1 - size:]
    if any(w in _FUNCTION_WORDS or "'" in w for w in between):
        return None  # "and", "then", "us", "they'll"
    if any(_plural(w) for w in between):
        return None  # "the tasters cup", "neither of these ways works"
    if after is not None and (after in _OBJECT_OPENERS or after.isdigit()):
        return None
    return False if bare or opener in _PLURAL_OPENERS else None


def _plural(word: str) -> bool:
    """Whether ``word`` may be a plural noun: it ends in -s, not -ss, -us or -is (process,
    status, analysis)."""
    return len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is"))


def bare_verb(word: str, term_words: Iterable[str]) -> bool:
    """Whether ``word`` (lower case) is the bare verb, not its -s form, of one of
    ``term_words`` in -ing (``term_forms.ing_verbs``): "cup" of cupping, not "cups"."""
    word = american(word)
    return any(word in ing_verbs(term_word) for term_word in term_words)


def ing_words(variants: Mapping[str, Iterable[str]]) -> dict[str, tuple[str, ...]]:
    """Each word in -ing of the terms' names and aliases (as the matcher keys it: lower
    case), with the verbs it may be made of (``term_forms.ing_verbs``)."""
    found: dict[str, tuple[str, ...]] = {}
    for name, forms in variants.items():
        for form in (name, *forms):
            for surface in find_words(form):
                word = normalize(surface)
                verbs = ing_verbs(word)
                if verbs:
                    found[word] = verbs
    return dict(sorted(found.items()))


def forms_of(ing: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
    """Every form of every verb ``ing`` names (``spelling.verb_forms``): the words
    ``count_forms`` counts."""
    return tuple(sorted({form for verbs in ing.values() for verb in verbs
                         for form in verb_forms(verb)}))


def count_forms(forms: tuple[str, ...], texts: list[str]) -> tuple[dict, dict]:
    """How often ``texts`` (one lesson's) write each of ``forms``, and each (word before,
    form) pair: lower case, as ``collocations.NgramCounts`` counts them."""
    pattern = _pattern(forms)
    words: Counter[str] = Counter()
    pairs: Counter[tuple[str, str]] = Counter()
    for text in texts:
        low = text.lower()  # what ``normalize`` changes is no letter of a form
        for match in pattern.finditer(low):
            start = match.start()
            if start and _WORD_CHARACTER.match(low, start - 1):
                continue  # inside a word: "recup"
            form = match.group()
            words[form] += 1
            before = _word_before(low, start)
            if before is not None:
                pairs[normalize(before), form] += 1
    return dict(words), dict(pairs)


def _word_before(text: str, at: int) -> str | None:
    """The word that ends right before ``at`` in ``text``, with only spaces between (a comma
    or a full stop breaks the pair, as it breaks the candidates' runs) and no paragraph's
    break, within ``_LOOK_BACK`` characters; None when there is none. Read backwards from
    ``at``: a regular expression searched for it, a word and spaces that end the window,
    and was tried at every character of the window."""
    window = text[max(0, at - _LOOK_BACK):at]
    end = len(window.rstrip())
    if end == len(window) or "\n\n" in window[end:]:
        return None
    word = _WORD_RUN.match(window[end - 1::-1]) if end else None
    return word.group()[::-1] if word is not None else None


@lru_cache(maxsize=8)
def _pattern(forms: tuple[str, ...]) -> re.Pattern[str]:
    """``forms`` as one expression, their letters shared as a tree ("embed(?:s|ded|...)"),
    ending a word. It begins with no word boundary, which the caller tests: an expression
    that starts with letters is looked for by its first letter, several times faster over a
    course's text than one starting with a boundary that is tried at every character."""
    tree: dict = {}
    for form in forms:
        node = tree
        for letter in form:
            node = node.setdefault(letter, {})
        node[""] = {}

    def written(node: dict) -> str:
        branches = [re.escape(letter) + written(child)
                    for letter, child in sorted(node.items()) if letter]
        if not branches:
            return ""
        either = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{either})?" if "" in node else either

    return re.compile(written(tree) + r"\b")


def nouns(ing: Mapping[str, tuple[str, ...]], counted: Iterable[tuple[dict, dict]]
          ) -> frozenset[str]:
    """The words of ``ing`` none of whose verbs the course writes as a verb
    (``collocations.base_verb``), by the lessons' ``count_forms``."""
    counts = NgramCounts(Counter(), Counter(), Counter(), Counter())
    for words, pairs in counted:
        counts.words.update(words)
        counts.pairs.update(pairs)
    return frozenset(word for word, verbs in ing.items()
                     if not any(base_verb(verb, counts) for verb in verbs))


def everyday_words(variants: Mapping[str, Iterable[str]]) -> frozenset[str]:
    """The words in -ing of the terms ``variants`` names (with their spellings) that the
    glossary marks as everyday words too (``Everyday: yes``): "seeing", whose verb is no
    mention of it wherever it is written, as a verb or not ("you see", "what we see"). The
    editor has said the term's word has an everyday sense besides the term's, and its verb
    is the everyday word itself, not the act the term names (see the module's docstring:
    "we cup" is cupping, "we see" is no seeing). Only a name of one word is read so: a
    phrase's word ("seeing" of a term "seeing disc") may be another term's word too, and
    the matcher reads words, whichever term they belong to."""
    one_word = {form: () for name, forms in variants.items() for form in (name, *forms)
                if len(find_words(form)) == 1}
    return frozenset(ing_words(one_word))


_VERB_GLOSS = re.compile(r"\s*(?:\([^)]*\)\s*:?\s*)?to\s+[^\W\d_]", re.IGNORECASE)
"""A definition that says what a verb means: "To record the current state …", "(a
repository): To reconcile two sets of changes"."""


def defines_a_verb(definition: str | None) -> bool:
    """Whether a glossary definition glosses a verb ("To record the current state of a set
    of files"), not a thing ("A connection from the output of one program …")."""
    return definition is not None and _VERB_GLOSS.match(definition) is not None


def noun_words(variants: Mapping[str, Iterable[str]], verbs: Iterable[str] = (),
               marked: Iterable[str] = ()) -> frozenset[str]:
    """The words of the terms ``variants`` names (with their spellings: as the matcher keys
    them, lower case) that name a thing only, whose -ed and -ing forms are no mention of
    them (``term_forms.writes_term_word``'s ``noun``): those of every term but ``verbs``
    (the terms whose glossary definition glosses a verb, ``defines_a_verb``: commit, "To
    record …"), unless another of the term's names derives from the same word
    (``term_forms.derived_together``: collimate beside collimation, overfit beside
    overfitting, whose "collimated" and "overfitted" are the act the term names). A word
    that any term uses as a verb is none: the matcher reads words, whichever term they
    belong to. A glossary names things: a parameter's alias "weight" is no "weighted", a
    type no "typing", and a function call no "function called". Nor are the words of
    ``marked``, one-word names one of whose -ed or -ing forms the course sets as a term
    itself, in a heading, a title, bold or italics ("Slicing data" of slice, "Piping
    commands together" of pipe, ``participles``): there the participle is the term's
    act, which the lessons write it as, not some other verb's ("typing Ctrl+M")."""
    verbs = frozenset(verbs)
    nouns_found: set[str] = set()
    verbal: set[str] = set()
    for name, forms in variants.items():
        found = {normalize(surface) for form in (name, *forms) for surface in find_words(form)
                 if abbreviation_core(surface) is None}
        for word in found:
            if name in verbs or any(derived_together(word, other) for other in found):
                verbal.add(word)
            else:
                nouns_found.add(word)
    return frozenset(nouns_found - verbal - set(marked))


def participles(things: Iterable[str], variants: Mapping[str, Iterable[str]]
                ) -> dict[str, str]:
    """The -ed and -ing forms ("typed", "typing") of each of ``things`` that a term, or an
    alias, names alone (of one word), each with its word: those whose use the course may
    mark (``noun_words``' ``marked``). A phrase's word has none: "function called" is never
    the phrase function call."""
    alone = {normalize(found[0]) for name, forms in variants.items() for form in (name, *forms)
             if len(found := find_words(form)) == 1}
    return {form: word for word in sorted(alone.intersection(things))
            for form in inflections(word)
            if writes_term_word(form, word) and not writes_term_word(form, word, noun=True)}


def marked_words(forms: tuple[str, ...], texts: list[str]) -> tuple[str, ...]:
    """Which of ``forms`` (lower case) ``texts`` (a lesson's headings, title, and what it
    sets in bold or italics) write, as words."""
    return tuple(sorted(count_forms(forms, texts)[0]))
