"""Recurring word pairs and triples that behave like terms: the collocation signal of
``candidates``.

NLTK's finders count every pair and triple within a clause; an n-gram is kept when it occurs at
least ``MIN_COUNT`` times and its likelihood ratio (Dunning), which is asymptotically
chi-squared, passes ``MIN_LIKELIHOOD``, the p < 0.001 cut-off. Then what statistics cannot
tell is removed by rule: a stop word, quantifier or common verb at either edge, a phrase made
only of everyday words (NLTK ships no word-frequency data without a download, so
``_EVERYDAY`` is a short list), and verb phrases, told by what stands around them: around the
phrase, and around its words all through the course (``verb_phrase``; NLTK's tagger also
needs a download).
Inflections are counted together ("text editor", "text editors").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain, pairwise

from .analysis import STOP_WORDS, normalize, stem
from .nltk_parts import collocation_parts
from .spelling import third_person, third_person_of, verb_forms_written

MIN_COUNT = 3
SCORED_COUNT = 2
"""An n-gram seen this many times is scored, so that the inflections of a phrase are counted
together before ``MIN_COUNT`` applies ("nested list" twice and "nested lists" twice: four
uses)."""
MIN_LIKELIHOOD = 10.83
_PAST = re.compile(r"..[^e]ed$")


@dataclass(frozen=True, slots=True)
class Run:
    """Words between two breaks (punctuation or code) in one section's prose."""

    doc: int
    words: tuple[str, ...]
    lowered: tuple[str, ...]
    """The words as counted (``lowered``)."""
    mid: bool
    """False when the run starts a sentence: its first capital says nothing."""
    prose: bool
    """False for a heading, whose capitals are often title case."""


def _stems(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in text.split())


_EDGE = frozenset(stem(w) for w in STOP_WORDS) | _stems(
    """also always usually often sometimes never ever just simply really quite rather even
    every each many much several most more less another one two three four five six seven
    eight nine ten eleven twelve twenty thirty forty fifty hundred thousand million billion
    dozen first second third last next later now then today here there yet already still
    instead may might must shall can cannot per etc via like unlike new old same different
    other whole
    use used using get got make made see seen need want know let go goes gone say said call
    called take give put show try look find keep tell mean means come following us newly
    particular whose around across within contain allow total zero re pre non"""
)
"""Words that begin or end no term: function words, quantifiers (a number in words as a
number in digits: "nine bars" is a measure, as "9 bars" is), adverbs, common verbs."""

_EVERYDAY = _stems(
    """time times way ways thing things part parts place case example examples point end
    start beginning kind sort type number numbers lot bit line lines page pages word words
    sentence text name names question questions answer answers problem problems idea
    reason result results step steps order group set list table value values piece pieces
    people person day week year hour minute second minutes seconds world home work job
    course lesson lessons chapter section exercise exercises solution solutions note
    error message information data computer screen window book story left right top bottom
    front back side middle inside outside short long big small large good bad best better
    great little high low full empty easy hard simple plain real true false sure right wrong
    correct reverse main final single double whole open close clear quick slow early late
    enough rest change changes choice choose read write run see look think learn teach
    answer ask help follow start stop play move turn hold bring begin turns size sizes fixed"""
)
"""Everyday English: a phrase made only of these is no jargon, whatever its statistics."""

_ADJECTIVE = re.compile(r"^[a-z]+(?:[^m]ent|ant|ous|ful|less)$")
_NOUNS_LIKE_ADJECTIVES = frozenset("""accent agent client constant content event parent
    patent percent plant student talent tenant""".split())
_BEFORE_VERB = frozenset(
    "to can could will would should must may might we you i they he she let's don't".split()
)
_AFTER_VERB = frozenset(
    "the a an to this these those it its their our your my his her them us me him".split()
)

_SUBJECT = frozenset("it he she who".split())
"""Words a verb's -s form follows ("it predicts") and a plural noun does not (unlike "that"
or "which": "note that files…", "which files")."""
_OBJECT = _AFTER_VERB - {"to"}
"""Words a verb's -s form is followed by ("predicts the"), not "to", which follows plural
nouns as often ("changes to the file")."""
_BEFORE_NOUN = frozenset("""the these those our their your my its his of some many all few
    several both two three no with in for from on""".split())
"""Words a plural noun follows ("the files", "of types") and a verb's -s form does not."""
_BEFORE_SINGULAR = frozenset("the a an this its their our your my his of".split())
"""Words a noun follows ("a change") and a verb's base form does not."""
_NOUN_PHRASE_OPENERS = _BEFORE_NOUN | _BEFORE_SINGULAR | frozenset("""an each every any
    another four five by at into about""".split())
"""Words a noun phrase follows ("a join table", "of build tools") and a verb and its object
never do ("we *write queries*"): articles, determiners, numbers and prepositions, not "to"."""
_POSSESSIVE = re.compile(r"['’]s$")
_UNIT_SYMBOLS = frozenset("""mm cm km nm µm μm kg mg µg μg ms ns µs μs ml cl kb mb gb tb
    kib mib gib tib kbps mbps gbps hz khz mhz ghz mv kv kw kwh mw mwh gw gwh mah db ft yd mi
    lb lbs oz px pt mph kph rpm hr hrs min sec secs deg arcsec arcmin""".split())
"""Unit symbols in lower case, as the runs hold them ("mm", "kg", "ms", "GHz", "px"). Written
right after a number ("a 1000 mm focal length", "50 ms timeout") one measures, and a phrase
it opens is no term: "mm focal length" is "focal length" with the number's unit stuck on."""
_NUMBER_WORDS = frozenset("""one two three four five six seven eight nine ten eleven twelve
    twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million""".split())


@dataclass
class _Uses:
    """Where one collocation occurs, in all its inflections, and what stands around it."""

    lowered: tuple[str, ...]
    per_doc: Counter = field(default_factory=Counter)
    surfaces: Counter = field(default_factory=Counter)
    verb_context: int = 0
    """Occurrences after "to", a modal or a pronoun ("we *write queries*"), or before an
    article or pronoun ("the model *predicts the*"): the phrase starts or ends with a verb."""
    noun_context: int = 0
    """Occurrences after an article, a determiner, a number, a preposition or a possessive
    ("a *join table*", "Word's *Track Changes*"), where a noun phrase stands and a verb does
    not."""
    clause_start: int = 0
    """Occurrences opening a clause ("*Write queries* that…") or after "to", a modal or a
    pronoun: where a verb stands."""

    @property
    def count(self) -> int:
        return sum(self.per_doc.values())

    @property
    def phrase(self) -> str:
        """The spelling most used in mid-sentence prose, where a capital means a name."""
        return " ".join(self.surfaces.most_common(1)[0][0] if self.surfaces else self.lowered)


def lowered(words: tuple[str, ...]) -> tuple[str, ...]:
    """The words normalized (``analysis.normalize``): the same tuple when that changes
    nothing, as in most prose, so a pickle of a run holds its words once."""
    # The words hold no space and normalizing makes none: one call per run, not per word.
    joined = " ".join(words)
    low = normalize(joined)
    return words if low == joined else tuple(low.split(" "))


@dataclass(slots=True)
class NgramCounts:
    """What NLTK's finders score: how often each word, pair, pair one word apart (``a _ c``)
    and triple occurs, never across two runs (the counts ``from_documents`` gives, counted
    with ``Counter`` on ``zip``s many times faster)."""

    words: Counter
    pairs: Counter
    skips: Counter
    triples: Counter

    @classmethod
    def of(cls, runs: Iterable[tuple[str, ...]]) -> NgramCounts:
        runs = list(runs)
        return cls(Counter(chain.from_iterable(runs)),
                   Counter(chain.from_iterable(map(pairwise, runs))),
                   Counter(chain.from_iterable(zip(run, run[2:], strict=False) for run in runs)),
                   Counter(chain.from_iterable(_grams(run, 3) for run in runs)))

    def patch(self, gone: Iterable[tuple[str, ...]], new: Iterable[tuple[str, ...]]) -> None:
        """Without the ``gone`` runs' n-grams and with the ``new`` ones': the counts that
        counting the runs again gives (an n-gram no longer seen is no longer listed)."""
        minus, plus = NgramCounts.of(gone), NgramCounts.of(new)
        for mine, fewer, more in zip(self._parts(), minus._parts(), plus._parts(), strict=True):
            mine.update(more)
            mine.subtract(fewer)
            for gram in fewer:
                if mine[gram] <= 0:
                    del mine[gram]

    def _parts(self) -> tuple[Counter, Counter, Counter, Counter]:
        return self.words, self.pairs, self.skips, self.triples


def find_collocations(runs: list[Run], counts: NgramCounts | None = None
                      ) -> dict[str, Counter]:
    """Phrase → occurrences per document. Trigrams first, so a pair that only ever occurs
    inside a kept triple is dropped. ``counts`` are the runs' ``NgramCounts`` when the
    caller keeps them. Every n-gram seen ``SCORED_COUNT`` times is scored, its inflections
    counted together before ``MIN_COUNT`` applies."""
    kept: dict[tuple[str, ...], _Uses] = {}
    counts = counts or NgramCounts.of(r.lowered for r in runs)
    for size, finder, measures in _finders(counts):
        finder.apply_freq_filter(SCORED_COUNT)
        finder.apply_ngram_filter(_not_a_term)
        scored = {
            gram for gram, score in finder.score_ngrams(measures.likelihood_ratio)
            if score >= MIN_LIKELIHOOD and not _everyday(gram)
        }
        found: dict[tuple[str, ...], _Uses] = {}
        firsts = {gram[0] for gram in scored}
        for run in runs:
            words = run.lowered
            if firsts.isdisjoint(words) or scored.isdisjoint(_grams(words, size)):
                continue  # most runs hold no kept n-gram: looked for in C
            for i, gram in enumerate(_grams(words, size)):
                if gram not in scored or i and _measured(words[i - 1], gram[0]):
                    continue
                key = tuple(map(stem, gram))
                uses = found.get(key)
                if uses is None:
                    uses = found[key] = _Uses(gram)
                uses.per_doc[run.doc] += 1
                if run.prose and (i or run.mid):
                    uses.surfaces[run.words[i:i + size]] += 1
                before = words[i - 1] if i else None
                after = words[i + size] if i + size < len(words) else None
                uses.verb_context += before in _BEFORE_VERB or after in _AFTER_VERB
                uses.clause_start += before is None or before in _BEFORE_VERB
                uses.noun_context += before is not None and (
                    before in _NOUN_PHRASE_OPENERS or before.isdigit()
                    or _POSSESSIVE.search(before) is not None)
        inside: Counter = Counter()  # uses of a shorter n-gram inside the kept longer ones
        for longer, uses in kept.items():
            inside.update(dict.fromkeys({longer[i:i + size]
                                         for i in range(len(longer) - size + 1)}, uses.count))
        for key, uses in found.items():
            own = uses.count - inside[key]
            if (own >= MIN_COUNT and 2 * uses.verb_context < uses.count
                    and not verb_phrase(uses.lowered, counts)
                    and not verb_and_object(uses, counts)):
                kept[key] = uses
    return {uses.phrase: uses.per_doc for uses in kept.values()}


def _measured(before: str, word: str) -> bool:
    """Whether ``word`` is a unit written after a number, in digits or words ("1000 mm",
    "fifty ms"): a phrase it opens there is no use of a term (``_UNIT_SYMBOLS``)."""
    return word in _UNIT_SYMBOLS and (before.isdigit() or before in _NUMBER_WORDS)


def _finders(counts: NgramCounts):
    """(size, NLTK's finder, its association measures) for triples, then pairs. Words and
    pairs are shared by both finders (their filters replace only their own n-gram counts,
    and never change ``counts``)."""
    nltk = collocation_parts()
    words, pairs, skips, triples = map(nltk.FreqDist, counts._parts())
    return (
        (3, nltk.TrigramCollocationFinder(words, pairs, skips, triples),
         nltk.TrigramAssocMeasures),
        (2, nltk.BigramCollocationFinder(words, pairs), nltk.BigramAssocMeasures),
    )


def verb_phrase(gram: tuple[str, ...], counts: NgramCounts) -> bool:
    """Whether ``gram`` (lower case) says what something does rather than names a thing: it
    holds a verb's -s form ("model *predicts*", "*selects* lines"), or a plural noun and the
    verb it governs ("databases represent"), as the course uses those words all through it
    (``counts``). Words that only look like verbs stay: "mixture of experts", "data types"
    (the course writes "the types"), "training data", and a plural after an adjective or a
    participle, which is no subject ("numbered lists")."""
    return (any(_third_person_verb(word, counts) and not (i and _describes(gram[i - 1]))
                for i, word in enumerate(gram))
            or any(_plural(noun, counts) and base_verb(verb, counts)
                   for noun, verb in pairwise(gram)))


def verb_and_object(uses: _Uses, counts: NgramCounts) -> bool:
    """Whether the phrase of ``uses`` is a verb and its object ("write queries", "insert
    values", "ignore null values"): its first word is a verb by the course's own text
    (``base_verb``), the phrase is never written where a noun phrase stands (after an
    article, a determiner, a number, a preposition or a possessive), and it is written
    where a verb stands (opening a clause, after "to", a modal or a pronoun). A noun phrase
    led by a word the course also writes as a verb is written after an article somewhere
    ("a join table", "the build tools") and stays."""
    return (not uses.noun_context and uses.clause_start > 0
            and base_verb(uses.lowered[0], counts))


def _describes(word: str) -> bool:
    """An adjective or a participle by its ending ("numbered", "dangerous")."""
    return _PAST.search(word) is not None or adjective(word)


def _third_person_verb(word: str, counts: NgramCounts) -> bool:
    """A verb's -s form: the course writes the verb as one (``spelling.verb_forms_written``:
    "predicted" or "predicting" too) and writes ``word`` as a verb ("it predicts", "predicts
    the") more often than as a plural noun ("the predicts")."""
    if not word.endswith("s") or word.endswith(("ss", "us", "is")):
        return False
    if not any(verb_forms_written(verb, counts.words) for verb in third_person_of(word)):
        return False
    pairs = counts.pairs
    verb = (sum(pairs[before, word] for before in _SUBJECT)
            + sum(pairs[word, after] for after in _OBJECT))
    return verb > sum(pairs[before, word] for before in _BEFORE_NOUN)


def _plural(word: str, counts: NgramCounts) -> bool:
    return (word.endswith("s") and not word.endswith(("ss", "us", "is"))
            and not _third_person_verb(word, counts))


def base_verb(word: str, counts: NgramCounts) -> bool:
    """A verb's base form, after a plural subject ("databases *represent*", "values *lie*")
    or before its object ("*write* queries"): the course writes it as a verb (with its -ing
    or -ed form), and after "to", a modal or a pronoun more often than after an article,
    or never as a noun at all: neither it after an article, a determiner or "of" ("a lie")
    nor its -s form after one or a preposition ("the lies")."""
    if not verb_forms_written(word, counts.words):
        return False
    pairs = counts.pairs
    as_noun = sum(pairs[before, word] for before in _BEFORE_SINGULAR)
    if sum(pairs[before, word] for before in _BEFORE_VERB) > as_noun:
        return True
    plural = third_person(word)
    return not as_noun and not any(pairs[before, plural] for before in _BEFORE_NOUN)


def _grams(words: tuple[str, ...], size: int) -> Iterator[tuple[str, ...]]:
    """The run's n-grams of ``size`` (2 or 3) words, in order."""
    if size == 2:
        return zip(words, words[1:], strict=False)
    return zip(words, words[1:], words[2:], strict=False)


def _not_a_term(*gram: str) -> bool:
    """True for an n-gram that cannot be jargon: NLTK's filter drops those."""
    if {gram[0], gram[-1]} & STOP_WORDS or stem(gram[0]) in _EDGE or stem(gram[-1]) in _EDGE:
        return True
    if any(w in STOP_WORDS and w != "of" for w in gram[1:-1]):
        return True
    if _PAST.search(gram[-1]) or gram[0].endswith("ly"):
        return True  # "error occurred", "frequently used": a verb or an adverb at the edge
    return any(len(w) < 2 or w.isdigit() or "'" in w or "’" in w for w in gram)


def _everyday(gram: tuple[str, ...]) -> bool:
    return all(stem(w) in _EVERYDAY or w in STOP_WORDS for w in gram)


def edge_word(phrase: str) -> str | None:
    """The word at either end of ``phrase`` (two words or more) that keeps it from ever being
    a candidate, as ``_not_a_term`` reads a run: a function word, a quantifier or a number
    (in words or digits: "nine bars" is a measure), an adverb, a common verb; else None.
    A phrase with a capital is left alone: a name ("New York") is a candidate of its own
    kind."""
    written = phrase.split()
    if len(written) < 2 or phrase != phrase.lower():
        return None
    found = [normalize(w) for w in written]
    for word in (found[0], found[-1]):
        if word in STOP_WORDS or stem(word) in _EDGE or word.isdigit():
            return word
    return None


def ends_no_term(word: str) -> bool:
    """Whether ``word`` (lower case) cannot end a term: a stop word, a word of ``_EDGE``, a
    verb in the past ("occurred")."""
    return word in STOP_WORDS or stem(word) in _EDGE or _PAST.search(word) is not None


def adjective(word: str) -> bool:
    """Whether ``word`` (lower case) is an adjective by its ending: -ent, -ant, -ous, -ful,
    -less, except nouns that end so ("client", "student")."""
    return _ADJECTIVE.search(word) is not None and word not in _NOUNS_LIKE_ADJECTIVES


def ordinary(word: str) -> bool:
    """A stop word, an everyday word or one that begins or ends no term."""
    low = word.lower()
    return low in STOP_WORDS or stem(low) in _EVERYDAY or stem(low) in _EDGE
