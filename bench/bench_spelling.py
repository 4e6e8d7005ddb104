"""What a misspelt word costs a query, and how often its correction is the word meant.

    .venv/bin/python bench/bench_spelling.py INDEX [--misspellings 2000] [--seed 7]
                                             [--foreign OTHER_INDEX ...] [--query TEXT ...]
                                             [--cases bench/misspellings.json]
                                             [--typed] [--words WORD_LIST]

INDEX is a folder ``lessonsearch index --out`` wrote. From the course's own spelling words
of five letters or more, drawn at random, it makes misspellings of one edit and of two (a
letter dropped, added, changed, or two swapped; never the first letter, as readers rarely
get that wrong), keeps those the index does not hold (a word it holds is never corrected),
and times ``Searcher.correct`` on each, once: no correction is remembered between them.
Prints the speller's size in memory, the time per misspelling, and for one edit and two, in
words of fewer than seven letters, of seven or eight and of nine or more (where two edits
are looked for, and how), how many were corrected to the word meant, to another word, or not
at all.

With ``--foreign``: the real words other courses write and this one does not (of five
letters or more, none the start of a word it holds), by length: how many one edit would take
to a word of the course, how many more two would, and how many ``Searcher.correct`` does
take to one (what a wrong "did you mean" costs).

With ``--typed``: the random misspellings are made of the slips people make typing or spelling
by ear instead of any edit (``misspell_typed``: a letter dropped, doubled or swapped with the
next, a key for one beside it, a letter added beside a key it touches, a vowel for another),
so that what the speller keeps of them can be told from what it drops of arbitrary edits.

With ``--words``: the real words of a word list (one a line, such as
``/usr/share/dict/american-english``; letters a to z alone) that the course does not write,
none the start of a word it holds, by length: how many ``Searcher.correct`` takes to one of
the course's words (each a wrong "did you mean"), and some of them.

With ``--cases``: misspellings written by hand, each with the word meant, and real words
near the course's that it does not write (``misspellings.json``, for the sample course):
how many of each were corrected, to what, by edits and length.

With ``--query``: each query searched in process, with the searcher's memos of words
emptied before each search, as for a query not seen before (median and best of 30, after
one search that builds the speller).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import string
import sys
import time
import tracemalloc
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from lessonsearch.analysis import stem  # noqa: E402
from lessonsearch.nltk_parts import edit_distance  # noqa: E402
from lessonsearch.searcher import MAX_TWO_EDITS, Searcher  # noqa: E402
from lessonsearch.spelling import NEXT_KEYS, VOWELS, Speller  # noqa: E402
from lessonsearch.whoosh_index import CONTENT, read_spelling  # noqa: E402

LENGTHS = ((5, 6), (7, 8), (9, MAX_TWO_EDITS))
"""The lengths of misspelling counted apart: two edits are looked for from seven letters,
and from nine with fewer conditions (``Searcher.correct``)."""


def length_of(word: str) -> tuple[int, int]:
    return next((low, high) for low, high in LENGTHS if len(word) <= high)


def misspell(word: str, edits: int, rng: random.Random) -> str:
    for _ in range(edits):
        at = rng.randrange(1, len(word))
        kind = rng.choice("dais" if at < len(word) - 1 else "dai")
        if kind == "d":
            word = word[:at] + word[at + 1:]
        elif kind == "a":
            word = word[:at] + rng.choice(string.ascii_lowercase) + word[at:]
        elif kind == "i":
            word = word[:at] + rng.choice(string.ascii_lowercase) + word[at + 1:]
        else:
            word = word[:at] + word[at + 1] + word[at] + word[at + 2:]
    return word


def misspell_typed(word: str, edits: int, rng: random.Random) -> str:
    """``word`` with ``edits`` slips of a typist or of spelling by ear, never its first
    letter."""
    keys = NEXT_KEYS
    for _ in range(edits):
        at = rng.randrange(1, len(word))
        letter = word[at]
        kinds = ["drop", "double", "near", "add near"]
        if at < len(word) - 1 and word[at + 1] != letter:
            kinds.append("swap")
        if letter in VOWELS:
            kinds.append("vowel")
        kind = rng.choice(kinds)
        if kind == "drop":
            word = word[:at] + word[at + 1:]
        elif kind == "double":
            word = word[:at] + letter + word[at:]
        elif kind == "swap":
            word = word[:at] + word[at + 1] + letter + word[at + 2:]
        elif kind == "vowel":
            word = word[:at] + rng.choice(sorted(VOWELS - {letter})) + word[at + 1:]
        elif letter in keys:
            near = rng.choice(sorted(keys[letter]))
            word = (word[:at] + near + word[at + 1:] if kind == "near"
                    else word[:at] + near + word[at:])
    return word


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("index", type=Path)
    parser.add_argument("--misspellings", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--foreign", type=Path, nargs="*", default=[])
    parser.add_argument("--query", nargs="*", default=[])
    parser.add_argument("--cases", type=Path)
    parser.add_argument("--typed", action="store_true")
    parser.add_argument("--words", type=Path)
    args = parser.parse_args()

    searcher = Searcher.open(args.index)
    words = sorted(searcher._spelling)
    tracemalloc.start()
    speller = Speller(words)
    size = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    reader = searcher.whoosh_searcher().reader()

    rng = random.Random(args.seed)
    pool = [w for w in words if len(w) >= 5]
    wanted: dict[str, tuple[str, int]] = {}
    while len(wanted) < args.misspellings:
        word = rng.choice(pool)
        edits = 1 + len(wanted) % 2
        typo = (misspell_typed if args.typed else misspell)(word, edits, rng)
        if typo not in wanted and reader.doc_frequency(CONTENT, stem(typo)) == 0:
            wanted[typo] = (word, edits)

    lookups = []
    for typo in wanted:
        started = time.perf_counter()
        speller.candidates(typo, 2 if len(typo) >= 7 else 1)
        lookups.append(time.perf_counter() - started)
    times = []
    outcome: Counter[tuple[int, tuple[int, int], str]] = Counter()
    for typo, (word, edits) in wanted.items():
        started = time.perf_counter()
        fixed = searcher.correct(typo)
        times.append(time.perf_counter() - started)
        said = "meant" if fixed == word else "none" if fixed is None else "other"
        outcome[edits, length_of(typo), said] += 1

    print(f"{len(words):,} spelling words; speller {size / 2**20:.2f} MB")
    long = [t for t, typo in zip(lookups, wanted, strict=True) if len(typo) >= 7]
    print(f"{len(times):,} misspellings, ms: " + "; ".join(
        f"{name} mean {statistics.fmean(t) * 1e3:.3f}, p50 {sorted(t)[len(t) // 2] * 1e3:.3f}, "
        f"p99 {sorted(t)[int(len(t) * 0.99)] * 1e3:.3f}"
        for name, t in (("correct", times), ("speller alone", lookups),
                        (f"speller, the {len(long)} of ≥ 7 letters", long))))
    for edits in (1, 2):
        for low, high in LENGTHS:
            row = {said: outcome[edits, (low, high), said] for said in ("meant", "other", "none")}
            label = f"{edits} edit{'s' if edits > 1 else ''}, {low}–{high} letters"
            print(f"  {label:24} " + "  ".join(f"{k} {v:4}" for k, v in row.items()))

    if args.foreign:
        foreign(searcher, speller, reader, args.foreign)
    if args.words:
        word_list(searcher, speller, reader, args.words)
    if args.cases:
        cases(searcher, json.loads(args.cases.read_text(encoding="utf-8")))
    for query in args.query:
        timed(searcher, query)


def cases(searcher: Searcher, written: dict) -> None:
    """The hand-written cases: each misspelling by its edits from the word meant (three or
    more together: misspellings by sound, such as "sekwense") and its length, corrected to
    that word, to another, or not at all; each real word, whether it was corrected (it never
    should be)."""
    outcome: Counter[tuple[int, tuple[int, int], str]] = Counter()
    wrong = []
    for typo, word in written["misspelt"].items():
        fixed = searcher.correct(typo)
        said = "meant" if fixed == word else "none" if fixed is None else "other"
        edits = min(edit_distance(typo, word, transpositions=True), 3)
        outcome[edits, length_of(typo), said] += 1
        if said != "meant":
            wrong.append(f"{typo}: {fixed or '-'}")
    print(f"hand-written misspellings ({len(written['misspelt'])}):")
    for edits in (1, 2, 3):
        for low, high in LENGTHS:
            row = {said: outcome[edits, (low, high), said] for said in ("meant", "other", "none")}
            if sum(row.values()):
                label = (f"{edits}{'+' if edits == 3 else ''} edit{'s' if edits > 1 else ''}"
                         f", {low}–{high} letters")
                print(f"  {label:24} " + "  ".join(f"{k} {v:4}" for k, v in row.items()))
    print("  not corrected to the word meant: " + ", ".join(wrong))
    real = written["real"]
    fixed = [f"{word}: {searcher.correct(word)}" for word in real if searcher.correct(word)]
    print(f"real words ({len(real)}): {len(fixed)} corrected" + (": " if fixed else "")
          + ", ".join(fixed))


def timed(searcher: Searcher, query: str) -> None:
    """Search ``query`` as one not seen before: the searcher remembers what it found for each
    word (corrections, related words, cuts, names), so those memos are emptied each time."""
    memos = [getattr(searcher, name) for name in
             ("_corrections", "_related", "_names", "_apart", "_hyphens")]
    first = searcher.search(query)
    times = []
    for _ in range(30):
        for memo in memos:
            memo.clear()
        started = time.perf_counter()
        searcher.search(query)
        times.append(time.perf_counter() - started)
    print(f"query {query!r}: suggestion {first.suggestion!r}, {first.total} results; "
          f"ms median {statistics.median(times) * 1e3:.2f}, best {min(times) * 1e3:.2f}")


def word_list(searcher: Searcher, speller: Speller, reader, path: Path) -> None:
    """The real words of a word list that the course does not write, and how many of each
    length ``Searcher.correct`` takes to one of its words."""
    words = {line.strip() for line in path.read_text(encoding="utf-8").splitlines()}
    counts: Counter[tuple[int, str]] = Counter()
    examples: dict[int, list[str]] = {}
    for word in sorted(words):
        if (len(word) < 3 or not word.isascii() or not word.isalpha() or not word.islower()
                or reader.doc_frequency(CONTENT, stem(word))
                or len(word) >= 5 and speller.starting(word)):
            continue
        length = min(len(word), 11)
        counts[length, "words"] += 1
        fixed = searcher.correct(word)
        if fixed is not None:
            counts[length, "corrected"] += 1
            edits = edit_distance(word, fixed, transpositions=True)
            counts[length, f"{edits} edit"] += 1
            examples.setdefault(length, []).append(f"{word}: {fixed}")
    print(f"word list {path.name}: real words the course does not write, corrected "
          "(by one edit, by two)")
    for length in range(3, 12):
        n = counts[length, "words"]
        if n:
            print(f"  {length:2}{'+' if length == 11 else ' '} letters {n:6}: corrected "
                  f"{counts[length, 'corrected']:4} ({counts[length, 'corrected'] / n:5.1%}; "
                  f"{counts[length, '1 edit']} by one, {counts[length, '2 edit']} by two)  "
                  + ", ".join(examples.get(length, [])[:8]))


def foreign(searcher: Searcher, speller: Speller, reader, others: list[Path]) -> None:
    words = set()
    for other in others:
        words |= set(read_spelling(Searcher.open(other).version_dir))
    counts: Counter[tuple[int, str]] = Counter()
    for word in words:
        if len(word) < 5 or reader.doc_frequency(CONTENT, stem(word)) or speller.starting(word):
            continue
        near = speller.candidates(word, 2)
        length = min(len(word), 11)
        counts[length, "words"] += 1
        counts[length, "none" if not near else f"{near[0][0]} edit"] += 1
        counts[length, "corrected"] += searcher.correct(word) is not None
    print("foreign words: within one edit, within two (another word either way), "
          "and corrected")
    for length in range(5, 12):
        n = counts[length, "words"]
        print(f"  {length:2}{'+' if length == 11 else ' '} letters {n:5}: "
              + "  ".join(f"{kind} {counts[length, kind]:4} ({counts[length, kind] / n:4.0%})"
                          for kind in ("1 edit", "2 edit", "corrected")))


if __name__ == "__main__":
    main()
