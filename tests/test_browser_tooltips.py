"""Glossary terms underlined in a host page's text, with definitions on hover and focus."""

from __future__ import annotations

import pytest
from browser_support import (
    expect,
    long_article,
)

TERM = ".lessonsearch-term"
TOOLTIP = "lessonsearch-tooltip"
RECORD_MARKING = """
document.addEventListener("lessonsearch:terms", (e) => {
  window.__marked = Object.assign({end: performance.now()}, e.detail);
});
"""
"""Runs before the page's own scripts: records the widget's summary event."""


@pytest.fixture
def tab(tab):
    """The shared checked page (conftest.py), recording what the widget marks."""
    tab.page.add_init_script(RECORD_MARKING)
    return tab


def wait_for_marking(page) -> dict:
    page.wait_for_function("() => window.__marked")  # a function: the host's CSP forbids eval
    return page.evaluate("window.__marked")


def test_first_mentions_are_underlined_outside_code_and_links(tab, host):
    page = tab.page
    page.goto(f"{host}/index.html")
    marked = wait_for_marking(page)
    terms = page.locator(f"article {TERM}")
    texts = [t.lower() for t in terms.all_text_contents()]
    assert {"softmax", "token", "temperature"} <= set(texts)
    assert len(texts) == len(set(texts)) == marked["marked"]  # first mention only, by default
    assert page.locator(f"code {TERM}, pre {TERM}, a {TERM}, h1 {TERM}").count() == 0
    assert terms.evaluate_all("els => els.every(e => e.tabIndex === 0)")
    # The text itself is untouched: same words, same order.
    assert "The temperature decides how" in page.locator("article").text_content()


GLOSSARY = {"terms": [
    {"term": "attention", "aliases": ["self-attention"], "anchor": "attention",
     "definition": "Tokens looking at each other."},
    {"term": "attention mask", "anchor": "attention-mask", "definition": "Hides positions."},
    {"term": "KV cache", "aliases": ["key-value cache"], "anchor": "kv-cache",
     "definition": "Stored keys and values."},
    {"term": "top-p", "anchor": "top-p", "definition": "Nucleus sampling."},
    {"term": "pass@k", "anchor": "pass-at-k", "definition": "Solved within k tries."},
]}
"""A glossary with aliases and punctuation, served in place of /api/terms."""


def test_one_matcher_finds_aliases_longest_first_whole_words_any_case(tab, host):
    page = tab.page
    page.route("**/api/terms", lambda route: route.fulfill(
        json=GLOSSARY, headers={"Access-Control-Allow-Origin": "*"}))
    page.goto(f"{host}/matching.html")
    wait_for_marking(page)
    found = page.locator(TERM).evaluate_all(
        "els => els.map(e => [e.closest('p').id, e.textContent.replace(/\\s+/g, ' '),"
        " e.lessonsearchTerm.anchor])")
    assert found == [
        ["alias", "Self-attention", "attention"],
        ["alias", "attention", "attention"],
        ["longest", "ATTENTION MASK", "attention-mask"],
        ["wrapped", "key-value cache", "kv-cache"],
        ["wrapped", "KV cache", "kv-cache"],
        ["symbols", "Top-p", "top-p"],
        ["symbols", "pass@k", "pass-at-k"],
    ]


def test_hover_shows_the_definition_with_a_glossary_link(tab, host, service):
    page = tab.page
    page.goto(f"{host}/index.html")
    wait_for_marking(page)
    term = page.locator(f"article {TERM}", has_text="temperature").first
    tooltip = page.locator(TOOLTIP)
    term.hover()
    expect(tooltip).to_be_visible()
    expect(tooltip.locator(".name")).to_have_text("temperature")
    expect(tooltip.locator(".def")).to_contain_text("The number every logit is divided by")
    link = tooltip.locator("a")
    assert link.get_attribute("href") == f"{service}/glossary#temperature"
    expect(term).to_have_attribute("aria-describedby", "lessonsearch-tooltip")
    expect(tooltip).to_have_attribute("role", "tooltip")

    link.hover()  # the tooltip stays while the pointer travels into it
    page.wait_for_timeout(400)
    expect(tooltip).to_be_visible()
    page.locator("h1").hover()
    expect(tooltip).to_be_hidden()
    assert term.get_attribute("aria-describedby") is None


def test_focus_shows_the_tooltip_escape_hides_it_enter_opens_the_glossary(tab, host, service):
    page = tab.page
    page.goto(f"{host}/index.html")
    wait_for_marking(page)
    term = page.locator(f"article {TERM}", has_text="softmax").first
    tooltip = page.locator(TOOLTIP)
    term.focus()
    expect(tooltip).to_be_visible()
    expect(tooltip.locator(".def")).to_contain_text("logits into probabilities")
    page.keyboard.press("Escape")
    expect(tooltip).to_be_hidden()
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: url == f"{service}/glossary#softmax")
    expect(page.locator("dt#softmax")).to_be_visible()


def test_a_term_is_a_link_described_by_its_definition(tab, host, service):
    """The ARIA tooltip pattern: the term is what takes focus, and while its tooltip shows a
    screen reader reads the definition as its description. The tooltip's own link is no Tab
    stop of its own: the term is the link to the same entry."""
    page = tab.page
    page.goto(f"{host}/index.html")
    wait_for_marking(page)
    term = page.locator(f"article {TERM}", has_text="softmax").first
    expect(term).to_have_role("link")
    term.focus()
    definition = page.locator(TOOLTIP).locator(".def")
    expect(definition).to_contain_text("logits into probabilities")
    expect(term).to_have_accessible_description(definition.text_content())  # not "Read more…"
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.textContent") == "token"
    assert term.get_attribute("aria-describedby") is None

    term.evaluate("el => el.click()")  # how a screen reader follows a link: a click, no pointer
    page.wait_for_url(lambda url: url == f"{service}/glossary#softmax")


def test_with_all_only_first_mentions_are_tab_stops_the_rest_still_hover(tab, host):
    page = tab.page
    page.route("**/api/terms", lambda route: route.fulfill(
        json=GLOSSARY, headers={"Access-Control-Allow-Origin": "*"}))
    page.goto(f"{host}/matching.html")  # data-lessonsearch-terms="all"
    wait_for_marking(page)
    stops = []
    for _ in range(10):
        page.keyboard.press("Tab")
        focused = page.evaluate("() => document.activeElement.closest('.lessonsearch-term')"
                                " && document.activeElement.textContent.replace(/\\s+/g, ' ')")
        if not focused:
            break
        stops.append(focused)
    assert stops == ["Self-attention", "ATTENTION MASK", "key-value cache", "Top-p", "pass@k"]

    again = page.locator(TERM, has_text="KV cache")  # the second mention of the KV cache
    expect(again).not_to_have_role("link")
    again.hover()
    expect(page.locator(TOOLTIP).locator(".name")).to_have_text("KV cache")
    expect(again).to_have_accessible_description("Stored keys and values.")


def test_a_long_page_is_marked_in_slices_without_freezing(tab, host):
    words = len(long_article().split())
    assert words > 20_000
    page = tab.page
    page.goto(f"{host}/long.html")  # every mention is marked on this page: the most work
    marked = wait_for_marking(page)
    assert marked["marked"] > 2_000
    assert page.locator(TERM).count() == marked["marked"]
    assert page.locator(f"a {TERM}, code {TERM}").count() == 0
    anchors = page.locator(TERM).evaluate_all("els => els.map(e => e.lessonsearchTerm.anchor)")
    assert page.locator(f"{TERM}[tabindex]").count() == len(set(anchors))  # one stop a term

    # The work was split into slices, each within a time budget the script checks as it
    # goes; how long they took depends on the machine, which a test does not assert.
    assert marked["chunks"] >= 2, marked
    # A term far down the page works like the first one.
    tooltip = page.locator(TOOLTIP)
    page.locator(TERM).nth(1000).hover()
    expect(tooltip).to_be_visible()


FORMS_GLOSSARY = """collimation
: Lining up a telescope's mirrors or lenses on one axis.
  Also: collimate

focal ratio
: The focal length divided by the aperture.
  Also: f-ratio

seeing
: How steady the air is.
  Everyday: yes

eyepiece
: The lens you look through.

Barlow
: A lens that multiplies an eyepiece's magnification.
"""
FORMS_LESSON = """# Tuning a telescope

## Lining up

A newly collimated mirror gives round stars. Collimate it often; a collimator helps.

## Speed

Low f-ratios are fast. Some owners swap eyepieces to see faint objects, on nights of good
seeing. Two Barlows double or triple the power.
"""


@pytest.fixture(scope="module")
def forms_index(tmp_path_factory):
    from lessonsearch.build import build_index

    folder = tmp_path_factory.mktemp("forms")
    (folder / "lessons").mkdir()
    (folder / "glossary").mkdir()
    (folder / "lessons" / "01-tuning.md").write_text(FORMS_LESSON, encoding="utf-8")
    (folder / "glossary" / "glossary.md").write_text(FORMS_GLOSSARY, encoding="utf-8")
    build_index(folder / "lessons", folder / "glossary", folder / "index")
    return folder / "index"


@pytest.fixture(scope="module")
def forms_host(forms_index):
    from browser_support import serve_app, serve_host_pages

    with serve_app(forms_index) as service, serve_host_pages(service) as url:
        yield url


def test_tooltips_underline_the_forms_the_server_counts_and_no_other(tab, forms_host,
                                                                     forms_index):
    """"collimated" and "f-ratios" are mentions of collimation and focal ratio (the lesson's
    are counted), so they are underlined; "see" is no mention of seeing, nor "collimator" of
    collimation, and neither is underlined. A capitalised one-word name is a mention only
    capitalised, in any form: "Barlows" is one, "barlows" and "barlow" are not. Each
    paragraph's underlines are the server's mentions of it, word for word."""
    from lessonsearch.searcher import Searcher

    page = tab.page
    page.goto(f"{forms_host}/forms.html")
    wait_for_marking(page)
    found = page.locator(TERM).evaluate_all(
        "els => els.map(e => [e.closest('p').id, e.textContent, e.lessonsearchTerm.term])")
    assert found == [
        ["participle", "collimated", "collimation"],
        ["participle", "collimation", "collimation"],
        ["plural", "f-ratios", "focal ratio"],
        ["plural", "focal ratio", "focal ratio"],
        ["everyday", "seeing", "seeing"],
        ["kin", "eyepieces", "eyepiece"],
        ["kin", "eyepiece", "eyepiece"],
        ["case", "Barlows", "Barlow"],
    ]
    paragraphs = page.locator("article p").evaluate_all(
        "els => els.map(e => [e.id, e.textContent])")
    searcher = Searcher.open(forms_index)
    try:
        counted = [[name, text[start:end], term] for name, text in paragraphs
                   for term, start, end in searcher.glossary.matcher.spans(text)]
    finally:
        searcher.close()
    assert [[name, text.lower(), term] for name, text, term in found] == [
        [name, text.lower(), term] for name, text, term in counted]
