"""Whoosh's reader without the ``asyncio`` one of its helpers imports.

``whoosh.reading`` caches one attribute of a segment reader (its deleted documents) with
the ``cached_property`` package, which imports ``asyncio`` to tell a coroutine from a plain
method: 1.4 MB in every process of the server, the master and each worker, for a check that
never applies. While ``whoosh.reading`` loads, ``cached_property`` is stood in for by a
module holding the standard library's ``functools.cached_property``, which does the same
for a plain method (computed on first use, kept in the instance's ``__dict__``); the stand-in
is taken out of ``sys.modules`` afterwards, so a later ``import cached_property`` imports the
package itself. The rest is Whoosh's own code.

Whoosh is imported by many modules, in no fixed order, and only by the commands that
search or build, so the package's ``__init__`` installs the hook (``install``) rather than
importing Whoosh. Where ``cached_property`` is imported already, Whoosh imports it as usual.
"""

from __future__ import annotations

import functools
import importlib.abc
import importlib.machinery
import sys
import types
from collections.abc import Sequence
from typing import Any

READER = "whoosh.reading"
HELPER = "cached_property"


class _StandInLoader(importlib.abc.Loader):
    """``whoosh.reading``'s own loader, run with the stand-in in place."""

    def __init__(self, loader: Any):
        self.loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        stand_in = types.ModuleType(HELPER)
        stand_in.cached_property = functools.cached_property  # type: ignore[attr-defined]
        sys.modules[HELPER] = stand_in
        try:
            self.loader.exec_module(module)
        finally:
            if sys.modules.get(HELPER) is stand_in:
                del sys.modules[HELPER]


class _ReaderFinder(importlib.abc.MetaPathFinder):
    """Finds ``whoosh.reading`` as the path finders do and loads it with the stand-in."""

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if name != READER or HELPER in sys.modules:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return None
        spec.loader = _StandInLoader(spec.loader)
        return spec


def install() -> None:
    """Load ``whoosh.reading`` with the stand-in whenever it is first imported; once."""
    if READER not in sys.modules and not any(
            isinstance(finder, _ReaderFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _ReaderFinder())
