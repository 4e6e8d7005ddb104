"""The pieces of NLTK the product uses, without importing the rest of NLTK.

``import nltk.stem.snowball`` first runs ``nltk/__init__.py``, which imports about 240 of
NLTK's modules (corpora, parsers, taggers, translation metrics): 14 MB in every server
process for a stemmer and an edit distance. Here the modules that define them are imported
on their own: ``nltk`` and the two subpackages they live in are stood in for by empty
packages (their ``__path__`` only) while they load, and taken out of ``sys.modules`` again
afterwards, so a later ``import nltk`` imports the real package in full. The code that
runs is NLTK's own, so every stem is the one the index was built with.

The build's collocation finders (``collocation_parts``) are imported the same way, when a
build first finds jargon candidates: 0.06 s instead of NLTK's 0.5 s.

Should a newer NLTK need more of its package to import these (or NLTK be imported already),
the ordinary import is used instead.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import types
from collections.abc import Callable
from functools import cache
from typing import Any

_STAND_INS = ("nltk", "nltk.stem", "nltk.metrics", "nltk.corpus")
"""Packages whose ``__init__`` is skipped. ``nltk.corpus`` only lends ``stopwords`` to the
Snowball module, which reads it only when asked to ignore stop words (we never do)."""


def _modules(*names: str, skip: tuple[str, ...] = _STAND_INS) -> list[types.ModuleType]:
    """The modules ``names``, imported with the packages ``skip`` stood in for."""
    if "nltk" in sys.modules:
        return [importlib.import_module(name) for name in names]
    spec = importlib.util.find_spec("nltk")
    if spec is None or not spec.submodule_search_locations:
        return [importlib.import_module(name) for name in names]
    root = list(spec.submodule_search_locations)[0]
    stand_ins = {}
    for name in skip:
        package = types.ModuleType(name)
        folder = os.path.join(root, *name.split(".")[1:])
        package.__path__ = [] if name == "nltk.corpus" else [folder]
        stand_ins[name] = package
    if "nltk.corpus" in stand_ins:
        stand_ins["nltk.corpus"].stopwords = None  # type: ignore[attr-defined]
    sys.modules.update(stand_ins)
    try:
        return [importlib.import_module(name) for name in names]
    except Exception:  # noqa: BLE001 - this NLTK needs more of itself: import it in full
        _forget_nltk()
        return [importlib.import_module(name) for name in names]
    finally:
        if sys.modules.get("nltk") is stand_ins["nltk"]:
            _forget_nltk()


def _forget_nltk() -> None:
    for name in [n for n in sys.modules if n == "nltk" or n.startswith("nltk.")]:
        del sys.modules[name]


_snowball, _distance = _modules("nltk.stem.snowball", "nltk.metrics.distance")

SnowballStemmer: Callable[..., Any] = _snowball.SnowballStemmer
edit_distance: Callable[..., int] = _distance.edit_distance


@cache
def collocation_parts() -> types.SimpleNamespace:
    """NLTK's bigram and trigram collocation finders, their association measures and
    ``FreqDist``; only ``nltk``'s own ``__init__`` is skipped."""
    collocations, metrics, probability = _modules(
        "nltk.collocations", "nltk.metrics", "nltk.probability", skip=("nltk",))
    return types.SimpleNamespace(
        BigramCollocationFinder=collocations.BigramCollocationFinder,
        TrigramCollocationFinder=collocations.TrigramCollocationFinder,
        BigramAssocMeasures=metrics.BigramAssocMeasures,
        TrigramAssocMeasures=metrics.TrigramAssocMeasures,
        FreqDist=probability.FreqDist)
