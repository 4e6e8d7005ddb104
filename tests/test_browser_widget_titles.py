"""The search box says when a hit was found through its lesson's title alone, as the results
page does: "Found in the lesson’s title: …" with the query's words marked, above a snippet
that marks nothing (``matched_in_title`` in ``/api/search``). Driven in headless Chromium on a
host page of another origin, over a course of this test's own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import expect, open_tab, serve_app, serve_host_pages, wait_for_answer
from course_fixtures import built_course

BOX = "[data-lessonsearch]"
RESULT = f"{BOX} [role=option][data-kind=result]"
FOUND_IN = "Found in the lesson’s title: "

LESSONS = {
    "01-whetstone.md": """---
title: Sharpening with a whetstone
slug: whetstone
---

# Sharpening with a whetstone

## Soaking

Leave the block under water until the bubbles stop rising, about ten minutes, and keep a
bowl beside you to wet it again.

## Holding the angle

Rest the blade at roughly fifteen degrees and push it away from you in long, even strokes.
Two coins stacked under the spine show the angle until the hand remembers it.

## Flattening the whetstone

After many sessions the whetstone dishes in the middle; rub it on a sheet of coarse
sandpaper laid on glass until a pencil grid drawn on it is gone.
""",
    # A title holding markup: the service escapes it, and the box must show it as text.
    "02-strop.md": """---
title: "Stropping <img src=x onerror=\\"window.__xss=41\\"> on leather"
slug: strop
---

## Loading the compound

Rub the green bar into the hide in short passes until the surface looks evenly tinted.
""",
}
HOSTILE_ELEMENTS = "img, script:not([src]), iframe, svg:not(.icon)"
"""Elements the strop lesson's title would create if it were parsed as HTML."""


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A course site embedding the box, served apart from the service over the course above."""
    index: Path = built_course(tmp_path_factory.mktemp("widget-titles"), LESSONS)
    with serve_app(index) as service, serve_host_pages(service) as url:
        yield url


def search(page, host: str, text: str, host_page: str = "index.html") -> None:
    page.goto(f"{host}/{host_page}")
    field = page.locator(f"{BOX} input")
    field.click()
    field.press_sequentially(text, delay=25)
    wait_for_answer(page, BOX, text)


def test_a_hit_found_through_its_lessons_title_says_so_above_its_snippet(tab, host):
    """"Soaking" never writes "whetstone": its lesson's title does. The box says so in the
    results page's words, the word marked, above the snippet and as part of the option a
    screen reader reads; "Flattening the whetstone", which writes it, needs no such line."""
    page = tab.page
    search(page, host, "whetstone")
    soaking = page.locator(RESULT, has_text="Soaking")
    found_in = soaking.locator(".found-in")
    expect(found_in).to_have_text(FOUND_IN + "Sharpening with a whetstone")
    expect(found_in.locator("mark")).to_have_text("whetstone")
    expect(soaking.locator(".line mark")).to_have_count(0)
    assert found_in.bounding_box()["y"] < soaking.locator(".line").bounding_box()["y"]
    expect(soaking).to_have_accessible_name(
        re.compile(re.escape(FOUND_IN + "Sharpening with a whetstone")))
    expect(page.locator(RESULT, has_text="Holding the angle").locator(".found-in")).to_have_text(
        FOUND_IN + "Sharpening with a whetstone")

    flattening = page.locator(RESULT, has_text="Flattening the whetstone")
    expect(flattening.locator(".line mark").first).to_have_text("whetstone")
    expect(flattening.locator(".found-in")).to_have_count(0)
    # Marked as the snippets are: the box's own mark style, not the host page's.
    colour = "el => getComputedStyle(el).backgroundColor"
    assert found_in.locator("mark").evaluate(colour) == \
        flattening.locator(".line mark").first.evaluate(colour)


TRUSTED_TYPES_REFUSAL = "requires 'TrustedHTML' assignment"
"""What Chromium logs when the box's template.innerHTML is refused and it parses by hand."""


@pytest.mark.parametrize("host_page", ["index.html", "trusted-types.html"])
def test_a_title_holding_markup_shows_it_as_text(browser, host, host_page):
    """The title is HTML, escaped by the service but for <mark>: the box keeps its text and
    marks only, so a title quoting a tag shows the tag and runs nothing; on a page enforcing
    Trusted Types too, where the box splits it on <mark> by hand."""
    tab = open_tab(browser)
    tab.allowed_errors = (TRUSTED_TYPES_REFUSAL,) if host_page == "trusted-types.html" else ()
    page = tab.page
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        search(page, host, "leather", host_page)
        found_in = page.locator(RESULT, has_text="Loading the compound").locator(".found-in")
        expect(found_in).to_have_text(
            FOUND_IN + 'Stropping <img src=x onerror="window.__xss=41"> on leather')
        expect(found_in.locator("mark")).to_have_text("leather")
        assert page.locator(BOX).evaluate(
            f"el => el.shadowRoot.querySelectorAll('{HOSTILE_ELEMENTS}').length") == 0
        assert page.evaluate("window.__xss") is None
        assert dialogs == []
        if tab.allowed_errors:  # the page did refuse the template, so the split was tested
            assert any(TRUSTED_TYPES_REFUSAL in error for error in tab.errors)
    finally:
        page.context.close()
    assert tab.unexpected_errors() == []
    assert tab.refused == []
