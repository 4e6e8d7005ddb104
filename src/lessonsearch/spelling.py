"""Spelling corrections from the index's own vocabulary, by symmetric deletes.

Every word the course writes is filed under itself and each string one deletion away from
it. A misspelt word looks up itself and its own one-deletion strings: every word one edit away
(a letter added, dropped, changed or two swapped) shares a key with it, and so do many two
edits away (one change on each side); a true edit distance then keeps those within the allowed
distance. Lookups are a few dictionary probes, where Whoosh's Levenshtein automaton
over the term file took most of a query's time for a misspelt word (bench/README.md).

Two edits are looked for in the same table, not in a second one of two-deletion strings
(three to five times the keys of a long word, for every long word the course writes): the
misspelt word makes the keys every word two edits away is filed under (``_two_edit_keys``),
700 to 1,000 probes for a ten-letter word, about half a millisecond (bench/README.md).

Accents are left out of both sides: a word is filed under its letters without them, and
edits are counted between such letters, so "émbedding" is no edit from the course's
"embedding", "naive" none from its "naïve", and "émbedings" one from "embeddings".

A word spelt by ear may be further: "sourdoe" is three edits from "sourdough". Each word is
also filed under its sound (``sounds``: English's spellings of one sound written one way,
"sourdO" for both), made at the first word looked up so; a lookup is one key, a hundredth of a
millisecond (bench/README.md). Rules written here, not a phonetic library's: Soundex and
Metaphone drop the vowels, and so take "bakes" for "because".
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections.abc import Container, Iterable, Mapping
from functools import cached_property

from .nltk_parts import edit_distance


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1:] for i in range(len(word))}


def _transposes(word: str) -> set[str]:
    return {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1)}


_END = "\0"
"""Stands after a word's last letter while its runs of three are taken (no word holds it)."""


def _letters_between(words: Iterable[str]) -> dict[tuple[str, str], str]:
    """For two letters, those that stand between them in a key some word is filed under
    (itself or a one-deletion string of it); the second letter is ``_END`` past the last."""
    runs: set[tuple[str, str, str]] = set()
    for word in words:
        padded = word + _END
        runs.update(zip(padded, padded[1:], padded[2:], strict=False),
                    zip(padded, padded[2:], padded[3:], strict=False),
                    zip(padded, padded[1:], padded[3:], strict=False))
    between: dict[tuple[str, str], set[str]] = {}
    for before, letter, after in runs:
        between.setdefault((before, after), set()).add(letter)
    return {pair: "".join(sorted(letters)) for pair, letters in between.items()}


def _two_edit_keys(word: str, between: dict[tuple[str, str], str]) -> set[str]:
    """Keys beyond ``word``'s own and its one-deletion strings under which every known word
    two edits from ``word`` that keeps its first letter is filed, one for each way two edits
    can fall. A known word is filed under itself and its one-deletion strings, so the key
    may drop one of its letters but must guess any other letter ``word`` lacks:

    - two letters too many: the word itself is among ``word``'s two-deletion strings; one
      too many and one changed or swapped: the word less that letter is too;
    - one letter missing and one changed or swapped: the word less the missing letter is
      ``word`` with one letter changed, or two swapped;
    - two missing: the word less one of them is ``word`` with one letter added;
    - two changed: the word less the later one is ``word`` less that letter, with the
      earlier changed; changed and swapped, or swapped twice: the word less a changed or
      swapped letter is ``word`` less that letter, with two swapped.

    A guessed letter is one that stands between the same two letters in some key
    (``between``: seven or eight letters on average, in English), never the first letter.
    """
    keys = {k for d in _deletes(word) for k in (*_deletes(d), *_transposes(d))}
    keys |= _transposes(word)
    for at in range(1, len(word) + 1):
        head, added, changed = word[:at], word[at:], word[at + 1:]
        keys.update([head + c + added for c in between.get((head[-1], added[:1] or _END), "")])
        keys.update([head + c + changed
                     for c in between.get((head[-1], changed[:1] or _END), "")])
    for later in range(2, len(word)):
        less = word[:later] + word[later + 1:]
        for at in range(1, later):
            head, tail = less[:at], less[at + 1:]
            keys.update([head + c + tail for c in between.get((head[-1], tail[:1] or _END), "")])
    return keys


ENDINGS = ("s", "es", "ed", "er", "ers", "ing", "est")
"""The endings English makes a word's forms with: one swapped for another makes another
word of the same family, not a slip of it."""


def other_ending(word: str, known: str) -> bool:
    """Whether ``word`` is ``known``'s letters with another of the ``ENDINGS`` (a base of
    three letters or more): "embedder" and "embedded" are two words made from embed, each
    spelt right, though one letter apart."""
    return any(word.endswith(typed) and known.endswith(written) and typed != written
               and len(word) - len(typed) >= 3
               and word[:-len(typed)] == known[:-len(written)]
               for typed in ENDINGS for written in ENDINGS)


FORM_ENDINGS = ("ed", "ing", "er", "ers", "est")
"""The endings of ``ENDINGS`` that make a verb's or an adjective's forms (not a plural's -s,
which a misspelling by ear leaves as often: "sequens")."""


def form_of_another(word: str, known: str) -> bool:
    """Whether ``word`` is a form (``FORM_ENDINGS``) of a word whose letters begin ``known``,
    which ends otherwise, the two edits between them all in that ending: "specified" is a
    form of specify, not two slips from "specific"; "straighter" and "completest" are
    straight's and complete's. Of the real words of seven letters or more of an English
    word list that two edits took to a word of the sample course, 7 of 162 are such
    forms; of 1,665 misspellings of two typing slips corrected to the word meant, none
    (bench/README.md). Not a word that is ``known`` with an ending put on ("makefileed",
    "readinged"): those letters are the word meant, typed with a slip after it."""
    return any(word.endswith(ending) and len(word) - len(ending) >= 3
               and known.startswith(word[:-len(ending)]) and not known.endswith(ending)
               and known != word[:-len(ending)]
               for ending in FORM_ENDINGS)


MADE_ENDINGS = ("ers", "er", "ors", "or")
"""The endings of an agent noun, made from a verb: an embedder embeds, a trainer trains, a
predictor predicts. Snowball gives most of them another stem than their verb's ("embedder"
is "embedd" where "embedding" is "embed"; "trainer" stays whole)."""
MIN_VERB = 3
OR_AFTER = ("t", "s")
"""The letters -or follows in English, whose -or nouns are made from Latin verbs: predictor,
editor, operator (operate), processor, supervisor (supervise). Any other verb takes -er: a
"flushor" is no word of flush, whatever the course writes."""
UNSTRESSED = ("en", "er", "el", "on", "om", "it", "et", "al", "or")
"""A verb's last syllable that keeps its letters before -ing though a vowel and a consonant
end it (listening, editing, limiting): such a verb has no e to put back."""


def made_from_verb(word: str, known: Mapping[str, int]) -> tuple[str, tuple[str, ...]] | None:
    """For an agent noun (``MADE_ENDINGS``), the verb it was made from, and the forms of
    that verb ``known`` (the course's words and their counts) holds, when they show the
    course uses it as a verb: the verb or its -s form written with its -ing or -ed form, or
    both its -ed and -ing forms. ``embedder``: embed (its doubled letter undone), found as
    embed, embedded and embedding; ``trainers``: train. None for any other word, and for
    one that only ends so: "paper" and "water" are no verbs with an -er, as no "papping" or
    "watting" says, nor is "corner" in a course that writes "corn" alone, nor "leader" in
    one that writes "leading" alone (the leading bits), nor "borer" where it is "boring".

    Of the verbs the ending may leave (``embedd`` undoubled, ``compil`` with an e), the one
    whose forms the course writes most often, the likelier spelling first on a tie: where
    the course writes only "decoded" and "decoding", ``decoder`` is decode, not decod. It
    is named as the verb itself, which the course may not write ("showing results for
    embed"), never as one of the forms searched."""
    found = []
    for verb in _verbs(word):
        forms = verb_forms_written(verb, known)
        if forms:
            found.append((sum(known[f] for f in forms), verb, forms))
    if not found:
        return None
    _, verb, forms = max(found, key=lambda each: each[0])  # the first on a tie
    return verb, forms


def verb_forms_written(verb: str, known: Container[str]) -> tuple[str, ...]:
    """The forms of ``verb`` that ``known`` (the course's words) holds, when they show the
    course uses it as a verb (``_as_a_verb``); nothing otherwise."""
    forms = tuple(w for w in verb_forms(verb) if w in known)
    return forms if _as_a_verb(verb, forms) else ()


def third_person_of(word: str) -> list[str]:
    """The verbs whose -s form ``word`` may be (``third_person``): "predicts" → predict,
    "matches" → match and matche (only a verb the course writes is one), "queries" →
    query."""
    bases = (word[:-1], word[:-2], word[:-3] + "y" if word.endswith("ies") else "")
    return [base for base in bases if len(base) >= MIN_VERB and third_person(base) == word]


def _as_a_verb(verb: str, forms: tuple[str, ...]) -> bool:
    """Whether ``forms`` (of ``verb``, those the course writes) show a verb, not a noun or
    an adjective that only looks like one of its forms: "leading" alone is an adjective,
    "lead" and "leading" a verb; "embedded" and "embedding" are both only a verb's."""
    bare = (verb, third_person(verb))  # not the -ing or -ed of "bring" or "embed"
    plain = any(f in bare for f in forms)
    ing = any(f.endswith("ing") and f not in bare for f in forms)
    ed = any(f.endswith("ed") and f not in bare for f in forms)
    return (plain and (ing or ed)) or (ing and ed)


def _verbs(word: str) -> list[str]:
    """What may be left of ``word`` without an agent noun's ending, as a verb: with a doubled
    last letter undone (``embedd``, ``runn``; not ``compress``, which doubles its s itself),
    as it is, or with an e (``compil``), the e first where English spells the verb so
    (``_wants_e``). Nothing for -or after any letter but ``OR_AFTER``."""
    for ending in MADE_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= MIN_VERB:
            left = word[:-len(ending)]
            if ending.startswith("or") and not left.endswith(OR_AFTER):
                return []
            verbs = [left + "e", left] if _wants_e(left) else [left, left + "e"]
            if left[-1] == left[-2] and left[-1] not in "aeiouslz" and len(left) > MIN_VERB:
                verbs.insert(0, left[:-1])
            return verbs
    return []


def _wants_e(left: str) -> bool:
    """Whether a verb that ``left`` is all but the ending of is more likely spelt with an e
    (decode, compile, sample, serve, parse, tokenize, operate) than without (train, edit,
    listen, process): English ends no word in v, and puts an e after a c, g, s or z that is
    soft, after a consonant's l, and after a vowel and a consonant whose -ing keeps them
    single (decoding; a stressed verb doubles it, embedding)."""
    last, before = left[-1], left[-2]
    vowels = "aeiou"
    if last in "vc" or (last in "sz" and before != last) or (last == "g" and before not in "gn"):
        return True
    if last == "l" and before in "bcdfgkptz":
        return True
    return (before in vowels and left[-3] not in vowels and last not in vowels + "wxy"
            and not left.endswith(UNSTRESSED))


def verb_forms(verb: str) -> list[str]:
    """``verb``'s own forms: as it is, with -s (or -es), and with -ed and -ing (its last
    letter doubled, or its e dropped, as English spells them: a y after a consonant turns
    to i before -ed, "queried", and -ie to y before -ing, "lying")."""
    forms = [verb, third_person(verb), verb + "ed", verb + "ing",
             verb + verb[-1] + "ed", verb + verb[-1] + "ing"]
    if verb.endswith("e"):
        forms += [verb + "d", verb[:-1] + "ing"]
    if len(verb) == 3 and verb.endswith("ie"):  # die, lie, tie, vie
        forms.append(verb[:-2] + "ying")
    if _consonant_y(verb):
        forms.append(verb[:-1] + "ied")
    return list(dict.fromkeys(forms))


def third_person(verb: str) -> str:
    """``verb`` with -s, or -es after a hissing sound (compresses, pushes), its y after a
    consonant turned to i (queries, copies)."""
    if _consonant_y(verb):
        return verb[:-1] + "ies"
    return verb + ("es" if verb.endswith(("s", "x", "z", "ch", "sh")) else "s")


def _consonant_y(verb: str) -> bool:
    return len(verb) > 2 and verb[-1] == "y" and verb[-2] not in "aeiouy"


def fold_accents(word: str) -> str:
    """``word`` without its accents: "émbèdding" → "embedding" (Unicode's compatibility
    decomposition, combining marks dropped)."""
    if word.isascii():
        return word
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


SPOKEN = (
    ("^kn|^gn|^pn", "n"), ("^wr", "r"), ("^ps", "s"), ("^wh", "w"), ("^x", "s"),
    ("(?:ss?i|[tc]i|sh)[oua]n(?=s?$)", "Xn"),
    ("dge$|ge$|dg(?=[eiy])", "j"), ("gu(?=[eiy])", "g"),
    ("(?<=[^aeiouy])e$", ""), ("(?:y|ey|ie|ee|ea)$", "E"), ("(?<=[^aeiou])o$", "O"),
    ("ough", "O"), ("eigh", "A"), ("igh", "I"), ("gh(?=[aeiouy])", "g"), ("gh", ""),
    ("ph", "f"), ("sch", "sk"), ("ch(?=[rl])", "k"), ("t?ch", "C"), ("sh", "X"),
    ("ss?i(?=[aou])|[tc]i(?=[aou])", "X"), ("th", "0"),
    ("ck|cq", "k"), ("cc(?=[eiy])", "ks"), ("c(?=[eiy])", "s"), ("c", "k"),
    ("qu", "kw"), ("q", "k"), ("x", "ks"), ("z", "s"), ("^y(?=[aeiou])", "y"),
    ("[aeiouy][aeiou]*(?:[wh](?![aeiouy]))?", None),
)
"""How English spells a sound, each spelling with the letters it is written as in a word's
sound (``sounds``), the first that fits at each letter taken: a silent k, g or p before an n,
w before an r, h after a w and p before an s at the start, and an x there an s; -sion, -tion,
-cian and -shun one ending; -dge and a last -ge a j; gu before e, i or y a g; a last e after
a consonant silent, a last y, -ey, -ie, -ee or -ea a long e, and a last o after a consonant a
long o; -ough a long o, -eigh a long a, -igh a long i, another gh silent but before a vowel;
ph an f; sch sk; ch (but before an r or an l) and tch one sound, sh and the s, t or c and i of
-sion, -tion and -cian another; th its own; ck, k, q and a hard c one; qu kw, x ks, z s; a
run of vowels as ``VOWEL_SOUNDS`` spells it (None), with a w or an h after it. A letter (or a
capital for a sound) for each sound: the doubled letters a reader leaves out or adds are
one."""
VOWEL_SOUNDS = {"oa": "O", "oe": "O", "ow": "O", "oh": "O", "ee": "E", "ea": "E", "ie": "E",
                "ai": "A", "ay": "A", "au": "W", "aw": "W", "ah": "a", "oo": "U", "ue": "U",
                "ew": "U", "y": "i"}
"""Spellings of one vowel sound: a long o, e and a, the sound of "law" and that of "blue",
each a capital, apart from the short vowel the letter alone spells ("bet" and "beet" are two
words); another run of vowels is its own ("sour": ou). So "various" does not sound as
"varies", nor "serious" as "series", where a run of vowels as its first letter made them
one."""
_SPOKEN = re.compile("|".join(f"({pattern})" for pattern, _ in SPOKEN))
MIN_SOUNDS = 5
"""The fewest letters a word's sound (``sounds``) has for it to be matched by sound, about
two syllables. A shorter sound is too many words' ("right", "write" and "rite"), where a
reader's misspelling of it is an edit or two from it anyway."""


def _spoken(match: re.Match[str]) -> str:
    said = SPOKEN[match.lastindex - 1][1]
    return said if said is not None else VOWEL_SOUNDS.get(match.group(), match.group())


def sounds(word: str) -> str | None:
    """How ``word`` sounds, as letters (``SPOKEN``), a letter written twice once: "sourdough"
    and "sourdoe" are both "sourdO", "photograph" and "fotograf" "fotograf", "question" and
    "kwestion" "kwesXn". None for a word of anything but letters (accents aside), such as a
    name with digits in it."""
    letters = fold_accents(word).lower()
    if not (letters.isascii() and letters.isalpha()):
        return None
    return re.sub(r"(.)\1+", r"\1", _SPOKEN.sub(_spoken, letters))


class Speller:
    def __init__(self, words: Iterable[str]):
        self._keys: dict[str, list[str]] = {}
        self._sorted: list[tuple[str, str]] = []
        """(letters, word) of every word, in order: the words a prefix starts."""
        for word in words:
            letters = fold_accents(word)
            for key in (letters, *_deletes(letters)):
                self._keys.setdefault(key, []).append(word)
            self._sorted.append((letters, word))
        self._sorted.sort()

    @cached_property
    def _between(self) -> dict[tuple[str, str], str]:
        """The letters a two-edit lookup guesses between two others: made at the first such
        lookup, since most misspellings are short (0.5 s of a 64,000-word speller's 1.9 s)."""
        return _letters_between(letters for letters, _ in self._sorted)

    @cached_property
    def _sounds(self) -> dict[str, list[str]]:
        """The known words by their sound (``sounds``), those of ``MIN_SOUNDS`` or more:
        made at the first word looked up by sound, as most misspellings are an edit or two
        from the word meant."""
        found: dict[str, list[str]] = {}
        for _, word in self._sorted:
            key = sounds(word)
            if key is not None and len(key) >= MIN_SOUNDS:
                found.setdefault(key, []).append(word)
        return found

    def sounding(self, word: str) -> list[str]:
        """The known words other than ``word`` that sound as it does (``sounds``), when its
        sound is of ``MIN_SOUNDS`` or more: "sourdough" for "sourdoe", "photograph" for
        "fotograph" (its first letter is another, unlike an edit's)."""
        key = sounds(word)
        if key is None or len(key) < MIN_SOUNDS:
            return []
        return [c for c in self._sounds.get(key, ()) if c != word]

    def starting(self, prefix: str) -> list[str]:
        """The known words that begin with ``prefix`` (accents aside), other than itself."""
        letters = fold_accents(prefix)
        found = []
        for at in range(bisect_left(self._sorted, (letters,)), len(self._sorted)):
            known, word = self._sorted[at]
            if not known.startswith(letters):
                break
            if word != prefix:
                found.append(word)
        return found

    def candidates(self, word: str, maxdist: int) -> list[tuple[int, str]]:
        """(edits, word) for known words other than ``word`` within ``maxdist`` (0, 1 or 2)
        edits of it that share its first letter, nearest first. Accents are no edit: 0 finds
        the words that differ from ``word`` in accents alone."""
        letters = fold_accents(word)
        keys = {letters, *_deletes(letters)}
        if maxdist >= 2:
            keys |= _two_edit_keys(letters, self._between)
        found = {c for key in self._keys.keys() & keys for c in self._keys[key]}
        near = ((edit_distance(known, letters, transpositions=True), c)
                for c, known in ((c, fold_accents(c)) for c in found)
                if c != word and known[:1] == letters[:1]
                and abs(len(known) - len(letters)) <= maxdist)
        return sorted((d, c) for d, c in near if d <= maxdist)


KEYBOARD = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
"""The letter rows of a QWERTY keyboard, each set a little to the right of the one above."""


def _next_keys() -> dict[str, frozenset[str]]:
    """For each letter, the keys that touch it: beside it in its row, and the two it lies
    between in the row above and in the row below ("g": f, h, t, y, v, b)."""
    near: dict[str, set[str]] = {c: set() for row in KEYBOARD for c in row}
    for upper, lower in zip(KEYBOARD, KEYBOARD[1:], strict=False):
        for at, key in enumerate(lower):
            for above in upper[at:at + 2]:
                near[key].add(above)
                near[above].add(key)
    for row in KEYBOARD:
        for left, right in zip(row, row[1:], strict=False):
            near[left].add(right)
            near[right].add(left)
    return {key: frozenset(keys) for key, keys in near.items()}


NEXT_KEYS = _next_keys()
VOWELS = frozenset("aeiouy")
SOUNDS_ALIKE = (("ks", "x"), ("cs", "x"), ("gs", "x"), ("gz", "x"), ("kz", "x"),
                ("ph", "f"), ("ck", "k"), ("ck", "c"), ("kw", "qu"), ("sh", "ch"),
                ("sh", "ti"), ("sh", "ci"))
"""Spellings of one sound, each of which a reader spelling by ear may write for the other
(the reader's first): "contekst", "egsample", "benshmark". One slip each."""
SOUND_LETTERS = (frozenset("ck"), frozenset("kq"), frozenset("sz"))
"""Letters that spell one sound anywhere: "vektor", "realise"."""
SOFT = frozenset("eiy")
"""The letters after which a c sounds as an s and a g as a j ("sentanse", "lenguaje")."""
MOVED = 3
SLIP_COST = 1
ODD_COST = 3
"""What a change no typing slip or spelling by ear explains costs ("complex" for
"complete": an x for a t, keys apart), against one that does: more than two slips."""


def slips(typed: str, known: str) -> int:
    """How many slips of the kinds people make typing or spelling a word by ear turn the
    ``known`` word into the ``typed`` one (both in lower case, accents folded): a letter
    dropped; two side by side swapped; a letter doubled, or added beside a letter whose key
    it touches; a letter changed for one whose key touches it, a vowel for a vowel, or
    for a letter of the same sound (``SOUND_LETTERS``; c for s and g for j before e, i or y;
    t or c for s before an i and a vowel, as in "-tion" and "-sion"), or a spelling of a
    sound for another (``SOUNDS_ALIKE``). Any other change (a letter for one far from it,
    or added among letters far from it) costs ``ODD_COST``: no slip explains it. The least
    cost of any way from one to the other (an optimal string alignment)."""
    rows, cols = len(typed) + 1, len(known) + 1
    cost = [[0] * cols for _ in range(rows)]
    for i in range(1, rows):
        cost[i][0] = cost[i - 1][0] + _added(typed, i - 1, known, 0)
    for j in range(1, cols):
        cost[0][j] = j * SLIP_COST
    for i in range(1, rows):
        for j in range(1, cols):
            a, b = typed[i - 1], known[j - 1]
            best = min(cost[i - 1][j] + _added(typed, i - 1, known, j),
                       cost[i][j - 1] + SLIP_COST,
                       cost[i - 1][j - 1] + (0 if a == b else _changed(a, known, j - 1)))
            if i > 1 and j > 1 and a == known[j - 2] and typed[i - 2] == b and a != b:
                best = min(best, cost[i - 2][j - 2] + SLIP_COST)
            for said, written in SOUNDS_ALIKE:
                if typed.endswith(said, 0, i) and known.endswith(written, 0, j):
                    best = min(best, cost[i - len(said)][j - len(written)] + SLIP_COST)
            cost[i][j] = best
    return cost[-1][-1]


def _added(typed: str, at: int, known: str = "", place: int = 0) -> int:
    """What the letter at ``at`` of ``typed`` costs as one too many, put after ``place``
    letters of ``known``: a slip when it doubles the letter before or after it, its key
    touches theirs, or it is a letter of ``known`` that ``MOVED`` letters or fewer part from
    there, typed early or
    late ("wheigts": weights, its h typed early, then left out where it was)."""
    letter = typed[at]
    beside = typed[at - 1:at] + typed[at + 1:at + 2]
    if (any(c == letter or c in NEXT_KEYS.get(letter, ()) for c in beside)
            or letter in known[max(0, place - 1 - MOVED):place + 1 + MOVED]):
        return SLIP_COST
    return ODD_COST


def _changed(letter: str, known: str, at: int) -> int:
    """What ``letter`` typed for ``known``'s letter at ``at`` costs."""
    if known[at] in NEXT_KEYS.get(letter, ()) or by_ear(letter, known, at):
        return SLIP_COST
    return ODD_COST


def by_ear(letter: str, known: str, at: int) -> bool:
    """Whether ``letter``, typed for ``known``'s letter at ``at``, spells the sound the
    written one does, or a vowel's: a vowel for a vowel, a letter of ``SOUND_LETTERS``
    for another, s for a c and j for a g before e, i or y, s for the t or c of -tion and
    -cian."""
    written = known[at]
    after = known[at + 1:at + 3]
    return (letter in VOWELS and written in VOWELS
            or any(letter in same and written in same for same in SOUND_LETTERS)
            or {letter, written} == {"c", "s"} and after[:1] in SOFT
            or {letter, written} == {"g", "j"} and after[:1] in SOFT
            or letter == "s" and written in "tc" and after[:1] == "i"
            and after[1:2] in VOWELS)


def changed_in_place(typed: str, known: str) -> list[int]:
    """The places where ``typed`` holds another letter than ``known``, when the two are as
    long; every place when they are not."""
    if len(typed) != len(known):
        return list(range(max(len(typed), len(known))))
    return [at for at, (a, b) in enumerate(zip(typed, known, strict=True)) if a != b]
