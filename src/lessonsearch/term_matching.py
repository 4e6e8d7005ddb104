"""Find where text mentions a glossary term, whatever form the writer gave it.

Lessons use a term in plural or inflected forms, hyphenated or not ("key-value cache",
"key value cache", "keyvalue cache"), with curly quotes, and by aliases and abbreviations.
Every variant is turned into a tuple of Snowball stems (the ``analysis`` stems the index
uses, of a British spelling's American one: ``term_forms.term_stem``) and stored in a trie;
the text is tokenized once and walked left to right, taking the longest phrase that starts at
each word. That makes a scan linear in the text whatever the number of terms, where one regex
per term would not be, and a multi-word term only ever matches as a phrase, never as loose
words.

Case matters in two places only. An all-capital abbreviation of up to five letters (RAG, KV,
RLHF, R) matches only when the text writes it in capitals, so "rag" the cloth is not RAG. A
one-word term the glossary writes with a capital (Make, Git) matches only a capitalised word,
so "make" the verb is not the build tool; this rule is off when most terms are capitalised,
because then the capital is the glossary's house style and says nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from difflib import SequenceMatcher
from functools import lru_cache
from itertools import compress, product

from lessonsearch.analysis import STOP_WORDS, WORD, find_words, normalize, words
from lessonsearch.model import GlossaryEntry, LessonDefinition
from lessonsearch.term_forms import (
    CAPS,
    TITLE,
    abbreviation_core,
    has_symbols,
    stemmed_apart,
    term_key,
    term_stem,
    text_keys,
    writes_term_word,
)
from lessonsearch.term_verbs import bare_verb, reading_after, reading_in_phrase

_END = ""
"""Trie key under which a node stores the canonical term ending there (never a stem)."""
_MAX_JOINED = 4
"""Variants of up to this many words also match with words run together ("keyvalue")."""
SUGGEST_RATIO = 0.7
"""How alike (``difflib`` ratio) a name must be spelt to a term's that shares no word with
it for ``TermMatcher.suggest`` to offer the term ("attension mask": attention mask)."""
_NEAR_MISS = 1e-9
_MEMO_LIMIT = 200_000
"""The per-word and per-spelling memos start afresh past this many entries (a long-lived
matcher in the service sees arbitrary text)."""
_NONE: frozenset[str] = frozenset()
"""The one-word terms most written words write the own word of (``TermMatcher._plain_of``)."""
_AS = {False: "\x03", True: "\x04"}
"""Prefix of a text word's entry in the scanning memos when the word before it reads it as a
noun or as a verb (``TermMatcher._read_in_place``): no written word starts so."""


_UNPICKLED: dict[tuple, TermMatcher] = {}


def _unpickled(forms: tuple[tuple[str, tuple[str, ...]], ...],
               nouns: frozenset[str] = frozenset(),
               everyday: frozenset[str] = frozenset(),
               things: frozenset[str] = frozenset()) -> TermMatcher:
    """The matcher for ``forms``, made once per process and kept, with its scanning memos,
    for every batch of work it is sent with. A build's processes receive the mentions'
    matcher with each batch of lessons: a fresh copy each time learnt every word of the
    batch again, about a tenth of the CPU counting mentions takes at 10,000 sections
    (bench/README.md). One matcher is kept, the last build's."""
    matcher = _UNPICKLED.get((forms, nouns, everyday, things))
    if matcher is None:
        _UNPICKLED.clear()
        matcher = _UNPICKLED[forms, nouns, everyday, things] = TermMatcher(
            dict(forms), nouns, everyday, things)
    return matcher


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


class TermMatcher:
    """Mentions of a fixed set of terms, built once per index and reused for every section."""

    def __init__(self, variants: Mapping[str, Iterable[str]], nouns: Iterable[str] = (),
                 everyday: Iterable[str] = (), things: Iterable[str] = ()):
        """``variants`` maps each canonical term to its other spellings (aliases, abbreviations);
        ``nouns`` are the term words in -ing whose verb the course does not write as a verb
        (``term_verbs.nouns``): their bare word and -s form are no mention ("cup" of
        cupping). Without them, every such verb is taken for one ("overfits"). Either way
        the word right before a use decides where it is clear (``term_verbs.reading_after``):
        "a cup" is no mention of cupping and "we cup" one, whatever ``nouns`` holds.
        ``everyday`` are the term words in -ing of terms the glossary marks as everyday words
        (``term_verbs.everyday_words``): their verb is never a mention, whatever the word
        before it ("you see" is no use of seeing). ``things`` are the term words that name
        a thing only (``term_verbs.noun_words``): their -ed and -ing forms are no mention
        ("typing" of type, "weighted" of weights, "function called" of function call).
        Without them every term word's are."""
        self._nouns = frozenset(nouns)
        self._everyday = frozenset(everyday)
        self._things = frozenset(things)
        self._forms: dict[str, tuple[str, ...]] = {}
        for canonical, others in variants.items():
            forms = [canonical, *(o for o in others if o and o.strip())]
            self._forms[canonical] = tuple(dict.fromkeys(f.strip() for f in forms))
        self.title_rule = title_rule(self._forms)
        """Whether a capitalised one-word term matches only capitalised words: the one
        choice that depends on every term at once."""
        self._root: dict = {}
        self._loose: dict[tuple[str, ...], str] = {}
        self._stems: dict[str, frozenset[str]] = {}
        self._spelled: dict[str, str] = {}
        """Every registered spelling's ``term_key`` → its term: exact look-ups, and the
        tie-break when two terms share stems (token / tokenizer)."""
        self._spellings: dict[str, set[str]] = {c: set() for c in self._forms}
        self._words_by_stem: dict[str, set[str]] = {}
        self._checked: dict[str, tuple[bool, bool, bool]] = {}
        """A text word → whether it writes a term word (``_inflected``): as the course
        reads it, as a noun, as a verb."""
        self._read_in_place: set[str] = set()
        """The text words met that a term word in -ing's verb, bare or with -s, writes: each
        is read by the word before it where that word is clear (``term_verbs.reading_after``:
        "a cup", "we cup") or ends a noun phrase (``term_verbs.reading_in_phrase``: "a good
        cup"), and by ``nouns`` elsewhere."""
        self._bare: set[str] = set()
        """Those of ``_read_in_place`` that are a verb's bare word, not its -s form."""
        # Canonical names first, then aliases, then run-together forms: when two terms
        # claim the same spelling, the one whose own name it is wins.
        for joined in (False, True):
            for rank in (0, 1):
                for canonical, forms in self._forms.items():
                    for form in forms[:1] if rank == 0 else forms[1:]:
                        self._add(canonical, form, joined)
        for canonical, forms in self._forms.items():
            self._stems[canonical] = frozenset(
                s for form in forms for s in map(term_stem, words(form)) if s not in STOP_WORDS
            )
        _freeze(self._root)
        self._own_word = {canonical: term_stem(normalize(found[0]))
                          for canonical in self._forms
                          if len(found := find_words(canonical)) == 1
                          and abbreviation_core(found[0]) is None}
        """Each one-word term's stem (not an abbreviation's): a mention that writes it as
        that word alone is a plain use (``mentions``' ``plain``)."""
        self._own_names: dict[str, tuple[str, ...]] = {}
        for canonical, own in self._own_word.items():
            for key in (own, *stemmed_apart(normalize(find_words(canonical)[0]))):
                self._own_names[key] = (*self._own_names.get(key, ()), canonical)
        # Scanning memos, filled as words are met: a text word → the trie keys it may
        # follow, and → the trie nodes a phrase starting with it reaches (empty for most
        # words); a written mention claimed by several terms → the term it spells.
        self._word_keys: dict[str, tuple[str, ...]] = {}
        self._word_starts: dict[str, tuple[dict, ...]] = {}
        self._chosen: dict[tuple[tuple[str, ...], str], str] = {}
        self._plain_of: dict[str, frozenset[str]] = {}
        self._suggested: dict[str, tuple[str, ...]] | None = None

    def __reduce__(self):
        """Pickled as its terms; unpickled as the process's matcher for them
        (``_unpickled``)."""
        return _unpickled, (tuple(self._forms.items()), self._nouns, self._everyday,
                            self._things)

    @classmethod
    def from_glossary(
        cls,
        entries: Iterable[GlossaryEntry],
        definitions: Iterable[LessonDefinition] = (),
    ) -> TermMatcher:
        """Glossary terms with their aliases, plus terms only the lessons define."""
        variants: dict[str, list[str]] = {e.term: list(e.aliases) for e in entries}
        known = cls(variants)
        for found in definitions:
            canonical = known.canonical_for(found.term) or found.term
            variants.setdefault(canonical, [])
            if found.abbreviation:
                variants[canonical].append(found.abbreviation)
        return cls(variants)

    @property
    def terms(self) -> tuple[str, ...]:
        return tuple(self._forms)

    def spans(self, text: str) -> list[tuple[str, int, int]]:
        """(canonical, start, end) for each mention, as offsets into ``text`` itself."""
        return list(self._scan(text))

    def changed_words(self, before: TermMatcher) -> Callable[[str], bool] | None:
        """A test of text words, true of each word where this matcher and ``before`` may
        scan differently: text holding no such word gets the same mentions from both. None
        when they differ in every capitalised word (``title_rule``).

        A word differs when it can start a mention of a term added, removed or respelled
        (the first keys of its trie paths: no other path leads into them), or when the
        terms' words sharing its stem, or which of them are ``nouns``, changed and it now
        follows other keys (a derivation Snowball folds into a term word's stem follows its
        capitals key only), read as the course reads it or as the word before it may
        (``_in_place``)."""
        if self.title_rule != before.title_rule:
            return None
        differ = {name: [*before._forms.get(name, ()), *self._forms.get(name, ())]
                  for name in before._forms.keys() | self._forms.keys()
                  if before._forms.get(name) != self._forms.get(name)}
        starts = frozenset(key.lstrip(CAPS + TITLE) for key in TermMatcher(differ)._root)
        old, new = before._words_by_stem, self._words_by_stem
        stems = frozenset({s for s in old.keys() | new.keys() if old.get(s) != new.get(s)}
                          | {term_stem(w) for w in self._nouns ^ before._nouns}
                          | {term_stem(w) for w in self._everyday ^ before._everyday}
                          | {term_stem(w) for w in self._things ^ before._things})

        def changed(word: str) -> bool:
            keys = text_keys(word)
            return (not starts.isdisjoint(key.lstrip(CAPS + TITLE) for key in keys)
                    or (keys[0] in stems and any(
                        self._keys_of(word, verb) != before._keys_of(word, verb)
                        for verb in (None, False, True))))  # as the course, a noun, a verb

        return changed

    def participle_of(self, surface: str) -> tuple[str, ...]:
        """The one-word terms, of a word that names a thing only (``things``), whose own
        name ``surface`` writes in an -ed or -ing form ("braking" of brake, "cabled" of
        cable): no mention of them, as a lesson writes it (a proofed loaf is no proof), but
        what a reader who searches for that one word asks about
        (``term_lookup.Glossary.by_participle``)."""
        word = normalize(surface)
        found = []
        for name in self._own_names.get(term_stem(word), ()):
            own = normalize(find_words(name)[0])
            if own in self._things and writes_term_word(word, own) and not writes_term_word(
                    word, own, noun=True):
                found.append(name)
        return tuple(found)

    def capitalised(self, word: str) -> bool:
        """Whether ``word``, written in lower case, would name a term written with a capital
        (a one-word name the ``title_rule`` matches only capitalised: Dobsonian, Barlow) if
        it were capitalised."""
        return (self.title_rule and word.islower()
                and TITLE + term_stem(normalize(word)) in self._root)

    def mentions(self, text: str, seen: set[str] | None = None,
                 plain: Counter[str] | None = None, marked: int = 0) -> Counter[str]:
        """How many times each term is mentioned in ``text``; its words are added to
        ``seen``. ``plain`` counts, per one-word term, the mentions that write the term's own
        word alone, in any form ("value", "values", "Value"), and not an alias or a phrase
        ("value vector"), nor its abbreviation, nor among the ``marked`` first words of the
        text (a section's heading): what an everyday word's every use looks like
        (``LessonMentions.plain``)."""
        surfaces = find_words(text)
        if seen is not None:
            seen.update(surfaces)
        phrases, looked = self._phrases(surfaces, text)
        if plain is not None:
            self._count_plain(phrases, surfaces, looked, plain, marked)
        if text.isascii():
            # Only a mention several terms claim needs its written form, and only for its
            # ``term_key``. In ASCII text ``normalize`` merely lower-cases, which splits or
            # joins no word, so the written span and its words joined by spaces share a key.
            return Counter([
                claimed[0] if len(claimed) == 1
                else self._choose(claimed, " ".join(surfaces[first:last + 1]))
                for claimed, first, last in phrases
            ])
        names = []
        at, pos = 0, 0  # the first token not yet located, and where the one before it ends
        for claimed, first, last in phrases:
            if len(claimed) == 1:
                names.append(claimed[0])
                continue
            # A token is the first occurrence of its surface after the previous token's
            # end: the gap between two tokens holds no character a token can start with.
            for k in range(at, first):
                pos = text.find(surfaces[k], pos) + len(surfaces[k])
            start = pos = text.find(surfaces[first], pos)
            for k in range(first, last + 1):
                pos = text.find(surfaces[k], pos) + len(surfaces[k])
            at = last + 1
            names.append(self._choose(claimed, text[start:pos]))
        return Counter(names)

    def _count_plain(self, phrases: list[tuple[tuple[str, ...], int, int]],
                     surfaces: list[str], looked: list[str], plain: Counter[str],
                     marked: int) -> None:
        """Add the one-word mentions among ``phrases`` after the ``marked`` first words that
        write their term's own word: one test a mention, of what each written word was found
        to write when it was first met (``_plain_names``, of the word as it was looked up:
        ``_phrases``); a course writes its terms' words hundreds of thousands of times."""
        plain_of = self._plain_of
        plain.update([
            claimed[0] if len(claimed) == 1 else self._choose(claimed, surfaces[first])
            for claimed, first, last in phrases
            if first == last and first >= marked
            and not plain_of[looked[first]].isdisjoint(claimed)
        ])

    def canonical_for(self, name: str) -> str | None:
        """The term that ``name`` spells, in any of its forms and in any case."""
        found = list(self._scan(name))
        tokens = list(WORD.finditer(name))
        if term_key(name) in self._spelled:
            return self._spelled[term_key(name)]
        if len(found) == 1 and tokens and found[0][1:] == (tokens[0].start(), tokens[-1].end()):
            return found[0][0]
        if not all(self._inflected(w) for w in words(name)):
            return None
        return self._loose.get(tuple(term_stem(w) for w in words(name)))

    def suggest(self, name: str, limit: int = 5) -> tuple[str, ...]:
        """The terms closest to ``name``: by spelling (typos) or by a shared word."""
        query = " ".join(words(name))
        query_stems = {term_stem(w) for w in words(name)} - STOP_WORDS
        scores: dict[str, float] = {}
        for canonical, forms in self._spelled_out().items():
            shared = len(query_stems & self._stems[canonical])
            # A term shares no word: only a spelling SUGGEST_RATIO alike counts, so a form
            # whose length alone bounds the likeness below it is never compared.
            best = 0.0 if shared else SUGGEST_RATIO - _NEAR_MISS
            for form in forms:
                if 2 * min(len(query), len(form)) <= best * (len(query) + len(form)):
                    continue  # real_quick_ratio, before a matcher is made
                matcher = SequenceMatcher(None, query, form, autojunk=False)
                if matcher.quick_ratio() > best:
                    best = max(best, matcher.ratio())
            if best >= SUGGEST_RATIO or shared:
                scores[canonical] = best + shared / max(len(query_stems), 1)
        return tuple(sorted(scores, key=lambda c: (-scores[c], c))[:limit])

    def _spelled_out(self) -> dict[str, tuple[str, ...]]:
        """Each term's forms as their words joined by a space (what ``suggest`` compares),
        made on first use: once per process, not once per form per lookup."""
        if self._suggested is None:
            self._suggested = {canonical: tuple(" ".join(words(form)) for form in forms)
                               for canonical, forms in self._forms.items()}
        return self._suggested

    # --- building ---------------------------------------------------------------------

    def _add(self, canonical: str, form: str, joined: bool) -> None:
        surfaces = find_words(form)
        if not surfaces or (
            all(w in STOP_WORDS for w in map(normalize, surfaces))
            and not any(map(abbreviation_core, surfaces))
        ):
            return
        if joined:
            if not 1 < len(surfaces) <= _MAX_JOINED or has_symbols(form):
                return
            spellings = [
                self._join(surfaces, glue)
                for glue in product((False, True), repeat=len(surfaces) - 1)
                if any(glue)
            ]
        else:
            spellings = [surfaces]
            self._loose.setdefault(tuple(term_stem(normalize(s)) for s in surfaces), canonical)
        for spelling in spellings:
            spelled = term_key(" ".join(spelling))
            self._spelled.setdefault(spelled, canonical)
            self._spellings[canonical].add(spelled)
            either = self._keys(spelling, apart=not joined)
            for path in product(*either):
                node = self._root
                for key in path:
                    node = node.setdefault(key, {})
                claimed = node.setdefault(_END, [])
                if canonical not in claimed:
                    claimed.append(canonical)
            keys = tuple(alike[0] for alike in either)
            if joined:
                loose = tuple(k.lstrip(CAPS + TITLE) for k in keys)
                self._loose.setdefault(loose, canonical)

    @staticmethod
    def _join(surfaces: list[str], glue: tuple[bool, ...]) -> list[str]:
        out = [surfaces[0]]
        for word, stick in zip(surfaces[1:], glue, strict=True):
            if stick:
                out[-1] += word
            else:
                out.append(word)
        return out

    def _keys(self, surfaces: list[str], apart: bool = True) -> tuple[tuple[str, ...], ...]:
        """The trie keys of each word of a term's spelling: its stem, then, when ``apart``,
        the stems of its forms that Snowball stems apart from it
        (``term_forms.stemmed_apart``: "tru" of true, for trued and truing), each a key the
        word's node is reached by; an abbreviation's capitals key alone. Not ``apart`` for
        words run together ("topp" of top-p), which are no word to inflect: "topped" and
        "topping" would have made "the top" a mention of top-p."""
        keys = []
        for surface in surfaces:
            word = normalize(surface)
            core = abbreviation_core(surface)
            if core is not None:
                keys.append((CAPS + core,))
                self._words_by_stem.setdefault(term_stem(word), set()).add(word)
                continue
            alike = (term_stem(word), *(stemmed_apart(word) if apart else ()))
            if self.title_rule and len(surfaces) == 1 and surface[:1].isupper() and (
                surface[1:].islower()
            ):
                keys.append(tuple(TITLE + key for key in alike))
            else:
                keys.append(alike)
            for key in alike:
                self._words_by_stem.setdefault(key, set()).add(word)
        return tuple(keys)

    def _inflected(self, surface: str, verb: bool | None = None) -> bool:
        """Whether a text word is a term word in some form ("masks", "computed", "overfits";
        ``writes_term_word``), not a derivation Snowball folds into the same stem
        ("headings" for "head", "computer" for "compute", "transformed" for
        "transformer"), nor the -ed or -ing form of a word that names a thing only
        (``things``: "typing" of type), nor the bare word of a term word in -ing read as a
        noun: by the word before it (``verb`` False: "a cup"), or, where that says nothing
        (``verb`` None), when the course writes it as a noun (``nouns``); nor, ever, the
        verb of an everyday term's word in -ing (``everyday``: "see" of seeing)."""
        return self._readings(surface)[0 if verb is None else 2 if verb else 1]

    def _readings(self, surface: str) -> tuple[bool, bool, bool]:
        word = normalize(surface)
        known = self._checked.get(word)
        if known is None:
            term_words = self._words_by_stem.get(term_stem(word), ())
            never, things = self._everyday, self._things
            known = self._checked[word] = (
                any(writes_term_word(word, w, w not in self._nouns and w not in never,
                                     w in things) for w in term_words),
                any(writes_term_word(word, w, False, w in things) for w in term_words),
                any(writes_term_word(word, w, w not in never, w in things)
                    for w in term_words))
        return known

    # --- scanning ---------------------------------------------------------------------

    def _keys_of(self, surface: str, verb: bool | None = None) -> tuple[str, ...]:
        """The trie keys a text word may follow: a word that shares a term word's stem
        without being an inflection of it keeps only its capitals key (``_inflected``, the
        word before it read as ``verb``)."""
        found = text_keys(surface)
        if found[0] in self._words_by_stem and not self._inflected(surface, verb):
            found = tuple(k for k in found if k.startswith(CAPS))
        return found

    def _learn(self, surfaces: set[str]) -> None:
        """Memoise each new text word's trie keys and the trie nodes it starts; for a word
        the word before it may read as a noun or a verb, also as each (under ``_AS``)."""
        root = self._root
        by_stem = self._words_by_stem
        for surface in surfaces:
            keys = self._word_keys[surface] = self._keys_of(surface)
            self._word_starts[surface] = tuple(root[k] for k in keys if k in root)
            self._plain_of[surface] = self._plain_names(surface, keys)
            if text_keys(surface)[0] in by_stem and len(set(self._readings(surface)[1:])) > 1:
                self._read_in_place.add(surface)
                if bare_verb(normalize(surface), by_stem[text_keys(surface)[0]]):
                    self._bare.add(surface)
                for verb, mark in _AS.items():
                    keys = self._word_keys[mark + surface] = self._keys_of(surface, verb)
                    self._word_starts[mark + surface] = tuple(root[k] for k in keys if k in root)
                    self._plain_of[mark + surface] = self._plain_names(surface, keys)

    def _in_place(self, surfaces: list[str], text: str, present: set[str]) -> list[str]:
        """``surfaces`` with each of ``present`` (``_read_in_place``) that the word right
        before it reads as a noun or a verb (``term_verbs.reading_after``) marked so
        (``_AS``), when only spaces are between, with no paragraph's break, as
        ``term_verbs.count_forms`` counts the word before: "we. Cup" is read by the course.
        Where that word says nothing, one that ends a noun phrase with a word or two
        between it and its opener ("a good cup", ``term_verbs.reading_in_phrase``) is
        marked a noun.

        No step per word of the text: the words are found by ``list.index`` and the pairs'
        spaces by one expression per pair written (``_spaced``); only a pair the text also
        writes with other things between, or the words of a noun phrase, are located word by
        word (``_Located``)."""
        places = []
        for surface in present:
            i = 0  # a text's first word has no word before it
            try:
                while True:
                    i = surfaces.index(surface, i + 1)
                    places.append(i)
            except ValueError:
                pass
        pairs: dict[tuple[str, str], list[int]] = {}
        phrases = []
        for i in places:
            if reading_after(normalize(surfaces[i - 1])) is not None:
                pairs.setdefault((surfaces[i - 1], surfaces[i]), []).append(i)
            elif i > 1 and reading_in_phrase([normalize(w) for w in surfaces[max(0, i - 3):i]],
                                             surfaces[i] in self._bare, None) is False:
                phrases.append(i)  # as written, with whatever is between the words
        if not pairs and not phrases:
            return surfaces
        looked = list(surfaces)
        located = []
        for (before, surface), found in pairs.items():
            spaced = len(_spaced(before, surface).findall(text))
            if spaced >= len(found):
                for i in found:
                    looked[i] = _AS[reading_after(normalize(before))] + surface
            elif spaced:
                located += found
        where = _Located(surfaces, text)
        for i in located:
            if _spaces(where.gap(i)):
                looked[i] = _AS[reading_after(normalize(surfaces[i - 1]))] + surfaces[i]
        for i in phrases:
            before = []
            k = i
            while len(before) < 3 and k > 0 and _spaces(where.gap(k), hyphen=True):
                k -= 1
                before.insert(0, normalize(surfaces[k]))
            after = None  # none, or after a stop or a heading ("## A good cup\nA …")
            if i + 1 < len(surfaces) and not surfaces[i + 1][:1].isupper() and _spaces(
                    where.gap(i + 1)):
                after = normalize(surfaces[i + 1])
            if reading_in_phrase(before, surfaces[i] in self._bare, after) is False:
                looked[i] = _AS[False] + surfaces[i]
        return looked

    def _plain_names(self, surface: str, keys: tuple[str, ...]) -> frozenset[str]:
        """The one-word terms whose own word ``surface`` writes (``mentions``' ``plain``):
        it follows the term word's stem, as written or capitalised, and is no abbreviation
        but the term's own name."""
        found = [name for key in keys for name in self._own_names.get(key.removeprefix(TITLE), ())
                 if abbreviation_core(surface) is None or surface.lower() == name.lower()]
        return frozenset(found) if found else _NONE

    def _phrases(self, surfaces: list[str], text: str
                 ) -> tuple[list[tuple[tuple[str, ...], int, int]], list[str]]:
        """(terms claiming it, first token, last token) of each mention, taking the longest
        phrase that starts at each word, left to right; and the words as they were looked up
        (``_in_place``). ``surfaces`` are ``text``'s words."""
        if len(self._word_starts) > _MEMO_LIMIT:
            self._word_starts.clear()
            self._word_keys.clear()
            self._plain_of.clear()
            self._read_in_place.clear()
            self._bare.clear()
        written = set(surfaces)
        new = written.difference(self._word_starts)
        if new:
            self._learn(new)
        if self._read_in_place:
            present = self._read_in_place.intersection(written)
            if present:
                surfaces = self._in_place(surfaces, text, present)
        starts = list(map(self._word_starts.__getitem__, surfaces))
        word_keys = self._word_keys
        count = len(surfaces)
        found = []
        free = 0  # the first token no mention found so far covers
        for i in compress(range(count), starts):
            if i < free:
                continue
            frontier = starts[i]
            best = None
            j = i
            while True:
                if len(frontier) == 1:  # by far the most common case: one path so far
                    node = frontier[0]
                    if _END in node:
                        best, last = node[_END], j
                        if len(node) == 1:  # a leaf: no longer phrase goes on from here
                            break
                    j += 1
                    if j == count:
                        break
                    keys = word_keys[surfaces[j]]
                    if len(keys) == 1:
                        child = node.get(keys[0])
                        if child is None:
                            break
                        frontier = (child,)
                        continue
                    frontier = [node[k] for k in keys if k in node]
                else:
                    for node in frontier:
                        if _END in node:
                            best, last = node[_END], j
                            break
                    j += 1
                    if j == count:
                        break
                    keys = word_keys[surfaces[j]]
                    frontier = [n[k] for n in frontier for k in keys if k in n]
                if not frontier:
                    break
            if best is not None:
                found.append((best, i, last))
                free = last + 1
        return found, surfaces

    def _scan(self, text: str) -> Iterator[tuple[str, int, int]]:
        tokens = list(WORD.finditer(text))
        for claimed, first, last in self._phrases([m.group() for m in tokens], text)[0]:
            start, end = tokens[first].start(), tokens[last].end()
            yield self._choose(claimed, text[start:end]), start, end

    def _choose(self, claimed: tuple[str, ...], written: str) -> str:
        """Of the terms that share these stems, the one spelled most like the text."""
        if len(claimed) == 1:
            return claimed[0]
        chosen = self._chosen.get((claimed, written))
        if chosen is None:
            if len(self._chosen) > _MEMO_LIMIT:
                self._chosen.clear()
            key = term_key(written)
            chosen = self._chosen[claimed, written] = max(
                claimed,
                key=lambda c: (key in self._spellings[c],
                               max(_common_prefix(key, s) for s in self._spellings[c])),
            )
        return chosen


@lru_cache(maxsize=4096)
def _spaced(before: str, word: str) -> re.Pattern[str]:
    """``before`` and ``word``, two words of a text as written, with only spaces between and
    no paragraph's break (``TermMatcher._in_place``)."""
    return re.compile(rf"(?<![^\W_'’]){re.escape(before)}(?:[^\S\n]|\n(?!\n))+"
                      rf"{re.escape(word)}(?![^\W_]|['’][^\W_])")


def _spaces(gap: str, hyphen: bool = False) -> bool:
    """Whether ``gap``, the text between two words, is only spaces with no paragraph's
    break, or, with ``hyphen``, a hyphen (a compound's: "single-origin")."""
    return (gap.isspace() and "\n\n" not in gap) or (hyphen and normalize(gap) == "-")


class _Located:
    """Where each word of a text starts, found left to right only as far as asked: a word is
    the first occurrence of its surface after the end of the word before, as the gap between
    two words holds no character a word can start with."""

    def __init__(self, surfaces: list[str], text: str):
        self._surfaces, self._text = surfaces, text
        self._starts: list[int] = []

    def start(self, k: int) -> int:
        starts, surfaces = self._starts, self._surfaces
        while len(starts) <= k:
            n = len(starts)
            after = starts[-1] + len(surfaces[n - 1]) if n else 0
            starts.append(self._text.find(surfaces[n], after))
        return starts[k]

    def gap(self, k: int) -> str:
        """The text between word ``k - 1`` and word ``k``."""
        end = self.start(k - 1) + len(self._surfaces[k - 1])
        return self._text[end:self.start(k)]


def title_rule(names: Iterable[str]) -> bool:
    """A capitalised one-word term matches only capitalised words unless most terms are
    capitalised (then the capital is the glossary's house style)."""
    named = [name for name in names if name[:1].isalpha()]
    return sum(name[0].isupper() for name in named) * 2 < len(named)


def _freeze(node: dict) -> None:
    """Turn each trie node's list of claiming terms into a tuple, once building is done."""
    for key, child in node.items():
        if key == _END:
            node[key] = tuple(child)
        else:
            _freeze(child)
