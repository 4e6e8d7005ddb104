"""The coverage page in headless Chromium: coverage.js sorts and filters in place, under the
site's CSP, with no console errors."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import open_tab, serve_app
from test_coverage import COURSE, build_coverage_index
from test_coverage_faces import GLOSSARY_ORDER

from lessonsearch.build import build_index
from lessonsearch.coverage import coverage_report
from lessonsearch.coverage_render import render_html
from lessonsearch.index_store import current_version


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_coverage_index(tmp_path_factory.mktemp("coverage-browser"))


@pytest.fixture(scope="module")
def service(index_dir: Path) -> Iterator[str]:
    with serve_app(index_dir) as url:
        yield url


def visible_terms(page) -> list[str]:
    return page.locator("table.coverage-terms tbody tr:not([hidden])").evaluate_all(
        "rows => rows.map(r => r.dataset.term)")


def test_headers_sort_the_table_in_place(tab, service):
    page = tab.page
    page.goto(f"{service}/coverage")
    assert visible_terms(page)[:3] == ["autolyse", "banneton", "couche"]
    page.evaluate("window.sameDocument = true")
    page.click("a[data-sort=mentions]")
    assert page.evaluate("window.sameDocument")  # sorted without a reload
    assert visible_terms(page)[0] == "hydration"
    # Most mentions first: what a reader sees is a descending column.
    assert page.get_attribute("th:has(a[data-sort=mentions])", "aria-sort") == "descending"
    assert page.get_attribute("th:has(a[data-sort=term])", "aria-sort") is None
    page.click("a[data-sort=mentions]")
    assert visible_terms(page)[-1] == "hydration"
    assert page.get_attribute("th:has(a[data-sort=mentions])", "aria-sort") == "ascending"


BY_MENTIONS = ["hydration", "levain", "autolyse", "crumb", "oven spring", "banneton", "couche"]
"""The coverage course's terms, most mentions first: 3, 2, then three with 1 and two with 0,
tied terms A–Z."""


def test_tied_terms_read_a_to_z_whichever_way_a_count_column_reads(tab, service):
    """Reversing the whole comparison put tied terms Z–A when Mentions read ascending
    (``couche, banneton, oven spring, crumb, autolyse, …``)."""
    page = tab.page
    page.goto(f"{service}/coverage")
    page.click("a[data-sort=mentions]")
    assert visible_terms(page) == BY_MENTIONS
    page.click("a[data-sort=mentions]")
    assert page.get_attribute("th:has(a[data-sort=mentions])", "aria-sort") == "ascending"
    assert visible_terms(page) == ["banneton", "couche", "autolyse", "crumb", "oven spring",
                                   "levain", "hydration"]


BY_FEWEST_MENTIONS = BY_MENTIONS[5:] + BY_MENTIONS[2:5] + BY_MENTIONS[1::-1]


def heading(page) -> str:
    return " ".join(page.locator("#terms-heading").inner_text().split())


def test_the_address_bar_keeps_the_filter_and_sort_for_a_reload(tab, service):
    """Filters and sorting worked in place but left the address as it was, so a reloaded or
    shared page showed every term A–Z again. The page's other arguments stay."""
    page = tab.page
    page.goto(f"{service}/coverage?lessons=5")
    page.click("a[data-sort=mentions]")
    page.click("a[data-sort=mentions]")
    assert page.url == f"{service}/coverage?lessons=5&sort=mentions&order=ascending"
    page.click("a[data-filter=unused]")
    assert page.url == f"{service}/coverage?lessons=5&kind=unused&sort=mentions&order=ascending"
    assert heading(page) == "Terms: unused glossary entries 1"
    page.reload()
    assert visible_terms(page) == ["banneton"]
    assert heading(page) == "Terms: unused glossary entries 1"
    assert page.get_attribute("a[data-filter=unused]", "aria-current") == "true"
    assert page.get_attribute("th:has(a[data-sort=mentions])", "aria-sort") == "ascending"
    page.click("a[data-filter='']")  # the rows the server's filter hid come back
    assert visible_terms(page) == BY_FEWEST_MENTIONS
    assert heading(page) == "Terms 7"
    assert page.url == f"{service}/coverage?lessons=5&sort=mentions&order=ascending"
    page.click("a[data-sort=mentions]")  # after the reload too, a click turns it back
    assert visible_terms(page) == BY_MENTIONS
    assert page.url == f"{service}/coverage?lessons=5&sort=mentions"
    # A link opened in a new tab asks for what its click shows here.
    assert page.get_attribute("a[data-filter=unused]", "href") == \
        "?lessons=5&kind=unused&sort=mentions#terms"
    assert page.get_attribute("a[data-sort=mentions]", "href") == \
        "?lessons=5&sort=mentions&order=ascending#terms"


def test_the_standalone_page_reads_the_filter_and_sort_from_its_address(
        browser, index_dir, tmp_path):
    """The file ``lessonsearch coverage --format html`` writes has no server to apply a
    query: its script does, on load."""
    page_file = tmp_path / "coverage.html"
    report = coverage_report(current_version(index_dir), index_dir)
    page_file.write_text(render_html(report), encoding="utf-8")
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{page_file.as_uri()}?kind=unused&sort=mentions&order=ascending")
        assert visible_terms(page) == ["banneton"]
        assert page.get_attribute("th:has(a[data-sort=mentions])", "aria-sort") == "ascending"
        page.click("a[data-filter='']")
        assert visible_terms(page) == BY_FEWEST_MENTIONS
        assert page.url == f"{page_file.as_uri()}?sort=mentions&order=ascending"
    finally:
        context.close()


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


def table_tab_stops(page) -> list[tuple[str, str, bool]]:
    """Each stop Tab makes in the terms table, in order: the role and accessible name
    Chromium gives it (what a screen reader is told), and whether it is a strip's bar."""
    cdp = page.context.new_cdp_session(page)
    page.locator("nav.kinds li:last-child a").focus()  # the last stop before the table
    stops = []
    for _ in range(200):
        page.keyboard.press("Tab")
        in_strip = page.evaluate("""() => {
          const e = document.activeElement;
          return e.closest("table.coverage-terms") ? Boolean(e.closest("svg")) : null;
        }""")
        if in_strip is None:
            return stops
        focused = cdp.send("Runtime.evaluate", {"expression": "document.activeElement"})
        node = cdp.send("Accessibility.getPartialAXTree", {
            "objectId": focused["result"]["objectId"], "fetchRelatives": False})["nodes"][0]
        stops.append((node["role"]["value"], node.get("name", {}).get("value", ""), in_strip))
    raise AssertionError("Tab never left the table")


def test_a_strips_bars_are_no_tab_stops_and_every_stop_has_a_name(tab, service):
    """Every bar of every strip was a Tab stop, inside an image that hides its links from a
    screen reader (140 more stops for 39 terms on the sample course). The stops are the
    sort links, then per row its links and the disclosure that lists the strip's lessons."""
    page = tab.page
    page.goto(f"{service}/coverage")
    stops = table_tab_stops(page)
    assert [stop for stop in stops if stop[2]] == []
    assert all(name.strip() for _, name, _ in stops), stops
    # 6 columns; 7 terms; 4 defined in a lesson; 5 mentioned, each with a first mention
    # and a strip to list.
    assert len(stops) == 6 + 7 + 4 + 5 + 5
    start = stops.index(("link", "hydration", False))
    assert stops[start:start + 4] == [
        ("link", "hydration", False), ("link", "Flour and water", False),
        ("link", "Flour and water", False),
        ("DisclosureTriangle", "Lessons for hydration", False)]


def test_the_keyboard_reaches_every_lesson_a_strip_links_and_the_mouse_still_does(
        tab, service):
    """With its bars out of the Tab order, the row lists their lessons: the same links, in
    the bars' words. A click on a bar still opens its lesson."""
    page = tab.page
    page.goto(f"{service}/coverage")
    row = page.locator("tr[data-term=hydration]")
    bars = row.locator("svg a").evaluate_all(
        "links => links.map(a => [a.getAttribute('href'), a.textContent.trim()])")
    assert len(bars) == 3
    assert row.locator("summary").count() == 1
    row.locator("summary").focus()
    page.keyboard.press("Enter")
    listed = []
    for _ in bars:
        page.keyboard.press("Tab")
        listed.append(page.evaluate(
            "() => [document.activeElement.getAttribute('href'), "
            "document.activeElement.textContent]"))
    assert listed == bars
    page.route("https://bake.example.test/**", lambda route: route.fulfill(
        status=200, content_type="text/html", body="<!doctype html><title>Lesson</title>"))
    row.locator("svg a").nth(1).click()
    page.wait_for_url(bars[1][0])


NUMBER_TERMS = {"2048": "2048", "1.1": "1.10", "10": "10", "9": "9", "1e3": "1e3"}
"""Glossary terms that read as numbers, as each is written (``term: 1.10`` is 1.1)."""
WIDE_TERMS = ("ｆ-stop", "𝛼-rise")
"""A fullwidth letter (U+FF46) and one past U+FFFF (U+1D6FC): in code point order, as the
server sorts, the second comes after the first; in UTF-16 units, before it."""


@pytest.fixture(scope="module")
def number_terms_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("coverage-number-terms")
    course = Path(shutil.copytree(COURSE, folder / "course"))
    for n, written in enumerate([*NUMBER_TERMS.values(), *WIDE_TERMS]):
        (course / "glossary" / f"term-{n}.md").write_text(
            f"---\nterm: {written}\n---\n\nA term that sorts as text.\n", encoding="utf-8")
    build_index(course / "lessons", course / "glossary", folder / "index")
    with serve_app(folder / "index") as url:
        yield url


def test_the_term_column_sorts_terms_that_read_as_numbers_as_the_server_does(
        tab, number_terms_service):
    """coverage.js made ``2048`` or ``1e3`` a number and compared it with words, which gives
    no order at all (``… scaling law, 10, calibration, …, 1.1, 9, 2048, …``); a term is text
    wherever it sorts."""
    page = tab.page
    page.goto(f"{number_terms_service}/coverage?sort=term")
    server = visible_terms(page)
    assert {*NUMBER_TERMS, *WIDE_TERMS} <= set(server)
    assert server == sorted(server)  # the server's order: Python's, of text
    page.goto(f"{number_terms_service}/coverage?sort=mentions")
    assert visible_terms(page) != server
    page.click("a[data-sort=term]")
    assert visible_terms(page) == server
    assert page.get_attribute("th:has(a[data-sort=term])", "aria-sort") == "ascending"
    page.click("a[data-sort=term]")
    assert visible_terms(page) == server[::-1]
    page.click("a[data-sort=mentions]")  # counts stay numbers: most first, ties by term
    mentions = page.locator("table.coverage-terms tbody tr").evaluate_all(
        "rows => rows.map(r => Number(r.dataset.mentions))")
    assert mentions == sorted(mentions)
    page.goto(f"{number_terms_service}/coverage?sort=mentions")
    server_by_mentions = visible_terms(page)
    page.click("a[data-sort=glossary]")
    page.click("a[data-sort=mentions]")
    assert visible_terms(page) == server_by_mentions


LONG_PATH = "glossary/natural-language-processing/tokenisation-vocabulary-and-subwords.md"
LONG_NAME = ("glossary/the_bakers_glossary_of_shaping_scoring_proofing_and_baking_terms_"
             "as_kept_by_the_night_shift_of_our_bakery.md")
"""A name with no ``/`` or ``-`` to break after."""
LINES_OF = """cell => {
  // The cell's text with a newline wherever the browser started a new line.
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  let text = "", top = null;
  for (let node; (node = walker.nextNode());) {
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const box = range.getClientRects()[0];
      if (!box) continue;
      if (top !== null && box.top > top + 2) text += "\\n";
      text += node.data[i];
      top = box.top;
    }
  }
  return text;
}"""


@pytest.fixture(scope="module")
def long_path_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("coverage-long-path")
    course = Path(shutil.copytree(COURSE, folder / "course"))
    entry = course / LONG_PATH
    entry.parent.mkdir(parents=True)
    entry.write_text("proofing\n: The final rise of a shaped loaf before baking.\n",
                     encoding="utf-8")
    (course / LONG_NAME).write_text("scoring\n: Cutting the top of a loaf before baking.\n",
                                    encoding="utf-8")
    build_index(course / "lessons", course / "glossary", folder / "index")
    with serve_app(folder / "index") as url:
        yield url


@pytest.mark.parametrize("width", [375, 900])
def test_a_long_glossary_path_wraps_only_after_a_slash_or_hyphen(browser, long_path_service,
                                                                  width):
    """``overflow-wrap: anywhere`` split a path mid-word ("tokenisa|tion") wherever the
    column ran out; a path breaks after its ``/`` and ``-`` only."""
    tab = open_tab(browser, width=width)
    try:
        tab.page.goto(f"{long_path_service}/coverage?sort=glossary")
        cell = tab.page.locator("tr[data-term=proofing] td.path")
        lines = cell.evaluate(LINES_OF).split("\n")
    finally:
        tab.page.context.close()
    assert "".join(lines) == LONG_PATH + ":1"
    assert len(lines) > 1  # the column is narrower than the path
    assert all(line.endswith(("/", "-")) for line in lines[:-1]), lines
    assert tab.unexpected_errors() == []


@pytest.mark.parametrize("width", [1024, 1280])
def test_a_long_glossary_file_name_without_a_hyphen_wraps_inside_the_table(
        browser, long_path_service, width):
    """With no break after a ``/`` or ``-`` in it, the name stayed on one line and pushed
    the table wider than its box (at widths where it fits without the name): the strip and
    problem columns scrolled out of view. The hyphenated path beside it still breaks after
    its hyphens only."""
    tab = open_tab(browser, width=width)
    try:
        tab.page.goto(f"{long_path_service}/coverage?sort=glossary")
        cell = tab.page.locator("tr[data-term=scoring] td.path")
        lines = cell.evaluate(LINES_OF).split("\n")
        box = tab.page.locator(".coverage .table-scroll").evaluate(
            "box => [box.scrollWidth, box.clientWidth]")
        hyphenated = tab.page.locator("tr[data-term=proofing] td.path").evaluate(LINES_OF)
    finally:
        tab.page.context.close()
    assert "".join(lines) == LONG_NAME + ":1"
    assert len(lines) > 2, lines  # the file name itself wraps, not only after "glossary/"
    assert box[0] <= box[1], box  # nothing to scroll: the table fits its box
    assert all(line.endswith(("/", "-")) for line in hyphenated.split("\n")[:-1]), hyphenated
    assert tab.unexpected_errors() == []
