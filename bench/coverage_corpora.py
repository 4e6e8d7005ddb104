"""Coverage on real lessons: how the mention finder compares with the lessons' own glossary links.

Each Software Carpentry lesson in ``../shared/corpora`` links episodes to its glossary
(``../learners/reference.md#anchor`` inline, or shell-novice's reference-style
``[x]: https://…/reference.html#anchor``). Every (term, episode) pair linked that way is a
place an author saw the term; the coverage report should find a mention of the term in that
episode too. This prints, per lesson, the glossary's size, how many terms are mentioned and
unused, and that recall. Skips cleanly when the corpora are absent.

    .venv/bin/python bench/coverage_corpora.py [CORPORA_DIR]
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
from pathlib import Path

from lessonsearch.build import build_index
from lessonsearch.coverage import coverage_report
from lessonsearch.index_store import current_version, read_manifest

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT.parent / "shared" / "corpora"
GLOSSARY_LINK = re.compile(r"reference\.(?:md|html)#([A-Za-z0-9_-]+)")


def linked_pairs(episodes: Path, slugs: dict[str, str]) -> set[tuple[str, str]]:
    """(anchor, lesson slug) for every glossary link written in an episode."""
    pairs = set()
    for path in sorted(episodes.glob("*.md")):
        slug = slugs.get(path.name)
        if slug is None:
            continue
        for anchor in GLOSSARY_LINK.findall(path.read_text(encoding="utf-8")):
            pairs.add((anchor, slug))
    return pairs


def measure(corpus: Path, scratch: Path) -> dict:
    started = time.perf_counter()
    index_dir = scratch / corpus.name
    learners = corpus / "learners"  # a lesson may have no glossary page
    build_index(corpus / "episodes", learners if learners.is_dir() else None, index_dir)
    built = time.perf_counter() - started
    version = current_version(index_dir)
    started = time.perf_counter()
    report = coverage_report(version, index_dir)
    reported = time.perf_counter() - started
    slugs = {Path(x["source"]).name: x["slug"] for x in read_manifest(version)["lessons"]}
    glossary = [t for t in report.terms if t.in_glossary]
    by_anchor = {t.anchor: t for t in glossary}
    pairs = linked_pairs(corpus / "episodes", slugs)
    known = {(a, s) for a, s in pairs if a in by_anchor}
    found = {(a, s) for a, s in known if s in {p.lesson for p in by_anchor[a].lessons}}
    return {
        "lesson": corpus.name,
        "episodes": len(slugs),
        "terms": len(glossary),
        "mentioned": sum(1 for t in glossary if t.mentions),
        "unused": len(report.unused),
        "pairs": len(pairs),
        "unknown": sorted({a for a, _ in pairs - known}),
        "found": len(found),
        "missed": sorted(known - found),
        "summary": report.summary(),
        "candidates": [c.phrase for c in report.candidates[:8]],
        "seconds": (built, reported),
    }


def main(argv: list[str]) -> int:
    corpora = Path(argv[1]) if len(argv) > 1 else CORPORA
    lessons = sorted(p for p in corpora.glob("*") if (p / "episodes").is_dir())
    if not lessons:
        print(f"skipped: no lesson corpora at {corpora}")
        return 0
    head = (f"{'lesson':<28} {'eps':>3} {'terms':>5} {'mentioned':>9} {'unused':>6} "
            f"{'linked pairs':>12} {'also found':>10} {'recall':>6}")
    print(head)
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for corpus in lessons:
            row = measure(corpus, Path(scratch))
            rows.append(row)
            linked = row["found"] + len(row["missed"])
            recall = f"{row['found'] / linked:.0%}" if linked else "-"
            print(f"{row['lesson']:<28} {row['episodes']:>3} {row['terms']:>5} "
                  f"{row['mentioned']:>9} {row['unused']:>6} {row['pairs']:>12} "
                  f"{row['found']:>10} {recall:>6}")
    found = sum(r["found"] for r in rows)
    linked = found + sum(len(r["missed"]) for r in rows)
    print(f"{'all':<28} {'':>3} {sum(r['terms'] for r in rows):>5} "
          f"{sum(r['mentioned'] for r in rows):>9} {sum(r['unused'] for r in rows):>6} "
          f"{sum(r['pairs'] for r in rows):>12} {found:>10} {found / max(linked, 1):>6.0%}")
    print("\n(linked pairs: distinct (glossary anchor, episode) links; recall counts only links "
          "to anchors the glossary has)")
    for row in rows:
        s = row["summary"]
        built, reported = row["seconds"]
        print(f"\n{row['lesson']}: build {built:.2f} s, report {reported * 1000:.0f} ms; "
              f"{s['used_before_definition']} used before definition, "
              f"{s['missing_from_glossary']} missing from glossary, {s['undefined']} undefined, "
              f"{s['conflicting']} conflicting, {s['candidates']} candidates")
        if row["unknown"]:
            print(f"  links to anchors the glossary lacks: {', '.join(row['unknown'])}")
        if row["missed"]:
            missed = ", ".join(f"{a}@{s}" for a, s in row["missed"][:12])
            more = len(row["missed"]) - 12
            print(f"  linked but not found: {missed}" + (f" … and {more} more" if more > 0 else ""))
        print(f"  top candidates: {', '.join(row['candidates'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
