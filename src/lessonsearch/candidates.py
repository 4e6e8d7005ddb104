"""Jargon the glossary may be missing, found in the course text at build time.

The coverage report is served from the index, which holds no running text to mine, so the
build finds candidates and stores them (``glossary_table.write_coverage_tables``). Three
signals, each cheap and explainable to an editor:

* collocations: word pairs and triples that recur and occur together far more often than
  their words' own frequencies predict (``collocations``);
* acronyms: ``KV``, ``LLMs``, ``RLHF`` — all capitals, 2 to 6 letters, at least twice;
* capitalised phrases in mid-sentence: product and tool names (``GitHub``, ``Hugging Face``).

Terms the glossary or the lessons already name (in any spelling the ``TermMatcher`` knows),
and pieces of them, are left out. Text is cut into runs at punctuation and at code
(``data/file.csv``), which no candidate crosses. Candidates are ranked by how many lessons
use them: jargon that recurs across lessons is what a reader meets without an explanation.
"""

from __future__ import annotations

import re
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping

from .analysis import WORD, normalize, stem
from .build_cache import BuildCache
from .collocations import MIN_COUNT, NgramCounts, Run, find_collocations, lowered, ordinary
from .definition_terms import split_sentences
from .glossary_table import Candidate, Place
from .model import Course
from .term_matching import TermMatcher
from .whoosh_index import Document, documents

MAX_CANDIDATES = 30
MIN_ACRONYM_COUNT = 2
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
_TWO_CAPITALS = re.compile(r"[A-Z]{2}")
"""What any word ``_ACRONYM`` matches holds."""
_ROMAN = re.compile(r"^[IVXLCDM]+$")
_APOSTROPHE_S = re.compile(r"['’]s$")
_OPENING = "\"'“‘([{"
_CLOSING = "\"'”’)]}.,;:!?"


def find_candidates(
    course: Course, variants: Mapping[str, Iterable[str]], limit: int = MAX_CANDIDATES,
    docs: list[Document] | None = None, cache: BuildCache | None = None,
    text_key: Callable[[Document], str] | None = None,
) -> tuple[Candidate, ...]:
    """At most ``limit`` candidates, most lessons first, then most uses, then A–Z.

    ``variants`` maps every known term (glossary or lesson-defined) to its other spellings;
    ``docs`` are the sections candidates are drawn from: by default the ``sample`` of the
    course's documents, which a build has already. A build's ``cache`` keeps what each
    section holds (``_facts``), under the key ``text_key`` gives its heading and text, and
    the sample's n-gram counts (``_counts``).
    """
    known = _Known(variants)
    docs = docs if docs is not None else sample(list(documents(course)))
    if cache is None or text_key is None:
        facts = [_section_facts(doc.heading, doc.body) for doc in docs]
        counts = None
    else:
        keys = [text_key(doc) for doc in docs]
        facts = [_facts(doc, key, cache) for doc, key in zip(docs, keys, strict=True)]
        counts = _counts(keys, facts, cache)
    runs = [Run(index, words, low, mid, prose)
            for index, (found_runs, _, _) in enumerate(facts)
            for words, low, mid, prose in found_runs]
    signals = (
        ("capitalised", _tally([capitalised for _, capitalised, _ in facts], MIN_COUNT)),
        ("acronym", _tally([acronyms for _, _, acronyms in facts], MIN_ACRONYM_COUNT)),
        ("collocation", find_collocations(runs, counts)),
    )
    found: dict[str, tuple[str, Counter]] = {}
    for kind, phrases in signals:
        for phrase, per_doc in phrases.items():
            if phrase.lower() not in {p.lower() for p in found} and not known.covers(phrase):
                found[phrase] = (kind, per_doc)
    names = [phrase for phrase, (kind, _) in found.items() if kind == "capitalised"]
    for phrase, per_doc in _every_use(names, runs).items():
        found[phrase] = ("capitalised", per_doc)
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
    candidates.sort(key=lambda c: (-len(c.lessons), -c.count, c.phrase.lower()))
    return tuple(candidates[:limit])


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


Facts = tuple[list[tuple[tuple[str, ...], tuple[str, ...], bool, bool]], dict[str, int],
              dict[str, int]]
"""What one section holds for the candidates: its runs (words, the words as counted,
whether mid-sentence, whether prose), its capitalised phrases and its acronyms, each with
its count there."""


def _facts(doc: Document, key: str, cache: BuildCache) -> Facts:
    """The section's facts, kept under its text's ``key``: finding the candidates again
    reads only the sections that changed."""
    return cache.remember("candidate facts", key, lambda: _section_facts(doc.heading, doc.body))


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


def _every_use(names: list[str], runs: list[Run]) -> dict[str, Counter]:
    """Each name's count in each section, wherever it is written: at a sentence's start, in a
    heading, in the possessive ("MySQL's"). A capital tells a name only in mid-sentence
    prose, so that is where names are found; but they are ranked by how many lessons use
    them, and a name that often opens a sentence ("MySQL keeps…") is used there too."""
    wanted: dict[str, list[tuple[str, ...]]] = {}
    for name in names:
        words = tuple(name.split(" "))
        wanted.setdefault(words[0], []).append(words)
    firsts = set(wanted) | {first + s for first in wanted for s in ("'s", "’s")}
    uses = {name: Counter() for name in names}
    for run in runs:
        if firsts.isdisjoint(run.words):
            continue  # most runs name none of them: looked for in C
        plain = tuple(_APOSTROPHE_S.sub("", w) for w in run.words)
        for i, word in enumerate(plain):
            for name in wanted.get(word, ()):
                if plain[i:i + len(name)] == name:
                    uses[" ".join(name)][run.doc] += 1
    return uses


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
    for word in words:
        core = word[:-1] if len(word) > 2 and word.endswith("s") else word
        if not _ACRONYM.match(core) or _ROMAN.match(core):
            continue
        if ordinary(core):
            continue  # "NOT", "ALL": a word shouted, not an abbreviation
        yield core


def _capitalised(words: tuple[str, ...], mid: bool) -> Iterator[str]:
    """Runs of two to four capitalised words in mid-sentence prose ("Hugging Face"), and
    single words with a capital inside (``GitHub``, ``SQLite``). A lone capitalised word is
    most often a person in an example ("Nelle", "Dr"), so it is left out. A possessive ends
    a name: "MySQL's InnoDB" is two."""
    i = 0 if mid else 1
    while i < len(words):
        j = i
        while j < len(words) and j - i < 4 and _is_capitalised(words[j]):
            j += 1
            if _APOSTROPHE_S.search(words[j - 1]):
                break
        if j > i:
            phrase = [_APOSTROPHE_S.sub("", w) for w in words[i:j]]
            if len(phrase) > 1 or _inner_capital(phrase[0]):
                yield " ".join(phrase)
            i = j
        else:
            i += 1


def _is_capitalised(word: str) -> bool:
    return word[:1].isupper() and not word.isupper() and word[1:2].isalpha()


def _inner_capital(word: str) -> bool:
    return any(c.isupper() for c in word[1:])
