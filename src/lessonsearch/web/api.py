"""The JSON API: the same bodies the CLI prints with ``--json``, built by ``responses``.

Views stay linear: parameter problems and lookups raise our exceptions, and ``errors.py``
turns them into the one error shape. Every route here is described in ``openapi.py``; a test
compares the two.
"""

from __future__ import annotations

from dataclasses import replace

from flask import Blueprint, current_app, jsonify, url_for

from .. import responses
from ..completions import Suggestion, matched_name
from ..search_log import record_zero_result
from ..searcher import SearchResponse
from ..term_lookup import MAX_MENTIONS, MENTIONS_SHOWN
from . import params
from .live import OpenIndex
from .openapi import openapi_document
from .request_index import live_index, use_index

api = Blueprint("api", __name__)


@api.get("/api/search")
def search():
    text = params.query_text()
    limit, page = params.limit(), params.page()
    opened = use_index()
    lesson, module = params.filters(opened)
    typing = params.typing()
    found = opened.searcher.search(text, limit, page, lesson, module, typing=typing)
    if found.total == 0 and page == 1 and not (lesson or module or typing):
        # Not while typing: the search box asks at each pause, and "c", "ch", "chi" … are
        # no words the course lacks. It sends the query it is left with on its own.
        record_zero_result(current_app.config["LESSONSEARCH"].index_dir, text)
    return jsonify(responses.search_body(_past_the_end(found)))


@api.get("/api/suggest")
def suggest():
    text = params.prefix_text()
    opened = use_index()
    found = opened.suggestions.complete(text)
    return jsonify(responses.suggest_body(text, [
        (s.text, s.kind, s.target, None) if s.kind != "term"
        else (s.text, s.kind, url_for("pages.term", name=s.target), _alias(opened, text, s))
        for s in found
    ]))


def _alias(opened: OpenIndex, text: str, suggestion: Suggestion) -> str | None:
    """The alias of a completed term that the typed text starts, when its name does not."""
    record = opened.glossary.at(suggestion.target)  # the term's anchor
    return matched_name(text, suggestion.text, record.aliases) if record else None


@api.get("/api/terms")
def terms():
    opened = use_index()
    return jsonify(responses.terms_body(opened.glossary.records, opened.searcher.term_forms()))


@api.get("/api/terms/<path:name>")
def term(name: str):
    glossary = use_index().glossary
    shown = params.whole_number("mentions", MENTIONS_SHOWN, cap=MAX_MENTIONS)
    return jsonify(responses.term_body(glossary.with_mentions(glossary.look_up(name), shown)))


@api.get("/api/lessons")
def lessons():
    return jsonify(responses.lessons_body(use_index().manifest))


@api.get("/healthz")
def health():
    manifest = use_index().manifest
    return jsonify(responses.health_body(manifest, live_index().not_loaded()))


@api.get("/api/openapi.json")
def openapi():
    return jsonify(openapi_document())


def _past_the_end(found: SearchResponse) -> SearchResponse:
    """No results for a page after the last one.

    Whoosh answers a page past the end with the last page's hits; a client paging on until
    the list is empty would loop forever, so the web layer drops them.
    """
    if found.results and (found.page - 1) * found.limit >= found.total:
        return replace(found, results=())
    return found
