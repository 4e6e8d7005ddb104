"""Read a whole course folder: every lesson file, in course order, problems collected.

A broken file never stops the course: it becomes a Problem naming the file (and line, where
one applies), is counted as skipped, and the rest is read. Duplicated lessons are resolved
here, and derived facts (URL, module, position, prev/next) filled in from the course file.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from .build_cache import BuildCache, fingerprint, pickled
from .course_file import COURSE_FILES, DEFAULT_BASE_URL, CourseFile, read_course_file
from .errors import LessonFormatError
from .folder_walk import entries_below, named
from .links import is_web_link, not_a_link
from .model import (
    Course,
    CourseInfo,
    CourseRead,
    Lesson,
    LessonLink,
    Module,
    Problem,
    quoted,
)
from .parallel import start_in_processes
from .readers.json_export import read_json_lesson
from .readers.markdown import read_markdown_lesson
from .readers.metadata import MAX_POSITION
from .readers.plaintext import read_text_lesson
from .slugs import slug_from_filename, slugify
from .text_files import decode, saved_as, wide_encoding

READERS: dict[str, Callable[[str, str], Lesson]] = {
    ".json": read_json_lesson,
    ".md": read_markdown_lesson,
    ".markdown": read_markdown_lesson,
    ".txt": read_text_lesson,
}
MAX_FILE_BYTES = 10 * 1024 * 1024
_RICHNESS = {"json": 3, "markdown": 2, "text": 1}
_WORD = re.compile(r"\w+")


def lesson_files(lessons_dir: Path, unlisted: dict[str, Problem] | None = None,
                 index_dir: Path | None = None) -> list[str]:
    """Every file below the folder except hidden ones and the course file itself, in the
    order of their paths' parts. Plain strings: a course of 12,500 files spent a tenth of a
    one-lesson rebuild making and sorting ``Path``s.

    A linked folder is entered, each folder once (``folder_walk``): a shared folder of
    lessons linked in was left out without a word. A link to nothing, or to itself, is
    listed, and the build's reading it says why it cannot (it was left out without a word,
    or stopped the build). A folder below that cannot be opened, a link to a folder that
    holds the course, and a folder named like a lesson file (``x.md``), are listed too,
    with the problem in ``unlisted`` by its path: one folder ``chmod 000`` stopped the build.

    An ``index_dir`` inside the folder is not entered: its files are the index's, not
    lessons (each of its versions made twelve warnings on every build)."""
    unlisted = {} if unlisted is None else unlisted
    unread: dict[str, str] = {}
    found: list[str] = []
    skip = None if index_dir is None else str(index_dir)
    for entry in entries_below(str(lessons_dir), unread, skip):
        if entry.is_symlink() and not os.path.isdir(entry.path):
            if not os.path.exists(entry.path) or os.path.isfile(entry.path):
                found.append(entry.path)
        elif entry.is_dir():
            if _suffix(entry.name).lower() in READERS:
                found.append(entry.path)
                unlisted[entry.path] = Problem(
                    _display(entry.path, lessons_dir), "is a folder, not a lesson file; the "
                    "files in it are read as any folder's are")
        elif entry.is_file() and entry.name not in COURSE_FILES:
            found.append(entry.path)
    for folder, why in unread.items():
        if folder not in unlisted:
            found.append(folder)
        unlisted[folder] = Problem(_display(folder, lessons_dir), why, skipped=True)
    return sorted(found, key=lambda path: path.split(os.sep))


def index_inside(index_dir: Path | None, lessons_dir: Path) -> str | None:
    """``index_dir`` as a path below the lessons folder, where it is inside it (a link on
    the way resolved, as the system does); else None."""
    if index_dir is None:
        return None
    inner = os.path.relpath(os.path.realpath(index_dir), os.path.realpath(lessons_dir))
    if inner in (os.curdir, os.pardir) or inner.startswith(os.pardir + os.sep):
        return None
    return os.path.join(str(lessons_dir), inner)


def read_lesson_file(path: Path | str, display: str, cache: BuildCache | None = None,
                     ) -> Lesson:
    """One lesson file, or LessonFormatError saying why it cannot be read.

    With a ``cache``, a file whose bytes are unchanged since the last build is not parsed again.
    """
    raw = _lesson_bytes(path, display)
    suffix = _suffix(path)
    if cache is None:
        return _parse(raw, suffix, display)
    return cache.remember("lessons", _file_key(display, raw),
                          lambda: _parse(raw, suffix, display))


def _file_key(display: str, raw: bytes) -> str:
    """A file's key in the lessons cache: its name and the SHA-256 of its bytes."""
    return f"{display}:{hashlib.sha256(raw).hexdigest()}"


def _suffix(path: Path | str) -> str:
    return os.path.splitext(path)[1]


def _lesson_bytes(path: Path | str, display: str) -> bytes:
    """The file's bytes, once it is known to be a lesson file this tool can read."""
    suffix = _suffix(path)
    if suffix.lower() not in READERS:
        known = ", ".join(sorted(READERS))
        raise LessonFormatError(display, f"unknown file type {suffix or '(none)'!r}; "
                                f"lessons are {known}")
    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if size > MAX_FILE_BYTES:
            raise LessonFormatError(display, f"file is {size / 1e6:.1f} MB, over the "
                                    f"{MAX_FILE_BYTES // 2**20} MB limit for one lesson")
        raw = handle.read()
    if encoding := wide_encoding(raw):  # its NUL bytes would call it a binary file
        raise LessonFormatError(display, saved_as(encoding))
    if b"\x00" in raw[:8192]:
        raise LessonFormatError(display, "looks like a binary file (it contains NUL bytes)")
    return raw


def _parse(raw: bytes, suffix: str, display: str) -> Lesson:
    text = decode(raw, display)
    reader = READERS[suffix.lower()]
    lesson = reader(text.replace("\r\n", "\n").replace("\r", "\n"), display)
    if lesson.sections or lesson.check or lesson.key_idea or lesson.answer:
        return lesson
    # A title line alone (a lesson begun, a copy cut short) was indexed without a word, and
    # no search found it.
    empty = Problem(display, "the lesson has no text beyond its title: it is listed among "
                    "the lessons, but no search finds it")
    return dataclasses.replace(lesson, warnings=(empty, *lesson.warnings))


def _parse_or_problem(job: tuple[bytes, str, str]) -> Lesson | Problem:
    """``_parse`` for a pool worker: a file that cannot be read comes back as its Problem."""
    raw, suffix, display = job
    try:
        return _parse(raw, suffix, display)
    except LessonFormatError as exc:
        return Problem(exc.path, exc.reason, exc.line, exc.column, skipped=True)
    except (RecursionError, ValueError) as exc:
        return Problem(display, f"cannot read: {exc}", skipped=True)


def read_course(
    lessons_dir: Path,
    base_url: str | None = None,
    on_file: Callable[[int, int, str], None] | None = None,
    cache: BuildCache | None = None,
    index_dir: Path | None = None,
) -> CourseRead:
    """Read every lesson below ``lessons_dir``; ``on_file(done, total, name)`` reports
    progress. An ``index_dir`` (the build's ``--out``) inside it is not read."""
    lessons_dir = named(Path(lessons_dir))  # "--lessons .": lessons/03.md, not /03.md
    problems: list[Problem] = []
    try:
        course_file = read_course_file(lessons_dir)
    except LessonFormatError as exc:
        problems.append(Problem(exc.path, exc.reason, exc.line, exc.column))
        course_file = CourseFile()
    problems.extend(course_file.problems)
    if base_url and not is_web_link(base_url):
        problems.append(Problem("--base-url", f"{not_a_link('the base URL', base_url)}; the "
                                "course file's, or /lessons/, is used instead"))
        base_url = None
    cache = cache or BuildCache()
    if cache.previous_keys("lessons"):
        outcomes, file_keys = _read_files(lessons_dir, cache, on_file, index_dir)
    else:
        outcomes, file_keys = _read_files_elsewhere(lessons_dir, cache, on_file, index_dir)
    lessons: list[Lesson] = []
    for outcome in outcomes:
        if isinstance(outcome, Problem):
            problems.append(outcome)
        else:
            lessons.append(outcome)
            problems.extend(outcome.warnings)
    problems.extend(_listed_but_missing(course_file, outcomes, lessons_dir))
    if course_file.uses_stem_urls:
        lessons = [_slug_from_stem(x) for x in lessons]
    lessons = _drop_duplicates(lessons, problems)
    problems.extend(_position_problems(lessons, course_file))
    problems.extend(_in_no_module(lessons, course_file))
    given = _given_places(lessons, course_file)
    lessons = _order(lessons, course_file, given)
    info = course_file.info or next((x.course for x in lessons if x.course), None)
    info = info or CourseInfo(slugify(lessons_dir.resolve().name), lessons_dir.resolve().name)
    base = base_url or course_file.base_url or DEFAULT_BASE_URL
    lessons = _complete(lessons, course_file, info, base, _shown_positions(lessons, given))
    modules = _in_index_order(dict.fromkeys(x.module for x in lessons if x.module))
    files = {x.slug: file_keys[x.source].rpartition(":")[2] for x in lessons}
    keys = {x.slug: _lesson_keys(files[x.slug], x) for x in lessons}
    return CourseRead(Course(info, tuple(lessons), modules), _in_line_order(problems),
                      {slug: key for slug, (key, _) in keys.items()},
                      {slug: own for slug, (_, own) in keys.items()}, files)


def _in_line_order(problems: list[Problem]) -> tuple[Problem, ...]:
    """Each file's problems together, at the place its first one was found (files keep the
    order they were read in), and top to bottom: a reader's checks run key by key, and the
    checks of the whole course (positions, duplicates) after every file, so one export's
    warnings came as lines 10, 9, 12. A problem of the whole file (no line) comes first."""
    first: dict[str, int] = {}
    for number, problem in enumerate(problems):
        first.setdefault(problem.path, number)
    return tuple(sorted(problems, key=lambda p: (first[p.path], p.line or 0)))


RACY_NS = 2_000_000_000
"""A file whose status changed less than this before the previous build looked at it (or
after) is read again whatever its status says: file systems may keep times to the second."""


def _read_files(lessons_dir: Path, cache: BuildCache, on_file: Callable | None,
                index_dir: Path | None) -> tuple[list[Lesson | Problem], dict[str, str]]:
    """Each lesson file's Lesson, or why it cannot be read, in file order; and each
    readable file's key in the lessons cache (its name and the SHA-256 of its bytes).
    What the cache holds is not parsed again.

    A file whose status (size, times, inode) is the one the previous build saw, unchanged
    for a while when it looked, keeps the key it had and is not read at all: a write always
    moves a file's change time, which no one can set back."""
    before = cache.previous("files", "status") or {"checked": 0, "files": {}}
    trusted, known = before["checked"] - RACY_NS, before["files"]
    parsed = cache.previous_keys("lessons")
    now = {"checked": time.time_ns(), "files": {}}
    unlisted: dict[str, Problem] = {}
    files = lesson_files(lessons_dir, unlisted, index_dir)
    read: list[Problem | None] = []
    jobs: list[tuple[str, tuple[bytes | None, str, str]]] = []
    for done, path in enumerate(files, start=1):
        display = _display(path, lessons_dir)
        try:
            if path in unlisted:
                read.append(unlisted[path])
            else:
                jobs.append(_job(path, display, known, trusted, parsed, now["files"]))
                read.append(None)
        except (LessonFormatError, OSError) as exc:
            read.append(_unreadable(exc, display))
        if on_file:
            on_file(done, len(files), display)
    cache.keep("files", "status", now)
    parsed_now = iter(cache.remember_many("lessons", jobs, _parse_or_problem))
    return ([problem or next(parsed_now) for problem in read],
            {display: key for key, (_, _, display) in jobs})


def _job(path: str, display: str, known: dict, trusted: int, parsed: set, now: dict
         ) -> tuple[str, tuple[bytes | None, str, str]]:
    """One file's job for ``_read_files``: its key in the lessons cache and, where its
    status does not vouch that the cache holds it, its bytes. ``now`` hears its status."""
    stat = os.stat(path)
    status = _status(stat)
    seen, key = known.get(display, (None, None))
    raw = None
    changed = max(stat.st_mtime_ns, stat.st_ctime_ns)  # ctime: creation on Windows
    if seen != status or changed >= trusted or key not in parsed:
        raw = _lesson_bytes(path, display)
        key = _file_key(display, raw)
    now[display] = (status, key)
    return key, (raw, _suffix(path), display)


def _read_files_elsewhere(lessons_dir: Path, cache: BuildCache, on_file: Callable | None,
                          index_dir: Path | None,
                          ) -> tuple[list[Lesson | Problem], dict[str, str]]:
    """``_read_files`` for a build with no lesson to reuse (the first, or ``--full``): each
    file is read, hashed and parsed by the process that parses it, so the others start at
    once. Reading every file here first kept them waiting a tenth of a second at 10,000
    sections (bench/README.md). ``on_file`` hears of each file as its batch comes back
    parsed."""
    now = {"checked": time.time_ns(), "files": {}}  # before any file's status is taken
    unlisted: dict[str, Problem] = {}
    files = lesson_files(lessons_dir, unlisted, index_dir)
    jobs = [(path, _display(path, lessons_dir), unlisted.get(path)) for path in files]
    read: list[tuple[str | None, tuple | None, bytes]] = []
    file_keys: dict[str, str] = {}
    for batch in start_in_processes(_read_and_parse, jobs).batches():  # reported as parsed
        for found in batch:
            key, status, _ = found
            display = jobs[len(read)][1]
            read.append(found)
            if key is not None:
                now["files"][display] = (status, key)
                file_keys[display] = key
            if on_file:
                on_file(len(read), len(files), display)
    cache.keep("files", "status", now)
    return cache.keep_pickled("lessons", [(key, data) for key, _, data in read]), file_keys


def _read_and_parse(job: tuple[str, str, Problem | None]
                    ) -> tuple[str | None, tuple | None, bytes]:
    """One file for ``_read_files_elsewhere``: its key and status (None for a file that
    cannot be read) and its Lesson or Problem, pickled as the cache keeps it. A folder
    ``lesson_files`` could not list comes with its Problem."""
    path, display, unlisted = job
    if unlisted is not None:
        return None, None, pickled(unlisted)
    try:
        stat = os.stat(path)
        raw = _lesson_bytes(path, display)
    except (LessonFormatError, OSError) as exc:
        return None, None, pickled(_unreadable(exc, display))
    return (_file_key(display, raw), _status(stat),
            pickled(_parse_or_problem((raw, _suffix(path), display))))


def _status(stat: os.stat_result) -> tuple[int, int, int, int]:
    return stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino


def _unreadable(exc: LessonFormatError | OSError, display: str) -> Problem:
    """Why a file cannot be read, as one sentence naming it as problems do: the system's
    reason alone (``Permission denied``), as the glossary says it, not Python's text, which
    names the file again by another path (``[Errno 13] Permission denied: 'c3/x.md'``)."""
    if isinstance(exc, LessonFormatError):
        return Problem(exc.path, exc.reason, exc.line, exc.column, skipped=True)
    reason = exc.strerror or str(exc)
    if isinstance(exc, FileNotFoundError) and exc.filename and os.path.islink(exc.filename):
        reason = f"it links to {quoted(os.readlink(exc.filename))}, which is not there"
    return Problem(display, f"cannot read this file ({reason}); it was skipped", skipped=True)


_UNKEYED = ("sections", "prev", "next", "source")
"""Its sections, whose key is its file's bytes; its neighbours, which the index does not
store (a lesson added, removed or retitled changes its neighbours' links); and its file's
name, which nothing a build keeps of a lesson holds (not its documents, definitions or
mentions): a file renamed with its slug, link and place kept holds the same lesson. A
reader's sections follow from the bytes and the reader (``format``), not from the name."""
_OWN = tuple(f.name for f in dataclasses.fields(Lesson)
             if f.name not in (*_UNKEYED, "position"))
"""Its other fields but its position, which a lesson added before it changes when the
position comes from its place in the course."""


def _lesson_keys(file_sha: str, lesson: Lesson) -> tuple[str, str]:
    """The lesson's digests (``CourseRead.keys`` and ``own_keys``): its sections are what
    its file's bytes parse to, the rest is written out. Its file's name is in neither: the
    key of a file renamed is the key of the lesson it holds (a slug from the file name is
    the lesson's slug, written out with the rest)."""
    own = fingerprint((file_sha, [getattr(lesson, name) for name in _OWN]))
    return hashlib.sha256(f"{own} {lesson.position!r}".encode()).hexdigest(), own


def _slug_from_stem(lesson: Lesson) -> Lesson:
    """Workbench episodes are published as ``<file stem>.html``; the stem (``03-variables``)
    is then the natural slug, and unique where the names alone repeat (``06-variables``)."""
    if lesson.slug != slug_from_filename(lesson.source):
        return lesson  # the front matter chose a slug
    return dataclasses.replace(lesson, slug=slugify(_stem(lesson.source)))


def _stem(source: str) -> str:
    """``Path(source).stem``, without making a Path."""
    return os.path.splitext(os.path.basename(source))[0]


def _display(path: str, lessons_dir: Path) -> str:
    """The file as problems name it: from the lessons folder's own name down."""
    base = str(lessons_dir)
    if path.startswith(base + os.sep):
        return f"{lessons_dir.name}{os.sep}{path[len(base) + 1:]}"
    try:
        return str(Path(lessons_dir.name) / Path(path).relative_to(lessons_dir))
    except ValueError:
        return path


COPY_OVERLAP = 0.9
"""The share of their words two files must have in common to be one lesson copied, where
nothing but their text can say so (``same_lesson``)."""


def same_lesson(a: Lesson, b: Lesson) -> bool:
    """Two files hold one lesson when most of their words match; a shared title lowers the
    bar but is not enough alone, since courses repeat titles ("Summary") across modules.

    The lower bars are for one lesson exported twice (a JSON export and a text copy of it).
    Two files of one format, or two that give different slugs or positions of their own,
    are two lessons unless one is a copy of the other: same title, near enough the same
    words. Short pages ("Quiz", "Review") easily share 40% of their ten words."""
    same_title = " ".join(a.title.lower().split()) == " ".join(b.title.lower().split())
    words_a, words_b = _vocabulary(a), _vocabulary(b)
    if _told_apart(a, b):
        return same_title and bool(words_a) and _overlap(words_a, words_b) >= COPY_OVERLAP
    if not words_a or not words_b:
        return same_title and not (words_a or words_b)
    return _overlap(words_a, words_b) >= (0.4 if same_title else 0.6)


def _told_apart(a: Lesson, b: Lesson) -> bool:
    """Whether the two files say they are different lessons: one format (no export makes
    two files of one kind), or slugs or positions each gives of its own that differ."""
    return (a.format == b.format
            or (_own_slug(a) is not None and _own_slug(b) not in (None, _own_slug(a)))
            or (None not in (a.position, b.position) and a.position != b.position))


def _own_slug(lesson: Lesson) -> str | None:
    """The slug the lesson gives itself, or None where it is its file name's: an export's
    ``lesson.slug`` always, front matter's ``slug`` where it is not the file name's (a
    Workbench episode's file stem counts too)."""
    if lesson.format == "json" or lesson.slug != slug_from_filename(lesson.source):
        return lesson.slug
    return None


def _overlap(words_a: set[str], words_b: set[str]) -> float:
    return len(words_a & words_b) / len(words_a | words_b)


def _vocabulary(lesson: Lesson) -> set[str]:
    return {w for s in lesson.sections for w in _WORD.findall(s.text.lower())}


def _richness(lesson: Lesson) -> tuple[int, int, int]:
    return (_RICHNESS.get(lesson.format, 0), len(lesson.sections), lesson.word_count)


def _drop_duplicates(lessons: list[Lesson], problems: list[Problem]) -> list[Lesson]:
    """One lesson per twin pair (the richer file), and a free slug for a colliding one.

    Twins are looked for only among lessons sharing a slug or a title (by dictionary, so a
    course of 12,500 lessons is not compared pair by pair)."""
    kept: list[Lesson] = []
    by_slug: dict[str, int] = {}
    by_title: dict[str, list[int]] = {}

    def place(index: int, lesson: Lesson) -> None:
        by_slug[lesson.slug] = index
        by_title.setdefault(lesson.title, []).append(index)

    for lesson in lessons:
        near = sorted({*by_title.get(lesson.title, ()), by_slug.get(lesson.slug, -1)} - {-1})
        twin = next((i for i in near if same_lesson(kept[i], lesson)), None)
        if twin is not None:
            keep, drop = sorted((kept[twin], lesson), key=_richness, reverse=True)
            if keep is lesson:
                old = kept[twin]
                if by_slug.get(old.slug) == twin:
                    del by_slug[old.slug]
                by_title[old.title].remove(twin)
                kept[twin] = lesson
                place(twin, lesson)
            problems.append(Problem(drop.source, f"same lesson as {keep.source} "
                                    f"({keep.title!r}); indexed once, from {keep.source}"))
            continue
        if lesson.slug in by_slug:
            new_slug = next(f"{lesson.slug}-{n}" for n in range(2, 10_000)
                            if f"{lesson.slug}-{n}" not in by_slug)
            other = kept[by_slug[lesson.slug]]
            problems.append(Problem(lesson.source, f"slug {lesson.slug!r} is also used by "
                                    f"{other.source}; this lesson is indexed as {new_slug!r}"))
            lesson = dataclasses.replace(lesson, slug=new_slug)
        kept.append(lesson)
        place(len(kept) - 1, lesson)
    return kept


def _listed_but_missing(course_file: CourseFile, outcomes: list[Lesson | Problem],
                        lessons_dir: Path) -> list[Problem]:
    """A warning for each file the course file lists that is not in the lessons folder: a
    lesson renamed on disk but not in the course file otherwise loses its place, its module
    and (for a Workbench episode) its slug without a word."""
    found: set[str] = set()
    for outcome in outcomes:  # files that cannot be read are there, and warned about already
        source = outcome.path if isinstance(outcome, Problem) else outcome.source
        found.update((source, os.path.basename(source)))
    return [
        Problem(str(course_file.source), f"lists {name}, but {lessons_dir.name}{os.sep} has no "
                "such file; a lesson renamed there must be renamed here too, or it loses its "
                "place and its module", course_file.line_of(name))
        for name in dict.fromkeys(course_file.order) if name not in found
    ]


def _in_no_module(lessons: list[Lesson], course_file: CourseFile) -> list[Problem]:
    """A warning for each lesson in no module of a course file that lists its lessons in
    modules, which names no module of its own either: a lesson added to the folder and not
    to the course file otherwise has no module without a word, while its neighbours have
    theirs. It is still indexed. A course file with no modules gives none, and no warning."""
    if not course_file.modules:
        return []
    return [
        Problem(lesson.source, f"no module lists this lesson: {course_file.source} lists the "
                f"lessons in modules, but not {os.path.basename(lesson.source)}; it is indexed "
                "without a module (add the file to a module's lessons, or give the lesson a "
                "module of its own)")
        for lesson in lessons
        if lesson.module is None and _module(lesson, course_file, {}) is None
    ]


def _places(course_file: CourseFile) -> dict[str, int]:
    """Each listed file name's place in the course file's list, from 1."""
    return {name: i for i, name in enumerate(course_file.order, start=1)}


def _listed_place(lesson: Lesson, places: dict[str, int]) -> int | None:
    return places.get(os.path.basename(lesson.source)) or places.get(lesson.source)


def _position_problems(lessons: list[Lesson], course_file: CourseFile) -> list[Problem]:
    """A lesson whose ``position`` another lesson claims too, or that the course file lists
    at another place: either way the order is not what one of the two sources says."""
    problems: list[Problem] = []
    places = _places(course_file)
    claimed: dict[int, Lesson] = {}
    for lesson in lessons:
        if lesson.position is None:
            continue
        other = claimed.setdefault(lesson.position, lesson)
        if other is not lesson:
            problems.append(Problem(lesson.source, f"position {lesson.position} is also "
                                    f"claimed by {_placed(other.source, other.position_line)}; "
                                    "the two are ordered by file name", lesson.position_line))
        place = _listed_place(lesson, places)
        if place is not None and place != lesson.position:
            name = os.path.basename(lesson.source)
            line = course_file.line_of(name) or course_file.line_of(lesson.source)
            listing = _placed(str(course_file.source), line)
            problems.append(Problem(lesson.source, f"position {lesson.position} disagrees "
                                    f"with {listing}, which lists it as lesson {place}; the "
                                    "lesson's own position is used", lesson.position_line))
    return problems


def _placed(source: str, line: int | None) -> str:
    """A file as a problem names another: with the line, where one is known."""
    return f"{source}:{line}" if line else source


FILE_NUMBER = re.compile(r"(\d{1,7})[-_ .]")
"""The number a lesson file's name begins with, before a separator (``04-getting-bees.txt``:
4), as course folders number their lessons. Seven digits at most, as a position is."""


def _file_number(lesson: Lesson) -> int | None:
    """The number the lesson's file name begins with, where it is a position's size."""
    match = FILE_NUMBER.match(os.path.basename(lesson.source))
    number = int(match[1]) if match else None
    return number if number is not None and number <= MAX_POSITION else None


def _numbers_are_positions(lessons: list[Lesson], course_file: CourseFile) -> bool:
    """Whether the numbers the file names begin with are the course's positions: no course
    file lists the lessons (its list is the order, whatever the names say: ``30-intro.md``
    listed first), some lesson gives a position and a number, and every one that does gives
    them alike. Where no lesson says so, numbers spaced by tens (``010-``, ``020-``) only
    sort the files: taken for positions they showed lessons 10, 20 and 30."""
    if course_file.order:
        return False
    both = [(lesson.position, number) for lesson in lessons
            if lesson.position is not None and (number := _file_number(lesson)) is not None]
    return bool(both) and all(position == number for position, number in both)


def _given_places(lessons: list[Lesson], course_file: CourseFile) -> dict[str, int | None]:
    """Each lesson's place as its sources give it, by its file: its own position; else its
    place in the course file's list; else the number its file name begins with, where those
    numbers are the positions (``_numbers_are_positions``); else None."""
    places = _places(course_file)
    numbers = _numbers_are_positions(lessons, course_file)
    given: dict[str, int | None] = {}
    for lesson in lessons:
        place = lesson.position
        if place is None:
            place = _listed_place(lesson, places)
        if place is None and numbers:
            place = _file_number(lesson)
        given[lesson.source] = place
    return given


def _by_file_name(lesson: Lesson) -> tuple[str, str]:
    return os.path.basename(lesson.source), lesson.source


def _order(lessons: list[Lesson], course_file: CourseFile, given: dict[str, int | None]
           ) -> list[Lesson]:
    """Lessons with a place given (``_given_places``) by that place, and on a tie a lesson's
    own position before another source's, then by file name. A position of 0 is a position
    (the lesson comes first), not the absence of one.

    A lesson with no place given keeps its neighbour by file name: it comes right after the
    lesson with a place whose file name is the last before its own (first, where there is
    none). Sent to the end of the course, a plain-text lesson (which gives no position)
    came after lessons the file names put after it. Where the course file lists the lessons,
    one it does not list comes after them all: the list is the order (and a lesson left out
    of its modules is warned about)."""

    def key(lesson: Lesson) -> tuple[int, bool, str, str]:
        return (given[lesson.source] or 0, lesson.position is None, *_by_file_name(lesson))

    placed = sorted((x for x in lessons if given[x.source] is not None), key=key)
    unplaced = sorted((x for x in lessons if given[x.source] is None), key=_by_file_name)
    if course_file.order or not unplaced:
        return placed + unplaced
    after: dict[str | None, list[Lesson]] = {}
    neighbour = None
    for lesson in sorted(lessons, key=_by_file_name):
        if given[lesson.source] is None:
            after.setdefault(neighbour, []).append(lesson)
        else:
            neighbour = lesson.source
    ordered = list(after.get(None, ()))
    for lesson in placed:
        ordered.extend((lesson, *after.get(lesson.source, ())))
    return ordered


def _shown_positions(lessons: list[Lesson], given: dict[str, int | None]) -> list[int]:
    """Each lesson's position as readers see it, lessons in course order: the place its
    sources give it (``_given_places``), else one past the lesson before it; and one past
    the lesson before it wherever that one has the same or a later position (two lessons
    claiming one). So positions never repeat and follow the order, and a course whose
    lessons and course file agree shows the positions they give. Numbering lessons without
    one by their place in the order alone gave, after a lesson at position 0, a plain-text
    lesson the number of the lesson after it."""
    shown: list[int] = []
    for lesson in lessons:
        position = given[lesson.source]
        if shown and (position is None or position <= shown[-1]):
            position = shown[-1] + 1
        shown.append(1 if position is None else position)
    return shown


def _module(lesson: Lesson, course_file: CourseFile, known: dict[str, Module]
            ) -> Module | None:
    """The lesson's own module, else the one the course file lists it in. Its own is the
    module of that slug ``known`` holds (``_known_modules``): ``module: modelling`` in front
    matter names the course file's "Modelling", whose title and place it lacks (it made a
    second module, "modelling", beside it, and the course file's "Basics" became
    "basics")."""
    if lesson.module is None:
        return course_file.modules.get(os.path.basename(lesson.source))
    return known.get(lesson.module.slug, lesson.module)


def _known_modules(lessons: Iterable[Lesson], course_file: CourseFile) -> dict[str, Module]:
    """Each module by its slug, one whichever lesson names it: the course file's; else, of
    those the lessons give, the one that says most (``_says_more``, the first in course
    order on a tie), with the first index any of them gives where it gives none. Front
    matter's ``module: seasons`` beside an export's ``{index: 3, slug: seasons, title:
    "Through the seasons"}`` made two modules of one slug, the menus listing both."""
    known = {module.slug: module for module in course_file.modules.values()}
    given: dict[str, list[Module]] = {}
    for lesson in lessons:
        if lesson.module is not None and lesson.module.slug not in known:
            given.setdefault(lesson.module.slug, []).append(lesson.module)
    for slug, said in given.items():
        best = max(said, key=_says_more)
        index = next((m.index for m in (best, *said) if m.index is not None), None)
        known[slug] = dataclasses.replace(best, index=index)
    return known


def _says_more(module: Module) -> tuple[bool, bool]:
    """How much a lesson's module says beyond its slug: an index (an export's, or front
    matter's full ``{index, slug, title}``) and a title of its own, not the slug again."""
    return module.index is not None, module.title != module.slug


def _in_index_order(modules: Iterable[Module]) -> tuple[Module, ...]:
    """Modules in the order of their first lessons, those that give an index sorted by it
    among the places they hold: a module without one keeps its place."""
    modules = tuple(modules)
    by_index = iter(sorted((m for m in modules if m.index is not None),
                           key=lambda m: m.index))
    return tuple(next(by_index) if m.index is not None else m for m in modules)


def _complete(
    lessons: Iterable[Lesson], course_file: CourseFile, info: CourseInfo, base_url: str,
    positions: list[int],
) -> list[Lesson]:
    """Each lesson's URL, course, module and neighbours, where it gave none, and its
    position as readers see it (``_shown_positions``); its reader's warnings are the
    course's problems by now."""
    lessons = list(lessons)
    urls = []
    for lesson in lessons:
        url = lesson.url
        if not url:
            page = _stem(lesson.source) if course_file.uses_stem_urls else lesson.slug
            url = f"{base_url.rstrip('/')}/{page}{course_file.url_suffix}"
        urls.append(url)
    links = [LessonLink(lesson.slug, lesson.title, url)
             for lesson, url in zip(lessons, urls, strict=True)]
    known = _known_modules(lessons, course_file)
    return [
        dataclasses.replace(
            lesson,
            url=urls[i],
            course=lesson.course or info,
            module=_module(lesson, course_file, known),
            position=positions[i],
            prev=lesson.prev or (links[i - 1] if i > 0 else None),
            next=lesson.next or (links[i + 1] if i + 1 < len(lessons) else None),
            warnings=(),
        )
        for i, lesson in enumerate(lessons)
    ]


