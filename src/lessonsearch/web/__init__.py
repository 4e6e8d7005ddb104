"""The search service: HTML pages for readers and a JSON API for other sites.

``create_app(settings)`` wires the pieces; each lives in its own module:

* ``live`` keeps the index version open per worker and swaps in rebuilds without a restart;
  ``request_index`` ties one version to each request;
* ``api`` (JSON) and ``pages`` (HTML) are the two blueprints; ``params`` reads their query
  strings; ``suggest`` and ``lesson_groups`` are what they need beyond the searcher;
* ``errors`` is the one place exceptions become responses; ``headers`` adds security,
  caching and CORS headers; ``openapi`` describes the API; ``server`` runs gunicorn;
* ``coverage`` serves the editors' term coverage report (``/coverage``, ``/api/coverage``);
  ``embed`` the embeddable search box's page (``/embed``) and ``/opensearch.xml``.
"""

from __future__ import annotations

from flask import Flask

from .. import counts, links
from . import errors, headers, request_index
from .api import api
from .coverage import coverage as coverage_blueprint
from .embed import embed as embed_blueprint
from .live import LiveIndex
from .pages import pages
from .settings import Settings

__all__ = ["Settings", "create_app"]


def create_app(settings: Settings | None = None) -> Flask:
    """A configured app; ``settings`` default to the environment (see ``Settings.from_env``).

    Nothing is opened here, so an app starts even before an index is built; the first
    request that needs one opens it (``server`` opens it early in each worker).
    """
    settings = settings if settings is not None else Settings.from_env()
    app = Flask(__name__)
    app.config["LESSONSEARCH"] = settings
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.jinja_env.filters.update(counts.FILTERS)
    app.jinja_env.filters.update(links.FILTERS)
    request_index.install(app, LiveIndex(settings.index_dir))
    app.register_blueprint(api)
    app.register_blueprint(pages)
    app.register_blueprint(coverage_blueprint)
    app.register_blueprint(embed_blueprint)
    errors.register_error_handlers(app)
    headers.install(app, settings)
    return app
