"""The /embed page and OpenSearch description, the pages at phone and desktop widths, and a
course of hostile markup shown as text everywhere: in the widget, its tooltips and the pages.

The first tests use the Flask test client and run without a browser.
"""

from __future__ import annotations

import json
import re
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

import pytest
from browser_support import (
    WIDTHS,
    XSS_COURSE,
    expect,
    open_tab,
    screenshot,
    serve_app,
    serve_host_pages,
    service_app,
    wait_for_answer,
)

from lessonsearch.build import build_index
from lessonsearch.web import embed as embed_module
from lessonsearch.web.embed import WIDGET_OPTIONS
from lessonsearch.web.request_index import live_index

WIDGET_JS = Path(embed_module.__file__).parent / "static" / "lessonsearch.js"
OPENSEARCH = {"os": "http://a9.com/-/spec/opensearch/1.1/"}
PAGES = {"home": "/", "search": "/search?q=temperature", "glossary": "/glossary",
         "embed": "/embed"}


# --- Without a browser --------------------------------------------------------------------


@pytest.fixture(scope="module")
def app(sample_index):
    app = service_app(sample_index)
    yield app
    live_index(app).close()


@pytest.fixture
def client(app):
    return app.test_client()


def test_opensearch_description_names_the_search_and_suggestion_urls(client):
    response = client.get("/opensearch.xml", headers={"Origin": "https://course.example.test"})
    assert response.status_code == 200
    assert response.mimetype == "application/opensearchdescription+xml"
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    root = ElementTree.fromstring(response.data)
    short_name = root.findtext("os:ShortName", namespaces=OPENSEARCH)
    assert 0 < len(short_name) <= 16
    assert root.findtext("os:InputEncoding", namespaces=OPENSEARCH) == "UTF-8"
    urls = {u.get("type"): u.get("template") for u in root.findall("os:Url", OPENSEARCH)}
    assert urls["text/html"] == "http://localhost/search?q={searchTerms}"
    assert urls["application/opensearchdescription+xml"] == "http://localhost/opensearch.xml"
    suggest = urls["application/x-suggestions+json"]
    assert suggest == "http://localhost/opensearch/suggestions?q={searchTerms}"
    answer = client.get(suggest.removeprefix("http://localhost").replace("{searchTerms}", "temp"))
    assert answer.status_code == 200
    assert answer.mimetype == "application/x-suggestions+json"
    query, texts = json.loads(answer.data)
    assert query == "temp" and "temperature" in texts


def test_every_page_links_the_opensearch_description(client):
    html = client.get("/").get_data(as_text=True)
    link = re.search(r'<link rel="search"[^>]*>', html)
    assert link and "application/opensearchdescription+xml" in link[0]
    assert 'href="/opensearch.xml"' in link[0]


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def test_embed_page_shows_the_snippet_with_this_servers_url(client):
    response = client.get("/embed", base_url="https://search.example.test")
    assert response.status_code == 200
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    html = response.get_data(as_text=True)
    assert "&lt;div data-lessonsearch&gt;&lt;/div&gt;" in html
    assert ('&lt;script src="https://search.example.test/static/lessonsearch.js" defer&gt;'
            '&lt;/script&gt;') in html
    assert "connect-src https://search.example.test/" in html
    for option in WIDGET_OPTIONS:
        assert option.attribute in html and option.default in html
    # The live demo: a widget, a paragraph of terms, the script by URL; nothing inline.
    parser = _Tags()
    parser.feed(html)
    tags = parser.tags
    assert ("div", {"data-lessonsearch": None}) in tags
    assert any(tag == "p" and "data-lessonsearch-terms" in attrs for tag, attrs in tags)
    scripts = [attrs for tag, attrs in tags if tag == "script"]
    assert {"src": "/static/lessonsearch.js", "defer": None} in scripts
    assert all(s.get("src") for s in scripts)
    assert not any(tag == "style" or "style" in attrs for tag, attrs in tags)


def test_embed_page_and_description_work_before_an_index_is_built(tmp_path):
    app = service_app(tmp_path / "no-index")
    client = app.test_client()
    page = client.get("/embed")
    assert page.status_code == 200
    assert "static/lessonsearch.js" in page.get_data(as_text=True)
    description = client.get("/opensearch.xml")
    assert description.status_code == 200
    assert b"<ShortName>Course search</ShortName>" in description.data


def test_the_scripts_documented_options_match_the_embed_page():
    header = WIDGET_JS.read_text(encoding="utf-8").split("*/", 1)[0]
    for option in WIDGET_OPTIONS:
        line = next((x for x in header.splitlines() if f" {option.attribute} " in x), None)
        assert line is not None, f"{option.attribute} is not documented in lessonsearch.js"
        assert option.default in line, line


def test_the_plain_attributes_the_embed_snippet_shows_are_documented(client):
    """``/embed`` showed ``<lesson-search placeholder="…">`` while README and the page's own
    list named only ``data-placeholder``: each plain attribute the snippet uses is an option
    listed with ``data-``, and both the page and README say the prefix may be left out there."""
    html = client.get("/embed").get_data(as_text=True)
    snippet = re.search(r"&lt;lesson-search ([^&]*)&gt;", html)
    assert snippet is not None
    plain = re.findall(r'([a-z-]+)="', snippet.group(1))
    assert plain and all(not name.startswith("data-") for name in plain)
    assert {f"data-{name}" for name in plain} <= {o.attribute for o in WIDGET_OPTIONS}
    assert "leave out the\n<code>data-</code>" in html
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    embedding = readme.split("## Embedding the search on course pages", 1)[1].split("\n## ", 1)[0]
    assert "`<lesson-search>`\nelement each may also be written without `data-`" in embedding
    assert all(f'{name}="' in embedding for name in plain)


def test_the_custom_properties_are_documented_used_and_listed_alike():
    code = WIDGET_JS.read_text(encoding="utf-8")
    header = code.split("*/", 1)[0]
    page = (WIDGET_JS.parent.parent / "templates" / "embed.html").read_text(encoding="utf-8")
    named = re.compile(r"--ls-[a-z-]+")
    used = set(re.findall(r"var\((--ls-[a-z-]+)", code))
    assert used == set(named.findall(header)) == set(named.findall(page))


def test_the_script_inserts_html_only_by_parsing_a_snippet_in_a_template():
    code = WIDGET_JS.read_text(encoding="utf-8")
    assert code.count(".innerHTML =") == 1
    assert 'template.innerHTML = html;' in code
    for sink in ("insertAdjacentHTML", "outerHTML", "document.write", "eval(", "new Function",
                 "setAttribute(\"style\""):
        assert sink not in code


# --- In the browser -----------------------------------------------------------------------


def fits(page) -> None:
    scroll_width, inner_width = page.evaluate(
        "[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll_width <= inner_width, f"{page.url}: {scroll_width}px wide in {inner_width}px"


def open_widget(page, box: str, text: str) -> None:
    field = page.locator(f"{box} input")
    field.click()
    field.press_sequentially(text, delay=25)
    wait_for_answer(page, box, text)


@pytest.mark.parametrize("width", WIDTHS)
def test_pages_fit_the_width_and_are_photographed(browser, service, host, width):
    tab = open_tab(browser, width=width)
    page = tab.page
    try:
        for name, path in PAGES.items():
            page.goto(service + path)
            fits(page)
            screenshot(page, f"{name}-{width}", full_page=name in ("search", "embed"))
        # The widget open, on our own /embed page (strict CSP) and on a host site.
        page.goto(f"{service}/embed")
        open_widget(page, "[data-lessonsearch]", "attention")
        fits(page)
        screenshot(page, f"widget-embed-{width}", scroll_to="#try-it")
        page.keyboard.press("Escape")
        page.locator(".lessonsearch-term").first.hover()
        expect(page.locator("lessonsearch-tooltip")).to_be_visible()
        screenshot(page, f"tooltip-embed-{width}", scroll_to="#try-it")
        page.goto(f"{host}/index.html")
        open_widget(page, "[data-lessonsearch]", "temperature")
        fits(page)
        screenshot(page, f"widget-host-{width}")
    finally:
        page.context.close()
    assert tab.unexpected_errors() == []
    assert tab.refused == []


def test_the_widget_in_dark_mode_is_photographed(browser, service):
    tab = open_tab(browser, width=1280, color_scheme="dark")
    page = tab.page
    try:
        page.goto(f"{service}/embed")
        open_widget(page, "[data-lessonsearch]", "kv cache")
        screenshot(page, "widget-embed-dark-1280", scroll_to="#try-it")
    finally:
        page.context.close()
    assert tab.unexpected_errors() == []


# --- Hostile markup in a course -----------------------------------------------------------


@pytest.fixture(scope="module")
def xss_service(tmp_path_factory):
    out = tmp_path_factory.mktemp("xss") / "index"
    build_index(XSS_COURSE / "lessons", XSS_COURSE / "glossary", out)
    with serve_app(out) as url:
        yield url


@pytest.fixture(scope="module")
def xss_host(xss_service):
    with serve_host_pages(xss_service) as url:
        yield url


HOSTILE_ELEMENTS = "img, script:not([src]), iframe, svg:not(.icon), i, em, b"
"""Elements the fixture's markup would create if any of it were parsed as HTML."""


def assert_nothing_ran(page, dialogs: list[str]) -> None:
    assert page.evaluate("window.__xss") is None
    assert dialogs == []


@contextmanager
def hostile_host_page(browser, xss_host):
    """The host page that embeds the box over the hostile course, and the dialogs any of its
    markup opened, were it run: none, and no unexpected error either, once the test is done."""
    tab = open_tab(browser)
    page = tab.page
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        page.goto(f"{xss_host}/xss.html")
        yield page
        assert_nothing_ran(page, dialogs)
    finally:
        page.context.close()
    assert tab.unexpected_errors() == []


def test_hostile_lessons_show_as_text_in_the_widget_and_tooltip(browser, xss_host):
    with hostile_host_page(browser, xss_host) as page:
        open_widget(page, "[data-lessonsearch]", "zebrafish")
        box = page.locator("[data-lessonsearch] [role=listbox]")
        expect(box).to_contain_text("Escaping <script>alert('title')</script> lessons")
        expect(box).to_contain_text("<script>window.__xss=6</script>")
        expect(box).to_contain_text('<img src=x onerror="window.__xss=8">')
        expect(box.locator("mark").first).to_have_text(re.compile("zebrafish", re.I))
        page.locator("[data-lessonsearch] input").fill("hos")
        expect(box).to_contain_text("<i>hostile</i> term")
        assert page.locator("[data-lessonsearch]").evaluate(
            f"el => el.shadowRoot.querySelectorAll('{HOSTILE_ELEMENTS}').length") == 0

        page.keyboard.press("Escape")
        term = page.locator(".lessonsearch-term", has_text="zebrafish sanitizer")
        term.hover()
        tooltip = page.locator("lessonsearch-tooltip")
        expect(tooltip).to_contain_text('<script>window.__xss=9</script>')
        assert tooltip.evaluate(
            f"el => el.shadowRoot.querySelectorAll('{HOSTILE_ELEMENTS}').length") == 0


def test_hostile_words_in_a_notice_show_as_text_in_the_widget(browser, xss_host):
    """The box says which correction its results are for, and the correction keeps the
    reader's other words, markup and all: they show as text, as the results page shows them."""
    with hostile_host_page(browser, xss_host) as page:
        open_widget(page, "[data-lessonsearch]", '<img src=x onerror="window.__xss=11"> zebrafsh')
        notes = page.locator("[data-lessonsearch] .notes")
        expect(notes).to_have_text(
            'Showing results for “<img src=x onerror="window.__xss=11"> zebrafish”.')
        expect(page.locator("[data-lessonsearch] [role=status]")).to_contain_text(
            '“<img src=x onerror="window.__xss=11"> zebrafish”')
        assert page.locator("[data-lessonsearch]").evaluate(
            f"el => el.shadowRoot.querySelectorAll('{HOSTILE_ELEMENTS}').length") == 0


HOSTILE_PAGES = {
    "/": "Escaping <script>alert('title')</script> lessons",
    "/search?q=zebrafish": "<script>window.__xss=6</script>",
    "/search?q=escaping": "Escaping <script>alert('title')</script> lessons",
    "/glossary": '<img src=x onerror="window.__xss=8">',
    "/glossary/i-hostile-i-term": "<i>hostile</i> term",
    "/glossary/zebrafish-sanitizer": "<script>window.__xss=9</script>",
    "/embed": "<i>hostile</i> term",
}


def test_hostile_lessons_show_as_text_on_every_page(browser, xss_service):
    tab = open_tab(browser)
    page = tab.page
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        for path, text in HOSTILE_PAGES.items():
            page.goto(xss_service + path)
            expect(page.locator("main")).to_contain_text(text)
            assert page.locator(f"main :is({HOSTILE_ELEMENTS})").count() == 0, path
            assert_nothing_ran(page, dialogs)
    finally:
        page.context.close()
    assert tab.unexpected_errors() == []
