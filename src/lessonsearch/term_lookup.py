"""Term lookup over one index version's glossary, held in memory.

Any spelling finds a term (aliases, plural, hyphenated, curly quotes), an unknown name gets
suggestions, and a search query is scanned for the terms it names.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Container, Iterable
from functools import cached_property
from pathlib import Path

from .analysis import STOP_WORDS, WORD, find_words, leans_on_companions, stem, stems, words
from .errors import TermNotFound, TermWithoutDefinition
from .glossary_table import (
    Mention,
    TermRecord,
    busiest_mentions,
    load_glossary,
    load_mentions,
    load_noun_words,
    load_stubs,
    load_verb_nouns,
)
from .term_forms import abbreviation_core, inflections, term_anchor, term_key
from .term_matching import TermMatcher
from .term_verbs import everyday_words

_SNAKE_CASE = re.compile(r"(?<![\w.])[^\W_]+(?:_+[^\W_]+)+(?![\w.])")
"""A name in snake case, as code writes one (``max_new_tokens``): a word of it is no word
of the query's own."""
_HYPHENATED = re.compile(r"(?<![\w.‐‑–-])[^\W_]+(?:[‐‑–-][^\W_]+)+(?![\w.‐‑–-])")
"""A hyphenated word ("p-value", "multi-head"), each part a run of letters or digits."""

_LAST_WORD = re.compile(r"[^\W_]+$")
"""A name's last word, which its other forms inflect ("ratio" of f-ratio)."""

_ONE_WORD = re.compile(r"[^\W_]+")
_PIECES = re.compile(r"(\s+|[^\W_]+)")
"""A name's spaces and its runs of letters and digits, the pieces ``form_pattern`` reads."""

MENTIONS_SHOWN = 100
"""Sections listed for a looked-up term unless asked for more: a term used throughout a
100,000-section course is mentioned in tens of thousands of them."""
MAX_MENTIONS = 10_000
MAX_NAME_CHARS = 256
"""The longest name ``look_up`` reads as a spelling of a term and compares with every term's
forms for suggestions. Both cost time in proportion to the name's length (0.3-0.4 s for the
8 KB a request line may hold, 8 minutes for 10 MB, with 59 terms); no glossary names a term
in anything near this, so a longer name is a term's own name or anchor as written, or
unknown, with no suggestions."""


DESCRIBED_CARDS = 3
"""The most terms a search that found nothing shows for words their definitions write
(``Glossary.described_by``)."""


_DESCRIBING = re.compile(r"^(?!.*ly$)[^\W\d_][\w'’-]{3,}$", re.I)
"""A word that may say what a term is (``Glossary.described_by``)."""

_SAYS_NOTHING = frozenset("""
    whose despite although though unless whether within without upon among amongst across
    along around behind beside besides beyond toward towards onto via rather either neither
    also even still another every something anything everything nothing someone anyone
    often always never sometimes already almost instead however therefore thus hence whereas
    wherever whenever whichever whatever whoever perhaps quite much many less least since
    like unlike""".split())
"""Function words the query's ``STOP_WORDS`` keep, as a search for them may mean them, but
that say nothing of what a term is: a definition writing "whose" or "despite" is no answer
to a search for it (``Glossary.described_by``)."""


def is_stop_word(word: str) -> bool:
    return word.lower() in STOP_WORDS


class Glossary:
    def __init__(self, records: list[TermRecord], folder: Path | None = None,
                 stubs: tuple[tuple[str, str], ...] = (),
                 nouns: frozenset[str] = frozenset(), things: frozenset[str] = frozenset()):
        """``nouns``: the term words in -ing whose bare verb the course writes as a noun
        only (``term_verbs``), which name their terms no more in a search than they
        mention them in a lesson; nor does the verb of a term the glossary marks as an
        everyday word (``term_verbs.everyday_words``). ``things``: the term words that name
        a thing, whose -ed and -ing forms are no mention (``term_verbs.noun_words``:
        "typing" of type)."""
        self.records = records
        self.folder = folder
        self.stubs = stubs
        """Each term the glossary writes with no definition yet, and its ``file:line``."""
        self._by_name = {r.term: r for r in records}
        self._by_anchor = {r.anchor: r for r in records}
        variants = {r.term: [r.term, *r.aliases] for r in records}
        everyday = everyday_words({r.term: variants[r.term] for r in records if r.everyday})
        self.matcher = TermMatcher(variants, nouns, everyday, things)
        self._forms: dict[str, tuple[str, ...]] | None = None

    @classmethod
    def load(cls, version_dir: Path) -> Glossary:
        """The version's terms, their mentions left on disk until a term is looked up."""
        return cls(load_glossary(version_dir, mentions=False), version_dir,
                   load_stubs(version_dir), load_verb_nouns(version_dir),
                   load_noun_words(version_dir))

    def with_mentions(self, record: TermRecord, limit: int | None = MENTIONS_SHOWN,
                      ) -> TermRecord:
        """The record with the first ``limit`` sections that mention it (None: all), in
        course order; its counts always cover them all."""
        if self.folder is None or not record.mention_sections:
            return record
        mentions = load_mentions(self.folder, record.term, limit)
        return dataclasses.replace(record, mentions=mentions)

    def described_by(self, query_words: Iterable[str]) -> tuple[TermRecord, ...]:
        """The terms whose glossary definition writes every one of ``query_words`` (stop
        words aside, in any inflection), when one to ``DESCRIBED_CARDS`` do: "torpedo" of a
        bâtard, "a torpedo-shaped loaf". For a search no section answers: a word only the
        glossary writes still leads to its term. None when more do: the words say too
        little to choose; nor for a word of three letters or fewer, a number, an adverb in
        -ly ("usually", "partially") or a function word (``_SAYS_NOTHING``: "whose",
        "despite"), which say nothing of what a term is."""
        asked = [w for w in query_words if not is_stop_word(w)]
        if not asked or any(not _DESCRIBING.match(w) or w.lower() in _SAYS_NOTHING
                            for w in asked):
            return ()  # "usually", "12343", "whose": every definition writes such words
        wanted = {stem(w) for w in asked}
        found = tuple(r for r in self.records if wanted <= self._definition_stems.get(r.term, ()))
        return found if len(found) <= DESCRIBED_CARDS else ()

    @cached_property
    def _definition_stems(self) -> dict[str, frozenset[str]]:
        return {r.term: frozenset(stems(r.definition)) for r in self.records if r.definition}

    def busiest(self, record: TermRecord, count: int) -> tuple[Mention, ...]:
        """The ``count`` sections that mention the term most, most first."""
        if self.folder is None or not record.mention_sections:
            return ()
        return busiest_mentions(self.folder, record.term, count)

    def written_forms(self, known: Container[str],
                      written: Callable[[list[str]], Iterable[str]],
                      ) -> dict[str, tuple[str, ...]]:
        """Each term's names in the other forms the course writes that count as mentions of
        it (``TermMatcher``): "collimated" of the alias collimate, "f-ratios" of f-ratio, "KV
        caches", read as a word with nothing before it. ``known`` holds the words the course
        writes (lower case): only the last word of a name is inflected, and only into a word
        the course writes. A form of more than one word, or one the term's case rule binds
        (``form_pattern``: "Makes" of the build tool Make), is kept only where ``written``,
        given a term's such forms, says the course writes it as it is: that the course
        writes "rating" says nothing of "learning rating". Worked out once, on the first
        call. What the glossary tooltips underline besides the names."""
        if self._forms is None:
            forms = {}
            for record in self.records:
                found = self._forms_of(record, known)
                asked = [form for form in found if not self._plain_word(form)]
                kept = frozenset(written(asked)) if asked else frozenset()
                forms[record.term] = tuple(f for f in found if f in kept or f not in asked)
            self._forms = forms
        return self._forms

    def _plain_word(self, form: str) -> bool:
        """Whether ``form`` is one word that any case writes (``case_bound``): that the
        course writes the word says that it writes the form."""
        return (_ONE_WORD.fullmatch(form) is not None
                and not case_bound(form, self.matcher.title_rule))

    def _forms_of(self, record: TermRecord, known: Container[str]) -> tuple[str, ...]:
        names = (record.term, *record.aliases)
        own = {name.casefold() for name in names}  # already underlined as themselves
        found: dict[str, None] = {}
        for name in names:
            last = _LAST_WORD.search(name)
            if last is None or len(last.group()) < 2:
                continue
            word = last.group()
            for form in inflections(word.lower()):
                if form not in known:
                    continue
                written = (word + form[len(word):] if form.startswith(word.lower())
                           and not word.islower() else form)
                text = name[:last.start()] + written
                if (text.casefold() not in own
                        and self.matcher.spans(text) == [(record.term, 0, len(text))]):
                    found.setdefault(text)
        return tuple(found)

    def __len__(self) -> int:
        return len(self.records)

    def find(self, name: str) -> TermRecord | None:
        """The term a name spells, as a reader or an editor writes it: its name, an alias or
        any spelling of one (plural, case, British), else its anchor. Every spelling of every
        name comes before any anchor: a search for "tables" is the term table, whichever term
        an editor gave the anchor ``tables``, and a See also ``b`` the term B, not the term
        whose anchor is ``b``."""
        name = " ".join(name.split())
        if not name:
            return None
        record = self._by_name.get(name)
        if record is None:
            canonical = self.matcher.canonical_for(name)
            record = self._by_name.get(canonical) if canonical else None
        if record is None:
            record = self._by_anchor.get(name) or self._by_anchor.get(term_anchor(name))
        return record

    def at(self, link: str) -> TermRecord | None:
        """The term of the page ``/glossary/<link>``: the term whose anchor ``link`` is, else
        the one it names (``find``). An anchor comes first: every link the service builds
        holds one, each is one term's, and an editor's ``{#RAG}`` may be another term's name
        (the build warns); that term has an anchor of its own."""
        return self._by_anchor.get(link) or self.find(link)

    def look_up(self, name: str, written: bool = False) -> TermRecord:
        """``at`` (``find`` for a name someone ``written``: the CLI's ``term``), or
        ``TermWithoutDefinition`` for a stub's name, else ``TermNotFound`` with the closest
        terms' names; a name over ``MAX_NAME_CHARS`` is read only as written."""
        if len(name) > MAX_NAME_CHARS:
            whole = " ".join(name.split())
            if record := self._by_name.get(whole) or self._by_anchor.get(whole):
                return record
            raise TermNotFound(name)
        record = self.find(name) if written else self.at(name)
        if record is None:
            if stub := self.stub(name):
                raise TermWithoutDefinition(name, *stub)
            raise TermNotFound(name, self.matcher.suggest(name))
        return record

    def stub(self, name: str) -> tuple[str, str] | None:
        """The stub (term, ``file:line``) a name spells (any spelling of it, as for a term) or
        whose anchor it is; None when it is none. A stub is no term: only a lookup that
        finds no term asks."""
        name = " ".join(name.split())
        key = term_key(name)
        return next((stub for stub in self.stubs
                     if (key and term_key(stub[0]) == key) or term_anchor(stub[0]) == name),
                    None)

    def in_text(self, text: str, named: Callable[[str], bool] | None = None,
                ) -> list[TermRecord]:
        """The terms a text (a search query) names, longest match first, each once. A query
        is typed in lower case: "kv cache" names "KV cache", alone or in a question (a
        lesson's "kv" is no mention of it, but a reader who types it means it). So does a
        lower-case word that a term's one-word name writes with a capital, where only a
        capitalised word is a mention of it (``TermMatcher.title_rule``: "what is a
        dobsonian" names Dobsonian), when ``named`` says the course writes the word as that
        name, not as a word of its own ("how do I make a list" names no build tool Make). A
        name in
        snake case names a term only whole (``top_p``, ``kv_cache``): ``max_new_tokens`` is
        a setting, not the term token, and ``past_key_values`` no card for key and value.
        Nor does a hyphenated word whose parts but one are single letters
        (``leans_on_companions``) name a term by a part of it: "p-value" is no card for value."""
        whole = self.find(text)
        typed = WORD.sub(lambda m: self._as_named(m.group(0), named), text)
        compounds = [m.span() for m in _SNAKE_CASE.finditer(typed)]
        leaning = [m.span() for m in _HYPHENATED.finditer(typed)
                   if leans_on_companions(words(m.group(0)))]
        names = dict.fromkeys(
            ([whole.term] if whole else [])
            + [name for name, start, end in self.matcher.spans(typed)
               if not any(a <= start and end <= b and (start, end) != (a, b)
                          for a, b in compounds)
               and not any(start < b and a < end and not (start <= a and b <= end)
                           for a, b in leaning)]
        )
        return [self._by_name[n] for n in names if n in self._by_name]

    def by_participle(self, text: str, known: Container[str]) -> list[TermRecord]:
        """The terms a one-word search ``text`` (stop words aside: "what is braking") asks
        about in an -ed or -ing form of their one-word name for a thing, which is no mention
        of them (``TermMatcher.participle_of``: "braking" of brake, "cabling" of cable): a
        reader who searches for braking asks about brakes. Not a term whose name's case
        decides what is one (``case_bound``: "making" is no build tool Make), nor an
        everyday word's; nor for a word ``known`` (the words the course writes) holds with
        -s too, a noun of its own ("settings": a setting is no set). For a query of more
        words, the words beside the form say what it is: "typing ctrl+m", "weighted sum"."""
        asked = [w for w in find_words(text) if not is_stop_word(w)]
        if len(asked) != 1 or asked[0].lower() + "s" in known:
            return []
        found = [self._by_name[name] for name in self.matcher.participle_of(asked[0])
                 if name in self._by_name]
        return [record for record in found if not record.everyday
                and not case_bound(record.term, self.matcher.title_rule)]

    def _as_named(self, word: str, named: Callable[[str], bool] | None) -> str:
        """A query's ``word`` as a term's name writes it, where it names one (``in_text``)."""
        if word in self._capitals:
            return self._capitals[word]
        if named is not None and self.matcher.capitalised(word) and named(word):
            return word[:1].upper() + word[1:]
        return word

    @cached_property
    def _capitals(self) -> dict[str, str]:
        """Each word in capitals of a term's names ("KV", "RLHF"), by its lower case."""
        return {word.lower(): word for r in self.records for name in (r.term, *r.aliases)
                for word in WORD.findall(name) if len(word) > 1 and word.isupper()}

    def variants(self, name: str) -> list[str]:
        """Every name of the term ``name`` spells, itself included; empty when it is no term."""
        record = self.find(name)
        return [record.term, *record.aliases] if record else []


def case_bound(name: str, title_rule: bool) -> bool:
    """Whether the case a text writes ``name`` (a term's name, or a form of one) in decides
    that it is one (``TermMatcher._keys``): a word of it is in capitals, of up to five
    letters (KV, HTTPs), or it is one word written capitalised (Make, Makes) while the
    glossary's capitals say something (``TermMatcher.title_rule``)."""
    return (any(abbreviation_core(w) is not None for w in _ONE_WORD.findall(name))
            or _titled(name, title_rule))


def _titled(name: str, title_rule: bool) -> bool:
    return (title_rule and _ONE_WORD.fullmatch(name) is not None
            and name[:1].isupper() and name[1:].islower())


def form_pattern(name: str, title_rule: bool) -> re.Pattern[str]:
    """``name`` written in a text as the service reads it (``case_bound``): a word in
    capitals as it is ("KV cached" is not "kv cached"), a one-word name written
    capitalised only capitalised ("Makes", not "makes"), any other word in any case; whole
    words, any spaces between them. The glossary tooltips' script matches names and forms
    so (``caseFits`` in lessonsearch.js)."""
    title = _titled(name, title_rule)
    parts = []
    for piece in _PIECES.split(name.strip()):
        if not piece:
            continue
        if piece.isspace():
            parts.append(r"\s+")
        elif _ONE_WORD.fullmatch(piece) and abbreviation_core(piece) is not None:
            parts.append(re.escape(piece))
        elif title:
            parts.append(re.escape(piece[0]) + "(?i:" + re.escape(piece[1:]) + ")")
        else:
            parts.append("(?i:" + re.escape(piece) + ")")
    return re.compile(r"(?<!\w)" + "".join(parts) + r"(?!\w)")
