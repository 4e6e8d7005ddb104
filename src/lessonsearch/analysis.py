"""How text becomes searchable words: one tokenizer and one stemmer for the whole product.

The index, the query parser and the glossary's mention finder all go through these
functions, so a word the index stored is a word a query or a term can match.

Whoosh's own tokenizer keeps ``numpy.mean`` and ``data_file`` whole and its stemmer
under-stems ("calculated" vs "calculation"); here identifiers split at ``.`` and ``_``
and NLTK's Snowball stemmer (pure code, no data files) does the stemming.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .nltk_parts import SnowballStemmer

_PLUS = r"\+\+(?![^\W\d_]|[+#])"
_SHARP = r"#(?![^\W_]|[+#])"
NAME_SYMBOLS = re.compile(rf"(?<=[^\W_])(?:{_PLUS}|{_SHARP})")
"""The symbols that end some programming languages' names (C++, C#, F#, Notepad++), where
they may: after a letter or digit, and before no letter and no other such symbol. Not
``x#y``, ``#tag`` or ``page.html#part``; a number may follow a ``++`` (``C++11`` is C++ and
11), not a ``#``. Whether a word keeps them is ``WORD``'s to say."""

_REST = r"(?:['’][^\W_]++)*+"
WORD = re.compile(rf"[a-z\d](?:[^\W_]++{_REST}(?:{_SHARP})?+|{_REST}(?:{_PLUS}|{_SHARP})?+)"
                  rf"|[^\W_]++{_REST}(?:{_PLUS}|{_SHARP})?+")
"""A run of letters and digits; an inner apostrophe (don't, model’s) stays in the word, and
so does the ``#`` or ``++`` that ends a name (``NAME_SYMBOLS``): C, C++ and C# are three
words, and a search for C finds no section that only says C++ or C#.

A ``++`` after a word that begins with a lower-case ASCII letter or a digit and is longer
than one character is an increment in code, not a name: ``count++`` is the word count,
while ``C++``, ``g++`` and ``Notepad++`` keep it. So the case a word is written in decides,
and the index, the query and the glossary split a text into words before lower-casing it.

Possessive (``++``, ``*+``): a word never gives back letters, so the matches are those of
the plain greedy pattern, and the engine keeps no backtracking state: a third faster over
a course's text (bench/README.md). A word's first character is matched before the two
ways part, not looked ahead at: with a lookahead, the sample course's text took 11 ms
where it takes about 7 (with and without the increment rule, on a loaded machine)."""

_APART = bytes(c if c >= 128 or chr(c).isalnum() or chr(c) in "'+#" else ord(" ")
               for c in range(256))
"""Every ASCII character that can be no part of a word, as a space."""


def find_words(text: str) -> list[str]:
    """``WORD.findall(text)``, two to three times faster on ASCII text (most sections of a
    real course; bench/README.md): every character no word holds becomes a space, in C,
    and ``split`` cuts there. Only a piece holding an apostrophe, ``+`` or ``#`` needs the
    pattern, to drop what does not sit inside a word or end a name. Other text goes to
    ``WORD``."""
    if not text.isascii():
        return WORD.findall(text)
    found = text.encode().translate(_APART).decode().split()
    if "'" not in text and "+" not in text and "#" not in text:
        return found
    return [word for piece in found
            for word in ((piece,) if piece.isalnum() else WORD.findall(piece))]


_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "‐": "-", "‑": "-", "–": "-"})

_stemmer = SnowballStemmer("english")


def normalize(text: str) -> str:
    """Curly quotes and typographic hyphens to their ASCII forms, lower case."""
    return text.translate(_QUOTES).lower()


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """Snowball stem of one lower-case word (``calculated``/``calculation`` → ``calcul``); for a
    word made with -ize or -ise, the stem its family shares (``tokenizer``, ``tokenisation``
    → ``tokeniz``: ``made_from``). A British spelling is stemmed as the American one
    (``analysed`` and ``analyzed`` → ``analyz``, ``favoured`` and ``favored`` → ``favor``:
    ``american``)."""
    word = american(_unpossessed(word))
    if (apart := KEPT_APART.get(word) or KEPT_TOGETHER.get(word)) is not None:
        return apart
    at = _ize_at(word)
    return word[:at] + "iz" if at is not None else _stemmer.stem(word)


KEPT_APART = {
    **dict.fromkeys(("important", "importance", "importantly", "unimportant"), "importan"),
    **dict.fromkeys(("probably", "probable"), "probabli"),
    **dict.fromkeys(("experience", "experiences", "experienced", "experiencing"), "experienc"),
    **dict.fromkeys(("university", "universities"), "universiti"),
    **dict.fromkeys(("universal", "universally"), "universal"),
    **dict.fromkeys(("busy", "busier", "busiest"), "busy"),
    **dict.fromkeys(("informal", "informally"), "informal"),
    **dict.fromkeys(("executive", "executives"), "executiv"),
    **dict.fromkeys(("integral", "integrals"), "integral"),
    **dict.fromkeys(("designate", "designates", "designated", "designating", "designation"),
                    "designat"),
}
"""Everyday words Snowball gives a technical word's stem, each family with a stem of its own
(as a search engine's stemmer override does): "important" was found by a search for
``import`` (its eighth hit in a Python lesson), "probably" for probability, "experience" for
experiment, "university" for universe, "busy" for business, "informal" for information,
"executive" for execute, "integral" for integrate, "designate" for design. Snowball cannot
tell them apart: it cuts suffixes by rule, and these are the rule's known casualties that
a programming or machine-learning course writes."""

KEPT_TOGETHER = dict.fromkeys(("embed", "embeds"), "embed")
"""Words Snowball cuts off their own family, given its stem: it reads the "-ed" of "embed" as
a past tense ("emb"), while "embedded", "embedding" and "embeddings" are "embed", so a
search for ``embed`` found the one section that calls ``embed(question)`` and not the lesson
on embeddings."""


@lru_cache(maxsize=20_000)
def made_from(word: str) -> tuple[str, ...]:
    """For a word made with -ize or -ise, the stems the word it was made from may have: that
    of what comes before the -ize (``tokenizer`` → ``token``, ``normalisation`` → ``normal``,
    ``containerize`` → ``contain``, as "container" is stemmed), and, when that ends in a
    consonant, that of it with -y (``summarize`` → ``summari``, the stem of "summary";
    ``categorize``, ``memorize``, ``prioritize``, ``emphasize``: "emphasis" is stemmed as
    "emphasy" is). Empty for other words.

    Snowball cuts -ize, -izer and -ization back to that word, and in a course on machine
    learning it is often another term: tokenizer and token, normalization and normal (a
    normal distribution), regularization and regular (a regular expression). So the family
    has a stem of its own (``stem``), and the index counts its words for the word they were
    made from at a fraction of their weight (``whoosh_index.FAMILY_WEIGHT``): "token" finds
    the sections on tokenizers after those on tokens, "tokenizer" only tokenizers.

    Without a dictionary, nothing tells "summar-ize" (summary) from "regular-ize" (regular):
    a word is counted for both readings. The reading that is no word ("summar", "regulari")
    is a stem no word of a query has. Snowball's stem of the part before the -ize, not of the
    whole -ize word, is the base word's: it drops a final e (pressurize, pressure) and a
    doubled l (crystallize, crystal) as the base word's stem does, and it cuts a short word
    ("realize", "theorize") that Snowball leaves whole with its -ize.
    """
    word = american(_unpossessed(word))  # colourise: color
    at = _ize_at(word)
    if at is None:
        return ()
    before = word[:at]
    found = [_stemmer.stem(before)]
    if before[-1] not in "aeiouy":
        found.append(_stemmer.stem(before + "y"))
    return tuple(dict.fromkeys(found))


def verb_of(word: str) -> tuple[str, ...]:
    """For a noun made from a verb with -ion that Snowball stems apart from its verb, the
    verb's stem (``repetition`` → ``repeat``, ``definitions`` → ``defin``, ``decision`` →
    ``decid``, ``explanation`` → ``explain``); empty for any other word, and for one that
    already shares its verb's stem ("calculation", "prediction"). A search for either word
    also finds the sections that write the other, at a fraction of their score
    (``query_plan.plan``). Unlike an -ize word's base, the index does not count the noun for
    its verb: a posting's weight, not its score, would be cut, and the short "Solution"
    sections of a programming course's exercises, each headed by the noun, came before the
    one section that writes "solve" (bench/README.md)."""
    low = american(_unpossessed(word))
    return _verb_of(low) if low.endswith(_ION) and _ize_at(low) is None else ()


_ION = ("ion", "ions")

_ION_RULES = (
    ("osition", "osit", "os"),  # composition, opposition, proposition, disposition: -pose
    ("finition", "finit", "fin"),  # definition, redefinition: define
    ("ission", "iss", "it"),  # permission, submission, transmission, omission: -mit
    ("rsion", "rs", "rt"),  # conversion, inversion, diversion, reversion: -vert
    ("asion", "as", "ad"),  # invasion, persuasion, evasion: -ade
    ("ision", "is", "id"),  # decision, division, collision, provision: -ide
    ("osion", "os", "od"),  # explosion, erosion, corrosion: -ode
    ("usion", "us", "ud"),  # conclusion, inclusion, exclusion, intrusion: -ude
    ("nsion", "ns", "nd"),  # expansion, extension, suspension, comprehension: -nd
    ("amation", "am", "aim"),  # exclamation, proclamation, reclamation: -aim
    ("anation", "an", "ain"),  # explanation: explain
    ("scription", "script", "scrib"),  # description, subscription, prescription: -scribe
    ("umption", "umpt", "um"),  # assumption, consumption, resumption: -ume
    ("duction", "duct", "duc"),  # reduction, production, introduction: -duce
    ("olution", "olut", "olv"),  # solution, resolution, evolution, convolution: -olve
    ("ception", "cept", "ceiv"),  # reception, perception, deception: -ceive
    ("ification", "if", "ifi"),  # classification, specification, modification: -ify
)
"""How an -ion noun's Snowball stem ends (after the word's own ending) → how its verb's does,
each rule checked against an English word list: of the 1,408 -ion nouns of an American
English word list, they join 170 to the stem of a word the list holds, 3 of them wrongly
(incision: incident, conduction: conduce, revolution: revolve), and 20 of the 149 of the
Carpentries lessons, none wrongly (``bench/ion_families.py``, bench/README.md).
Left out: a stem that keeps -ion, cut off ("nation": nat, "station": stat, "mission": miss,
"question": quest; 8 joins right of 62), -ition cut off but for the -pose and -fine
families above (7 wrong of 26: "partition": part, "petition": pet, "coalition": coal,
"edition": ed), -ication as -y (4 wrong of 7: "replication": reply, "complication": comply),
and -ention as -end (4 joins of 38 nouns, and "attention", a term of its own in a course on
language models, would count for "attend")."""

_ION_VERBS = {
    "osition": ("pos",), "finition": ("defin",), "rsion": ("vert",),
    "ission": ("rmit", "bmit", "smit", "omit", "dmit", "mmit"),
    "asion": ("vad", "suad"), "ision": ("cid", "vid", "llid"), "osion": ("plod", "rod"),
    "usion": ("clud", "trud", "llud", "lud"), "nsion": ("pand", "xtend", "hend", "spend"),
    "amation": ("xclaim", "oclaim", "eclaim"), "anation": ("plain",), "scription": ("scrib",),
    "umption": ("sum",), "duction": ("duc",), "olution": ("solv", "volv"),
    "ception": ("ceiv",), "ification": ("ifi",),
}
"""How a verb's stem ends for ``ion_nouns`` to make its -ion noun by a rule of
``_ION_RULES`` (by the noun's ending): as its examples' verbs do. The rules read a noun the
course writes, which is a word; made the other way, from any verb, they made words no one
writes ("depend": depension, "remain": remanation, "limit": limission, "recite": recission,
"report": reporsion), and "recession" was corrected to one."""

_ION_MIN = 4
"""The fewest letters a verb's stem found by ``_ION_RULES`` has: "position" is not made from
a "pos" (the part-of-speech tag a course on language writes)."""

_ION_WORDS = {"repetit": "repeat", "addit": "add", "competit": "compet"}
"""-ion nouns that no rule joins to their verb, by their stem: repetition, addition and
competition (-ition cut off for any stem joins 7 of 26 wrongly)."""


def _verb_of(word: str) -> tuple[str, ...]:
    """``verb_of`` for a lower-case American-spelt word ending in -ion(s), not made with -ize."""
    noun = stem(word)
    if noun in _ION_WORDS:
        return (_ION_WORDS[noun],)
    bare = word[:-1] if word.endswith("s") else word
    for ending, stem_ending, verb_ending in _ION_RULES:
        if bare.endswith(ending) and noun.endswith(stem_ending):
            verb = noun[:len(noun) - len(stem_ending)] + verb_ending
            return (verb,) if len(verb) >= _ION_MIN else ()
    return ()


def ion_nouns(verb: str) -> tuple[str, ...]:
    """The -ion nouns (singular and plural) that ``verb_of`` takes to the stem ``verb``, as
    its rules would spell them: ``decid`` → decision(s), ``explain`` → explanation(s),
    ``repeat`` → repetition(s); each is checked back through ``verb_of``. Only for a verb
    that ends as those of the rule's examples do (``_ION_VERBS``): "edit" is no "edission",
    nor "depend" "depension". Still made by rules, not read from a course: what takes a
    reader's word to one asks more of it (``Searcher._family_noun``: one slip)."""
    found = [noun for noun, verb_stem in _ION_WORDS.items() if verb_stem == verb]
    found = [f"{noun}ion" for noun in found]
    for ending, stem_ending, verb_ending in _ION_RULES:
        if verb.endswith(_ION_VERBS[ending]) and len(verb) >= _ION_MIN:
            found.append(verb[:len(verb) - len(verb_ending)] + stem_ending
                         + ending[len(stem_ending):])
    nouns = [noun for noun in dict.fromkeys(found) if verb_of(noun) == (verb,)]
    return tuple(form for noun in nouns for form in (noun, noun + "s"))


def american(word: str) -> str:
    """A lower-case ``word`` in its American spelling, any other word as it is: a British
    -ise spelled -ize (``tokenisation`` → ``tokenization``) and -yse -yze (``analysed``,
    ``paralyse``, ``catalyser``), for any word made so; and, for the words of short lists,
    -our spelled -or (``favoured`` → ``favored``, ``neighbourhood``), -re -er (``centred`` →
    ``centered``, ``kilometres``), a doubled l before an ending single (``labelling`` →
    ``labeling``, ``modeller``), -ogue -og (``catalogues``), -ence -ense (``defences``),
    and a few words of their own (``artefact``, ``grey``, ``sceptical``: ``_WORDS``).

    Snowball knows only the American spellings, and stems the British ones apart
    ("behaviour" and "behavior", "labelling" and "label"): with this, ``stem``, the index,
    the spelling suggestions and the glossary's look-ups and mentions (``term_forms``) take
    both spellings as one word, and a search for ``favor`` finds the course's "favoured".

    Beside -ise and -yse, each is one word family at a time, from a short list, not a rule:
    a rule would make other words one. -our→-or would make "four" "for" and "tour" "tor";
    -re→-er "acre" the maple "acer" and "genre" "gener"; one l for two "filling" "filing"
    and "tilled" "tiled"; -ogue→-og "rogue" "rog". A word not listed keeps its spellings
    apart, as before.

    Cheap, as it reads every distinct word of every build: each list is asked only when
    the word holds the letters all its words do (``"our" in word``), a test in C, and is
    searched before it substitutes. About half a microsecond a word, where Snowball takes
    ten (bench/README.md)."""
    at = _ize_at(word)
    if at is not None:
        if word[at + 1] != "z":
            word = word[:at + 1] + "z" + word[at + 2:]
    elif "lys" in word and (found := _LYSE.search(word)) is not None:
        word = word[:found.start()] + "z" + word[found.start() + 1:]
    if "our" in word and _OUR.search(word):
        word = _OUR.sub(_or, word)
    if ("re" in word or "ring" in word) and _RE.search(word):
        word = _RE.sub(_er, word)
    if "ll" in word and _LL.search(word):
        word = _LL.sub(_l, word)
    if "ogu" in word and _OGUE.search(word):
        word = _OGUE.sub(_og, word)
    if "enc" in word and _ENCE.search(word):
        word = _ENCE.sub(_ense, word)
    if "practis" in word:  # the British verb: practised, practising
        word = word.replace("practis", "practic")
    if word[:4] in _WORD_HEADS:
        for start, spelt in _WORDS.items():
            if word.startswith(start):
                return spelt + word[len(start):]
    return word


_OUR = re.compile(r"(arbo|ardo|armo|behavio|cando|clamo|colo|demeano|endeavo|favo|fervo|flavo"
                  r"|harbo|hono|humo|labo|neighbo|odo|parlo|ranco|rigo|rumo|savio|savo"
                  r"|splendo|succo|tumo|valo|vapo|vigo)ur")
"""-our: colour(ful), behaviour(al), favour(ite), labourer, honourable, neighbourhood,
(mis)demeanour, saviour, vapourware. Not four, hour, your, our, tour, pour, flour, sour,
detour, contour, devour, velour or troubadour, which American spells so too, nor glamour."""

_RE = re.compile(r"(calib|cent|fib|lit|lust|meag|met|och|sab|scept|somb|spect|theat)"
                 r"(re(?=d$)|r(?=ing$)|re)")
"""-re: centre(s), centred, centring, epicentre, centrepiece, fibre(glass), litre,
(kilo)metre, theatre, spectre, calibre, lustre, meagre, ochre, sabre, sceptre, sombre. Not
acre, genre, mediocre, ogre, massacre, lucre or macabre, which American spells so too."""

_LL = re.compile(r"(barrel|bevel|cancel|channel|chisel|counsel|dial|duel|enamel|equal|fuel"
                 r"|funnel|gravel|grovel|initial|jewel|kennel|label|level|libel|marshal|marvel"
                 r"|medal|model|panel|parcel|pedal|pencil|quarrel|ravel|revel|rival|shovel"
                 r"|signal|snorkel|spiral|swivel|total|towel|travel|tunnel|yodel)"
                 r"l(?=(?:ings?|ed|ers?|ors?|ists?|ous)$)")
"""A doubled l before an ending: modelling, (un)labelled, traveller(s), cancelled,
signalling, counsellor, medallist, marvellous. Not cancellation or medallion, which American
doubles too, nor filled, called or controlled, whose l is doubled in both."""

_OGUE = re.compile(r"(analog|catalog|dialog|epilog|homolog|monolog|ortholog|paralog|travelog)"
                   r"(ues?$|u(?=e[dr]s?$|ing$))")
"""-ogue: catalogue(s), catalogued, cataloguing, dialogue, analogue. Not prologue, which
would be Prolog, the language, nor rogue, vogue or synagogue."""

_ENCE = re.compile(r"(defen|licen|offen|preten)c(?=e)")
"""-ence: licence(s), licenced, defence(less), offence, pretence. (And -ise: the verb
practise, practised, practising, which American spells as the noun, practice.)"""

_WORDS = {"artefact": "artifact", "aluminium": "aluminum", "sceptic": "skeptic",
          "grey": "gray", "mould": "mold", "plough": "plow", "judgement": "judgment",
          "acknowledgement": "acknowledgment", "skilful": "skillful"}
"""Words spelt otherwise, and the words that begin with them: artefact(s), aluminium,
sceptic(al, ism), grey(s, ed, scale), mould(ed, ing, y), plough(ed), judgement(s),
acknowledgement(s), skilful(ly). Not tyre, kerb, storey, draught, cheque or programme,
whose American spelling is another word in British too (a tire, a curb, a story, a
draft, a check, a computer program)."""
_WORD_HEADS = frozenset(start[:4] for start in _WORDS)
"""The first four letters of ``_WORDS``' words: most words are ruled out by one look-up."""


def _or(match: re.Match[str]) -> str:
    """colour → color (a function: a template such as ``\\1r`` is expanded in Python at
    each substitution)."""
    return match.group(1) + "r"


def _l(match: re.Match[str]) -> str:
    """labelled → labeled."""
    return match.group(1)


def _ense(match: re.Match[str]) -> str:
    """defence → defense."""
    return match.group(1) + "s"


def _er(match: re.Match[str]) -> str:
    """centre → center, centred → centered, centring → centering."""
    before_d = match.group(2) == "re" and match.string[match.end():] == "d"
    return match.group(1) + ("ere" if before_d else "er")


def _og(match: re.Match[str]) -> str:
    """catalogue → catalog, catalogues → catalogs, catalogued → cataloged."""
    return match.group(1) + ("s" if match.group(2) == "ues" else "")


def _unpossessed(word: str) -> str:
    word = word.replace("’", "'")
    return word[:-2] if word.endswith("'s") else word


_IZE = re.compile(r"i[sz](?=(?:e[sdr]?|ers|ing|ingly|ements?|ations?|ational|able|ably)$)")
"""The -iz- or -is- of a verb made with -ize or -ise and of the words made from it: tokenize,
tokenizes, tokenized, tokenizer(s), tokenizing, tokenization(s), tokenizable; -ise alike."""

_NOT_IZE = ("w", "adv", "dev", "rev", "improv", "superv", "telev", "prec", "conc", "exc", "inc",
            "circumc", "exerc", "dem", "prem", "prom", "surm", "pr", "sunr", "desp", "pract",
            "advert", "chast", "expert", "treat", "franch", "merchand", "parad")
"""How the words end that merely end in -ise or -ize, cut before it: (other)wise, (pair)wise;
advise, devise, revise, improvise, supervise, televise; precise, concise, excise, incise,
circumcise, exercise; demise, premise, (com)promise, surmise; prize, (sur)prise, enterprise,
comprise; sunrise; despise; practise; advertise, chastise, expertise, treatise; franchise;
merchandise; paradise. Rise, size and wise leave too short a word, noise, raise, praise,
cruise, (dis)guise and seize one ending in a vowel: ``_ize_at`` refuses those without a
list, but for ``_VOWEL_IZE``."""

_VOWEL_IZE = ("memo",)
"""How the words end, cut before it, that are made with -ize after a vowel: memoize (and
memoise, memoisation), which the glossary and the search read as one word."""

_LYSE = re.compile(r"(?<=ly)s(?=(?:e[sdr]?|ers|ing|able)$)")
"""The s of a British -lyse verb and the words made from it (analyse, analyses, analysed,
analyser(s), analysing, analysable; paralyse, catalyse, hydrolyse), which American spells
with z. "Analyses" is also the plural of analysis: as the verb's, it meets "analyzes"."""


def _ize_at(word: str) -> int | None:
    """Where the -ize or -ise of a word made with it begins (``_IZE``), or None."""
    found = _IZE.search(word)
    if found is None:
        return None
    at = found.start()
    if (at < 3 or word[at - 1] in "aeiou" and not word[:at].endswith(_VOWEL_IZE)
            or word[:at].endswith(_NOT_IZE)):
        return None
    return at


def words(text: str) -> list[str]:
    """The lower-case words of ``text``, in order; found before lower-casing, as the index
    finds them (``WORD``: ``Count++`` is one word, ``count++`` the word count), and lowered
    as it lowers them (``lowered``: ``LLMs`` is the word llm)."""
    return [lowered(word) for word in find_words(text.translate(_QUOTES))]


def lowered(word: str) -> str:
    """One word as ``find_words`` finds it, in lower case, as the index, a query and a
    snippet read it; an acronym's plural, written in capitals with a lower-case s (``LLMs``,
    ``GPUs``, ``APIs``, ``URLs``, ``IDs``, ``MP3s``), as its singular (``llm``).

    Snowball cannot tell these from a word: it keeps the s of "llms" (no vowel before it)
    and of "gpus" and "apis" (a vowel right before it, as in "bus" and "alias"), so a
    search for LLMs found nothing in a lesson that writes LLM. In lower case the form is no
    evidence: "https", "dns", "gps" and "cms" are acronyms that end in S, not plurals, and
    "bus", "gas", "yes" and "this" are words. Written, it is: a word of two capitals or more
    and a lower-case s. HTTPS, DNS and CMS (all capitals), Ms and Is (one capital), iOS and
    PhDs (not capitals) are read as they are; so is "LLM's", whose 's ``stem`` drops."""
    if (len(word) > 2 and word[-1] == "s" and word[0].isalpha() and word[:-1].isalnum()
            and word[:-1].isupper()):
        return word[:-1].lower()
    return word.lower()


def typed_name(text: str) -> str | None:
    """For one word a reader typed in lower case with a ``++`` (``notepad++``, ``count++``),
    the name it may also be (``notepad++``): ``WORD`` reads it as an increment, the word
    notepad, as the index reads a lesson's ``count++``, but readers type names in lower case
    too. None for any other text, ``Notepad++`` and ``c++`` among them."""
    if not text.endswith("++"):
        return None
    found = words(text)
    name = found[0] + "++" if len(found) == 1 else None
    return name if name is not None and normalize(text) == name else None


def stems(text: str) -> list[str]:
    return [stem(w) for w in words(text)]


STOP_WORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just let me more most my myself no nor not of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself
    yourselves whats hows whys""".split()
)
"""English function words plus the question scaffolding ("how do I", "what does … mean")
that carries no topic. Used on queries, never to drop words from the index, so phrase
search stays exact."""


def leans_on_companions(parts: list[str]) -> bool:
    """Whether a word of several ``parts`` is one part with a topic beside single letters
    ("p-value", "x-ray", "t-test"): that part alone is not what was asked (a p-value is no
    value of attention), so the word is neither searched as it nor names a term it is. A
    number beside it is no such letter ("gpt-5" is still gpt), nor is a stop word
    ("in-context" is still about context)."""
    topical = {p for p in parts if not (p in STOP_WORDS or p.isdigit() or len(p) < 2)}
    return len(topical) == 1 and any(len(p) < 2 and not p.isdigit() for p in parts)
