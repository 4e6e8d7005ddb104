"""Turn a parsed query into a Whoosh query over the index's fields.

This is where search behaviour lives: stop and question words dropped from bag-of-words
queries (kept in phrases), identifiers like ``numpy.mean`` searched as a phrase of their
parts, misspellings corrected from the index's own
vocabulary, and the "most words" fallback. Glossary aliases need little here: the index
stores every name of each term a section mentions in its content, a name of one word as that
word and a name of several as one term of them all (``whoosh_index.name_term``), which a
query's words written one after another, a phrase or a hyphenated word find only whole
(``_with_names``): "worker bee" finds the sections that mention workers, and "bee" only those
that write it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from whoosh import matching
from whoosh import query as wq

from .analysis import (
    STOP_WORDS,
    find_words,
    leans_on_companions,
    lowered,
    stem,
    typed_name,
    words,
)
from .posting_blocks import unwritten
from .query import All, Any, Node, Not, Phrase, Word
from .whoosh_index import CONTENT, FAMILY_WEIGHT, name_term


@dataclass
class Plan:
    """What the searcher needs: the Whoosh query and what it did to the reader's words."""

    query: wq.Query | None
    words: list[str]
    """The content words kept, in the reader's spelling (after corrections)."""
    corrections: dict[str, str] = field(default_factory=dict)
    relaxed: bool = False
    joined: dict[str, str] = field(default_factory=dict)
    """Each hyphenated word searched also as the one word the course writes ("pre-training":
    pretraining)."""
    natural: bool = False
    """True for a question or a long run of words: ranked by how many words match."""
    related: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    """Each word no section holds that was searched as the verb it was made from (by its
    lower case): that word as the course writes it, and the stems searched ("embedder":
    embed, found as embed, embedded and embedding)."""
    family: set[str] = field(default_factory=set)
    """The stems searched, at ``FAMILY_WEIGHT``, as the family of a word the reader wrote (an
    -ion noun's verb, a verb's -ion nouns: ``Family``)."""
    word_family: set[str] = field(default_factory=set)
    """Of ``family``, the stems searched as the family of a word of one part."""
    phrased: dict[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)
    """Each word of several parts searched with its last part's family (``family``), by the
    stems of its parts: the stems its last part was searched as besides its own, only side
    by side with the others ("over-reduction": over reduced)."""
    narrowed: dict[str, str] = field(default_factory=dict)
    """Each word of a stop word and a word that no section writes side by side, searched
    when ``relaxed`` as its second part ("in-context", "on-device": context, device), by
    the word as typed: the part as typed. Not a word searched as its first part, which is
    seldom what it means ("built-in": built, "end-to-end": end), nor one whose number or
    letter was left out ("top-5", "gpt-5", "x-5"): that part alone is no topic to name."""
    numbers: tuple[tuple[str, ...], ...] = ()
    """The stems of each other form a number the reader typed was also searched as
    (``number_forms``: "1400s" as 1400, "fifteenth" as 15th, "1500" as "1,500"), for the
    snippets to mark."""
    side_by_side: tuple[tuple[str, ...], ...] = ()
    """The stems of each two plain words the reader typed one after the other (with at most
    ``MAX_BETWEEN`` stop words between them, kept): a section that writes them so is
    favoured (``word_scoring.SIDE_BY_SIDE_BONUS``). "bread flour" is a thing; a section
    that writes "bread" in one sentence and "flour" in the next is about something else."""


Correct = Callable[[str], str | None]
Written = Callable[[str], bool]
Together = Callable[[list[str]], bool]
Related = Callable[[str], tuple[str, tuple[str, ...]] | None]
Rarity = Callable[[str], float]
Family = Callable[[str], tuple[str, ...]]
Names = Callable[[str], bool]


def plan(node: Node, correct: Correct | None = None, relaxed: bool = False,
         written: Written | None = None, related: Related | None = None,
         together: Together | None = None, rarity: Rarity | None = None,
         family: Family | None = None, accents: Correct | None = None,
         names: Names | None = None, kept: frozenset[str] = frozenset()) -> Plan:
    """``written``: whether the course writes a word, for a hyphenated word's joined form,
    which weighs no more than the written form (``rarity``: an indexed word's IDF;
    ``_joined_term``).
    ``related``: for a word no section holds, the word it was made from and its stems
    (``Searcher.related``), searched in its place; not under NOT, where a word the course
    never writes excludes nothing. ``together``: whether some section writes words side by
    side; when ``relaxed``, a word of several parts (``multi-head``) that none writes so is
    searched as its parts, each one more of the words a section may hold most of, but for
    stop words and numbers ("gpt-5": gpt; "3.5" stays as typed), which say nothing of a
    topic alone; not one whose parts but one are single letters ("p-value": not value,
    ``leans_on_companions``), whose remaining part is not what was asked. A stop word and
    a word searched as the word ("in-context": context) is named in ``Plan.narrowed``, for
    the reader to be told.

    ``family``: the stems of the words a word's family has in the course (``Searcher.family``:
    an -ion noun's verb, ``analysis.verb_of``, and a verb's -ion nouns), each also searched at
    ``FAMILY_WEIGHT`` of its score: ``repetition`` finds the sections that write "repeated"
    below those on repetition, and ``repeat`` the other way round. Its score, not a
    posting's weight, is cut: a short section a word's family heads ("Solution") stays below
    a long one that writes the word once ("solve"). A word of several parts searched as a
    phrase is searched so with its last part's family too: "over-reduction" finds the
    sections that write "over-reduced". Not in quotes or under NOT, which ask for the word
    as written.

    ``accents``: the course's spelling of a word it writes only with other accents
    (``Searcher.accented``), for a word in quotes: a reader quoting "pate fermentee" from a
    keyboard without accents asked for the course's "pâte fermentée" as written, and found
    nothing; told so as for a correction. Not under NOT.

    ``names``: whether the index holds a name of several words of a glossary term, by its
    term (``whoosh_index.name_term``): such a name written whole in the query, as words one
    after another, a phrase or a hyphenated word, also finds the sections that mention the
    term (``_with_names``).

    ``kept``: the stop words (lower case) searched as words all the same (``kept_stops``:
    the "DOWN" of ``state DOWN``)."""
    bare = _bare_words(node)

    def dropped(word: str) -> bool:  # a stop word, not one the reader asked for
        return is_stop(word) and word.lower() not in kept

    content = [w for w in bare if not dropped(w)]
    drop_stops = bool(content)
    corrections: dict[str, str] = {}
    joined: dict[str, str] = {}
    made_from: dict[str, tuple[str, tuple[str, ...]]] = {}
    searched_family: set[str] = set()
    word_family: set[str] = set()
    phrased: dict[tuple[str, ...], tuple[str, ...]] = {}
    narrowed: dict[str, str] = {}
    numbers: list[tuple[str, ...]] = []
    natural = _is_natural(node, bare)

    def as_numbers(q: wq.Query, parts: list[str]) -> wq.Query:
        """``q``, or ``q`` or the other forms of the number ``parts`` write."""
        forms = number_forms(parts)
        numbers.extend(tuple(map(stem, form)) for form in forms)
        return wq.Or([q, *(_form(form) for form in forms)]) if forms else q

    def word_query(text: str, negated: bool = False) -> wq.Query | None:
        parts = words(text)
        if not parts:
            return None
        if drop_stops and len(parts) == 1 and dropped(parts[0]):
            return None
        if len(parts) > 1 and number_forms(parts):  # "twenty-first": 21st too
            return as_numbers(_phrase(parts), parts)
        if len(parts) > 1:
            one = "".join(parts)
            if written and _joinable(text, parts) and written(one):
                joined[text] = one  # "pre-training" is also pretraining, "GPT-2" gpt2
                return named(wq.Or([_phrase(parts), _joined_term(one, parts, rarity)]), parts)
            topical = [p for p in dict.fromkeys(parts) if not (is_stop(p) or p.isdigit())]
            if (relaxed and not negated and topical and together and not together(parts)
                    and not leans_on_companions(parts)):  # "p-value" is not value alone
                # "multi-head", which no section writes: multi and head, each counted
                if len(parts) == 2 and is_stop(parts[0]) and topical == parts[1:]:
                    # "in-context": context alone; not "built-in" (built), "top-5" (top)
                    narrowed[text] = next((w for w in find_words(text)
                                           if lowered(w) == topical[0]), topical[0])
                return wq.Or([_term(p) for p in topical])
            kin = family(parts[-1]) if family and not negated else ()
            if kin:  # "over-reduction": the sections that write "over-reduced" too
                searched_family.update(kin)
                phrased[tuple(map(stem, parts))] = kin
                before = [stem(p) for p in parts[:-1]]
                return named(wq.Or([_phrase(parts), *(
                    wq.Phrase(CONTENT, [*before, each], boost=FAMILY_WEIGHT) for each in kin)]),
                    parts)
            return named(_phrase(parts), parts)
        if number_forms(parts):  # "1400s", "c1455", "fifteenth": numbers, not slips
            return as_numbers(_term(parts[0]), parts)
        name = typed_name(text)  # "notepad++": the word notepad, or the name Notepad++
        fixed = None
        if correct and name:  # "notpad++" is one slip from Notepad++, the word notpad three
            fixed = correct(name)
        if correct and not fixed:
            fixed = correct(parts[0])
        alternatives = [_term(parts[0])]
        if name is not None:
            alternatives.append(_term(name))
        if fixed and fixed not in (parts[0], name):
            corrections[parts[0]] = fixed
            if stem(fixed) != stem(parts[0]):  # "embeding" is searched as "embedding" is
                respelt = words(fixed)  # "porforwarding": the glossary's port forwarding
                alternatives.append(_phrase(respelt) if len(respelt) > 1 else _term(fixed))
        elif related and not negated and name is None:
            found = related(parts[0])
            if found is not None:  # "embedder": embed, embedded, embedding
                made_from[parts[0].lower()] = found
                alternatives += [wq.Term(CONTENT, each) for each in found[1]]
        if family and not negated and name is None:  # "repetition": repeat's sections too
            kin = family(corrections.get(parts[0], parts[0]))
            searched_family.update(kin)
            word_family.update(kin)
            alternatives += [Exact(CONTENT, each, boost=FAMILY_WEIGHT) for each in kin]
        return alternatives[0] if len(alternatives) == 1 else wq.Or(alternatives)

    loose_names: list[wq.Term] = []

    def named(q: wq.Query, parts: list[str]) -> wq.Query:
        """``q`` (``parts`` side by side, or as the word they make), or the name of several
        words of a glossary term they write whole (``_with_names``); in a question or a
        relaxed search, the name is one more of its words (``loose_names``), as a run of
        words naming a term is: inside the word's OR, Whoosh's coordination counted the
        section's matching words otherwise than the block scorer does."""
        key = name_term(parts)
        if not (names and names(key)):
            return q
        if relaxed or natural:
            loose_names.append(wq.Term(CONTENT, key))
            return q
        return wq.Or([*(q.subqueries if type(q) is wq.Or else [q]), wq.Term(CONTENT, key)])

    def build(n: Node, negated: bool = False) -> wq.Query | None:
        if isinstance(n, Word):
            return word_query(n.text, negated)
        if isinstance(n, Phrase):
            parts = [w for t in n.words for w in words(t)]
            if not parts:
                return None
            if accents and not negated:  # "pate fermentee" in quotes: pâte fermentée
                for at, part in enumerate(parts):
                    if (fixed := accents(part)) is not None:
                        corrections[part] = parts[at] = fixed
            return (named(_phrase(parts), parts) if len(parts) > 1
                    else Exact(CONTENT, stem(parts[0])))
        if isinstance(n, Not):
            inner = build(n.item, negated=True)
            return wq.Not(_exact(inner)) if inner is not None else None
        items = [build(i, negated) for i in n.items]
        runs = (_name_runs(n.items, corrections, names)
                if isinstance(n, All) and names and not negated else [])
        if runs and not (relaxed or natural):
            items = _with_names(items, runs)
        items = [q for q in items if q is not None]
        if not items:
            return None
        if isinstance(n, Any):
            return wq.Or(items)
        positives = [q for q in items if not isinstance(q, wq.Not)]
        if (relaxed or natural) and len(positives) > 1:
            if relaxed and rarity is not None:  # "printers' strike": the strike first
                positives = _by_rarity(positives, rarity)
            negatives = [q for q in items if isinstance(q, wq.Not)]
            loose = MostWords([*positives, *(name for _, _, name in runs), *loose_names])
            loose_names.clear()  # each name one more word
            return wq.And([loose, *negatives]) if negatives else loose
        return wq.And(items) if len(items) > 1 else items[0]

    built = build(node)
    if loose_names and built is not None and not isinstance(built, wq.And):  # one word
        built = wq.Or([*(built.subqueries if type(built) is wq.Or else [built]), *loose_names])
    instead = {**corrections, **{w: shown for w, (shown, _) in made_from.items()}}
    kept = [instead.get(w.lower(), w) for w in content] or bare
    runs = () if relaxed else _runs(node, corrections, made_from, kept)  # none writes all
    return Plan(built, kept, corrections, relaxed, joined, natural, made_from, searched_family,
                word_family, phrased, narrowed, tuple(dict.fromkeys(numbers)), runs)


MAX_NAME_WORDS = 5
"""The most words of a query read as one name of a glossary term (``_with_names``)."""


def _name_runs(nodes: tuple[Node, ...], corrections: dict[str, str], names: Names
               ) -> list[tuple[int, int, wq.Term]]:
    """Each run of the words ``nodes`` of an AND (from, to, the term it is found by) that
    is a name of several words of a glossary term (``names``: "worker bee", "varroa mite",
    "key-value cache") the index holds as one term (``whoosh_index._name_words``). The
    longest run first, from the left; a stop word inside the name ("mixture of experts") is
    part of it, and so are the parts of a hyphenated word; a phrase or a name with ``++``
    ends a run. Corrected words as corrected."""
    texts = [words(n.text) if isinstance(n, Word) and typed_name(n.text) is None else []
             for n in nodes]
    found: list[tuple[int, int, wq.Term]] = []
    at = 0
    while at < len(nodes) - 1:
        for end in range(min(len(nodes), at + MAX_NAME_WORDS), at + 1, -1):
            run = texts[at:end]
            if not all(run):
                continue
            key = name_term([corrections.get(t[0], t[0]) if len(t) == 1 else part
                             for t in run for part in t])
            if names(key):
                found.append((at, end, wq.Term(CONTENT, key)))
                at = end
                break
        else:
            at += 1
    return found


def _with_names(items: list[wq.Query | None], runs: list[tuple[int, int, wq.Term]]
                ) -> list[wq.Query | None]:
    """The queries ``items`` of the words of an AND, each word of a run of them that names a
    term (``_name_runs``) found by that name too: ``Or(word, name)``. A section that
    mentions the term, in any of its names ("nuc" for "nucleus colony"), holds each word
    through the name, while each word alone finds only the sections that write it ("bee"
    no longer finds every section on workers, whose alias "worker bee" wrote it); a section
    writing the words too scores for both. A question or a relaxed search counts the name
    as one more of its words instead (``MostWords``), where a name that stood for each of
    its words counted twice for a section that writes neither."""
    found = list(items)
    for begin, end, name in runs:
        for at in range(begin, end):
            q = found[at]
            if q is not None:
                found[at] = wq.Or([*(q.subqueries if type(q) is wq.Or else [q]), name])
    return found


MAX_BETWEEN = 1
"""The most stop words two words of a query may have between them to be read as written
side by side with them ("mixture of experts")."""
MAX_RUNS = 3
"""The most pairs of words side by side a query is favoured for (a query of four words has
three): each one is read in the sections that could reach the page."""


def _runs(node: Node, corrections: dict[str, str],
          made_from: dict[str, tuple[str, tuple[str, ...]]],
          kept: frozenset[str] = frozenset()) -> tuple[tuple[str, ...], ...]:
    """``Plan.side_by_side``: the stems of each two plain words of a query of plain words
    that follow one another, with at most ``MAX_BETWEEN`` stop words between them, as
    corrected. Not a word in quotes, an identifier or a word of several parts (searched as a
    phrase already), a name with ``++``, nor a word no section holds, searched as another
    (``related``); any of them breaks the run."""
    if not isinstance(node, All):
        return ()
    runs: list[tuple[str, ...]] = []
    last: str | None = None
    between: list[str] = []
    for item in node.items:
        parts = words(item.text) if isinstance(item, Word) else []
        if len(parts) != 1 or typed_name(item.text) is not None or parts[0] in made_from:
            last, between = None, []
            continue
        word = parts[0]
        if is_stop(word) and word not in kept:
            between.append(stem(word))
            if len(between) > MAX_BETWEEN:
                last, between = None, []
            continue
        now = stem(corrections.get(word, word))
        if last is not None and now != last:
            runs.append((last, *between, now))
        last, between = now, []
    return tuple(dict.fromkeys(runs))[:MAX_RUNS]


class MostWords(wq.Or):
    """OR, ranked first by how many of its words a section holds (Whoosh's coordination
    bonus), and never pruned by a score threshold.

    Whoosh's own ``Or(scale=…)`` recounts its words when a word's postings run out (and
    its matcher is replaced by the other's), which scores every later section as if the
    query had one word; and it hands its children the page's lowest score with the bonus
    added, so they may drop sections that belong on the page. The top ten of "how does the
    cache grow" missed three sections that scored above the tenth.

    Whoosh also counts the query's words in each segment: in a segment where one word alone
    occurs, every section scored 0, so a section's rank depended on which chunk of the
    course the build had put it in (and an incremental build ranked questions differently
    from a full one). Here the words are counted in the whole index (``MostWords.words_present``),
    and a query only one of whose words the course holds is scored as that word alone.
    """

    def __init__(self, subqueries, boost: float = 1.0):
        super().__init__(subqueries, boost=boost, scale=0.95)
        self._present: tuple[object, int] | None = None

    def words_present(self, top) -> int:
        """How many of the query's words (a phrase's each, repeats included, as Whoosh counts
        them) occur anywhere in the index ``top`` searches. The same for every segment, so
        counted for the first and kept."""
        if self._present is None or self._present[0] is not top:
            count = sum(1 for field, text in self.iter_all_terms()
                        if top.doc_frequency(field, text))
            self._present = (top, count)
        return self._present[1]

    def _matcher(self, subs, searcher, context):
        reader = searcher.reader()
        union = self._tree_matcher(subs, matching.UnionMatcher, searcher, context,
                                   lambda q: q.estimate_size(reader))
        present = self.words_present(searcher.get_parent())
        if present <= 1 or not any(union.term_matchers()):
            return union
        return _Coordinated(union, scale=self.scale, words=present)


class _Coordinated(matching.CoordMatcher):
    def __init__(self, child, scale: float, words: int):
        super().__init__(child, scale=scale)
        self._termcount = words  # in the whole index, not in this segment or what is left

    def _replacement(self, newchild):
        return _Coordinated(newchild, scale=self._scale, words=self._termcount)

    def supports_block_quality(self) -> bool:
        return False

    def replace(self, minquality=0):
        return super().replace(0)


def _bare_words(node: Node) -> list[str]:
    """The plain words of ``node``, a word in quotes among them (it asks for one word, as a
    plain word does, only as written)."""
    if isinstance(node, Word) or _one_word(node):
        return words(node.text if isinstance(node, Word) else node.words[0])
    if isinstance(node, All | Any):
        return [w for i in node.items for w in _bare_words(i)]
    return []


KEPT_BESIDE_WORDS = 2
"""The most words of a query, besides a stop word, for that stop word to be searched when
the course writes it beside the word it follows (``kept_stops``): "state down" and "link
up" are a thing a section names; in a longer query a stop word is most likely a function
word."""


def kept_stops(node: Node, beside: Callable[[str, str], bool],
               in_capitals: Callable[[str, str], bool]) -> frozenset[str]:
    """The stop words of a query of plain words that are searched as words all the same, by
    their lower case: command output writes "state DOWN", "UP", "OFF", and a reader who
    copies it asks for that word, not for every section that writes "state". Each is
    checked against the word typed before it, the same cheap look-up as the one that asks
    whether a stop word and a word are hyphenated ("over proofed"): one typed in capitals
    (two letters or more) that the course writes so after that word (``in_capitals``:
    "state DOWN"), in any query; or one that ends a query of at most ``KEPT_BESIDE_WORDS``
    other words, which is no question, that the course writes after that word in any case
    (``beside``: "state down"). Never a question's own words ("what", "does", "is",
    ``_QUESTION_WORDS``) nor a word before a question ("so", "ok"): "How do I" keeps its
    meaning, and "RECURSION IN Python" or another engine's ``[softmax TO temperature]``
    its function word, which the course never writes in capitals beside those words."""
    if not isinstance(node, All) or not all(isinstance(i, Word) for i in node.items):
        return frozenset()
    typed = [i.text for i in node.items]
    if any(len(words(t)) != 1 for t in typed):
        return frozenset()
    lower = [words(t)[0] for t in typed]

    def keepable(at: int) -> bool:
        word = lower[at]
        return (at > 0 and is_stop(word) and word not in _QUESTION_WORDS
                and word not in _BEFORE_QUESTION and len(word) > 1
                and not is_stop(lower[at - 1]))

    kept = {lower[at] for at, text in enumerate(typed)
            if keepable(at) and text.isupper() and in_capitals(lower[at - 1], text)}
    last = len(lower) - 1
    if (1 <= last <= KEPT_BESIDE_WORDS and keepable(last) and not _is_natural(node, lower)
            and beside(lower[last - 1], lower[last])):
        kept.add(lower[last])
    return frozenset(kept)


def is_stop(word: str) -> bool:
    """A function word, a question word, or one of them contracted: "what's", "don't" and
    "they're" are as empty of topic as "what", "do" and "they"."""
    word = word.lower()
    return word in STOP_WORDS or _uncontracted(word) in STOP_WORDS


_CONTRACTED = re.compile(r"(?:'s|'re|'ve|'ll|'d|'m|n't)$")
_NOT_STEMS = {"ca": "can", "wo": "will", "sha": "shall"}  # can't, won't, shan't


def _uncontracted(word: str) -> str:
    """The word a contraction starts with: "what's" → "what", "doesn't" → "does". The
    tokenizer keeps a contraction whole, as the index does, and ``words`` has already made
    its apostrophe straight."""
    base = _CONTRACTED.sub("", word)
    if base != word and word.endswith("n't"):
        return _NOT_STEMS.get(base, base)
    return base


_QUESTION_WORDS = {"how", "why", "what", "when", "where", "which", "who", "can", "does", "do",
                   "is", "are", "should", "will", "would", "could", "whats", "hows", "whys"}


def asks_nothing(node: Node) -> bool:
    """Whether ``node`` is a question of two or more plain words that are all question and
    stop words ("how do I", "what is it", "so why is the", or a heading such as "What it is
    not"): it asks about no thing, and each of its words is in nearly every section. Their
    words anywhere, "how do I" found 21 sections by their "do" and "how", the first with no
    word marked; the words side by side, as a phrase, find the sections that write them so
    (the heading "What it is not"), or none. A word alone ("how", "the") is searched as it
    is (stop words are indexed), as is any query with an operator."""
    if not isinstance(node, All) or not all(isinstance(i, Word) for i in node.items):
        return False
    typed = [w for i in node.items for w in words(i.text)]
    start = 0
    while start < len(typed) - 1 and typed[start] in _BEFORE_QUESTION:
        start += 1
    return (len(typed) >= 2 and _uncontracted(typed[start]) in _QUESTION_WORDS
            and all(is_stop(w) for w in typed))


NATURAL_WORDS = 5
"""The fewest words, as typed, of a run of plain words ranked by how many of them a section
holds (``_is_natural``). A word of several parts is one word here: ``firewall 192.168.1.1``
is two words, each required, not five of which any will do."""


def _is_natural(node: Node, bare: list[str]) -> bool:
    """A question, or a long run of plain words with no operators: rank by overlap. The run
    is counted in words as typed (``NATURAL_WORDS``), not in their parts: a dotted address,
    ``key-value`` or ``numpy.mean`` asks for one thing, side by side; a stop of punctuation
    typed apart ("named `Makefile`.") is no word."""
    if not isinstance(node, All) or any(not (isinstance(i, Word) or _one_word(i))
                                        for i in node.items):
        return False
    return (bool(bare and _uncontracted(bare[0]) in _QUESTION_WORDS)
            or sum(1 for i in node.items if _bare_words(i)) >= NATURAL_WORDS)


_MEAN_VERB = {"mean", "means", "meant"}
_STAND_VERB = {"stand", "stands"}
"""The verb of "what does BB stand for?", which asks what "mean" does: a question word
before "for", as "mean" is (a course's "repair stand" is no answer)."""
_BEFORE_QUESTION = {"so", "ok", "okay", "hey", "hi", "hello", "please", "well", "and", "but",
                    "then", "um", "sorry"}
"""Words a reader puts before a question's first word ("so what does variance mean", "ok,
what does …"): the question begins after them, and they go with its verb."""
_AFTER_VERB = {"exactly", "precisely", "actually", "really", "anyway", "though", "please"}
"""Words that may follow the verb "mean" ending a question ("what does variance mean
exactly?"): they go with it."""
_DO = {"do", "does", "did"}
_SAID_DOES = {"what's", "whats", "how's", "hows"}
"""A contracted question word that speech uses for "what does" as well as "what is": before
a subject and "mean" it is the does ("what's variance mean?")."""
_BE = {"is", "are", "was", "were", "be", "been"}
_DETERMINERS = {"the", "a", "an", "this", "that", "these", "those", "its", "their", "our",
                "your", "my", "his", "her", "each", "every", "any", "some"}


def without_question_verbs(node: Node) -> Node:
    """``node`` without the verb "mean" of a question, which is a question word as "what"
    and "does" are (a word in quotes among the question's words is one of them, and never
    the verb): "what does variance mean?", "what do p-values mean", "what does it mean
    to overfit", "what is meant by variance"; "stand" before "for" so too ("what does BB
    stand for?"). In a course whose glossary defines the
    statistic mean, the verb named that term and found the sections on it.

    Only in a question of plain words (``_is_natural``, begun by a question word), and only
    the verb: "mean" or "means" after the question's do, does or did and its subject (a
    word or more between them), "meant" after its is, are, was or were (or a do), and either
    ending the question or followed by a stop word ("to", "by", "for"); not after a
    determiner ("what does the mean mean?": the first is the noun), and once. The noun is
    left as typed: "what is the mean?", "how is the mean computed", "how do mean and median
    differ", "mean and median", `mean` alone and `"mean"` in quotes. Nor is it dropped when
    no other content word would be left ("what does it mean?"). A question after other
    words, or inside another, drops the verb only where it ends the query (``_asked_last``:
    "variance: what does it mean?", "can you explain what variance means")."""
    if not isinstance(node, All) or len(node.items) < 2 or any(
            not (isinstance(i, Word) or _one_word(i)) for i in node.items):
        return node
    bare = _bare_words(node)
    while len(bare) > 1 and bare[0].lower() in _BEFORE_QUESTION:
        bare = bare[1:]  # "hey what's variance mean" is a question as "what's …" is
    typed = [(i.text if isinstance(i, Word) else i.words[0]).lower() for i in node.items]
    texts = [_uncontracted(word) for word in typed]
    start = 0
    while (start < len(typed) - 1 and typed[start] in _BEFORE_QUESTION
           and isinstance(node.items[start], Word)):
        start += 1  # "so what does variance mean"
    verb = None
    if _is_natural(node, bare) and (texts[start] in _QUESTION_WORDS
                                    or typed[start] in _QUESTION_WORDS):
        verb = _mean_verb(texts[start:], typed[start:])
        verb = None if verb is None else verb + start
    if verb is None:  # "variance: what does it mean?", "can you explain what variance means"
        verb = _asked_last(node, texts, typed, start)
    if verb is None or not isinstance(node.items[verb], Word):  # "mean" in quotes
        return node
    end = verb + 1  # "what does variance mean exactly": the adverb goes with the verb
    if (end < len(typed) and typed[end] in _AFTER_VERB and isinstance(node.items[end], Word)):
        end += 1
    rest = node.items[start:verb] + node.items[end:]
    if all(is_stop(w) for word in typed[start:verb] + typed[end:] for w in words(word)):
        return node
    return All(rest) if len(rest) > 1 else rest[0]


_WH = {"how", "why", "what", "when", "where", "which", "who", "whats", "hows", "whys"}


def _asked_last(node: All, texts: list[str], typed: list[str], start: int) -> int | None:
    """A question begun by a wh-word after other words, and the verb "mean" ending it
    (before an adverb such as "exactly" at most): after its do, does or did and a subject
    ("variance: what does it mean?"), or "means" right after a subject of a word or a few,
    a determiner at most before them and no other stop word ("can you explain what
    variance means", "what a p-value means"). The words before the wh-word are kept. The
    verb's place, or None where there is none: not "mean" that ends a question otherwise
    ("what is the sample mean", "how to compare sample means")."""
    last = len(typed) - 1
    if last > 0 and typed[last] in _AFTER_VERB and typed[last - 1] in _MEAN_VERB:
        last -= 1  # "what variance means exactly"
    if typed[last] not in _MEAN_VERB or not isinstance(node.items[last], Word):
        return None
    for wh in range(start, last):
        if texts[wh] not in _WH and typed[wh] not in _WH:
            continue
        verb = _mean_verb(texts[wh:last + 1], typed[wh:last + 1])
        if verb is not None and wh + verb == last:
            return last
        subject = typed[wh + 1:last]
        if (typed[last] == "means" and 0 < len(subject) <= 4
                and all(isinstance(i, Word) for i in node.items[wh + 1:last])
                and not (subject[0] in _DETERMINERS and len(subject) == 1)
                and all(not is_stop(w) for w in subject[subject[0] in _DETERMINERS:])):
            return last
    return None


def _mean_verb(texts: list[str], typed: list[str]) -> int | None:
    """Where the verb "mean" of a question stands among its words (``texts``, contractions
    read as the words they start with; ``typed``, as typed), or None."""
    auxiliary = None
    for at, (text, word) in enumerate(zip(texts, typed, strict=True)):
        if auxiliary is None:
            if (text in _DO or text in _BE or word != text and text in _QUESTION_WORDS
                    or word in _SAID_DOES):
                auxiliary = (at, text)  # "what's" is "what is"
            continue
        after = typed[at + 1] if at + 1 < len(typed) else None
        if word not in _MEAN_VERB and not (word in _STAND_VERB and after == "for"):
            continue
        if at and typed[at - 1] in _DETERMINERS or not (
                after is None or is_stop(after) or after in _AFTER_VERB):
            continue
        said_do = auxiliary[1] in _DO or typed[auxiliary[0]] in _SAID_DOES
        if word == "meant" or said_do and at > auxiliary[0] + 1:
            return at
    return None


_ASKING_VERBS = {"define", "explain"}
_ASKING_NOUNS = {"meaning", "definition"}
_WHAT_IS = (("what", "is"), ("what", "are"), ("what's",), ("whats",))
_ASKING_YOU = {"can", "could", "would"}
_ADVERBS = {"exactly", "precisely", "actually", "really"}
"""Adverbs a question about what a thing is puts after its wh-word or at its end ("what
exactly is a token?", "what is a token, really?")."""
_SUBJECT_JOINS = {"of", "and", "or"}
_APOSTROPHES = str.maketrans("’‘", "''")
MAX_SUBJECT = 5
"""The most words the subject of a question about what it means has."""

Writes = Callable[[list[str]], bool]
Names = Callable[[str], bool]


def without_asking_words(node: Node, writes: Writes | None = None,
                         names: Names | None = None) -> Node:
    """``node`` without the words that only ask what its subject means, which are question
    words as "what" is: "meaning" and "definition" before "of" and the subject ("meaning of
    variance", "what is the definition of a sample") or after it ("sample meaning",
    "variance definition"), "define" and "explain" before it ("define variance", "explain
    the p-value", "explain what variance means"), and an adverb after a question's wh-word or
    ending it ("what exactly is a token?", "what is a token, really"). In a statistics course
    "meaning" named the glossary's mean, and each of them found the sections that write it.

    Only in a query of plain words (a word in quotes among them is one, never one of these),
    after a word such as "so" or "please" and "can you" at most, and with a subject of a few
    words left, a determiner at most before it and "of", "and" or "or" at most among them
    ("define mixture of experts"), or a term's name, whatever its words (``names``: "explain
    Don't Repeat Yourself", "definition of dialing in"); a verb may also ask a question
    ("explain how attention works"). Not "define" or "explain" that ``writes`` says the
    course writes before the subject, where they are its own words: a programming course's
    "define a function"."""
    if not isinstance(node, All) or len(node.items) < 2 or any(
            not (isinstance(i, Word) or _one_word(i)) for i in node.items):
        return node
    items = node.items
    typed = [(i.text if isinstance(i, Word) else i.words[0]).lower().translate(_APOSTROPHES)
             for i in items]  # "what’s" is "what's"

    def subject(begin: int, end: int) -> bool:
        return _subject(typed, begin, end) or bool(
            names and 0 < end - begin <= MAX_SUBJECT and names(" ".join(typed[begin:end])))

    last = len(typed)
    start = 0
    while (start < last - 1 and typed[start] in _BEFORE_QUESTION
           and isinstance(items[start], Word)):
        start += 1  # "so define variance", "please explain variance"
    dropped: set[int] = set()
    verb = start + 2 if typed[start] in _ASKING_YOU and typed[start + 1:start + 2] == ["you"] \
        else start  # "can you explain variance"
    head = next((start + len(h) for h in _WHAT_IS if tuple(typed[start:start + len(h)]) == h),
                start)  # "what is the meaning of variance"
    noun = head + (typed[head:head + 1] == ["the"])
    if (verb < last - 1 and typed[verb] in _ASKING_VERBS and isinstance(items[verb], Word)
            and (subject(verb + 1, last) or _uncontracted(typed[verb + 1]) in _WH)
            and not (writes and writes([w for t in typed[verb:] for w in words(t)]))):
        dropped.add(verb)
    elif (noun < last - 2 and typed[noun] in _ASKING_NOUNS and isinstance(items[noun], Word)
          and typed[noun + 1] in ("of", "for") and subject(noun + 2, last)):
        dropped.add(noun)
    elif (typed[-1] in _ASKING_NOUNS and isinstance(items[-1], Word)
          and subject(start, last - 1)):
        dropped.add(last - 1)
    if _uncontracted(typed[start]) in _WH:
        for at in {start + 1, last - 1}:
            if start < at < last and typed[at] in _ADVERBS and isinstance(items[at], Word):
                dropped.add(at)  # "what exactly is a token", "what is a token exactly"
    kept = [item for at, item in enumerate(items) if at not in dropped]
    if not dropped or all(is_stop(w) for at, text in enumerate(typed) if at not in dropped
                          for w in words(text)):
        return node
    return All(tuple(kept)) if len(kept) > 1 else kept[0]


_WHAT = {"what", "who", "whats"}
_BEFORE_SUBJECT = _BE | _DO | {"a", "an", "the"} | _ADVERBS
"""The words that may stand between a question's "what" and its subject ("what exactly
is a …", "what does the …"): none that asks about something else ("what can I make")."""
_AFTER_SUBJECT = _DO | _BE | _ADVERBS | {"for", "mean", "means"}
"""The words that may end such a question after its subject ("what is Make for", "what
does Make do", "what is a token, really")."""


def asked_about(typed: list[str]) -> str | None:
    """The subject of a question that asks what a thing is, as typed: the words after
    "what" or "who" (or "what's"), a form of be or do, a determiner and an adverb at most
    before them, and at most "for", "do" or such an adverb after them ("what is make",
    "what's a makefile", "what exactly is the KV cache?", "what does make do"); after
    "define", "explain", "meaning of" or "definition of", or before "meaning" or
    "definition" (``without_asking_words``' forms: "define make", "make meaning"). Of
    ``MAX_SUBJECT`` words at most; None for any other query ("how do I make a list",
    "what can I make", "make"). A reader who asks so names a term by its name in any case:
    the question says it is a thing's name, not a verb."""
    texts = [t.lower().translate(_APOSTROPHES) for t in typed]
    start = 0
    while start < len(texts) - 1 and texts[start] in _BEFORE_QUESTION:
        start += 1
    if not texts:
        return None
    if texts[start] in _ASKING_VERBS:
        begin = start + 1
    elif texts[start] in _ASKING_NOUNS and texts[start + 1:start + 2] in (["of"], ["for"]):
        begin = start + 2
    elif texts[-1] in _ASKING_NOUNS:
        begin, texts, typed = start, texts[:-1], typed[:-1]
    elif _uncontracted(texts[start]) in _WHAT:
        begin = start + 1
    else:
        return None
    while begin < len(texts) and texts[begin] in _BEFORE_SUBJECT:
        begin += 1
    end = len(texts)
    while end > begin and texts[end - 1] in _AFTER_SUBJECT:
        end -= 1
    if not 0 < end - begin <= MAX_SUBJECT:
        return None
    if all(is_stop(w) for text in texts[begin:end] for w in words(text)):
        return None
    return " ".join(typed[begin:end])


def _subject(typed: list[str], begin: int, end: int) -> bool:
    """Whether ``typed[begin:end]`` is the subject of a question about what it means: one
    to five words, at least one of them no stop word, and no stop word but a determiner
    before the rest or "of", "and" or "or" between two ("a p-value", "mixture of
    experts")."""
    subject = typed[begin:end]
    if not 0 < len(subject) <= MAX_SUBJECT:
        return False
    stops = [all(is_stop(w) for w in words(text)) for text in subject]
    if all(stops):
        return False
    return all(not stop or at == 0 and text in _DETERMINERS
               or 0 < at < len(subject) - 1 and text in _SUBJECT_JOINS
               for at, (text, stop) in enumerate(zip(subject, stops, strict=True)))


_HYPHENS = re.compile("[-‐‑–]")


def _joinable(text: str, parts: list[str]) -> bool:
    """Whether a word of several ``parts`` may be the one word they make: one a reader
    hyphenated ("pre-training", "GPT-2", "3-D"), of letters and digits, not of digits alone
    ("3-5" is a range, not 35)."""
    return (bool(_HYPHENS.search(text)) and all(p.isalnum() for p in parts)
            and not all(p.isdigit() for p in parts))


def _one_word(node: Node) -> bool:
    return isinstance(node, Phrase) and len(node.words) == 1


def _term(word: str) -> wq.Query:
    return wq.Term(CONTENT, stem(word))


class Exact(wq.Term):
    """A word in quotes: the sections that write it, not those that only write a word made
    from it with -ize, which the index counts for it too (``whoosh_index.FAMILY_WEIGHT``,
    ``word_scoring``). A word under NOT is read so too.

    The block scorer reads it itself (``word_scoring._Segment.evaluate``); this matcher is
    for the queries it leaves to Whoosh (a quoted word beside a phrase among a question's
    words, say), which would otherwise read the word's postings with no positions as the
    word. A section that writes the word keeps its whole weight, as the block scorer keeps
    it."""

    def matcher(self, searcher, context=None):
        found = super().matcher(searcher, context)
        if not found.is_active():
            return found
        skipped = unwritten(searcher.reader(), self.fieldname, self.text)
        return matching.FilterMatcher(found, skipped, exclude=True) if skipped else found


def _exact(q: wq.Query) -> wq.Query:
    """``q`` with each of its words made ``Exact``: what a NOT excludes."""
    if type(q) is wq.Term:
        return Exact(q.fieldname, q.text)
    if type(q) in (wq.And, wq.Or):
        return type(q)([_exact(s) for s in q.subqueries])
    return q


def _joined_term(one: str, parts: list[str], rarity: Rarity | None) -> wq.Query:
    """The one word a hyphenated word's ``parts`` make ("pvalue" for "p-value"), weighing no
    more than the written form: its IDF is taken down to the sum of the parts' (``rarity``),
    what a section writing the phrase as often scores, since Whoosh scores a phrase as the
    sum of its words. A joined form is mostly rarer than its parts, code's ``result.pvalue``
    for a course that says p-value in its prose, and at its own IDF a short code block
    writing it twice came before the section that defines p-value. Left whole when the
    joined form is the commoner: the reader's hyphen is no reason to find less."""
    term = _term(one)
    if rarity is not None:
        own = rarity(term.text)
        written = sum(rarity(stem(p)) for p in parts)
        if own > written > 0:
            term.boost = written / own  # scores scale so, as Whoosh's boost does
    return term


_ORDINAL_WORDS = """first second third fourth fifth sixth seventh eighth ninth tenth eleventh
    twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth
    twentieth""".split()
_ORDINAL_ENDINGS = {1: "st", 2: "nd", 3: "rd"}
_ORDINALS = {(word,): (f"{n}{_ORDINAL_ENDINGS.get(n, 'th')}",)
             for n, word in enumerate(_ORDINAL_WORDS, 1)} | {("twenty", "first"): ("21st",)}
_ORDINALS |= {number: word for word, number in _ORDINALS.items()}
"""The ordinals a course writes both ways, each way by the other: "fifteenth century" and
"15th century", "twenty-first" and "21st" (a hyphenated or split word, by its parts)."""
_DECADES = re.compile(r"(\d{2,3}0)s")
"""A decade or a century in the plural ("1400s", "1960s"): the number, which a course writes
as "around 1400" or "in 1965" as often as "in the 1400s". Of three digits or more: "30s"
is thirty seconds as often as the thirties, and not every 30 of a course."""
_CIRCA = re.compile(r"c(\d{3,4})")
"""A year after the "c" of circa typed without its point or space ("c1455"): the year."""
_GROUPED = re.compile(r"[1-9]\d{3,17}")
"""A whole number of four digits or more, which a course may write with its thousands
parted ("1,500", "28 000"): the index reads each group as a word."""


def number_forms(parts: list[str]) -> list[list[str]]:
    """The other ways a course writes the number a word of ``parts`` (lower case) is, each
    as its parts, searched beside the word as typed: an ordinal in words or digits
    (``_ORDINALS``), a decade's number (``_DECADES``), a year after circa (``_CIRCA``), the
    thousands of a long number (``_GROUPED``). [] for any other word. Each is searched
    silently, as "35C" is searched as 35 C (``searcher._split``): a number typed so is no
    slip to be told of."""
    if (ordinal := _ORDINALS.get(tuple(parts))) is not None:
        return [list(ordinal)]
    if len(parts) != 1:
        return []
    word = parts[0]
    if (number := _DECADES.fullmatch(word) or _CIRCA.fullmatch(word)) is not None:
        return [[number.group(1)]]
    if _GROUPED.fullmatch(word):
        groups = [word[max(0, end - 3):end] for end in range(len(word), 0, -3)][::-1]
        return [groups]
    return []


def _form(parts: list[str]) -> wq.Query:
    return _phrase(parts) if len(parts) > 1 else _term(parts[0])


def _by_rarity(words: list[wq.Query], rarity: Rarity) -> list[wq.Query]:
    """A relaxed search's ``words`` (each a word's query: its ``Term``, or an OR of its
    forms), each word's terms weighed by how much rarer it is than the query's commonest
    word (its IDF over that one's, ``rarity``), so that a word counts by its rarity twice:
    once in BM25, once here. No section holds every word, and which of them a section holds
    says what it is about: a section holding only the rare one ("strike", in one section of
    a course on printing) is about what the reader asked, one holding only the common one
    ("printers", in eight) is about the course. At BM25's one IDF, the repeats of a common
    word in short sections outweighed a rare word's one mention in a long section: "Printing
    in Lyon", the only section on the printers' strike, came sixth for `printers' strike`,
    below five that only say "printers". A phrase is left as it is (the block scorer reads
    no boost on one); so is a query of one word."""
    weights = [_rarity_of(q, rarity) for q in words]
    floor = min((w for w in weights if w), default=0.0)
    if floor <= 0:
        return words
    return [_weighed(q, weight / floor) if weight else q
            for q, weight in zip(words, weights, strict=True)]


def _rarity_of(q: wq.Query, rarity: Rarity) -> float:
    """The IDF of the word ``q`` searches: its commonest term's, since a word the course does
    not write is the rarest of all (the reader's "printres", searched as printer too, weighed
    as the course's rarest word, above "strike"); 0 for a phrase."""
    terms = [t for t in (q.subqueries if type(q) is wq.Or else [q]) if isinstance(t, wq.Term)]
    return min((rarity(t.text) for t in terms), default=0.0)


def _weighed(q: wq.Query, weight: float) -> wq.Query:
    """``q`` with each of its terms' boosts times ``weight``; its phrases as they are."""
    for term in (q.subqueries if type(q) is wq.Or else [q]):
        if isinstance(term, wq.Term):
            term.boost *= weight
    return q


def _phrase(parts: list[str]) -> wq.Query:
    return wq.Phrase(CONTENT, [stem(p) for p in parts])
