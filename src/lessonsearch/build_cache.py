"""What a build may take from the version before it, so a small edit rebuilds quickly.

Each index version keeps ``build-cache.pickle``: what the readers made of every lesson file
(keyed by the SHA-256 of its bytes, with the file's status so an unchanged file need not be
read to be hashed), the definitions found in every lesson, every section's term mentions,
and a fingerprint of every lesson's Whoosh documents. The next build reuses
an entry only when its key is identical, so its output is the same as a full build's;
``lessonsearch index --full`` ignores the cache. The file is ours, written into our own index
folder, and a cache that cannot be read is simply not used: the build goes on without it
(``build.py``), also when an entry it had begun to use proves damaged (``CacheDamaged``).
"""

from __future__ import annotations

import hashlib
import io
import pickle
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from .parallel import MIN_ITEMS, Lazy, map_in_processes

CACHE_FILE = "build-cache.pickle"
FORMAT = 31
"""Bumped whenever what a reader, the definition finder or the documents produce changes."""

T = TypeVar("T")
A = TypeVar("A")
B = TypeVar("B")


class CacheDamaged(Exception):
    """An entry of the previous build's cache that cannot be unpickled: the cache was
    written over after the build (its time kept) or by a build of other code. Raised, not
    taken as a miss, since the entries already used would make a version of two builds."""


def fingerprint(value: Any) -> str:
    """A stable digest of plain data (dataclasses, tuples, strings): equal values give equal
    digests however their parts are shared. (Pickle's memo writes a second reference to one
    object as a back-reference, so a lesson read from the cache and the same lesson parsed
    again pickled differently.)"""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=5)
    pickler.fast = True  # no memo: every part written out in full
    pickler.dump(value)
    return hashlib.sha256(buffer.getvalue()).hexdigest()


class BuildCache:
    """Entries are kept pickled one by one: an entry the next build reuses is saved again as
    the bytes it was loaded as, not pickled a second time (at 100,000 sections, saving the
    whole cache took 2.6 s of a one-lesson rebuild)."""

    def __init__(self, previous: dict[str, dict[str, bytes]] | None = None):
        self._old = previous or {}
        self.loaded = previous is not None
        """Whether a previous build's cache was read: a version whose cache cannot be is no
        version to keep live (``build_index``), since the next build could reuse nothing."""
        self._new: dict[str, dict[str, bytes]] = {}
        self.hits = 0
        self.misses = 0

    @classmethod
    def load(cls, version_dir: Path | None) -> BuildCache:
        """The cache a version left, or an empty one (no version, other format, unreadable).
        Any error unpickling it is damage, not only pickle's own: bytes written over gave
        a ``UnicodeDecodeError``, a ``MemoryError`` or an ``OverflowError`` (a length read
        from other bytes)."""
        if version_dir is None:
            return cls()
        try:
            with open(Path(version_dir) / CACHE_FILE, "rb") as handle:
                stored = pickle.load(handle)
        except Exception:
            return cls()
        if (not isinstance(stored, dict) or stored.get("format") != FORMAT
                or not isinstance(stored.get("entries"), dict)):
            return cls()
        return cls(stored["entries"])

    def remember(self, kind: str, key: str, compute: Callable[[], T]) -> T:
        """The previous build's value for ``key``, or ``compute()`` (in this process); kept
        for the next build."""
        if self.carry(kind, key):
            self.hits += 1
            return _unpickled(self._old[kind][key])
        self.misses += 1
        value = compute()
        self.keep(kind, key, value)
        return value

    def remember_many(self, kind: str, keyed: Sequence[tuple[str, A]],
                      compute: Callable[[B], T],
                      prepare: Callable[[A], B] | None = None,
                      elsewhere: bool = True) -> list[T]:
        """``remember`` for a batch: the misses are computed together, on every core, each
        as ``compute(prepare(item))``; ``prepare`` runs in this process, only for misses,
        while the first are already being computed (``parallel.Lazy``).

        ``compute`` and what it is given must pickle (see ``parallel.map_in_processes``).
        Each value comes back pickled, as the cache keeps it: this process only unpickles
        it, where receiving the value and pickling it again for the cache cost a full build
        a second pass over every lesson here (bench/README.md). Work too light to be worth
        the round trip to other processes is done in this one (not ``elsewhere``).
        """
        old = self._old.get(kind, {})
        misses = {key: arg for key, arg in keyed if key not in old}  # one per distinct key
        args = list(misses.values())
        computed = map_in_processes(partial(_compute_pickled, compute),
                                    args if prepare is None else Lazy(args, prepare),
                                    MIN_ITEMS if elsewhere else len(args) + 1)
        self.hits += len(keyed) - len(misses)
        self.misses += len(misses)
        new = self._new.setdefault(kind, {})
        new.update(zip(misses, computed, strict=True))
        new.update((key, old[key]) for key, _ in keyed if key not in misses)
        return [_unpickled(new[key]) for key, _ in keyed]

    def keep_pickled(self, kind: str, computed: Sequence[tuple[str | None, bytes]]
                     ) -> list[Any]:
        """Values computed and pickled elsewhere (``pickled``), each kept under the key it
        came with (None: not kept); the values, unpickled. For work whose key is known only
        once it is done: a file's digest, by the process that read it."""
        kept = {key: data for key, data in computed if key is not None}
        self._new.setdefault(kind, {}).update(kept)
        self.misses += len(kept)
        return [pickle.loads(data) for _, data in computed]

    def previous(self, kind: str, key: str) -> Any:
        found = self._old.get(kind, {}).get(key)
        return None if found is None else _unpickled(found)

    def previous_keys(self, kind: str) -> set[str]:
        return set(self._old.get(kind, {}))

    def carry(self, kind: str, key: str) -> bool:
        """Keep the previous build's entry for the next build as it is, if there is one."""
        found = self._old.get(kind, {}).get(key)
        if found is not None:
            self._new.setdefault(kind, {})[key] = found
        return found is not None

    def carry_all(self, kind: str) -> None:
        """Keep every entry of ``kind`` the previous build had, as it is."""
        self._new.setdefault(kind, {}).update(self._old.get(kind, {}))

    def keep(self, kind: str, key: str, value: Any) -> None:
        self._new.setdefault(kind, {})[key] = pickled(value)

    def save(self, folder: Path) -> None:
        with open(Path(folder) / CACHE_FILE, "wb") as handle:
            pickle.dump({"format": FORMAT, "entries": self._new}, handle, protocol=5)


def pickled(value: Any) -> bytes:
    """A value as the cache keeps it."""
    return pickle.dumps(value, protocol=5)


def _unpickled(data: bytes) -> Any:
    """A cached value; ``CacheDamaged`` for bytes that are none (any error: see ``load``)."""
    try:
        return pickle.loads(data)
    except Exception as exc:
        raise CacheDamaged(str(exc)) from exc


def _compute_pickled(compute: Callable[[A], T], arg: A) -> bytes:
    return pickled(compute(arg))
