"""The query language readers type, parsed into a small tree that never fails.

``temperature sampling`` (every word), ``"attention mask"`` (a phrase), ``cache OR memory``,
``NOT`` / ``-word`` to exclude, parentheses to group; but a command's flag the course writes
so (``ss -tlnp``, ``ping -c 4``) is text, not an exclusion (``flags_as_written``). Operators
are upper case, so "not" and "or" in a question stay words, and so do operators with no other
word to act on (``OR``, ``AND``, ``NOT NOT``). Anything malformed (an unclosed quote or
bracket, a dangling operator) degrades to plain words instead of an error.

Nothing else is syntax. Other engines' fuzzy, boost, wildcard and range marks (``x~2``,
``x^2``, ``x*``, ``[a TO b]``) are punctuation between words here, as a comma is:
``softmax~2`` searches the words softmax and 2. A field prefix (``title:``) is dropped.

A query of more than ``MAX_ATOMS`` words and phrases is searched for its first ``MAX_ATOMS``,
saying so (``left_out``); one of more than ``MAX_PHRASES`` different phrases in quotes among
them is refused (``too_large``), and a word of several parts once that many phrases are
searched is searched as its parts.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .analysis import NAME_SYMBOLS, words

MAX_DEPTH = 16
"""Brackets deeper than this only group what is already grouped: their words are read as
the enclosing group's."""
MAX_ATOMS = 64
"""The most words and phrases of a query searched (``left_out``): each part of a word
(``ratio:1`` is two) and each phrase in quotes counts one, as written, repeats included."""
MAX_PHRASES = 8
"""The most different phrases a query searches: more in quotes are refused (``too_large``); a
word of several parts (``key-value``, ``numpy.mean``) is searched as a phrase of them while
fewer are searched, and after that as its parts, each required but not side by side (a
pasted paragraph of prose writes "step-by-step", "set-up", "read-only" …). Each phrase reads
where its words stand in every section that holds them all, most of the course for two
common words; a phrase written again is searched once, and counts once."""
OPERATORS = frozenset({"OR", "AND", "NOT"})


@dataclass(frozen=True, slots=True)
class Word:
    text: str


@dataclass(frozen=True, slots=True)
class Phrase:
    words: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class All:
    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Any:
    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Not:
    item: Node


Node = Word | Phrase | All | Any | Not

_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "«": '"', "»": '"'})
_TOKEN = re.compile(r'[-+]?"[^"]*"?|[-+]?\(|\)|[^\s()"]+')
"""A phrase, a bracket or a word; a phrase or an opening bracket may carry the ``-`` or
``+`` a word may (``-"kv cache"``, ``-(a OR b)``)."""
_PART = re.compile(rf"(?:(?:[\w.\-'’‘‐‑–]|(?<=[^\W_])[@&](?=[^\W_])|(?<=\d)[:/](?=\d))++"
                   rf"(?:{NAME_SYMBOLS.pattern})?+)++")
"""A word inside one token. A name's parts stay together, to be searched as a phrase
(``numpy.mean``, ``data_file``, ``key-value``, ``C++11``, and an ``@`` or ``&`` between
letters or digits: ``pass@1``, ``user@example.org``, ``Q&A``, and a colon or slash between
digits: the ratio ``2:1``, the fraction ``3/4``, as ``1.5`` is; ``don't`` is one word), and so
does the ``++`` or ``#`` that ends a language's name (``C++``, ``C#``:
``analysis.NAME_SYMBOLS``, the index's own rule; ``analysis.WORD`` then reads ``count++``
as count, as the index does); any other punctuation (``ratio:1``, ``input/output``,
``logit^2``) parts words as a space does. Each part counts as an atom, so one long token
cannot grow a huge query."""
_NUMBER = re.compile(r"-[.,]?\d")
"""A minus before a number (``-5``, ``-0.5``, ``-.5``): a negative value, searched as the
number (the index holds its digits), not a word to exclude: ``-5 degrees`` finds the
sections that write 5 degrees, where it excluded them. A second minus before it excludes
the first, as before a word: ``--5`` searches 5, as ``--model`` searches model."""
_FIELD = re.compile(r"(?i)^(?:title|heading|text|body|content|code|lesson|module):")
"""Another engine's field prefix, dropped: ``title:softmax`` searches softmax (a heading
that has it ranks first anyway). Kept as a word, "title" would be a second word to match,
and the relaxed ranking would put a section saying "title" alone among the softmax ones."""


_FLAG = re.compile(r"--?[A-Za-z][\w-]*(?:=[^\s()\"]+)?")
"""A command-line flag, as a whole token: ``-c``, ``-tlnp``, ``--count``, ``--count=4``. Read
as text, not an exclusion, where the word before it is a command the course writes it after
(``flags_as_written``)."""
_COMMAND = re.compile(r"[A-Za-z][\w.+-]*")
"""A word that may name a command a flag follows (``ss``, ``dig``, ``nft``, ``systemd-resolve``):
a plain token, not quoted, bracketed, signed, an operator or a number."""
WritesCommand = Callable[[tuple[str, ...]], bool]
MAX_FLAG_CHECKS = 8
"""The most commands with flags a query looks up in the course (``flags_as_written``), and
the most flags of one minus it tries as text (``flags_quoted``): each look-up reads a
phrase's sections, and a pasted command has a few flags, not dozens. Past them a ``-word``
excludes, as written."""


def flags_as_written(text: str, writes: WritesCommand) -> str:
    """``text`` with each command and the flags after it that the course writes so, side by
    side (``writes``: ``("ss", "-tlnp")``, as typed) made one phrase in quotes: ``ss -tlnp``
    is searched as ``"ss -tlnp"``, ``ping -c 4`` as ``"ping -c" 4``. A reader who pastes a
    command asks for it, and its flag read as ``-word`` excluded the very sections that
    document it. A word to exclude that no section writes after that word with its minus
    (``cache -model``) is still one: the course writes no such flag."""
    tokens = list(_TOKEN.finditer(text.translate(_QUOTES)))
    looked_up: dict[tuple[str, ...], bool] = {}

    def written(typed: tuple[str, ...]) -> bool:
        if typed not in looked_up and len(looked_up) < MAX_FLAG_CHECKS:
            looked_up[typed] = writes(typed)
        return looked_up.get(typed, False)

    pieces: list[str] = []
    done = 0  # the end of the text already copied
    at = 0
    while at < len(tokens):
        run = _command_run(tokens, at, written)
        if len(run) < 2:
            at += 1
            continue
        start, end = run[0].start(), run[-1].end()
        pieces += [text[done:start], '"', " ".join(m.group() for m in run), '"']
        done = end
        at += len(run)
    return "".join(pieces) + text[done:] if pieces else text


_SHORT_FLAG = re.compile(r"-[A-Za-z][\w-]*")
"""A flag of one minus (``-v``, ``-tlnp``), which the query language reads as a word to
exclude; one of two (``--verbose``) is a double negation, searched already."""


def flags_quoted(text: str, writes: Callable[[str], bool]) -> str:
    """``text`` with each flag of one minus outside quotes (``_SHORT_FLAG``) that the course
    writes as a flag (``writes``: "-v") in quotes, searched as written rather than excluded
    (``dhclient enp3s0 "-v"``); ``text`` itself when it has none. What a search that found
    nothing, or not every word, tries: a flag typed after another word than its command's.
    A ``-word`` the course never writes so (``-photos``) still excludes."""
    flags = [m for m in _TOKEN.finditer(text.translate(_QUOTES))
             if _SHORT_FLAG.fullmatch(m.group())][:MAX_FLAG_CHECKS]
    tokens = [m for m in flags if writes(m.group())]
    pieces: list[str] = []
    done = 0
    for token in tokens:
        pieces += [text[done:token.start()], f'"{token.group()}"']
        done = token.end()
    return "".join(pieces) + text[done:]


def _command_run(tokens: list[re.Match[str]], at: int, writes: WritesCommand
                 ) -> list[re.Match[str]]:
    """The command at ``tokens[at]`` and the flags after it that the course writes after it,
    each one more (``ss -t -l``); the command alone when none."""
    first = tokens[at].group()
    if not _COMMAND.fullmatch(first) or first in OPERATORS:
        return []
    run = [tokens[at]]
    for token in tokens[at + 1:]:
        if not _FLAG.fullmatch(token.group()):
            break
        if not writes(tuple(m.group() for m in [*run, token])):
            break
        run.append(token)
    return run


def parse_query(text: str) -> Node | None:
    """The query tree, or None when nothing searchable is left."""
    node = _parsed(text)
    node = _simplify(node) if node is not None else None
    return None if isinstance(node, Not) else node


@dataclass(frozen=True, slots=True)
class LeftOut:
    """The words and phrases after the first ``MAX_ATOMS`` of a query, which are not searched:
    how many it has in all, and how many of those left out were to be excluded (after ``-``
    or ``NOT``: sections with them are not left out now) or were phrases."""

    written: int
    excluded: int = 0
    phrases: int = 0
    error: str | None = None
    """The error a pasted traceback ends with, which alone was searched (``traceback_error``)."""
    searched: int = MAX_ATOMS
    """How many of the words and phrases were searched."""

    @property
    def notice(self) -> str:
        """What the reader is told, above the results: "Searched the first 64 words and
        phrases of 85; the rest were left out.", naming the exclusions and phrases among
        them, whose leaving out changes what is found most. For a traceback, the error
        searched: 'Searched the error the traceback ends with, "NameError"; its other 61
        words were left out.' """
        if self.error is not None:
            return (f'Searched the error the traceback ends with, "{self.error}"; its other '
                    f"{self.written - self.searched} words were left out.")
        among = [f"{self.excluded} to exclude"] if self.excluded else []
        if self.phrases:
            among.append(f"{self.phrases} phrase{'s' if self.phrases > 1 else ''}")
        return (f"Searched the first {MAX_ATOMS} words and phrases of {self.written}; the rest "
                "were left out" + (f", among them {' and '.join(among)}" if among else "") + ".")


def left_out(text: str) -> LeftOut | None:
    """What of ``text`` is not searched, past its first ``MAX_ATOMS`` words and phrases, or
    None when every word is searched."""
    parser = _parser(text)
    parser.or_expr(0)
    if parser.written <= MAX_ATOMS:
        return None
    return LeftOut(parser.written, parser.excluded_out, parser.phrases_out)


_TRACEBACK = re.compile(r"Traceback \(most recent call last\):?")
"""What opens a Python traceback, as the interpreter and Jupyter print it."""
_FRAME = re.compile(r"""File "[^"\n]*", line \d+|File [^\s,]+:\d+|Cell In\s*\[\d*\],? line \d+""")
"""A frame of one: ``File "x.py", line 3``; IPython's ``File ~/x.py:3``, ``Cell In[1], line 1``."""
_EXCEPTION = re.compile(
    r"(?<![\w.])(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Iteration)"
    r"(?=:|\s*$)", re.M)
"""An exception's name that ends its line or opens its message (``KeyError: 'age'``,
``numpy.linalg.LinAlgError: Singular matrix``, ``KeyboardInterrupt``): not one its code
names (``raise ValueError(text)``)."""


def traceback_error(text: str) -> tuple[str, str] | None:
    """The error a pasted Python traceback ends with (its last traceback's, after the last
    frame): the exception's name and its line, name and message ("FileNotFoundError",
    "FileNotFoundError: data.csv not found."); None for a text that is no traceback, or
    whose error cannot be told. A traceback is mostly file paths and lines of the reader's
    own code; the course explains the error at its end. Pasted into a one-line box, its
    lines come joined by spaces: the error then runs to the end of the text."""
    opened = [found.end() for found in _TRACEBACK.finditer(text)]
    if not opened:
        return None
    start = opened[-1]  # chained: "During handling of the above exception, …"
    for frame in _FRAME.finditer(text, start):
        start = frame.end()
    found = _EXCEPTION.search(text, start)
    if found is None:
        return None
    error = " ".join(text[found.start():].split("\n", 1)[0].split())
    return found.group().rsplit(".", 1)[-1], error


def searched_of(text: str, searched: str) -> LeftOut:
    """What of ``text``, a traceback, is left out when only ``searched``, its error or the
    error's name (``traceback_error``), is searched."""
    every, part = _parser(text), _parser(searched)
    every.or_expr(0)
    part.or_expr(0)
    return LeftOut(every.written, error=searched, searched=min(part.written, MAX_ATOMS))


def too_large(text: str) -> str | None:
    """Why ``text`` is more than a search reads, or None: more than ``MAX_PHRASES`` different
    phrases among the words searched (its first ``MAX_ATOMS``). Refused
    (``Searcher.search``) rather than searched in part: each phrase is costly to find."""
    parser = _parser(text)
    parser.or_expr(0)
    if len(parser.quoted) > MAX_PHRASES:
        every = len(parser.quoted | parser.phrases_past)
        return (f"Too many phrases: the query has {every} in quotes, and at most "
                f"{MAX_PHRASES} are searched; leave out some.")
    return None


def only_excludes(text: str) -> bool:
    """Whether ``text`` names words only to exclude them (``-model``, ``NOT a -"b c"``,
    ``-a OR -b``, ``-model -``): nothing is searched for, and a reader who typed it is told
    so rather than shown nothing, or every section without the word."""
    node = _parsed(text)
    return _excludes(node) and not any(words(w) for w in _wanted(node))


def names_words(text: str) -> bool:
    """Whether ``text`` has a word to search for: not punctuation alone (``?``, ``()``,
    ``""``, ``-``), which no course could answer (``Searcher.search`` refuses it), nor words
    it only excludes (``-model``); operators alone are words (``OR``: ``_operators_alone``)."""
    return any(words(w) for w in positive_words(parse_query(text)))


def syntax_used(text: str) -> set[str]:
    """The syntax ``text`` is searched with beyond its words: "phrase" (quotes), "or" and
    "not" (``NOT`` or ``-``), as read (``--model`` is the word model): the search tips that a
    search that found nothing may need."""
    used: set[str] = set()
    stack = [node] if (node := parse_query(text)) is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, Phrase):
            used.add("phrase")
        elif isinstance(node, Not):
            used.add("not")
            stack.append(node.item)
        elif isinstance(node, All | Any):
            if isinstance(node, Any):
                used.add("or")
            stack.extend(node.items)
    return used


def _wanted(node: Node | None) -> list[str]:
    """``positive_words`` of a tree as parsed, before ``_simplify`` drops what only excludes."""
    if isinstance(node, Word):
        return [node.text]
    if isinstance(node, Phrase):
        return list(node.words)
    if isinstance(node, All | Any):
        return [w for item in node.items for w in _wanted(item)]
    return []


def _parsed(text: str) -> Node | None:
    return _parser(text).or_expr(0)


def _parser(text: str) -> _Parser:
    tokens = _TOKEN.findall(text.translate(_QUOTES))
    if _operators_alone(tokens):  # "OR", "AND", "NOT NOT": the words or, and, not
        tokens = [token.lower() if token in OPERATORS else token for token in tokens]
    return _Parser(tokens)


def _operators_alone(tokens: list[str]) -> bool:
    """Whether the only words of a query are operators (``OR``, ``AND``, ``NOT``, ``NOT NOT``,
    ``(OR)``, ``AND ?``): with no other word to join or exclude, they are the words a reader
    wants found, as a lone ``NOT`` always was, and are searched so, in any case. Read as
    operators, ``OR`` and ``AND`` searched nothing and ``NOT NOT`` excluded the word not."""
    named = False
    for token in tokens:
        if token in OPERATORS:
            named = True
        elif any(words(part) for part in _PART.findall(_FIELD.sub("", token.lstrip("+-")))):
            return False
    return named


def _excludes(node: Node | None) -> bool:
    if isinstance(node, Not):
        return any(words(w) for w in positive_words(_simplify(node.item)))
    return isinstance(node, All | Any) and any(map(_excludes, node.items))


class _Parser:
    def __init__(self, tokens: list[str]):
        self.tokens = tokens
        self.at = 0
        self.written = 0
        """Every word part and phrase read, past ``MAX_ATOMS`` too (``left_out``); not a
        token of punctuation alone (``?``), nor empty quotes. The first ``MAX_ATOMS`` are
        searched."""
        self.phrases: set[tuple[str, ...]] = set()
        """The different phrases searched (``phrase_key``): among the first ``MAX_ATOMS``."""
        self.quoted: set[tuple[str, ...]] = set()
        """Those of them written in quotes (``too_large`` counts these)."""
        self.phrases_past: set[tuple[str, ...]] = set()
        """The different phrases in quotes left out, past ``MAX_ATOMS``."""
        self.negated = False
        """Whether what is read now is to be excluded (``-`` or ``NOT`` once, not twice)."""
        self.excluded_out = 0
        """Words and phrases to exclude past ``MAX_ATOMS``, left out."""
        self.phrases_out = 0
        """Phrases (not to exclude) past ``MAX_ATOMS``, left out."""

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def or_expr(self, depth: int) -> Node | None:
        items = [self.and_expr(depth)]
        while self.peek() == "OR":
            self.at += 1
            items.append(self.and_expr(depth))
        kept = tuple(i for i in items if i is not None)
        return None if not kept else kept[0] if len(kept) == 1 else Any(kept)

    def and_expr(self, depth: int) -> Node | None:
        items: list[Node] = []
        while (token := self.peek()) is not None and token != "OR":
            if token == ")":
                if depth > 0:
                    break
                self.at += 1  # a stray closing bracket: ignore it
                continue
            if token == "AND":
                self.at += 1
                continue
            node = self.unary(depth)
            if node is not None:
                items.append(node)
        return None if not items else items[0] if len(items) == 1 else All(tuple(items))

    def unary(self, depth: int) -> Node | None:
        """A word, phrase or group after its ``NOT``s and ``-``s, read in a loop: one call
        each, a query of a thousand (``NOT NOT …``, ``------model``) ran out of Python's
        stack. An odd number of them excludes it, an even one searches it (``Not(Not(…))``,
        which ``_simplify`` makes the word)."""
        flips = 0
        inner: Node | None = None
        while True:
            token = self.tokens[self.at]
            if token == "NOT":
                self.at += 1
                if self.peek() is None or self.peek() in ("OR", "AND", ")"):
                    inner = Word("not")
                    break
                flips += 1
                continue
            if token.startswith("-") and len(token) > 1 and not _NUMBER.match(token):
                if _NUMBER.match(token[1:]):  # "--5" is -(-5), as "--model" is -(-model)
                    self.tokens[self.at] = token[2:]
                    flips += 2  # negated twice: searched, not excluded
                    continue
                self.tokens[self.at] = token[1:]
                flips += 1
                continue
            if token.startswith("+") and len(token) > 1:
                self.tokens[self.at] = token[1:]
            self.negated ^= flips % 2 == 1
            inner = self.atom(depth)
            self.negated ^= flips % 2 == 1
            break
        if inner is None or not flips:
            return inner
        return Not(inner) if flips % 2 else Not(Not(inner))

    def count(self, key: tuple[str, ...], quoted: bool = False) -> bool:
        """Count one word or phrase read; whether it is searched (among the first
        ``MAX_ATOMS``), else note what is left out."""
        self.written += 1
        if self.written <= MAX_ATOMS:
            if len(key) > 1:
                self.phrases.add(key)
                if quoted:
                    self.quoted.add(key)
            return True
        if self.negated:
            self.excluded_out += 1
        elif len(key) > 1:
            self.phrases_out += 1
        if len(key) > 1 and quoted:
            self.phrases_past.add(key)
        return False

    def atom(self, depth: int) -> Node | None:
        token = self.tokens[self.at]
        self.at += 1
        if token == "(":
            if depth >= MAX_DEPTH:
                return None  # deeper brackets only group what is already grouped
            inner = self.or_expr(depth + 1)
            if self.peek() == ")":
                self.at += 1
            return inner
        if token.startswith('"'):
            words = tuple(token.strip('"').split())
            if not (key := phrase_key(words)):  # '""' and '"?"' name no word: not counted
                return Phrase(words) if words else None
            if not self.count(key, quoted=True):
                return None
            return Phrase(words)  # one word in quotes too: as written, never corrected
        token = _FIELD.sub("", token, count=1)
        found: list[Node] = []
        for part in _PART.findall(token):
            key = phrase_key((part,))
            if len(key) > 1 and key not in self.phrases and len(self.phrases) >= MAX_PHRASES:
                if self.count(()):  # searched as its parts, not as one more phrase
                    found.append(All(tuple(map(Word, key))))
            elif self.count(key):
                found.append(Word(part))
        if not found:
            return None
        return found[0] if len(found) == 1 else All(tuple(found))


def phrase_key(texts: tuple[str, ...]) -> tuple[str, ...]:
    """The words a phrase is searched for, in order: ``"KV cache"``, ``"kv  cache"`` and
    ``kv-cache`` (a word of two parts) are one phrase. A phrase is one of two words or more."""
    return tuple(w for text in texts for w in words(text))


def _simplify(node: Node) -> Node | None:
    """Flatten nested groups of one kind, drop queries that only exclude, and a phrase a group
    already has (``"kv cache" "KV cache"``): it is searched once."""
    if isinstance(node, All | Any):
        kind = type(node)
        flat: list[Node] = []
        phrases: set[tuple[str, ...]] = set()
        for item in node.items:
            item = _simplify(item)
            if item is None:
                continue
            for each in item.items if isinstance(item, kind) else (item,):
                if isinstance(each, Phrase):
                    if (key := phrase_key(each.words)) in phrases:
                        continue
                    phrases.add(key)
                flat.append(each)
        if kind is All and flat and all(isinstance(i, Not) for i in flat):
            return None
        return None if not flat else flat[0] if len(flat) == 1 else kind(tuple(flat))
    if isinstance(node, Not):
        if isinstance(node.item, Not):  # "NOT NOT model", "--model": model
            return _simplify(node.item.item)
        return None if _simplify(node.item) is None else node
    return node


def positive_words(node: Node | None, phrases: bool = True) -> list[str]:
    """Every word the reader wants to find (inside phrases too, unless not ``phrases``), not
    the excluded ones."""
    if node is None or isinstance(node, Not):
        return []
    if isinstance(node, Word):
        return [node.text]
    if isinstance(node, Phrase):
        return list(node.words) if phrases else []
    return [w for item in node.items for w in positive_words(item, phrases)]
