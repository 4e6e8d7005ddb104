"""The pages in headless Chromium: no sideways scrolling on a phone, nothing the CSP blocks.

Skipped where Playwright or Chromium is missing, unless CI is set (see browser_support).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import serve_app

PHONE = {"width": 375, "height": 800}
PAGES = ["/", "/search?q=token", "/search?q=token&lesson=tokens", "/glossary",
         "/glossary/kv-cache", "/search?q=", "/glossary/tokne"]


@pytest.fixture(scope="module")
def base_url(tiny_index: Path) -> Iterator[str]:
    with serve_app(tiny_index) as url:
        yield url


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_pages_fit_a_phone_and_break_no_policy(browser, base_url, scheme):
    page = browser.new_page(viewport=PHONE, color_scheme=scheme)
    blocked: list[str] = []
    page.on("console", lambda message: blocked.append(message.text)
            if "Content Security Policy" in message.text else None)
    for url in PAGES:
        page.goto(base_url + url)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{url} scrolls sideways: {width}px"
    assert blocked == []
    page.close()


def test_the_search_box_completes_from_the_api(browser, base_url):
    page = browser.new_page()
    page.goto(base_url + "/")
    page.fill("#q", "tok")
    page.wait_for_selector("#q-suggestions [role=option]")
    options = page.evaluate(
        "[...document.querySelectorAll('#q-suggestions [role=option]')].map(o => o.dataset.text)")
    assert options[0] == "token"
    page.close()


def test_the_skip_link_is_the_first_stop_and_shows_focus(browser, base_url):
    page = browser.new_page()
    page.goto(base_url + "/glossary")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.className")
    assert focused == "skip"
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    top = page.evaluate("document.activeElement.getBoundingClientRect().top")
    assert outline != "none"
    assert top >= 0  # hidden above the page until focused
    page.close()
