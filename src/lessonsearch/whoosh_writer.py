"""Writing the Whoosh index: in chunks of lessons, so a small edit rewrites one chunk.

Lessons are written in course order into segments of about ``CHUNK_DOCS`` documents, one
segment per chunk, never merged. The next build links the previous version's files in (Whoosh
never rewrites a file in place), drops from the table of contents each chunk's segment that
holds a changed or removed lesson, and writes those chunks' lessons again as new segments,
new lessons with them (a large chunk cut in two: ``_spread``). No segment
holds a deleted document, so term statistics, and with them every score, are exactly those of
a full build.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import sys
from array import array
from collections import Counter
from collections.abc import Callable, Iterable
from functools import cache as cache_once
from functools import partial
from itertools import accumulate, chain, groupby
from operator import sub
from pathlib import Path
from typing import NamedTuple

from isal import isal_zlib
from whoosh import index
from whoosh.codec.whoosh3 import WHOOSH3_HEADER_MAGIC
from whoosh.filedb.filestore import FileStorage
from whoosh.util import random_name
from whoosh.util.numeric import byte_to_length, length_to_byte
from whoosh.writing import SegmentWriter

from .analysis import find_words
from .build_cache import BuildCache, fingerprint
from .index_store import file_checksum, flush, is_lock_file
from .parallel import Lazy, Started, start_in_processes, workers
from .whoosh_index import (
    SPELLING,
    WHOOSH_DIR,
    CourseText,
    Document,
    Postings,
    Terms,
    length_bytes,
    schema,
    spaced_words,
)

CHUNK_DOCS = 500
MAX_CHUNKS = 20
"""At most this many segments from a full build: each one costs every query a little."""
MAX_SEGMENTS = MAX_CHUNKS + MAX_CHUNKS // 4
"""At most this many segments after rewrites that cut their chunks (``_spread``): at 10k
sections, ten edits in ten chunks (28 segments) raised the p99 of distinct queries from
23.1 to 26.6 ms (bench/README.md)."""
COMPRESS_MIN = 4
"""Posting blocks of fewer postings are written uncompressed (``_write_postings``)."""
BLOCK_PROTOCOL = 5
"""The pickle protocol of a posting block's data (``_write_block``); Whoosh's is 2."""
DEFLATE = isal_zlib.compress
DEFLATE_LEVEL = 1
"""What compresses each document's stored fields and each large posting block: Intel's
ISA-L, which writes zlib's format (Whoosh's readers inflate it with ``zlib``) in under half
of zlib's time, and at its level 1 as small as zlib at Whoosh's level 3. zlib took 25 µs
of each document a build writes (bench/README.md)."""
POOL_MIN_DOCS = 1000
"""Fewer documents to write than this are written by this process, after the glossary;
this many or more are handed to other processes, and written while the glossary is.

A child process shares this one's memory until either writes to it; after the fork, every
page this process touches (reading an object writes its reference count) is copied, and
in a virtual machine each copy is a costly fault: 15,000 in a one-lesson rebuild at 10,000
sections. Writing the rebuild's chunk here (500 documents) made it 100–170 ms faster than
two processes writing half of it each; at 800 documents the two ways took the same time.
The glossary of a rebuild is a tenth of a second, and processes writing beside it slowed
it down twice over (bench/README.md)."""


def plan_whoosh(
    folder: Path,
    docs: Iterable[Document],
    keys: Callable[[], dict[str, str]],
    terms_of: Callable[[Document], Terms] = lambda doc: ((), (), ()),
    cache: BuildCache | None = None,
    previous: Path | None = None,
) -> WhooshWrite:
    """Plan writing the documents into a new Whoosh index in ``folder``: ``start()`` hands
    a large write (a full build's) to other processes, so this one can write the glossary
    meanwhile, and ``finish()`` writes what is left and commits the segments (documents,
    lessons written). ``terms_of`` names the terms a document mentions, those only its
    lesson's title names and those it defines (``GlossaryBuild.terms_of``); ``keys()``
    gives a digest of each lesson that determines its documents and their terms
    (``GlossaryBuild.lesson_keys``).

    With the ``previous`` version and its build ``cache``, only the chunks that changed are
    written. Without them, ``keys()`` is called only once the segments are handed over
    (``WhooshWrite.finish``). ``finish`` also writes ``spelling.json`` (see
    ``write_spelling``).
    """
    cache = cache or BuildCache()
    lessons = {slug: list(lesson_docs)
               for slug, lesson_docs in groupby(docs, key=lambda d: d.lesson.slug)}
    before = {slug: cache.previous("documents", slug) for slug in cache.previous_keys("documents")}
    old_chunks: dict[str, Chunk] = cache.previous("chunks", "all") or {}
    target = folder / WHOOSH_DIR
    old = previous / WHOOSH_DIR if previous is not None else None
    signed = cache_once(keys)
    if old is not None and old.is_dir() and old_chunks:
        _link_tree(old, target)
        ix = _open(target)
        kept, dirty = _split(old_chunks, signed(), before)
        placed = {slug for chunk in kept for slug in old_chunks[chunk].lessons}
        todo = [slug for slug in lessons if slug not in placed]
    else:
        ix = _BuildStorage(str(target)).create().create_index(schema())
        kept, dirty, todo = [], [], list(lessons)
    size = max(CHUNK_DOCS, sum(map(len, lessons.values())) // MAX_CHUNKS + 1)
    groups = _chunks(todo, lessons, size)
    if kept:
        groups = _spread(groups, lessons, MAX_SEGMENTS - len(kept), workers())
    return WhooshWrite(folder, ix, lessons, terms_of, signed, before, cache,
                       {chunk: old_chunks[chunk] for chunk in kept}, groups, bool(dirty))


class Chunk(NamedTuple):
    """Lessons written together, in course order, as one segment."""

    segment: str
    """The segment's id in Whoosh's table of contents."""
    lessons: list[str]


Group = list[tuple[str, list[dict], bool]]
"""The lessons of one chunk: (slug, the rows of its documents, whether to count its words:
the build cache has the counts of every lesson whose documents are unchanged)."""


class WhooshWrite:
    """New segments being written, one per group of lessons, in one commit, on every core
    as Whoosh's own multi-segment writer does: each child writes its segment's files without
    the lock, and ``finish`` lists them all. The children also count each lesson's words
    (``_surfaces``)."""

    def __init__(self, folder: Path, ix, lessons: dict[str, list[Document]],
                 terms_of: Callable[[Document], Terms],
                 signed: Callable[[], dict[str, str]],
                 before: dict[str, str], cache: BuildCache, chunks: dict[str, Chunk],
                 groups: list[list[str]], dropped: bool = False):
        """``chunks`` are the previous version's segments kept; the others are ``dropped``
        from the table of contents whole (every lesson in them is in ``groups`` again, or
        gone), so no segment is left holding deleted documents. ``signed()`` gives the
        lessons' digests now, ``before`` has the previous version's."""
        self._folder, self._lessons, self._signed = folder, lessons, signed
        self._before = before
        self._cache, self._chunks, self._groups = cache, chunks, groups
        # The lock is this process's; it also carries every segment the index already has.
        self._writer = ix.writer(compound=False) if groups or dropped else None
        self._items = Lazy(groups, partial(_item, lessons, terms_of, signed,
                                           cache.previous_keys("surfaces")))
        self._documents = sum(len(lessons[slug]) for group in groups for slug in group)
        self._write = partial(_write_segment, str(folder / WHOOSH_DIR))
        self.checksums: dict[str, int] = {}
        """The CRC-32 of each segment file written, by its name in the version folder."""
        self._started: Started | None = None

    def start(self) -> None:
        """Hand the segments to other processes now, to be written while this process does
        something else, if there are ``POOL_MIN_DOCS`` documents or more; ``finish``
        writes fewer itself."""
        if self._started is not None or self._documents < POOL_MIN_DOCS:
            return
        try:
            self._started = start_in_processes(self._write, self._items, min_items=1)
        except BaseException:
            self.cancel()
            raise

    def finish(self) -> tuple[int, int]:
        """Wait for the segments and commit them: (documents, lessons written)."""
        try:
            self.start()
            self._signed()  # made while the other processes still write
            written = (self._started.result() if self._started is not None
                       else [self._write(item) for item in self._items])
        except BaseException:
            self.cancel()
            raise
        self.checksums = {f"{WHOOSH_DIR}/{name}": crc for *_, sums in written
                          for name, crc in sums.items()}
        if self._writer is not None:
            keep = {chunk.segment for chunk in self._chunks.values()}
            new = [segment for segment, *_ in written]
            writer, self._writer = self._writer, None
            segments = [s for s in writer.segments if s.segment_id() in keep] + new
            writer._commit_toc(segments)
            writer._close_segment()
            # The writer's own segment, never used, had already opened a file.
            index.clean_files(writer.storage, writer.indexname, writer.generation, segments)
            writer._finish()
        counted = {slug: counts for _, found, _ in written for slug, counts in found.items()}
        for group, (segment, *_) in zip(self._groups, written, strict=True):
            self._chunks[fingerprint(group)] = Chunk(segment.segment_id(), group)
        self._cache.keep("chunks", "all", self._chunks)
        write_spelling(self._folder, self._spelling(counted))
        return sum(map(len, self._lessons.values())), sum(map(len, self._groups))

    def _spelling(self, counted: dict[str, dict[str, int]]) -> Counter[str]:
        """The words of the whole course with their counts, as a full build sums them: the
        previous build's total, less the lessons that changed or went, plus their new
        counts (``counted``: by the children, for the lessons the cache has no counts of)."""
        cache, signatures, before = self._cache, self._signed(), self._before
        total = cache.previous("spelling", "total")
        surfaces: dict[str, dict[str, int]] = {}
        for slug, signature in signatures.items():
            cache.keep("documents", slug, signature)
            if before.get(slug) == signature and cache.carry("surfaces", signature):
                continue  # unchanged: its words are in the previous total
            found = counted.get(slug) or cache.previous("surfaces", signature)
            docs = self._lessons[slug]
            surfaces[slug] = found if found is not None else _surfaces(
                docs[0].lesson.title, [(doc.heading_apart, doc.searched) for doc in docs])
            cache.keep("surfaces", signature, surfaces[slug])
        if total is None:
            total = Counter()
            for slug, signature in signatures.items():
                total.update(surfaces.get(slug) or cache.previous("surfaces", signature))
        else:
            total = Counter(total)
            for slug, signature in before.items():
                if slug in surfaces or slug not in signatures:
                    total.subtract(cache.previous("surfaces", signature) or {})
            for found in surfaces.values():
                total.update(found)
            total = +total  # words no lesson writes any more
        cache.keep("spelling", "total", dict(total))
        return total

    def cancel(self) -> None:
        """Stop: no segment is listed, and the lock is released."""
        started = getattr(self, "_started", None)
        if started is not None:
            started.cancel()
        if self._writer is not None:
            self._writer.cancel()
            self._writer = None


def _item(lessons: dict[str, list[Document]], terms_of: Callable[[Document], Terms],
          signed: Callable[[], dict[str, str]], counted: set[str], group: list[str]) -> Group:
    """One segment's work: its lessons' rows, and whether to count their words (the cache
    has the counts of the lessons the previous build counted; none in a full build)."""
    return [(slug, [doc.fields(*terms_of(doc)) for doc in lessons[slug]],
             not counted or signed()[slug] not in counted) for slug in group]


def _write_segment(folder: str, group: Group):
    """Write one segment's files (no table of contents, no lock): (the segment, the word
    counts of each of its lessons, each file's CRC-32 by its name). The checksums the
    manifest lists are taken here, from the page cache, while the other processes work,
    not by ``publish`` alone at the end (15–40 ms of reading at 10,000 sections)."""
    # A compound segment file is copied into memory on every open; separate files are mapped.
    writer = _SegmentWriter(_open(Path(folder)), _lk=False, limitmb=256, compound=False)
    counted = {}
    for slug, rows, count in group:
        texts = []
        for row in rows:
            if count:  # a body split once, for the index and for the lesson's word counts
                parts = list(row["content"])
                body = parts[2] = spaced_words(parts[2])
                row["content"] = tuple(parts)
                texts.append((None if row["kind"] == "check" else row["heading"], body))
            writer.add_row(row)
        if count:
            counted[slug] = _surfaces(rows[0]["lesson_title"], texts)
    segment = writer._finalize_segment()
    # Flushed while the other processes still work.
    paths = {name: os.path.join(folder, name) for name in segment.list_files(writer.storage)}
    flush(paths.values())
    return segment, counted, {name: file_checksum(path) for name, path in paths.items()}


def _open(folder: Path) -> index.FileIndex:
    return index.FileIndex(_BuildStorage(str(folder)), indexname=index._DEF_INDEX_NAME)


class _BuildStorage(FileStorage):
    """Whoosh's file storage, less a reference cycle that kept a whole build in memory.

    Every Whoosh writer makes its temporary folder twice; the second ``create`` catches
    "file exists" and keeps the exception in a local, so the exception, its traceback and
    every frame on the stack (``build._build`` with the course, its documents and the
    cache) stayed alive until the cycle collector found them, 0.25 s at 10k sections.
    """

    def create(self) -> _BuildStorage:
        os.makedirs(os.path.abspath(self.folder), exist_ok=True)
        return self

    def temp_storage(self, name: str | None = None) -> _BuildStorage:
        name = name or f"{random_name()}.tmp"
        return _BuildStorage(os.path.join(self.folder, name)).create()


class _SegmentWriter(SegmentWriter):
    """Whoosh's segment writer made cheap for our rows: the same files, byte for byte, but
    for how posting blocks are compressed and pickled (``_write_postings``,
    ``_write_block``) and what deflates the stored fields (``DEFLATE``); Whoosh reads them
    all back the same (``tests/test_whoosh_writer.py``).

    ``add_row`` is ``add_document`` for a row of plain values, each field's handling worked
    out once per segment, not once per field of every document. Postings go straight to
    their term's list in document order, so nothing is sorted but the terms: Whoosh's pool
    weighs every posting to decide when to spill to disk (a segment here is a few thousand
    documents: it never spills), sorts them all, and its field writer takes them one call
    at a time, looking each one's document length up in the new segment's files. Here
    each term's postings are cut into Whoosh's blocks and encoded as Whoosh's block writer
    encodes them (``_write_block``); lengths are read once per field.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.pool = _Postings()
        self._names = frozenset(self.schema.names())
        stored = self.perdocwriter._get_column("_stored")._child  # pickled, then deflated
        stored._compress, stored._level = DEFLATE, DEFLATE_LEVEL
        # Interned, as keyword names are: the stored fields pickle a key that is also a
        # value ("section") as a reference to it, so they must be the very same strings.
        self._plan = [
            (sys.intern(name), field, field.indexed, field.scorable, field.stored,
             field.column_type, type(field) is CourseText)
            for name, field in sorted(self.schema.items())
        ]

    def add_row(self, row: dict[str, object]) -> None:
        """``add_document(**row)`` for a row without Whoosh's ``_boost`` or ``_stored_``
        keys: every name must be a field of the schema. A field's stored value goes
        straight into the document's stored fields, and the per-document writer hears only
        of a length to write (its ``add_field`` was a call for every field of every row)."""
        if not row.keys() <= self._names:
            return self.add_document(**row)  # Whoosh names the unknown field
        self._check_state()
        docnum, perdoc, terms = self.docnum, self.perdocwriter, self.pool.terms
        perdoc.start_doc(docnum)
        stored_fields = perdoc._storedfields  # what finish_doc pickles and deflates
        for name, field, indexed, scorable, stored, column, ours in self._plan:
            value = row.get(name)
            if value is None:
                continue
            if indexed:
                postings = terms.setdefault(name, {})
                if ours and field.indexes_fast(value):
                    length = field.add_postings(value, docnum, postings)
                else:
                    length = _add_postings(field.index(value), docnum, postings)
                if scorable and length:
                    perdoc.add_field(name, field, None, length)  # its length column
            if stored:
                stored_fields[name] = value
            if column:
                perdoc.add_column_value(name, column, field.to_column_value(value))
        perdoc.finish_doc()
        self._added = True
        self.docnum += 1
        return None

    def _flush_segment(self):
        self.perdocwriter.close()
        perdoc = self.per_document_reader()
        try:
            lengths = _lengths(perdoc, self.schema)
        finally:
            perdoc.close()
        _write_postings(self.fieldwriter, self.schema, lengths, self.pool.terms)
        self.fieldwriter.close()


class _Postings:
    """Where a document's postings go: field → term → [docnum, weight, value, docnum, …],
    each posting's three values one after another, in the order documents are added
    (``whoosh_index.Postings``): a tuple a posting cost about as much to free, when the
    segment was written, as to make. ``add`` takes Whoosh's own (field, term, docnum,
    weight, value), for a row ``add_row`` hands to ``add_document``."""

    def __init__(self):
        self.terms: dict[str, Postings] = {}

    def add(self, item: tuple) -> None:
        name, text, *posting = item
        self.terms.setdefault(name, {}).setdefault(text, []).extend(posting)

    def cleanup(self) -> None:
        self.terms.clear()


def _add_postings(indexed: Iterable[tuple[bytes, int, float, bytes]], docnum: int,
                  postings: Postings) -> int:
    """Add the postings a field's ``index`` made of a value to ``postings`` as document
    ``docnum``'s; the sum of their frequencies."""
    length = 0
    for text, freq, weight, encoded in indexed:
        length += freq
        found = postings.get(text)
        if found is None:
            postings[text] = [docnum, weight, encoded]
        else:
            found += (docnum, weight, encoded)
    return length


def _lengths(perdoc, schema) -> dict[str, list[int]]:
    """Every scorable field's document lengths, read from the segment's length columns."""
    count = perdoc.doc_count_all()
    return {name: list(map(byte_to_length, length_bytes(perdoc, name, count)))
            for name, field in schema.items() if field.scorable}


def _write_postings(fieldwriter, schema, lengths: dict[str, list[int]],
                    terms: dict[str, Postings]) -> None:
    """What ``FieldWriter.add_postings`` writes for the pool's postings, a block at a time:
    the block's statistics are worked out here as ``W3PostingsWriter.add_posting`` would,
    and ``_write_block`` encodes it.

    Whoosh deflates every block, however small (its test for a pickle under 20 bytes is
    overwritten on the next line), and zlib's ``compress`` cost about 40 µs whatever its
    input. Most blocks are a rare word's few postings, which deflating hardly shrinks:
    blocks under ``COMPRESS_MIN`` postings are left as they are, two thirds fewer calls for
    3 % more bytes of postings (bench/README.md). Readers inflate only the blocks marked
    compressed."""
    for fieldname in sorted(terms):
        fieldwriter.start_field(fieldname, schema[fieldname])
        field_lengths = lengths.get(fieldname)
        writer = fieldwriter._postwriter
        limit, compression = writer._blocklimit, writer._compression
        postings, step = terms[fieldname], 3 * limit  # three values a posting
        for btext in sorted(postings):
            fieldwriter.start_term(btext)
            term = postings[btext]
            for start in range(0, len(term), step):
                block = term[start:start + step] if len(term) > step else term
                ids, weights = block[0::3], block[1::3]
                writer._ids = array("I", ids)
                writer._weights = array("f", weights)
                writer._values = list(filter(None, block[2::3]))
                writer._maxweight = max(0, max(weights))
                found = (list(filter(None, map(field_lengths.__getitem__, ids)))
                         if field_lengths else ())
                writer._minlength = min(found) if found else None
                writer._maxlength = max(found) if found else 0
                _write_block(writer, start + step >= len(term),
                             compression if len(ids) >= COMPRESS_MIN else 0)
            fieldwriter.finish_term()
        fieldwriter.finish_field()


def _write_block(writer, last: bool, compression: int) -> None:
    """``W3PostingsWriter._write_block``: the same block, its data pickled with
    ``BLOCK_PROTOCOL``, where Whoosh's protocol 2 writes every positions value (bytes) as a
    call that makes it again from a string. Protocol 5 writes the bytes as they are, so a
    block takes 40 % fewer bytes deflated, and pickling, deflating and reading it back take
    a half to a fifth of the time (bench/README.md). Whoosh's reader unpickles either."""
    postfile = writer._postfile
    if not writer._blockcount:
        postfile.write(WHOOSH3_HEADER_MAGIC)
    writer._terminfo.add_block(writer)
    data = pickle.dumps((_mini_ids(writer), _mini_weights(writer), writer._mini_values()),
                        BLOCK_PROTOCOL)
    if compression:
        data = DEFLATE(data, DEFLATE_LEVEL)
    ids = writer._ids
    info = pickle.dumps((len(ids), ids[-1], writer._maxweight, compression,
                         length_to_byte(writer._minlength), length_to_byte(writer._maxlength)), 2)
    length = len(info) + len(data)
    postfile.write_int(-length if last else length)  # negative: the term's last block
    postfile.write(info)
    postfile.write(data)
    writer._blockcount += 1
    writer._new_block()


def _mini_ids(writer) -> tuple[int, ...]:
    """``W3PostingsWriter._mini_ids``: the block's document numbers as the gaps between
    them (the first from 0), worked out in C, not by a Python generator step per posting."""
    ids = writer._ids
    return tuple(ids) if writer._byteids else tuple(map(sub, ids, chain((0,), ids)))


def _mini_weights(writer) -> float | tuple[float, ...] | None:
    """``W3PostingsWriter._mini_weights``: None when every weight is 1, the one weight when
    all are equal, else all of them; counted in C, not by a generator step per posting."""
    weights = writer._weights
    if weights.count(1.0) == len(weights):
        return None
    if weights.count(weights[0]) == len(weights):
        return weights[0]
    return tuple(weights)


def _split(
    old_chunks: dict[str, Chunk], signatures: dict[str, str], before: dict[str, str]
) -> tuple[list[str], list[str]]:
    """Chunks whose lessons are all unchanged (kept), and the others (rewritten)."""
    kept, dirty = [], []
    for name, chunk in old_chunks.items():
        same = all(signatures.get(s) == before.get(s) for s in chunk.lessons)
        (kept if same else dirty).append(name)
    return kept, dirty


def _chunks(slugs: list[str], lessons: dict[str, list[dict]], size: int) -> list[list[str]]:
    groups: list[list[str]] = []
    count = size
    for slug in slugs:
        if count >= size:
            groups.append([])
            count = 0
        groups[-1].append(slug)
        count += len(lessons[slug])
    return groups


def _spread(groups: list[list[str]], lessons: dict[str, list], budget: int, parts: int,
            ) -> list[list[str]]:
    """A rewrite's chunks cut in two at a lesson, the largest first, up to one per core.
    Chunks of half the full size or more are cut, so a lesson edited again and again soon
    sits in a chunk a quarter of the full size and its rebuilds rewrite a quarter as much;
    a rewrite large enough for other processes (``POOL_MIN_DOCS``) gives each of them one
    to write. Only while the index keeps at most ``budget`` new segments; ``--full`` joins
    them up again."""
    groups = list(groups)
    while len(groups) < min(parts, budget):
        sizes = [sum(len(lessons[slug]) for slug in group) for group in groups]
        largest = max(range(len(groups)), key=sizes.__getitem__, default=None)
        if largest is None or sizes[largest] < CHUNK_DOCS // 2 or len(groups[largest]) < 2:
            break
        group = groups[largest]
        before = list(accumulate(len(lessons[slug]) for slug in group))
        cut = min(range(1, len(group)), key=lambda i: abs(2 * before[i - 1] - before[-1]))
        groups[largest:largest + 1] = [group[:cut], group[cut:]]
    return groups


def _link_tree(source: Path, target: Path) -> None:
    """Hard links to the previous version's files (copies where links are refused)."""
    target.mkdir(parents=True)
    for path in source.iterdir():
        if is_lock_file(path.name) or not path.is_file():
            continue
        try:
            os.link(path, target / path.name)
        except OSError:
            shutil.copy2(path, target / path.name)


def _surfaces(title: str, texts: Iterable[tuple[str | None, str | list[str | None]]]
              ) -> dict[str, int]:
    """How often one lesson writes each word (its title, once, headings and text, as readers
    see them, and as a section is found by its lesson's title): ``texts`` are its documents'
    (heading, None for a check question's, which its text writes: ``Document.heading_apart``;
    text it is found by: ``Document.searched``), each text as text or as its
    words, split as the index splits it, its gaps None (``_write_segment`` splits each once
    for both). The words are lower-cased as the index reads them: ``Notepad++`` is one word,
    ``count++`` the word count (``analysis.WORD``)."""
    words = find_words(title)
    for heading, body in texts:
        if heading:
            words += find_words(heading)
        words += filter(None, body) if type(body) is list else find_words(body)
    found: dict[str, int] = {}
    for word, count in Counter(words).items():
        lowered = word.lower()
        found[lowered] = found.get(lowered, 0) + count
    return found


def write_spelling(folder: Path, surfaces: Counter[str]) -> None:
    """Every word the course writes, with how often: spelling corrections are chosen among
    these and shown as a reader would write them, not as stems. Words of one or two letters
    are too near too many others to be guessed at, so only those with accents are kept:
    "ca" is corrected to "ça", a word of any length, as README says."""
    words = {w: n for w, n in surfaces.items()
             if (len(w) > 2 or not w.isascii()) and not w.isdigit()}
    (folder / SPELLING).write_text(json.dumps(words, ensure_ascii=False, sort_keys=True),
                                   encoding="utf-8")
