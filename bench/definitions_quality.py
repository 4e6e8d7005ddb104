"""How well ``find_definitions`` finds the terms the sample course defines: precision and recall.

    .venv/bin/python bench/definitions_quality.py [--lessons lessons]
                                                  [--labels tests/data/sample_definitions.json]
                                                  [--glossary folder]

Reads the course with ``read_course`` and the hand-labelled definitions, and prints precision
and recall per class and overall, then every false positive and every miss, and any finding
that lands on a labelled near-miss. A finding matches a label when the lesson, the term
(case and plural aside) and the abbreviation agree; the class only sorts the figures.
With ``--glossary``, a finding that names a term only where the glossary has it ("This is a
journal.", "We call these scripts.": ``glossary_only``) counts only when that glossary has
it, as in a build, and a name the glossary lacks counts as the one the sentence offers
besides it where the glossary has that ("A honey bee colony is …" where a heading or the key
idea names colony), as the build reads it; without it every finding counts. An
abbreviation spelt out in passing ("… a wide field of view (FOV) and …": ``passing``)
defines nothing in a build, and counts in neither.
Exits 1 when precision < 0.9 or recall < 0.8, the targets the detector is held to.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from lessonsearch.analysis import normalize  # noqa: E402
from lessonsearch.course import read_course  # noqa: E402
from lessonsearch.definitions import find_definitions  # noqa: E402
from lessonsearch.glossary_source import read_glossary  # noqa: E402
from lessonsearch.model import LessonDefinition  # noqa: E402
from lessonsearch.term_forms import term_key  # noqa: E402
from lessonsearch.term_matching import TermMatcher  # noqa: E402

PRECISION_TARGET = 0.9
RECALL_TARGET = 0.8


def key(lesson: str, term: str, abbreviation: str | None) -> tuple[str, str, str]:
    return (lesson, term_key(term), (abbreviation or "").lower())


def kept_by(glossary: Path | None):
    """A definition as a build with ``glossary`` keeps it, or None: one the sentence makes
    only for a glossary term needs the glossary to have it. As the build does, a name the
    glossary lacks is read as the one the sentence offers besides it where the glossary has
    that (``alone``: "A honey bee colony is …" under "The colony"; ``other``: "records, also
    known as rows,")."""
    if glossary is None:
        return lambda definition: None if definition.passing else definition
    entries, _ = read_glossary(glossary)
    matcher = TermMatcher({e.term: [e.term, *e.aliases] for e in entries})

    def kept(definition: LessonDefinition) -> LessonDefinition | None:
        if definition.passing:
            return None
        if any(name and matcher.canonical_for(name)
               for name in (definition.term, definition.abbreviation)):
            return definition
        for name in (definition.alone, definition.other):
            if name and matcher.canonical_for(name):
                return replace(definition, term=name)
        return None if definition.glossary_only else definition
    return kept


def ratio(part: int, whole: int) -> str:
    return f"{part / whole:5.2f} ({part}/{whole})" if whole else "   - (0/0)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--lessons", type=Path, default=ROOT / "lessons")
    parser.add_argument("--labels", type=Path,
                        default=ROOT / "tests" / "data" / "sample_definitions.json")
    parser.add_argument("--glossary", type=Path, default=None)
    args = parser.parse_args(argv)
    kept = kept_by(args.glossary)

    labels = json.loads(args.labels.read_text(encoding="utf-8"))
    gold = {key(d["lesson"], d["term"], d.get("abbreviation")): d for d in labels["definitions"]}
    course = read_course(args.lessons).course
    found = {
        key(d.lesson, d.term, d.abbreviation): d
        for lesson in course.lessons
        for d in map(kept, find_definitions(lesson)) if d is not None
    }

    right = set(found) & set(gold)
    kinds = sorted({d["class"] for d in gold.values()} | {d.kind for d in found.values()})
    print(f"{'class':16} {'precision':>14} {'recall':>14}  (class agrees on {len(right)} hits: "
          f"{sum(found[k].kind == gold[k]['class'] for k in right)})")
    made, hit = Counter(d.kind for d in found.values()), Counter(found[k].kind for k in right)
    wanted = Counter(d["class"] for d in gold.values())
    caught = Counter(gold[k]["class"] for k in right)
    for kind in kinds:
        precision_of, recall_of = ratio(hit[kind], made[kind]), ratio(caught[kind], wanted[kind])
        print(f"{kind:16} {precision_of:>14} {recall_of:>14}")
    precision = len(right) / len(found) if found else 0.0
    recall = len(right) / len(gold) if gold else 0.0
    print(f"{'overall':16} {ratio(len(right), len(found)):>14} {ratio(len(right), len(gold)):>14}")

    print("\nFalse positives:")
    for k in sorted(set(found) - right):
        d = found[k]
        abbreviation = f", {d.abbreviation}" if d.abbreviation else ""
        print(f"  {d.lesson}: {d.term!r} [{d.kind}{abbreviation}] — {d.sentence}")
    print("\nFound under another class:")
    for k in sorted(k for k in right if found[k].kind != gold[k]["class"]):
        print(f"  {found[k].lesson}: {found[k].term!r} found as {found[k].kind}, "
              f"labelled {gold[k]['class']}")
    print("\nMisses:")
    for k in sorted(set(gold) - right):
        d = gold[k]
        print(f"  {d['lesson']}: {d['term']!r} [{d['class']}] — {d['sentence']}")
    near = [
        (miss, d) for miss in labels.get("near_misses", ()) for d in found.values()
        if d.lesson == miss["lesson"] and normalize(miss["text"]).strip('". ') in normalize(
            d.sentence)
    ]
    print("\nFindings on labelled near-misses:" if near else "\nNo finding on a near-miss.")
    for miss, d in near:
        print(f"  {d.lesson}: {d.term!r} [{d.kind}] — {miss['text']} ({miss['why']})")
    return 0 if precision >= PRECISION_TARGET and recall >= RECALL_TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
