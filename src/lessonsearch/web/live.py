"""The index version a worker serves, swapped for a newer one without a restart.

Each request asks ``LiveIndex.acquire`` for the live version. That costs one ``readlink`` of
``index/current``; only when the link names another version is a new ``Searcher`` opened and
every file of it read against its checksum (``verify_files``) before it answers anything: in a
thread of its own while another version serves (requests keep that one meanwhile, none
waits), by the request itself when none does (under a lock, so concurrent requests open it
once). A request keeps the ``OpenIndex`` it acquired until it ends, so every response comes
from one complete version even if a rebuild lands half-way. A replaced version is closed
when its last request releases it: never under a running search, and never kept open longer
than needed. A version that cannot be opened or is damaged (or a ``current`` naming none)
leaves the open one serving; ``not_loaded`` tells the health check which and why.

No Flask in here: the app wires ``acquire``/``release`` to the request, and tests drive this
class directly.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..completions import Completions
from ..errors import IndexDamaged, IndexNotBuilt, IndexToRebuild
from ..index_store import current_version, current_version_name, verify_files
from ..searcher import Searcher

log = logging.getLogger(__name__)


class OpenIndex:
    """One opened index version and what the web layer derives from it, built once."""

    def __init__(self, searcher: Searcher):
        self.searcher = searcher
        self.version: str = searcher.version
        self.manifest: dict[str, Any] = searcher.manifest
        self.modules = modules_of(self.manifest)
        """Modules in course order with their lessons, for the pages' filters and lists."""
        self.lesson_titles = {x["slug"]: x["title"] for x in self.manifest.get("lessons", [])}
        self.users = 0
        """Requests using this version now; guarded by the owning LiveIndex's lock."""
        self.suggestions = Completions(searcher.version_dir)
        """Completion for ``/api/suggest``, read from the version's tables per request."""

    @property
    def glossary(self):
        return self.searcher.glossary

    def close(self) -> None:
        self.searcher.close()


def modules_of(manifest: dict[str, Any]) -> list[dict[str, Any]]:
    """Modules in course order, each with its lessons; lessons outside a module at the end."""
    lessons = manifest.get("lessons", [])
    by_module: dict[str, list] = {}
    for lesson in lessons:
        by_module.setdefault(lesson.get("module") or "", []).append(lesson)
    modules = [{**m, "lessons": by_module.get(m["slug"], [])} for m in manifest.get("modules", [])]
    if by_module.get(""):
        modules.append({"slug": "", "title": "Other lessons", "lessons": by_module[""]})
    return modules


class LiveIndex:
    """Hands out the live ``OpenIndex``; safe to share between a worker's threads."""

    def __init__(self, index_dir: Path, opener: Callable[[Path], Searcher] = Searcher):
        self.index_dir = Path(index_dir)
        self._opener = opener
        self._live: OpenIndex | None = None
        self._retired: list[OpenIndex] = []
        self._lock = threading.Lock()
        """Guards ``_live``, ``_retired`` and every ``users`` count; held only briefly."""
        self._open_lock = threading.Lock()
        """Serialises opening a version, so a swap opens it once however many requests wait."""
        self._unopenable: tuple[str, str] | None = None
        """A version that failed to open or its check ("" when ``current`` names none) and
        why; the previous one keeps serving instead of retrying (and failing, and logging) on every
        request, and ``not_loaded`` tells the health check."""
        self._damaged: dict[str, IndexDamaged] = {}
        """Versions found damaged, by a search (``damaged``) or by the check of their files
        (``_open``), never opened again."""
        self._told: set[str] = set()
        """Older versions a fallback could not open, logged once: with none that opens,
        every request tries them again, and logged a line for each."""
        self._swapping = False
        """Whether a thread is opening and checking the version ``current`` names while
        the live one serves (``_swap_later``); guarded by ``_lock``."""
        self._closed = False

    def acquire(self) -> OpenIndex:
        """The live version, marked in use until ``release``; raises IndexNotBuilt. A new
        version ``current`` names is opened and checked in the background while another
        serves (``_swap_later``), by this request when none does (``_swap``)."""
        name = _linked(self.index_dir)
        while True:
            with self._lock:
                live = self._live
                failed = self._unopenable
                if live is not None and (name == live.version
                                         or failed is not None and name == failed[0]):
                    live.users += 1
                    return live
            # The one served answers until the new one is checked, unless its folder is gone
            # (the index folder deleted): its files still open answered a search, the others
            # a 500.
            if live is None or not (self.index_dir / live.version).is_dir():
                return self._swap()
            with self._lock:
                # Decided again if a swap ended meanwhile (the folder's check lets other
                # threads run): one that could not open ``name`` tries it no more.
                if self._live is live and self._unopenable is failed:
                    live.users += 1
                    self._swap_later()
                    return live

    def not_loaded(self) -> tuple[str, str] | None:
        """The version ``current`` names that could not be opened, and why (a sentence that
        names no server path), while an older one is served; None once ``current`` names
        the version served again."""
        failed = self._unopenable
        if failed is None or _linked(self.index_dir) != failed[0]:
            return None
        return failed

    def release(self, opened: OpenIndex) -> None:
        with self._lock:
            opened.users -= 1
            idle = self._take_idle()
        _close_all(idle)

    def damaged(self, opened: OpenIndex, exc: IndexDamaged) -> None:
        """A search could not read a file of ``opened``, a version whose files were as their
        build wrote them when it was opened (``_open``): it is served no more, and is
        refused from then on as a version that does not open is, so the next request falls
        back to the newest version that opens and the health check says "warn" with the
        reason, or, with none, every route answers 503 with it."""
        with self._lock:
            known = opened.version in self._damaged  # by two searches at once
            self._damaged.setdefault(opened.version, exc)
            if self._live is opened:
                self._retired.append(opened)
                self._live = None
            idle = self._take_idle()
        _close_all(idle)
        if not known:  # one line a version, whichever found it first
            log.warning("Index version %s is damaged: %s", opened.version, _why_not(
                opened.version, exc))

    def warm(self) -> bool:
        """Open the live version ahead of the first request; False when there is none yet."""
        try:
            self.release(self.acquire())
        except IndexNotBuilt:
            return False
        except Exception:  # a worker that cannot boot takes the server down; log and go on
            log.exception("Cannot open the index in %s", self.index_dir)
            return False
        return True

    def close(self) -> None:
        """Close every version (at shutdown); requests still running keep their searchers."""
        with self._lock:
            self._closed = True
            everything = [*self._retired, *([self._live] if self._live else [])]
            self._retired, self._live = [], None
        _close_all(everything)

    @property
    def version(self) -> str | None:
        live = self._live
        return live.version if live else None

    def _swap_later(self) -> None:
        """Open and check the version ``current`` names in a thread of its own, the live one
        serving every request meanwhile; call with ``_lock`` held. One thread at a time:
        a request that sees ``current`` moved again after it starts another."""
        if self._swapping or self._closed:
            return
        self._swapping = True
        threading.Thread(target=self._swap_in_background, daemon=True,
                         name="open the current index version").start()

    def _swap_in_background(self) -> None:
        try:
            self._swap(serve=False)
        except Exception:  # noqa: BLE001 - nothing left to serve: the next request opens
            pass           # current itself, and answers with the error
        finally:
            with self._lock:
                self._swapping = False
                closed = self._closed
            if closed:  # shut down meanwhile: what it swapped in is closed too
                self.close()

    def _swap(self, serve: bool = True) -> OpenIndex:
        """Serve the version ``current`` names once it is open and checked (``_open``), or,
        when it cannot be, the newest older one that is (``_fallback``). With ``serve``, for
        a request: the version it gets, marked in use."""
        with self._open_lock:
            folder = None
            try:
                # Resolved again under the lock: another request may have opened it meanwhile.
                folder = current_version(self.index_dir)  # a link to no full copy: raises
                with self._lock:
                    live = self._live
                    if live is not None and live.version == folder.name:
                        live.users += 1 if serve else 0
                        return live
                fresh = self._open(folder)
            except Exception as exc:
                name = folder.name if folder is not None else _linked(self.index_dir)
                with self._lock:
                    held = self._live
                if not serve and held is not None and _linked(self.index_dir) != name:
                    raise  # current moved on meanwhile (its folder removed by a build)
                live = self._fallback(name, held)
                if live is None:
                    self._drop(held)
                    if isinstance(exc, IndexDamaged) and self._damaged.get(name) is exc:
                        log.warning("Index version %s is damaged: %s", name, _why_not(name, exc))
                    raise
                with self._lock:
                    if live is not held:
                        if held is not None:
                            self._retired.append(held)
                        self._live = live
                    self._unopenable = (name, _why_not(name, exc))
                    live.users += 1 if serve else 0
                    idle = self._take_idle()
                _close_all(idle)
                if isinstance(exc, IndexNotBuilt):  # a sentence says it all: no traceback
                    log.warning("Cannot open index version %s: %s Serving %s; copy the version "
                                "again under a new name, or build one, and swap current.",
                                name or "(none: no current link)", self._unopenable[1],
                                live.version)
                else:
                    log.exception("Cannot open index version %s; serving %s",
                                  name or "(none: no current link)", live.version)
                return live
            with self._lock:
                old, self._live = self._live, fresh
                self._unopenable = None
                fresh.users += 1 if serve else 0
                if old is not None:
                    self._retired.append(old)
                idle = self._take_idle()
        _close_all(idle)
        return fresh

    def _fallback(self, failed: str, held: OpenIndex | None) -> OpenIndex | None:
        """What to serve while ``current`` names ``failed``, a version that cannot be opened
        or is damaged: the newest version in the folder that opens and is whole (``held``,
        the one served, when it is that one). Every worker of a replica comes to the same
        one: a worker that had not yet opened the version before the failed one served an
        older one beside its siblings, and a worker started afterwards (one replacing a
        crashed worker, or every worker after a reload) served nothing, answering 503. Not
        ``held`` once its folder is gone (the index folder deleted): its files still open
        answered a search, the others a 500."""
        versions = sorted((p for p in self.index_dir.glob("v-*")
                           if p.is_dir() and not p.name.endswith(".tmp") and p.name != failed),
                          key=lambda p: p.name, reverse=True)
        for folder in versions:
            if held is not None and folder.name == held.version:
                return held
            try:
                return self._open(folder)
            except Exception as exc:  # noqa: BLE001 - the next one may open
                if folder.name not in self._told:
                    self._told.add(folder.name)
                    log.warning("Cannot open index version %s either: %s", folder.name,
                                _why_not(folder.name, exc))
        return held if held is not None and (self.index_dir / held.version).is_dir() else None

    def _open(self, folder: Path) -> OpenIndex:
        """Open the version in ``folder`` and read every file of it: one whose bytes are not
        the ones its build wrote (``verify_files``: written over with as many others, which
        opening does not see, and a terms file so damaged answered most searches "No
        results") is refused before any search reads it, as one a search found damaged is
        refused again. Each worker process checks the versions it opens (12-27 ms at 10,000
        sections, its files in the page cache; 0.06-0.12 s from the disk), so each refuses a
        damaged one without being told by another. A version whose folder is removed while
        it is read (a build keeps three) is refused as one not there."""
        known = self._damaged.get(folder.name)
        if known is not None:
            raise IndexDamaged(known.path, known.version, known.file, known.problem)
        searcher = self._opener(folder)
        try:
            verify_files(searcher.version_dir, searcher.manifest)
        except BaseException as exc:
            searcher.close()
            if isinstance(exc, IndexDamaged):
                self._damaged.setdefault(folder.name, exc)
            elif isinstance(exc, OSError) and not folder.is_dir():
                raise IndexNotBuilt(str(self.index_dir)) from None
            raise
        return OpenIndex(searcher)

    def _drop(self, held: OpenIndex | None) -> None:
        """Stop serving ``held``, a version whose folder is gone: closed after its last
        request, and every request answered with the error meanwhile."""
        with self._lock:
            if held is None or self._live is not held:
                return
            self._retired.append(held)
            self._live = None
            idle = self._take_idle()
        _close_all(idle)

    def _take_idle(self) -> list[OpenIndex]:
        """Retired versions no request uses any more; call with ``_lock`` held."""
        idle = [old for old in self._retired if old.users <= 0]
        self._retired = [old for old in self._retired if old.users > 0]
        return idle


def _linked(index_dir: Path) -> str:
    """The name of the version ``current`` links to; "" when there is no link."""
    name = current_version_name(index_dir)
    return Path(name).name if name is not None else ""


def _why_not(name: str, exc: Exception) -> str:
    """Why version ``name`` could not be opened, in a sentence for the health check: the
    exception's own message may name the server's folders."""
    if not name:
        return "The index folder has no current link."
    if isinstance(exc, IndexToRebuild):
        return f"It {exc.reason}."
    if isinstance(exc, IndexNotBuilt):
        return "It has no manifest: the folder is not there, or was not copied in full."
    return f"It could not be opened ({type(exc).__name__}); the server's log has the error."


def _close_all(versions: list[OpenIndex]) -> None:
    for opened in versions:
        opened.close()
