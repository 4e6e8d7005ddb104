"""The OpenAPI document: valid, complete (every JSON route, nothing more) and true to the
bodies the API really sends."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from web_fixtures import build, copy_course, health_until, serving

from lessonsearch.web import Settings, create_app


def is_json_route(rule) -> bool:
    """Our JSON routes: the api blueprint's, and anything any blueprint serves under /api/."""
    return rule.endpoint.startswith("api.") or rule.rule.startswith("/api/")


@pytest.fixture
def client(tiny_index: Path):
    with serving(tiny_index) as client:
        yield client


@pytest.fixture
def document(client) -> dict:
    got = client.get("/api/openapi.json")
    assert got.status_code == 200
    return got.get_json()


def test_the_document_is_valid_openapi_3_1(document):
    validator = pytest.importorskip("openapi_spec_validator")
    assert document["openapi"].startswith("3.1")
    validator.validate(document)


def test_the_document_lists_exactly_the_json_routes(document, tmp_path: Path):
    app = create_app(Settings(index_dir=tmp_path))
    routes = {
        re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        for rule in app.url_map.iter_rules()
        if is_json_route(rule)
    }
    assert routes == set(document["paths"])
    assert "/api/search" in routes and "/healthz" in routes


def test_every_path_parameter_is_described(document):
    for path, item in document["paths"].items():
        declared = set(re.findall(r"{(\w+)}", path))
        described = {
            document["components"]["parameters"][p["$ref"].rsplit("/", 1)[1]]["name"]
            for p in item["get"]["parameters"]
            if document["components"]["parameters"][p["$ref"].rsplit("/", 1)[1]]["in"] == "path"
        }
        assert declared == described, path


def schema_checker(document: dict, name: str):
    jsonschema = pytest.importorskip("jsonschema")
    schema = {"$ref": f"#/components/schemas/{name}", "components": document["components"]}
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("url, status, schema", [
    ("/api/search?q=token", 200, "SearchResponse"),
    ("/api/search?q=how+big+is+the+KV+cache", 200, "SearchResponse"),
    ("/api/search?q=temprature", 200, "SearchResponse"),
    ("/api/search?q=zebra+token+cache", 200, "SearchResponse"),
    ("/api/search?q=sampler", 200, "SearchResponse"),  # searched as sampling: "related"
    ("/api/suggest?q=to", 200, "Suggestions"),
    ("/api/terms", 200, "TermList"),
    ("/api/terms/KV%20cache", 200, "Term"),
    ("/api/terms/temperature", 200, "Term"),
    ("/api/lessons", 200, "Lessons"),
    ("/healthz", 200, "Health"),
    ("/api/search?q=", 400, "Error"),
    ("/api/search?q=token&lesson=nope", 400, "Error"),
    ("/api/terms/nothing-like-it", 404, "Error"),
    ("/api/nowhere", 404, "Error"),
])
def test_real_bodies_match_their_schemas(client, document, url, status, schema):
    got = client.get(url)
    assert got.status_code == status
    errors = list(schema_checker(document, schema).iter_errors(got.get_json()))
    assert errors == [], [e.message for e in errors]


def test_a_health_check_after_a_failed_rollout_matches_its_schema(tmp_path, document):
    """``not_loaded`` filled in: the version ``current`` names could not be loaded."""
    course = copy_course(tmp_path / "course")
    index_dir = tmp_path / "index"
    build(course, index_dir)
    with serving(index_dir) as client:
        client.get("/healthz")
        newer = build(course, index_dir, full=True)
        (index_dir / newer / "manifest.json").write_text("{")
        body = health_until(client, lambda body: body["status"] == "warn")
    assert body["status"] == "warn" and body["not_loaded"]["version"] == newer
    errors = list(schema_checker(document, "Health").iter_errors(body))
    assert errors == [], [e.message for e in errors]


def test_each_documented_status_has_a_schema_for_its_body(document):
    for path, item in document["paths"].items():
        responses = item["get"]["responses"]
        assert "200" in responses, path
        for code, response in responses.items():
            if code != "304":
                assert "application/json" in response["content"], (path, code)



def test_a_304_is_documented_where_one_comes(client, document):
    """The document listed a 304 for /api/coverage, which sends no ETag (its zero-result
    backlog changes without a new index version), so none could come."""
    for path, item in document["paths"].items():
        url = path.replace("{name}", "token") + {"/api/search": "?q=token",
                                                  "/api/suggest": "?q=tok"}.get(path, "")
        got = client.get(url)
        assert got.status_code == 200, url
        tag = got.headers.get("ETag")
        assert ("304" in item["get"]["responses"]) == (tag is not None), url
        if tag:
            assert client.get(url, headers={"If-None-Match": tag}).status_code == 304, url

def test_the_schemas_reject_what_the_api_never_sends(document):
    checker = schema_checker(document, "SearchResponse")
    assert list(checker.iter_errors({"query": "x"}))  # required fields missing
    error = schema_checker(document, "Error")
    assert not list(error.iter_errors({"error": "x", "suggestions": ["y"]}))
    assert list(error.iter_errors({"message": "x"}))


def test_a_404_on_a_glossary_stub_matches_its_schema(tmp_path, document):
    """The stub's 404 says what the name is and where it is written (``no_definition_yet``)."""
    course = copy_course(tmp_path / "course")
    with (course / "glossary" / "glossary.md").open("a", encoding="utf-8") as glossary:
        glossary.write("\nbeam search\n:\n")
    build(course, tmp_path / "index")
    with serving(tmp_path / "index") as client:
        got = client.get("/api/terms/beam-search")
    assert got.status_code == 404 and "no_definition_yet" in got.get_json()
    errors = list(schema_checker(document, "Error").iter_errors(got.get_json()))
    assert errors == [], [e.message for e in errors]
