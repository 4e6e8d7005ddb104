"""In headless Chromium, over a course of this test's own: the search page's suggestions show
a term found by an alias, naming the alias, and a code snippet's lines stay apart on the
results page and in the embedded box.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import expect, serve_app, serve_host_pages, wait_for_answer
from course_fixtures import built_course

LESSONS = {
    "01-kiln.md": """---
title: Firing a kiln
slug: kiln
---

# Firing a kiln

## Watching the cones

Witness cones slump when the ware inside has taken enough heat, which a thermocouple alone
does not tell you, so set three of them where you can see them through the spy hole.

## Logging a firing

Keep a record of every firing so the next one can be planned from it:

```sh
kilnlog start --program bisque
kilnlog mark --note cone-slumped
kilnlog stop
```
""",
}
GLOSSARY = """pyrometric cone {#cone}
: A small slender pyramid of clay and flux that bends at a known heat-work.
  Also: witness cone

bisque
: Clay fired once, before any glaze goes on.
"""

SEARCH_BOX = "#q"
OPTION = "#q-suggestions [role=option]"
WIDGET = "[data-lessonsearch]"


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    index: Path = built_course(tmp_path_factory.mktemp("suggest-code"), LESSONS, GLOSSARY)
    with serve_app(index) as url:
        yield url


def test_a_term_found_by_an_alias_is_suggested_with_the_alias(tab, service):
    """`witn` completes "pyrometric cone" by its alias "witness cone". As a <datalist> option
    Chromium did not show it, its text not holding what was typed, and its label said only
    "term"; listed by the page, it is shown, names the alias, and is read so."""
    page = tab.page
    page.goto(service + "/")
    page.locator(SEARCH_BOX).press_sequentially("witn", delay=25)
    option = page.locator(OPTION, has_text="pyrometric cone")
    expect(option).to_be_visible()
    expect(option).to_contain_text("also called witness cone")
    expect(option).to_have_accessible_name(
        "pyrometric cone, also called witness cone glossary term")
    box = page.locator(SEARCH_BOX)
    expect(box).to_have_attribute("aria-expanded", "true")
    expect(box).to_have_attribute("role", "combobox")

    box.press("ArrowDown")
    expect(option).to_have_attribute("aria-selected", "true")
    expect(box).to_have_attribute("aria-activedescendant", option.get_attribute("id"))
    box.press("Enter")  # chooses it: its text is searched
    page.wait_for_url(re.compile(r"/search\?q=pyrometric\+cone(&|$)"))
    expect(page.locator(SEARCH_BOX)).to_have_value("pyrometric cone")


def test_escape_closes_the_suggestions(tab, service):
    page = tab.page
    page.goto(service + "/")
    page.locator(SEARCH_BOX).press_sequentially("bis", delay=25)
    expect(page.locator(OPTION, has_text="bisque").first).to_be_visible()
    page.locator(SEARCH_BOX).press("Escape")
    expect(page.locator("#q-suggestions")).to_be_hidden()
    expect(page.locator(SEARCH_BOX)).to_have_attribute("aria-expanded", "false")


def test_a_code_snippet_shows_its_lines_apart_on_the_results_page(tab, service):
    """Its commands ran together into one line: "kilnlog start --program bisque kilnlog
    mark …". The snippet keeps a line break between them, and the page shows it."""
    page = tab.page
    page.goto(service + "/search?q=kilnlog+mark")
    snippet = page.locator(".snippet", has_text="kilnlog")
    lines = snippet.evaluate("el => el.innerText").split("\n")
    assert [line.strip() for line in lines] == [
        "kilnlog start --program bisque", "kilnlog mark --note cone-slumped", "kilnlog stop"]


def test_a_code_snippet_shows_its_line_breaks_in_the_embedded_box(tab, service):
    """The box shows a snippet on two lines at most, so the lines are kept on one, a ↵
    between them, hidden from a screen reader, which hears them apart by the spaces."""
    page = tab.page
    with serve_host_pages(service) as host:
        page.goto(f"{host}/index.html")
        field = page.locator(f"{WIDGET} input")
        field.click()
        field.press_sequentially("kilnlog mark", delay=25)
        wait_for_answer(page, WIDGET, "kilnlog mark")
        line = page.locator(f"{WIDGET} [role=option][data-kind=result] .line").first
        expect(line).to_have_text(
            "kilnlog start --program bisque ↵ kilnlog mark --note cone-slumped ↵ kilnlog stop")
        expect(line.locator(".br")).to_have_count(2)
        expect(line.locator(".br").first).to_have_attribute("aria-hidden", "true")
