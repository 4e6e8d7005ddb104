"""The JSON API fuzzed from its own OpenAPI document: no 5xx, and every answer as documented.

Schemathesis reads ``/api/openapi.json`` from the app in-process (WSGI, no server) and
generates requests for each operation: valid ones, and invalid ones (wrong types, missing or
empty ``q``, odd unicode, unknown parameters). Each answer must not be a server error, must
have a status the document lists, the documented content type, and a body its schema accepts.

The operations are parametrised here and each runs its own Hypothesis test, rather than
through ``schema.parametrize()``: the plugin's lazy loading from a fixture (needed because the
index is a session fixture) does not work with pytest 9. Examples are few and derandomised,
so a CI run is quick and repeatable.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from lessonsearch.web import Settings, create_app
from lessonsearch.web.openapi import openapi_document
from lessonsearch.web.request_index import live_index

schemathesis = pytest.importorskip("schemathesis")

EXAMPLES = 30
SCHEMA_URL = "/api/openapi.json"


DOCUMENT = openapi_document()


def has_invalid_input(item: dict) -> bool:
    """Whether some parameter has a type or bounds to break; a plain string has none."""
    parameters = DOCUMENT["components"]["parameters"]
    for ref in item["get"]["parameters"]:
        schema = parameters[ref["$ref"].rsplit("/", 1)[1]]["schema"]
        if schema.get("type") != "string" or schema.keys() - {"type"}:
            return True
    return False


OPERATIONS = sorted(
    [(path, "positive") for path in DOCUMENT["paths"] if path != SCHEMA_URL]
    + [(path, "negative") for path, item in DOCUMENT["paths"].items() if has_invalid_input(item)]
)
"""(path, generation mode): every operation with valid input (schemathesis leaves out the
document it was loaded from), and with invalid input where there is such a thing."""

CHECKS = [
    schemathesis.checks.not_a_server_error,
    schemathesis.checks.status_code_conformance,
    schemathesis.checks.content_type_conformance,
    schemathesis.checks.response_schema_conformance,
]


@pytest.fixture(scope="module")
def api_schema(tiny_index: Path):
    app = create_app(Settings(index_dir=tiny_index))
    try:
        yield schemathesis.openapi.from_wsgi(SCHEMA_URL, app)
    finally:
        live_index(app).close()


def operation(schema, path: str):
    for result in schema.get_all_operations():
        found = result.ok()
        if found.path == path and found.method.upper() == "GET":
            return found
    raise AssertionError(f"schemathesis found no GET {path} in the document")


@pytest.mark.parametrize("path, mode", OPERATIONS)
def test_the_api_answers_generated_requests_as_documented(api_schema, path: str, mode: str):
    strategy = operation(api_schema, path).as_strategy(schemathesis.GenerationMode(mode))

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(case=strategy)
    def answers_as_documented(case):
        case.call_and_validate(checks=CHECKS)

    answers_as_documented()
