"""The one place exceptions become HTTP responses: JSON under ``/api``, an HTML page elsewhere.

Views and the searcher raise our own exceptions (or ``abort``); this module alone decides the
status code and builds the body, through ``responses.error_body`` for JSON, so every error a
client sees has the same shape: ``{"error": "a sentence", ...}``.
"""

from __future__ import annotations

from flask import Flask, Response, current_app, jsonify, render_template, request, url_for
from werkzeug.exceptions import HTTPException, InternalServerError

from .. import responses
from ..errors import (
    BadQuery,
    IndexDamaged,
    IndexNotBuilt,
    LessonSearchError,
    TermNotFound,
    UnknownFilter,
)
from ..search_log import clean_query
from .pages import term_links
from .params import shown_arg
from .request_index import live_index, used_index

STATUS: dict[type[LessonSearchError], int] = {
    BadQuery: 400,
    TermNotFound: 404,
    IndexNotBuilt: 503,
}

RETRY_AFTER_SECONDS = 30


def register_error_handlers(app: Flask) -> None:
    app.register_error_handler(LessonSearchError, _our_error)
    app.register_error_handler(HTTPException, _http_error)


JSON_PATHS = ("/api/", "/opensearch/")


def wants_json() -> bool:
    """JSON for the API, the health check and the address bar's suggestions, including routes
    that do not exist under /api (or are /api itself)."""
    return (request.blueprint == "api" or request.path == "/api"
            or request.path.startswith(JSON_PATHS))


def _our_error(exc: LessonSearchError) -> Response:
    status = next((code for kind, code in STATUS.items() if isinstance(exc, kind)), 500)
    if isinstance(exc, IndexDamaged) and used_index() is not None:
        live_index().damaged(used_index(), exc)  # found by this request's search
    message = exc.public if isinstance(exc, IndexNotBuilt) else str(exc)
    if status == 500:  # one of ours no request should cause; its text may name server paths
        current_app.logger.error("Unexpected error answering %s", request.path, exc_info=exc)
        message = InternalServerError.description
    suggestions = list(exc.suggestions) if isinstance(exc, TermNotFound) else None
    if wants_json():
        extra = {} if suggestions is None else {"suggestions": suggestions}
        response = jsonify(responses.error_body(message, **extra))
    else:
        wider = None
        if isinstance(exc, TermNotFound):  # the page lists the suggestions as links instead
            message = f"No term named “{clean_query(exc.name)}” in the glossary."
        elif isinstance(exc, UnknownFilter):
            message = f"No {exc.name} “{clean_query(exc.value)}” in this course."
            wider = _without_filter(exc.name)
        response = Response(render_template(
            "error.html", status=status, message=message,
            suggestions=_term_links(suggestions or ()),
            q=clean_query(shown_arg("q")), wider=wider,
        ), mimetype="text/html")
    response.status_code = status
    if status == 503:
        response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def _term_links(names: list[str]) -> list[tuple[str, str]]:
    """The suggested terms with their pages (``pages.term_links``), from the index version
    that did not have the name asked for."""
    opened = used_index()
    return term_links(opened.glossary, names) if opened is not None and names else []


def _without_filter(name: str) -> tuple[str, str]:
    """The link an unknown filter's page offers: the same search without that filter (from
    its first page), and its label."""
    args = {k: v for k, v in request.args.items() if k not in (name, "page") and v}
    return (url_for("pages.search", **args),
            f"Search every {name} for “{clean_query(args.get('q', ''))}”")


def _http_error(exc: HTTPException) -> Response | HTTPException:
    if exc.code is None or exc.code < 400:
        return exc  # redirects (a missing trailing slash) pass through unchanged
    response = exc.get_response()  # keeps headers such as Allow on a 405
    if wants_json():
        response.set_data(jsonify(responses.error_body(exc.description or exc.name)).get_data())
        response.mimetype = "application/json"
    else:
        response.set_data(render_template(
            "error.html", status=exc.code, message=exc.description or exc.name, suggestions=(),
        ))
        response.mimetype = "text/html"
    return response
