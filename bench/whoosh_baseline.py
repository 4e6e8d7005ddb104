"""The build the issue's build target is scaled by: a plain Whoosh index of the same course.

"A plain but sensibly set-up Whoosh index (...) builds about 2,000 sections/s" here, and the
target is 3,000. Absolute times drift on these machines by half or more, so the benchmark
builds that plain index in the same run: the course read by lessonsearch's own readers (a
build has to read it; they use every core, as in our build), then one Whoosh document per
section with Whoosh's ``StemmingAnalyzer`` on the fields FTS5 indexes (``fts5_baseline.py``),
written by Whoosh's own writer, with one process or with ``procs`` (its multiprocessing
writer, one segment per process), and committed. Timed from the lesson files to the commit,
as a lessonsearch build is.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from whoosh import fields, index
from whoosh.analysis import StemmingAnalyzer

from lessonsearch.course import read_course
from lessonsearch.whoosh_index import documents


def plain_whoosh_build(lessons: Path, procs: int = 1) -> tuple[int, float]:
    """(documents, seconds) of a plain Whoosh build of the course in ``lessons``."""
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        course = read_course(lessons).course
        text = StemmingAnalyzer()
        schema = fields.Schema(
            id=fields.ID(stored=True, unique=True), lesson=fields.ID(stored=True),
            anchor=fields.STORED, url=fields.STORED,
            lesson_title=fields.TEXT(analyzer=text, stored=True),
            heading=fields.TEXT(analyzer=text, stored=True),
            body=fields.TEXT(analyzer=text, stored=True), code=fields.TEXT(analyzer=text),
        )
        ix = index.create_in(folder, schema)
        writer = ix.writer(procs=procs, multisegment=procs > 1)
        count = 0
        for doc in documents(course):
            writer.add_document(id=doc.id, lesson=doc.lesson.slug, anchor=doc.anchor,
                                url=doc.url, lesson_title=doc.lesson.title,
                                heading=doc.heading or "", body=doc.body, code=doc.code)
            count += 1
        writer.commit()
        seconds = time.perf_counter() - started
        if index.open_dir(folder).doc_count() != count:
            raise RuntimeError("the plain Whoosh index lost documents")
        return count, seconds
