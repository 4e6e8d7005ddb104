"""Headers every response gets: security, caching and CORS, set in one ``after_request``.

* ``ETag`` is a hash of the index version that answered, the package version (so a deploy
  with new templates is not answered with a stale 304) and the request's path and query
  string; with ``Cache-Control: no-cache`` clients revalidate every time and get a 304 while
  nothing changed. Not on the coverage report or ``/healthz``, which change without a new
  index version.
* CORS applies to ``/api/*`` and the static files only: the HTML pages are for people, not
  for other sites' scripts.
"""

from __future__ import annotations

import hashlib
from importlib.metadata import PackageNotFoundError, version

from flask import Flask, Response, request

from .request_index import used_index
from .settings import Settings

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
}
PAGE_CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
            "frame-ancestors 'self'")
CORS_PATHS = ("/api/", "/opensearch.xml", "/static/")
"""Where other sites' pages may read answers: the API, and the box's script and styles, so
that a page may pin the script with ``integrity=`` (which makes the browser fetch it in CORS
mode)."""
CORS_MAX_AGE = 86400


def install(app: Flask, settings: Settings) -> None:
    package = package_version()

    @app.after_request
    def finish(response: Response) -> Response:
        response.headers.update(SECURITY_HEADERS)
        if request.method == "OPTIONS" and not response.is_streamed and not response.get_data():
            del response.headers["Content-Type"]  # Flask's empty preflight answer is no page
        if response.mimetype == "text/html":
            response.headers["Content-Security-Policy"] = PAGE_CSP
        if request.path.startswith(CORS_PATHS):
            _cors(response, settings)
        if request.endpoint != "static":
            response.headers["Cache-Control"] = "no-cache"
            if not app.debug:  # the dev server reloads templates; a 304 would hide the edit
                _etag(response, package)
        return response


def _cors(response: Response, settings: Settings) -> None:
    allowed = settings.allows_origin(request.headers.get("Origin"))
    response.vary.add("Origin")
    if allowed is None:
        return
    response.headers["Access-Control-Allow-Origin"] = allowed
    response.headers["Access-Control-Expose-Headers"] = "ETag"
    if request.method == "OPTIONS":
        response.headers["Access-Control-Allow-Methods"] = "GET, HEAD, OPTIONS"
        response.headers["Access-Control-Allow-Headers"] = "Content-Type, If-None-Match"
        response.headers["Access-Control-Max-Age"] = str(CORS_MAX_AGE)


def _etag(response: Response, package: str) -> None:
    opened = used_index()
    if opened is None or response.status_code != 200 or request.method not in ("GET", "HEAD"):
        return
    if request.blueprint == "coverage" or request.endpoint == "api.health":
        return  # the zero-result backlog, a version that failed to load: no new version
    identity = "\0".join((opened.version, package, request.path,
                          request.query_string.decode("latin-1")))
    response.set_etag(hashlib.sha256(identity.encode("utf-8")).hexdigest()[:32])
    response.make_conditional(request)


def package_version() -> str:
    try:
        return version("lessonsearch")
    except PackageNotFoundError:
        return "unknown"
