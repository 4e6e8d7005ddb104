"""The coverage allow-list: entries an editor has accepted, so they stop failing CI.

One line per entry, ``kind: name`` (``unused: beam search``, ``broken-anchors:
lesson#anchor``), ``#`` starting a comment. Lines come from two places: the course file's
``[coverage]`` table, read at build time (``course_allow``) and stored in the manifest, and a
file read at report time (``--allow FILE``, by default ``./coverage-allow.txt``). A term is
named in any spelling the glossary knows; the kinds themselves are defined here because this
is where people spell them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .analysis import words
from .course_file import read_course_file
from .errors import LessonFormatError
from .term_lookup import Glossary

if TYPE_CHECKING:
    from .coverage import CoverageReport

KINDS = ("used-before-definition", "missing-from-glossary", "unused", "undefined",
         "conflicting", "candidates", "broken-anchors")
"""Every problem list, in the order the report shows them."""
DEFAULT_ALLOW_FILE = Path("coverage-allow.txt")
_COMMENT = re.compile(r"(?:^|\s)#.*$")
"""A comment: ``#`` at the start or after a space, so ``lesson#anchor`` stays whole."""


def read_allow(course_lines: Iterable[str], allow_file: Path | None) -> dict[str, list[str]]:
    """The course file's lines (from the manifest) and ``allow_file``'s, names per kind."""
    allow = parse_allow(course_lines, "the course file's [coverage] table")
    if allow_file is not None:
        if not Path(allow_file).is_file():
            raise FileNotFoundError(f"No allow-list file at {allow_file}")
        lines = Path(allow_file).read_text(encoding="utf-8").splitlines()
        for kind, names in parse_allow(lines, str(allow_file)).items():
            allow.setdefault(kind, []).extend(names)
    return allow


def default_allow_file() -> Path | None:
    """``coverage-allow.txt`` in the working directory, when there is one."""
    return DEFAULT_ALLOW_FILE if DEFAULT_ALLOW_FILE.is_file() else None


def entry_name(kind: str, entry: Any) -> str:
    """What an allow-list line names for ``entry``: a term, a phrase or ``lesson#anchor``."""
    if kind == "candidates":
        return entry.phrase
    if kind == "broken-anchors":
        return f"{entry.lesson}#{entry.anchor}"
    return entry.term


def parse_allow(lines: Iterable[str], source: str) -> dict[str, list[str]]:
    """``kind: name`` lines → names per kind; an unknown kind is an error, not a silent no-op,
    because a typo would otherwise leave CI failing for no visible reason."""
    allow: dict[str, list[str]] = {}
    for number, raw in enumerate(lines, start=1):
        line = _COMMENT.sub("", raw).strip()
        if not line:
            continue
        kind, colon, name = line.partition(":")
        kind = kind.strip().lower()
        if not colon or kind not in KINDS or not name.strip():
            raise LessonFormatError(source, f"expected 'kind: name' with kind one of "
                                    f"{', '.join(KINDS)}; got {raw.strip()!r}", number)
        allow.setdefault(kind, []).append(name.strip())
    return allow


def silence(report: CoverageReport, allow: dict[str, list[str]],
            glossary: Glossary) -> CoverageReport:
    """The report without the allowed entries; ``allowed`` counts them."""
    silenced, changes = 0, {}
    for kind, names in allow.items():
        wanted = {" ".join(words(n)) for n in names}
        terms = {r.term for n in names if (r := glossary.find(n))}
        kept = tuple(e for e in report.problems(kind) if not (
            " ".join(words(entry_name(kind, e))) in wanted
            or (kind not in ("candidates", "broken-anchors") and e.term in terms)
            or (kind == "broken-anchors" and e.old_url in names)
        ))
        silenced += len(report.problems(kind)) - len(kept)
        changes[kind.replace("-", "_")] = kept
    return replace(report, **changes, allowed=silenced)


def course_allow(lessons_dir: Path) -> list[str]:
    """The course file's ``[coverage]`` table as ``kind: name`` lines.

    Two spellings are read: ``allow = ["unused: beam search"]`` and, per kind,
    ``unused = ["beam search"]``. A broken course file was already reported by the build.
    """
    try:
        table = read_course_file(Path(lessons_dir)).allow
    except LessonFormatError:
        return []
    lines: list[str] = []
    for key, value in table.items():
        values = value if isinstance(value, list) else [value]
        if key == "allow":
            lines.extend(str(v) for v in values)
        else:
            lines.extend(f"{key}: {v}" for v in values)
    return lines
