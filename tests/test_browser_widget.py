"""The embeddable search box, driven in headless Chromium on a host page of another origin."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta

import pytest
from browser_support import (
    expect,
    open_tab,
    wait_for_answer,
)

from lessonsearch.search_log import read_zero_results

BOX = "[data-lessonsearch]"
FIELD = f"{BOX} input"
OPTION = f"{BOX} [role=option]"
SEARCH_REQUEST = re.compile(r"/api/search\?")
TERMS_REQUEST = re.compile(r"/api/terms$")


def type_query(page, text: str, box: str = BOX, answered: bool = True) -> None:
    """Type into the box like a person; then, unless told not to, wait for the answer."""
    field = page.locator(f"{box} input")
    field.click()
    field.press_sequentially(text, delay=25)
    if answered:
        wait_for_answer(page, box, text)


def test_typing_a_term_shows_its_definition_then_results(tab, host, service):
    page = tab.page
    page.goto(f"{host}/index.html")
    searches = []
    page.on("request", lambda r: searches.append(r.url) if SEARCH_REQUEST.search(r.url) else None)
    type_query(page, "temperature")

    term = page.locator(f"{OPTION}[data-kind=term]").first
    expect(term).to_contain_text("The number every logit is divided by before softmax")
    results = page.locator(f"{OPTION}[data-kind=result]")
    expect(results).to_have_count(5)  # the default limit
    expect(results.first.locator("mark").first).to_have_text(re.compile("temperature", re.I))
    kinds = page.locator(OPTION).evaluate_all("els => els.map(e => e.dataset.kind)")
    assert kinds[0] == "term" and kinds[-1] == "all"
    assert kinds.index("result") > max(i for i, k in enumerate(kinds) if k == "term")

    assert term.get_attribute("href") == f"{service}/glossary/temperature"
    see_all = page.locator(f"{OPTION}[data-kind=all]")
    assert see_all.get_attribute("href") == f"{service}/search?q=temperature"
    expect(see_all).to_contain_text(re.compile(r"See all \d+ results"))
    expect(page.locator(f"{BOX} [role=status]")).to_have_text(
        re.compile(r"^1 term and 5 of \d+ results\."))
    # Cross-origin for real, and debounced: one search for eleven keystrokes, not eleven.
    assert host != service and all(url.startswith(service) for url in searches)
    assert 1 <= len(searches) <= 3


def test_the_word_being_typed_is_completed(tab, host):
    """The box says its query is still being typed: "softm" is softmax, not soft, one letter
    away, as a submitted search would take it."""
    page = tab.page
    page.goto(f"{host}/index.html")
    type_query(page, "softm")
    results = page.locator(f"{OPTION}[data-kind=result]")
    expect(results.first.locator("mark").first).to_have_text(re.compile("^softmax$", re.I))


# --- How the query was read: the results page's notices, in the box -------------------------

PANEL = f"{BOX} .panel"
NOTES = f"{BOX} .notes"
STATUS = f"{BOX} [role=status]"
DID_YOU_MEAN = f"{OPTION}[data-kind=did-you-mean]"


def test_a_word_searched_as_another_is_said_above_its_results_and_aloud_once(tab, host):
    """The course never writes "embedder": the service searched "embed", and the results page
    says so, but the box listed sections about embeddings as if they were the reader's. It says
    it above them in the page's words; the live region says it with the first results only, not
    again with each keystroke's results after it."""
    page = tab.page
    page.goto(f"{host}/index.html")
    said = "No results for “embedder”; showing results for “embed”."
    type_query(page, "embedder")
    notes, status = page.locator(NOTES), page.locator(STATUS)
    expect(page.locator(PANEL)).to_contain_text(said)
    expect(notes).to_have_text(said)
    first = page.locator(f"{OPTION}[data-kind=result]").first
    expect(first).to_be_visible()
    assert notes.bounding_box()["y"] < first.bounding_box()["y"]  # above the results
    counts = r"\d+ terms? and \d+ of \d+ results\."
    expect(status).to_have_text(re.compile("^" + re.escape(said) + " " + counts))

    page.locator(FIELD).press_sequentially(" model", delay=25)
    wait_for_answer(page, BOX, "embedder model")
    expect(notes).to_have_text(said)  # still true, still shown
    expect(status).to_have_text(re.compile("^" + counts))

    page.locator(FIELD).fill("")  # the notice goes with its results, and is new when it is back
    type_query(page, "embedder")
    expect(status).to_have_text(re.compile("^" + re.escape(said)))


def test_a_term_searched_for_a_query_that_finds_nothing_is_said(tab, host):
    page = tab.page
    page.goto(f"{host}/index.html")
    type_query(page, "topp")
    said = "No results for “topp”; showing results for “nucleus sampling”."
    expect(page.locator(PANEL)).to_contain_text(said)
    expect(page.locator(NOTES)).to_have_text(said)
    expect(page.locator(f"{OPTION}[data-kind=term]").first).to_contain_text("nucleus sampling")
    expect(page.locator(STATUS)).to_have_text(re.compile("^" + re.escape(said) + " "))


def test_a_pasted_paragraph_over_the_word_limit_says_what_was_searched(tab, host):
    """Pasted into the box, a query of more than 64 words and phrases was a 400 and showed
    nothing; its first 64 are searched, saying so above their results, as the page does."""
    page = tab.page
    page.goto(f"{host}/index.html")
    query = "token " * 64 + "zebra -token"
    page.locator(FIELD).fill(query)
    wait_for_answer(page, BOX, query)
    said = ("Searched the first 64 words and phrases of 66; the rest were left out, among "
            "them 1 to exclude.")
    expect(page.locator(NOTES)).to_have_text(said)
    expect(page.locator(f"{OPTION}[data-kind=result]").first).to_be_visible()


def test_results_for_a_correction_say_so_but_a_completed_word_does_not(tab, host):
    """Typed "tempreture" finds nothing: the results are temperature's, and say so, as the
    results page does, with no "Did you mean" for what is already searched. "softm" is the
    word being typed, completed to softmax: that is what the box does, and no correction."""
    page = tab.page
    page.goto(f"{host}/index.html")
    type_query(page, "tempreture")
    said = "Showing results for “temperature”."
    expect(page.locator(PANEL)).to_contain_text(said)
    expect(page.locator(NOTES)).to_have_text(said)
    expect(page.locator(f"{NOTES} .q")).to_have_text("temperature")
    expect(page.locator(DID_YOU_MEAN)).to_have_count(0)
    expect(page.locator(f"{OPTION}[data-kind=result]").first).to_be_visible()
    expect(page.locator(STATUS)).to_have_text(re.compile("^" + re.escape(said) + " "))

    page.locator(FIELD).fill("softm")
    wait_for_answer(page, BOX, "softm")
    expect(page.locator(NOTES)).to_be_hidden()
    expect(page.locator(PANEL)).not_to_contain_text("Showing results for")
    expect(page.locator(STATUS)).not_to_contain_text("softmax")


def test_did_you_mean_is_offered_over_results_and_searches_in_the_box(tab, host):
    """Typed "embeding" finds the sections "embedding" finds (one stem), so the results page
    asks "Did you mean “embedding”?" above them, and so does the box, as its first option;
    choosing it searches that spelling in the box, on the reader's page."""
    page = tab.page
    page.goto(f"{host}/index.html")
    type_query(page, "embeding")
    ask = page.locator(DID_YOU_MEAN)
    expect(ask).to_have_text("Did you mean “embedding”?")
    expect(page.locator(OPTION).first).to_have_attribute("data-kind", "did-you-mean")
    expect(page.locator(f"{OPTION}[data-kind=result]").first).to_be_visible()
    expect(page.locator(NOTES)).to_be_hidden()
    expect(page.locator(STATUS)).to_have_text(re.compile("^Did you mean “embedding”\\? \\d+ term"))

    field = page.locator(FIELD)
    field.press("ArrowDown")
    expect(ask).to_have_attribute("aria-selected", "true")
    field.press("Enter")
    expect(field).to_have_value("embedding")
    wait_for_answer(page, BOX, "embedding")
    expect(page.locator(DID_YOU_MEAN)).to_have_count(0)
    expect(page.locator(f"{OPTION}[data-kind=result]").first).to_be_visible()
    assert page.url == f"{host}/index.html"


def test_did_you_mean_ends_a_question_once(tab, host):
    page = tab.page
    page.goto(f"{host}/index.html")
    type_query(page, "what is embeding?")
    expect(page.locator(DID_YOU_MEAN)).to_have_text("Did you mean “what is embedding?”")


def test_a_term_completed_through_its_alias_says_which(tab, host):
    page = tab.page
    page.goto(f"{host}/index.html")
    type_query(page, "key-val", answered=False)  # no section writes "key val"
    term = page.locator(f"{OPTION}[data-kind=term]", has_text="KV cache")
    expect(term).to_contain_text("KV cache (key-value cache)")


def test_the_combobox_follows_the_aria_pattern(tab, host):
    page = tab.page
    page.goto(f"{host}/index.html")
    field = page.locator(FIELD)
    expect(field).to_have_attribute("role", "combobox")
    expect(field).to_have_attribute("aria-expanded", "false")
    expect(field).to_have_attribute("aria-label", "Search the course")
    expect(field).to_have_attribute("placeholder", "Search the course")
    listbox_id = field.get_attribute("aria-controls")
    type_query(page, "attention")
    expect(page.locator(OPTION).first).to_be_visible()
    expect(field).to_have_attribute("aria-expanded", "true")
    listbox = page.locator(f"{BOX} [role=listbox]")
    assert listbox.get_attribute("id") == listbox_id
    labels = page.locator(f"{BOX} [role=group][aria-labelledby]").evaluate_all(
        "els => els.map(g => g.getRootNode().getElementById("
        "g.getAttribute('aria-labelledby')).textContent)")
    assert labels[:2] == ["Terms", "Results"]
    field.press("ArrowDown")
    first = page.locator(OPTION).first
    expect(first).to_have_attribute("aria-selected", "true")
    expect(field).to_have_attribute("aria-activedescendant", first.get_attribute("id"))
    field.press("ArrowUp")  # wraps round to the last option, "see all"
    expect(page.locator(OPTION).last).to_have_attribute("aria-selected", "true")
    expect(first).to_have_attribute("aria-selected", "false")


def test_arrow_keys_and_enter_open_the_section_at_its_anchor(tab, host):
    page = tab.page
    page.goto(f"{host}/index.html")
    type_query(page, "kv cache")
    results = page.locator(f"{OPTION}[data-kind=result]")
    expect(results.first).to_be_visible()
    href = results.first.get_attribute("href")
    assert re.fullmatch(r"https://learn\.example\.org/how-llms-work/[\w-]+#[\w-]+", href)
    field = page.locator(FIELD)
    for _ in range(page.locator(f"{OPTION}[data-kind=term]").count() + 1):
        field.press("ArrowDown")
    expect(results.first).to_have_attribute("aria-selected", "true")
    field.press("Enter")
    page.wait_for_url(lambda url: url == href)
    expect(page.locator("p")).to_have_text("A lesson page.")


def test_enter_with_nothing_chosen_opens_the_results_page(tab, host, service):
    page = tab.page
    page.goto(f"{host}/index.html")
    type_query(page, "softmax")
    expect(page.locator(OPTION).first).to_be_visible()
    page.locator(FIELD).press("Enter")
    page.wait_for_url(lambda url: url == f"{service}/search?q=softmax")
    expect(page.locator("main")).to_contain_text("softmax")


def test_escape_closes_then_clears_and_shortcuts_focus_the_box(tab, host):
    page = tab.page
    page.goto(f"{host}/index.html")
    focused = "() => document.activeElement.shadowRoot?.activeElement?.getAttribute('role')"
    page.locator("h1").click()
    page.keyboard.press("/")
    assert page.evaluate(focused) == "combobox"
    page.keyboard.type("attention")
    listbox = page.locator(f"{BOX} [role=listbox]")
    wait_for_answer(page, BOX, "attention")
    page.keyboard.press("Escape")
    expect(listbox).to_be_hidden()
    field = page.locator(FIELD)
    expect(field).to_have_attribute("aria-expanded", "false")
    expect(field).to_have_value("attention")
    page.keyboard.press("Escape")
    expect(field).to_have_value("")

    page.locator("h1").click()
    assert page.evaluate(focused) is None
    page.keyboard.press("Control+k")
    assert page.evaluate(focused) == "combobox"
    page.keyboard.type("a/b")  # "/" inside the box is just a character
    expect(field).to_have_value("a/b")


def test_the_shortcut_focuses_the_first_box_on_the_page(tab, host):
    """The header's box, not the custom element below it that the script meets first (it
    is upgraded when the script defines the element, before the page's boxes are looked
    for)."""
    page = tab.page
    page.goto(f"{host}/two.html")
    expect(page.locator("#bottom input")).to_have_attribute("placeholder", "Search again")
    focused = "() => document.activeElement?.id"
    for keys in ("/", "Control+k"):
        page.locator("h1").click()
        assert page.evaluate(focused) != "top"
        page.keyboard.press(keys)
        assert page.evaluate(focused) == "top"


def test_a_box_added_after_the_page_loaded_starts_by_itself(tab, host):
    """As a single-page app adds one: a [data-lessonsearch] box inside new content."""
    page = tab.page
    page.goto(f"{host}/index.html")
    expect(page.locator(FIELD)).to_have_attribute("role", "combobox")
    page.evaluate("""() => {
      const section = document.createElement("section");
      const box = document.createElement("div");
      box.id = "later";
      box.setAttribute("data-lessonsearch", "");
      box.setAttribute("data-placeholder", "Search again");
      section.append(box);
      document.querySelector("main").append(section);
    }""")
    later = "#later"
    expect(page.locator(f"{later} input")).to_have_attribute("placeholder", "Search again")
    type_query(page, "softmax", box=later)
    expect(page.locator(f"{later} [role=option][data-kind=result]").first).to_be_visible()


def test_recent_searches_are_remembered_and_can_be_cleared(tab, host):
    page = tab.page
    page.goto(f"{host}/index.html")
    type_query(page, "softmax")
    result = page.locator(f"{OPTION}[data-kind=result]").first
    href = result.get_attribute("href")
    result.click()
    page.wait_for_url(lambda url: url == href)

    page.goto(f"{host}/index.html")
    page.locator(FIELD).click()
    recent = page.locator(f"{OPTION}[data-kind=recent]")
    expect(recent).to_have_text(["softmax"])
    recent.click()
    expect(page.locator(FIELD)).to_have_value("softmax")
    expect(page.locator(f"{OPTION}[data-kind=result]").first).to_be_visible()

    page.locator(FIELD).fill("")
    page.locator(OPTION, has_text="Clear recent searches").click()
    page.locator("h1").click()
    page.locator(FIELD).click()
    expect(page.locator(f"{OPTION}[data-kind=recent]")).to_have_count(0)


def test_loading_empty_and_error_states(tab, host):
    page = tab.page
    page.goto(f"{host}/index.html")
    held = []
    page.route(SEARCH_REQUEST, lambda route: held.append(route))
    type_query(page, "temperature", answered=False)
    state = page.locator(f"{BOX} .state")
    expect(state).to_have_text("Searching…")
    expect(page.locator(f"{BOX} .panel")).to_have_class(re.compile(r"\bbusy\b"))
    held[-1].fallback()
    expect(page.locator(f"{OPTION}[data-kind=result]").first).to_be_visible()
    expect(state).to_be_hidden()
    page.unroute(SEARCH_REQUEST)

    page.locator(FIELD).fill("qqqzzx")
    expect(state).to_have_text("No results for “qqqzzx”.")
    expect(page.locator(f"{BOX} [role=status]")).to_have_text("No results for “qqqzzx”.")

    tab.allowed_errors = ("503 (Service Unavailable)",)  # the browser logs the failed fetch
    page.route(SEARCH_REQUEST, lambda route: route.fulfill(
        status=503, json={"error": "Index not built: run `lessonsearch index`."}))
    page.locator(FIELD).fill("temperature")
    expect(state).to_have_text("Search is unavailable right now. Try again in a moment.")
    expect(page.locator(OPTION)).to_have_count(0)


def test_a_box_with_no_word_yet_asks_nothing_and_an_operator_is_a_word(tab, host):
    """Punctuation alone said "No results for “?”." as if the course had no answer, and a
    quote or a minus typed before a word would now be refused by the service: the box asks
    nothing until a letter or digit is typed, and shows what an empty box shows (the recent
    searches: none here). ``AND`` alone is the word and, which the sample course writes."""
    page = tab.page
    page.goto(f"{host}/index.html")
    type_query(page, "softmax")
    asked = []
    page.on("request", lambda request: asked.append(request.url)
            if SEARCH_REQUEST.search(request.url) else None)
    state = page.locator(f"{BOX} .state")
    for text in ("( ? )", '"', "-"):
        page.locator(FIELD).fill(text)
        expect(page.locator(OPTION)).to_have_count(0)
        expect(state).to_be_hidden()
    page.locator(FIELD).fill("AND")
    expect(page.locator(f"{OPTION}[data-kind=result]").first).to_be_visible()
    expect(state).to_be_hidden()
    assert [url for url in asked if "q=AND" not in url] == []


def test_only_the_query_left_finding_nothing_is_logged_for_the_editors(tab, host, service,
                                                                       sample_index):
    """Each pause in typing is a search: "zorbly quux" typed slowly listed "zorb", "zorbly",
    "zorbly q" … on the coverage page as searches that found nothing. Those are not logged;
    the query the reader leaves the box with is, once, and Enter's results page counts too."""
    def logged():
        return [(z.query, z.count) for z in read_zero_results(sample_index)
                if z.query.startswith("zorb")]

    page = tab.page
    page.goto(f"{host}/index.html")
    searches = []
    page.on("request", lambda r: searches.append(r.url) if SEARCH_REQUEST.search(r.url) else None)
    field, state = page.locator(FIELD), page.locator(f"{BOX} .state")
    field.click()
    for part in ("zorb", "ly", " qu", "ux"):
        field.press_sequentially(part, delay=25)
        expect(state).to_have_text(f"No results for “{field.input_value()}”.")
    assert len(searches) >= 4 and all("typing=1" in url for url in searches)
    assert logged() == []

    with page.expect_response(lambda r: SEARCH_REQUEST.search(r.url) and "typing" not in r.url):
        page.locator("h1").click()  # leaving the box
    assert logged() == [("zorbly quux", 1)]

    field.click()  # back, and away again: the same query is not counted twice
    expect(state).to_have_text("No results for “zorbly quux”.")
    page.locator("h1").click()
    field.click()
    field.press("Enter")
    page.wait_for_url(lambda url: url == f"{service}/search?q=zorbly+quux")
    expect(page.locator("main")).to_contain_text("zorbly quux")
    assert logged() == [("zorbly quux", 2)]
    assert len([url for url in searches if "typing" not in url]) == 1

@pytest.mark.parametrize(("leaving", "query"), [("another page", "xyzzy plugh"),
                                                ("the tab closed", "xyzzy frobozz")])
def test_the_query_finding_nothing_is_logged_when_the_reader_leaves_the_page(
        tab, host, service, sample_index, leaving, query):
    """Leaving the page closes no box, so the query that found nothing was sent only while
    typing, and the editors never saw it. It is sent as the page goes, once."""

    def logged():
        return [(z.query, z.count) for z in read_zero_results(sample_index) if z.query == query]

    page = tab.page
    page.goto(f"{host}/index.html")
    field, state = page.locator(FIELD), page.locator(f"{BOX} .state")
    field.click()
    field.press_sequentially(query, delay=25)
    expect(state).to_have_text(f"No results for “{query}”.")
    assert logged() == []

    if leaving == "another page":
        page.goto(f"{service}/glossary")
    else:
        page.close(run_before_unload=True)
    # A keepalive request from a page that is gone is not among Playwright's events: the
    # service's log is watched instead, for as long as an answer may take.
    deadline = time.monotonic() + 10
    while not logged() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert logged() == [(query, 1)]


def test_a_newer_search_aborts_the_one_in_flight(tab, host):
    page = tab.page
    page.goto(f"{host}/index.html")
    held, failed = [], []
    page.route(SEARCH_REQUEST, lambda route: held.append(route)
               if "q=temp&" in route.request.url else route.fallback())
    page.on("requestfailed", lambda r: failed.append((r.url, r.failure)))
    type_query(page, "temp", answered=False)
    page.wait_for_timeout(400)
    assert len(held) == 1
    page.locator(FIELD).press_sequentially("erature", delay=25)
    wait_for_answer(page, BOX, "temperature")
    assert (held[0].request.url, "net::ERR_ABORTED") in failed
    expect(page.locator(f"{BOX} [role=status]")).to_contain_text("1 term")


START = datetime(2030, 1, 1, tzinfo=UTC)
"""The page's clock: Playwright's, so a test moves time on instead of waiting for it."""


def paused_clock_page(tab, host):
    """The host page with its clock paused: no timer fires unless the test runs time on."""
    page = tab.page
    page.clock.install(time=START)
    page.goto(f"{host}/index.html")
    page.clock.pause_at(START + timedelta(minutes=1))
    return page


def test_a_search_that_takes_too_long_is_given_up_and_can_be_retried(tab, host):
    page = paused_clock_page(tab, host)
    held = []  # a proxy that holds the search: no answer comes
    page.route(SEARCH_REQUEST, lambda route: held.append(route))
    type_query(page, "softmax", answered=False)
    page.clock.run_for(1_000)  # the debounce, then the search goes out
    state = page.locator(f"{BOX} .state")
    expect(state).to_have_text("Searching…")
    page.clock.run_for(1_000)  # it has lasted: the loading bar shows until it is given up
    expect(page.locator(f"{BOX} .panel")).to_have_class(re.compile(r"\bbusy\b"))
    page.clock.run_for(10_000)
    unavailable = "Search is unavailable right now. Try again in a moment."
    expect(state).to_have_text(unavailable)
    expect(page.locator(f"{BOX} [role=status]")).to_have_text(unavailable)
    expect(page.locator(f"{BOX} .panel")).not_to_have_class(re.compile(r"\bbusy\b"))
    assert len(held) == 1

    page.unroute(SEARCH_REQUEST)  # the service answers again; typing once more retries
    page.clock.resume()
    page.locator(FIELD).press("End")
    page.locator(FIELD).press_sequentially(" ")
    wait_for_answer(page, BOX, "softmax")
    expect(page.locator(f"{BOX} [role=status]")).to_contain_text("results")


def test_searching_is_announced_only_when_it_lasts(tab, host):
    page = paused_clock_page(tab, host)
    held = []
    page.route(SEARCH_REQUEST, lambda route: held.append(route))
    status = page.locator(f"{BOX} [role=status]")
    type_query(page, "softmax", answered=False)
    page.clock.run_for(200)  # the debounce: the search is on its way
    expect(page.locator(f"{BOX} .state")).to_have_text("Searching…")
    expect(status).to_have_text("")  # said on the page, not yet aloud
    page.clock.run_for(1_000)
    expect(status).to_have_text("Searching…")
    held[-1].fallback()
    expect(status).to_contain_text("results")


def held_once(page, held: list) -> None:
    """Wait, in real time, until the one search sent has reached the route that holds it:
    the route's handler runs when Playwright next reads the page's events, which a busy
    machine may leave until after the next line (``len(held)`` was 0 once)."""
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1


def test_a_slow_search_says_so_over_the_last_results(tab, host):
    """The last query's results stay listed while the next one is on its way; once it has
    lasted a second the box shows "Searching…" and marks the list busy, not before (a quick
    answer does not flicker)."""
    page = paused_clock_page(tab, host)
    type_query(page, "softmax", answered=False)
    page.clock.run_for(1_000)
    wait_for_answer(page, BOX, "softmax")
    held = []
    page.route(SEARCH_REQUEST, lambda route: held.append(route))
    page.locator(FIELD).press_sequentially(" sampling")
    page.clock.run_for(200)  # the debounce: the search is on its way
    state = page.locator(f"{BOX} .state")
    listbox = page.locator(f"{BOX} [role=listbox]")
    old_results = page.locator(f"{OPTION}[data-kind=result]")
    expect(old_results).to_have_count(5)
    held_once(page, held)
    expect(state).to_be_hidden()
    expect(listbox).not_to_have_attribute("aria-busy", "true")

    page.clock.run_for(1_000)
    expect(state).to_be_visible()
    expect(state).to_have_text("Searching…")
    expect(listbox).to_have_attribute("aria-busy", "true")
    expect(old_results).to_have_count(5)

    held[0].fallback()
    wait_for_answer(page, BOX, "softmax sampling")
    expect(state).to_be_hidden()
    expect(listbox).not_to_have_attribute("aria-busy", "true")


def watch_loading_bar(page):
    """Whether the box's loading bar is drawn, now (the result) and ever from now on (read
    with .barSeen): the panel's ::before, a 2 px strip above the results."""
    return page.locator(f"{BOX} .panel").evaluate("""el => {
      const drawn = () => !el.hidden && getComputedStyle(el, "::before").content !== "none";
      el.barSeen = drawn();
      new MutationObserver(() => { el.barSeen = el.barSeen || drawn(); })
        .observe(el, {attributes: true, attributeFilter: ["class", "hidden"]});
      return el.barSeen;
    }""")


def loading_bar(page):
    """(drawn now, drawn at any time since watch_loading_bar)."""
    return tuple(page.locator(f"{BOX} .panel").evaluate(
        """el => [!el.hidden && getComputedStyle(el, "::before").content !== "none",
                  el.barSeen]"""))


def test_a_quick_search_never_shows_the_loading_bar(tab, host):
    """It showed on every search, however quick: a reader typing saw it flicker at each
    keystroke. The page's clock stays paused, so the answer comes before a second passes."""
    page = paused_clock_page(tab, host)
    assert watch_loading_bar(page) is False
    type_query(page, "softmax", answered=False)
    page.clock.run_for(200)  # the debounce: the search goes out and is answered
    wait_for_answer(page, BOX, "softmax")
    assert loading_bar(page) == (False, False)
    page.clock.run_for(2_000)  # the answered search's timers are gone
    assert loading_bar(page) == (False, False)


def test_a_slow_search_shows_the_loading_bar_once_it_lasts(tab, host):
    page = paused_clock_page(tab, host)
    held = []
    page.route(SEARCH_REQUEST, lambda route: held.append(route))
    watch_loading_bar(page)
    type_query(page, "softmax", answered=False)
    page.clock.run_for(200)  # the debounce: the search is on its way
    expect(page.locator(f"{BOX} .panel")).to_be_visible()
    held_once(page, held)
    assert loading_bar(page) == (False, False)

    page.clock.run_for(1_000)
    assert loading_bar(page) == (True, True)
    held[0].fallback()
    wait_for_answer(page, BOX, "softmax")
    assert loading_bar(page)[0] is False


def said_aloud(page):
    """What the box's live region says from now on, one entry per change (read with .said)."""
    return page.locator(f"{BOX} [role=status]").evaluate("""el => {
      el.said = [];
      new MutationObserver(() => el.said.push(el.textContent))
        .observe(el, {childList: true, characterData: true, subtree: true});
    }""")


def test_results_do_not_wait_for_a_slow_glossary(tab, host):
    """A proxy stalls /api/terms: the search's answer shows at once, a completed term's
    definition joins it when the glossary comes, and the reader's choice stays put."""
    page = tab.page
    held = []
    page.route(TERMS_REQUEST, lambda route: held.append(route))
    paused_clock_page(tab, host)
    type_query(page, "kv", answered=False)  # the search has no term card; "kv" completes one
    page.clock.run_for(1_000)  # the debounce; the clock then stays far from the 10 s give-up
    wait_for_answer(page, BOX, "kv")
    term = page.locator(f"{OPTION}[data-kind=term]")
    expect(term).to_have_count(1)
    expect(term).to_have_text("KV cache")  # no definition yet, and no "No definition yet."
    status = page.locator(f"{BOX} [role=status]")
    expect(status).to_have_text(re.compile(r"^1 term and 5 of \d+ results\."))

    field = page.locator(FIELD)
    field.press("ArrowDown")
    field.press("ArrowDown")
    chosen = page.locator(f"{OPTION}[data-kind=result]").first
    expect(chosen).to_have_attribute("aria-selected", "true")
    said_aloud(page)
    assert len(held) >= 1
    for route in held:
        route.fallback()
    expect(term).to_contain_text("The stored keys and values of every token already processed")
    expect(chosen).to_have_attribute("aria-selected", "true")
    expect(field).to_have_attribute("aria-activedescendant", chosen.get_attribute("id"))
    assert status.evaluate("el => el.said") == []  # the counts did not change: nothing to say


def test_results_show_without_definitions_when_the_glossary_fails(tab, host):
    page = tab.page
    tab.allowed_errors = ("503 (Service Unavailable)",)  # the browser logs the failed fetch
    page.route(TERMS_REQUEST, lambda route: route.fulfill(status=503, json={"error": "down"}))
    page.goto(f"{host}/index.html")
    type_query(page, "kv")
    expect(page.locator(f"{OPTION}[data-kind=term]")).to_have_text("KV cache")
    expect(page.locator(f"{OPTION}[data-kind=result]")).to_have_count(5)


def test_the_host_pages_css_cannot_reach_inside(tab, host):
    page = tab.page
    page.goto(f"{host}/index.html")  # host.css: dashed red inputs, lime links, hidden options…
    type_query(page, "softmax")
    title = page.locator(f"{OPTION}[data-kind=result] .title").first
    expect(title).to_be_visible()
    field = page.locator(FIELD)
    assert field.evaluate("el => getComputedStyle(el).borderTopStyle") != "dashed"
    assert field.evaluate("el => getComputedStyle(el).fontSize") == "16px"
    assert title.evaluate("el => getComputedStyle(el).color") != "rgb(0, 255, 0)"
    assert title.evaluate("el => getComputedStyle(el).letterSpacing") == "normal"
    mark = page.locator(f"{OPTION} mark").first
    assert mark.evaluate("el => getComputedStyle(el).backgroundColor") != "rgb(0, 0, 0)"


def _lightness(css_colour: str) -> float:
    red, green, blue = (int(x) for x in re.findall(r"\d+", css_colour)[:3])
    return (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_light_and_dark_follow_the_system_unless_overridden(browser, host, scheme):
    tab = open_tab(browser, color_scheme=scheme)
    page = tab.page
    try:
        page.goto(f"{host}/index.html")
        type_query(page, "softmax")
        panel = page.locator(f"{BOX} .panel")
        expect(panel).to_be_visible()
        background = _lightness(panel.evaluate("el => getComputedStyle(el).backgroundColor"))
        assert background > 0.8 if scheme == "light" else background < 0.2

        page.goto(f"{host}/custom.html")  # data-theme="dark" whatever the system says
        type_query(page, "softmax", box="lesson-search")
        panel = page.locator("lesson-search .panel")
        expect(panel).to_be_visible()
        assert _lightness(panel.evaluate("el => getComputedStyle(el).backgroundColor")) < 0.2
    finally:
        page.context.close()
    assert tab.unexpected_errors() == []


def test_the_custom_element_reads_its_own_options(tab, host):
    page = tab.page
    page.goto(f"{host}/custom.html")
    field = page.locator("lesson-search input")
    expect(field).to_have_attribute("placeholder", "Find a lesson")
    type_query(page, "attention", box="lesson-search")
    results = page.locator("lesson-search [role=option][data-kind=result]")
    expect(results).to_have_count(3)  # limit="3"
    expect(results.first).to_have_attribute("target", "_blank")  # data-target="new"
    href = results.first.get_attribute("href")
    for _ in range(page.locator("lesson-search [role=option][data-kind=term]").count() + 1):
        field.press("ArrowDown")
    with page.context.expect_page() as opened:
        field.press("Enter")
    opened.value.wait_for_url(lambda url: url == href)
    assert page.url == f"{host}/custom.html"
    assert page.evaluate("Object.keys(localStorage)") == []  # data-recent="off"
