"""Putting the search on other sites: the ``/embed`` page and the OpenSearch description.

The widget itself is ``static/lessonsearch.js`` and needs nothing from the server but the JSON
API. This blueprint documents it on ``/embed`` (the snippet to copy, naming this server's real
URL, and a live demo that loads the widget like any host page would) and answers
``/opensearch.xml``, which lets browsers add the course to their search engines.

Neither route needs an index: without one the page still shows the snippet, only the demo's
example terms are missing, and the description falls back to a generic name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from xml.etree import ElementTree

from flask import Blueprint, Response, render_template, url_for

from ..errors import IndexNotBuilt
from . import params
from .request_index import use_index

embed = Blueprint("embed", __name__)


SHORT_NAME_MAX = 16  # the OpenSearch 1.1 limit
DEMO_TERMS = 4


@dataclass(frozen=True, slots=True)
class WidgetOption:
    attribute: str
    default: str
    meaning: str


WIDGET_OPTIONS = (
    WidgetOption("data-placeholder", "Search the course",
                 "The box's placeholder text and its label for screen readers."),
    WidgetOption("data-limit", "5", "How many results show while typing (1 to 20)."),
    WidgetOption("data-debounce", "150",
                 "Milliseconds of quiet typing before a search is sent."),
    WidgetOption("data-target", "same",
                 "Open results in the same tab, or in a new one with new."),
    WidgetOption("data-recent", "on",
                 "Remember the reader's recent searches in their browser; off turns it off."),
    WidgetOption("data-theme", "auto",
                 "light or dark; auto follows the reader's system setting."),
    WidgetOption("data-api", "this server",
                 "Where the search service lives, when the script is served from elsewhere."),
)
"""The widget's data attributes, as ``/embed`` lists them; the top of lessonsearch.js says the
same, and a test keeps the two in step."""


@embed.get("/embed")
def embed_page():
    course = _course()
    return render_template(
        "embed.html",
        scripts=[url_for("static", filename="lessonsearch.js")],  # the demo, as a host loads it
        script_url=url_for("static", filename="lessonsearch.js", _external=True),
        service_url=url_for("pages.home", _external=True),
        options=WIDGET_OPTIONS,
        demo_terms=course.get("terms", []),
    )


@embed.get("/opensearch.xml")
def opensearch():
    title = _course().get("title") or "Course search"
    ns = "http://a9.com/-/spec/opensearch/1.1/"
    root = ElementTree.Element("OpenSearchDescription", xmlns=ns)
    ElementTree.SubElement(root, "ShortName").text = _short_name(title)
    ElementTree.SubElement(root, "Description").text = f"Search {title}"
    ElementTree.SubElement(root, "InputEncoding").text = "UTF-8"
    search = url_for("pages.search", _external=True)
    ElementTree.SubElement(root, "Url", type="text/html", method="get",
                           template=f"{search}?q={{searchTerms}}")
    suggest = url_for("embed.opensearch_suggestions", _external=True)
    ElementTree.SubElement(root, "Url", type="application/x-suggestions+json",
                           template=f"{suggest}?q={{searchTerms}}")
    ElementTree.SubElement(root, "Url", type="application/opensearchdescription+xml",
                           rel="self", template=url_for("embed.opensearch", _external=True))
    body = ElementTree.tostring(root, encoding="unicode", xml_declaration=True)
    return Response(body, mimetype="application/opensearchdescription+xml")


@embed.get("/opensearch/suggestions")
def opensearch_suggestions():
    """Address-bar completions in the OpenSearch format: ``[query, [completions]]``.

    The address bar shows text alone, not whether it is a term, a lesson or a heading, so
    texts that differ only in case (the term "temperature", the lesson "Temperature") would
    read as one suggestion twice: only the first is kept.

    The first element is ``q`` exactly as sent, spaces and all: the convention echoes it, and
    Firefox drops the suggestions when it differs from what the reader typed ("te " answered
    as "te"). The completions are the trimmed query's, as ``/api/suggest`` gives them."""
    text = params.prefix_text()
    found = use_index().suggestions.complete(text)
    texts: dict[str, str] = {}
    for suggestion in found:
        texts.setdefault(suggestion.text.casefold(), suggestion.text)
    body = json.dumps([params.utf8_arg("q"), list(texts.values())], ensure_ascii=False)
    return Response(body, mimetype="application/x-suggestions+json")


def _course() -> dict:
    """The course title and its most-mentioned terms for the demo; empty before an index exists."""
    try:
        opened = use_index()
    except IndexNotBuilt:
        return {}
    course = opened.manifest.get("course") or {}
    common = sorted(opened.glossary.records, key=lambda r: -r.mention_count)[:DEMO_TERMS]
    return {"title": course.get("title"), "terms": [r.term for r in common]}


def _short_name(title: str) -> str:
    return title if len(title) <= SHORT_NAME_MAX else title[:SHORT_NAME_MAX - 1].rstrip() + "…"
