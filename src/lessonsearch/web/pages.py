"""The HTML pages: a search form that works without JavaScript, results, and the glossary.

Templates auto-escape everything; the only ``|safe`` is a snippet (see ``ShownHit``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from flask import Blueprint, current_app, render_template, url_for

from ..glossary_table import Definition, TermRecord
from ..query import syntax_used
from ..search_log import clean_query, record_zero_result
from ..searcher import MAX_QUERY_CHARS
from ..term_lookup import Glossary
from . import params
from .lesson_groups import MAX_HITS, grouped_search
from .request_index import use_index, used_index
from .settings import Settings

pages = Blueprint("pages", __name__)


@pages.app_context_processor
def course_context() -> dict[str, object]:
    """The course title for the header, when this request already opened an index, and the
    longest query the search box takes."""
    opened = used_index()
    manifest = opened.manifest if opened is not None else {}
    return {"course": manifest.get("course") or {}, "max_query_chars": MAX_QUERY_CHARS}


@pages.get("/")
def home():
    opened = use_index()
    return render_template("home.html", modules=opened.modules)


@pages.get("/search")
def search():
    settings: Settings = current_app.config["LESSONSEARCH"]
    if not clean_query(params.utf8_arg("q")):
        return empty_search()
    text = params.query_text()
    page = params.page()
    opened = use_index()
    lesson, module = params.filters(opened)
    results = grouped_search(opened.searcher, text, page, settings.groups_per_page,
                             settings.sections_per_group, lesson, module)
    found_none = results.response.total == 0
    if found_none and page == 1 and not (lesson or module):
        record_zero_result(settings.index_dir, text)  # the editors' backlog (/coverage)
    return render_template(
        "search.html", q=text, results=results, lesson=lesson, module=module,
        modules=opened.modules, lesson_title=opened.lesson_titles.get(lesson),
        module_title=_module_title(opened.modules, module),
        apart=lesson is not None and module is not None and _module_of(opened, lesson) != module,
        args=_search_args(text, lesson, module), max_hits=MAX_HITS,
        onward=_onward(opened) if found_none else (),
        tips=[TIPS[used] for used in sorted(syntax_used(text))] if found_none else [],
    )


TIPS = {
    "not": "A word after - or NOT leaves out every section that has it: without it, more "
           "sections match.",
    "or": "With OR, a section needs every word of one side: fewer words on each side match "
          "more sections.",
    "phrase": "Words in quotes are found only side by side, as written: without the quotes, "
              "a section may have them anywhere.",
}
"""What a search that found nothing says about the syntax it used (``query.syntax_used``)."""


def _onward(opened) -> list[tuple[str, str]]:
    """Where a reader whose search found nothing may look instead, with the links' labels:
    the glossary and the list of lessons when the course has them."""
    places = [(url_for("pages.glossary"), "the glossary")] if opened.glossary.records else []
    if opened.modules:
        places.append((url_for("pages.home", _anchor="lessons-heading"), "the list of lessons"))
    return places


def empty_search():
    """The search page for no words: Search pressed on an empty box, or ``/search`` typed.
    The reader made no mistake worth an error page (the JSON API, whose client has a bug,
    answers 400): the box again, the filters as chosen, and the lessons, as on the home page."""
    opened = use_index()
    lesson, module = params.filters(opened)
    return render_template("home.html", modules=opened.modules, lesson=lesson, module=module)


def _module_of(opened, lesson: str) -> str:
    return next((m["slug"] for m in opened.modules
                 if any(x["slug"] == lesson for x in m["lessons"])), "")


def _module_title(modules: list[dict], module: str | None) -> str | None:
    return next((m["title"] for m in modules if m["slug"] == module), None) if module else None


@pages.get("/glossary")
def glossary():
    by_letter: dict[str, list] = {}
    for record in use_index().glossary.records:
        by_letter.setdefault(_letter(record.term), []).append(record)
    return render_template("glossary.html", by_letter=sorted(by_letter.items()))


@pages.get("/glossary/<path:name>")
def term(name: str):
    opened = use_index()
    record = opened.glossary.with_mentions(opened.glossary.look_up(name))
    entry = next((d for d in record.definitions if d.origin == "glossary"), None)
    defined = record.lesson_definition
    return render_template("term.html", record=record, defined=defined,
                           also_defined=_also_defined(record, defined),
                           entry=entry, lesson_titles=opened.lesson_titles,
                           see_also=term_links(opened.glossary, record.see_also))


def _also_defined(record: TermRecord, shown: Definition | None) -> list[Definition]:
    """The other lessons that define the term, in course order, one definition each: the
    page quotes the clearest (``shown``) and links these."""
    others: dict[str, Definition] = {}
    for d in sorted((d for d in record.definitions if d.origin == "lesson" and d.lesson),
                    key=lambda d: d.order or 0):
        if shown is None or d.lesson != shown.lesson:
            others.setdefault(d.lesson or "", d)
    return list(others.values())


def term_links(glossary: Glossary, names: Iterable[str]) -> list[tuple[str, str]]:
    """Each name of a term, with its term's page: linked by the term's anchor, as a name may
    be another term's anchor (``Glossary.at``). A name that is no term is left out."""
    return [(name, url_for("pages.term", name=found.anchor))
            for name in names if (found := glossary.find(name)) is not None]


def _search_args(text: str, lesson: str | None, module: str | None) -> dict[str, str]:
    """The current search as query arguments, for pagination and "more" links."""
    args = {"q": text, "lesson": lesson or "", "module": module or ""}
    return {k: v for k, v in args.items() if v}


def _letter(term: str) -> str:
    """The A–Z heading a term files under: "Élan" under E, "2-gram" under #."""
    first = unicodedata.normalize("NFKD", term)[:1].upper()
    return first if first.isalpha() else "#"

