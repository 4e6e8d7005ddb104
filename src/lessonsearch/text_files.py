"""The course's files as UTF-8 text, and what to say plainly when one is not.

Lessons, glossary files, the course file and the coverage allow-list are all UTF-8. A file
saved as UTF-16 (Windows Notepad's "Unicode") holds a NUL byte beside each Latin letter:
decoded as UTF-8 it fails at its byte order mark, or without one reads as text with a NUL
between the letters, which a warning quoting a line shows as garbage. Such a file is named
as UTF-16 instead, with what to do about it.
"""

from __future__ import annotations

import codecs

from .errors import LessonFormatError

_SAMPLE = 4096


def wide_encoding(raw: bytes) -> str | None:
    """``"UTF-16"`` or ``"UTF-32"`` when ``raw`` starts with that encoding's byte order
    mark, ``"UTF-16"`` when it has none but a NUL as most of its even or most of its odd
    bytes (UTF-16 text of Latin letters); else None."""
    if raw.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "UTF-32"
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "UTF-16"
    sample = raw[:_SAMPLE]
    pairs = len(sample) // 2
    if pairs and max(sample[0::2].count(0), sample[1::2].count(0)) > pairs / 2:
        return "UTF-16"
    return None


def saved_as(encoding: str) -> str:
    """What to say about a file saved as ``encoding`` (``wide_encoding``'s answer), and
    what to do about it."""
    return f"saved as {encoding}, not UTF-8; {SAVE_AS_UTF8}"


SAVE_AS_UTF8 = "save it as UTF-8"


def decode(raw: bytes, source: str) -> str:
    """``raw`` as text, a UTF-8 byte order mark (which Windows editors write) skipped; or
    ``LessonFormatError`` naming ``source``: saved as UTF-16, or not UTF-8 at its first byte
    that is not, with that byte's line and column."""
    if encoding := wide_encoding(raw):
        raise LessonFormatError(source, saved_as(encoding))
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        data, at = exc.object, exc.start  # without the byte order mark, if there was one
        line = data.count(b"\n", 0, at) + 1
        column = at - (data.rfind(b"\n", 0, at) + 1) + 1
        raise LessonFormatError(source, f"not UTF-8 text (byte 0x{data[at]:02x})",
                                line, column) from exc
