"""The coverage page in headless Chromium: coverage.js sorts and filters in place, under the
site's CSP, with no console errors."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from browser_support import serve_app
from test_coverage import build_coverage_index
from test_coverage_faces import GLOSSARY_ORDER


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    index_dir = build_coverage_index(tmp_path_factory.mktemp("coverage-browser"))
    with serve_app(index_dir) as url:
        yield url


def visible_terms(page) -> list[str]:
    return page.locator("table.coverage-terms tbody tr:not([hidden])").evaluate_all(
        "rows => rows.map(r => r.dataset.term)")


def test_headers_sort_the_table_in_place(tab, service):
    page = tab.page
    page.goto(f"{service}/coverage")
    assert visible_terms(page)[:3] == ["autolyse", "banneton", "couche"]
    page.click("a[data-sort=mentions]")
    assert page.url == f"{service}/coverage"  # sorted without a reload
    assert visible_terms(page)[0] == "hydration"
    # Most mentions first: what a reader sees is a descending column.
    assert page.get_attribute("th:has(a[data-sort=mentions])", "aria-sort") == "descending"
    assert page.get_attribute("th:has(a[data-sort=term])", "aria-sort") is None
    page.click("a[data-sort=mentions]")
    assert visible_terms(page)[-1] == "hydration"
    assert page.get_attribute("th:has(a[data-sort=mentions])", "aria-sort") == "ascending"


def test_the_glossary_column_sorts_by_file_then_line_number(tab, service):
    page = tab.page
    page.goto(f"{service}/coverage")
    page.click("a[data-sort=glossary]")
    assert visible_terms(page) == GLOSSARY_ORDER
    assert page.get_attribute("th:has(a[data-sort=glossary])", "aria-sort") == "ascending"
    page.click("a[data-sort=glossary]")
    assert visible_terms(page) == GLOSSARY_ORDER[::-1]
    assert page.get_attribute("th:has(a[data-sort=glossary])", "aria-sort") == "descending"


def test_a_problem_filter_hides_the_other_rows(tab, service):
    page = tab.page
    page.goto(f"{service}/coverage")
    page.click("a[data-filter=used-before-definition]")
    assert visible_terms(page) == ["levain"]
    assert page.get_attribute("a[data-filter=used-before-definition]", "aria-current") == "true"
    page.click("a[data-filter='']")
    assert len(visible_terms(page)) == 7
