"""How well natural questions find the section that answers them: lessonsearch vs FTS5.

    .venv/bin/python bench/questions_eval.py
    .venv/bin/python bench/questions_eval.py --questions bench/questions_heldout.json \
        --lessons ../shared/corpora/shell-novice/episodes \
        --glossary ../shared/corpora/shell-novice/learners

Reads a judged set (by default ``bench/questions.json``, over the sample course: each
question with its answering lesson and anchor), builds the course into a temporary index,
and prints top-1, top-3 and MRR for lessonsearch and for the plain BM25 baseline (FTS5) over
the same sections, in one run. ``bench/questions_heldout.json`` is a held-out set over the
shell-novice lesson, written before any ranking was tuned: a change fitted to the default
set should help it too.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from fts5_baseline import Fts5Baseline  # noqa: E402

from lessonsearch.build import build_index  # noqa: E402
from lessonsearch.course import read_course  # noqa: E402
from lessonsearch.searcher import Searcher  # noqa: E402


def rank_of(hits: list[tuple[str, str | None]], lesson: str, anchor: str | None) -> int | None:
    for rank, (hit_lesson, hit_anchor) in enumerate(hits, start=1):
        if hit_lesson == lesson and (anchor is None or hit_anchor == anchor):
            return rank
    return None


def scores(ranks: list[int | None]) -> dict[str, float]:
    n = len(ranks)
    return {
        "top1": sum(1 for r in ranks if r == 1) / n,
        "top3": sum(1 for r in ranks if r is not None and r <= 3) / n,
        "mrr": sum(1 / r for r in ranks if r) / n,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, default=ROOT / "bench" / "questions.json",
                        help="the judged questions (default: bench/questions.json)")
    parser.add_argument("--lessons", type=Path, default=ROOT / "lessons",
                        help="the course's lessons folder (default: the sample course's)")
    parser.add_argument("--glossary", type=Path, default=None,
                        help="its glossary folder (default: the sample course's, when "
                             "--lessons is not given)")
    args = parser.parse_args(argv)
    glossary = args.glossary
    if glossary is None and args.lessons == ROOT / "lessons":
        glossary = ROOT / "glossary"
    questions = json.loads(args.questions.read_text(encoding="utf-8"))
    questions = questions["questions"] if isinstance(questions, dict) else questions
    with tempfile.TemporaryDirectory() as tmp:
        build_index(args.lessons, glossary, Path(tmp) / "index")
        searcher = Searcher.open(Path(tmp) / "index")
        baseline = Fts5Baseline(read_course(args.lessons).course)
        ours, theirs, misses = [], [], []
        for q in questions:
            response = searcher.search(q["question"], limit=10)
            hits = [(h.lesson, h.anchor) for h in response.results]
            ours.append(rank_of(hits, q["lesson"], q.get("anchor")))
            theirs.append(rank_of(baseline.search(q["question"]), q["lesson"], q.get("anchor")))
            if ours[-1] != 1:
                top = f"{hits[0][0]}#{hits[0][1]}" if hits else "nothing"
                misses.append(f"  rank {ours[-1]}: {q['question']!r} → {top}")
        searcher.close()
    print(f"{len(questions)} judged questions over {baseline.count} sections")
    print(f"{'':14} {'top-1':>6} {'top-3':>6} {'MRR':>6}")
    for name, ranks in (("lessonsearch", ours), ("FTS5 bm25", theirs)):
        s = scores(ranks)
        print(f"{name:14} {s['top1']:6.2f} {s['top3']:6.2f} {s['mrr']:6.3f}")
    if misses:
        print("not first:")
        print("\n".join(misses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
