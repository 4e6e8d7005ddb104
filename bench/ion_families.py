"""Which -ion nouns the index counts for the verb they were made from, on a word list.

    .venv/bin/python bench/ion_families.py [--words /usr/share/dict/american-english]
        [--course lessons glossary ../shared/corpora]

For every word of the list (letters only) and of the courses' text that ends in -ion or
-ions, ``analysis.verb_of`` gives the stem of its verb or nothing. A join is right or wrong
by reading it: the script prints each noun, its stem, the verb's stem and up to four words
of the lists that have that stem (those words, not the noun, are what a search for the verb
finds), and counts the joins whose verb's stem no word of the lists has (a posting no query
reaches). Reading only: nothing here is written into the project.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from lessonsearch.analysis import find_words, stem, verb_of  # noqa: E402

TEXT = (".md", ".txt", ".json", ".yaml", ".yml", ".Rmd")


def course_words(folders: list[Path]) -> set[str]:
    found: set[str] = set()
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and path.suffix in TEXT:
                text = path.read_text(encoding="utf-8", errors="replace")
                found.update(w.lower() for w in find_words(text) if w.isalpha())
    return found


def report(name: str, words: set[str]) -> None:
    by_stem: dict[str, set[str]] = defaultdict(set)
    for word in words:
        if not word.endswith(("ion", "ions")):
            by_stem[stem(word)].add(word)
    nouns = sorted(w for w in words if w.endswith("ion"))
    joined, unreached = [], []
    for noun in nouns:
        for verb in verb_of(noun):
            (joined if verb in by_stem else unreached).append((noun, verb))
    print(f"{name}: {len(nouns)} -ion nouns, {len(joined)} joined to a word's stem, "
          f"{len(unreached)} to a stem no word has")
    for noun, verb in joined:
        print(f"  {noun} ({stem(noun)}) -> {verb}: {', '.join(sorted(by_stem[verb])[:4])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--words", type=Path, default=Path("/usr/share/dict/american-english"))
    parser.add_argument("--course", type=Path, nargs="*",
                        default=[ROOT / "lessons", ROOT / "glossary",
                                 ROOT.parent / "shared" / "corpora"])
    args = parser.parse_args()
    if args.words.exists():
        listed = {w.strip().lower() for w in args.words.read_text().split()}
        report(str(args.words), {w for w in listed if w.isalpha() and w.isascii()})
    for folder in args.course:
        if folder.exists():
            report(str(folder), course_words([folder]))


if __name__ == "__main__":
    main()
