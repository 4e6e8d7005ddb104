"""How one word or term of the glossary is keyed, so its variants in the text find it.

Three keys serve three jobs: Snowball stems (``term_stem``) let inflections meet in the
matcher's trie; ``writes_term_word`` refuses the derivations Snowball also folds together
("headings" for "head", "transformed" for "transformer"); ``term_key`` is the light, exact
key for look-ups and for telling apart terms that share a stem (token, tokenizer). All three
read a British spelling as the American one (``analysis.american``). Where Snowball stems a
word's own forms apart from it ("trued" and "truing" are "tru", "true" is "true"), the trie
holds the word under those stems too (``stemmed_apart``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from lessonsearch.analysis import WORD, american, normalize, stem, words
from lessonsearch.slugs import slugify
from lessonsearch.spelling import third_person, verb_forms

CAPS = "\x01"
"""Prefix of a trie key a word matches only when written in capitals (RAG, KV)."""
TITLE = "\x02"
"""Prefix of a trie key a word matches only when capitalised (Make, Git)."""
_APOSTROPHE_S = re.compile(r"['’]s$")
_SPELLED = {"++": " plus plus ", "#": " sharp "}
"""The words a name's ``++`` or ``#`` (``analysis.NAME_SYMBOLS``) is spelled as in keys and
anchors."""


def has_symbols(text: str) -> bool:
    """Whether ``text`` holds a name ending in ``++`` or ``#``: a word (``analysis.WORD``)
    that keeps them, so not ``count++``, the word count."""
    return ("+" in text or "#" in text) and any(
        m.group().endswith(("+", "#")) for m in WORD.finditer(text))


def spell_symbols(text: str) -> str:
    """``C++`` → ``C plus plus``, ``C#`` → ``C sharp``: the symbols as words, so keys and
    slugs made of words keep them. Only a word's own (``has_symbols``): ``count++`` is left
    as it is."""
    return WORD.sub(_spelled, text) if has_symbols(text) else text


def _spelled(match: re.Match[str]) -> str:
    word = match.group()
    end = "++" if word.endswith("++") else "#" if word.endswith("#") else ""
    return word[:-len(end)] + _SPELLED[end] if end else word


@lru_cache(maxsize=200_000)
def term_stem(word: str) -> str:
    """The stem of a lower-case word (``analysis.stem``, which reads a British spelling as
    the American one): the key the matcher's trie and its look-ups use, so "colour" in a
    text is a mention of the glossary's "color"."""
    return stem(word)


def term_anchor(name: str) -> str:
    """A term's id on ``/glossary`` when the glossary gives none: ``KV cache`` → ``kv-cache``,
    ``C++`` → ``c-plus-plus``, ``C#`` → ``c-sharp``."""
    return slugify(spell_symbols(name))


def term_key(text: str) -> str:
    """What two spellings of one term share: lower-case words, the last one singular, in
    American spelling (``analysis.american``: tokenisation, colour), and the symbols that end a
    name spelled out (``spell_symbols``).

    Lighter than stemming on purpose: Snowball gives "token", "tokenizer" and "tokenization"
    one stem, and they are three terms.
    """
    found = [american(w) for w in words(spell_symbols(text))]  # colour: color
    if found:
        last = found[-1]
        if last.endswith("ies") and len(last) > 4:
            last = found[-1] = last[:-3] + "y"
        elif last.endswith("es") and last[:-2].endswith(("s", "x", "z", "ch", "sh")):
            last = found[-1] = last[:-2]
        elif last.endswith("s") and not last.endswith(("ss", "us", "is")) and len(last) > 3:
            last = found[-1] = last[:-1]
        if last.endswith("e") and last[:-1].endswith(("s", "x", "z", "ch", "sh")):
            found[-1] = last[:-1]  # "cache" and "caches" (like "match", "matches") share "cach"
    return " ".join(found)


def abbreviation_core(surface: str) -> str | None:
    """The capital core of ``RAG``, ``LLMs`` or ``KV's``; None for ordinary words."""
    core = _APOSTROPHE_S.sub("", surface)
    if len(core) > 2 and core.endswith("s") and core[:-1].isupper():
        core = core[:-1]
    if 1 <= len(core) <= 5 and core.isupper() and core[0].isalpha():
        return core.lower()
    return None


_ENDINGS = {"": "", "s": "s", "es": "s", "'s": "'s", "'": "'s", "ed": "ed", "d": "ed",
            "ing": "ing"}
"""Each inflectional ending → its kind: plural or third person, possessive, past, -ing."""


def _ending(word: str, base: str) -> str | None:
    """The kind of inflectional ending that makes ``word`` of ``base`` (``_ENDINGS``), or
    None. Allows for Snowball's y→i and back (queries/queri, queries/query), a dropped final
    e (making/make), -ie made -y before -ing (tying/tie, lying/lie) and a doubled consonant
    (overfitting)."""
    roots = {base, base[:-1] if base.endswith("e") else base}
    if base.endswith("ie"):
        roots.add(base[:-2] + "y")
    if base.endswith("i"):
        roots.add(base[:-1] + "y")
    elif base.endswith("y"):
        roots.add(base[:-1] + "i")
    for root in roots:
        if root and word.startswith(root):
            rest = word[len(root):]
            if rest in _ENDINGS:
                return _ENDINGS[rest]
            if rest[:1] == root[-1:] and rest[1:] in ("ing", "ed"):
                return rest[1:]
    return None


def writes_term_word(word: str, term_word: str, verb: bool = True,
                     noun: bool = False) -> bool:
    """Whether ``word`` in a text is ``term_word`` in another form, not a derivation that
    merely shares its stem ("transformed" for "transformer", "embedded" for "embedding").

    It is when it adds an inflectional ending to the term word ("heads" for "head",
    "computed" for "compute"), but only -s or 's when ``noun``, a term word the glossary
    names a thing with (``term_verbs.noun_words``): its -ed and -ing forms are the
    participles of a verb spelled like it, another part of speech ("typing" is no type,
    "weighted" no weight, "a function called main" no function call); when it is the
    singular or another noun form of a plural or possessive term word ("head" for
    "heads"); or, when ``verb`` (the course writes the verb of a term word in -ing as a
    verb: ``term_verbs``), when it is that verb, bare or with -s ("overfits" for
    "overfitting"), but not its participles: an embedded image is no embedding. Without
    ``verb`` the bare word is some other thing's name: a cup is no cupping.
    """
    word, term_word = american(word), american(term_word)  # "tokenisers", "colours"
    kind = _ending(word, term_word)
    if kind is not None:
        return not (noun and kind in ("ed", "ing"))
    for base in {stem(term_word), *(term_word[:-len(end)] for end in _ENDINGS
                                    if end and term_word.endswith(end))}:
        kind = _ending(term_word, base)
        if kind in ("s", "'s"):
            if _ending(word, base) in ("", "s", "'s"):
                return True
        elif kind == "ing" and verb and _ending(word, base) in ("", "s"):
            return True
    return False


def ing_verbs(term_word: str) -> tuple[str, ...]:
    """The verbs a term word in -ing may be made of, whose bare word and -s form
    ``writes_term_word`` takes for it: "cupping" → cupp, cuppe, cup; "quoting" → quot,
    quote; nothing for a word not in -ing, or with less than three letters before it
    ("thing"). Which of them is a verb the course's text tells (``term_verbs``)."""
    word = american(term_word)
    if not word.endswith("ing") or len(word) < 6:
        return ()
    left = word[:-3]
    found = [left, left + "e"]
    if len(left) > 3 and left[-1] == left[-2]:
        found.append(left[:-1])
    return tuple(found)


_WORDS_OF_THEIR_OWN = frozenset("news seed feed weed need deed heed reed tweed".split())
"""Words spelled as a shorter word's -s or -d form, and that Snowball stems apart from it,
that are words of their own: no "see" is seed, nor "new" news (``stemmed_apart``)."""


@lru_cache(maxsize=100_000)
def stemmed_apart(word: str) -> tuple[str, ...]:
    """The stems of the forms of ``word`` (lower case) that Snowball stems apart from the word
    itself: "tru" of true (trued, truing), "queu" of queue, "alias" of alias (whose own
    stem is "alia": aliases), "ad" of add (added), "referenc" of reference, "menus" of
    menu. The term matcher keys a term word under these too, so those forms meet it;
    whether a text word with such a stem is the term word in another form
    ``writes_term_word`` says, as for any word with its stem.

    Only the forms whose stem may differ are stemmed (``_spelled_forms``): a matcher is
    made for every build. Not a form Snowball keeps whole as a word of its own ("inning",
    "outing"), nor ``_WORDS_OF_THEIR_OWN``, nor one whose stem is shorter than either word
    but for its last letter, where Snowball cut a suffix after the ending; nor any of a
    word with no vowel, an abbreviation written in lower case ("http" is no "https")."""
    if not any(letter in word for letter in _VOWELS + "y"):
        return ()
    own = term_stem(word)
    found: dict[str, None] = {}
    for form in _spelled_forms(american(word)):
        key = term_stem(form)
        if (key == own or form in _WORDS_OF_THEIR_OWN or key == form and form.endswith("ing")
                or not key.startswith(min(word, form, key=len)[:-1])):
            continue
        found.setdefault(key)
    return tuple(found)


def _spelled_forms(word: str) -> list[str]:
    """The forms of ``word`` that Snowball may stem apart from it (``stemmed_apart``), as
    English spells them: the -d and -ing of a word in -e (trued, truing; the e kept after
    e, o or y: freeing, hoeing, dyeing; -ie is Snowball's own: tying); the -ed and -ing
    of one that ends in a doubled consonant (added, stuffed), which Snowball cuts to one;
    the -es of a word in -s (aliases, lenses) and its singular; the -s of a word ending
    in any other vowel (menus); and the verbs a word in -ing may be made of (adding:
    add). Any other word's forms share its stem, or are another word's: "cared" is care's,
    not car's, "called" call's, not cal's."""
    last = word[-1:]
    if last == "e" and not word.endswith("ie"):
        return [word + "d", word + "ing" if word.endswith(("ee", "oe", "ye"))
                else word[:-1] + "ing"]
    if len(word) > 2 and last == word[-2] and last not in _VOWELS + "sz":
        return [word + "ed", word + "ing"]
    if last == "s" and not word.endswith("ss"):
        forms = [third_person(word)]
        if len(word) > 3:  # the singulars ``term_key`` reads
            forms.append(word[:-1])
            if word[:-2].endswith(("s", "x", "z", "ch", "sh")):
                forms.append(word[:-2])
        return forms
    if last in _VOWELS:
        return [word + "s"]
    return list(ing_verbs(word))


_VOWELS = "aeiou"


@lru_cache(maxsize=100_000)
def text_keys(surface: str) -> tuple[str, ...]:
    """Every trie key a word of the text can follow: its stem, and its case-marked forms."""
    plain = term_stem(normalize(surface))
    core = abbreviation_core(surface)
    if core is not None:
        return (plain, CAPS + core, TITLE + plain)
    if surface[:1].isupper():
        return (plain, TITLE + plain)
    return (plain,)


def inflections(word: str) -> tuple[str, ...]:
    """The other forms ``word`` (lower case) may be written in that ``writes_term_word``
    could take for it: -s or -es, -ed, -ing (its last letter doubled, or its e dropped), the
    singular of a plural, and the verb, bare or with -s, of a word in -ing. Which of them
    the course writes, and which the term matcher takes for the term, the caller asks."""
    found = dict.fromkeys(verb_forms(word))
    if word.endswith("s"):
        found.update(dict.fromkeys((word[:-1], word[:-2], word[:-3] + "y")))
    for verb in ing_verbs(word):
        found.update(dict.fromkeys((verb, third_person(verb))))
    return tuple(form for form in found if form != word and len(form) > 1)


def derived_together(word: str, other: str) -> bool:
    """Whether ``word`` and ``other`` (lower case), two words of one term's names, are one
    word's derivations with a stem in common, not one word in two forms: "collimate" and
    "collimation", "overfit" and "overfitting", "cache" and "caching"; not "weight" and
    "weights", "colour" and "color"."""
    word, other = american(word), american(other)
    if word == other or stem(word) != stem(other):
        return False
    return (_ending(other, word) not in ("", "s", "'s")
            and _ending(word, other) not in ("", "s", "'s"))
