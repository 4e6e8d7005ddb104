"""The JSON bodies lessonsearch answers with, built in one place for the CLI and the web API.

``lessonsearch search --json`` prints exactly what ``GET /api/search`` returns, and so on
for terms: both call these functions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .glossary_table import TermRecord
from .searcher import SearchResponse


def error_body(message: str, **extra: Any) -> dict[str, Any]:
    """The one error shape: ``{"error": message, ...}``."""
    return {"error": message, **extra}


def redirect_body(location: str) -> dict[str, Any]:
    """A redirect's body: ``{"redirect": url}``, the address its ``Location`` names."""
    return {"redirect": location}


def search_body(response: SearchResponse) -> dict[str, Any]:
    return {
        "query": response.query,
        "total": response.total,
        "page": response.page,
        "limit": response.limit,
        "relaxed": response.relaxed,
        "results": [
            {
                "lesson": hit.lesson,
                "lesson_title": hit.lesson_title,
                "heading": hit.heading,
                "heading_path": list(hit.heading_path),
                "module": hit.module,
                "anchor": hit.anchor,
                "url": hit.url,
                "snippet": hit.snippet,
                "score": hit.score,
                "kind": hit.kind,
                "matched_in_title": hit.matched_in_title,
            }
            for hit in response.results
        ],
        "terms": [term_card(t) for t in response.terms],
        "suggestion": response.suggestion,
        "suggestion_searched": response.suggestion_searched,
        "related": [{"word": word, "searched": searched}
                    for word, searched in response.related],
        "left_out": None if response.left_out is None else {
            "searched": response.left_out.searched, "written": response.left_out.written,
            "excluded": response.left_out.excluded, "phrases": response.left_out.phrases,
            "error": response.left_out.error, "notice": response.left_out.notice},
    }


def term_card(record: TermRecord) -> dict[str, Any]:
    """A term as a search response shows it: name, definition, where to read more."""
    return {
        "term": record.term,
        "definition": record.definition,
        "url": _defined_at(record)["url"] if record.lesson_definition else None,
        "glossary_anchor": record.anchor,
    }


def term_body(record: TermRecord) -> dict[str, Any]:
    """One term: ``lessonsearch term NAME --json`` and ``GET /api/terms/<name>``."""
    return {
        "term": record.term,
        "aliases": list(record.aliases),
        "definition": record.definition,
        "source": record.source,
        "defined_at": _defined_at(record) if record.lesson_definition else None,
        "mentions": [
            {
                "lesson": m.lesson,
                "lesson_title": m.lesson_title,
                "anchor": m.anchor,
                "heading": m.heading,
                "url": m.url,
                "count": m.count,
            }
            for m in record.mentions
        ],
        "mention_count": record.mention_count,
        "mention_sections": record.mention_sections,
        "see_also": list(record.see_also),
        "anchor": record.anchor,
    }


def terms_body(records: list[TermRecord],
               forms: Mapping[str, tuple[str, ...]] | None = None) -> dict[str, Any]:
    """All terms A–Z: ``lessonsearch terms --json`` and ``GET /api/terms``. ``forms``: each
    term's names in the other forms the course writes that count as its mentions
    (``Searcher.term_forms``), which the glossary tooltips underline too."""
    forms = forms or {}
    return {
        "terms": [
            {
                "term": r.term,
                "aliases": list(r.aliases),
                "definition": r.definition,
                "defined_at": _defined_at(r) if r.lesson_definition else None,
                "mentions": r.mention_count,
                "anchor": r.anchor,
                "forms": list(forms.get(r.term, ())),
            }
            for r in records
        ]
    }


def _defined_at(record: TermRecord) -> dict[str, Any]:
    d = record.lesson_definition
    assert d is not None
    return {"lesson": d.lesson, "anchor": d.anchor, "url": d.url, "sentence": d.text}


# --- Bodies only the web API answers with (built here so every JSON body lives in one file) --


def lessons_body(manifest: dict[str, Any]) -> dict[str, Any]:
    """``GET /api/lessons``: the course's lessons in course order, from the index manifest."""
    return {
        "course": manifest.get("course"),
        "modules": manifest.get("modules", []),
        "lessons": [
            {
                "slug": x["slug"],
                "title": x["title"],
                "url": x["url"],
                "module": x.get("module"),
                "position": x.get("position"),
                "minutes": x.get("minutes"),
                "sections": x.get("sections", 0),
            }
            for x in manifest.get("lessons", [])
        ],
    }


def health_body(manifest: dict[str, Any],
                not_loaded: tuple[str, str] | None = None) -> dict[str, Any]:
    """``GET /healthz``: which index version answers, when it was built, what it holds; and
    ``not_loaded``, the version ``current`` names and why it could not be opened, while an
    older one answers (``status`` "warn": the server still answers, but a rollout failed)."""
    return {
        "status": "ok" if not_loaded is None else "warn",
        "version": manifest.get("version"),
        "built_at": manifest.get("built_at"),
        "counts": manifest.get("counts", {}),
        "not_loaded": None if not_loaded is None else {
            "version": not_loaded[0] or None, "reason": not_loaded[1]},
    }


def suggest_body(query: str, suggestions: list[tuple[str, str, str, str | None]],
                 ) -> dict[str, Any]:
    """``GET /api/suggest``: ``(text, kind, url, matched)`` completions, best first;
    ``matched`` is the alias of a term that the query completes when the term's name does not
    start with it (else None)."""
    return {
        "query": query,
        "suggestions": [{"text": t, "kind": k, "url": u, "matched": m}
                        for t, k, u, m in suggestions],
    }
