"""The one place exceptions become HTTP responses: JSON under ``/api``, an HTML page elsewhere.

Views and the searcher raise our own exceptions (or ``abort``); this module alone decides the
status code and builds the body, through ``responses.error_body`` for JSON, so every error a
client sees has the same shape: ``{"error": "a sentence", ...}``.
"""

from __future__ import annotations

from contextlib import suppress

from flask import Flask, Response, current_app, jsonify, redirect, render_template, request, url_for
from werkzeug.exceptions import HTTPException, InternalServerError, NotFound
from werkzeug.routing import RequestRedirect

from .. import responses
from ..errors import (
    BadQuery,
    IndexDamaged,
    IndexNotBuilt,
    IndexToRebuild,
    LessonSearchError,
    TermNotFound,
    TermWithoutDefinition,
    UnknownFilter,
)
from ..search_log import clean_query
from .pages import term_links
from .params import shown_arg
from .request_index import live_index, use_index, used_index

STATUS: dict[type[LessonSearchError], int] = {
    BadQuery: 400,
    TermNotFound: 404,
    IndexNotBuilt: 503,
}

RETRY_AFTER_SECONDS = 30

READER_NOT_READY = {
    False: "Search is not available yet. Please come back in a little while.",
    True: "Search is not available at the moment. Please come back in a little while.",
}
"""What a page says while no index version can be served: before the first build (False),
or while the one there is to be rebuilt (True). The sentence saying what to run is the
operator's: in the log, on ``/healthz`` and in the JSON API's errors."""

PAGE_SENTENCES = {
    400: "This address asks for something the search cannot read. Search the course below.",
    404: "There is no page at this address: it may be mistyped, or the page may have moved.",
    405: "This page can only be opened, not sent a form or data.",
    413: "This request is too large to answer.",
    500: "Something went wrong on our side while answering. Please try again in a moment.",
}
"""What an HTML error page says for a Werkzeug error (an unknown address, a bug), in place of
Werkzeug's own sentence, which speaks of "the server" and "the requested URL" to a reader. The
JSON API keeps Werkzeug's: a client's developer is its reader."""


def register_error_handlers(app: Flask) -> None:
    app.register_error_handler(LessonSearchError, _our_error)
    app.register_error_handler(HTTPException, _http_error)
    app.before_request(_routing_redirect)


JSON_PATHS = ("/api/", "/opensearch/")


def wants_json() -> bool:
    """JSON for the API, the health check and the address bar's suggestions, including routes
    that do not exist under /api (or are /api itself)."""
    return (request.blueprint == "api" or request.path == "/api"
            or request.path.startswith(JSON_PATHS))


def _our_error(exc: LessonSearchError) -> Response:
    status = next((code for kind, code in STATUS.items() if isinstance(exc, kind)), 500)
    if isinstance(exc, IndexDamaged) and used_index() is not None:
        live_index().damaged(used_index(), exc)  # found by this request's search; logged
    elif isinstance(exc, IndexNotBuilt) and not wants_json():  # the page does not say what
        current_app.logger.warning("Answered %s with 503: %s", request.path, exc)
    message = exc.public if isinstance(exc, IndexNotBuilt) else str(exc)
    if status == 500:  # one of ours no request should cause; its text may name server paths
        current_app.logger.error("Unexpected error answering %s", request.path, exc_info=exc)
        message = InternalServerError.description
    suggestions = list(exc.suggestions) if isinstance(exc, TermNotFound) else None
    if wants_json():
        extra = exc.details() if isinstance(exc, TermNotFound) else {}
        response = jsonify(responses.error_body(message, **extra))
    else:
        wider = None
        if isinstance(exc, IndexNotBuilt):  # the server's sentence is for its operator
            message = READER_NOT_READY[isinstance(exc, IndexToRebuild)]
        elif isinstance(exc, TermWithoutDefinition):  # its file:line is for editors (API, CLI)
            message = (f"“{clean_query(exc.term)}” is in the glossary but has no definition "
                       "yet.")
        elif isinstance(exc, TermNotFound):  # the page lists the suggestions as links instead
            message = f"No term named “{clean_query(exc.name)}” in the glossary."
        elif isinstance(exc, UnknownFilter):
            message = f"No {exc.name} “{clean_query(exc.value)}” in this course."
            wider = _without_filter(exc.name)
        elif status == 500:
            message = PAGE_SENTENCES[500]
        response = _page(status, message, framed=not isinstance(exc, IndexNotBuilt),
                         suggestions=_term_links(suggestions or ()),
                         q=clean_query(shown_arg("q")), wider=wider)
    response.status_code = status
    if status == 503:
        response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def _page(status: int, message: str, framed: bool = True, **context) -> Response:
    """An HTML error page, with the course's name, navigation and "Back to the course" link
    as every page has. They come from the index version, which an error raised before the
    view opened one (a bad parameter, an unknown address) had not: it is opened here, unless
    ``framed`` is False (no version to open: the page would fail the same way again)."""
    if framed and used_index() is None:
        with suppress(Exception):  # no version to frame with: the page still says the rest
            use_index()
    return Response(render_template("error.html", status=status, message=message, **context),
                    mimetype="text/html")


def _term_links(names: list[str]) -> list[tuple[str, str]]:
    """The suggested terms with their pages (``pages.term_links``), from the index version
    that did not have the name asked for."""
    opened = used_index()
    return term_links(opened.glossary, names) if opened is not None and names else []


def _without_filter(name: str) -> tuple[str, str]:
    """The link an unknown filter's page offers: the same search without that filter (from
    its first page), and its label."""
    args = {k: v for k, v in request.args.items() if k not in (name, "page") and v}
    words = clean_query(args.get("q", ""))
    return (url_for("pages.search", **args),
            f"Search every {name} for “{words}”" if words else f"Search every {name}")


def _http_error(exc: HTTPException) -> Response | HTTPException:
    if exc.code is None or exc.code < 400:
        return exc  # redirects (a missing trailing slash) pass through unchanged
    if isinstance(exc, NotFound) and not wants_json() and (page := _without_slash()):
        return redirect(page, 308)
    response = exc.get_response()  # keeps headers such as Allow on a 405
    if wants_json():
        response.set_data(jsonify(responses.error_body(exc.description or exc.name)).get_data())
        response.mimetype = "application/json"
    else:
        page = _page(exc.code, PAGE_SENTENCES.get(exc.code, PAGE_SENTENCES[400]))
        response.set_data(page.get_data())
        response.mimetype = "text/html"
    return response


def _routing_redirect() -> Response | None:
    """The API's answer to a redirect routing found, before the view would raise it: Flask
    hands routing's redirects to no error handler, so ``_http_error`` never sees them."""
    exc = request.routing_exception
    return _json_redirect(exc) if isinstance(exc, RequestRedirect) and wants_json() else None


def _json_redirect(exc: RequestRedirect) -> Response:
    """Routing's redirect (a trailing slash, slashes doubled as ``%2F`` after ``/`` makes
    them) as the API answers everything, in JSON: ``{"redirect": url}`` beside the same
    ``Location``, not Werkzeug's HTML "Redirecting..." page, which a client parsing the body
    as JSON could not read."""
    response = exc.get_response()
    response.set_data(jsonify(responses.redirect_body(response.location)).get_data())
    response.mimetype = "application/json"
    return response


def _without_slash() -> str | None:
    """The page a path with a trailing slash means (``/glossary/`` is ``/glossary``), with
    its query string; None when the path without it is no page either."""
    path = request.path.rstrip("/")
    if not path or path == request.path:
        return None
    try:
        current_app.url_map.bind("").match(path, method="GET")
    except HTTPException:  # no page there, or not one to open (a 405, a redirect)
        return None
    query = request.query_string.decode("latin-1")
    return path + (f"?{query}" if query else "")
