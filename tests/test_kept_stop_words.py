"""Stop words the reader asked for: "DOWN" in ``state DOWN``, copied from a command's output,
or "down" after a word the course writes it after ("state down"). A bag-of-words query drops
its stop words, so both searched "state" alone, and the section on a tracker's states, which
writes "state" most, came before the ones that write "state DOWN". A question's own words
stay dropped ("how", "do", "is").

The course is this file's own: notes on a small network's links and its packet filter."""

from __future__ import annotations

import pytest
from course_fixtures import open_course

LESSONS = {
    "01-links.md": """---
title: Links
---

## Reading the list

The list command prints one block per card, for example:

```
2: eth0: <BROADCAST,MULTICAST> mtu 1500 state DOWN
3: wlan0: <BROADCAST,MULTICAST> mtu 1500 state UP
```

A card in state DOWN has no carrier or was switched off by hand.

## Switching a card on

Ask for the card to come up with the set command; check the list again afterwards.
""",
    "02-filter.md": """---
title: The filter
---

## Tracking

The filter keeps a state for every flow: a new state, an established state, a related
state. A rule that accepts the established state lets replies back in; the state of a
flow changes as packets pass, and the state table forgets a flow when it goes quiet.
""",
}


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory):
    with open_course(tmp_path_factory.mktemp("links"), LESSONS) as opened:
        yield opened


def first_heading(found) -> str | None:
    return found.results[0].heading if found.results else None


@pytest.mark.parametrize("query", ["state DOWN", "state UP", "what does state DOWN mean"])
def test_a_stop_word_in_capitals_is_searched(searcher, query) -> None:
    found = searcher.search(query)
    assert first_heading(found) == "Reading the list"
    assert not found.relaxed


def test_a_stop_word_the_course_writes_after_the_word_is_searched(searcher) -> None:
    """The course writes "state down" side by side: the reader's lower-case "down" counts."""
    found = searcher.search("state down")
    assert [hit.heading for hit in found.results] == ["Reading the list"]


def test_a_stop_word_the_course_never_writes_so_is_still_dropped(searcher) -> None:
    """No section writes "flow up": "up" is a function word here, and "flow" finds its
    section as before."""
    assert first_heading(searcher.search("flow up")) == "Tracking"


def test_a_question_s_own_words_stay_dropped(searcher) -> None:
    found = searcher.search("how do I switch a card on")
    assert first_heading(found) == "Switching a card on"
