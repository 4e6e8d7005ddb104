"""The index folder: complete versions side by side, and one pointer to the live one.

::

    index/
      current -> v-20261130T101500123456-3f2a9c  (a symlink, replaced atomically)
      v-20261130T101500123456-3f2a9c/            (whoosh/, glossary.sqlite, manifest.json)
      v-20261130T094000654321-77c1e0/            (the previous version, kept for running readers)
      .build.lock

A build writes ``v-….tmp`` beside the live version and renames it into place only when it
is complete; then it swaps the ``current`` symlink with ``os.replace``, which is atomic.
A reader resolves ``current`` once and keeps that version open, so a build never changes
the files under it. A killed build leaves only a ``.tmp`` folder, removed by the next one;
the lock is an ``flock`` that dies with its process, so it never goes stale.
"""

from __future__ import annotations

import contextlib
import fcntl
import filecmp
import json
import os
import re
import secrets
import shutil
import sqlite3
import zlib
from collections.abc import Callable, Collection, Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from .errors import (
    BuildInProgress,
    IndexDamaged,
    IndexIncompatible,
    IndexIncomplete,
    IndexNotBuilt,
    IndexUnreadable,
)

FORMAT = 31
"""The version folder's format: bumped whenever the schema or a stored file changes, so a
reader refuses a folder it cannot read and a build does not reuse one."""
CURRENT = "current"
MANIFEST = "manifest.json"
KEEP_VERSIONS = 3
FILES = "files"
"""The manifest's list of every file the build wrote, with its size (``publish``)."""
WRITTEN = "written"
"""Each of those files' modification time, in nanoseconds, as the build left it, and the
build cache's: a build reuses a file only while it is the same (``changed_since_built``,
``modified_since_built``)."""
CHECKSUMS = "crc32"
"""Each of those files' CRC-32 (``zlib.crc32``), of the bytes the build wrote. Bytes written
over with as many others keep a file's size, and a copy may give every file a new time, so
only reading the files finds them (``verify_files``): the server does, after opening a
version and before serving it, and so does ``lessonsearch check``."""
DAMAGED = "is damaged: its bytes are not the ones the build wrote"
"""How ``verify_files`` says a file's checksum differs, after "its file … of version …"."""
OWN_FIELDS = ("version", "built_at", FILES, WRITTEN, CHECKSUMS)
"""The manifest's fields that differ from one version to the next whatever it holds (the
files' sizes too: the files themselves are compared, ``same_as_live``)."""
SQLITE_MAGIC = b"SQLite format 3\x00"


def current_version(index_dir: Path) -> Path:
    """The live version's folder; raises IndexNotBuilt when there is none."""
    link = Path(index_dir) / CURRENT
    try:
        target = link.parent / os.readlink(link)
    except OSError:
        raise IndexNotBuilt(str(index_dir)) from None
    if not (target / MANIFEST).is_file():
        raise IndexNotBuilt(str(index_dir))
    return target


def current_version_name(index_dir: Path) -> str | None:
    """The live version's name, read without opening anything: cheap enough per request."""
    try:
        return os.readlink(Path(index_dir) / CURRENT)
    except OSError:
        return None


def read_manifest(version_dir: Path) -> dict[str, Any]:
    return json.loads((Path(version_dir) / MANIFEST).read_text(encoding="utf-8"))


def open_manifest(version_dir: Path,
                  read: Callable[[Path], Any] = read_manifest) -> dict[str, Any]:
    """The manifest of a version to serve or report on, read by ``read``: a damaged one
    (``IndexUnreadable``) or one of another format (``IndexIncompatible``) is refused with
    the sentence that says to rebuild it, never a traceback or a 500."""
    index_dir = str(Path(version_dir).parent)
    try:
        manifest = read(Path(version_dir))
    except (OSError, ValueError) as exc:
        raise IndexUnreadable(index_dir) from exc
    if not isinstance(manifest, dict):
        raise IndexUnreadable(index_dir)
    if manifest.get("format") != FORMAT:
        raise IndexIncompatible(index_dir)
    if not _well_formed(manifest):
        raise IndexUnreadable(index_dir)
    check_files(Path(version_dir), manifest.get(FILES, {}))
    if not _checksums_listed(manifest):
        raise IndexUnreadable(index_dir)
    return manifest


def _well_formed(manifest: dict[str, Any]) -> bool:
    """Whether what every reader walks (the lessons and modules, for the pages' lists and
    filters; the counts and the course, for the health check and the report) has the types a
    build writes. A manifest edited by hand (``"lessons": 5``) was JSON all the same, and
    gave every command a ``TypeError`` and every page a 500."""
    lessons, modules = manifest.get("lessons", []), manifest.get("modules", [])
    return (isinstance(lessons, list) and isinstance(modules, list)
            and all(_has_text(x, ("slug", "title", "url"))
                    and isinstance(x.get("anchors", []), list) for x in lessons)
            and all(_has_text(m, ("slug", "title")) for m in modules)
            and isinstance(manifest.get("counts", {}), dict)
            and isinstance(manifest.get("course", {}), dict)
            and isinstance(manifest.get("coverage_allow", []), list))


def _has_text(item: Any, keys: tuple[str, ...]) -> bool:
    return isinstance(item, dict) and all(isinstance(item.get(key), str) for key in keys)


def check_files(version_dir: Path, listed: Any) -> None:
    """Refuse a version a file of which is not there with the size the build wrote (``listed``
    by ``publish``): a copy cut short (an rsync stopped, a full disk, ``truncate``), a file
    left out or written over. Such a version opened and passed the health check, then
    answered every search that found something with a 500, and a build linked its segments
    into the next version. Only ``stat``: 123 files, half a millisecond, at 10,000
    sections. The message names the file, as the folder's own path, never the server's."""
    index_dir = str(Path(version_dir).parent)
    if not isinstance(listed, dict):
        raise IndexUnreadable(index_dir)
    folder = os.fspath(version_dir)
    for name, size in listed.items():
        if (not isinstance(name, str) or not isinstance(size, int) or name.startswith("/")
                or ".." in name.split("/")):
            raise IndexUnreadable(index_dir)  # no file a build writes
        try:
            found = os.stat(os.path.join(folder, name)).st_size
        except (FileNotFoundError, NotADirectoryError):
            folder_name = name.rpartition("/")[0]
            if folder_name and not os.path.isdir(os.path.join(folder, folder_name)):
                raise IndexIncomplete(index_dir, f"folder {folder_name}/", "is missing") from None
            raise IndexIncomplete(index_dir, f"file {name}", "is missing") from None
        if found != size:
            how = "the copy was cut short" if found < size else "it was written over"
            raise IndexIncomplete(index_dir, f"file {name}",
                                  f"is {found:,} bytes, the build wrote {size:,}: {how}")


def _checksums_listed(manifest: dict[str, Any]) -> bool:
    """Whether the manifest gives a checksum, a number, for each file it lists, and no other."""
    checksums = manifest.get(CHECKSUMS)
    return (isinstance(checksums, dict) and checksums.keys() == manifest.get(FILES, {}).keys()
            and all(isinstance(crc, int) for crc in checksums.values()))


def verify_files(version_dir: Path, manifest: dict[str, Any]) -> None:
    """Read every file of a version that opened (``open_manifest`` passed its manifest) and
    raise ``IndexDamaged`` naming the first whose CRC-32 is not the one its build recorded
    (``publish``): bytes written over with as many others, which ``check_files`` does not
    see and a search found only when it could not decode them (a terms file so damaged
    answered most searches "No results"). Reads all of the version: 18 MB, 0.02 s, at
    10,000 sections, its files in the page cache."""
    folder = Path(version_dir)
    for name, crc in manifest[CHECKSUMS].items():
        if file_checksum(folder / name) != crc:
            raise IndexDamaged(str(folder.parent), folder.name, name, DAMAGED)


def file_checksum(path: Path) -> int:
    crc = 0
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            crc = zlib.crc32(chunk, crc)
    return crc


@contextlib.contextmanager
def reading_part(version_dir: Path, part: str) -> Iterator[None]:
    """Read ``part`` of a version (its glossary file): one that is there but cannot be read
    (SQLite's "malformed", "not a database", a table missing from an emptied file) is
    refused as a damaged part, with the sentence that says to rebuild, not a traceback."""
    try:
        yield
    except sqlite3.DatabaseError as exc:
        raise IndexIncomplete(str(Path(version_dir).parent), part, "is damaged") from exc


@contextlib.contextmanager
def build_lock(index_dir: Path) -> Iterator[None]:
    index_dir.mkdir(parents=True, exist_ok=True)
    with open(index_dir / ".build.lock", "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BuildInProgress(
                f"Another build is writing to {index_dir}; wait for it to finish."
            ) from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def new_version_dir(index_dir: Path) -> tuple[str, Path]:
    """A fresh ``.tmp`` folder to build into, after clearing any a killed build left."""
    for stale in index_dir.glob("v-*.tmp"):
        shutil.rmtree(stale, ignore_errors=True)
    # Microseconds too: versions sort by name, and two builds can land in one second.
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
    name = f"v-{stamp}-{secrets.token_hex(3)}"
    tmp = index_dir / f"{name}.tmp"
    tmp.mkdir(parents=True)
    return name, tmp


def publish(index_dir: Path, name: str, tmp: Path, manifest: dict[str, Any],
            unsynced: Collection[str] = (), linked_from: Path | None = None,
            linked_manifest: dict[str, Any] | None = None,
            checksums: dict[str, int] | None = None) -> Path:
    """Write the manifest last, move the version into place, then swap ``current``.

    Every file is flushed to disk first, except the ``unsynced`` ones: files a reader can
    do without (the build cache: a damaged one only costs the next build its shortcuts).
    The manifest lists every other file with its size, which ``check_files`` holds a copy
    of the version to, and its checksum (``verify_files``): read here, but for the files
    linked in from the version ``linked_from``, whose checksums its manifest gives (read
    again unless the build passes it, ``linked_manifest``: 7–26 ms at 10,000 sections), or
    for the ``checksums`` the build took as it wrote the files (the segments'). Its
    modification times are the unsynced files' too, so the next build can tell one modified
    since (``modified_since_built``)."""
    files = sorted(_served_files(tmp, unsynced))
    found = {PurePosixPath(Path(path)).as_posix(): os.stat(tmp / path) for path in files}
    unserved = {name: os.stat(tmp / name) for name in unsynced if (tmp / name).is_file()}
    known = {**(checksums or {}), **_linked_checksums(found, linked_from, linked_manifest)}
    manifest = {**manifest, FILES: {name: st.st_size for name, st in found.items()},
                WRITTEN: {name: st.st_mtime_ns for name, st in {**found, **unserved}.items()},
                CHECKSUMS: {name: known[name] if name in known else file_checksum(tmp / name)
                            for name in found}}
    (tmp / MANIFEST).write_text(_manifest_text(manifest), encoding="utf-8")
    _fsync_tree(tmp, unsynced)
    final = index_dir / name
    os.rename(tmp, final)
    pointer = index_dir / f".{CURRENT}.{secrets.token_hex(3)}"
    os.symlink(name, pointer)
    os.replace(pointer, index_dir / CURRENT)
    _fsync_dir(index_dir)
    _prune(index_dir, keep=name)
    return final


def _linked_checksums(found: dict[str, os.stat_result], linked_from: Path | None,
                      manifest: dict[str, Any] | None = None) -> dict[str, int]:
    """The checksums, from ``linked_from``'s manifest, of the files ``found`` that are
    links to that version's own (the same file, its size and time as its build left them).
    Not read again: bytes written over since, their file's time put back, would be
    recorded as the build's own, and the next version would pass its check. At 10,000
    sections a one-lesson rebuild reads the glossary file and a few segments (10 MB) and
    parses the manifest (15 ms), where reading every file took 20-40 ms, more once the
    previous version's files are out of the page cache."""
    linked = [name for name, st in found.items() if st.st_nlink > 1]
    if linked_from is None or not linked:
        return {}
    try:
        manifest = read_manifest(linked_from) if manifest is None else manifest
        fields = [manifest.get(key) if isinstance(manifest, dict) else None
                  for key in (FILES, WRITTEN, CHECKSUMS)]
        if not all(isinstance(field, dict) for field in fields):
            return {}
        sizes, times, checksums = fields
        known = {}
        for name in linked:
            there = os.stat(Path(linked_from) / name)
            if ((there.st_dev, there.st_ino) == (found[name].st_dev, found[name].st_ino)
                    and sizes.get(name) == there.st_size and times.get(name) == there.st_mtime_ns
                    and isinstance(checksums.get(name), int)):
                known[name] = checksums[name]
        return known
    except (OSError, ValueError):
        return {}  # a previous version that cannot be read: every file is read instead


def same_as_live(live: Path, built: Path, manifest: dict[str, Any],
                 unserved: Collection[str] = ()) -> bool:
    """Whether the version built in ``built`` (its ``manifest`` not yet written) holds what
    the ``live`` one holds, so it would answer every request as the live one does: the
    same files, each with the same bytes, or, for a SQLite file, the same rows; and the
    same manifest but for ``OWN_FIELDS``. The ``unserved`` files (the build cache) are left
    out, and so are Whoosh's empty lock files.

    The two folders are compared, not what the builds read: everything an answer is made
    of is in the folder, so no input of the build can be missed, whichever one a later
    change adds. A difference that changes no answer only publishes a version that was not
    needed. The files a build linked in from the live version are the same files, and are
    not read; the SQLite files, the costliest to compare, are compared last."""
    try:
        files = _served_files(live, unserved)
        if files != _served_files(built, unserved):
            return False
        databases = []
        for name in sorted(files):
            ours, theirs = os.stat(live / name), os.stat(built / name)
            if (ours.st_dev, ours.st_ino) == (theirs.st_dev, theirs.st_ino):
                continue  # linked in from the live version
            if _is_sqlite(live / name) and _is_sqlite(built / name):
                databases.append(name)
            elif ours.st_size != theirs.st_size or not filecmp.cmp(
                    live / name, built / name, shallow=False):
                return False
        return _same_manifest(live, manifest) and all(
            _same_rows(live / name, built / name) for name in databases)
    except (OSError, ValueError, sqlite3.Error):
        return False  # a live version that cannot be read is no version to keep


def changed_since_built(version_dir: Path, manifest: dict[str, Any],
                        unsynced: Collection[str] = ()) -> str | None:
    """The first file of a version (one that ``check_files`` passed) modified since its build
    wrote it, or None; the ``unsynced`` files (``publish``) are left to their reader. Bytes
    written over with as many others keep a file's size, so only a search that reads them
    finds them; but they change its modification time, and a build that linked such a file
    into its version, found it the same as the live one's (it is the same file) and said
    "nothing changed", kept the damage until ``--full``. Not checked when serving: a copy
    to another machine may set new times on every file."""
    written = manifest.get(WRITTEN)
    if not isinstance(written, dict):
        return MANIFEST
    for name in written:
        if name not in unsynced and modified_since_built(version_dir, manifest, name):
            return name
    return None


def modified_since_built(version_dir: Path, manifest: dict[str, Any], name: str) -> bool:
    """Whether the file ``name`` of a version is gone, or not as its build left it (by its
    modification time in the manifest; a manifest that has none for it cannot say)."""
    written = manifest.get(WRITTEN)
    ns = written.get(name) if isinstance(written, dict) else None
    try:
        return not isinstance(ns, int) or os.stat(Path(version_dir) / name).st_mtime_ns != ns
    except (OSError, ValueError):
        return True


_VERSION_NAME = re.compile(r"v-\d{8}T\d+-[0-9a-f]+(?:\.tmp)?")
"""A version folder's name (``new_version_dir``), or that of one being built."""


def not_an_index(index_dir: Path) -> list[str]:
    """The names in ``index_dir`` that are not an index's own: neither ``current``, nor a
    version (``v-…``, ``v-….tmp``), nor hidden (the build's lock, a ``current`` being
    swapped). Empty for a folder that does not exist yet."""
    try:
        names = os.listdir(index_dir)
    except FileNotFoundError:
        return []
    return sorted(name for name in names
                  if not (name == CURRENT or name.startswith(".")
                          or (_VERSION_NAME.fullmatch(name)
                              and (index_dir / name).is_dir())))


def is_lock_file(name: str) -> bool:
    """Whoosh's lock files (``MAIN_WRITELOCK``): empty, and no part of what it stores."""
    return "LOCK" in name.upper()


def _manifest_text(manifest: dict[str, Any]) -> str:
    # No indent: an indented dump takes json's pure-Python encoder, 0.2 s at 10k sections.
    return json.dumps(manifest, sort_keys=True)


def _same_manifest(live: Path, manifest: dict[str, Any]) -> bool:
    """Whether ``manifest``, given the live one's ``OWN_FIELDS``, is the live one's text."""
    text = (live / MANIFEST).read_text(encoding="utf-8")
    stored = json.loads(text)
    own = {key: stored.get(key) for key in OWN_FIELDS}
    return text == _manifest_text({**manifest, **own})


def _served_files(folder: Path, unserved: Collection[str]) -> set[str]:
    """Every file below ``folder`` but the manifest, the ``unserved`` ones and Whoosh's
    locks, as paths from ``folder``."""
    found = set()
    for parent, _, names in os.walk(folder):
        for name in names:
            path = os.path.relpath(os.path.join(parent, name), folder)
            if path not in (MANIFEST, *unserved) and not is_lock_file(name):
                found.add(path)
    return found


def _is_sqlite(path: Path) -> bool:
    with open(path, "rb") as handle:
        return handle.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC


def _same_rows(a: Path, b: Path) -> bool:
    """Whether two SQLite files hold the same schema and the same rows: each under the same
    row id (or primary key), each value of the same type and the same bytes (no collation,
    no 1 = 1.0). Their bytes differ even then: a patched copy keeps its pages where a file
    written anew lays them out afresh. Compared by SQLite: tables of as many rows, each row
    of one found by its key in the other with the same values, hold the same rows. Going
    through the rows in Python took 1.2 s at 10,000 sections; this takes under half."""
    db = sqlite3.connect(f"{a.resolve().as_uri()}?mode=ro", uri=True)
    try:
        db.execute("ATTACH DATABASE ? AS other", (f"{b.resolve().as_uri()}?mode=ro",))
        for pragma in ("encoding", "user_version", "application_id"):
            if (db.execute(f"PRAGMA main.{pragma}").fetchall()
                    != db.execute(f"PRAGMA other.{pragma}").fetchall()):
                return False
        schema = "SELECT type, name, tbl_name, sql FROM {}.sqlite_master ORDER BY type, name"
        if (db.execute(schema.format("main")).fetchall()
                != db.execute(schema.format("other")).fetchall()):
            return False
        queries = []
        for _, name, kind, _, without_rowid, _ in db.execute("PRAGMA main.table_list"):
            if kind not in ("table", "shadow") or name == "sqlite_schema":
                continue  # a virtual table's rows are its shadow tables'; the schema is above
            table = _quoted(name)
            count = f"SELECT count(*) FROM {{}}.{table}"
            (rows,) = db.execute(count.format("main")).fetchone()
            if db.execute(count.format("other")).fetchone() != (rows,):
                return False
            queries.append((rows, _differing_row(db, table, bool(without_rowid))))
        # The small tables first: a changed glossary entry is found before the mentions.
        return not any(db.execute(query).fetchone() for _, query in sorted(queries))
    finally:
        db.close()


def _differing_row(db: sqlite3.Connection, table: str, without_rowid: bool) -> str:
    """A query of a row of ``main``'s ``table`` that ``other``'s has not, key and values."""
    columns = list(db.execute(f"PRAGMA main.table_info({table})"))  # cid, name, …, pk
    names = [_quoted(column[1]) for column in columns]
    keys = ([_quoted(c[1]) for c in sorted(columns, key=lambda c: c[5]) if c[5]]
            if without_rowid else ["_rowid_"])
    differs = [f"b.{keys[0]} IS NULL"] + [
        f"a.{c} IS NOT b.{c} COLLATE BINARY OR typeof(a.{c}) != typeof(b.{c})" for c in names]
    return (f"SELECT 1 FROM main.{table} AS a LEFT JOIN other.{table} AS b ON "
            + " AND ".join(f"a.{k} = b.{k}" for k in keys)
            + f" WHERE {' OR '.join(differs)} LIMIT 1")


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def previous_version(index_dir: Path) -> Path | None:
    try:
        return current_version(index_dir)
    except IndexNotBuilt:
        return None


def versions(index_dir: Path) -> list[Path]:
    """The complete version folders, oldest first: names sort by build time."""
    return sorted(
        (p for p in Path(index_dir).glob("v-*") if p.is_dir() and not p.name.endswith(".tmp")),
        key=lambda p: p.name,
    )


def prune_versions(index_dir: Path, keep: Collection[str],
                   count: int = KEEP_VERSIONS) -> list[Path]:
    """Remove every version but the ``count`` newest and those named in ``keep``; the ones
    removed. A ``.tmp`` folder is no version: a build may be writing it."""
    removed = []
    for old in versions(index_dir)[:-count]:
        if old.name not in keep:
            shutil.rmtree(old, ignore_errors=True)
            if not old.exists():
                removed.append(old)
    return removed


def _prune(index_dir: Path, keep: str) -> None:
    prune_versions(index_dir, {keep})
    for stray in index_dir.glob(f".{CURRENT}.*"):
        with contextlib.suppress(OSError):
            stray.unlink()


def _fsync_tree(folder: Path, unsynced: Collection[str] = ()) -> None:
    """Flush every file and folder below ``folder``. A file linked in from the previous
    version (more than one link) was flushed when that version was published; only its new
    name, in its folder, is."""
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                _fsync_tree(Path(entry.path), unsynced)
            elif (entry.is_file(follow_symlinks=False) and entry.name not in unsynced
                  and entry.stat(follow_symlinks=False).st_nlink == 1):
                flush([entry.path])
    _fsync_dir(folder)


def flush(paths: Iterable[str | Path]) -> None:
    """Flush these files to disk now: a build flushes each file it has finished while it
    still has other work, so ``publish``, which flushes every file again, waits less (a
    file already flushed is a quick call)."""
    for path in paths:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
