"""What a misspelt word costs a query, and how often its correction is the word meant.

    .venv/bin/python bench/bench_spelling.py INDEX [--misspellings 2000] [--seed 7]
                                             [--foreign OTHER_INDEX ...]

INDEX is a folder ``lessonsearch index --out`` wrote. From the course's own spelling words
of five letters or more, drawn at random, it makes misspellings of one edit and of two (a
letter dropped, added, changed, or two swapped; never the first letter, as readers rarely
get that wrong), keeps those the index does not hold (a word it holds is never corrected),
and times ``Searcher.correct`` on each, once: no correction is remembered between them.
Prints the speller's size in memory, the time per misspelling, and for one edit and two, in
words shorter than eight letters and longer, how many were corrected to the word meant, to
another word, or not at all.

With ``--foreign``: the real words other courses write and this one does not (of five
letters or more, none the start of a word it holds), by length: how many one edit would take
to a word of the course, and how many more two would (what a wrong "did you mean" costs).
"""

from __future__ import annotations

import argparse
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
from lessonsearch.searcher import MIN_TWO_EDITS, Searcher  # noqa: E402
from lessonsearch.spelling import Speller  # noqa: E402
from lessonsearch.whoosh_index import CONTENT, read_spelling  # noqa: E402

LONG = MIN_TWO_EDITS


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("index", type=Path)
    parser.add_argument("--misspellings", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--foreign", type=Path, nargs="*", default=[])
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
        typo = misspell(word, edits, rng)
        if typo not in wanted and reader.doc_frequency(CONTENT, stem(typo)) == 0:
            wanted[typo] = (word, edits)

    lookups = []
    for typo in wanted:
        started = time.perf_counter()
        speller.candidates(typo, 2 if len(typo) >= LONG else 1)
        lookups.append(time.perf_counter() - started)
    times = []
    outcome: Counter[tuple[int, bool, str]] = Counter()
    for typo, (word, edits) in wanted.items():
        started = time.perf_counter()
        fixed = searcher.correct(typo)
        times.append(time.perf_counter() - started)
        said = "meant" if fixed == word else "none" if fixed is None else "other"
        outcome[edits, len(typo) >= LONG, said] += 1

    print(f"{len(words):,} spelling words; speller {size / 2**20:.2f} MB")
    long = [t for t, typo in zip(lookups, wanted, strict=True) if len(typo) >= LONG]
    print(f"{len(times):,} misspellings, ms: " + "; ".join(
        f"{name} mean {statistics.fmean(t) * 1e3:.3f}, p50 {sorted(t)[len(t) // 2] * 1e3:.3f}, "
        f"p99 {sorted(t)[int(len(t) * 0.99)] * 1e3:.3f}"
        for name, t in (("correct", times), ("speller alone", lookups),
                        (f"speller, the {len(long)} of ≥ {LONG} letters", long))))
    for edits in (1, 2):
        for long in (False, True):
            row = {said: outcome[edits, long, said] for said in ("meant", "other", "none")}
            label = f"{edits} edit{'s' if edits > 1 else ''}, {'≥' if long else '<'} {LONG} letters"
            print(f"  {label:24} " + "  ".join(f"{k} {v:4}" for k, v in row.items()))

    if args.foreign:
        foreign(searcher, speller, reader, args.foreign)


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
    print("foreign words: corrected by one edit, by two (another word either way)")
    for length in range(5, 12):
        n = counts[length, "words"]
        print(f"  {length:2}{'+' if length == 11 else ' '} letters {n:5}: "
              + "  ".join(f"{kind} {counts[length, kind]:4} ({counts[length, kind] / n:4.0%})"
                          for kind in ("1 edit", "2 edit")))


if __name__ == "__main__":
    main()
