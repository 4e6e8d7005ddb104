"""Search one index version: ranked sections with escaped, marked snippets.

A Whoosh searcher is not safe to share between threads, so each thread gets its own, kept
for as long as the version is open. The web app and the CLI both call ``Searcher.search``
and serialise the same ``SearchResponse``.
"""

from __future__ import annotations

import json
import re
import threading
from array import array
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, partial
from itertools import islice
from pathlib import Path
from typing import Any

from whoosh import query as wq
from whoosh.collectors import FilterCollector

from .analysis import (
    NAME_SYMBOLS,
    STOP_WORDS,
    WORD,
    american,
    ion_nouns,
    lowered,
    stem,
    typed_name,
    verb_of,
)
from .analysis import words as analysis_words
from .collocations import ordinary
from .errors import BadQuery, IndexIncomplete, UnknownFilter
from .glossary_table import GLOSSARY_PART, Definition, TermRecord, headings_beginning
from .index_store import MANIFEST, current_version, open_manifest, reading_part
from .match_count import MatchCounter
from .model import defining_passage, opening_words
from .name_case import as_typed, name_of, read_as_name
from .query import (
    MAX_ATOMS,
    All,
    LeftOut,
    Node,
    Not,
    Phrase,
    Word,
    flags_as_written,
    flags_quoted,
    left_out,
    names_words,
    only_excludes,
    parse_query,
    positive_words,
    searched_of,
    too_large,
    traceback_error,
)
from .query import Any as AnyOf
from .query_plan import (
    MAX_BETWEEN,
    Plan,
    asked_about,
    asks_nothing,
    is_stop,
    kept_stops,
    number_forms,
    plan,
    without_asking_words,
    without_question_verbs,
)
from .snippets import Phrases, plain_code, plain_snippet, section_snippet
from .snippets import snippet as marked_text
from .spelling import (
    SLIP_COST,
    Speller,
    by_ear,
    changed_in_place,
    fold_accents,
    form_of_another,
    made_from_verb,
    other_ending,
    slips,
)
from .summary_rank import LessonParts
from .term_lookup import Glossary, form_pattern
from .title_share import TitleBM25, TitleShares
from .top_hits import TopInCourseOrder, course_order
from .whoosh_index import CONTENT, SPELLING, read_spelling
from .whoosh_open import open_search_index, reading_index, stored_fields
from .word_scoring import SIDE_BY_SIDE_BONUS, WordScorer, can_score

SPELLING_PART = f"spelling file ({SPELLING})"
MAX_QUERY_CHARS = 4096
"""The longest query searched, in characters once its runs of spaces are one: longer is a
400 naming the limit. A query is searched for its first ``MAX_ATOMS`` words and phrases
(``query.left_out``), so the limit is not what a search reads but what a reader may paste:
an error message with its traceback, whose paths and names part into many words (a frame
is two lines of 100 to 200 characters), ran to 1,000 to 3,000 characters and was refused
at 512 before the first 64 words could be searched. Past this, the text is no question:
reading it whole (every word is counted, for ``left_out``'s "of 85") stays a few
milliseconds, and the server's request line holds it with its escapes
(``web.server.REQUEST_LINE``)."""
MAX_LIMIT = 50
MAX_PAGE = 1000
"""The deepest page the CLI and the API serve: a deep page costs a search of every result
before it."""
SNIPPET_CHARS = 220
MAX_REMEMBERED_CORRECTIONS = 10_000
MIN_CORRECTED = 5
"""Shorter words are too near too many others to be guessed at freely: only a name with two
letters swapped (``MIN_SHORT_CORRECTED``), a word the course leans on with no rival one slip
away (``Searcher._short_word``), or a word of a glossary term's name that the words beside
it complete (``Searcher._naming_fixes``); their accents are still matched ("cafe" finds
"café")."""
MIN_SHORT_CORRECTED = 3
"""A shorter word of this many letters is corrected only by two letters swapped, and only to
a name the course writes (``Searcher._short_name``): "DHPC" is DHCP and "vlna" VLAN, as an
acronym's letters are typed fast and swapped often. Of the 2,700 words of three or four
letters of an English word list that the sample course does not write, none is corrected
so (nor of the 2,900 a course on home networks does not write); with any one slip, typed
in capitals, 47 and 49 were, mostly to other words ("MAN": MAC, "DOS": DNS, "HEAT": head)."""
MIN_SHORT_WORD_USES = 4
"""How often the course writes a word, at the least, for a short word it does not write to
be corrected to it by any one slip (``Searcher._short_word``: "hony" is honey, "quen"
queen), unless the glossary names it ("dron": drone): the word a reader means is one the
course uses, and rare words, which a real word is as likely one slip from, stay out of
reach."""
SHORT_WORD_SHARE = 0.002
"""And the share of all the words the course writes that it must be, at the least: in a
course of 100,000 words, 200 times. Of the 2,700 words of three or four letters of an
English word list that the sample course does not write, 146 were corrected with only
``MIN_SHORT_WORD_USES`` (to "best", "big", "code": common words a larger course writes
often), 21 with this share (0.8 %; "hear": head, "mode": model, "toke": token); of the
2,800 a small beekeeping course does not write, 40 (1.4 %; "bed": bee, "hone": honey),
where one slip took 19.7 % and 11.0 % of the words of five letters already
(bench/README.md)."""
MIN_SHORT_NAME_USES = 2
"""How often the course writes a word for a short word to be corrected to it as the name
it writes in capitals, unless the glossary names it: an acronym said once is no likely
target."""
MIN_TWO_EDITS = 7
"""Words this long are corrected up to two edits away, to a word this long too ("softmaks":
softmax), when no word is one edit away and one word two away is clearly the likeliest
(``TWO_EDIT_LEAD``). Two slips bring a shorter word to too many others: of the real words
five Carpentries lessons write and the sample course does not, 43 % of those of six letters
are two edits from one of its words (bench/README.md)."""
MIN_LOOSE_TWO_EDITS = 9
"""Words of seven or eight letters are corrected two edits away only to a word the course
writes ``MIN_TWO_EDIT_USES`` times or that the glossary names, and with two of their letters
changed in place only where both are spelt by ear (``Searcher._two_slips``); from this
length, to any. Of those real words, two edits would take 28 % of those of seven letters and
11 % of eight to a word of the sample course (5 % of nine): a wrong "did you mean" is worse
than none (bench/README.md). At any length, the two edits must be slips people make
(``MAX_SLIPS``)."""
MIN_TWO_EDIT_USES = 3
MAX_SLIPS = 2
"""A word two edits away is a correction only when slips people make explain both edits
(``spelling.slips``: a letter dropped, doubled or swapped with the next, a key for one
beside it, a vowel for a vowel, a spelling of a sound for another, each one slip; any other
change more than two): "complex" is no slip of "complete" (an x for a t, keys apart, and
an e dropped), nor "portions" of "positions". Of the 45,500 words of seven letters or more
of an English word list that the sample course does not write, two edits took 634 to one
of its words before this rule and 158 with it; every two-slip misspelling of the hand-written
list is still corrected, and "sentanse" and "lenguaje" now are (bench/README.md)."""
TWO_EDIT_LEAD = 4
"""How many times as often as any other word two edits away the course must write the one
a word is corrected to: two near alike are a guess ("collected": connected or corrected)."""
MAX_TWO_EDITS = 24
"""Nor longer: a word's two-edit keys grow with the square of its length (a 500-letter word
took 5 s, a worker tied up by one request), and no course word is that long."""
MIN_COMPLETED = 4
"""A search box's last word, still being typed, that the course does not hold is taken as
the start of the word the course uses most that begins with it ("temperatu" → temperature),
from this many letters. Only that word: a word of a submitted search is whole, and most
English words begin some longer word ("stand" is not "standard")."""
MIN_SPLIT_PART = 2
"""The fewest letters of each of the two words a word the course does not write may be read
as (``Searcher.apart``): "ipaddress" is "ip address"."""
NAME_SECTIONS = 10
FLAG_SECTIONS = 20
"""How many of the sections that write a command's words side by side (``ss tlnp``) are read
for the command as typed, its flag with its minus (``ss -tlnp``): the first that writes it so
settles that the flag is text. A phrase's sections, not the course's: a query pays for the
few it reads only when it holds a flag after a word."""
"""How many sections holding a corrected word a suggestion reads to write it as the course
does (``name_case``): the first in the course's order."""
NAME_READ_SECTIONS = 1_000
"""How many sections holding a lower-case word of a query, which a term's one-word name
writes with a capital, are read to tell whether the course writes it as that name
(``Searcher._as_name``): every section that holds it in all but a large course, once a
word and process."""
BM25_B = 0.75
BM25_K1 = 1.2
DEFINING_BOOST = 1.5
"""What a section that defines a term (the glossary's lesson definitions) has its score
multiplied by, when the query is that term alone (``Searcher.defining``): a reader who
types a term wants to be told what it is. The index counts the names of the terms a section
defines as a word written twice (``whoosh_index.DEFINED_WEIGHT``), but BM25 saturates a
word's count, so a longer defining section came after a short one using the term more:
"embedding" found a retrieval pipeline before the section saying what an embedding is.
The figures behind the value are in bench/README.md."""
INTRODUCING_LEAD = 2
"""A term no lesson defines is about the section that uses it at least this many times as
often as any other (``Searcher._introduced_at``): the section ``DEFINING_BOOST`` lifts for
it in the place of a defining one."""
ECHO_SHARE = 0.5
"""A term only the glossary defines, that no section dwells on (``INTRODUCING_LEAD``), is
about the section that writes at least this share of the content words of the glossary's
definition beside it, more of them than any other section (``Searcher._echoed_at``): that
section says in its own words what the glossary says ("A swarm is half or more of a colony
leaving with the old queen" beside "Part of a colony that leaves with the old queen"), and
``DEFINING_BOOST`` lifts it for the term and for "what is a swarm?". Below half, a section
sharing a few everyday words ("holds one") with the definition says nothing of the term."""
ECHO_SECTIONS = 10
"""How many of the sections mentioning such a term (the busiest first) are read for
``ECHO_SHARE``, once a term and version: the section that says what the term is mentions it
among the most. Each is read whole from the index; 200 of them made a term's first search
take 80–90 ms at 10,000 sections (15–20 ms with ten)."""

ASKED_DETERMINERS = ("a", "an", "the")
"""The words a course may write between "define" or "explain" and the words after them for
a reader's `define function` to be its own ("define a function", "defining the function"),
not a question what a function is."""


@dataclass(frozen=True, slots=True)
class SearchHit:
    lesson: str
    lesson_title: str
    heading: str | None
    anchor: str | None
    url: str
    snippet: str
    """HTML: the lesson's text escaped, matched words in ``<mark>``."""
    score: float
    kind: str
    heading_path: tuple[str, ...] = ()
    module: str | None = None
    module_title: str | None = None
    position: int = 0
    matched_in_title: str | None = None
    """HTML: the lesson's title, escaped, the query's words in ``<mark>``, for a hit found
    through its lesson's title alone (its text and headings mark none of them); else None.
    A section found so ("Is it safe?" of a lesson "Why keep bees", for `bees`) showed a
    snippet with nothing marked, which read as a wrong hit (``_title_marked``)."""


@dataclass(frozen=True, slots=True)
class SearchResponse:
    query: str
    total: int
    results: tuple[SearchHit, ...]
    terms: tuple[TermRecord, ...] = ()
    """Glossary terms the query names."""
    suggestion: str | None = None
    suggestion_searched: bool = False
    """True when the results are the suggestion's: the query was searched as corrected, not
    as typed (a word no section holds as typed, "tempreture": temperature, "subnetmask":
    subnet mask; two words the course writes as one, "soft max"; a hyphenated word the course
    writes joined and never apart, "pre-training": pretraining), so the pages say "Showing
    results for" it. False when the query as typed finds the same sections and the
    suggestion only writes a word as the course does ("embeding": embedding, one stem), an
    offer: "Did you mean"."""
    page: int = 1
    limit: int = 10
    relaxed: bool = False
    """True when no section had every word and the results match most of them instead."""
    version: str = ""
    words: tuple[str, ...] = field(default=())
    related: tuple[tuple[str, str], ...] = ()
    """Each word no section holds that was searched as the word it was made from, and that
    word, as the reader's text writes them: ("embedder", "embed"). Not a correction: the
    reader's word is spelt right, and the course says nothing of it by that name. And when
    the query found nothing but names a glossary term, searched by the term's names
    instead (``_terms_instead``): the query and the term ("topp", "nucleus sampling")."""
    left_out: LeftOut | None = None
    """The words and phrases after the query's first ``MAX_ATOMS``, not searched (a pasted
    paragraph): ``LeftOut.notice`` says so. None when every word was searched."""


class Searcher:
    """One open index version; safe to use from many threads."""

    def __init__(self, version_dir: Path):
        self.version_dir = Path(version_dir)
        self.version = self.version_dir.name
        self.manifest = open_manifest(self.version_dir, read_served_manifest)
        self._index, documents = open_search_index(self.version_dir)
        self._local = threading.local()
        self._all: list[Any] = []
        self._lock = threading.Lock()
        try:
            with reading_part(self.version_dir, GLOSSARY_PART):
                self.glossary = Glossary.load(self.version_dir)
            self._spelling = _read_spelling(self.version_dir)
        except BaseException:
            self._index.close()
            raise
        self._spell_index: Speller | None = None
        self._corrections: dict[tuple[str, bool], str | None] = {}
        self._related: dict[str, tuple[str, tuple[str, ...]] | None] = {}
        self._names: dict[str, str | None] = {}
        self._names_read: dict[str, bool] = {}
        self._defining: dict[str, frozenset[int]] = {}
        self._asking: dict[tuple[str, ...], frozenset[int]] = {}
        self._apart: dict[tuple[str, bool], int | None] = {}
        self._hyphens: dict[tuple[str, str], bool] = {}
        self._joined_only: dict[tuple[str, ...], bool] = {}
        self._answers: dict[str, bool] = {}
        self._titles = TitleShares(self._course_order, self._lesson_titles)
        self._words = WordScorer(CONTENT, B=BM25_B, K1=BM25_K1, titles=self._titles)
        self._counter = MatchCounter(documents, self._words.phrase_docs)
        self._order = None
        self._parts: LessonParts | None = None
        self._slugs = {
            "lesson": frozenset(x["slug"] for x in self.manifest.get("lessons", [])),
            "module": frozenset(x["slug"] for x in self.manifest.get("modules", [])),
        }

    @classmethod
    def open(cls, index_dir: Path) -> Searcher:
        return cls(current_version(Path(index_dir)))

    def check_filters(self, lesson: str | None, module: str | None) -> None:
        """Raise ``UnknownFilter`` for a lesson or module slug the course does not have (empty
        or None: no filter). ``search`` would match nothing for it, which reads as "the course
        never says that"; the API and the CLI both ask here before searching."""
        for name, value in (("lesson", lesson), ("module", module)):
            if value and value not in self._slugs[name]:
                raise UnknownFilter(name, value)

    def whoosh_searcher(self):
        searcher = getattr(self._local, "searcher", None)
        if searcher is None:
            searcher = self._index.searcher(
                weighting=TitleBM25(self._titles, B=BM25_B, K1=BM25_K1))
            self._local.searcher = searcher
            with self._lock:
                self._all.append(searcher)
        return searcher

    def close(self) -> None:
        with self._lock:
            for searcher in self._all:
                searcher.close()
            self._all.clear()

    def correct(self, word: str, cut_short: bool = False, alone: bool = True) -> str | None:
        """A better-known spelling from the course's own words, for a word it does not hold.

        Candidates are the course's words that differ from it only in accents, and for a
        word of five letters or more those within one edit, but for one that is the word
        with another ending, another word of its family (``other_ending``: "embedder" is no
        slip of "embedded"); the nearest wins, then the one the course uses most, then the one
        fewer slips explain (``_slipped``: "lenta" is lente, not lent). A word of
        ``MIN_TWO_EDITS`` to ``MAX_TWO_EDITS`` letters with none one edit away is given one
        two edits away only when that one is clearly the likeliest (``_two_slips``:
        "softmaks" is softmax). A word that none of those corrects is given the course's word
        that sounds as it does, where that is clear (``_by_sound``: "sourdoe" is sourdough).
        But first, a word ``cut_short`` (a search
        box's last word, while it is typed) of four letters or more that begins some of the
        course's words is taken as the most used of them: "softm" is softmax, not soft. A
        whole word is only given the symbols that end a name ("Notepad+": Notepad++). An
        agent noun made from a verb the course writes is no slip either: "predictor" is
        searched as predict (``related``), not corrected to it. A word
        of three or four letters is given only a name it swaps two letters of
        (``MIN_SHORT_CORRECTED``), or a word the course leans on one slip away
        (``_short_word``), where it is the search's only word (``alone``): beside others
        that find their sections, an unknown short word is as likely a real word the course
        does not write ("red, green and blue" was searched as "read, green and blue",
        and lost the one section that writes them). A word's numbers are never corrected
        to others (``_DIGITS``): "1400s" is not the course's "1040s", another decade; a
        word may lose its number ("action1": actions, a placeholder's name).
        """
        remembered = (word, cut_short, alone)
        if remembered in self._corrections:
            return self._corrections[remembered]
        fixed = None
        written = self.written(word)
        if word.lower() in self._joined_names:
            pass  # "topp": a glossary name run together, which the term's own path searches
        elif not written and self.related(word) is None:  # else known, perhaps inflected
            maxdist = (0 if len(word) < MIN_CORRECTED
                       else 2 if MIN_TWO_EDITS <= len(word) <= MAX_TWO_EDITS else 1)
            speller = self._speller()
            if len(word) >= MIN_COMPLETED:
                fixed = min(_completions(speller, word.lower(), cut_short),
                            key=lambda w: (-self._vocabulary[w], w), default=None)
            found = speller.candidates(word.lower(), maxdist) if fixed is None else None
            found = [(d, c) for d, c in found or () if not other_ending(word.lower(), c)]
            if found and found[0][0] < 2:
                fixed = min(found, key=lambda p: (p[0], -self._vocabulary[p[1]], self._slipped(
                    word.lower(), p[1]), p[1]))[1]
            elif found:
                fixed = self._two_slips(word.lower(), [c for _, c in found])
            elif fixed is None and MIN_SHORT_CORRECTED <= len(word) < MIN_CORRECTED:
                fixed = (self._short_name(word.lower())
                         or alone and self._short_word(word.lower()) or None)  # "hony"
            if fixed is None and maxdist and word.lower() not in self._family_nouns:
                fixed = self._family_noun(word.lower())  # "decission": decide's noun
            if fixed is None and maxdist:
                fixed = self._by_sound(word.lower())  # "sourdoe": sourdough
        elif written and len(word) >= MIN_CORRECTED and word.lower() not in self._spelling:
            fixed = self._respelt(word.lower())
        fixed = self._joined_names.get(fixed, fixed)  # "porforwarding": port forwarding
        if fixed is not None and _DIGITS.findall(fixed) != _DIGITS.findall(word) and not (
                word[:1].isalpha() and not _DIGITS.search(fixed)):  # "action1": actions
            fixed = None  # "1400s" is no slip of "1040s", nor "norm3" of "norm1"
        if len(self._corrections) >= MAX_REMEMBERED_CORRECTIONS:
            self._corrections.clear()
        self._corrections[remembered] = fixed  # the "most words" fallback asks again
        return fixed

    @staticmethod
    def _slipped(word: str, known: str) -> int:
        """How many slips turn the course's ``known`` word into ``word`` (``slips``, accents
        folded): what parts two words as near and as used. "lenta" is a vowel changed from
        the motto's "lente" but a letter far from any other added to "lent" (the lender's):
        the order of the alphabet picked "lent", shown as "festina lent"."""
        return slips(fold_accents(word), fold_accents(known))

    def _two_slips(self, word: str, found: list[str]) -> str | None:
        """Of the words of ``MIN_TWO_EDITS`` letters or more two edits from ``word`` (none
        nearer) that slips people make explain (``slips``: a letter dropped, doubled or
        swapped with the next, a key for one beside it, a vowel for a vowel, a spelling of a
        sound for another), the one the course writes most, when it is clearly the
        likeliest: the only one, or written ``TWO_EDIT_LEAD`` times as often as the next. A
        real word the course does not write is most often two letters changed for others
        far from them ("complex": complete, "package": passage, "trapped": trained), which
        no slip explains, where a misspelling adds, drops or swaps letters, or spells a
        sound another way ("sofmaxx", "softmaks": softmax). Nor is a form of another word,
        its edits all in its ending (``form_of_another``: "specified" is no slip of
        "specific").

        A word of fewer than ``MIN_LOOSE_TWO_EDITS`` letters is also corrected only to a word
        the glossary names or the course writes ``MIN_TWO_EDIT_USES`` times (the word a
        reader searches for is one the course uses), and, when two of its letters are
        changed in place, the others kept, only where both are spelt by ear (``by_ear``:
        "sentanse", "lenguaje"): so most real words of that length differ from the course's,
        a neighbouring key explaining one of the two ("passive": passage)."""
        letters = fold_accents(word)
        ranked = sorted((c for c in found if len(c) >= MIN_TWO_EDITS
                         and slips(letters, fold_accents(c)) <= MAX_SLIPS
                         and not form_of_another(letters, fold_accents(c))),
                        key=lambda c: (-self._vocabulary[c], c))
        if not ranked or len(ranked) > 1 and (
                self._vocabulary[ranked[0]] < TWO_EDIT_LEAD * self._vocabulary[ranked[1]]):
            return None
        best = ranked[0]
        if len(word) < MIN_LOOSE_TWO_EDITS:
            known = fold_accents(best)
            changed = changed_in_place(letters, known)
            if (best not in self._glossary_words and self._vocabulary[best] < MIN_TWO_EDIT_USES
                    or len(changed) == 2
                    and not all(by_ear(letters[at], known, at) for at in changed)):
                return None
        return best

    def _by_sound(self, word: str) -> str | None:
        """For a misspelt word that no slip explains, the word the course writes that sounds
        as it does (``Speller.sounding``: "sourdoe" is sourdough, three edits away, and
        "fotograph" photograph, its first letter another), when it is clearly the likeliest:
        the only one, or written ``TWO_EDIT_LEAD`` times as often as the next. Asked last, so
        a word one or two slips away is always the correction first ("bagette" is
        baguette, one letter dropped), and only of a word of ``MIN_CORRECTED`` to
        ``MAX_TWO_EDITS`` letters. A word the course writes with another ending is another
        word of its family, as for a slip (``other_ending``)."""
        if len(word) > MAX_TWO_EDITS:
            return None
        ranked = sorted((c for c in self._speller().sounding(word)
                         if not other_ending(word, c)),
                        key=lambda c: (-self._vocabulary[c], c))
        if not ranked or len(ranked) > 1 and (
                self._vocabulary[ranked[0]] < TWO_EDIT_LEAD * self._vocabulary[ranked[1]]):
            return None
        return ranked[0]

    def _family_noun(self, word: str) -> str | None:
        """For a misspelt word that is no slip of any word the course writes, the -ion noun
        of a verb the course writes (``_family_nouns``) that it is one slip from: "decission"
        is decision in a course that writes "decide" and "decided" but never "decision",
        searched so, and so found through its verb (``family``). One edit only, and one
        slip people make (``slips``): the nouns are made by rules, not read from the course,
        and some are no words ("condition" gave "condission", two slips from "concessions");
        "derision", an r for a c, keys apart, is left alone. The noun of the verb the course
        writes most first."""
        letters = fold_accents(word)
        found = [c for _, c in self._noun_speller.candidates(word, 1) if slips(letters, c) <= 1]
        return min(found, key=lambda c: (-self._family_nouns[c], c), default=None)

    @cached_property
    def _family_nouns(self) -> dict[str, int]:
        """The -ion nouns (and their plurals) that the course never writes of the verbs it
        writes as verbs, in a form ending -ed or -ing (``ion_nouns``: "decide" and "decided",
        decision; not "ahead", which would give "aheasion"), each with how often the course
        writes its verb's -ed and -ing forms: made at the first word no slip of the course's
        own explains."""
        uses: dict[str, int] = {}
        for word, count in self._spelling.items():
            if word.endswith(("ed", "ing")):  # only these are stemmed: a verb's forms
                uses[stem(word)] = uses.get(stem(word), 0) + count
        return {noun: count for verb, count in uses.items() for noun in ion_nouns(verb)
                if noun not in self._spelling}

    @cached_property
    def _noun_speller(self) -> Speller:
        return Speller(self._family_nouns)

    def related(self, word: str) -> tuple[str, tuple[str, ...]] | None:
        """For a word no section holds that is an agent noun made from a verb the course
        writes as one (``made_from_verb``): that verb, and the stems of the forms of it the
        course writes, to search in the word's place. "embedder", which Snowball stems
        "embedd", is searched as embed, embedded and embedding. None for any other word, and for one
        some section holds: "sampler" is searched as written where the course writes it.
        Asked before a correction is looked for: such a word is spelt right."""
        word = word.lower()
        if word in self._related:
            return self._related[word]
        found = None
        if not self.written(word):
            made = made_from_verb(word, self._spelling)
            if made is not None:
                found = made[0], tuple(dict.fromkeys(stem(form) for form in made[1]))
            else:
                found = self._acronym(word)
        if len(self._related) >= MAX_REMEMBERED_CORRECTIONS:
            self._related.clear()
        self._related[word] = found
        return found

    def _acronym(self, word: str) -> tuple[str, tuple[str, ...]] | None:
        """For a word no section holds that is an s after a name the course writes in
        capitals (``name_of``), that name and its stem: "llms", typed in lower case where the
        course writes LLM and never LLMs, is searched as LLM, and the page says so. Only
        then: "https" typed where the course writes HTTP and never HTTPS may mean another
        thing, and is shown as searched for HTTP, not taken for it unsaid."""
        if len(word) < 3 or word[-1] != "s" or not self.written(word[:-1]):
            return None
        name = self._named(self.whoosh_searcher(), word[:-1])
        return (name, (stem(word[:-1]),)) if name is not None and name.isupper() else None

    def singular(self, word: str) -> str | None:
        """For a word the course writes only as an acronym's plural, in capitals with a
        lower-case s (``LLMs``, ``GPUs``), its singular (``llm``): the index reads that
        plural as its singular (``analysis.lowered``), so a reader's "llms" or "gpus", typed
        in lower case, is otherwise a word no section holds. The course's own words say so:
        it writes the word (in some case), no section holds it as a word, and some holds its
        singular. None for any other word: "https" or "dns", which a course writes as they
        are, and "bus", which it holds as a word or not at all."""
        low = word.lower()
        if (len(low) > 2 and low[-1] == "s" and lowered(word) == low and low in self._spelling
                and not self.written(low) and self.written(low[:-1])):
            return low[:-1]
        return None

    def _respelt(self, word: str) -> str | None:
        """For a word the course never writes but whose stem it does (``embeding``, the
        stem of "embedding"), the word one slip away that it writes with the same stem and
        the same last three letters, the most used: the slip is inside the word, not in its
        ending, so "embeds" and "tokenizers" are inflections, not slips of "embed" and
        "tokenizer". The search is the same (the two share their stem); the suggestion, and
        the glossary's term it names, are the course's word. A word that is the other's
        British or American spelling is no slip of it ("prioritisation", "prioritization"):
        the search takes them as one word, and the reader's is as right as the course's."""
        found = [c for _, c in self._speller().candidates(word, 1)
                 if c[-3:] == word[-3:] and stem(c) == stem(word)
                 and american(c) != american(word)]
        return min(found, key=lambda c: (-self._vocabulary[c], c), default=None)

    def _short_name(self, word: str) -> str | None:
        """For a short word the course does not write, the name that the course writes with
        two of its letters swapped, the most used: a one-word name or alias of a glossary
        term, or a word written ``MIN_SHORT_NAME_USES`` times or more that the course writes
        in capitals (``name_of``: DHCP, VLAN)."""
        found = [c for d, c in self._speller().candidates(word, 1)
                 if d == 1 and sorted(c) == sorted(word)]  # no letter added, lost or changed
        named = [c for c in found if c in self._glossary_words
                 or self._vocabulary[c] >= MIN_SHORT_NAME_USES
                 and (name := self._named(self.whoosh_searcher(), c)) is not None
                 and name.isupper()]
        return min(named, key=lambda c: (-self._vocabulary[c], c), default=None)

    def _short_word(self, word: str) -> str | None:
        """For a word of three or four letters no section holds, the course's word one slip
        from it (``slips``: a letter dropped, doubled or swapped with the next, a key for one
        beside it, a vowel for a vowel, a spelling of a sound for another: "hony" honey,
        "hiev" hive, "waks" wax, "nuk" nuc), when it is clearly the one meant: no stop word,
        a word the glossary names or one the course leans on (``_short_word_uses``), and
        written ``TWO_EDIT_LEAD`` times as often as any other of the course's words one slip
        away, or one edit away by a change no slip explains, but for a glossary name ("dron"
        is drone, though "drop" is an n for a p from it). A short word is one slip from many
        others, most of them real words ("form" from "from"), so only a word the course
        leans on, with no rival near, is guessed at; another ending is another word of its
        family, as for a longer word (``other_ending``). A name the glossary gives is no
        misspelling ("topp", an alias of nucleus sampling, is not top)."""
        if self.glossary.find(word) is not None:  # "topp", an alias: top-p, not top
            return None
        near, slipped = self._short_near(word)
        best = min(slipped, key=lambda c: (-self._vocabulary[c], c), default=None)
        if best is None or (best not in self._glossary_words
                            and self._vocabulary[best] < self._short_word_uses):
            return None
        named = best in self._glossary_words  # "dron": drone, though "drop" is one edit
        rivals = [c for d, c in near if c != best and (c in slipped or d == 1 and not named)]
        if any(self._vocabulary[best] < TWO_EDIT_LEAD * self._vocabulary[c] for c in rivals):
            return None
        return best

    def _short_near(self, word: str) -> tuple[list[tuple[int, str]], list[str]]:
        """(edits, word) for the course's words up to two edits from a short ``word``, but
        stop words and other words of its family (``other_ending``); and those of them one
        slip away (``slips``), the corrections a short word may be given."""
        letters = fold_accents(word)
        near = [(d, c) for d, c in self._speller().candidates(word, 2)
                if not (other_ending(word, c) or is_stop(c))]
        return near, [c for _, c in near if slips(letters, fold_accents(c)) <= SLIP_COST]

    def _fixes_beside(self, searcher, typed: list[str]) -> dict[str, str]:
        """For each of the reader's words (``typed``, in order) of three or four letters that
        the course does not write, beside another that it does: the course's word one slip
        from it that some section writes side by side with that other word, as the reader
        put them (``_beside``), by its lower case ("chan wear": chain, where sections write
        "chain wear"). A short word alone is one slip from too many of the course's words
        (``_short_word``), and sharing a section with the other words says little: of the
        2,700 real words of three or four letters of an English word list, each beside a
        word of the course, 7–11 % would be corrected so, 0.5–1.5 % even to a word the
        course leans on; the words written side by side are the course's own for what the
        reader asked (0.14–0.48 %, and 89–95 % of such misspellings corrected:
        bench/README.md). Only when it is clearly the one meant: sections write it so
        ``TWO_EDIT_LEAD`` times as often as any other word near the reader's (one slip away,
        or one edit by a change no slip explains) but its own forms. Never an everyday word
        (``collocations.ordinary``: stop words, everyday nouns and verbs, common adverbs),
        a name the glossary gives, or a word searched as another (``related``)."""
        fixes: dict[str, str] = {}
        tried: set[tuple] = set()  # a pasted paragraph repeats its words
        for at, word in enumerate(typed):
            low = word.lower()
            if (not (MIN_SHORT_CORRECTED <= len(low) < MIN_CORRECTED and low.isalpha())
                    or ordinary(low) or low in fixes
                    or self.written(low) or self.related(low) is not None
                    or self.glossary.find(low) is not None):
                continue
            sides = _beside(typed, at)
            seen = (low, *(tuple(map(str.lower, (*before, "", *after)))
                           for before, after in sides))
            if not sides or seen in tried:
                continue
            tried.add(seen)
            near, slipped = self._short_near(low)
            counts = {c: sum(self._count_side_by_side(searcher, [*before, c, *after])
                             for before, after in sides)
                      for c in dict.fromkeys(c for d, c in near if d == 1 or c in slipped)}
            best = max(slipped, key=lambda c: (counts[c], -len(c)), default=None)
            if best is not None and counts[best] and all(
                    counts[best] >= TWO_EDIT_LEAD * n for c, n in counts.items()
                    if stem(c) != stem(best)):
                fixes[low] = best
        return fixes

    def _count_side_by_side(self, searcher, words: list[str]) -> int:
        """How many sections write ``words`` side by side (in any of their forms)."""
        phrase = wq.Phrase(CONTENT, [stem(word.lower()) for word in words])
        with reading_index(self.version_dir):
            return self._counter.count(searcher, phrase, None)

    @cached_property
    def _short_word_uses(self) -> float:
        """How often the course writes a word for a short word to be corrected to it
        (``_short_word``): ``MIN_SHORT_WORD_USES`` times, and ``SHORT_WORD_SHARE`` of all
        the words it writes."""
        return max(MIN_SHORT_WORD_USES, SHORT_WORD_SHARE * sum(self._spelling.values()))

    def _naming_fixes(self, typed: list[str]) -> dict[str, str]:
        """For each of the reader's words (``typed``, in order) that no section holds and
        that, one slip from a word of a glossary term's name of several words, makes with the
        words beside it that name: that word, by its lower case ("quen excluder": queen, for
        the term queen excluder). The words beside it say which word was meant, where a
        short word alone is one slip from too many (``_short_word``); in quotes too, where a
        word is otherwise as typed: ``"quen excluder"`` is the term's name misspelt."""
        low = [fold_accents(word.lower()) for word in typed]
        fixes: dict[str, str] = {}
        for name in self._several_word_names:
            for start in range(len(low) - len(name) + 1):
                window = low[start:start + len(name)]
                odd = [(a, b) for a, b in zip(window, name, strict=True) if a != b]
                if (len(odd) == 1 and len(odd[0][0]) >= MIN_SHORT_CORRECTED
                        and slips(odd[0][0], fold_accents(odd[0][1])) <= SLIP_COST
                        and not self.written(odd[0][0])):
                    fixes.setdefault(odd[0][0], odd[0][1])
        return fixes

    @cached_property
    def _several_word_names(self) -> tuple[tuple[str, ...], ...]:
        """The words of each name and alias of several words of the glossary's terms, in
        lower case (``_naming_fixes``)."""
        return tuple(dict.fromkeys(
            tuple(parts) for t in self.glossary.records for name in (t.term, *t.aliases)
            if len(parts := analysis_words(name)) > 1))

    def family(self, word: str) -> tuple[str, ...]:
        """The stems of the other words of ``word``'s family that the course writes, for a
        search to find at a fraction (``query_plan.plan``): an -ion noun's verb
        (``analysis.verb_of``: "repetition" → repeat) and a verb's -ion nouns ("repeat" →
        repetit), which Snowball stems apart."""
        low = word.lower()
        nouns = self._ion_nouns.get(stem(low), ())
        return verb_of(low) + nouns

    @cached_property
    def _ion_nouns(self) -> dict[str, tuple[str, ...]]:
        """The stems of the -ion nouns the course writes (``verb_of``), by their verb's stem:
        read once from the course's words, a few hundred of which end in -ion."""
        found: dict[str, dict[str, None]] = {}
        for word in self._spelling:
            if word.endswith(("ion", "ions")):
                for verb in verb_of(word):
                    found.setdefault(verb, {})[stem(word)] = None
        return {verb: tuple(nouns) for verb, nouns in found.items()}

    @cached_property
    def _examples(self) -> tuple[str, ...]:
        """Words of this course to show in a sentence that says how to write a query, best
        first: its terms of several words, then its other terms (the terms it marks as
        everyday words last), each by how many sections mention it, then the words its
        lessons' titles write most often. A course's own words make sense to its readers,
        where one course's example ("kv cache") meant nothing to another's."""
        terms = sorted((r for r in self.glossary.records if r.mention_sections),
                       key=lambda r: (r.everyday, len(analysis_words(r.term)) < 2,
                                      -r.mention_sections, -r.mention_count, r.term))
        titles: dict[str, int] = {}
        for lesson in self.manifest.get("lessons", []):
            for word in analysis_words(str(lesson.get("title") or "")):
                if not is_stop(word) and not word.isdigit():
                    titles[word] = titles.get(word, 0) + 1
        by_count = sorted(titles, key=lambda w: (-titles[w], w))
        return tuple(dict.fromkeys([r.term for r in terms] + by_count))

    def _example(self, avoid: set[str]) -> str | None:
        """The first of ``_examples`` sharing no stem with ``avoid`` (the words a query
        excludes: "-token" is not told "token -token"); None when the course has none."""
        return next((name for name in self._examples
                     if avoid.isdisjoint(map(stem, analysis_words(name)))), None)

    @cached_property
    def _glossary_words(self) -> frozenset[str]:
        """The glossary's names and aliases of one word, in lower case."""
        return frozenset(name.lower() for t in self.glossary.records
                         for name in (t.term, *t.aliases) if len(analysis_words(name)) == 1)

    @cached_property
    def _vocabulary(self) -> dict[str, int]:
        """The words a correction is chosen among, with their counts: the course's
        (``_spelling``), and the glossary's names and aliases, which a reader searches for
        though its lessons may never write them ("netmask", an alias of subnet mask, which
        the index finds through the sections that mention the term), each counted once at
        least. A name of several words is there too as the one word they make
        ("portforwarding"), which is corrected to the name (``_joined_names``)."""
        found = dict.fromkeys(self._glossary_words, 1)
        found.update(dict.fromkeys(self._joined_names, 1))
        found.update(self._spelling)
        return found

    @cached_property
    def _joined_names(self) -> dict[str, str]:
        """Each glossary name or alias of several words, of letters only, by the one word
        they make, where the course does not write that word itself: "portforwarding" →
        "port forwarding". A misspelling of the joined word ("porforwarding") is one slip
        from it, and from none of the course's words."""
        found = {}
        for record in self.glossary.records:
            for name in (record.term, *record.aliases):
                parts = [lowered(w) for w in analysis_words(name)]
                one = "".join(parts)
                if len(parts) > 1 and one.isalpha() and one not in self._spelling:
                    found.setdefault(one, " ".join(parts))
        return found

    def _shown(self, searcher, typed: str, word: str) -> str:
        """How a suggestion writes the course's ``word`` for the reader's ``typed`` one
        (``as_typed``): as a name when the sections that hold it write it so."""
        return as_typed(typed, word, self._named(searcher, word))

    def _named(self, searcher, word: str) -> str | None:
        """``_name``, remembered."""
        if word not in self._names:
            if len(self._names) >= MAX_REMEMBERED_CORRECTIONS:
                self._names.clear()
            self._names[word] = self._name(searcher, word)
        return self._names[word]

    def _name(self, searcher, word: str) -> str | None:
        """The name the course writes ``word`` as, read from the first ``NAME_SECTIONS``
        sections that hold it (``name_of``); None for a word."""
        prose, headings = self._holding(searcher, word)
        return name_of(word, prose, headings) if prose else None

    def _as_name(self, searcher, word: str) -> bool:
        """Whether a query's lower-case ``word``, which a term's one-word name writes with a
        capital, names the term (``Glossary.in_text``): read from every section that holds
        it, up to ``NAME_READ_SECTIONS`` (``read_as_name``), remembered. The first
        ``NAME_SECTIONS`` were too few: a count of a few sections is no count of the course."""
        if word not in self._names_read:
            if len(self._names_read) >= MAX_REMEMBERED_CORRECTIONS:
                self._names_read.clear()
            self._names_read[word] = read_as_name(
                word, *self._holding(searcher, word, NAME_READ_SECTIONS))
        return self._names_read[word]

    def _holding(self, searcher, word: str, count: int = NAME_SECTIONS,
                 ) -> tuple[list[str], list[str]]:
        """The texts and the headings (and lessons' titles) of the first ``count`` sections
        that hold ``word``; empty when none does."""
        with reading_index(self.version_dir):
            reader = searcher.reader()
            if not reader.doc_frequency(CONTENT, stem(word)):
                return [], []
            numbers = list(islice(reader.postings(CONTENT, stem(word)).all_ids(), count))
        stored = [self._stored(searcher, n) for n in numbers]
        headings = [s["heading"] for s in stored]
        headings += {s["lesson_title"] for s in stored}
        return [s["body"] for s in stored], headings

    def _first_side_by_side(self, searcher, stems: list[str], count: int) -> list[int]:
        """The first ``count`` sections, in index order, that write ``stems`` one after the
        other: from the block scorer's phrase look-up, kept while the version is open.
        Whoosh's phrase matcher, a posting at a time, took 350 ms for "model UP" at
        100,000 sections, where both words are in most of them."""
        with reading_index(self.version_dir):
            return self._words.phrase_docs(searcher, stems)[:count]

    def _names_vs(self, searcher, after: str) -> bool:
        """Whether the course writes "VS" as the first word of a name whose next word is
        ``after`` ("VS Code"): in capitals, before ``after`` with a capital, side by side, in
        one of the first ``NAME_SECTIONS`` sections that write the two so. A heading's
        "Nuc vs package" compares two things; it names none."""
        numbers = self._first_side_by_side(searcher, [stem("vs"), stem(after)], NAME_SECTIONS)
        for number in numbers:
            stored = self._stored(searcher, number)
            for text in (stored["heading"], stored["body"], stored["lesson_title"]):
                if any(lowered(name) == after.lower() for name in _VS_NAME.findall(text)):
                    return True
        return False

    def _writes_command(self, searcher, typed: tuple[str, ...]) -> bool:
        """Whether some section writes ``typed``, a command and its flags (``("ss",
        "-tlnp")``), as typed, minus signs too, side by side: in its text, code or heading,
        in one of the first ``FLAG_SECTIONS`` that write their words side by side. "ss
        tlnp" without the minus is no flag; nor is "language-model" a ``-model``."""
        stems = [stem(word) for token in typed for word in analysis_words(token)]
        if len(stems) < 2:
            return False
        pattern = re.compile(r"(?<![\w-])" + r"\s+".join(map(re.escape, typed)) + r"(?![\w-])",
                             re.IGNORECASE)
        numbers = self._first_side_by_side(searcher, stems, FLAG_SECTIONS)
        for number in numbers:
            stored = self._stored(searcher, number)
            if any(pattern.search(stored.get(part) or "")
                   for part in ("body", "code", "heading")):
                return True
        return False

    def _writes_flag(self, searcher, flag: str) -> bool:
        """Whether some section writes ``flag`` (``-v``) with its minus, as a flag: in one of
        the first ``FLAG_SECTIONS`` that write its words, with no word or minus before it."""
        stems = [stem(word) for word in analysis_words(flag)]
        if not stems:
            return False
        pattern = re.compile(r"(?<![\w-])" + re.escape(flag) + r"(?![\w-])", re.IGNORECASE)
        q = wq.Term(CONTENT, stems[0]) if len(stems) == 1 else wq.Phrase(CONTENT, stems)
        with reading_index(self.version_dir):
            numbers = list(islice(searcher.docs_for_query(q), FLAG_SECTIONS))
        return any(pattern.search(self._stored(searcher, number).get(part) or "")
                   for number in numbers for part in ("body", "code", "heading"))

    def _flags_as_text(self, searcher, response: SearchResponse, typed: str,
                       lesson: str | None, module: str | None, typing: bool
                       ) -> SearchResponse:
        """``response`` to a query that found nothing, or not every word, or the response to
        it with the flags of one minus that the course writes as flags searched as written
        (``flags_quoted``), when every word is then found: "Showing results for
        dhclient enp3s0 "-v"". A flag typed after another word than its command
        (``flags_as_written``) excluded the section that documents it."""
        if response.total and not response.relaxed:
            return response
        literal = flags_quoted(typed, partial(self._writes_flag, searcher))
        if literal == typed:
            return response
        other = self.search(literal, response.limit, response.page, lesson, module, typing)
        if not other.total or other.relaxed:
            return response
        return replace(other, query=response.query, suggestion=other.suggestion or literal,
                       suggestion_searched=True)

    def written(self, word: str) -> bool:
        """Whether some section's indexed text holds ``word`` (in any inflection)."""
        with reading_index(self.version_dir):
            return self.whoosh_searcher().reader().doc_frequency(CONTENT, stem(word)) > 0

    def holds_name(self, key: str) -> bool:
        """Whether some section mentions a term with the name of several words whose term
        ``key`` is (``whoosh_index.name_term``): what ``plan`` searches such a name as."""
        with reading_index(self.version_dir):
            return self.whoosh_searcher().reader().doc_frequency(CONTENT, key) > 0

    def _written_apart(self, searcher, *words: str) -> bool:
        """Whether some section writes ``words`` side by side."""
        phrase = wq.Phrase(CONTENT, [stem(word) for word in words])
        with reading_index(self.version_dir):
            return self._counter.count(searcher, phrase, None) > 0

    def _writes_in_capitals(self, searcher, word: str, after: str) -> bool:
        """Whether one of the first ``NAME_SECTIONS`` sections that write ``word`` and
        ``after`` side by side writes ``after`` so in the capitals typed ("state DOWN", as a
        command prints it), in its text, code or heading."""
        pattern = re.compile(rf"(?i:\b{re.escape(word)})\W+{re.escape(after)}\b")
        numbers = self._first_side_by_side(searcher, [stem(word), stem(after)], NAME_SECTIONS)
        for number in numbers:
            stored = self._stored(searcher, number)
            if any(pattern.search(stored[key]) for key in ("heading", "body", "code")):
                return True
        return False

    def _writes_near(self, searcher, parts: list[str]) -> bool:
        """Whether some section writes ``parts`` (a verb such as "define" and the words after
        it) side by side, or with "a", "an" or "the" after the verb instead of the reader's
        determiner or none: a programming course's "define a function" for `define
        function` too. Not with other words between: "Explain what remote repositories
        are" is an exercise's question, not the course's words for `explain remote`."""
        verb, rest = parts[0], parts[1:]
        if rest and rest[0] in ASKED_DETERMINERS:
            rest = rest[1:]
        return any(self._written_apart(searcher, *written)
                   for written in ([verb, *rest], *([verb, d, *rest] for d in ASKED_DETERMINERS))
                   if rest)

    def apart(self, searcher, word: str, cut_short: bool = False) -> int | None:
        """Where to cut a word the course does not write into the two it writes for it
        ("subnetmask": subnet mask), or None: two words of ``MIN_SPLIT_PART`` letters or more
        that a glossary term's name is (any spelling of it), else that some section writes
        side by side, the cut most sections write first. Each a word the course writes as
        it is (not a stem: "carri" of carry) and no stop word: of the 63,000 words of an
        English word list that the sample course does not write, 40 were cut without that
        rule, most at a stop word ("asset": as set, "notable": no table, "upon": up on), 3
        with it ("nonlinear", "percent", "comeback"). But for two the course writes joined by
        a hyphen (``hyphenated``: "warmup" is warm-up, "setup" set-up). The second may be
        another form of a word the course writes (``_inflects``), as English inflects a
        compound at its end: "pourovers" is pour-overs where the course writes only
        "pour-over", "overextraction" over-extraction where it writes "over-extract" and
        "over-extracted"; a stop word's form ("overs") is cut off only where the course
        hyphenates it, as the stop word is. That cut two more words of the list, the plurals
        of two above ("percents", "comebacks"). A number that ends
        the word is a part of any length ("gpt2": GPT-2). Not a word ``cut_short`` (a search
        box's last word, while it is typed) that begins one of the course's: it is
        completed."""
        remembered = (word, cut_short)
        if remembered in self._apart:
            return self._apart[remembered]
        lower = word.lower()
        found = None
        decimal = _DECIMAL_FIRST.match(lower)
        if decimal is not None and self._writes_as_is(lower[decimal.end():]):
            found = decimal.end()  # "14.5psi": the number and a unit the course writes
        elif (lower.isalnum() and not self.written(lower) and not number_forms([lower])
                and not (cut_short and self._speller().starting(lower))):
            best = (0, 0)
            for at in _cuts(lower):
                first, second = lower[:at], lower[at:]
                if not self._writes_as_is(first, stops=True):
                    continue  # before stemming the rest: each cut of a long word stemmed it
                inflected = (not self._writes_as_is(second, stops=True)
                             and self._inflects(second))  # "pourovers": pour-over
                if not (self._writes_as_is(first, second, stops=True)
                        or inflected and self._writes_as_is(first, stops=True)) or (
                        (is_stop(first) or is_stop(second)
                         or inflected and stem(second) in _STOP_STEMS)
                        and not self.hyphenated(searcher, first, second)):
                    continue
                named = self.glossary.find(f"{first} {second}") is not None
                fit = (named, self._count_apart(searcher, first, second))
                if fit > best:
                    best, found = fit, at
        if len(self._apart) >= MAX_REMEMBERED_CORRECTIONS:
            self._apart.clear()
        self._apart[remembered] = found
        return found

    def _inflects(self, word: str) -> bool:
        """Whether ``word``, which the course does not write as it is, is another form of a
        word it does: an ending Snowball takes off (-s, -ed, -ing, -ion…) left a stem some
        word of the course has ("overs" of over, "extraction" of extract and extracted), or
        it is of the -ion family of one (``family``: "reduction" of reduce and reduced, which
        Snowball stems apart). Not a bare stem ("carri" of carry), which is no word."""
        found = stem(word)
        with reading_index(self.version_dir):
            reader = self.whoosh_searcher().reader()
            return (found != word and reader.doc_frequency(CONTENT, found) > 0
                    or any(reader.doc_frequency(CONTENT, kin) > 0 for kin in self.family(word)))

    def _stems_of(self, word: str) -> tuple[str, ...]:
        """``word``'s stem and those of its -ion family (``family``: "reduction" → reduct,
        reduc), as a part of a word cut in two is looked for beside the other."""
        return (stem(word), *self.family(word))

    def _writes_as_is(self, *words: str, stops: bool = False) -> bool:
        """Whether the course writes each of ``words`` itself, not only a word of its stem,
        and none is a stop word (unless ``stops``). The spelling counts leave out words of
        two letters (``write_spelling``), which are their own stems ("ip"), and numbers:
        those are looked up in the index, once the counts have said the rest."""
        if any(w not in self._spelling and len(w) > 2 and not w.isdigit()
               or is_stop(w) and not stops
               for w in words):  # the look-up first: a long word's every cut asks
            return False
        return all(w in self._spelling or self.written(w) for w in words)

    def hyphenated(self, searcher, first: str, second: str) -> bool:
        """Whether the course writes ``first`` and ``second`` joined by a hyphen ("warm-up")
        at least as often as apart, in the first ``NAME_SECTIONS`` sections that write them
        side by side (the index reads a hyphen as a space), their headings and their
        lessons' titles too (a lesson titled "Pour-over brewing" whose text never writes the
        word again): a word cut so is suggested with its hyphen, and may be cut at a stop
        word."""
        pair = (first, second)
        if pair not in self._hyphens:
            phrase = wq.Or([wq.Phrase(CONTENT, [stem(first), kin])
                            for kin in self._stems_of(second)])
            with reading_index(self.version_dir):
                numbers = list(islice(searcher.docs_for_query(phrase), NAME_SECTIONS))
            stored = [self._stored(searcher, n) for n in numbers]
            texts = [text for s in stored for text in (s["body"], s["code"], s["heading"])]
            texts += {s["lesson_title"] for s in stored}  # "Pour-over brewing", once
            if len(self._hyphens) >= MAX_REMEMBERED_CORRECTIONS:
                self._hyphens.clear()
            self._hyphens[pair] = _written_hyphenated(texts, first, self._stems_of(second))
        return self._hyphens[pair]

    def closed(self, searcher, first: str, second: str) -> bool:
        """Whether the course writes ``first`` and ``second`` as one word ("beekeeping", in
        any of its forms: beekeepers) in at least ``JOINED_OVER_APART`` times as many
        sections as it writes them side by side: "bee keeping" is then the reader's
        spelling of the course's word, not two words the course uses apart ("honey bee",
        where it also writes honeybee now and then). The joined word is looked up first,
        which costs one term's count; only then the phrase is counted."""
        one = stem(first + second)
        with reading_index(self.version_dir):
            together = searcher.reader().doc_frequency(CONTENT, one)
        if not together:
            return False
        return together >= JOINED_OVER_APART * self._count_apart(searcher, first, second)

    def _written_joined(self, searcher, joined: dict[str, str]) -> dict[str, str]:
        """Of the hyphenated words a plan searched also as the one word they make
        (``Plan.joined``: "pre-training", pretraining), those whose parts no section writes
        side by side in its own text (``_writes_side_by_side``): the course writes the word
        joined, so the results are its, and the reader is told so ("Showing results for
        pretraining"), as for "subnetmask" or "soft max". The index finds the parts in the
        sections that mention a term of that other name (the sample course's glossary names
        pretraining "pre-training" too), which say nothing of how the course writes it.
        Where a section writes them (a course writing "fine-tuning", its glossary naming it
        "finetuning" too), both forms are the course's, and no notice is due."""
        found = {}
        for typed, one in joined.items():
            parts = tuple(stem(part) for part in analysis_words(typed))
            if parts not in self._joined_only:
                if len(self._joined_only) >= MAX_REMEMBERED_CORRECTIONS:
                    self._joined_only.clear()
                self._joined_only[parts] = not self._writes_side_by_side(searcher, parts)
            if self._joined_only[parts]:
                found[typed] = one
        return found

    def _writes_side_by_side(self, searcher, stems: tuple[str, ...]) -> bool:
        """Whether any of the first ``NAME_SECTIONS`` sections the words of ``stems`` side by
        side find writes them so in its own text (its heading, text, code or lesson's
        title), not only in the names of the terms it mentions, which the index holds too."""
        numbers = self._first_side_by_side(searcher, list(stems), NAME_SECTIONS)
        for number in numbers:
            stored = self._stored(searcher, number)
            for text in (stored["heading"], stored["body"], stored["code"],
                         stored["lesson_title"]):
                found = [stem(word) for word in analysis_words(text)]
                if any(tuple(found[at:at + len(stems)]) == stems
                       for at in range(len(found) - len(stems) + 1)):
                    return True
        return False

    def _count_apart(self, searcher, first: str, second: str) -> int:
        """How many sections write ``first`` and ``second`` side by side (``second`` as any
        word of its -ion family: ``_stems_of``)."""
        phrase = wq.Or([wq.Phrase(CONTENT, [stem(first), kin])
                        for kin in self._stems_of(second)])
        with reading_index(self.version_dir):
            return self._counter.count(searcher, phrase, None)

    def term_forms(self) -> dict[str, tuple[str, ...]]:
        """Each term's names in the other forms the course writes that count as mentions
        (``Glossary.written_forms``): ``/api/terms``' ``forms``."""
        return self.glossary.written_forms(self._spelling, self._writes_forms)

    def _writes_forms(self, forms: list[str]) -> set[str]:
        """Those of ``forms`` (one term's) that some section writes as they are, by the case
        rule of its name (``form_pattern``), in the text its mentions are counted in: its
        heading, its text or its lesson's title. Only the sections the index finds the
        form's words in, side by side in any of their forms, are read, and those that hold
        the term's mentions (whose names the index holds too) among them: each group of
        forms with the same stems once, until all are found."""
        searcher = self.whoosh_searcher()
        rule = self.glossary.matcher.title_rule
        groups: dict[tuple[str, ...], dict[str, re.Pattern[str]]] = {}
        for form in forms:
            stems = tuple(stem(word) for word in analysis_words(form))
            if stems:
                groups.setdefault(stems, {})[form] = form_pattern(form, rule)
        found = set()
        for stems, left in groups.items():
            query = (wq.Phrase(CONTENT, list(stems)) if len(stems) > 1
                     else wq.Term(CONTENT, stems[0]))
            with reading_index(self.version_dir):
                numbers = list(searcher.docs_for_query(query))
            for number in numbers:
                stored = self._stored(searcher, number)
                text = "\n\n".join((stored["heading"], stored["body"], stored["lesson_title"]))
                for form, pattern in list(left.items()):
                    if pattern.search(text):
                        found.add(form)
                        del left[form]
                if not left:
                    break
        return found

    def accented(self, word: str) -> str | None:
        """The course's spelling of ``word`` where it writes the word only with other accents
        ("pate": pâte, "fermentee": fermentée), the one it writes most; None for a word it
        writes as typed, or one it does not write in any accents. No slip is corrected: this
        is for words in quotes, asked for as written."""
        if self.written(word):
            return None
        found = [c for d, c in self._speller().candidates(word.lower(), 0) if d == 0]
        return max(found, key=lambda c: (self._vocabulary[c], c)) if found else None

    def _speller(self) -> Speller:
        if self._spell_index is None:
            with self._lock:
                if self._spell_index is None:
                    self._spell_index = Speller(self._vocabulary)
        return self._spell_index

    def search(
        self,
        text: str,
        limit: int = 10,
        page: int = 1,
        lesson: str | None = None,
        module: str | None = None,
        typing: bool = False,
    ) -> SearchResponse:
        """``typing``: ``text`` is a search box's, still being typed, so its last word may be
        cut short and is completed (``MIN_COMPLETED``); a submitted search's words are whole."""
        text = check_query(text)
        limit = max(1, min(int(limit), MAX_LIMIT))
        page = max(1, int(page))
        asked = text  # the response's query, as the reader wrote it
        error = traceback_error(text)  # a pasted traceback: the error it ends with
        if error is not None:  # its name, where the course explains it; else its line
            searched = error[0] if self.written(error[0]) else error[1]
            text, cut = searched, searched_of(text, searched)
        if (too_much := too_large(text)) is not None:  # 9 phrases
            raise BadQuery(too_much)
        typed_text = text  # what suggestions rewrite: the reader's, not the flags' quotes
        flags = flags_as_written(text, partial(self._writes_command, self.whoosh_searcher()))
        if too_large(flags) is None:  # "ss -tlnp" pasted: "ss" with its flag, as written
            text = flags
        if error is None:
            cut = left_out(text)  # 85 words: the first 64 are searched
        if only_excludes(text):
            example = self._example({stem(w) for w in analysis_words(text)})
            first = (f" in its first {MAX_ATOMS} words and phrases of {cut.written}, the "
                     "ones searched," if cut else "")
            raise BadQuery(f"The query only excludes words{first} ({text}): add a word to "
                           "search " + (f"for, as in: {example} {text}." if example else
                                        "for beside the words to exclude."))
        if not names_words(text):  # "?", "()", '""', "-": no course could answer it
            example = self._example(set())
            raise BadQuery(f"The query has no word to search for ({text}): type one or more "
                           + (f"words, as in: {example}." if example else "words."))
        tree = asked_tree = parse_query(text)  # as written, before the steps below
        if asks_nothing(tree):  # "how do I": question words alone, searched as written
            tree = parse_query('"' + " ".join(analysis_words(text)) + '"')
        tree = _singular_plurals(tree, self.singular)  # "llms": the course's LLMs
        tree = without_question_verbs(tree)  # "what does variance mean?": no term mean
        searcher = self.whoosh_searcher()
        tree = _without_comparing(  # "levain vs starter": both topics
            tree, partial(self._names_vs, searcher))  # not the "VS" of "VS Code"
        tree = without_asking_words(  # "meaning of variance": no term mean either
            tree, partial(self._writes_near, searcher),
            lambda name: self.glossary.find(name) is not None)
        filters = [wq.Term(k, v) for k, v in (("lesson", lesson), ("module", module)) if v]
        filter_q = wq.And(filters) if filters else None
        typed = _last_word(text) if typing else None

        asked_words = positive_words(tree)
        naming = self._naming_fixes(asked_words)  # "quen excluder": queen excluder
        alone = sum(1 for word in asked_words if not (is_stop(word) or _numeric(word))) <= 1
        beside = {} if alone else self._fixes_beside(searcher, asked_words)

        def correct(word: str) -> str | None:
            return (naming.get(word.lower()) or self.correct(word, word == typed, alone)
                    or beside.get(word.lower()))  # "tokn cache": token cache

        def accents(word: str) -> str | None:
            return naming.get(word.lower()) or self.accented(word)

        shown = partial(self._shown, searcher)
        split = _split(tree, lambda word: self.apart(searcher, word, word.lower() == typed),
                       shown, partial(self.hyphenated, searcher))
        if split:  # "subnetmask" is subnet mask
            tree = split[0]
        rarity = partial(searcher.idf, CONTENT)
        kept = kept_stops(tree, partial(self._written_apart, searcher),  # "state DOWN"
                          partial(self._writes_in_capitals, searcher))
        the_plan = plan(tree, correct=correct, written=self.written, related=self.related,
                        family=self.family, rarity=rarity, accents=accents,
                        names=self.holds_name, kept=kept)

        asking = self.asking(searcher, asked_about(positive_words(asked_tree)))

        def run(a_plan: Plan, a_tree: Node) -> tuple[list, int]:
            return self._run(searcher, a_plan.query, page, limit, filter_q,
                             self.defining(searcher, a_tree, a_plan) | asking,
                             a_plan.side_by_side)

        page_hits, total = run(the_plan, tree)
        joined = None
        if the_plan.natural:  # "what is soft max?": both words found, apart
            joined = _joined(tree, lambda a, b, one: not (is_stop(a) or is_stop(b))
                             and self.written(one) and not self._written_apart(searcher, a, b),
                             shown)  # "what is a float?" is no question on "afloat"
        elif total == 0:
            joined = _joined(tree, lambda a, b, one: self.written(one), shown)
        if not joined:  # "over proofed": the course's over-proofed, not any "proofed"
            joined = _hyphen_joined(tree, lambda a, b: self.hyphenated(searcher, a, b), shown,
                                    lambda a, b: self.closed(searcher, a, b))  # beekeeping
        if joined:
            together = plan(joined[0], correct=correct, written=self.written, family=self.family,
                            related=self.related, rarity=rarity, accents=accents,
                            names=self.holds_name, kept=kept)
            hits, found = run(together, joined[0])
            if found:  # "soft max" is softmax
                the_plan, page_hits, total = together, hits, found
                tree = joined[0]
            else:
                joined = None
        if total == 0 and not the_plan.natural:
            loose = plan(tree, correct=correct, relaxed=True, written=self.written,
                         family=self.family,
                         related=self.related,
                         together=lambda parts: self._written_apart(searcher, *parts),
                         rarity=rarity, accents=accents, names=self.holds_name,
                         kept=kept)
            loose_hits, loose_total = run(loose, tree)
            if loose_total:
                the_plan, page_hits, total = loose, loose_hits, loose_total
        instead = {**the_plan.corrections,
                   **{word: shown for word, (shown, _) in the_plan.related.items()}}
        wanted_words = _apply_corrections(" ".join(positive_words(tree)), instead)
        wanted_words = " ; ".join([wanted_words, *the_plan.joined.values()])  # soft-max: softmax
        terms = tuple(self.glossary.in_text(  # "temprature" names temperature
            wanted_words, partial(self._as_name, searcher)))  # "dobsonian": Dobsonian
        if (subject := asked_about(positive_words(asked_tree))) is not None and (
                subject_term := self.glossary.find(_apply_corrections(subject, instead))
        ) is not None and subject_term not in terms:  # "what is make": the build tool Make
            terms = (subject_term, *terms)
        terms += tuple(t for t in self.glossary.by_participle(wanted_words, self._spelling)
                       if t not in terms)  # "braking": brake, after any term named so
        named = ()
        if total == 0 and not terms and not _quotes(tree):  # "torpedo": only a definition
            terms = self.glossary.described_by(positive_words(tree))  # writes it: bâtard
        if total == 0 and terms and not _quotes(tree):  # "topp": nucleus sampling's
            by_name = plan(_terms_instead(tree, terms), names=self.holds_name)
            name_hits, name_total = self._run(searcher, by_name.query, page, limit, filter_q)
            if name_total:
                page_hits, total = name_hits, name_total
                named = tuple((typed_text, t.term) for t in terms)
        suggestion = split[1](typed_text) if split else None
        if suggestion == typed_text:  # "35C": searched as 35 C, nothing to tell
            suggestion = None
        if joined:
            suggestion = joined[1](suggestion or typed_text)
        one_word = self._written_joined(searcher, the_plan.joined)
        if one_word:  # "pre-training": the course writes pretraining
            respelt = _apply_joined(suggestion or typed_text, one_word, shown)
            one_word = one_word if respelt != (suggestion or typed_text) else {}
            suggestion = respelt if one_word else suggestion
        if the_plan.corrections:
            suggestion = _apply_corrections(suggestion or typed_text, the_plan.corrections,
                                            shown)
        searched = bool(split or joined or one_word or any(
            stem(fixed) != stem(word) for word, fixed in the_plan.corrections.items()))
        marks = _marked_stems(positive_words(tree), the_plan.corrections)
        family = marks & _marked_stems(positive_words(tree, phrases=False),
                                       the_plan.corrections)  # not a word in quotes
        if one_word:  # "Showing results for pretraining": its parts alone are no hit
            apart = _marked_stems(list(one_word), {}) - _marked_stems(
                [w for w in positive_words(tree) if w not in one_word], the_plan.corrections)
            marks, family = marks - apart, family - apart
        marks |= _named_stems(terms) | _marked_stems(list(the_plan.joined.values()), {})
        marks |= {text for _, stems in the_plan.related.values() for text in stems}
        marks |= the_plan.family  # repetition: repeated
        marks |= {part for form in the_plan.numbers for part in form}  # 1400s: 1400
        related = (_related_words(typed_text, the_plan.related) if total else ()) + named
        relaxed = the_plan.relaxed
        if total and not named:  # "in-context", which no section writes: context
            narrowed = tuple((typed, part) for typed, part in the_plan.narrowed.items()
                             if self.written(part))  # else the other words were found
            related += narrowed
            if narrowed and {typed for typed, _ in narrowed} >= {
                    w for w in positive_words(tree) if not is_stop(w)}:
                relaxed = False  # "in-context" alone: "most of them" of one word says nothing
        phrases = _phrases(tree)  # once for the query, not once for each hit
        phrases += tuple(form for form in the_plan.numbers if len(form) > 1)  # "1,500"
        names = _named_runs(terms)
        if not the_plan.relaxed:  # "pourovers": "Pour over", not each "over" of a section
            runs = _written_runs(tree)
            kin = [(*run[:-1], each) for run in runs
                   for each in the_plan.phrased.get(run, ())]  # "over-reduced" too
            names += tuple(run for run in dict.fromkeys([*runs, *kin]) if run not in names)
            alone = _single_stems(tree) | _named_stems(terms) | the_plan.word_family
            parted = {key for run in [*runs, *kin] for key in run} - alone
            marks -= parted
            parts_alone = frozenset() if one_word else frozenset(  # pre-training: pretraining
                key for key in parted if not is_stop(key))
        else:
            parts_alone = frozenset()
        response = SearchResponse(
            query=asked,
            total=total,
            results=tuple(self._hit(searcher, hit, marks, family, phrases, names, parts_alone)
                          for hit in page_hits),
            terms=terms,
            suggestion=suggestion,
            suggestion_searched=searched and suggestion is not None,
            page=page,
            limit=limit,
            relaxed=relaxed,
            version=self.version,
            words=tuple(the_plan.words),
            related=related,
            left_out=cut,
        )
        if error is not None:  # a traceback's error line: searched as the course writes it
            return response
        return self._flags_as_text(searcher, response, typed_text, lesson, module, typing)

    def answers(self, text: str) -> bool:
        """Whether a submitted search for ``text`` (no filter, as the search page and
        ``/api/search`` log one that finds nothing) finds anything in this version: the
        coverage report's test of a query its log holds. Remembered for the version, whose
        answer never changes, since the report asks again each time it is made; a query
        this version refuses (``BadQuery``: an older log's ``-word``) finds nothing."""
        found = self._answers.get(text)
        if found is None:
            try:
                found = self.search(text, limit=1).total > 0
            except BadQuery:
                found = False
            with self._lock:
                if len(self._answers) >= MAX_REMEMBERED_CORRECTIONS:
                    self._answers.clear()
                self._answers[text] = found
        return found

    def defining(self, searcher, tree: Node, the_plan: Plan) -> frozenset[int]:
        """The sections that define the term the query ``tree`` names alone, its words
        (those not excluded, as corrected, or as the one word a hyphenated one also is)
        being one of the term's names ("tokens": token; "embeding": embedding; "soft-max":
        softmax), or a question's, less the stop words before and after them ("what is a
        token?", "what does variance mean?", "what are tokens for"): they rank
        ``DEFINING_BOOST`` times their score. None for a query of other words beside the
        name ("token limit", "how is the mean computed") or of several terms."""
        typed = positive_words(tree)
        record = None
        for form in dict.fromkeys(" ".join(the_plan.joined.get(word, word) if join else word
                                           for word in each)
                                  for each in (typed, *_asked(typed))
                                  for join in (False, True)):
            if form.strip() and (record := self.glossary.find(
                    _apply_corrections(form, the_plan.corrections))):
                break
        if record is None:
            return frozenset()
        found = self._defining.get(record.term)
        if found is None:
            with reading_index(self.version_dir):
                found = frozenset(n for d in record.definitions if d.origin == "lesson"
                                  for n in self._defined_at(searcher, d))
                if not found:  # only the glossary says what it is
                    found = frozenset(self._introduced_at(searcher, record)
                                      or self._echoed_at(searcher, record))
            with self._lock:
                if len(self._defining) >= MAX_REMEMBERED_CORRECTIONS:
                    self._defining.clear()
                self._defining[record.term] = found
        return found

    def asking(self, searcher, subject: str | None) -> frozenset[int]:
        """The sections whose heading restates a question asking what ``subject`` is ("What
        a swarm is", "What is a swarm?" for "what is a swarm"; ``query_plan.asked_about``
        reads both): they rank ``DEFINING_BOOST`` times their score, as a defining section
        does, whether or not the glossary has the subject. Such a section is the course's
        own answer to the reader's question, and came fifth, below four that use "swarm"
        more. Not a check question's heading, which asks the reader. None when the query
        asks no such question (``subject`` None)."""
        if subject is None:
            return frozenset()
        stems = tuple(stem(w) for w in analysis_words(subject))
        found = self._asking.get(stems)
        if found is None:
            places = self._asking_headings.get(stems, ())
            with reading_index(self.version_dir):
                found = frozenset(
                    n for lesson in {lesson for lesson, _ in places}
                    for n in searcher.document_numbers(lesson=lesson)
                    if (stored := self._stored(searcher, n))["kind"] == "section"
                    and (lesson, stored["url"]) in places)
            with self._lock:
                if len(self._asking) >= MAX_REMEMBERED_CORRECTIONS:
                    self._asking.clear()
                self._asking[stems] = found
        return found

    @cached_property
    def _asking_headings(self) -> dict[tuple[str, ...], set[tuple[str, str]]]:
        """The sections whose heading restates a "what is X?" question, by X's stems: each
        (lesson, url). Read once a version from the search box's completions, the headings
        beginning "what" alone; asked of the search index, ten phrases of "what", "is", "a"
        and X cost a question 60–140 ms at 10,000 sections, each new X again."""
        lessons = {x.get("url"): x.get("slug") for x in self.manifest.get("lessons", [])}
        found: dict[tuple[str, ...], set[tuple[str, str]]] = {}
        for heading, url in headings_beginning(self.version_dir, "what"):
            stems = _asks_about(heading)
            lesson = lessons.get(url.partition("#")[0])
            if stems and lesson is not None:
                found.setdefault(stems, set()).add((lesson, url))
        return found

    def _introduced_at(self, searcher, record: TermRecord) -> list[int]:
        """The section about a term no lesson defines (only the glossary says what it is):
        the one that uses it most, by its mentions, when it uses it at least
        ``INTRODUCING_LEAD`` times as often as any other section; none when no section
        stands out so. A section that dwells on a term is where the course teaches it, not
        one whose heading names it as a part of another thing ("Limiting magnitude"), which
        BM25 put first. A term used evenly throughout has no such section, and lifting the
        first of several that use it about as often put a passing use first (shell-novice's
        "path": "Other Hidden Files", three uses, over "Absolute vs Relative Paths"). The
        glossary's own text keeps no link to a section (a definition is plain text), so the
        lessons' uses decide."""
        busiest = self.glossary.busiest(record, 2)  # not its thousands of mentions
        if not busiest or len(busiest) > 1 and busiest[0].count < (
                INTRODUCING_LEAD * busiest[1].count):
            return []
        most = busiest[0]
        return [n for n in searcher.document_numbers(lesson=most.lesson)
                if (stored := self._stored(searcher, n))["kind"] == "section"
                and stored["url"] == most.url]

    def _echoed_at(self, searcher, record: TermRecord) -> list[int]:
        """The section that says in its own words what the glossary says a term is: the one
        of those mentioning it that writes the most of the content words of the glossary's
        definition (the term's own names aside), at least ``ECHO_SHARE`` of them and more
        than any other section; none when no section stands out so. "Queen cells" writes
        "queen" more often than "One mother for everyone", but only the latter writes "the
        only fully fertile female" and her eggs, as the glossary's "the single fully fertile
        female of a colony, which lays all the eggs" does."""
        said = {stem(w) for d in record.definitions if d.origin == "glossary"
                for w in analysis_words(d.text) if not is_stop(w)}
        said -= {stem(w) for name in (record.term, *record.aliases)
                 for w in analysis_words(name)}
        if not said:
            return []
        urls: dict[str, set[str]] = {}  # each lesson's mentioning sections, read once
        for mention in self.glossary.busiest(record, ECHO_SECTIONS):
            urls.setdefault(mention.lesson, set()).add(mention.url)
        shares: list[tuple[int, int]] = []
        for lesson, wanted in urls.items():
            for n in searcher.document_numbers(lesson=lesson):
                stored = self._stored(searcher, n)
                if stored["kind"] == "section" and stored["url"] in wanted:
                    body = {stem(w) for w in analysis_words(stored["body"] or "")}
                    shares.append((len(said & body), n))
        shares.sort(reverse=True)
        if not shares or shares[0][0] < ECHO_SHARE * len(said) or (
                len(shares) > 1 and shares[1][0] == shares[0][0]):
            return []
        return [shares[0][1]]

    def _defined_at(self, searcher, definition: Definition) -> list[int]:
        """The section of ``definition``: its lesson's section with its anchor. A lesson's
        passages with no anchor (a plain-text lesson's paragraphs, the text above the first
        heading) share one, None: of them, the one that holds the defining sentence (its
        first words, the link's text fragment), not each; the one the build gave the
        definition's weight (``model.defining_passage``)."""
        numbers = [n for n in searcher.document_numbers(lesson=definition.lesson)
                   if (stored := self._stored(searcher, n))["kind"] == "section"
                   and stored.get("anchor") == definition.anchor]
        if definition.anchor is not None or len(numbers) < 2:
            return numbers
        opening = opening_words(definition.url, definition.text)
        return [numbers[defining_passage(
            opening, (self._stored(searcher, n)["body"] for n in numbers))]]

    def _run(self, searcher, q, page, limit, filter_q,
             boosted: frozenset[int] = frozenset(),
             side_by_side: tuple[tuple[str, ...], ...] = ()) -> tuple[list, int]:
        """The hits of one page and the number of matches in all pages; a file of the index
        that cannot be read is ``IndexDamaged`` (``reading_index``)."""
        with reading_index(self.version_dir):
            return self._run_reading(searcher, q, page, limit, filter_q, boosted,
                                     side_by_side)

    def _run_reading(self, searcher, q, page, limit, filter_q,
                     boosted: frozenset[int] = frozenset(),
                     side_by_side: tuple[tuple[str, ...], ...] = ()) -> tuple[list, int]:
        """The hits of one page and the number of matches in all pages, the ``boosted``
        documents' scores ``DEFINING_BOOST`` times what they score, and those that write
        the words of ``side_by_side`` one after the other raised for it
        (``word_scoring.SIDE_BY_SIDE_BONUS``).

        Queries of words and phrases are scored from whole posting blocks (``word_scoring``);
        anything else by Whoosh's matchers, every match scored (``top_hits``: Whoosh's own
        skipping lost hits under NOT), and counted on bitmaps (``match_count``), which also
        answer a query that matches nothing without scoring. Either way a lesson's summary or
        check never comes before its lesson's best section: they trade places
        (``summary_rank``).
        """
        if q is None:
            return [], 0
        wanted = page * limit
        self._course_order(searcher)
        if can_score(q, CONTENT):
            allow = None if filter_q is None else self._counter.bits(searcher, filter_q)
            hits, total = self._words.top(searcher, q, wanted, self._order, allow,
                                          partial(self._trade, searcher),
                                          dict.fromkeys(boosted, DEFINING_BOOST),
                                          side_by_side, partial(self._beside, searcher))
            return hits[(page - 1) * limit : wanted], total
        total = self._counter.count(searcher, q, filter_q)
        if total == 0:
            return [], 0
        boost = dict.fromkeys(boosted, DEFINING_BOOST)
        if side_by_side:  # every section writing them, read whole: a rare query's way
            written = Counter(d for run in side_by_side
                              for d in self._words.phrase_docs(searcher, list(run)))
            for docnum, count in written.items():
                boost[docnum] = boost.get(docnum, 1.0) * (
                    1 + SIDE_BY_SIDE_BONUS * count / len(side_by_side))
        collector = TopInCourseOrder(self._order, wanted, self._lesson_parts(searcher),
                                     boost)
        searcher.search_with_collector(q, FilterCollector(collector, allow=filter_q))
        return collector.best()[(page - 1) * limit : wanted], total

    def _lesson_titles(self) -> dict[int, str]:
        """Each lesson's title by its place in the course, as the manifest lists them."""
        return {lesson["position"]: lesson.get("title") or ""
                for lesson in self.manifest.get("lessons", ())
                if isinstance(lesson, dict) and isinstance(lesson.get("position"), int)}

    def _course_order(self, searcher) -> array:
        """Each document's place in the course (``top_hits.course_order``), read once."""
        if self._order is None:
            self._order = course_order(searcher)
        return self._order

    def _trade(self, searcher, scores: dict[int, float], floor: float) -> None:
        """Each lesson's summary and check in ``scores`` after its lesson's best section
        (``LessonParts.trade``)."""
        if scores:
            self._lesson_parts(searcher).trade(scores, floor)

    def _beside(self, searcher, docnums: set[int]) -> set[int]:
        """The sections a summary or check among ``docnums`` may trade its score with."""
        return self._lesson_parts(searcher).beside(docnums)

    def _lesson_parts(self, searcher) -> LessonParts:
        """Read when a query first matches something: which documents are summaries and
        checks, and the lesson of each."""
        if self._parts is None:
            self._parts = LessonParts(searcher, self._order)
        return self._parts

    def _hit(self, searcher, hit: tuple[float, int], marks: frozenset[str],
             family: frozenset[str], phrases: Phrases = (), names: Phrases = (),
             apart: frozenset[str] = frozenset()) -> SearchHit:
        """The snippet is the text's, or the code's where only it writes one of ``phrases``
        whole ("data_file" in the code, where the text says "file") or its passage holds
        more of the query's words (``section_snippet``). ``names``: the names of several
        words of the terms the query names, marked where written whole (``_named_runs``):
        a section found through a name of several words of a term it mentions, which only
        the whole name finds ("false color", of chromatic aberration), marks the term as
        the section writes it, the query naming the term. ``apart``: the parts (no
        stop word) of a hyphenated or split word of the query, marked alone only where the
        section writes them nowhere side by side and nothing else is marked: its title
        found "Trimming" of a lesson "Brake cables" for `brake-cables`, whose "the cable
        does not fray" is marked as it is for `brake cables`, not left bare."""
        score, docnum = hit
        stored = self._stored(searcher, docnum)
        body, code = stored["body"], stored["code"]
        snippet = section_snippet(body, code, marks, SNIPPET_CHARS, family=family,
                                  phrases=phrases, names=names)
        if not snippet and apart:
            snippet = section_snippet(body, code, marks | apart, SNIPPET_CHARS, family=family,
                                      phrases=phrases, names=names)
        in_title = None
        if not snippet:
            snippet = (plain_snippet(body, SNIPPET_CHARS) if body
                       else plain_code(code, SNIPPET_CHARS))
            in_title = _title_marked(stored["lesson_title"], stored["heading_path"],
                                     marks | apart, family, names)
        return SearchHit(
            lesson=stored["lesson"],
            lesson_title=stored["lesson_title"],
            heading=stored["heading"] or None,
            anchor=stored.get("anchor"),
            url=stored["url"],
            snippet=snippet,
            score=round(float(score or 0.0), 4),
            kind=stored["kind"],
            heading_path=tuple(stored["heading_path"]),
            module=stored["module"] or None,
            module_title=stored.get("module_title"),
            position=stored["position"],
            matched_in_title=in_title,
        )

    def _stored(self, searcher, docnum: int) -> dict[str, Any]:
        """Document ``docnum``'s stored fields, refused as ``IndexDamaged`` when they are not
        what a build writes (``holds_hit``): bytes written over may still unpickle."""
        return stored_fields(self.version_dir, searcher, docnum, holds_hit)


def _asks_about(heading: str | None) -> tuple[str, ...] | None:
    """The stems of what a heading asks or says a thing is ("What a swarm is": swarm), or
    None for any other heading."""
    subject = asked_about(analysis_words(heading or ""))
    return None if subject is None else tuple(stem(w) for w in analysis_words(subject))


HIT_FIELDS: dict[str, type] = {
    "lesson": str, "lesson_title": str, "url": str, "kind": str, "heading": str,
    "module": str, "body": str, "code": str, "position": int}
"""The stored fields every document has (``Document.fields``: a build writes each, "" when
empty), with their types: what a hit and a suggestion's name read of it. And its
``heading_path``, a sequence of headings, () when empty."""
HIT_FIELDS_OR_NONE: dict[str, type] = {"anchor": str, "module_title": str}
"""The stored fields a build leaves out when None (a section without an anchor, a lesson
outside a module)."""


def _title_marked(title: str, headings: Sequence[str], marks: frozenset[str],
                  family: frozenset[str], names: Phrases) -> str | None:
    """``SearchHit.matched_in_title`` of a hit whose snippet marks nothing: its lesson's
    ``title`` with the query's words marked, as the snippet would mark them, when the
    title writes one and no heading above the section does (a heading, which the reader
    sees, says why itself)."""
    if not title or any(marked_text(h, marks, len(h) + 1, family=family, names=names)
                        for h in headings):
        return None
    width = 4 * len(title) + 4  # the whole title: a window opens a third of it before
    return marked_text(title, marks, width, family=family, names=names) or None


def holds_hit(stored: Any) -> bool:
    """Whether a document's stored fields are the dict a build writes, as far as a hit
    reads it."""
    return (type(stored) is dict
            and all(type(stored.get(key)) is kind for key, kind in HIT_FIELDS.items())
            and all(type(stored.get(key)) in (kind, type(None))
                    for key, kind in HIT_FIELDS_OR_NONE.items())
            and type(path := stored.get("heading_path")) in (tuple, list)
            and all(type(heading) is str for heading in path))


SERVED_LESSON_KEYS = frozenset(
    {"slug", "title", "url", "module", "position", "minutes", "sections"})
"""What the pages and the API read of a lesson (``lessons_body``, the templates, the filters)."""


def read_served_manifest(version_dir: Path) -> dict[str, Any]:
    """The manifest without what only builds and the coverage report read (the build's
    warnings; a lesson's sections' anchors, source file, format and key idea).

    A lesson is slimmed as the JSON is decoded, so its anchors never pile up beside it: at
    100,000 sections, reading the whole manifest and dropping them afterwards left 20 MB per
    worker (the anchors' freed memory stayed spread among the objects kept), this 6 MB.
    """
    text = (Path(version_dir) / MANIFEST).read_text(encoding="utf-8")
    manifest = json.loads(text, object_pairs_hook=_slim_lesson)
    if isinstance(manifest, dict):  # else refused by ``open_manifest``
        manifest.pop("problems", None)
    return manifest


def _slim_lesson(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if any(key == "anchors" for key, _ in pairs):  # only a lesson lists its anchors
        return {key: value for key, value in pairs if key in SERVED_LESSON_KEYS}
    return dict(pairs)


def check_query(text: str | None) -> str:
    text = " ".join((text or "").split())
    if not text:
        raise BadQuery("The query is empty: type one or more words to search for.")
    if len(text) > MAX_QUERY_CHARS:
        raise BadQuery(f"The query is {len(text)} characters long; the limit is "
                       f"{MAX_QUERY_CHARS}.")
    return text


def _numeric(word: str) -> bool:
    """Whether a word of the query is a number, an address or a version, with no letter
    (``8080``, ``192.168.1.1``, ``3.5``): beside a short word the course does not write it
    says nothing of whether that word is a real one, as another word does ("red, green"),
    so "pign 192.168.1.1" is corrected as "pign" alone is."""
    return not any(c.isalpha() for c in word)


_WORD_AND_PLUSES = re.compile(rf"(?P<word>{WORD.pattern})(?P<pluses>\+*)")
"""A word as the query read it ("Notpad++" is one, "notpad++" the word notpad), and the
``+`` signs after it that it left out."""


def _capitalised(typed: str, word: str) -> str:
    """``word`` with ``typed``'s first capital, or in capitals where ``typed`` is: "DHPC" is
    DHCP, the glossary's acronym, where "Dhcp" names no term."""
    if typed.isupper() and len(typed) > 1:
        return word.upper()
    return word.capitalize() if typed[:1].isupper() else word


def _apply_corrections(text: str, corrections: dict[str, str],
                       shown: Callable[[str, str], str] = _capitalised) -> str:
    """``text`` with each word ``corrections`` has (by its lower case) replaced, as
    ``shown(typed, correction)`` writes it: by default with the typed word's first capital,
    as the glossary reads a query's words ("Temprature" names the term Temperature)."""
    def swap(match: re.Match[str]) -> str:
        word, pluses = match["word"], match["pluses"]
        fixed = corrections.get(word.lower())
        if fixed is None:
            return match.group(0)
        if fixed.endswith("++"):
            pluses = ""  # the name's own: "notpad++" and "Notepad+" mean Notepad++
        return shown(word, fixed) + pluses

    return _WORD_AND_PLUSES.sub(swap, text)


def _related_words(text: str, related: dict[str, tuple[str, tuple[str, ...]]],
                   ) -> tuple[tuple[str, str], ...]:
    """Each word of ``text`` that ``related`` has (by its lower case), once, as typed, with
    the word searched in its place written with its first capital (``_capitalised``)."""
    found: dict[str, tuple[str, str]] = {}
    for match in WORD.finditer(text):
        word = match.group(0)
        if word.lower() in related and word.lower() not in found:
            found[word.lower()] = (word, _capitalised(word, related[word.lower()][0]))
    return tuple(found.values())


def _asked(typed: list[str]) -> tuple[list[str], list[str]]:
    """A query's words less the stop words before the others, and less those after them
    too: what a question asks about ("what is a mixture of experts?": mixture of experts;
    "what is dialing in?": dialing in, else dialing)."""
    stops = [all(is_stop(w) for w in analysis_words(word)) for word in typed]
    if all(stops):
        return typed, typed
    first = stops.index(False)
    end = len(stops) - stops[::-1].index(False)
    return typed[first:], typed[first:end]


def _marked_stems(words: list[str], corrections: dict[str, str]) -> frozenset[str]:
    found = [w for text in [*words, *corrections.values()] for w in analysis_words(text)]
    found += filter(None, map(typed_name, words))  # "notepad++" marks Notepad++ too
    content = [w for w in found if not is_stop(w)] or found
    return frozenset(stem(w) for w in content)


def _joined(tree: Node, fits: Callable[[str, str, str], bool],
            shown: Callable[[str, str], str] = _capitalised
            ) -> tuple[Node, Callable[[str], str]] | None:
    """The query with two words side by side written as the one word the course writes
    ("soft max": softmax), and what makes the reader's text so (the word as ``shown``
    writes it, asked only then: "java script": JavaScript); None when no two do.
    ``fits(first, second, joined)`` says whether the two are to be joined. Only for a query
    of plain words: a query whose every word no section holds, or a question in which the
    course never writes the two apart, neither a stop word (a question's "a float" is no
    "afloat", nor "a part" "apart")."""
    if not isinstance(tree, All) or not all(isinstance(i, Word) for i in tree.items):
        return None
    items = list(tree.items)
    for at in range(len(items) - 1):
        first, second = items[at].text, items[at + 1].text
        one = first + (second if second.isupper() else second.lower())  # Soft Max: Softmax
        if first.isalpha() and second.isalpha() and fits(first, second, one):
            rest = [*items[:at], Word(one), *items[at + 2:]]
            pattern = re.compile(rf"\b{re.escape(first)}\s+{re.escape(second)}\b")
            return (All(tuple(rest)) if len(rest) > 1 else rest[0],
                    partial(_join_in, pattern, one, shown))
    return None


_COMPARING = frozenset({"vs", "versus"})


_VS_NAME = re.compile(r"\bVS\.?\s+([A-Z][\w+#]*)")
"""A "VS" in capitals before a word with a capital: the start of a name ("VS Code"), the word
after it captured."""


def _without_comparing(tree: Node, names_vs: Callable[[str], bool]) -> Node:
    """The query without the "vs" (or "vs.") or "versus" that a reader types between two topics
    ("levain vs starter", "greedy vs beam search", "AFB vs EFB"): it compares them, so a
    section that writes both is the answer, not one whose heading writes "vs" ("Nuc vs
    package"), which was found for it alone, in a relaxed search ("No section has every
    word"). Only between two plain words of a query of plain words, and kept where the
    course writes it as a name's first word, before the query's next word (``names_vs``: a
    course on editors writes "VS Code"; `install vs code` keeps it)."""
    if not isinstance(tree, All) or not all(isinstance(i, Word) for i in tree.items):
        return tree
    items = tree.items
    said = [item.text.lower().rstrip(".") for item in items]
    kept = tuple(item for at, item in enumerate(items)
                 if not (0 < at < len(items) - 1 and said[at] in _COMPARING
                         and not (said[at] == "vs" and names_vs(items[at + 1].text))))
    if len(kept) == len(items):
        return tree
    return All(kept) if len(kept) > 1 else kept[0]


COMPOUNDING = frozenset(
    "about above after all before below by down in into no off on out over so through under "
    "up".split())
"""The stop words a hyphenated word is made with: particles and prepositions ("over-proofed",
"warm-up", "built-in", "follow-through"), and "all", "no" and "so" ("all-purpose",
"no-knead", "so-called"). Asking whether the course hyphenates a pair reads a phrase in up
to ``NAME_SECTIONS`` sections: for every "the answer" or "does sampling" of a question it
made a question's first search four times slower at 10,000 sections (bench/README.md)."""
JOINED_OVER_APART = 2
"""How many times as many sections must write two words as one word ("beekeeping") as write
them side by side ("bees keep their brood") for the two a reader types apart to be searched
as that word (``Searcher.closed``). The sections that write a pair side by side in passing
are few, and the pair the course writes both ways as often ("honey bee", "honeybee") is the
reader's choice: at once as many, "bee keeping" stayed two words in a course whose one
check question says "bees keep", against two sections on beekeepers."""
MAX_HYPHEN_PAIRS = 4
"""How many pairs of a stop word and a word side by side ``_hyphen_joined`` asks about: a
question has a few; a pasted paragraph dozens, each a phrase read in up to ``NAME_SECTIONS``
sections."""


def _hyphen_joined(tree: Node, hyphenated: Callable[[str, str], bool],
                   shown: Callable[[str, str], str] = _capitalised,
                   closed: Callable[[str, str], bool] = lambda first, second: False,
                   ) -> tuple[Node, Callable[[str], str]] | None:
    """The query with a stop word and a word side by side written as the hyphenated word the
    course writes ("over proofed": over-proofed, "warm up": warm-up), or two words neither a
    stop word as the one word it writes (``closed``: "bee keeping", beekeeping), and what
    makes the reader's text so; None when no two are. A stop word alone is not searched
    (``plan``), so "over proofed" was any section that writes "proofed", under-proofed ones
    first; and "bee keeping" was every section that writes "bees" and "keep", never the
    beekeepers. Only where the course writes the two ``hyphenated`` at least as often as apart
    (``Searcher.hyphenated``), or as one word far more often than apart
    (``Searcher.closed``), and only for a query of plain words, as ``_joined``; only a
    stop word such words are made with (``COMPOUNDING``), not a question's "I" or "a"
    (shell-novice writes "reverse-i-search", and "how do I search backwards" was no question
    about it), nor "the" or "does"."""
    if not isinstance(tree, All) or not all(isinstance(i, Word) for i in tree.items):
        return None
    items = list(tree.items)
    asked = 0
    for at in range(len(items) - 1):
        first, second = items[at].text, items[at + 1].text
        if not (first.isalpha() and second.isalpha()) or is_stop(first) and is_stop(second):
            continue
        if is_stop(first) or is_stop(second):
            if (first if is_stop(first) else second).lower() not in COMPOUNDING:
                continue  # "how do I search": no "I-search"; "the answer": no "the-answer"
            asked += 1
            if asked > MAX_HYPHEN_PAIRS:
                return None
            if not hyphenated(first.lower(), second.lower()):
                continue
            one = f"{first}-{second}"
        elif closed(first.lower(), second.lower()):
            one = first + (second if second.isupper() else second.lower())  # Bee Keeping
        else:
            continue
        rest = [*items[:at], Word(one), *items[at + 2:]]
        pattern = re.compile(rf"\b{re.escape(first)}\s+{re.escape(second)}\b")
        return (All(tuple(rest)) if len(rest) > 1 else rest[0],
                partial(_join_in, pattern, one, shown))
    return None


def _split(tree: Node, at: Callable[[str], int | None],
           shown: Callable[[str, str], str] = _capitalised,
           hyphenated: Callable[[str, str], bool] = lambda first, second: False,
           ) -> tuple[Node, Callable[[str], str]] | None:
    """The query with each plain word that ``at`` cuts (``Searcher.apart``) written as the
    two words it holds, searched side by side ("subnetmask": subnet mask, as "subnet-mask"
    is), and what makes the reader's text so (each word as ``shown`` writes it: "dhcpserver"
    is "DHCP server" in a course that writes DHCP so; joined by a hyphen where the course
    writes them ``hyphenated``: "warmup" is "warm-up"); None when no word is cut. A word
    under NOT or in quotes is left as typed. A number and its unit ("35C", "200g") are
    searched apart but written as typed: the reader's spelling is no slip to be told of
    ("Showing results for 35 C" read as a correction)."""
    cuts: dict[str, int] = {}

    def walk(node: Node) -> Node:
        if isinstance(node, Word) and (cut := at(node.text)) is not None:
            cuts[node.text] = cut
            return Word(f"{node.text[:cut]} {node.text[cut:]}")
        if isinstance(node, All | AnyOf):
            return type(node)(tuple(walk(item) for item in node.items))
        return node

    split = walk(tree)
    if not cuts:
        return None

    def written_apart(text: str) -> str:
        for word, cut in cuts.items():
            first, second = word[:cut], word[cut:]
            if _NUMBER.fullmatch(first):  # "35C": a number and its unit, searched apart, unsaid
                continue
            sign = "-" if hyphenated(first.lower(), second.lower()) else " "
            two = f"{shown(first, first.lower())}{sign}{shown(second, second.lower())}"
            text = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", lambda _, two=two: two,
                          text, count=1)
        return text

    return split, written_apart


def _cuts(word: str) -> list[int]:
    """Where ``Searcher.apart`` may cut ``word``: leaving two parts of ``MIN_SPLIT_PART``
    letters or more, before the number that ends it ("gpt2", a name and its version), or
    after the number that opens it ("480f", "200g": a number and its unit, which a course
    writes apart, "480 °F")."""
    found = list(range(MIN_SPLIT_PART, len(word) - MIN_SPLIT_PART + 1))
    number = _LAST_NUMBER.search(word)
    if number is not None and number.start() >= MIN_SPLIT_PART and number.start() not in found:
        found.append(number.start())
    number = _FIRST_NUMBER.match(word)
    if number is not None and number.end() not in found:
        found.append(number.end())
    return found


_LAST_NUMBER = re.compile(r"(?<=[^\W\d_])\d+$")
_FIRST_NUMBER = re.compile(r"\d+(?=[^\W\d_]+$)")
_DECIMAL_FIRST = re.compile(r"\d+[.,]\d+(?=[^\W\d_]+$)")
"""A decimal number that opens a word, before its unit ("14.5psi", "304.8mm"): the index
reads the number's two parts as two words, and the unit as a third, as the course writes
"14.5 psi"."""
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_DIGITS = re.compile(r"\d+")
"""The numbers in a word: a correction keeps them as typed, a number being no slip."""
_STOP_STEMS = frozenset(map(stem, STOP_WORDS))
"""The stems of the stop words: a part of a word that is another form of one ("overs" of
over) is cut off only where the course hyphenates it, as the stop word is."""


def _written_hyphenated(texts: list[str], first: str, second: tuple[str, ...]) -> bool:
    """Whether ``texts`` write ``first`` and a word of one of the stems ``second`` joined by
    a hyphen, and at least as often as apart (any case): a second word in any of its forms,
    as the index finds it; the course's "pour-over" is the reader's "pourovers"
    hyphenated."""
    words = rf"(?<![^\W_]){re.escape(first)}(?P<sign>[-‐‑]|\s+)(?P<second>[^\W_]+)(?![^\W_])"
    signs = [m["sign"] for text in texts for m in re.finditer(words, text, re.IGNORECASE)
             if stem(m["second"].lower()) in second]
    joined = sum(1 for sign in signs if not sign.isspace())
    return joined > 0 and joined >= len(signs) - joined


def _singular_plurals(tree: Node, singular: Callable[[str], str | None]) -> Node:
    """The query with each word that ``singular`` gives a singular (``Searcher.singular``:
    "llms", which the course writes LLMs) written as it, in quotes and under NOT too: the
    same word in another case, not another word."""
    def written(text: str) -> str:
        return WORD.sub(lambda m: singular(m.group(0)) or m.group(0), text)

    def walk(node: Node) -> Node:
        if isinstance(node, Word):
            return Word(written(node.text))
        if isinstance(node, Phrase):
            return Phrase(tuple(map(written, node.words)))
        if isinstance(node, Not):
            return Not(walk(node.item))
        return type(node)(tuple(walk(item) for item in node.items))

    return walk(tree)


def _terms_instead(tree: Node, terms: tuple[TermRecord, ...]) -> Node:
    """The query with what it wants replaced by the glossary ``terms`` it names, any name
    of any of them, each as a phrase; what it excludes is kept. For a query that found
    nothing though it names a term (its card shows): "topp" finds no section, as none
    writes it, but names nucleus sampling (``Glossary.in_text`` reads it as "top-p"), and
    a term card that says a lesson defines the term over "No sections match" contradicted
    itself. The sections are those a search for the names finds, as the index holds the
    names of the terms each section mentions."""
    names = AnyOf(tuple(Phrase((name,)) for t in terms for name in (t.term, *t.aliases)))
    excluded = tuple(i for i in tree.items if isinstance(i, Not)) if isinstance(tree, All) else ()
    return All((names, *excluded)) if excluded else names


def _quotes(node: Node) -> bool:
    """Whether the query wants words in quotes: written exactly so, side by side, as a
    phrase's words are neither corrected nor searched as another word, nor, when no section
    writes them, searched as the terms they name (``_terms_instead``)."""
    if isinstance(node, Phrase):
        return True
    return isinstance(node, All | AnyOf) and any(map(_quotes, node.items))


def _apply_joined(text: str, joined: dict[str, str], shown: Callable[[str, str], str]) -> str:
    """``text`` with each hyphenated word ``joined`` has written as the one word it is
    searched as, as ``shown`` writes it for the word typed ("Pre-training": Pretraining)."""
    for typed, one in joined.items():
        text = re.sub(rf"(?<!\w){re.escape(typed)}(?![\w-])",
                      lambda _, typed=typed, one=one: shown(typed, one), text)
    return text


def _join_in(pattern: re.Pattern[str], one: str, shown: Callable[[str, str], str],
             text: str) -> str:
    """``text`` with the two words ``pattern`` finds written as the one word ``one``."""
    return pattern.sub(lambda _: shown(one, one.lower()), text, count=1)


def _read_spelling(version_dir: Path) -> dict[str, int]:
    """The version's word counts; a file that is not the object of counts a build writes is
    refused as a damaged part (it gave a ``JSONDecodeError`` to every command)."""
    try:
        counts = read_spelling(version_dir)
    except (OSError, ValueError) as exc:
        raise IndexIncomplete(str(version_dir.parent), SPELLING_PART, "is damaged") from exc
    if not isinstance(counts, dict) or not all(type(n) is int for n in counts.values()):
        raise IndexIncomplete(str(version_dir.parent), SPELLING_PART, "is damaged")
    return counts


def _beside(typed: list[str], at: int) -> list[tuple[list[str], list[str]]]:
    """The words the reader wrote before and after ``typed[at]`` up to the nearest plain
    word that is no stop word on each side, with at most ``MAX_BETWEEN`` stop words between
    ("kv cahe": kv; "cost of tokn": cost of), each side as (before, after)."""
    sides = []
    for step in (-1, 1):
        between: list[str] = []
        other = at + step
        while 0 <= other < len(typed) and is_stop(typed[other]) and len(between) < MAX_BETWEEN:
            between.append(typed[other])
            other += step
        if not (0 <= other < len(typed)) or is_stop(typed[other]) or len(
                analysis_words(typed[other])) != 1:
            continue
        if step < 0:
            sides.append(([typed[other], *reversed(between)], []))
        else:
            sides.append(([], [*between, typed[other]]))
    return sides


def _last_word(text: str) -> str | None:
    """The word ``text`` ends with, as a query's word is looked up (lower case); None when
    something follows it (``stan?``, ``stan ``): that word is finished."""
    found = analysis_words(text)
    return found[-1] if found and text[-1:].isalnum() else None


def _completions(speller: Speller, word: str, cut_short: bool) -> list[str]:
    """The course's words ``word`` may be the start of: not a name it numbers ("norm" is
    not norm1, a layer's name in code, though both begin so). Unless ``word`` is
    ``cut_short``, only a name it lacks the symbols of ("notepad": Notepad++): a whole word
    is not another that begins so ("stand" is not "standard")."""
    if not cut_short:
        return [w for w in speller.starting(word) if NAME_SYMBOLS.fullmatch(w, len(word))]
    return [w for w in speller.starting(word) if not w[len(word):].isdigit()]


def _phrases(node: Node | None) -> Phrases:
    """The stems of the runs of words ``node`` wants side by side: an identifier
    (``data_file``, ``numpy.mean``) and a quoted phrase, not an excluded one."""
    if node is None or isinstance(node, Not):
        return ()
    if isinstance(node, Word):
        parts = analysis_words(node.text)
    elif isinstance(node, Phrase):
        parts = [w for text in node.words for w in analysis_words(text)]
    else:
        return tuple(p for item in node.items for p in _phrases(item))
    return (tuple(map(stem, parts)),) if len(parts) > 1 else ()


def _written_runs(tree: Node | None) -> Phrases:
    """The stems of each word of several parts, hyphenated or split, that ``tree`` searches
    as one: the parts a reader wrote together ("pour-over"), or that a word written joined
    was cut into ("pourovers": pour overs). A snippet marks them where written side by side
    ("Pour over the grounds", "a pour-over") and not each part alone: "over" in "tip it over"
    is not what was searched, nor "pour" in "pour the rest". So is a phrase in quotes, and a
    number of several parts (``2:1``, ``1.5``, ``3/4``): the 1 of "1:1 syrup" is no part of
    the ratio 2:1. Not a name of code (``data_file``, ``numpy.mean``), whose parts the text
    may write alone."""
    if tree is None or isinstance(tree, Not):
        return ()
    if isinstance(tree, Word):
        parts = analysis_words(tree.text)
        joined = (" " in tree.text or _HYPHENS.search(tree.text) is not None
                  or all(part.isdigit() for part in parts))
        return (tuple(map(stem, parts)),) if joined and len(parts) > 1 else ()
    if isinstance(tree, Phrase):  # '"pour over"' asks for the two side by side too
        parts = [w for text in tree.words for w in analysis_words(text)]
        return (tuple(map(stem, parts)),) if len(parts) > 1 else ()
    return tuple(dict.fromkeys(run for item in tree.items for run in _written_runs(item)))


def _single_stems(tree: Node | None) -> frozenset[str]:
    """The stems of the words of one part that ``tree`` searches for (not excluded), in
    quotes or not: a word asked for alone is marked alone too."""
    if tree is None or isinstance(tree, Not):
        return frozenset()
    if isinstance(tree, Word):
        parts = analysis_words(tree.text)
        return frozenset(map(stem, parts)) if len(parts) == 1 else frozenset()
    if isinstance(tree, Phrase):
        parts = [w for text in tree.words for w in analysis_words(text)]
        return frozenset(map(stem, parts)) if len(parts) == 1 else frozenset()
    return frozenset().union(*map(_single_stems, tree.items))


_HYPHENS = re.compile("[-‐‑–]")


def _named_runs(terms: tuple[TermRecord, ...]) -> Phrases:
    """The stems of each name of several words of the terms a query names, marked in a
    snippet where written whole: a search for wifi found the sections that write Wi-Fi (the
    index holds the names of the terms each mentions) and marked nothing in them."""
    runs = (tuple(map(stem, analysis_words(name)))
            for t in terms for name in (t.term, *t.aliases))
    return tuple(dict.fromkeys(run for run in runs if len(run) > 1))


def _named_stems(terms: tuple[TermRecord, ...]) -> frozenset[str]:
    """What to mark for the terms a query names: a section is found through any name of
    each (``CONTENT`` holds the names of the terms it mentions), so "temp" marks the
    "temperature" a section writes. Only names of one word: a word of a longer name alone
    is another thing ("set" of "test set", an alias of benchmark, marked "settings")."""
    return _marked_stems([name for t in terms for name in (t.term, *t.aliases)
                          if len(analysis_words(name)) == 1], {})
