"""Links a course's files give that are no web links (``javascript:``, ``data:``): warned
about when the index is built, and never served, by the API or the pages.

The course in tests/data/hostile-links/ gives one in every place a link can come from: a
Markdown lesson's ``url``, a JSON export's ``lesson.url`` and ``course.url``, and the course
file's ``url``. An index written before links were checked may still hold them: the pages
must not link them either (``legacy_index`` builds one with the checks switched off).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import expect, open_tab, serve_app, serve_host_pages, wait_for_answer
from web_fixtures import serving

from lessonsearch import course, links
from lessonsearch.build import build_index
from lessonsearch.readers import metadata
from lessonsearch.searcher import Searcher

HOSTILE = Path(__file__).resolve().parent / "data" / "hostile-links"
SCHEMES = re.compile(r"(?:java|vb)script:|data:text", re.IGNORECASE)
BASE = "https://learn.example.org/hostile/"


def build(out: Path):
    return build_index(HOSTILE / "lessons", HOSTILE / "glossary", out)


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hostile") / "index"
    build(out)
    return out


def test_each_link_that_is_no_web_link_is_a_warning_naming_its_file_and_line(tmp_path):
    report = build(tmp_path / "index")
    found = sorted((str(p).split(": ", 1)[0], p.message.split(" is not a web link")[0])
                   for p in report.problems)
    toml = "lessonsearch.toml"  # beside lessons/, named from there as the lessons are
    assert found == [
        ("lessons/01-quagga.md:3", "url 'javascript:alert(document.domain)//'"),
        ("lessons/02-zebra.json:2", "course.url 'data:text/html,<script>alert(1)</script>'"),
        ("lessons/02-zebra.json:6", "lesson.url ' JavaScript:alert(document.domain)'"),
        (f"{toml}:3", "course.url \"javascript:alert('course')\""),
    ]
    assert not any(p.skipped for p in report.problems) and report.lessons == 2
    # A rebuild takes both lessons from the build cache, and still says so.
    again = build(tmp_path / "index")
    assert sorted(map(str, again.problems)) == sorted(map(str, report.problems))


def test_the_lessons_link_where_the_course_would_have_linked_them(index: Path) -> None:
    searcher = Searcher.open(index)
    try:
        hits = {hit.lesson: hit.url for hit in searcher.search("stripe").results}
    finally:
        searcher.close()
    assert hits == {"quagga": f"{BASE}quagga#where-the-stripes-end",
                    "zebra": f"{BASE}zebra#stripes-that-go-all-the-way"}


ROUTES = ("/api/search?q=stripe", "/api/search?q=quagga+stripe", "/api/suggest?q=q",
          "/api/suggest?q=z", "/api/lessons", "/api/terms", "/api/terms/quagga%20stripe",
          "/api/coverage", "/healthz", "/", "/search?q=stripe", "/search?q=quagga+stripe",
          "/glossary", "/glossary/quagga-stripe", "/coverage")


def test_no_answer_holds_a_link_that_is_no_web_link(index: Path) -> None:
    with serving(index) as client:
        for route in ROUTES:
            response = client.get(route)
            assert response.status_code == 200, route
            body = response.get_data(as_text=True)
            assert "quagga" in body.lower() or route.startswith(("/healthz", "/api/suggest?q=z")), \
                route
            assert not SCHEMES.search(body), route


@pytest.fixture(scope="module")
def legacy_index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The course built as before links were checked: its index holds the hostile links."""
    out = tmp_path_factory.mktemp("legacy") / "index"
    with pytest.MonkeyPatch.context() as patch:
        for module in (course, metadata, links):
            patch.setattr(module, "is_web_link", lambda url: True)
        patch.setattr("lessonsearch.course_file.is_web_link", lambda url: True)
        build(out)
    with serving(out) as client:
        assert "javascript:" in client.get("/api/search?q=stripe").get_data(as_text=True)
    return out


def test_the_pages_link_no_javascript_url_an_older_index_holds(legacy_index: Path) -> None:
    hrefs = re.compile(r'href="([^"]*)"')
    with serving(legacy_index) as client:
        for route in ("/", "/search?q=stripe", "/search?q=quagga+stripe",
                      "/glossary/quagga-stripe", "/coverage"):
            page = client.get(route).get_data(as_text=True)
            assert "quagga" in page.lower(), route
            assert [h for h in hrefs.findall(page) if SCHEMES.search(h)] == [], route


def test_the_search_box_links_no_javascript_url_an_older_index_holds(browser, legacy_index):
    """On a course page, the box's options carry only http(s) and relative links: the
    quagga lesson's option is shown but links nowhere, and choosing it runs nothing."""
    with serve_app(legacy_index) as service, serve_host_pages(service) as host:
        tab = open_tab(browser)
        page = tab.page
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        try:
            page.goto(f"{host}/xss.html")
            field = page.locator("[data-lessonsearch] input")
            field.click()
            field.press_sequentially("stripe", delay=25)
            wait_for_answer(page, "[data-lessonsearch]", "stripe")
            results = page.locator("[data-lessonsearch] [role=option][data-kind=result]")
            expect(results).to_have_count(2)
            hrefs = results.evaluate_all("els => els.map(e => e.getAttribute('href'))")
            assert hrefs == [None, None]  # both lessons' URLs are javascript: ones
            every = page.locator("[data-lessonsearch] a[href]").evaluate_all(
                "els => els.map(e => e.getAttribute('href'))")
            assert every and not [h for h in every if SCHEMES.search(h)]
            for _ in range(page.locator("[data-lessonsearch] [role=option]").count()):
                field.press("ArrowDown")
                if results.first.get_attribute("aria-selected") == "true":
                    break
            expect(results.first).to_have_attribute("aria-selected", "true")
            field.press("Enter")
            results.first.click()
            field.press_sequentially(" end", delay=25)  # still this page, and still working
            wait_for_answer(page, "[data-lessonsearch]", "stripe end")
            assert dialogs == [] and page.url == f"{host}/xss.html"
        finally:
            page.context.close()
        assert tab.unexpected_errors() == []



ELSEWHERE = (": it leads to another host ('evil.example'), as a link starting with two slashes "
             "does; write https:// to link another site, or one slash for a page of this one")


@pytest.mark.parametrize(("url", "reason"), [
    ("//evil.example/x", ELSEWHERE),
    ("\\\\evil.example", ELSEWHERE),
    ("/\\evil.example/x", ELSEWHERE),
    ("http://", " (it names no host)"),
])
def test_a_link_to_another_host_without_a_scheme_or_to_no_host_is_refused(
        tmp_path: Path, url: str, reason: str) -> None:
    """Each was taken for a link within the course's site; a browser follows the first three
    to evil.example, the last nowhere. The lesson links where the course would have."""
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "lessonsearch.toml").write_text(
        f'[course]\ntitle = "Okapis"\nbase_url = {json.dumps(url)}\n', encoding="utf-8")
    (lessons / "01-okapi.md").write_text(
        f"---\ntitle: Okapi stripes\nurl: {json.dumps(url)}\n---\n\n## Legs\n\n"
        "An okapi has stripes on its legs alone.\n", encoding="utf-8")
    report = build_index(lessons, None, tmp_path / "index")
    assert [str(p) for p in report.problems] == [
        f"lessons/lessonsearch.toml:3: course.base_url {url!r} is not a web link{reason};"
        " lessons link to /lessons/<slug> instead",
        f"lessons/01-okapi.md:3: url {url!r} is not a web link{reason}; the lesson links to "
        "the page its course gives it instead",
    ]
    searcher = Searcher.open(tmp_path / "index")
    try:
        [hit] = searcher.search("okapi").results
    finally:
        searcher.close()
    assert hit.url == "/lessons/okapi#legs"
