"""The Whoosh side of the index: schema, analyzer, and writing one document per section.

Only this module and ``searcher.py`` know Whoosh. Each section becomes a document; each
lesson's check question becomes one more (kind ``check``), and so do its key idea and short
answer (kind ``summary``).
"""

from __future__ import annotations

import json
import re
import sys
from array import array
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from whoosh import fields, formats
from whoosh.analysis import IDTokenizer, Token, Tokenizer
from whoosh.codec.whoosh3 import LENGTHS_COLUMN, _lenfield

from .analysis import WORD, find_words, lowered, made_from, stem
from .model import CheckQuestion, CodeBlock, Course, Lesson, link_to, outline, text_fragment

WHOOSH_DIR = "whoosh"
SPELLING = "spelling.json"


class CourseTokenizer(Tokenizer):
    """Words, lower-cased and (optionally) Snowball-stemmed, in one pass.

    One fused step instead of Whoosh's tokenizer → lowercase → stem generator chain: the
    chain's per-token overhead was the largest cost of a build (bench/README.md).
    """

    def __init__(self, stemming: bool = True):
        self.stemming = stemming

    def __eq__(self, other):
        return type(other) is type(self) and other.stemming == self.stemming

    def __call__(self, value, positions=False, chars=False, keeporiginal=False,
                 removestops=True, start_pos=0, start_char=0, tokenize=True, mode="",
                 **kwargs):
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        if not tokenize:
            token.original = token.text = value.lower()
            token.boost = 1.0
            token.stopped = False
            token.pos = start_pos
            token.startchar, token.endchar = start_char, start_char + len(value)
            yield token
            return
        fold = stem if self.stemming else str
        pos, offset = start_pos, start_char
        for piece in value.split(BREAK):  # a GAP between runs, as spaced_words leaves
            begin = 0
            for end, after in (*(m.span() for m in SENTENCE_END.finditer(piece)),
                               (len(piece), len(piece))):
                for match in WORD.finditer(piece, begin, end):
                    word = lowered(match.group(0))  # LLMs: llm
                    token.text = fold(word)
                    token.boost = 1.0
                    token.stopped = False
                    if keeporiginal:
                        token.original = word
                    if positions:
                        token.pos = pos
                    if chars:
                        token.startchar = offset + match.start()
                        token.endchar = offset + match.end()
                    pos += 1
                    yield token
                pos += GAP
                begin = after
            offset += len(piece) + len(BREAK)


def course_analyzer(stemming: bool = True):
    """Identifiers split at ``.`` and ``_``, curly apostrophes kept in words, Snowball stems.

    Stop words are kept in the index so phrase queries stay exact; the query side decides
    what to ignore. Positions leave a ``GAP`` at each ``BREAK``, as ``_postings`` does.
    """
    return CourseTokenizer(stemming)


BREAK = "\n\n"
"""Where the words on either side are not side by side as a reader sees them: between the
paragraphs and list items of a section's text (``Section.text``), between its code blocks,
between the parts of ``CONTENT`` and, within them, between heading lines and between the
names of terms (``Document.fields`` joins them so)."""

GAP = 1
"""Positions left unused at each ``BREAK``. A phrase query (Whoosh's slop 1: each word at
the position right after the one before) then never matches across one: the last word of a
heading and the first of the text, or the last word of one term's name and the first of
the next, were read as side by side, and ``"next token"`` found a section whose heading
ends in "next" and whose text opens with "tokens" above the lesson on next-token
prediction. One position is all a phrase needs; more would only bring a section of many
short paragraphs sooner to positions stored as ints (past 65,535: ``CoursePositions``).
A section's length is still its number of words (``_SegmentWriter.add_row`` sums the
words' frequencies), so no score but a phrase's changes."""


_UNUSED = (None,) * GAP
"""What stands for the positions left unused at a ``BREAK`` among a text's words
(``spaced_words``)."""

SENTENCE_END = re.compile(r"[.!?;:][.!?;:\"')\]’”]*\s+")
"""Where ``spaced_words`` leaves a ``GAP`` besides each ``BREAK``: the end of a sentence or
clause, a ``.``, ``!``, ``?``, ``;`` or ``:`` (closing quotes or brackets after it) before a
space. A quoted phrase is a run of words a reader reads side by side: ``"dark crust shape"``
found a section saying "a dark crust. Shape matters less…", and two words of a query
standing together there counted as side by side. A mark inside a word (``numpy.mean``,
``ratio:1``, ``3.14``) is no end, and a comma none either: ``"hello world"`` finds
"Hello, world!"."""


def _runs(text: str) -> list[str]:
    """The runs of ``text`` no gap parts: its pieces between breaks (``BREAK``), each cut at
    its sentence ends. ``spaced_words`` and ``CourseTokenizer`` both read a text so, whether
    given a section's parts one by one or joined by ``BREAK``."""
    return [run for piece in text.split(BREAK) for run in SENTENCE_END.split(piece)]


def spaced_words(text: str) -> list[str | None]:
    """The words of ``text`` (``find_words``), with ``GAP`` Nones between its runs
    (``_runs``: at each ``BREAK`` and sentence end): positions counted along the list leave
    the gaps, and the words on either side of one are no phrase. One list, not one per
    piece, so that ``_postings`` numbers a section's words in one loop, as it did before
    the gaps (bench/README.md)."""
    runs = _runs(text)
    if len(runs) == 1:
        return find_words(text)
    words: list[str | None] = []
    for run in runs:
        words += find_words(run)
        words += _UNUSED
    del words[-GAP:]
    return words


class CourseText(fields.TEXT):
    """Whoosh's TEXT, indexing a value in one pass: the same postings, byte for byte, as
    ``TEXT.index`` makes by running the tokenizer's tokens through the format, without a
    Token object and three generators per word (half of a segment's writing time).
    Positions, when kept, are ``CoursePositions``."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if type(self.format) is formats.Positions:
            self.format = CoursePositions(field_boost=self.format.field_boost)

    def index(self, value, **kwargs):
        """``value``: text, or three or four parts: the names of the terms a section mentions
        second, its code fourth (``_postings``)."""
        if not self.indexes_fast(value):
            return super().index(BREAK.join(value) if type(value) is tuple else value, **kwargs)
        return _postings(value, self.analyzer.stemming, self.format.field_boost)

    def indexes_fast(self, value) -> bool:
        """Whether ``value`` is indexed by ``_postings`` (and may be by ``add_postings``),
        not by Whoosh's tokens: text or parts, with our tokenizer and positions."""
        return (type(self.analyzer) is CourseTokenizer and type(self.format) is CoursePositions
                and isinstance(value, str | tuple))

    def add_postings(self, value, docnum: int, postings: Postings) -> int:
        """``index(value)`` for a segment writer: each posting added to its term's list in
        ``postings`` as document ``docnum``'s, as Whoosh's pool would hold it; returns the
        document's length. Only for a value ``indexes_fast`` takes."""
        return _add_postings(value, self.analyzer.stemming, self.format.field_boost, docnum,
                             postings)


def _postings(value: str | tuple[str, ...], stemming: bool, boost: float,
              ) -> list[tuple[bytes, int, float, bytes]]:
    """``CourseText.index``: (term, frequency, weight, positions) of each term ``value``
    writes, made as a list (a generator's step per posting cost a sixth of the time). The
    segment writer takes the same postings straight into its own lists
    (``CourseText.add_postings``).

    A word made with -ize (``analysis.made_from``) also counts for the word it was made from,
    at ``FAMILY_WEIGHT`` of a word's weight and with no position: "token" finds a section on
    tokenizers, below one on tokens; no phrase matches through it, and the section's length
    is its words'. ``value`` may be parts (``Document.fields``, ``CONTENT``): the headings,
    the names of the terms a section mentions, its text, its code, its lesson's title, the
    names of the terms only the title names, and the names of the terms it defines. A word
    of the names counts once, however often they write it (a section that mentioned greedy
    decoding had "greedy" three times more, from "greedy decoding ; greedy sampling ; greedy
    search", and a two-line exercise outranked the section on it): ``DEFINED_WEIGHT`` when a
    name of a term the section defines writes it, else ``NAME_WEIGHT`` when a name of one
    it mentions does, else ``NAME_WEIGHT`` times ``TITLE_WEIGHT``. A name of several words
    ("self-attention", "worker bee") is one term of them all (``_name_words``), which a
    search finds only whole; the section's length still counts each of its words
    (``_names_apart``). A word of the code counts ``CODE_WEIGHT``, of the title
    ``TITLE_WEIGHT``, each time.

    Positions are those of the parts joined by ``BREAK``, which splits no word: each
    ``BREAK`` (between parts, and within one between heading lines, names, paragraphs and
    code blocks) leaves ``GAP`` positions unused, so no phrase matches across it."""
    positions, shorts, less, made = _analysed(value, stemming)
    if shorts:  # every position an unsigned short: encoded here, not by a call of _encode each
        one, code = _one_position, _SHORTS
        out = [(text, n, n * boost,
                one(found[0]) if n == 1 else code + array("H", found).tobytes())
               for text, found in positions.items() for n in (len(found),)]
    else:
        out = [(text, len(found), len(found) * boost, _encode(found))
               for text, found in positions.items()]
    if less:
        out = [(text, frequency, weight - less[text] * boost, encoded)
               if text in less else (text, frequency, weight, encoded)
               for text, frequency, weight, encoded in out]
    return out if made is None else _with_bases(out, made, boost)


Postings = dict[bytes, list[int | float | bytes]]
"""A segment's postings of one field as its writer gathers them: for each term, the document
number, weight and positions of each posting one after another, in the order the documents
are added."""


def _add_postings(value: str | tuple[str, ...], stemming: bool, boost: float, docnum: int,
                  postings: Postings) -> int:
    """``_postings`` for document ``docnum``, each added to its term's list in ``postings``
    as it is made, weighed in the same steps (the same floats): the segment writer took
    the list ``_postings`` returns and went through it again, a step per posting, and
    ``_postings`` itself made each posting up to three times over (its positions, the parts
    that count less, the -ize family). Returns the document's length: its number of words."""
    positions, shorts, less, made = _analysed(value, stemming)
    one, code, get = _one_position, _SHORTS, postings.get
    length = 0
    for text, found in positions.items():
        n = len(found)
        length += n
        weight = n * boost
        if less and text in less:
            weight = weight - less[text] * boost
        if made and text in made:
            weight = weight + made.pop(text) * FAMILY_WEIGHT * boost
        encoded = ((one(found[0]) if n == 1 else code + array("H", found).tobytes())
                   if shorts else _encode(found))
        written = get(text)
        if written is None:
            postings[text] = [docnum, weight, encoded]
        else:
            written += (docnum, weight, encoded)
    for text, extra in (made or {}).items():  # the word each was made from, not written
        weight = extra * FAMILY_WEIGHT * boost
        written = get(text)
        if written is None:
            postings[text] = [docnum, weight, _NO_POSITIONS]
        else:
            written += (docnum, weight, _NO_POSITIONS)
    if type(value) is tuple and any(value[at] for at in NAME_PARTS if at < len(value)):
        length += _names_apart(positions)
    return length


def _names_apart(positions: dict[bytes, list[int]]) -> int:
    """How many more words a document's names of several words write than the terms they
    are indexed as (``_name_words``): its length counts each of their words, as it did when
    each was a term of its own, so no other word's score moves for the names being one term
    each (BM25 reads a section's length against the average)."""
    joiner = NAME_JOIN.encode()
    return sum(len(found) * text.count(joiner) for text, found in positions.items()
               if joiner in text)


def _analysed(value: str | tuple[str, ...], stemming: bool
              ) -> tuple[dict[bytes, list[int]], bool, dict[bytes, float] | None,
                         dict[bytes, int] | None]:
    """What ``_postings`` reads of ``value``: each term's positions, ascending; whether all
    of them are unsigned shorts; what each term counts less for the parts it is written in
    (``_counted_less``; None for a text of one part); and what the words made with -ize add
    to the term of each word they were made from, as counts (None: none)."""
    parts: list[list[str | None]] = []
    if isinstance(value, str):
        words = spaced_words(value)
    else:  # a part may come split (``_write_segment``: the text)
        parts = [p if type(p) is list else _name_words(p) if at in NAME_PARTS
                 else spaced_words(p) if p else [] for at, p in enumerate(value)]
        words = []
        for part in parts:
            words += part
            words += _UNUSED
    by_word: dict[str | None, list[int]] = {}
    for pos, word in enumerate(words):
        by_word.setdefault(word, []).append(pos)
    by_word.pop(None, None)  # the gaps
    positions: dict[bytes, list[int]] = {}
    merged = []
    terms = _TERMS[stemming]
    family = _FAMILY if stemming else {}
    made: dict[bytes, int] | None = None
    for word, found in by_word.items():  # each written form folded once
        text = terms.get(word) or _term(word, stemming)
        if text in positions:
            positions[text] += found
            merged.append(text)
        else:
            positions[text] = found
        if word in family:
            made = made or {}
            for base in family[word]:
                made[base] = made.get(base, 0) + len(found)
    for text in merged:
        positions[text].sort()
    less = _counted_less(parts, terms, stemming) if len(parts) > 1 else None
    return positions, len(words) <= _MOST_SHORTS and not _SWAP, less, made


NAME_PARTS = frozenset({1, 5, 6})
"""The parts of ``CONTENT`` (``Document.fields``) that are names of glossary terms, joined by
``BREAK``: of the terms a section mentions, of those only its lesson's title names, and of
those it defines (``_name_words``)."""

NAME_JOIN = " "
"""Between the words of a name of several words written as one term (``_name_words``): a
space, which no word the tokenizer finds holds, so the term is no word's."""


def _name_words(names: str) -> list[str | None]:
    """The words ``_postings`` writes for ``names`` (names of terms joined by ``BREAK``): a
    name of one word as that word, and a name of several words ("worker bee", "Varroa
    destructor", "self-attention") as one term of them all, their stems joined by
    ``NAME_JOIN`` (``_term``), which a search finds only by the whole name
    (``query_plan``). Each of its words written alone made a search for "bee" find every
    section that mentions workers, whose alias "worker bee" writes it, and mark nothing it
    wrote, or the worker it names. A ``GAP`` between names, as ``spaced_words`` leaves."""
    found: list[str | None] = []
    for name in names.split(BREAK):
        words = find_words(name)
        if len(words) > 1:
            found.append(NAME_JOIN.join(words))
        elif words:
            found += words
        else:
            continue
        found += _UNUSED
    del found[-GAP:]
    return found


def name_term(words: Sequence[str]) -> str:
    """The term a name of several ``words`` is indexed as (``_name_words``), as a query
    looks it up: each word's stem, lower-cased as the index lowers it, joined by
    ``NAME_JOIN``."""
    return NAME_JOIN.join(stem(lowered(word)) for word in words)


NAME_WEIGHT = 0.5
"""What a word of the names of the terms a section mentions counts, against a word it
writes. The names make "nucleus sampling" find a section that writes only top_p, but at a
word's full weight they put a two-line exercise doing so above the section on it."""


TITLE_WEIGHT = 0.5
"""What a word of a lesson's title counts in each of its documents, against a word the
document writes; and so, times ``NAME_WEIGHT``, a word of the names of the terms only the
title names. Every section is indexed with its lesson's title, so a search for a lesson's
subject finds all of it, and a section in it comes before one as short elsewhere that writes
the word no more. At a whole word's weight a short section that never wrote the word came
first by its title alone: "Wi-Fi" put the channels of "Wi-Fi bands and channels" above the
sections that say Wi-Fi, and "gateway" the lesson's one-line top above a section of another
lesson that explains it (bench/README.md). The title is the lesson's, not its top's: whole
at the top, it kept that line second. Its share of a word is not scaled by a document's
length when scored (``title_share``): a one-line section or top no longer comes first by
its title alone."""


DEFINED_WEIGHT = 2.0
"""What a word of the names of the terms a section defines (``definitions``) counts, once,
against a word it writes: a section saying what a term is answers a search for it, and it
may write the name once in passing ("rows (also known as records)")."""


def _counted_less(parts: list[list[str | None]], terms: dict[str, bytes], stemming: bool,
                  ) -> dict[bytes, float]:
    """How much less than a word of the text each term counts for being written in
    ``parts`` but the headings and the text, as ``_postings`` says: its count times what a
    word of the code or title counts less, and for the names, their count less what one
    word of the weightiest name writing it counts."""
    _, named, _, *rest = parts
    code, title, title_named, defined = (rest + [[], [], [], []])[:4]
    less: dict[bytes, float] = {}
    for words, weight in ((code, 1 - CODE_WEIGHT), (title, 1 - TITLE_WEIGHT)):
        if words:
            for text, count in _term_counts(words, terms, stemming).items():
                less[text] = less.get(text, 0.0) + count * weight
    once: dict[bytes, list[float]] = {}  # each name word: [times written, what it counts]
    for words, weight in ((title_named, NAME_WEIGHT * TITLE_WEIGHT), (named, NAME_WEIGHT),
                          (defined, DEFINED_WEIGHT)):
        if words:
            for text, count in _term_counts(words, terms, stemming).items():
                counted = once.setdefault(text, [0, weight])
                counted[0] += count
                counted[1] = max(counted[1], weight)  # the weightiest of the names writing it
    for text, (count, weight) in once.items():
        less[text] = less.get(text, 0.0) + count - weight
    return less


CODE_WEIGHT = 0.6
"""What a word of a section's code counts, against a word its prose writes. Code writes the
same few names again and again (``import numpy`` heads most exercise solutions of a Python
course), so at a whole word's weight six short solutions whose code imports a module came
before the section that teaches importing, for "import"; the prose says what a section is
about, as the mention finder, which reads prose only, has it. At half a word the sample
course's "what's a token?" lost its lesson to a section on attention (bench/README.md)."""


def _term_counts(words: list[str | None], terms: dict[str, bytes], stemming: bool,
                 ) -> dict[bytes, int]:
    """How often each indexed term is written among ``words`` (a part of ``_postings``, its
    gaps None)."""
    found: dict[bytes, int] = {}
    for word in filter(None, words):
        text = terms.get(word) or _term(word, stemming)
        found[text] = found.get(text, 0) + 1
    return found


FAMILY_WEIGHT = 0.25
"""What a word made with -ize counts for the word it was made from, against the word itself.
A tenth let the sample course's short sections that say "token" once outrank the tokens
lesson, which says "tokenizer" often, for "what's a token?"; bench/README.md has the
figures."""


def _with_bases(out: list, made: dict[bytes, int], boost: float) -> list:
    """``out`` with each word in ``made`` counted ``FAMILY_WEIGHT`` of its number of times
    more, as a posting with no positions where the section does not write it."""
    found = []
    for text, frequency, weight, encoded in out:
        extra = made.pop(text, 0)
        found.append((text, frequency, weight + extra * FAMILY_WEIGHT * boost, encoded)
                     if extra else (text, frequency, weight, encoded))
    found += [(text, 0, extra * FAMILY_WEIGHT * boost, _NO_POSITIONS)
              for text, extra in made.items()]
    return found


_TERMS: dict[bool, dict[str, bytes]] = {True: {}, False: {}}
"""Each written form's term (lower case, stemmed or not, UTF-8), by stemming: a word is
folded once per process, not once per section that writes it."""
_FAMILY: dict[str, tuple[bytes, ...]] = {}
"""The written forms made with -ize (``analysis.made_from``) that ``_TERMS`` holds, and the
terms the word each was made from may have."""
TERMS_KEPT = 200_000


def _term(word: str, stemming: bool) -> bytes:
    if word.isascii() and word.isdigit():  # a number is its own term, stemmed or not:
        return word.encode("ascii")  # not remembered (a course numbering 12,500 lessons)
    terms = _TERMS[stemming]
    if len(terms) >= TERMS_KEPT:
        terms.clear()
        if stemming:  # only a stemmed form has a family entry, kept while its term is
            _FAMILY.clear()
    if NAME_JOIN in word:  # a name of several words (``_name_words``), no -ize family
        parts = word.split(NAME_JOIN)
        text = terms[word] = (name_term(parts) if stemming else NAME_JOIN.join(
            lowered(part) for part in parts)).encode("utf-8")
        return text
    low = lowered(word)  # LLMs: llm
    text = terms[word] = (stem(low) if stemming else low).encode("utf-8")
    if stemming and (bases := made_from(low)):
        _FAMILY[word] = tuple(base.encode("utf-8") for base in bases)
    return text


class CoursePositions(formats.Positions):
    """Whoosh's ``Positions``, each posting's positions stored as an array of unsigned
    shorts (or ints, past 65,535 words) after its type code: ``H`` or ``I`` and the raw
    little-endian numbers.

    Whoosh pickles the gaps between positions after a packed count. Encoding that was a
    fifth of a segment's writing time, and decoding it (an unpickle and a Python loop) was
    what a phrase query paid per section. An array is made and read in C, and takes half
    the bytes before a block is deflated (bench/README.md)."""

    def encode(self, poslist) -> bytes:
        return _encode(sorted(poslist))

    def decode_positions(self, valuestring: bytes) -> list[int]:
        numbers = array(chr(valuestring[0]), valuestring[1:])
        if _SWAP:
            numbers.byteswap()
        return numbers.tolist()

    def decode_frequency(self, valuestring: bytes) -> int:
        return (len(valuestring) - 1) // array(chr(valuestring[0])).itemsize

    def decode_weight(self, valuestring: bytes) -> float:
        return self.decode_frequency(valuestring) * self.field_boost


_SWAP = sys.byteorder != "little"


def _encode(positions: list[int]) -> bytes:
    """``CoursePositions.encode`` of ascending positions. A word written once in a section
    (most postings) has one of a few hundred values, each made once: a block's pickle then
    refers back to a value it already holds."""
    if len(positions) == 1:
        return _one_position(positions[0])
    return _pack(positions)


@lru_cache(maxsize=4096)
def _one_position(position: int) -> bytes:
    return _pack([position])


_SHORTS = b"H"
_MOST_SHORTS = 65536
"""A text of at most this many positions has every one of them an unsigned short."""
_NO_POSITIONS = b"H"
"""A posting's positions when it has none: an empty array of unsigned shorts."""


def _pack(positions: list[int]) -> bytes:
    code = "H" if positions[-1] < 65536 else "I"
    numbers = array(code, positions)
    if _SWAP:
        numbers.byteswap()
    return code.encode() + numbers.tobytes()


class CourseID(fields.ID):
    """Whoosh's ID, indexing a string as its one term without a Token object (the same
    posting ``ID.index`` makes)."""

    def index(self, value, **kwargs):
        if (type(value) is not str or type(self.analyzer) is not IDTokenizer
                or type(self.format) is not formats.Existence):
            yield from super().index(value, **kwargs)
            return
        yield value.encode("utf-8"), 1, self.format.field_boost, b""


class Ordinal(fields.NUMERIC):
    """A stored, sortable whole number that no query searches: a column and no postings
    (an indexed NUMERIC writes eight range terms per value)."""

    indexed = False


CONTENT = "content"
"""Everything a section says in one field: the heading path, the heading twice more, the
words of the names of the glossary terms it mentions, the body, the code (a word of which
counts ``CODE_WEIGHT``), the lesson's title (``TITLE_WEIGHT``), the names of the terms only
the title names, and those of the terms it defines (a word of which counts
``DEFINED_WEIGHT``, once).

One field lets BM25 saturate a word's frequency once per section; scoring fields apart and
summing counted one word up to six times and let it drown the others. Writing the heading
three times is the heading's boost: a heading match outranks a body mention, and a query
walks a single posting list per word (bench/README.md has the measurements behind both).
The terms' names make a section found by any name of a term it mentions, a name of several
words only whole (``_name_words``); a name counts ``NAME_WEIGHT``, a word once however many
names write it (``_postings``). One field, but no
phrase runs from one of these pieces into the next: their positions leave a ``GAP`` at each
``BREAK``."""


PART = "part"
"""The field that says which documents are no section: a check question indexes the term
``check`` in it, a summary ``summary``, a section nothing (one or two postings per lesson,
rather than a kind indexed for every document). Read for ranking (``summary_rank``)."""


def schema() -> fields.Schema:
    """Only what queries read is indexed: ``content`` (scored, with positions), the
    lesson and module ids that filter, and which documents are no section (``PART``).
    Headings and titles are searched through ``content``; a document's id, kind, heading
    and title are only shown, and a hit's place in the course is a column. (An indexed
    ``id``, one term per document that no query reads, was a fifth of the time spent
    finishing segments: bench/README.md.)"""
    text = course_analyzer()
    return fields.Schema(
        id=fields.STORED,
        kind=fields.STORED,
        lesson=CourseID(stored=True),
        module=CourseID(stored=True),
        part=CourseID(),
        module_title=fields.STORED,
        lesson_title=fields.STORED,
        heading=fields.STORED,
        heading_path=fields.STORED,
        content=CourseText(analyzer=text, phrase=True),
        body=fields.STORED,
        code=fields.STORED,
        anchor=fields.STORED,
        url=fields.STORED,
        callout=fields.STORED,
        position=Ordinal(stored=True, sortable=True),
        section=Ordinal(stored=True, sortable=True),
    )


Terms = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
"""The names of the terms a document mentions, of those only its lesson's title names, and
of those it defines (``Document.fields``)."""


class Document(NamedTuple):
    """What one search hit is: a section, a lesson's check question, or its summary (its key
    idea and its short answer).

    A named tuple, since a build makes one per section each time, even for the lessons it
    takes unchanged from the version before: a frozen dataclass cost three times as much.
    Its text is read from its lesson when asked for: a build takes most lessons from its
    cache with their sections still pickled (``StoredSections``), and needs the text of
    only the few it writes again.
    """

    id: str
    kind: str
    lesson: Lesson
    heading: str | None
    heading_path: tuple[str, ...]
    anchor: str | None
    url: str
    callout: str | None
    order: int
    """Its place in the course: its lesson's number (from 1) times ``LESSON_ORDERS``, plus
    ``number``. Sorted, documents are in course order; and a section added to or removed
    from one lesson moves no other lesson's documents, so the glossary's tables keyed on it
    are patched for that lesson alone."""
    number: int = 0
    """Its place within its lesson, which edits to other lessons leave as it is (a section's
    number; the check's comes after the last section's, the summary's after both)."""
    heading_shared: bool = False
    """Whether another section of its lesson has the same heading under the same headings
    (in any case): worked out once a lesson (``documents``), where asked of each section it
    read every other's, a tenth of a second at 10,000 sections."""

    @property
    def body(self) -> str:
        """The prose a reader sees: the section's text, the check's question and answers, or
        the summary's answer and key idea."""
        if self.kind == "check":
            return "\n\n".join(_check_text(self.lesson.check, wrong=True))
        return self.searched

    @property
    def searched(self) -> str:
        """The prose it is found by: its ``body``, less a check question's wrong options.

        A wrong option says something false ("Because words are stored in alphabetical
        order"): found by its words, the check answered "how does the model know word
        order?" first, and a reader searching "alphabetical order" wants no quiz whose wrong
        answer says it. The question, the right answer and why each wrong one tempts (which
        the author says as true: "Tokenizing does save space overall, but…") are indexed as
        a section's text is; the page shows all of it."""
        if self.kind == "check":
            return "\n\n".join(_check_text(self.lesson.check, wrong=False))
        if self.kind == "summary":
            return "\n\n".join(filter(None, (self.lesson.answer, self.lesson.key_idea)))
        return self.lesson.sections[self.number].text

    @property
    def heading_apart(self) -> str | None:
        """Its heading where the heading is words of its own, not written in ``body``: a
        section's. A check's heading is its question ("Check: Where do swarms settle?"), which
        its ``body`` opens with: what counts the words a reader reads (mentions, jargon
        candidates) reads the heading and the body, and read both, it counted each word of the
        question twice."""
        return None if self.kind == "check" else self.heading

    @property
    def code(self) -> str:
        if self.kind != "section":
            return ""
        return "\n\n".join([block.text for block in self.lesson.sections[self.number].code])

    def _with_languages(self, code: str) -> str:
        """``code`` (its ``code``) as it is found: the names of its code blocks' languages
        (``code_languages``), then the code. A section whose only Python is a fenced
        ``python`` block is found by "python", as a word of its code."""
        if not code:
            return code
        names = code_languages(self.lesson.sections[self.number].code)
        return BREAK.join((*names, code)) if names else code

    @property
    def _heading_again(self) -> tuple[str, ...]:
        """A section's heading, written twice after its path (which ends with it); a check
        question's, once: it is a sentence, which its body writes too. A heading its lesson
        gives several sections (under the same headings) none: it names none of them in
        particular, so it counts once in each, as a word of its text does. A lesson that
        repeated "Frames and foundation" had "frame" find the repeat first, a short passage
        that never writes the word ("Some keepers go foundationless…"), with no word of its
        snippet marked, above the section on frames; a lesson's many "Solution"s weigh the
        same whichever comes first."""
        heading = self.heading or ""
        if self.kind == "check":
            return (heading,)
        if self.heading_shared:
            return ()
        return (heading, heading)

    def fields(self, terms: Iterable[str] = (), title_terms: Iterable[str] = (),
               defined: Iterable[str] = ()) -> dict[str, object]:
        """The document's row: ``terms`` are the names of the terms it mentions (its heading
        and text, and the headings above it), ``title_terms`` those of the terms only its
        lesson's title names, ``defined`` those of the terms it defines
        (``GlossaryBuild.terms_of``)."""
        module = self.lesson.module
        body, code = self.body, self.code
        searched = self.searched if self.kind == "check" else body  # (a section's is its body)
        headings = BREAK.join((*self.heading_path, *self._heading_again))
        return {
            "id": self.id,
            "kind": self.kind,
            "lesson": self.lesson.slug,
            "module": module.slug if module else "",
            PART: None if self.kind == "section" else self.kind,
            "module_title": module.title if module else None,
            "lesson_title": self.lesson.title,
            "heading": self.heading or "",
            "heading_path": self.heading_path,
            "content": (  # CourseText.index reads the parts (_postings), BREAK between
                headings, BREAK.join(terms), searched, self._with_languages(code),
                self.lesson.title,
                BREAK.join(title_terms), BREAK.join(defined)),
            "body": body,
            "code": code,
            "anchor": self.anchor,
            "url": self.url,
            "callout": self.callout,
            "position": self.lesson.position or 0,
            "section": self.number,
        }


LANGUAGE_NAMES = {
    "py": "python", "python3": "python", "py3": "python", "ipython": "python",
    "pycon": "python", "js": "javascript", "ts": "typescript", "sh": "shell", "zsh": "shell",
    "console": "shell", "shell-session": "shell",
    "rb": "ruby", "yml": "yaml", "md": "markdown", "rs": "rust", "golang": "go",
}
"""The name a reader searches for a code block's language as fences and exports write it
(``py``, ``js``); one not listed is searched as written."""

NO_LANGUAGE = frozenset({"text", "txt", "plain", "plaintext", "output", "error", "source",
                         "none", "nohighlight", "raw", "default", "code"})
"""What fences write where the block is in no language (a program's output or error, as
lessons on the command line fence them): not searched for."""


def code_languages(blocks: Iterable[CodeBlock]) -> tuple[str, ...]:
    """The languages ``blocks`` are written in, each once in the order they come, by the
    name a reader searches (``LANGUAGE_NAMES``). A section shows its code without them, but
    a reader looking for "python" examples means its fenced ``python`` blocks too."""
    names: dict[str, None] = {}
    for block in blocks:
        lang = (block.lang or "").strip().lower()
        if lang and lang not in NO_LANGUAGE:
            names[LANGUAGE_NAMES.get(lang, lang)] = None
    return tuple(names)


def _check_text(check: CheckQuestion, wrong: bool) -> list[str]:
    """A check's question, its options (the wrong ones only when ``wrong``), then why each
    wrong option tempts, where the lesson says."""
    options = [o.text for o in check.options if wrong or o.correct]
    return [check.question, *options, *(o.tempting for o in check.options if o.tempting)]


def _unique(doc_id: str, number: int, ids: set[str]) -> str:
    """``doc_id``, or with the section's number after it when a section before has it: two
    headings may give one id, as the page has them, and the glossary's tables, keyed on
    documents' ids, gave both the terms of one."""
    while doc_id in ids:
        doc_id += f"~{number}"
    ids.add(doc_id)
    return doc_id


LESSON_ORDERS = 1 << 32
"""More documents than a lesson can hold (a lesson file is at most 10 MB)."""


def documents(course: Course) -> Iterator[Document]:
    """Every searchable unit of the course, in course order. Made from the sections'
    ``outline``: no section's text is read.

    A lesson's key idea and short answer are one document of their own, the summary, with
    no heading and linked to the lesson's page: they are the author's prose on the whole
    lesson, shown at its top, not a part of its first section. Numbered after the sections
    and the check, since a document's number is its section's. Terms it mentions are
    mentions there; definitions are looked for only in the sections, where the lesson
    explains a term (a key idea that restates one would take the definition's link away
    from the section explaining it)."""
    for place, lesson in enumerate(course.lessons, start=1):
        slug, url = lesson.slug, lesson.url
        first = place * LESSON_ORDERS
        number = -1
        ids: set[str] = set()
        places = outline(lesson.sections)
        shared = _shared_headings(places[1], places[2])
        for number, (anchor, heading, path, callout, fragment) in enumerate(
                zip(*places, strict=True)):
            yield Document(_unique(f"{slug}#{anchor or number}", number, ids), "section",
                           lesson, heading, path, anchor, link_to(url, anchor, fragment),
                           callout, first + number, number, number in shared)
        if lesson.check is not None:
            yield Document(
                id=_unique(f"{slug}#check", number + 1, ids),  # a heading may be #check
                kind="check",
                lesson=lesson,
                heading="Check: " + lesson.check.question,
                heading_path=("Check your understanding",),
                anchor=None,
                url=f"{url.split('#')[0]}#{text_fragment(lesson.check.question)}",
                callout=None,
                order=first + number + 1,
                number=number + 1,
            )
            number += 1
        if lesson.key_idea or lesson.answer:  # at the page's top, as the lesson title is
            yield Document(_unique(f"{slug}#summary", number + 1, ids), "summary", lesson,
                           None, (), None, link_to(url, None), None, first + number + 1,
                           number + 1)


def _shared_headings(headings: Sequence[str | None],
                     paths: Sequence[tuple[str, ...]]) -> set[int]:
    """The numbers of a lesson's sections whose heading another of its sections has under
    the same headings, in any case (``Document.heading_shared``)."""
    keys = [tuple(h.casefold() for h in path) if heading else None
            for heading, path in zip(headings, paths, strict=True)]
    counts = Counter(keys)
    return {n for n, key in enumerate(keys) if key is not None and counts[key] > 1}


def length_bytes(perdoc, field: str, count: int) -> bytes:
    """One byte per document of a segment: its length in ``field`` as Whoosh stores it
    (quantised; ``byte_to_length`` reads it back), 0 where none was written. Read from the
    segment's length column whole; ``perdoc`` is the segment's per-document reader."""
    column = perdoc._cached_reader(_lenfield(field), LENGTHS_COLUMN)
    raw = column._dbfile.get(column._basepos, column._count) if column is not None else b""
    return raw[:count].ljust(count, b"\0")  # past the column's end Whoosh reads 0 too


def read_spelling(folder: Path) -> dict[str, int]:
    """The course's words and their counts (``whoosh_writer.write_spelling``)."""
    path = folder / SPELLING
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
