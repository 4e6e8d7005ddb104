"""Two ranking figures on the sample course, beside ``questions_eval.py``'s.

    .venv/bin/python bench/heading_and_definition_eval.py [--lessons L --glossary G] [-v]

- Heading words: for each distinct content word of the course's headings (sections' and
  check questions'), whether the first hit of a search for the word has it in its heading
  (by stem, as the index matches). A miss is a hit whose heading lacks the word.
- Defining sections: for each term a lesson defines (the glossary table's lesson
  definitions), whether a search for the term's name puts a section that defines it first;
  its reciprocal rank within the top 10 too (0 when no defining section is there).
- Defining sections, asked: the same, for the term asked about in each of ``ASKED``'s
  forms ("what is a token?", "what does token mean?", "define token", "token meaning",
  "meaning of token", …): a reader who asks what a term is wants the same section first.

Builds the course into a temporary index. ``-v`` lists every miss.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from lessonsearch.analysis import stem, words  # noqa: E402
from lessonsearch.build import build_index  # noqa: E402
from lessonsearch.glossary_table import load_glossary  # noqa: E402
from lessonsearch.index_store import current_version  # noqa: E402
from lessonsearch.query_plan import is_stop  # noqa: E402
from lessonsearch.searcher import Searcher  # noqa: E402
from lessonsearch.whoosh_open import open_search_index  # noqa: E402


def heading_words(version: Path) -> list[str]:
    """The distinct content words of every document's heading, A–Z."""
    index, _ = open_search_index(version)
    try:
        with index.searcher() as reader:
            headings = [fields["heading"] for fields in reader.all_stored_fields()]
    finally:
        index.close()
    found = {w.lower() for heading in headings for w in words(heading or "")}
    return sorted(w for w in found if not is_stop(w) and not w.isdigit())


def heading_misses(searcher: Searcher, wanted: list[str]) -> list[str]:
    misses = []
    for word in wanted:
        hits = searcher.search(word, limit=1).results
        heading = hits[0].heading if hits else None
        if not hits or stem(word) not in {stem(w) for w in words(heading or "")}:
            top = f"{hits[0].lesson}#{hits[0].anchor}" if hits else "nothing"
            misses.append(f"  {word!r} → {top} ({heading!r})")
    return misses


ASKED = ("what is {}?", "what's {}", "what exactly is {}?", "what does {} mean?",
         "what is meant by {}?", "define {}", "definition of {}", "{} meaning",
         "meaning of {}", "explain {}")
"""The questions asking what a term is, each form once for every term a lesson defines."""


def defining_ranks(searcher: Searcher, version: Path, forms: tuple[str, ...] = ("{}",)
                   ) -> list[tuple[str, int | None]]:
    """(query, rank of its term's first defining section in the top 10, or None) for each
    term a lesson defines, asked in each of ``forms`` (by default its name alone)."""
    ranks = []
    for record in load_glossary(version, mentions=False):
        defining = {(d.lesson, d.anchor) for d in record.definitions if d.origin == "lesson"}
        if not defining:
            continue
        for form in forms:
            query = form.format(record.term)
            hits = searcher.search(query, limit=10).results
            rank = next((n for n, hit in enumerate(hits, start=1)
                         if (hit.lesson, hit.anchor) in defining), None)
            ranks.append((query, rank))
    return ranks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lessons", type=Path, default=ROOT / "lessons")
    parser.add_argument("--glossary", type=Path, default=ROOT / "glossary")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every miss")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "index"
        build_index(args.lessons, args.glossary, out)
        version = current_version(out)
        searcher = Searcher.open(out)
        try:
            wanted = heading_words(version)
            misses = heading_misses(searcher, wanted)
            ranks = defining_ranks(searcher, version)
            asked = defining_ranks(searcher, version, ASKED)
        finally:
            searcher.close()
    first = sum(1 for _, rank in ranks if rank == 1)
    mrr = sum(1 / rank for _, rank in ranks if rank) / len(ranks) if ranks else 0.0
    print(f"heading words: {len(wanted) - len(misses)} of {len(wanted)} have the first hit's "
          f"heading ({len(misses)} do not)")
    print(f"defining section first: {first} of {len(ranks)} terms "
          f"(reciprocal rank {mrr:.3f})")
    asked_first = sum(1 for _, rank in asked if rank == 1)
    asked_mrr = sum(1 / rank for _, rank in asked if rank) / len(asked) if asked else 0.0
    print(f"defining section first, asked ({len(ASKED)} forms): {asked_first} of "
          f"{len(asked)} questions (reciprocal rank {asked_mrr:.3f})")
    if args.verbose:
        print("heading words whose first hit's heading lacks them:")
        print("\n".join(misses))
        print("terms whose defining section is not first:")
        print("\n".join(f"  {term!r}: rank {rank}" for term, rank in ranks if rank != 1))
        print("questions whose term's defining section is not first:")
        print("\n".join(f"  {query!r}: rank {rank}" for query, rank in asked if rank != 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
