"""Index the real Software Carpentry lessons in ../shared/corpora and check glossary look-ups.

    .venv/bin/python bench/index_corpora.py [--corpora ../shared/corpora] [--top 10]

For each corpus, builds ``<corpus>/episodes`` with ``<corpus>/learners`` as the glossary folder
into a temporary index and prints lessons, sections, whether the lesson order came from
``config.yaml``, build seconds and sections per second. Then, for every glossary term, it
searches the term's name (``Searcher.search``) and counts a hit when the top results hold an
episode that links to that term's glossary anchor: episodes link as
``../learners/reference.md#anchor`` or, in shell-novice, through reference-style links to
``…/reference.html#anchor``. Terms no episode links to cannot hit; they are counted apart.
Prints a hit rate per corpus and every miss. Skips cleanly when the corpora are absent.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from lessonsearch.build import build_index  # noqa: E402
from lessonsearch.course_file import find_course_file  # noqa: E402
from lessonsearch.errors import BadQuery  # noqa: E402
from lessonsearch.index_store import current_version, read_manifest  # noqa: E402
from lessonsearch.searcher import Searcher  # noqa: E402

DEFAULT_CORPORA = ROOT.parent / "shared" / "corpora"

_ANCHOR = r"([A-Za-z0-9_-]+)"
INLINE_LINK = re.compile(r"\]\(\s*<?[^)\s]*reference\.(?:md|html)#" + _ANCHOR)
"""``[text](../learners/reference.md#anchor)``; stops at ``\\)``, a known corpus typo."""
LINK_DEFINITION = re.compile(
    r"^ {0,3}\[([^\]]+)\]:\s*<?\S*reference\.(?:md|html)#" + _ANCHOR, re.MULTILINE
)
"""``[Arguments]: https://…/reference.html#argument``."""
REFERENCE_USE = re.compile(r"\[([^\]]+)\]\[([^\]]*)\]|\[([^\]]+)\](?![(:\[])")
"""``[text][label]``, ``[label][]`` and the shortcut ``[label]``."""


@dataclass
class CorpusResult:
    name: str
    lessons: int = 0
    sections: int = 0
    seconds: float = 0.0
    order: str = ""
    linked_terms: int = 0
    hits: int = 0
    unlinked: list[str] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)
    dangling: list[str] = field(default_factory=list)


def glossary_links(text: str) -> set[str]:
    """Every glossary anchor an episode links to, inline or through a used link definition."""
    anchors = set(INLINE_LINK.findall(text))
    definitions = {label.strip().lower(): anchor for label, anchor in LINK_DEFINITION.findall(text)}
    if definitions:
        body = LINK_DEFINITION.sub("", text)
        for text_part, label, shortcut in REFERENCE_USE.findall(body):
            key = (label or text_part or shortcut).strip().lower()  # [label][] uses the text
            if key in definitions:
                anchors.add(definitions[key])
    return anchors


def order_source(corpus: Path, episodes: Path, manifest: dict) -> str:
    """Whether the built order is the one ``config.yaml`` lists."""
    course_file = find_course_file(episodes)
    if course_file is None or course_file.name != "config.yaml":
        return "file names (no config.yaml found)"
    listed = yaml.safe_load(course_file.read_text(encoding="utf-8")).get("episodes") or []
    built = [Path(lesson["source"]).name for lesson in manifest["lessons"]]
    if built == listed:
        return f"config.yaml (yes: {len(listed)} episodes in its order)"
    return f"NOT config.yaml: listed {listed}, built {built}"


def run_corpus(corpus: Path, top: int) -> CorpusResult:
    result = CorpusResult(corpus.name)
    episodes, learners = corpus / "episodes", corpus / "learners"
    with tempfile.TemporaryDirectory(prefix="lessonsearch-bench-") as tmp:
        started = time.perf_counter()
        report = build_index(episodes, learners if learners.is_dir() else None,
                             Path(tmp) / "index")
        result.seconds = time.perf_counter() - started
        result.lessons, result.sections = report.lessons, report.sections
        searcher = Searcher.open(Path(tmp) / "index")
        # The whole manifest: the searcher keeps only what its pages read (no sources).
        manifest = read_manifest(current_version(Path(tmp) / "index"))
        try:
            result.order = order_source(corpus, episodes, manifest)
            slug_of = {Path(x["source"]).name: x["slug"] for x in manifest["lessons"]}
            linking: dict[str, set[str]] = {}
            for path in sorted(episodes.glob("*.md")):
                for anchor in glossary_links(path.read_text(encoding="utf-8")):
                    linking.setdefault(anchor, set()).add(slug_of.get(path.name, path.stem))
            terms = [r for r in searcher.glossary.records if r.in_glossary]
            known = {r.anchor for r in terms}
            result.dangling = sorted(a for a in linking if a not in known)
            for record in terms:
                wanted = linking.get(record.anchor, set())
                if not wanted:
                    result.unlinked.append(record.term)
                    continue
                result.linked_terms += 1
                try:
                    found = [h.lesson for h in searcher.search(record.term, limit=top).results]
                except BadQuery as exc:
                    found = [f"(refused: {exc})"]
                if wanted & set(found):
                    result.hits += 1
                else:
                    result.misses.append(
                        f"{record.term!r} (#{record.anchor}) linked from "
                        f"{', '.join(sorted(wanted))}; top {top}: {', '.join(found) or 'nothing'}"
                    )
        finally:
            searcher.close()
    return result


def print_result(r: CorpusResult, top: int) -> None:
    rate = r.sections / r.seconds if r.seconds else 0.0
    print(f"== {r.name}")
    print(f"   {r.lessons} lessons, {r.sections} sections; order from {r.order}")
    print(f"   build {r.seconds:.2f} s, {rate:.0f} sections/s")
    share = f"{r.hits / r.linked_terms:.0%}" if r.linked_terms else "-"
    print(f"   glossary terms linked from episodes: {r.linked_terms}; "
          f"found in top {top}: {r.hits}/{r.linked_terms} = {share}")
    print(f"   terms no episode links to: {len(r.unlinked)}")
    if r.dangling:
        print(f"   links to anchors the glossary lacks: {', '.join(r.dangling)}")
    for miss in r.misses:
        print(f"   miss: {miss}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA)
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args(argv)
    if not args.corpora.is_dir():
        print(f"No corpora at {args.corpora}; nothing to benchmark (see shared/README.md).")
        return 0
    corpora = sorted(p for p in args.corpora.iterdir() if (p / "episodes").is_dir())
    if not corpora:
        print(f"No <corpus>/episodes folders under {args.corpora}; nothing to benchmark.")
        return 0
    results = []
    for corpus in corpora:
        if not (corpus / "learners").is_dir():
            print(f"== {corpus.name}: no learners/ glossary folder, skipped")
            continue
        results.append(run_corpus(corpus, args.top))
        print_result(results[-1], args.top)
    linked = sum(r.linked_terms for r in results)
    hits = sum(r.hits for r in results)
    sections = sum(r.sections for r in results)
    seconds = sum(r.seconds for r in results)
    print(f"== all {len(results)} corpora: {sum(r.lessons for r in results)} lessons, "
          f"{sections} sections in {seconds:.2f} s ({sections / seconds:.0f} sections/s); "
          f"glossary hit rate {hits}/{linked} = {hits / linked:.0%}" if linked and seconds
          else "== no results")
    return 0


if __name__ == "__main__":
    sys.exit(main())
