"""The index folder: complete versions side by side, and one pointer to the live one.

::

    index/
      current -> v-20261130T101500123456-3f2a  (a symlink, replaced atomically)
      v-20261130T101500123456-3f2a/            (whoosh/, glossary.sqlite, manifest.json)
      v-20261130T094000654321-77c1/            (the previous version, kept for running readers)
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
import json
import os
import secrets
import shutil
from collections.abc import Collection, Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .errors import BuildInProgress, IndexNotBuilt

FORMAT = 16
"""The version folder's format: bumped whenever the schema or a stored file changes, so a
reader refuses a folder it cannot read and a build does not reuse one."""
CURRENT = "current"
MANIFEST = "manifest.json"
KEEP_VERSIONS = 3


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
            unsynced: Collection[str] = ()) -> Path:
    """Write the manifest last, move the version into place, then swap ``current``.

    Every file is flushed to disk first, except the ``unsynced`` ones: files a reader can
    do without (the build cache: a damaged one only costs the next build its shortcuts)."""
    # No indent: an indented dump takes json's pure-Python encoder, 0.2 s at 10k sections.
    (tmp / MANIFEST).write_text(json.dumps(manifest, sort_keys=True), encoding="utf-8")
    _fsync_tree(tmp, unsynced)
    final = index_dir / name
    os.rename(tmp, final)
    pointer = index_dir / f".{CURRENT}.{secrets.token_hex(3)}"
    os.symlink(name, pointer)
    os.replace(pointer, index_dir / CURRENT)
    _fsync_dir(index_dir)
    _prune(index_dir, keep=name)
    return final


def previous_version(index_dir: Path) -> Path | None:
    try:
        return current_version(index_dir)
    except IndexNotBuilt:
        return None


def _prune(index_dir: Path, keep: str) -> None:
    versions = sorted(
        (p for p in index_dir.glob("v-*") if p.is_dir() and not p.name.endswith(".tmp")),
        key=lambda p: p.name,
    )
    for old in versions[:-KEEP_VERSIONS]:
        if old.name != keep:
            shutil.rmtree(old, ignore_errors=True)
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
