"""The OpenAPI 3.1 description of every JSON route, served at ``/api/openapi.json``.

Written by hand next to the views rather than generated, so it reads as documentation; the
tests keep it true by comparing its paths with the app's routes and validating real
responses against its schemas (objects here forbid unknown properties so drift is noticed).
"""

from __future__ import annotations

from typing import Any

from ..completions import KINDS, MAX_SUGGESTIONS
from ..coverage_terms import LESSONS_SHOWN, MAX_LESSONS
from ..query import MAX_ATOMS, MAX_PHRASES
from ..searcher import MAX_LIMIT, MAX_PAGE, MAX_QUERY_CHARS
from ..term_lookup import MAX_MENTIONS, MENTIONS_SHOWN
from .headers import package_version
from .params import DEFAULT_LIMIT

STR = {"type": "string"}
INT = {"type": "integer"}
STR_OR_NULL = {"type": ["string", "null"]}
INT_OR_NULL = {"type": ["integer", "null"]}
STRINGS = {"type": "array", "items": STR}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _object(nullable: bool = False, **properties: Any) -> dict[str, Any]:
    """An object whose listed properties are all present and nothing else is."""
    return {
        "type": ["object", "null"] if nullable else "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _list_of(schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": schema}


SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "description": "Every error: a sentence saying what went wrong and what to do.",
        "properties": {
            "error": STR,
            "suggestions": {**STRINGS, "description": "Close term names (404 on a term)."},
            "no_definition_yet": {
                **_object(term=STR, written_at=STR),
                "description": "A 404 on a term the glossary writes with no definition yet "
                               "(an editor's stub, which readers are not shown): its name "
                               "and where it is written, as file:line in the glossary "
                               "folder. Absent for a name that is no term at all.",
            },
        },
        "required": ["error"],
        "additionalProperties": False,
    },
    "SearchHit": _object(
        lesson=STR, lesson_title=STR, heading=STR_OR_NULL, heading_path=STRINGS,
        module=STR_OR_NULL, anchor=STR_OR_NULL,
        url={**STR, "description": "The lesson page, with #anchor when the section has one."},
        snippet={**STR, "description": "HTML: escaped text, matched words in <mark>."},
        score={"type": "number"},
        kind={"enum": ["section", "check", "summary"],
              "description": "A section, the lesson's check question, or its summary (its "
                             "key idea and short answer, linked to the lesson page)."},
        matched_in_title={**STR_OR_NULL,
                          "description": "HTML: the lesson's title, escaped, the query's "
                                         "words in <mark>, when the hit was found through "
                                         "that title alone (its snippet marks nothing, nor "
                                         "does its heading hold a word of the query); else "
                                         "null."},
    ),
    "TermCard": _object(
        term=STR, definition=STR_OR_NULL,
        url={**STR_OR_NULL, "description": "Where a lesson defines the term, if one does."},
        glossary_anchor=STR,
    ),
    "SearchResponse": _object(
        query=STR, total=INT, page=INT, limit=INT,
        relaxed={"type": "boolean",
                 "description": "No section had every word; results match most of them."},
        results=_list_of(_ref("SearchHit")),
        terms={**_list_of(_ref("TermCard")), "description": "Glossary terms the query names."},
        suggestion={**STR_OR_NULL, "description": "The query with misspelt words corrected, "
                    "and words written as the course writes them (subnetmask: subnet mask, "
                    "pre-training: pretraining)."},
        suggestion_searched={
            "type": "boolean",
            "description": "The results are the suggestion's: the query was searched as "
                           "corrected, not as typed (\"Showing results for\"). False when "
                           "the query as typed finds the same sections (\"Did you mean\"), "
                           "or there is no suggestion."},
        related={**_list_of(_object(word=STR, searched=STR)),
                 "description": "Each word of the query no section holds that was searched "
                                "as the word it was made from (embedder: embed) or as the "
                                "acronym it is the plural of (llms: LLM), which the results "
                                "are for; not a correction. Or, when nothing matched a query "
                                "that names a glossary term, the query and the term, whose "
                                "names were searched instead (topp: nucleus sampling)."},
        left_out={**_object(nullable=True, searched=INT, written=INT, excluded=INT,
                            phrases=INT, error=STR_OR_NULL, notice=STR),
                  "description": f"Null when every word was searched. Else the query has "
                                 f"more than {MAX_ATOMS} words and phrases (a pasted "
                                 "paragraph), and the rest were left out, or it is a Python "
                                 "traceback, of which only the error it ends with was "
                                 "searched. searched: how many words and phrases were, its "
                                 f"first {MAX_ATOMS} or the error's; written: how many it "
                                 "has; excluded: how many of those left out followed - or "
                                 "NOT (sections with them are not excluded); phrases: how "
                                 "many left out were phrases; error: the traceback's error "
                                 "as searched, its name where the course writes it "
                                 "(FileNotFoundError), else its line, or null; notice: the "
                                 "sentence to show, \"Searched the first 64 words and "
                                 "phrases of 85; the rest were left out.\""},
    ),
    "DefinedAt": _object(nullable=True, lesson=STR, anchor=STR_OR_NULL, url=STR, sentence=STR),
    "Term": _object(
        term=STR, aliases=STRINGS, definition=STR_OR_NULL, source=STR_OR_NULL,
        defined_at=_ref("DefinedAt"),
        mentions={**_list_of(_object(
            lesson=STR, lesson_title=STR, anchor=STR_OR_NULL,
            heading={**STR_OR_NULL, "description": "The section's heading; null for the text "
                     "above the lesson's first heading."},
            url=STR, count=INT)),
                  "description": "The first sections that mention the term, in course order "
                                 "(see the mentions parameter)."},
        mention_count={**INT, "description": "How often lessons mention the term."},
        mention_sections={**INT, "description": "How many sections mention it."},
        see_also=STRINGS, anchor=STR,
    ),
    "TermList": _object(terms=_list_of(_object(
        term=STR, aliases=STRINGS, definition=STR_OR_NULL, defined_at=_ref("DefinedAt"),
        mentions={**INT, "description": "How often lessons mention the term."}, anchor=STR,
        forms={**STRINGS, "description": "Its names in the other forms the lessons write that "
               "count as its mentions (collimated, f-ratios): the tooltips underline them."},
    ))),
    "Suggestions": _object(query=STR, suggestions={**_list_of(_object(
        text=STR, kind={"enum": list(KINDS)},
        url={**STR, "description": "A lesson URL, or this service's /glossary/<term> page."},
        matched={**STR_OR_NULL, "description": "For a term whose name does not start with the "
                 "query (nor any of its words): the alias that does (\"te\" → benchmark, "
                 "through \"test set\")."},
    )), "maxItems": MAX_SUGGESTIONS}),
    "Lessons": _object(
        course=_object(slug=STR, title=STR, url=STR_OR_NULL),
        modules=_list_of(_object(index=INT_OR_NULL, slug=STR, title=STR)),
        lessons=_list_of(_object(slug=STR, title=STR, url=STR, module=STR_OR_NULL,
                                 position=INT_OR_NULL, minutes=INT_OR_NULL, sections=INT)),
    ),
    "Health": _object(
        status={"enum": ["ok", "warn"],
                "description": "warn: the version `current` names could not be loaded; "
                               "the one in `version` still answers."},
        version=STR, built_at=STR,
        counts={"type": "object", "additionalProperties": INT},
        not_loaded=_object(nullable=True, version=STR_OR_NULL, reason=STR),
    ),
}

PARAMETERS: dict[str, Any] = {
    "q": {"name": "q", "in": "query", "required": True,
          "description": "Words, \"quoted phrases\", AND, OR, NOT and -word. A query with "
                         "no word to search for (punctuation alone: ?, (), \"\") or that only "
                         "excludes words (-model) is a 400, and so is one of more than "
                         f"{MAX_PHRASES} different phrases in quotes. Of more than "
                         f"{MAX_ATOMS} words "
                         f"and phrases, the first {MAX_ATOMS} are searched (left_out); "
                         "an operator alone (OR, AND, NOT) is searched as the word.",
          "schema": {**STR, "minLength": 1, "maxLength": MAX_QUERY_CHARS}},
    "prefix": {"name": "q", "in": "query", "required": True,
               "description": "What the reader has typed so far; matched case-insensitively "
                              "at the start of a name or of any word in it. Spaces and "
                              "control characters alone have no completions: an empty "
                              "list, not an error.",
               "schema": {**STR, "minLength": 1, "maxLength": MAX_QUERY_CHARS}},
    "limit": {"name": "limit", "in": "query",
              "description": f"Results per page; values above {MAX_LIMIT} are capped.",
              "schema": {**INT, "minimum": 1, "default": DEFAULT_LIMIT}},
    "typing": {"name": "typing", "in": "query",
               "description": "1 when q is a search box's, still being typed: its last word "
                              "may be cut short and is completed to the course's most used "
                              "word it begins, and finding nothing is not logged for the "
                              "coverage page. 0 or absent: a submitted search.",
               "schema": {"enum": ["0", "1"], "default": "0"}},
    "page": {"name": "page", "in": "query", "description": "1 for the first page.",
             "schema": {**INT, "minimum": 1, "maximum": MAX_PAGE, "default": 1}},
    "lesson": {"name": "lesson", "in": "query",
               "description": "Only this lesson: a slug /api/lessons lists (another is a 400); "
                              "empty means every lesson.",
               "schema": STR},
    "module": {"name": "module", "in": "query",
               "description": "Only this module: a slug /api/lessons lists (another is a 400); "
                              "empty means every module.",
               "schema": STR},
    "mentions": {"name": "mentions", "in": "query",
                 "description": "How many of the sections that mention the term to list; "
                                f"values above {MAX_MENTIONS} are capped.",
                 "schema": {**INT, "minimum": 1, "default": MENTIONS_SHOWN}},
    "lessons": {"name": "lessons", "in": "query",
                "description": "How many lessons to list per term and per used-before-definition "
                               f"entry; values above {MAX_LESSONS} are capped.",
                "schema": {**INT, "minimum": 1, "default": LESSONS_SHOWN}},
    "name": {"name": "name", "in": "path", "required": True,
             "description": "A term's anchor, else the term, an alias or any spelling "
                            "of it.",
             "schema": STR},
}


def _error(description: str) -> dict[str, Any]:
    return {"description": description,
            "content": {"application/json": {"schema": _ref("Error")}}}


def _get(summary: str, schema: dict[str, Any], params: tuple[str, ...] = (),
         errors: tuple[int, ...] = (), from_index: bool = True,
         etag: bool = True) -> dict[str, Any]:
    """``etag``: False for a body that changes without a new index version (``headers``)."""
    responses: dict[str, Any] = {
        "200": {"description": "OK", "content": {"application/json": {"schema": schema}}},
    }
    if from_index and etag:
        responses["304"] = {"description": "Not modified: the ETag sent in If-None-Match "
                                           "still matches (same index version and query)."}
    known = {400: "Bad parameters.", 404: "Not found.",
             503: "No index, or one built by another version of lessonsearch; retry once "
                  "it is built."}
    for code in (*errors, *((503,) if from_index else ())):
        responses[str(code)] = _error(known[code])
    return {"get": {
        "summary": summary,
        "parameters": [_ref_parameter(p) for p in params],
        "responses": responses,
    }}


def _ref_parameter(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/parameters/{name}"}


_PLACE = _object(lesson=STR, title=STR, url={**STR, "description": "Its first mention there."},
                 count=INT)
_COVERAGE_DEFINED_AT = _object(lesson=STR, title=STR, url=STR, sentence=STR)
_COVERAGE_LISTS = ("used_before_definition", "missing_from_glossary", "unused", "undefined",
                   "conflicting", "candidates", "broken_anchors", "needs_definition")
COVERAGE = {
    "type": "object",
    "required": ["summary", "terms", *_COVERAGE_LISTS],
    "properties": {
        "summary": {"type": "object"},
        "terms": _list_of(_object(
            term=STR, anchor=STR, in_glossary={"type": "boolean"}, glossary_entry=STR_OR_NULL,
            defined_at={**_COVERAGE_DEFINED_AT, "type": ["object", "null"]},
            mentions={**INT, "description": "How often lessons mention the term."},
            lessons={**_list_of(_PLACE), "description": "The first lessons that mention it, "
                                                        "in course order (see the lessons "
                                                        "parameter)."},
            lesson_count={**INT, "description": "How many lessons mention it."},
            first_mention={**_PLACE, "type": ["object", "null"]},
        )),
        "used_before_definition": _list_of(_object(
            term=STR, defined_at=_COVERAGE_DEFINED_AT,
            used_at={**_list_of(_PLACE), "description": "The first lessons before the "
                                                        "defining one that mention the term "
                                                        "(see the lessons parameter)."},
            used_count={**INT, "description": "How many lessons before the defining one "
                                              "mention it (marked uses only, when "
                                              "everyday)."},
            everyday={"type": "boolean", "description": "The glossary marks the term an "
                                                        "everyday word too."},
            plain_count={**INT, "description": "How many lessons before the defining one "
                                               "write it only as a plain word of prose."},
            hint={**STR_OR_NULL, "description": "Why the term may be an everyday word "
                                                "here, and what to do about it."},
        )),
        **{name: _list_of({"type": "object"}) for name in _COVERAGE_LISTS[1:]},
        "lessons": {**_list_of(_object(slug=STR, title=STR, url=STR, position=INT)),
                    "description": "Every lesson in course order, with its position as "
                                   "/api/lessons gives it."},
        "moved_links": {**_list_of(_object(
            old_url=STR, url=STR, lesson_count=INT, last_seen=STR,
        )), "description": "Lessons' links that moved (a new base URL or slug) while the "
                           "lessons stayed: what the old links start with, what the new ones "
                           "do, and the last version that published the old ones. Not broken "
                           "anchors; the old links need redirects."},
        "allow_warnings": {**_list_of(_object(
            source=STR, line={"type": ["integer", "null"]}, kind=STR, name=STR, reason=STR,
            suggestion=STR_OR_NULL, message=STR,
        )), "description": "The allow-list lines that silenced nothing, and why."},
    },
}
"""The coverage report's outline: the lists that grow with the course in full, the other
entries as described in the README."""


def openapi_document() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "lessonsearch",
            "version": package_version(),
            "description": "Search a course's lessons and look up its glossary. Errors share "
                           "one shape; responses carry an ETag and Cache-Control: no-cache.",
        },
        "paths": {
            "/api/search": _get("Ranked sections for a query", _ref("SearchResponse"),
                                ("q", "limit", "page", "lesson", "module", "typing"), (400,)),
            "/api/suggest": _get(
                f"Up to {MAX_SUGGESTIONS} completions: terms, then lessons, then headings",
                _ref("Suggestions"), ("prefix",), (400,)),
            "/api/terms": _get("Every glossary term, A to Z", _ref("TermList")),
            "/api/terms/{name}": _get("One glossary term", _ref("Term"), ("name", "mentions"),
                                      (400, 404)),
            "/api/lessons": _get("The course's lessons in order", _ref("Lessons")),
            "/healthz": _get("Which index version answers, and one that could not be "
                             "loaded", _ref("Health"), etag=False),
            "/api/coverage": _get("Term coverage of the glossary, for editors", COVERAGE,
                                  ("lessons",), (400,), etag=False),
            "/api/openapi.json": _get("This document", {"type": "object"}, from_index=False),
        },
        "components": {"schemas": SCHEMAS, "parameters": PARAMETERS},
    }
