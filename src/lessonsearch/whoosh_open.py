"""Opening a version's Whoosh index: one that is missing, or whose files do not open, is
refused with the sentence that names the part and says to rebuild, never Whoosh's traceback.

Apart from ``searcher`` because a build asks too (before it links the live version's
segments into its own), and a build does not load the query side.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import pickle
import struct
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from whoosh import index
from whoosh.codec.whoosh3 import W3Codec
from whoosh.filedb.structfile import StructFile
from whoosh.index import EmptyIndexError
from whoosh.reading import SegmentReader

from .errors import IndexDamaged, IndexIncomplete
from .glossary_table import GLOSSARY_DB, GLOSSARY_PART
from .whoosh_index import WHOOSH_DIR


def open_search_index(version_dir: Path) -> tuple[Any, int]:
    """The version's Whoosh index and its number of documents, once its parts are known to
    be there and to open: a version without them (a copy not finished) or with one written
    over is refused as a damaged manifest is, with the sentence that names the part and
    says to rebuild it. Without its glossary file it answered every term as unknown, and
    the health check said all was well; with its table of contents or a segment's terms
    written over, every command gave Whoosh's traceback and the server a 500.

    Counting the documents opens each segment's reader, which reads each file's header:
    any error there is damage (Whoosh's own, or whatever its readers make of other bytes:
    ``struct.error``, ``UnicodeDecodeError``, …), so none is let through."""
    index_dir = str(version_dir.parent)
    folder = version_dir / WHOOSH_DIR
    try:
        opened = index.open_dir(str(folder))
    except EmptyIndexError as exc:
        raise IndexIncomplete(index_dir, "search index") from exc
    except Exception as exc:  # noqa: BLE001 - its table of contents, read: see above
        _close_what_it_left(exc)
        raise IndexIncomplete(index_dir, f"search index ({_contents_file(folder)})",
                              "is damaged") from exc
    try:
        count = opened.doc_count_all()
    except Exception as exc:  # noqa: BLE001 - a segment's files, read: see above
        _close_what_it_left(exc)
        part = f"search index ({_damaged_segment(opened)})"
        opened.close()
        raise IndexIncomplete(index_dir, part, "is damaged") from exc
    if not (version_dir / GLOSSARY_DB).is_file():
        opened.close()
        raise IndexIncomplete(index_dir, GLOSSARY_PART, "is missing")
    return opened, count


UNREADABLE_BYTES = (struct.error, zlib.error, pickle.UnpicklingError, EOFError,
                    UnicodeError)
"""What reading other bytes than a build wrote raises, in Whoosh or in ``posting_blocks``:
a format (``struct``; ``UnicodeEncodeError`` when Whoosh makes a format of a stored byte),
a compressed block (``zlib``), a pickled block or stored fields."""


@contextlib.contextmanager
def reading_index(version_dir: Path) -> Iterator[None]:
    """Read the version's Whoosh files during a search (postings, stored fields): an error
    that bytes written over raise is refused as ``IndexDamaged``, naming the file, not a
    traceback and a 500. Such a file keeps its size and its header, so it opened.

    Only the errors of reading bytes (``UNREADABLE_BYTES``, and Whoosh's own refusal of a
    block, a bare ``Exception`` such as "Block tag error"): a ``TypeError`` or a ``KeyError``
    of the code goes through as the bug it is. Bytes that read as a pickle of something
    else raise nothing here: ``stored_fields`` checks what they hold."""
    try:
        yield
    except Exception as exc:
        if not _unreadable(exc):
            raise
        version_dir = Path(version_dir)
        raise IndexDamaged(str(version_dir.parent), version_dir.name,
                           _file_read(exc)) from exc


def _unreadable(exc: BaseException) -> bool:
    return (isinstance(exc, UNREADABLE_BYTES) or type(exc) is Exception
            or isinstance(exc, (OSError, TypeError, ValueError, IndexError, OverflowError))
            and _raised_reading(exc))


_READING_FILES = (f"{os.sep}whoosh{os.sep}filedb{os.sep}", f"{os.sep}whoosh{os.sep}codec{os.sep}")
"""Where Whoosh reads its files: what is raised there, and not in the code that calls it, comes
of the bytes read. A position written over sends a ``seek`` before the file's start (``OSError``
"Invalid argument", 83 of 683 searches at 10,000 sections with every 97th byte of the terms
file changed), a block's header read as a number is unpacked as a tuple (``TypeError``)."""


def _raised_reading(exc: BaseException) -> bool:
    """Whether ``exc`` was raised by Whoosh's file reading (``_READING_FILES``), an
    ``OSError`` only as "Invalid argument": a file gone or a disk failing is no bytes
    written over."""
    if isinstance(exc, OSError) and exc.errno != errno.EINVAL:
        return False
    tb = exc.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    return any(part in tb.tb_frame.f_code.co_filename for part in _READING_FILES)


def stored_fields(version_dir: Path, searcher, docnum: int,
                  holds: Callable[[Any], bool]) -> dict[str, Any]:
    """Document ``docnum``'s stored fields, when they are what ``holds`` says a build
    writes; else, or when they cannot be read, ``IndexDamaged`` naming the segment's
    stored-fields file (``whoosh/MAIN_…._stored.col``).

    Bytes written over in that file need not fail to read: a table of lengths written over
    with zeros reads as no fields at all (``{}``), and other bytes may unpickle to a dict
    without the keys a hit reads, or with values of other types. Those went on as a
    ``KeyError`` or a ``TypeError`` far from here, a traceback on the CLI and a 500 from
    the server, and were not told from a bug; only here is it known that the dict came from
    the file. A type code in that table that is none (``array``'s ``ValueError``) is the
    file's too: nothing but Whoosh's reading of the one file runs here."""
    try:
        found = searcher.stored_fields(docnum)
    except Exception as exc:
        if not (_unreadable(exc) or isinstance(exc, ValueError)):
            raise
        raise _stored_damaged(version_dir, searcher, docnum) from exc
    if not holds(found):
        raise _stored_damaged(version_dir, searcher, docnum)
    return found


def _stored_damaged(version_dir: Path, searcher, docnum: int) -> IndexDamaged:
    version_dir = Path(version_dir)
    return IndexDamaged(str(version_dir.parent), version_dir.name,
                        _stored_file(searcher, docnum))


def _stored_file(searcher, docnum: int) -> str:
    """The stored-fields file of the segment that holds ``docnum``, as the version names
    it; the Whoosh folder when none does."""
    for reader, offset in searcher.reader().leaf_readers():
        if offset <= docnum < offset + reader.doc_count_all():
            return f"{WHOOSH_DIR}/{W3Codec.column_filename(reader.segment(), '_stored')}"
    return f"{WHOOSH_DIR}/"


def _file_read(exc: BaseException) -> str:
    """The Whoosh file the innermost frame of ``exc`` that holds one was reading, as the
    version names it; the Whoosh folder when none does."""
    name = None
    tb = exc.__traceback__
    while tb is not None:
        for value in tb.tb_frame.f_locals.values():
            if isinstance(value, StructFile) and isinstance(value._name, str):
                name = value._name
        tb = tb.tb_next
    return f"{WHOOSH_DIR}/{name}" if name else f"{WHOOSH_DIR}/"


def check_search_index(version_dir: Path) -> None:
    """Raise ``IndexIncomplete`` when the version's Whoosh index does not open: asked by a
    build before it links the version's segments into its own (7 ms at 10,000 sections),
    since a segment written over with bytes of its own size passes ``check_files``."""
    opened, _ = open_search_index(Path(version_dir))
    opened.close()


def _contents_file(folder: Path) -> str:
    """The Whoosh folder's table of contents (the newest, which Whoosh reads), as the
    version names it."""
    tocs = sorted(folder.glob("_*.toc"), key=lambda p: (len(p.name), p.name))
    return f"{WHOOSH_DIR}/{tocs[-1].name}" if tocs else f"{WHOOSH_DIR}/"


def _damaged_segment(opened) -> str:
    """The files of the first segment of ``opened`` that cannot be opened, as the version
    names them (``whoosh/MAIN_….*``); the folder when none fails alone. Only asked once the
    index failed to open, so it may take its time."""
    try:
        toc = opened._read_toc()
        for segment in toc.segments:
            try:
                SegmentReader(opened.storage, toc.schema, segment).close()
            except Exception as exc:  # noqa: BLE001 - this is the one
                _close_what_it_left(exc)
                return f"{WHOOSH_DIR}/{segment.segment_id()}.*"
    except Exception as exc:  # noqa: BLE001 - named by its folder, then
        _close_what_it_left(exc)
    return f"{WHOOSH_DIR}/"


def _close_what_it_left(exc: BaseException) -> None:
    """Close the files a failed Whoosh open left open: it does not close a file whose header
    it refuses (the table of contents, a segment's terms), and the file, held by the
    exception's frames, was closed only when the refusal was dropped, with a ResourceWarning
    far from here. The files are the frames' own (``tb_next``: not the frame that caught)."""
    tb = exc.__traceback__.tb_next if exc.__traceback__ is not None else None
    while tb is not None:
        for value in list(tb.tb_frame.f_locals.values()):
            open_file = (isinstance(value, StructFile) and not value.is_closed
                         or isinstance(value, io.IOBase) and not value.closed)
            if open_file:  # the same file may be in two frames: closed once
                value.close()
        tb = tb.tb_next
