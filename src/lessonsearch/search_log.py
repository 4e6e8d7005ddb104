"""Searches that found nothing: a backlog of words readers expect the course to explain.

The log lives in the index folder, beside the versions, so it outlives rebuilds. Recording
must never slow or break a search: one ``write`` of one line to a file opened with
``O_APPEND`` (the kernel appends whole small writes atomically, so concurrent workers do not
interleave lines), and any ``OSError`` — a read-only disk, a full one — is logged once per
process and otherwise swallowed. The log
stops growing at ``MAX_LOG_BYTES``; reading aggregates it into counts per query. Control
characters (a NUL, a terminal escape) are spaces in what is written and in what is read, so
older logs show clean on the coverage page too.

The log says what found nothing when it was searched; the course may answer it since. The
report asks the live index again (``answered``) about the queries it would list, at most
``MAX_CHECKED`` of them, and leaves out those it answers now: the backlog is an editor's list
of what to write, and a query a lesson answers is written. The log itself is not changed, so
a query the course stops answering is listed again, with every search counted.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .query import names_words

ZERO_RESULTS_LOG = "zero-results.jsonl"
MAX_LOG_BYTES = 5 * 2**20
MAX_QUERY_CHARS = 200
"""Longer queries are cut: a pasted paragraph says little about a missing term."""
MAX_SHOWN = 50
"""The zero-result queries the report lists, most searched first."""
MAX_CHECKED = 2 * MAX_SHOWN
"""The logged queries the report searches for again, at most, to leave out those the course
answers now: a search that finds nothing is the costliest kind (every spelling and relaxed
reading is tried), and the log may hold thousands of queries. Past this many, the report
lists the ones still unanswered among them, however few."""


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
"""Unicode's control characters (category Cc): C0, DEL and C1."""


def clean_query(text: str) -> str:
    """``text`` with control characters as spaces and runs of whitespace as one space.

    A query arrives from any URL (``%00``, ``%1b``); nothing that reads like a query is shown
    or stored with characters no reader typed and no page or terminal shows safely.
    """
    return " ".join(_CONTROL.sub(" ", text).split())


@dataclass(frozen=True, slots=True)
class ZeroResult:
    query: str
    count: int
    last: str
    """When it was last searched for, ``YYYY-MM-DDTHH:MM:SSZ``."""


def record_zero_result(index_dir: Path, query: str) -> None:
    """Append one line for a search that found nothing; never raises ``OSError``. A query
    with no word in it (``?``, ``()``, ``-``: ``query.names_words``) is not a word the
    course lacks, and is not written."""
    query = clean_query(query)[:MAX_QUERY_CHARS]
    if not names_words(query):
        return
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    line = json.dumps({"query": query, "at": stamp}, ensure_ascii=False) + "\n"
    try:
        fd = os.open(Path(index_dir) / ZERO_RESULTS_LOG,
                     os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError as exc:
        _unrecorded(exc)
        return
    try:
        if os.fstat(fd).st_size < MAX_LOG_BYTES:
            os.write(fd, line.encode("utf-8"))
    except OSError as exc:
        _unrecorded(exc)
    finally:
        os.close(fd)


def _unrecorded(exc: OSError) -> None:
    """Say once per process that the backlog is not being kept: a read-only or full index
    folder lost every line without a word."""
    global _warned
    if not _warned:
        _warned = True
        log.warning("Searches that find nothing are not recorded (%s): the coverage page's "
                    "backlog needs a writable index folder", exc.strerror or exc)


_warned = False
log = logging.getLogger(__name__)


def read_zero_results(index_dir: Path, limit: int = MAX_SHOWN,
                      answered: Callable[[str], bool] | None = None
                      ) -> tuple[ZeroResult, ...]:
    """The most frequent zero-result queries (case and spacing folded), then the latest;
    with ``answered`` (whether the live index finds something for a query), without those
    it answers now, asking it about ``MAX_CHECKED`` queries at most."""
    counts: dict[str, list] = {}
    try:
        with open(Path(index_dir) / ZERO_RESULTS_LOG, encoding="utf-8", errors="replace") as f:
            for line in f:
                try:
                    entry = json.loads(line)
                    query, at = clean_query(str(entry["query"])), str(entry["at"])
                except (ValueError, KeyError, TypeError):
                    continue  # a torn or hand-edited line
                if not query:
                    continue
                key = " ".join(query.lower().split())
                seen = counts.setdefault(key, [query, 0, at])
                seen[1] += 1
                seen[2] = max(seen[2], at)
    except OSError:
        return ()
    ranked = sorted(counts.values(), key=lambda s: (-s[1], _descending(s[2]), s[0].lower()))
    # A query with no word in it (an older log's "?" or "()") is left out; asked of the
    # queries in rank order only until ``limit`` are found, not of every line of the log.
    named = (ZeroResult(query, count, last) for query, count, last in ranked
             if names_words(query))
    if answered is None:
        return tuple(itertools.islice(named, limit))
    unanswered = (found for found in itertools.islice(named, MAX_CHECKED)
                  if not answered(found.query))
    return tuple(itertools.islice(unanswered, limit))


def _descending(stamp: str) -> tuple[int, ...]:
    return tuple(-ord(c) for c in stamp)
