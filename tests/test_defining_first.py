"""A reader who searches a term finds the section that says what it is first, and a
hyphenated word's joined form ("pvalue" in code for "p-value") weighs no more than the form
the reader wrote."""

from __future__ import annotations

from pathlib import Path

import pytest

from lessonsearch.build import build_index
from lessonsearch.searcher import Searcher

COMPARING = """---
title: Comparing two groups
slug: comparing
---

# Comparing two groups

## Is the difference real?

Two groups of seedlings grew under different lamps, and the second group ended up taller on
average. Before believing the lamp did it, ask how often chance alone would give a gap that
large. A **p-value** is the probability, assuming the lamps make no difference at all, of
seeing a gap at least as large as the one measured. A small one says chance is an unlikely
story; a large one says the data cannot tell the lamps apart, whatever the heights suggest
to the eye, and more plants are needed before anyone can say which lamp is better.

## Running the test

```python
result = stats.ttest_ind(tall, short)
if result.pvalue < 0.05:
    print("different", result.pvalue)
```

## Reading the output

The test prints a statistic and a probability. Report both, with the size of each group,
and say which test you ran so a reader can repeat it.
"""

REPORTING = """---
title: Reporting a test
slug: reporting
---

# Reporting a test

## Say what you found

Give the p-value beside the gap itself: a p-value alone hides how big the effect was.

## Printing it

```python
result = stats.ttest_ind(tall, short)
print(result.pvalue, result.pvalue)
```
"""


def field_study(number: int) -> str:
    """A lesson that writes p and value often, apart: "p < 0.01", "the value"."""
    return f"""---
title: Field study {number}
slug: study-{number}
---

# Field study {number}

## Measuring plants

Measure each seedling from the soil to the tip of its highest leaf, and write the value
down with the date. The lamps made a difference here (p < 0.01), so keep each value apart.

## Keeping records

Keep one row per plant and one column per day. A missing value is left blank, never
written as zero, since zero is a height a plant could have; p = 0.2 for the soil.
"""


GLOSSARY = """# Glossary

p-value
: How likely a result at least as extreme is when nothing but chance is at work.
"""


def build(root: Path, lessons: dict[str, str], glossary: str | None) -> Searcher:
    (root / "lessons").mkdir(parents=True)
    (root / "glossary").mkdir()
    for name, text in lessons.items():
        (root / "lessons" / name).write_text(text, encoding="utf-8")
    if glossary:
        (root / "glossary" / "glossary.md").write_text(glossary, encoding="utf-8")
    build_index(root / "lessons", root / "glossary", root / "index")
    return Searcher.open(root / "index")


STUDIES = {f"{n:02d}-study.md": field_study(n) for n in range(2, 9)}


@pytest.fixture(scope="module")
def statistics(tmp_path_factory: pytest.TempPathFactory):
    found = build(tmp_path_factory.mktemp("defining"),
                  {"01-comparing.md": COMPARING, **STUDIES}, GLOSSARY)
    yield found
    found.close()


@pytest.fixture(scope="module")
def reporting(tmp_path_factory: pytest.TempPathFactory):
    """No glossary: nothing defines p-value, only the written and the joined forms count."""
    found = build(tmp_path_factory.mktemp("joined"),
                  {"01-reporting.md": REPORTING, **STUDIES}, None)
    yield found
    found.close()


def places(response) -> list[tuple[str, str | None]]:
    return [(hit.lesson, hit.anchor) for hit in response.results]


@pytest.mark.parametrize("query", ["p-value", "p-values", "P-value"])
def test_the_section_defining_a_hyphenated_term_comes_before_code_writing_it_joined(
        statistics: Searcher, query: str) -> None:
    """The test's code writes result.pvalue twice in a short block; rarer than p and value,
    the joined word outscored the section that says what a p-value is."""
    found = places(statistics.search(query))
    assert found[:2] == [("comparing", "is-the-difference-real"),
                         ("comparing", "running-the-test")]


def test_the_joined_form_weighs_no_more_than_the_written_form(reporting: Searcher) -> None:
    """The prose writes p-value twice, the code pvalue twice, in sections as short: the prose
    comes first, and the code is still found."""
    assert places(reporting.search("p-value")) == [("reporting", "say-what-you-found"),
                                                   ("reporting", "printing-it")]


@pytest.mark.parametrize(("query", "defining"), [
    ("embedding", ("embeddings", "from-ids-to-vectors")),
    ("embeddings", ("embeddings", "from-ids-to-vectors")),
    ("tokens", ("tokens-and-tokenizers", "text-arrives-as-pieces")),
    ("token", ("tokens-and-tokenizers", "text-arrives-as-pieces")),
])
def test_a_term_alone_finds_its_defining_section_first(
        sample_searcher: Searcher, query: str, defining: tuple[str, str]) -> None:
    """"Near and far" writes embedding more often, and "Seeing tokens in code" is shorter;
    each came before the section saying what the term is."""
    assert places(sample_searcher.search(query))[0] == defining


def test_the_defining_paragraph_of_a_lesson_without_headings_comes_first(
        sample_searcher: Searcher) -> None:
    """The hallucination lesson is plain text: its paragraphs share one anchor, none. The
    one that names hallucination comes first, not the lesson's opening paragraph."""
    first = sample_searcher.search("hallucination").results[0]
    assert first.lesson == "hallucination"
    assert first.url.endswith("#:~:text=The%20name%20that%20stuck%20for%20this")



def test_the_opening_paragraph_of_a_lesson_without_headings_takes_no_definition_weight(
        sample_searcher: Searcher) -> None:
    """The hallucination lesson's opening paragraph never writes hallucination: it is found
    only through the lesson's title, as the other paragraphs that do not write it are, so
    it comes after every hit that writes the word. The build gave the definition's weight
    to the lesson's first paragraph, not to the one defining the term, and the opening
    paragraph came second, before the sections and paragraphs that write hallucination."""
    hits = sample_searcher.search("hallucination", limit=20).results
    snippets = [hit.snippet for hit in hits]
    assert snippets[0].startswith("The name that stuck for this is “<mark>hallucination")
    opening = next(n for n, s in enumerate(snippets) if s.startswith("Ask a language model"))
    assert hits[opening].heading is None and "<mark>" not in snippets[opening]
    writing = [n for n, s in enumerate(snippets) if "<mark>" in s]
    assert len(writing) == 5 and max(writing) < opening


SKY = """---
title: Finding your way around the sky
slug: sky
---

# Finding your way around the sky

## Before you go out

Pick a night with no moon, let your eyes adapt for twenty minutes, and bring a red torch so
you keep that adaptation while reading a chart; its key lists each star's magnitude.

## How bright a star looks

Astronomers grade stars by how bright they appear from here. The scale runs backwards: a
first magnitude star such as Vega outshines a third magnitude one, and each step of one
magnitude is about two and a half times in brightness. The faintest stars a city sky shows
sit near magnitude four, while a dark rural site reaches magnitude six. Star charts print
each dot's size by its magnitude, so the biggest dots are the stars to find first.

## Naming the stars

Many bright stars keep Arabic names; the rest are labelled with Greek letters in order of
brightness within their constellation.
"""

TELESCOPES = """---
title: Choosing a telescope
slug: telescopes
---

# Choosing a telescope

## Aperture

The width of the main lens or mirror decides how much light the instrument gathers, and so
how faint an object it can show and how much detail it resolves on a planet or the moon.

## Limiting magnitude

Each aperture has a limiting magnitude.

## Mounts

A steady mount matters more than a long focal length: a shaking view hides detail that the
optics could show.
"""

SKY_GLOSSARY = """# Glossary

magnitude {#magnitude}
: A number for how bright a star appears; smaller numbers mean brighter stars.

aperture {#aperture}
: The width of a telescope's main lens or mirror.
"""


@pytest.fixture(scope="module")
def stargazing(tmp_path_factory: pytest.TempPathFactory):
    """Only the glossary says what magnitude is: no lesson defines it."""
    found = build(tmp_path_factory.mktemp("introduced"),
                  {"01-sky.md": SKY, "02-telescopes.md": TELESCOPES}, SKY_GLOSSARY)
    yield found
    found.close()


@pytest.mark.parametrize("query", ["define magnitude", "explain magnitude", "magnitude",
                                   "what is magnitude?", "meaning of magnitude"])
def test_a_term_only_the_glossary_defines_finds_the_section_introducing_it_first(
        stargazing: Searcher, query: str) -> None:
    """The short section headed "Limiting magnitude" came first, above the section that
    dwells on magnitude; nor is the chart's passing mention of it the one to read."""
    response = stargazing.search(query)
    assert [t.term for t in response.terms] == ["magnitude"]
    assert places(response)[:2] == [("sky", "how-bright-a-star-looks"),
                                    ("telescopes", "limiting-magnitude")]


def test_another_term_beside_it_is_ranked_as_before(stargazing: Searcher) -> None:
    assert places(stargazing.search("limiting magnitude"))[0] == ("telescopes",
                                                                 "limiting-magnitude")
