"""Time and memory of the term coverage report on one built index.

    .venv/bin/python bench/bench_coverage.py --index /tmp/idx100k

Runs what ``GET /api/coverage``, ``/coverage`` and ``lessonsearch coverage`` run, each step
timed on its own, in a fresh process so the peak RSS is the report's: ``coverage_report`` on
the index's live version, the JSON body (``report_body``, serialised), and the page
(``render_html``, the same template ``/coverage`` renders). Prints wall time per step, the
sizes of what an editor downloads, and the process's peak and final RSS.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path

from lessonsearch import coverage_render
from lessonsearch.coverage import coverage_report
from lessonsearch.index_store import current_version


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", type=Path, required=True)
    args = parser.parse_args()
    version = current_version(args.index)
    print(f"index {version} (RSS at start {rss_mb():.0f} MB)")

    start = time.perf_counter()
    report = coverage_report(version, args.index)
    took = time.perf_counter() - start
    listed = sum(len(t.lessons) for t in report.terms)
    print(f"  coverage_report        {took:7.2f} s   {len(report.terms)} terms, "
          f"{len(report.lessons)} lessons, {listed} term-lesson places listed; "
          f"RSS {rss_mb():.0f} MB, peak {peak_mb():.0f} MB")

    start = time.perf_counter()
    body = json.dumps(coverage_render.report_body(report))
    took = time.perf_counter() - start
    print(f"  JSON body              {took:7.2f} s   {len(body) / 1e6:.1f} MB; "
          f"peak {peak_mb():.0f} MB")
    del body

    start = time.perf_counter()
    page = coverage_render.render_html(report)
    took = time.perf_counter() - start
    print(f"  HTML page              {took:7.2f} s   {len(page) / 1e6:.1f} MB; "
          f"peak {peak_mb():.0f} MB")
    print(f"  RSS at the end {rss_mb():.0f} MB, peak {peak_mb():.0f} MB")


if __name__ == "__main__":
    main()
