"""Jargon the glossary may be missing, found in the course text at build time.

The coverage report is served from the index, which holds no running text to mine, so the
build finds candidates and stores them (``glossary_table.write_coverage_tables``). The names
a glossary entry's See also gives that no term has come first; then four signals, each
cheap and explainable to an editor:

* marked words: a word in lower case a lesson sets in bold or italics where the course
  first writes it (``*scriptorium*``), however seldom it recurs (``_marked_words``);

* collocations: word pairs and triples that recur and occur together far more often than
  their words' own frequencies predict (``collocations``);
* acronyms: ``KV``, ``LLMs``, ``RLHF`` — all capitals, 2 to 6 letters, at least twice;
  one the course nearly always writes before the same noun is that phrase (``MAC address``);
* capitalised phrases in mid-sentence: product and tool names (``GitHub``, ``Hugging Face``),
  and single words used so in several lessons that name no person and are seldom written
  in lower case (``Postgres``, ``Raft``).

Terms the glossary or the lessons already name (in any spelling the ``TermMatcher`` knows),
and pieces of them, are left out. Text is cut into runs at punctuation and at code
(``data/file.csv``), which no candidate crosses. Candidates are ranked by how many lessons
use them: jargon that recurs across lessons is what a reader meets without an explanation;
single capitalised names, mostly places and people, come after the rest (``_rank``).
"""

from __future__ import annotations

import re
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import partial

from .analysis import WORD, normalize, stem
from .build_cache import BuildCache
from .collocations import (
    MIN_COUNT,
    NgramCounts,
    Run,
    adjective,
    ends_no_term,
    find_collocations,
    lowered,
    ordinary,
)
from .definition_terms import split_sentences
from .glossary_table import Candidate, Place
from .model import Course
from .term_matching import TermMatcher
from .whoosh_index import Document, documents

MAX_CANDIDATES = 30
MIN_ACRONYM_COUNT = 2
NOUN_AFTER_SHARE = 2 / 3
"""An acronym written before one noun in at least this share of its uses ("the MAC address",
"MAC addresses" and one "MAC" alone) is proposed as that phrase: what the course names."""
NAME_SHARE = 6
"""Of a list of ``limit`` candidates, ``limit // NAME_SHARE`` places (5 of 30) are kept for
the single names, which rank after the rest (``_kept``)."""
MIN_NAME_LESSONS = 2
"""A single capitalised word (``Postgres``) is a candidate when it stands mid-sentence in at
least this many lessons; in one, it is most often someone or something in an example."""
LOWER_SHARE = 1 / 5
PERSON_SHARE = 1 / 4
MAX_DOCUMENTS = 800
"""Past this many sections, candidates come from a sample of them spread through the course
(``sample``): jargon that recurs across a course recurs in the sample, and the cost stays
bounded at any scale."""

_CLAUSE = re.compile(r"[,;:()\[\]\"“”—–!?]|\s-\s|\.\s")
"""Punctuation a collocation never spans."""
_CODE = re.compile(r"[/\\_=<>$~@#%^|`{}*+]|\w\.\w|\(\)|^\.\w|\w-\d|\d-\w|-\w+-")
"""A chunk such as ``data/animals.csv``, ``.dat``, ``DR-1``, ``shell-lesson-data`` or
``np.mean()``: code or a name in an example, which no candidate crosses."""
_MAYBE_CODE = re.compile(_CODE.pattern.replace("^\\.", "(?:^|[\\s\"'“‘(\\[{])\\.", 1))
"""``_CODE`` over a whole clause: whatever it finds in a chunk it finds in the clause (a
chunk, stripped, is a piece of it; a chunk's start is the clause's, a space or an opening
mark). A clause it finds nothing in is words alone: the same words ``WORD`` finds chunk
by chunk, since no word spans a space or the marks stripped."""
_ACRONYM = re.compile(r"^[A-Z]{2,6}$")
_PLURAL_ACRONYM = re.compile(r"^[A-Z]{2,6}s$")
"""``GPUs``, ``LLMs``: an acronym in the plural, so no capitalised name."""
_TWO_CAPITALS = re.compile(r"[A-Z]{2}")
"""What any word ``_ACRONYM`` matches holds."""
_ROMAN = re.compile(r"^M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$")
"""A Roman numeral as one is written ("Part III", "MMXXIV"); ``LLM`` or ``DLL`` is no number."""
_UNITS = frozenset("""KB MB GB TB PB EB KiB MiB GiB TiB Kb Mb Gb Kbps Mbps Gbps Hz kHz MHz GHz
    kW kWh MW MWh GW GWh mAh dB ms ns µs""".split())
"""Units, written after a number or not ("several GB", "the GHz band"): no jargon. A glossary
that lists one makes it a term as any other."""
_EVERYDAY_ACRONYMS = frozenset("ID OK".split())
"""Abbreviations every reader knows (a loose Roman numeral test used to hide ``ID``)."""
_APOSTROPHE_S = re.compile(r"['’]s$")
_TITLES = frozenset("""Dr Mr Mrs Ms Mx Miss Mme Prof Professor Doctor Sir Dame Lady Lord Rev
    Reverend Captain Capt Judge Senator President King Queen Prince Princess""".split())
"""Words before a person's name: the name after one is a person ("Professor Gray")."""
_SAYS = frozenset("""says said asks asked thinks thought wants wanted writes wrote wonders
    wondered believes believed feels felt realises realised realizes realized remembers
    remembered decides decided agrees agreed replies replied explains explained""".split())
"""Verbs of speech and thought: a name they follow ("Priya says") is most often a person."""
_KIN = frozenset("""supervisor colleague colleagues friend friends adviser advisor boss manager
    mentor mother father sister brother wife husband partner son daughter family""".split())
"""Nouns for a person's people: a name they follow in the possessive ("Priya's supervisor")
is a person."""
_CALENDAR = frozenset("""January February March April June July August September October
    November December Monday Tuesday Wednesday Thursday Friday Saturday Sunday""".split())
_TONGUES_AND_LANDS = frozenset("""English British American Canadian Irish Scottish Welsh French
    German Dutch Flemish Italian Spanish Portuguese Latin Greek Hebrew Arabic Persian Turkish
    Russian Polish Czech Slovak Hungarian Romanian Swedish Danish Norwegian Finnish Icelandic
    Chinese Japanese Korean Indian Hindi Mexican Brazilian African Asian European Roman
    Byzantine Christian Catholic Protestant Jewish Muslim Islamic Europe Asia Africa America
    Americas Australia Antarctica""".split())
"""Languages, peoples and continents, which English always capitalises: a course about the
world names them everywhere ("Italian printers", "across Europe"), and a reader needs no
glossary for them. A short closed list; other places and people rank after the jargon
(``_rank``)."""
_MARKED_WORD = re.compile(r"^[a-z]+(?:-[a-z]+)?$")
"""A marked word that may be a term: lower-case letters, one hyphen at most."""
_STRESSED = re.compile(r"(?:ly|ed)$|^(?:every|some|any|no)(?:one|body|thing|where)$")
"""Words an author marks for stress, by their endings ("*really*", "*changed*") or as
"*everyone*", "*nothing*"."""
MIN_MARKED_LETTERS = 4
"""Shorter marked words ("*not*", "*all*", "*any*") are stress, not terms."""
_PRONOUNS = frozenset("he she his her him hers himself herself".split())
_OPENING = "\"'“‘([{"
_CLOSING = "\"'”’)]}.,;:!?"


def find_candidates(
    course: Course, variants: Mapping[str, Iterable[str]], limit: int = MAX_CANDIDATES,
    docs: list[Document] | None = None, cache: BuildCache | None = None,
    text_key: Callable[[Document], str] | None = None, named: Iterable[str] = (),
) -> tuple[Candidate, ...]:
    """At most ``limit`` candidates, most lessons first, then most uses, then A–Z, single
    capitalised names after the rest (``_rank``).

    ``variants`` maps every known term (glossary or lesson-defined) to its other spellings;
    ``docs`` are the sections candidates are drawn from: by default the ``sample`` of the
    course's documents, which a build has already. A build's ``cache`` keeps what each
    section holds (``_facts``), under the key ``text_key`` gives its heading and text, and
    the sample's n-gram counts (``_counts``). ``named``: the names the glossary's See also
    gives that no term has, each a candidate (``see-also``) however often the course uses
    it, counted at its uses, in the plural too (``_uses``).
    """
    known = _Known(variants)
    docs = docs if docs is not None else sample(list(documents(course)))
    if cache is None or text_key is None:
        facts = [_section_facts(doc.heading_apart, doc.body) for doc in docs]
        marks = [_section_marks(doc) for doc in docs]
        counts = None
    else:
        keys = [text_key(doc) for doc in docs]
        facts = [_facts(doc, key, cache) for doc, key in zip(docs, keys, strict=True)]
        marks = [cache.remember("candidate marks", key, partial(_section_marks, doc))
                 for doc, key in zip(docs, keys, strict=True)]
        counts = _counts(keys, facts, cache)
    runs = [Run(index, words, low, mid, prose)
            for index, (found_runs, _, _) in enumerate(facts)
            for words, low, mid, prose in found_runs]
    if counts is None:
        counts = NgramCounts.of(run.lowered for run in runs)
    signals = (
        ("capitalised", _recurring(_tally([capitalised for _, capitalised, _ in facts],
                                          MIN_NAME_LESSONS), docs)),
        ("acronym", _with_nouns(_tally([acronyms for _, _, acronyms in facts],
                                       MIN_ACRONYM_COUNT), runs, known)),
        ("collocation", find_collocations(runs, counts)),
    )
    named = [name for name in named if not known.covers(name)]
    marked = {word: first for word, first in _marked_words(marks).items()
              if word not in named and not known.covers(word)}
    uses = _uses([*named, *marked], runs)
    found: dict[str, tuple[str, Counter]] = {name: ("see-also", uses[name]) for name in named}
    for word, first_marked in marked.items():
        if min(uses[word], default=first_marked) >= first_marked:
            found[word] = ("marked", uses[word])
    for kind, phrases in signals:
        for phrase, per_doc in phrases.items():
            if phrase.lower() in {p.lower() for p in found} or known.covers(phrase):
                continue
            if phrase.split(" ")[0] in _TITLES:
                continue  # "Captain Moreau": a person
            if kind == "collocation" and known.qualified(phrase):
                continue
            found[phrase] = (kind, per_doc)
    _count_names(found, runs, docs, counts.words)
    candidates = []
    for phrase, (kind, per_doc) in found.items():
        per_lesson: dict[str, Place] = {}
        for index in sorted(per_doc):
            doc = docs[index]
            slug = doc.lesson.slug
            seen = per_lesson.get(slug)
            count = per_doc[index] + (seen.count if seen else 0)
            url = seen.url if seen else doc.url
            per_lesson[slug] = Place(slug, doc.lesson.title, url, count)
        candidates.append(Candidate(phrase, kind, sum(per_doc.values()),
                                    tuple(per_lesson.values())))
    candidates.sort(key=_rank)
    return _kept(candidates, limit)


def _kept(ranked: list[Candidate], limit: int) -> tuple[Candidate, ...]:
    """The first ``limit`` of the ``ranked`` candidates, but with room for the first
    ``limit // NAME_SHARE`` single names however many others there are: a software course's
    tool names (``Jupyter``, ``Linux``) are names too, and a list filled by phrases left
    them out."""
    names = [c for c in ranked if _lone_name(c)]
    others = [c for c in ranked if not _lone_name(c)]
    kept = others[:limit - min(len(names), limit // NAME_SHARE)]
    return tuple(kept + names[:limit - len(kept)])


def _rank(candidate: Candidate) -> tuple:
    """The See also names first, then the jargon found in the text, then the single
    capitalised names; each by lessons, uses, A–Z.

    A name the glossary's See also gives and no entry defines is a term by the editor's own
    word, and its link is missing now: the surest candidate, however seldom a lesson uses
    it (a craft's words are often written once, where the lesson shows the thing).

    A lone name (``Venice``, ``Gutenberg``, ``Langstroth``) may be a thing the glossary
    should explain, but in a course about history or places most are towns and people,
    which a reader looks up elsewhere: written by every lesson, they took the whole list
    from the phrases, acronyms and names with a capital inside that are the course's own
    words. Listed after those, they are still there for the editor, never in their way."""
    return (candidate.kind != "see-also", _lone_name(candidate), -len(candidate.lessons),
            -candidate.count, candidate.phrase.lower())


def _lone_name(candidate: Candidate) -> bool:
    return candidate.kind == "capitalised" and _lone(candidate.phrase)


def _marked_words(marks: list[tuple[str, ...]]) -> dict[str, int]:
    """The words of ``marks`` (each section's ``_section_marks``), each with the first
    section (its index) marking it, in course order.

    An author marks a word where it is introduced: in a craft's course these are the
    craft's own words, often written once or twice, too seldom to recur as a collocation
    does, and in lower case, where no capital tells them from prose. One marked use is
    enough, since the mark is the author's own word that it is a term; but only where the
    course first writes the word (``find_candidates``): a word the course wrote before
    without the mark ("a *local* copy", "*something* else" after many lessons of both) is
    stressed, not introduced."""
    found: dict[str, int] = {}
    for index, words in enumerate(marks):
        for word in words:
            found.setdefault(word, index)
    return found


def _section_marks(doc: Document) -> tuple[str, ...]:
    """The single words in lower case that a section sets in bold or italics
    (``*scriptorium*``) and that are no everyday word (``_plain_word``). Kept in the build
    cache beside the section's facts: reading them from a lesson taken from the cache would
    unpickle it."""
    if doc.kind != "section":
        return ()
    words = (mark.strip(_OPENING + _CLOSING + " ")
             for mark in doc.lesson.sections[doc.number].emphasis)
    return tuple(dict.fromkeys(w for w in words if _MARKED_WORD.match(w) and not _plain_word(w)))


def _plain_word(word: str) -> bool:
    """A word marked for stress rather than as a term: a stop word, an everyday word
    (``collocations.ordinary``), a verb or adverb by its ending ("*really*", "*changed*",
    "*exactly*"), "*everyone*" and its like, or a word of under four letters ("*one*")."""
    return (len(word) < MIN_MARKED_LETTERS or ordinary(word) or ends_no_term(word)
            or _STRESSED.search(word) is not None)


def _uses(phrases: Iterable[str], runs: list[Run]) -> dict[str, Counter]:
    """Each phrase's count in each section, in any case, its last word in the plural too
    ("quartos" of "quarto"), wherever it is written; read in one pass over the runs. Not by
    stems: "rubric" is no use of "rubricator", nor "illuminator" of "illumination"."""
    uses: dict[str, Counter] = {}
    ending: dict[str, list[tuple[str, list[str]]]] = {}
    for phrase in phrases:
        uses[phrase] = Counter()
        *head, last = normalize(phrase).split() or [""]
        for form in _plurals(last):
            ending.setdefault(form, []).append((phrase, head))
    for run in runs:
        low = run.lowered
        if ending.keys().isdisjoint(low):  # most runs hold none: looked for in C
            continue
        for i, word in enumerate(low):
            for phrase, head in ending.get(word, ()):
                if len(head) <= i and list(low[i - len(head):i]) == head:
                    uses[phrase][run.doc] += 1
    return uses


def _plurals(word: str) -> set[str]:
    """The word, its plural and its possessive, as ``_uses`` counts them."""
    forms = {word, word + "s", word + "es", word + "'s", word + "’s"}
    if word.endswith("y"):
        forms.add(word[:-1] + "ies")
    return forms


def sample(docs: list) -> list:
    """Every document, or between half of ``MAX_DOCUMENTS`` and all of it: one in every
    ``2 ** k``, told by a checksum of its id, in course order.

    A document is in the sample or not whatever the rest of the course holds, so a section
    added or removed elsewhere leaves the sample, and the candidates found from it, as they
    were (an evenly spaced sample shifted at every such edit, and a rebuild found the
    candidates again). ``k`` changes only when the course doubles or halves."""
    if len(docs) <= MAX_DOCUMENTS:
        return docs
    every = 1 << ((len(docs) - 1) // MAX_DOCUMENTS).bit_length()
    return [doc for doc in docs if zlib.crc32(doc.id.encode("utf-8")) % every == 0]


class _Known:
    """The terms a course already has: a candidate must be none of them, nor part of one."""

    def __init__(self, variants: Mapping[str, Iterable[str]]):
        self.matcher = TermMatcher({name: list(forms) for name, forms in variants.items()})
        forms = {tuple(stem(normalize(w)) for w in WORD.findall(form))
                 for name, forms in variants.items() for form in (name, *forms)}
        self.pieces = {form[start:end] for form in forms
                       for start in range(len(form) + 1) for end in range(start, len(form) + 1)}
        """Every run of words in a known form, as stems (the empty run too)."""

    def covers(self, phrase: str) -> bool:
        """True for a known term in any spelling, and for a piece of one ("feed forward" of
        "feed-forward network", "KV" of "KV cache")."""
        if self.matcher.canonical_for(phrase) is not None:
            return True
        return tuple(stem(normalize(w)) for w in WORD.findall(phrase)) in self.pieces

    def qualified(self, phrase: str) -> bool:
        """True for an adjective before a known term ("concurrent transactions", "previous
        commit"): a kind of the term the glossary explains, in plain English. The adjective
        is told by its ending (``collocations.adjective``), so a noun before a term ("write
        skew", "hash index") is kept, and so are endings that nouns share ("local", "atomic",
        "shared")."""
        first, _, rest = phrase.partition(" ")
        return bool(rest) and adjective(first) and self.covers(rest)


Facts = tuple[list[tuple[tuple[str, ...], tuple[str, ...], bool, bool]], dict[str, int],
              dict[str, int]]
"""What one section holds for the candidates: its runs (words, the words as counted,
whether mid-sentence, whether prose), its capitalised phrases and its acronyms, each with
its count there."""


def _facts(doc: Document, key: str, cache: BuildCache) -> Facts:
    """The section's facts, kept under its text's ``key``: finding the candidates again
    reads only the sections that changed."""
    return cache.remember("candidate facts", key,
                          lambda: _section_facts(doc.heading_apart, doc.body))


def _counts(keys: list[str], facts: list[Facts], cache: BuildCache) -> NgramCounts:
    """The sample's n-gram counts: the previous build's, patched with the sections that
    left the sample or joined it (an edited section does both), or counted again when they
    are more than half of it. Either way the same counts."""
    def runs(found: Iterable[Facts]) -> list[tuple[str, ...]]:
        return [low for section_runs, _, _ in found for _, low, _, _ in section_runs]

    sections = Counter(keys)
    before = cache.previous("candidate counts", "sample")
    if before is not None:
        gone, new = before["sections"] - sections, sections - before["sections"]
        if gone.total() + new.total() <= len(keys) // 2:
            gone_facts = [cache.previous("candidate facts", key) for key in gone.elements()]
            if None not in gone_facts:
                counts = before["counts"]
                facts_of = dict(zip(keys, facts, strict=True))
                counts.patch(runs(gone_facts), runs(facts_of[key] for key in new.elements()))
                cache.keep("candidate counts", "sample", {"sections": sections, "counts": counts})
                return counts
    counts = NgramCounts.of(runs(facts))
    cache.keep("candidate counts", "sample", {"sections": sections, "counts": counts})
    return counts


def _section_facts(heading: str | None, body: str) -> Facts:
    runs = []
    texts = [(heading, False)] if heading else []
    texts += [(para, True) for para in body.split("\n\n")]
    for text, prose in texts:
        for sentence in split_sentences(text):
            first = True
            for clause in _CLAUSE.split(sentence):
                for words in _chunks(clause):
                    if words:
                        words = tuple(words)
                        runs.append((words, lowered(words), not first, prose))
                    first = False
    # Runs without the capitals either signal needs (most) are not looked at word by word.
    capitalised = Counter(phrase for words, _, mid, prose in runs
                          if prose and not " ".join(words[0 if mid else 1:]).islower()
                          for phrase in _capitalised(words, mid))
    acronyms = Counter(core for words, _, _, _ in runs if _TWO_CAPITALS.search(" ".join(words))
                       for core in _acronyms(words))
    return runs, dict(capitalised), dict(acronyms)


def _tally(per_section: list[dict[str, int]], minimum: int) -> dict[str, Counter]:
    """Phrase → its count in each section (by index), for phrases seen ``minimum`` times,
    in the order the sections first show them."""
    per_doc: dict[str, Counter] = {}
    for index, counts in enumerate(per_section):
        for phrase, count in counts.items():
            per_doc.setdefault(phrase, Counter())[index] += count
    return {k: v for k, v in per_doc.items() if sum(v.values()) >= minimum}


def _recurring(names: dict[str, Counter], docs: list[Document]) -> dict[str, Counter]:
    """The capitalised ``names`` used ``MIN_COUNT`` times, and the single words used in
    ``MIN_NAME_LESSONS`` lessons however few times. The capital already tells a name from
    prose, so a name two lessons use ("buy a Langstroth hive", "the Langstroth box") is
    one a reader meets in both without an explanation, as a name used three times is;
    whether a single word names a thing or a person is told after (``_count_names``). Two
    words need their three uses, as a pair in lower case does: the collocations count them
    in every spelling ("Jupyter notebook" too), and no test tells a person's full name
    ("Olu Bakare") from a thing's."""
    return {name: per_doc for name, per_doc in names.items()
            if per_doc.total() >= MIN_COUNT or (
                " " not in name
                and len({docs[i].lesson.slug for i in per_doc}) >= MIN_NAME_LESSONS)}


def _with_nouns(acronyms: dict[str, Counter], runs: list[Run], known: _Known
                ) -> dict[str, Counter]:
    """The acronyms, each one the course writes before the same noun in ``NOUN_AFTER_SHARE``
    of its uses as that phrase ("MAC address"), in its most used spelling; counted at every
    use of the acronym, the one alone too. A known acronym stays as it is (and is left out
    as known): its glossary entry is what a phrase using it would send a reader to."""
    forms = {form: acronym for acronym in acronyms if not known.covers(acronym)
             for form in (acronym, acronym + "s")}
    after: dict[str, Counter] = {acronym: Counter() for acronym in forms.values()}
    for run in runs:
        if forms.keys().isdisjoint(run.words):  # most runs hold none: looked for in C
            continue
        for word, noun in zip(run.words, run.words[1:], strict=False):
            if word in forms and noun.isalpha() and noun.islower() and not ends_no_term(noun):
                after[forms[word]][noun] += 1
    found = {}
    for acronym, per_doc in acronyms.items():
        noun = _noun_after(after.get(acronym, Counter()), per_doc.total())
        found[f"{acronym} {noun}" if noun else acronym] = per_doc
    return found


def _noun_after(nouns: Counter, uses: int) -> str | None:
    """The noun written after an acronym in ``NOUN_AFTER_SHARE`` of its ``uses``, its
    inflections counted together ("address", "addresses"), in its most used spelling."""
    by_stem: Counter = Counter()
    for noun, count in nouns.items():
        by_stem[stem(noun)] += count
    for top, count in by_stem.most_common(1):
        if count >= NOUN_AFTER_SHARE * uses:
            return max((n for n in nouns if stem(n) == top), key=lambda n: (nouns[n], -len(n)))
    return None


def _count_names(found: dict[str, tuple[str, Counter]], runs: list[Run], docs: list[Document],
                 counted: Counter) -> None:
    """The capitalised names ``found`` counted at every use (``_every_use``), without the
    single words that name no thing: used mid-sentence in fewer than ``MIN_NAME_LESSONS``
    lessons, or ``_no_names``."""
    names = [phrase for phrase, (kind, _) in found.items() if kind == "capitalised"]
    every_use = _every_use(names, runs)
    lone = [name for name in names if _lone(name)]
    few = {name for name in lone
           if len({docs[i].lesson.slug for i in found[name][1]}) < MIN_NAME_LESSONS}
    for name in few | _no_names([n for n in lone if n not in few], runs, every_use, counted):
        del found[name], every_use[name]
    for name, per_doc in every_use.items():
        found[name] = ("capitalised", per_doc)


def _every_use(names: list[str], runs: list[Run]) -> dict[str, Counter]:
    """Each name's count in each section, wherever it is written: at a sentence's start, in a
    heading, in the possessive ("MySQL's"). A capital tells a name only in mid-sentence
    prose, so that is where names are found; but they are ranked by how many lessons use
    them, and a name that often opens a sentence ("MySQL keeps…") is used there too."""
    uses = {name: Counter() for name in names}
    words = _forms(name for name in names if " " not in name)
    longer: dict[str, list[tuple[str, ...]]] = {}
    for name in names:
        if " " in name:
            longer.setdefault(name.split(" ")[0], []).append(tuple(name.split(" ")))
    firsts = _forms(longer)
    for run in runs:
        if not words.keys().isdisjoint(run.words):  # most runs name none: looked for in C
            for form in words.keys() & run.words:
                uses[words[form]][run.doc] += run.words.count(form)
        if not firsts.keys().isdisjoint(run.words):
            plain = tuple(_APOSTROPHE_S.sub("", w) for w in run.words)
            for i, word in enumerate(plain):
                for name in longer.get(word, ()):
                    if plain[i:i + len(name)] == name:
                        uses[" ".join(name)][run.doc] += 1
    return uses


def _forms(words: Iterable[str]) -> dict[str, str]:
    """Each word and its possessives ("MySQL's", "MySQL’s") → the word."""
    return {word + s: word for word in words for s in ("", "'s", "’s")}


def _lone(name: str) -> bool:
    """A single capitalised word with no capital inside: ``Postgres``, not ``MySQL``."""
    return " " not in name and not _inner_capital(name)


def _no_names(lone: list[str], runs: list[Run], every_use: Mapping[str, Counter],
              counted: Counter) -> set[str]:
    """The single words that name no thing: a word the course also writes in lower case (a
    table "Site", a button "Add": ``LOWER_SHARE`` as often as capitalised), or a person, told
    by a title before the name ("Dr. Maverick") or by "he", "she", "his" or "her" in a
    sentence naming them (in ``PERSON_SHARE`` of those sentences)."""
    common = {w for w in lone if _lower_case(w, counted, every_use[w]) >= LOWER_SHARE
              * every_use[w].total()}
    return common | _people([w for w in lone if w not in common], runs)


def _lower_case(word: str, counted: Counter, every_use: Counter) -> int:
    """How often the course writes ``word`` other than capitalised: its uses as counted
    (lowered) but not as ``_every_use`` found them."""
    low = normalize(word)
    return counted[low] + counted[low + "'s"] - every_use.total()


def _people(lone: list[str], runs: list[Run]) -> set[str]:
    """The words that name a person: after a title, or in sentences saying "he" or "her",
    or that say what the name says or thinks ("Priya says", "Priya wrote") or who their
    people are ("Priya's supervisor")."""
    if not lone:
        return set()
    forms = _forms(lone)
    titled = set()
    sentences: list[tuple[set[str], bool]] = []  # the names in each, and whether "he"…
    doc, last = -1, ""
    for run in runs:
        if not run.mid or run.doc != doc:
            sentences.append((set(), False))
            doc, last = run.doc, ""
        if not _PRONOUNS.isdisjoint(run.lowered):
            sentences[-1] = (sentences[-1][0], True)
        if not forms.keys().isdisjoint(run.words):
            for i, word in enumerate(run.words):
                if word in forms:
                    sentences[-1][0].add(forms[word])
                    if (run.words[i - 1] if i else last) in _TITLES:
                        titled.add(forms[word])
                    if _says(word, run.words[i + 1:i + 2]):
                        sentences[-1] = (sentences[-1][0], True)
        last = run.words[-1] if run.words else last
    named: Counter = Counter()
    near: Counter = Counter()
    for names, pronoun in sentences:
        named.update(names)
        if pronoun:
            near.update(names)
    return {w for w in lone if w in titled or near[w] >= PERSON_SHARE * named[w]}


def _says(word: str, after: tuple[str, ...]) -> bool:
    """Whether a name ``word`` and the word ``after`` it speak of a person."""
    if not after:
        return False
    return after[0] in (_KIN if _APOSTROPHE_S.search(word) else _SAYS)


def _chunks(clause: str) -> Iterator[list[str]]:
    """The words of a clause, broken wherever a chunk of code sits."""
    if not _MAYBE_CODE.search(clause):  # most prose: no chunk can be code, one run
        yield WORD.findall(clause)
        return
    words: list[str] = []
    for chunk in clause.split():
        chunk = chunk.lstrip(_OPENING).rstrip(_CLOSING)
        if _CODE.search(chunk):
            yield words
            words = []
        else:
            words.extend(m.group() for m in WORD.finditer(chunk))
    yield words


def _acronyms(words: tuple[str, ...]) -> Iterator[str]:
    for i, word in enumerate(words):
        core = word[:-1] if len(word) > 2 and word.endswith("s") else word
        if (not _ACRONYM.match(core) or _ROMAN.match(core) or core in _EVERYDAY_ACRONYMS
                or core in _UNITS):
            continue
        if core == word and i and words[i - 1].isdigit():
            continue  # "8 KLOC": a unit too ("4 GPUs" counts things, and is read)
        if ordinary(core):
            continue  # "NOT", "ALL": a word shouted, not an abbreviation
        yield core


def _capitalised(words: tuple[str, ...], mid: bool) -> Iterator[str]:
    """Runs of two to four capitalised words in mid-sentence prose ("Hugging Face"), and
    single words with a capital inside (``GitHub``, ``SQLite``) or that may be a name
    (``_maybe_name``). A possessive ends a name: "MySQL's InnoDB" is two. At a sentence's
    start the first word's capital says nothing: after a word such as "In" the name is
    read, but after another capitalised word ("Hugging Face hosts") it is not known where
    the name starts."""
    i = 0 if mid else 1
    if not mid and not ordinary(words[0]):  # "Hugging Face hosts": no "Face"
        while i < len(words) and _is_capitalised(words[i]):
            i += 1
    while i < len(words):
        j = i
        while j < len(words) and j - i < 4 and _is_capitalised(words[j]):
            j += 1
            if _APOSTROPHE_S.search(words[j - 1]):
                break
        if j > i:
            phrase = [_APOSTROPHE_S.sub("", w) for w in words[i:j]]
            if phrase[0] in _TITLES:
                pass  # "Professor Gray", "Dr Ada Okafor": a person
            elif len(phrase) > 1 or _inner_capital(phrase[0]) or _maybe_name(words, i, phrase[0]):
                yield " ".join(phrase)
            i = j
        else:
            i += 1


def _maybe_name(words: tuple[str, ...], i: int, word: str) -> bool:
    """A single capitalised word inside a run of words (not a table's cell, not a link's
    text alone) that is no everyday word, title, month, day, language or people:
    ``Postgres``, ``Raft``. Whether it names a thing is told across the course
    (``_no_names``)."""
    return (len(words) > 1 and word not in _TITLES and word not in _CALENDAR
            and word not in _TONGUES_AND_LANDS and not ordinary(word)
            and (not i or words[i - 1] not in _TITLES))


def _is_capitalised(word: str) -> bool:
    """A word whose capital may tell a name; an acronym's plural is the acronym's, and a
    unit ("GHz") names nothing."""
    return (word[:1].isupper() and not word.isupper() and word[1:2].isalpha()
            and not _PLURAL_ACRONYM.match(word) and word not in _UNITS)


def _inner_capital(word: str) -> bool:
    return any(c.isupper() for c in word[1:])
