"""The editors' term coverage report: ``/coverage`` (HTML) and ``GET /api/coverage`` (JSON).

Both call ``coverage.coverage_report`` on the version this request reads, so the page, the
API and ``lessonsearch coverage`` show one report. The allow-list is the course file's
(stored at build time) plus ``coverage-allow.txt`` in the server's working directory.
``?kind=``, ``?sort=`` and ``?order=`` filter and sort the page's table (coverage.js does
the same in place and writes them in the address bar). ``?lessons=N`` lists up to N lessons
per term and per used-before-definition entry (default 100, at most 10,000): on a big course
a term can be used in thousands of lessons.

The report's modules (and the YAML and TOML parsers its allow-list reads course files with)
are imported by the first request for it, in that worker alone: an editor's tool, they
were 1.3 MB in every process of the server, the master and each worker alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Blueprint, current_app, jsonify, render_template, request, url_for

from ..coverage_terms import LESSONS_SHOWN, MAX_LESSONS
from . import params
from .request_index import use_index
from .settings import Settings

if TYPE_CHECKING:
    from ..coverage import CoverageReport

coverage = Blueprint("coverage", __name__)


@coverage.get("/coverage")
def page():
    from ..coverage_allow import KINDS
    from ..coverage_render import ORDERS, SORTS, page_context

    kind = request.args.get("kind")
    sort = request.args.get("sort", "term")
    order = request.args.get("order")
    report = _report()
    lessons = (params.whole_number("lessons", LESSONS_SHOWN, cap=MAX_LESSONS)
               if "lessons" in request.args else None)  # kept in the page's own links
    return render_template(
        "coverage.html",
        layout="base.html",
        stylesheets=[url_for("static", filename="coverage.css")],
        scripts=[url_for("static", filename="coverage.js")],
        term_url=lambda anchor: url_for("pages.term", name=anchor),
        **page_context(report, kind if kind in KINDS else None,
                       sort if sort in SORTS else "term", order if order in ORDERS else None,
                       lessons=lessons),
    )


@coverage.get("/api/coverage")
def api():
    from ..coverage_render import report_body

    return jsonify(report_body(_report()))


def _report() -> CoverageReport:
    from ..coverage import coverage_report
    from ..coverage_allow import default_allow_file

    settings: Settings = current_app.config["LESSONSEARCH"]
    opened = use_index()
    shown = params.whole_number("lessons", LESSONS_SHOWN, cap=MAX_LESSONS)
    return coverage_report(opened.searcher.version_dir, settings.index_dir,
                           default_allow_file(), shown, answers=opened.searcher.answers)
