"""Jargon candidates: recurring collocations, acronyms and mid-sentence names, minus what the
glossary already knows, everyday English and code."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from lessonsearch.build import build_index
from lessonsearch.candidates import (
    MAX_CANDIDATES,
    _acronyms,
    _capitalised,
    _section_facts,
    find_candidates,
)
from lessonsearch.collocations import NgramCounts, base_verb
from lessonsearch.coverage import coverage_report
from lessonsearch.index_store import current_version
from lessonsearch.model import Course, CourseInfo
from lessonsearch.readers.json_export import read_json_lesson
from lessonsearch.readers.markdown import read_markdown_lesson
from lessonsearch.whoosh_index import documents

LESSONS = [
    """---
title: Ovens
slug: ovens
---

## Heat

A deck oven holds heat in its stone floor. The deck oven at the bakery runs all night.
Bakers who run a WFO, a wood-fired oven, rake the embers out first; a WFO takes hours to
heat. Our friends at Hearth Works sell parts, and Hearth Works ships them quickly.
Copy the log into `data/oven_log.csv` and open data/oven_log.csv again, then
data/oven_log.csv once more. The same way, every time, at the same time.
""",
    """---
title: Loaves
slug: loaves
---

## Crust

Steam in a deck oven keeps the crust soft at first. Some use a Dutch oven instead, and
a Dutch oven traps steam well. Our friends at Hearth Works agree. A WFO gives a smoky
crust. Grease the Dutch oven lightly. The same way, every time, at the same time.
""",
]


def course(*texts: str) -> Course:
    lessons = tuple(read_markdown_lesson(text, f"lessons/{n}.md") for n, text in enumerate(texts))
    return Course(CourseInfo("c", "C"), lessons)


def phrases(found) -> dict[str, str]:
    return {c.phrase: c.kind for c in found}


def test_collocations_acronyms_and_names_are_found_ranked_by_lessons():
    found = find_candidates(course(*LESSONS), {})
    assert phrases(found) == {
        "deck oven": "collocation", "Dutch oven": "collocation", "WFO": "acronym",
        "Hearth Works": "capitalised",
    }
    # most lessons first, then most uses, then A-Z: "Dutch oven" is in one lesson only
    assert [c.phrase for c in found] == ["deck oven", "Hearth Works", "WFO", "Dutch oven"]
    deck = next(c for c in found if c.phrase == "deck oven")
    assert deck.count == 3
    assert [(p.lesson, p.count) for p in deck.lessons] == [("ovens", 2), ("loaves", 1)]
    assert deck.lessons[0].url.endswith("#heat")


def test_terms_the_glossary_knows_are_left_out_in_any_spelling():
    found = find_candidates(course(*LESSONS), {"Dutch ovens": [], "wood-fired oven": ["WFO"]})
    assert "Dutch oven" not in phrases(found) and "WFO" not in phrases(found)
    assert "deck oven" in phrases(found)


def test_a_piece_of_a_known_term_is_no_candidate():
    found = find_candidates(course(*LESSONS), {"deck oven stone": []})
    assert "deck oven" not in phrases(found)


def test_everyday_phrases_code_and_stop_words_are_no_candidates():
    found = phrases(find_candidates(course(*LESSONS), {}))
    assert not {"same way", "same time", "oven log", "oven_log", "csv", "data"} & set(found)


def test_at_most_thirty_and_a_limit_can_be_given():
    assert MAX_CANDIDATES == 30
    assert len(find_candidates(course(*LESSONS), {}, limit=2)) == 2


def test_patched_ngram_counts_are_the_counts_of_the_runs_as_they_are_now():
    """A rebuild patches the sample's counts with the runs of the sections that changed;
    an n-gram whose last use went is no longer listed (NLTK's finders would score it)."""
    before = [("bulk", "fermentation", "takes", "hours"), ("the", "bulk", "fermentation")]
    gone = [("bulk", "fermentation", "takes", "hours")]
    new = [("a", "cold", "retard"), ("cold", "retard", "slows", "it")]
    counts = NgramCounts.of(before)
    counts.patch(gone, new)
    after = NgramCounts.of([("the", "bulk", "fermentation"), *new])
    assert counts == after
    assert ("fermentation", "takes") not in counts.pairs and counts.pairs[("cold", "retard")] == 2
    assert ("bulk", "fermentation", "takes") not in counts.triples


WORDS = st.sampled_from(["KV", "LLMs", "NOT", "Hugging", "Face", "GitHub", "the", "cache",
                         "Dr", "ÉCOLE", "İstanbul", "x", "iPhone", "RLHF", "MIX", "vs", "Ab"])


@given(st.lists(st.lists(WORDS, max_size=8).map(" ".join), max_size=6),
       st.sampled_from([". ", ", ", "\n\n", " "]))
def test_capitals_and_acronyms_are_those_every_run_would_give(sentences: list[str],
                                                                glue: str):
    """The runs skipped before they are read word by word hold none of either signal."""
    body = glue.join(sentences)
    runs, capitalised, acronyms = _section_facts("Some Heading", body)
    assert capitalised == Counter(phrase for words, _, mid, prose in runs if prose
                                  for phrase in _capitalised(words, mid))
    assert acronyms == Counter(core for words, _, _, _ in runs for core in _acronyms(words))


MIXERS = [
    """---
title: Mixers
slug: mixers
---

Our mixer is a KitchenAid, and the KitchenAid runs slowly with stiff dough. KitchenAid sells
a dough hook for it. Scrape the bowl of the KitchenAid's Artisan model twice.
""",
    """---
title: Kneading
slug: kneading
---

KitchenAid's bowl holds four litres. Knead in the KitchenAid for ten minutes, then rest the
dough. In KitchenAid's Artisan model the hook turns slower.
""",
    """---
title: Cleaning
slug: cleaning
---

## KitchenAid care

KitchenAid hooks go in the dishwasher, and so does the KitchenAid's Artisan bowl.
""",
]


def test_a_name_counts_every_use_once_found_mid_sentence():
    """A capital tells a name only mid-sentence, but once found, a name's uses at a
    sentence's start, in a heading and in the possessive count too: ranking depends on them."""
    found = find_candidates(course(*MIXERS), {})
    mixer = next(c for c in found if c.phrase == "KitchenAid")
    assert [(p.lesson, p.count) for p in mixer.lessons] == [
        ("mixers", 4), ("kneading", 3), ("cleaning", 3)]
    assert mixer.count == 10


def test_a_possessive_ends_a_name():
    assert "KitchenAid Artisan" not in phrases(find_candidates(course(*MIXERS), {}))


METHODS = [
    """---
title: Shaping
slug: shaping
---

## Shaping by Hand

We follow the Tartine method here. In the Tartine way the dough is folded, not kneaded, and
the loaves rest overnight. Ask Marta how to shape them, since she shapes every loaf by hand.
Dr. Okafor showed us this in March. Proof the dough in a Brotform, and a Brotform leaves
rings on the crust; dust the Brotform with rice flour first. Hearth Kiln sells the pots.

| Flour | Rye |
| Water | Rye |
""",
    """---
title: Feeding
slug: feeding
---

Feed the Starter at noon: press Starter on the oven's panel and wait. A starter fed late
rises slowly. Like Tartine bakers, Marta feeds hers twice a day. Kitchens are cold in March.
Dr. Okafor keeps a note of every feed. The Tartine book gives the same times. Oak Kiln
ships scales too.

| Flour | Rye |
""",
    """---
title: Baking
slug: baking
---

Tartine loaves bake in a covered pot. Marta bakes hers at a high heat. The crust is checked
by Dr. Okafor with a probe, and by Marta too. A fresh starter goes into the fridge in March,
and the Starter button on the panel turns the proofing drawer on. Stone Kiln makes the probes.
""",
]


def test_a_single_word_capitalised_mid_sentence_in_several_lessons_is_a_name():
    """Not a person (a title before them, "she" or "her" beside them), a month, a cell of a
    table, a word also written in lower case, a word one lesson uses, or the second word of
    a name that opens a sentence ("Hearth Kiln sells")."""
    found = find_candidates(course(*METHODS), {})
    assert phrases(found) == {"Tartine": "capitalised"}
    (tartine,) = found
    assert [(p.lesson, p.count) for p in tartine.lessons] == [
        ("shaping", 2), ("feeding", 2), ("baking", 1)]


LOGGERS = [
    """---
title: Logging the Oven
slug: logging
---

The probe stores 64 KB of readings each hour, and a card of 2 GB holds a season. A vigorous
levain doubles in four hours; a rye levain is slower. Cut the dough to a fixed size before
the bench rest. The logger has 2 PCBs, and the PCB near the door runs hot.
""",
    """---
title: Timing
slug: timing
---

A day of readings takes 512 KB, far under the 2 GB card. Feed a vigorous levain at night
and a rye levain at dawn. Each roll is cut to a fixed size. Replace the PCB when it fails.
""",
    """---
title: Scaling Up
slug: scaling-up
---

Send 20 KB a minute over the link. Keep a vigorous levain for the white loaves and a rye
levain for the dark ones, and weigh every piece to a fixed size. Keep a spare PCB.
""",
]


def test_units_and_adjectives_before_known_terms_are_no_candidates():
    """"64 KB" is a unit, "a fixed size" everyday English, and a "vigorous levain" a levain
    the glossary explains; a noun before the term ("rye levain") may make a new one, and an
    acronym counted ("2 PCBs") is read."""
    found = phrases(find_candidates(course(*LOGGERS), {"levain": []}))
    assert "rye levain" in found and "PCB" in found
    assert not {"KB", "GB", "fixed size", "vigorous levain"} & set(found)


PROVERS = [
    """---
title: Renting Ovens
slug: renting
---

We rent 4 GPUs by the hour to model the crumb. Two GPUs sit idle at night, and the GPU
queue is short then. Most LLMs write recipes badly, and the LLMs we tried forget salt.
""",
    """---
title: Crumb Models
slug: crumb-models
---

A crumb model trains on 2 GPUs overnight. Ask the LLMs for a shopping list only.
""",
    """---
title: Scoring Loaves
slug: scoring
---

Scoring photos of loaves takes 8 GPUs. Some LLMs can read the photos too.
""",
]


def test_a_plural_acronym_is_its_acronym():
    """"GPUs" is ``GPU`` written in the plural: one candidate, shown as the acronym and
    counted at every use, not also a capitalised name."""
    found = find_candidates(course(*PROVERS), {})
    assert {"GPUs", "LLMs"}.isdisjoint(phrases(found))
    assert phrases(found)["GPU"] == phrases(found)["LLM"] == "acronym"
    gpu = next(c for c in found if c.phrase == "GPU")
    assert [(p.lesson, p.count) for p in gpu.lessons] == [
        ("renting", 3), ("crumb-models", 1), ("scoring", 1)]


PROBES = [
    """---
title: Probe Storage
slug: probe-storage
---

The probe's card holds several GB, and a season of readings takes tens of GB. Its chip
runs at a few MHz, so a reading lands every few ms over the SPI bus.
""",
    """---
title: Probe Radio
slug: probe-radio
---

The radio sends a few KB at a time on the SPI bus, well under the GB the card holds. It
hops between channels some MHz apart, a few ms apart, and the GHz band is left free.
""",
    """---
title: Probe Power
slug: probe-power
---

A probe draws little: a kWh lasts it years. Its log fills a few GB of the card, and the
SPI bus wakes it every few ms; a GHz radio would draw far more than one of some MHz.
""",
]


def test_units_are_no_candidates_wherever_they_stand():
    """"several GB" is a unit as much as "2 GB": a unit is no jargon, after a number or not,
    as an acronym or as a capitalised name ("GHz")."""
    found = phrases(find_candidates(course(*PROBES), {}))
    assert "SPI bus" in found  # every SPI is the SPI bus's (an acronym before its noun)
    assert not {"GB", "KB", "MHz", "GHz", "kWh"} & set(found)


TASTERS = [
    """---
title: Tasting Notes
slug: tasting-notes
---

The notes go into Postgres each night. We asked Professor Gray about the rye, and
Professor Gray tasted every loaf. Then Priya says the crumb is too open, and Priya thinks
a cooler proof would help. Captain Moreau brought the flour.
""",
    """---
title: Tasting Panels
slug: tasting-panels
---

Each panel's scores land in Postgres too. When Priya said the crust was pale, Professor
Gray agreed. Our panel met Captain Moreau at the mill.
""",
    """---
title: Tasting Again
slug: tasting-again
---

A second round in Postgres shows the change. This time Priya wrote that the crumb was
right, and Priya's supervisor signed the sheet. Lady Ashcombe judged, and Captain Moreau
sent more flour.
""",
]


def test_people_named_with_any_title_or_as_speakers_are_no_candidates():
    """A name after a title ("Professor Gray", "Captain Moreau"), or one whose every use
    says what they say or think ("Priya says"), is a person, not jargon; a tool stays."""
    found = phrases(find_candidates(course(*TASTERS), {}))
    assert found == {"Postgres": "capitalised"}


HARBOUR = [
    """---
title: Radio Watch
slug: radio-watch
---

## Traffic

Switch on the AIS transponder before leaving the berth. Each AIS transponder sends the
boat's course to the chart plotter, and the chart plotter draws the ships. Rig a storm jib
early when the forecast turns.
""",
    """---
title: Passage Plans
slug: passage-plans
---

## Sharing

Older boats carry no AIS transponders at all. Bend on a storm jib before the squall; the
current chart shows the shoals. Reef early and keep the AIS on for the crossing.
""",
    """---
title: Night Sailing
slug: night-sailing
---

## Lights

At night the AIS transponder shows ships beyond the lights. Check the current chart
before dark, and tie the reef point ties with a slipped knot.
""",
]


def test_an_acronym_nearly_always_before_one_noun_is_proposed_as_the_phrase():
    """Four of the five AIS are an AIS transponder (one written in the plural): the
    candidate is the phrase an editor would write an entry for, counted at every AIS."""
    found = find_candidates(course(*HARBOUR), {})
    assert "AIS" not in phrases(found)
    assert phrases(found)["AIS transponder"] == "acronym"
    ais = next(c for c in found if c.phrase == "AIS transponder")
    assert ais.count == 5
    assert [(p.lesson, p.count) for p in ais.lessons] == [
        ("radio-watch", 2), ("passage-plans", 2), ("night-sailing", 1)]


def test_an_acronym_the_glossary_knows_is_not_proposed_as_a_phrase():
    """The glossary's AIS entry covers every AIS; the phrase is then a collocation like any
    other holding a term, counted where it is written (three times), not at every AIS."""
    found = find_candidates(course(*HARBOUR), {"AIS": ["automatic identification system"]})
    assert "AIS" not in phrases(found)
    assert phrases(found)["AIS transponder"] == "collocation"
    assert next(c for c in found if c.phrase == "AIS transponder").count == 3


def test_a_pair_written_once_in_each_of_two_lessons_is_no_candidate_yet():
    """"a storm jib" once in each of two lessons is too little to tell jargon from prose: on
    the Carpentries lessons, of eight pairs such a rule proposed, five were prose ("little
    program", "actual data", "program starts"). Three uses make a collocation."""
    found = find_candidates(course(*HARBOUR), {})
    assert not {"storm jib", "current chart", "chart plotter"} & set(phrases(found))



FORECASTS = [
    """---
title: Predictions
slug: predictions
---

## One token at a time

The language model predicts one token per step. When the model predicts slowly, look at the
context window first: a long context window costs time. It predicts from the context window
alone. Two training runs of the model differ; the runs are long.
""",
    """---
title: Training
slug: training
---

## Runs

Predicting well is learnt in training runs. A model predicts better after many training runs,
and the model predicts worse when the context window is cut. Running them twice costs money;
we run each one for a week.
""",
]


def test_a_noun_and_its_verb_are_no_candidate_but_a_term_is():
    """"model predicts" recurs four times as often as chance allows, but the course writes
    "predicts" as a verb ("It predicts from") and never as a noun, with "predicting": a
    subject and its verb, no term. "training runs" stays, though "run" is a verb here too:
    the course writes "the runs", a plural noun. So does "context window"."""
    found = phrases(find_candidates(course(*FORECASTS), {}))
    assert "model predicts" not in found
    assert found["context window"] == "collocation"
    assert found["training runs"] == "collocation"


TOKENIZERS = [
    """---
title: Splitting
slug: splitting
---

## Pieces

Most tokenizers split text into pieces. Byte-level tokenizers split every word into bytes,
and to split a word they need no vocabulary. The byte pair merges come from the counts; the
tokenizer splits a word wherever a byte pair merge is missing. Splitting is cheap.
""",
    """---
title: Merging
slug: merging
---

## Pieces

Older tokenizers split whitespace first. The tokenizer splits the text, then each byte pair
merge joins two pieces. A tokenizer splits rare words into more pieces, and it splits
numbers digit by digit.
""",
]


def test_a_plural_subject_and_its_verb_and_a_verb_and_its_object_are_no_candidates():
    """"tokenizers split" (a plural and the verb the course writes after "to") and "splits"
    (written after "it" and before "the") are what tokenizers do, counted together; "byte
    pair" is a term."""
    found = phrases(find_candidates(course(*TOKENIZERS), {}))
    assert not {"tokenizers split", "tokenizer splits"} & set(found)
    assert found["byte pair"] == "collocation"


SPREAD = [
    """---
title: Spread
slug: spread
---

## How far from the mean

The standard deviation says how far values stray from the mean. In a bell-shaped sample most
values lie within one standard deviation of it, and nearly all values lie within three. A
value lying further out is rare; we call it an outlier. The median lies in the middle.

## Reading a histogram

Draw the histogram first. Most values lie near its peak, and the standard deviation is about
a sixth of its width. Values lying in the tails pull the mean towards them.
""",
    """---
title: Comparing groups
slug: comparing-groups
---

## Two samples

Before comparing two groups, find each standard deviation. When values lie far apart the
standard deviation is large. Heights of adults vary: most values lie within ten centimetres
of the mean, and a height lying beyond that is unusual in a small sample.
""",
]

TABLES = [
    """---
title: Asking the database
slug: asking
---

## Queries

In this lesson we write queries in SQL. Analysts write queries to answer questions about the
survey, and every table has a primary key that tells its rows apart. We will join tables too.

## Writing a query

Write queries against a small table first, and look at its primary key. Writing a query is
easier once you know the columns; a query we wrote yesterday still works today.
""",
    """---
title: Joining tables
slug: joining
---

## Many to many

Readers borrow many books, and each book has many readers. A join table holds one row per
loan: the join table's primary key is the reader and the book together. To join the tables,
we join each one to the join table. Joining twice is normal, and a table joined to itself is
fine too. You can join any two tables that share a column, and we will join three in the
exercise below.

## Practice

Now write queries of your own. Most people write queries one clause at a time. A primary key
never repeats, and a join table lists each pair once. Sketch your join table on paper before
you join anything: you will join fewer tables by mistake.
""",
]


def test_a_verb_and_its_object_is_no_candidate_but_a_noun_phrase_led_by_a_verb_is():
    """"write queries" says what the analyst does: the course writes "write" as a verb ("we
    will join", "to join", "writing", never "the write"), and the phrase never after an
    article or a preposition as a noun phrase would be, but after "we" and opening a
    clause. "join table" stays, though the course writes "join" as a verb more often than
    as a noun: it writes "a join table" and "the join table". So does "primary key"."""
    words = NgramCounts.of(low for doc in documents(course(*TABLES))
                           for _, low, _, _ in _section_facts(doc.heading, doc.body)[0])
    assert base_verb("join", words) and base_verb("write", words)  # both verbs, word by word
    found = phrases(find_candidates(course(*TABLES), {}))
    assert "write queries" not in found
    assert found["join table"] == "collocation"
    assert found["primary key"] == "collocation"


def test_a_plural_and_the_verb_it_governs_is_no_candidate():
    """"values lie" is a plural and its verb: the course writes "lie" with its -ing form
    ("lying", which English spells with a y) and never as a noun (no "a lie", "the lies").
    "standard deviation" is a term the glossary lacks."""
    found = phrases(find_candidates(course(*SPREAD), {}))
    assert "values lie" not in found
    assert found["standard deviation"] == "collocation"


PRESSURE = [
    """---
title: Espresso
slug: espresso
---

## The shot

A pump pushes water through the puck at nine bars. Most machines hold nine bars for the
whole shot, and twelve grams of coffee make a single. A pressure profile starts low.
""",
    """---
title: Profiles
slug: profiles
---

## Ramping

Some baristas ramp up to nine bars slowly; others dose twelve grams and start at nine bars
at once. A pressure profile that falls late tastes sweeter, and the pressure profile is
saved on the machine. Twelve grams is plenty.
""",
]


def test_a_number_written_in_words_begins_no_candidate():
    """"nine bars" and "twelve grams" are measures, as "9 bars" and "12 grams" are: a number
    in words begins no term, whichever number it is ("two", "ten" and "nine" alike)."""
    found = phrases(find_candidates(course(*PRESSURE), {}))
    assert "pressure profile" in found
    assert not {"nine bars", "twelve grams"} & set(found)


SCOPES = [
    """---
title: Scopes
slug: scopes
---

## Sizes

A 200 mm mirror with a 1200 mm focal length gathers plenty of light. A small refractor
with a 400 mm focal length is light to carry, and a 900 mm focal length suits planets.
Every focal length sets the image scale; read the focal length on the tube.
""",
    """---
title: Eyepieces
slug: eyepieces
---

## Power

Divide the scope's focal length by the eyepiece's: a 1000 mm focal length and a 25 mm
eyepiece give forty times. A 650 mm focal length gives less. A 10 ms exposure is short, and
a 20 ms exposure freezes the air.
""",
]


def test_a_unit_after_a_number_begins_no_candidate():
    """"1200 mm focal length" is a focal length measured in millimetres, and "10 ms exposure"
    an exposure: the unit a number is written with is no part of a term that follows it."""
    found = phrases(find_candidates(course(*SCOPES), {}))
    assert "focal length" in found
    assert not {"mm focal length", "mm focal", "ms exposure"} & set(found)


def _json_lesson(slug: str, position: int, text: str, question: str) -> str:
    return json.dumps({
        "lesson": {"slug": slug, "title": slug.title(), "position": position},
        "body": {"format": "markdown", "text": text},
        "check": {"question": question, "options": [{"text": "Yes", "correct": True},
                                                    {"text": "No", "correct": False}]}})


TIDES = [
    _json_lesson("tides", 1, "## Reading the water\n\nA skipper reads the tide table before "
                 "leaving the harbour. The tide table for the estuary is printed weekly.\n\n"
                 "## Knots\n\nA bowline holds under load and unties easily.",
                 "Why read the tide table before you leave?"),
    _json_lesson("crossing", 2, "## Timing\n\nCross the bar at slack water, when the current "
                 "stops for a while.", "What does the current do at slack water?"),
]


def test_a_phrase_in_a_check_question_is_counted_once(tmp_path):
    """The check is a hit of its own whose heading is its question ("Check: Why read the
    tide table…?"), which its text opens with: read both, each of its words counted twice,
    and "slack water", written once in a lesson and once in its check, made the three uses a
    collocation needs. Found by the build, from its cache, and without one alike."""
    lessons = tuple(read_json_lesson(text, f"lessons/{n}.json") for n, text in enumerate(TIDES))
    found = find_candidates(Course(CourseInfo("c", "C"), lessons), {})
    assert {c.phrase: c.count for c in found} == {"tide table": 3}
    (tmp_path / "lessons").mkdir()
    for n, text in enumerate(TIDES):
        (tmp_path / "lessons" / f"0{n}.json").write_text(text, encoding="utf-8")
    build_index(tmp_path / "lessons", None, tmp_path / "index")
    report = coverage_report(current_version(tmp_path / "index"), tmp_path / "index")
    assert {c.phrase: c.count for c in report.candidates} == {"tide table": 3}


CAMPING = [
    """---
title: Packing
slug: packing
---

## What to bring

- a stove (most walkers carry a Trangia or a gas canister),
- a warm hat and dry socks.

Olu Bakare at the outdoor shop sells fuel. Wendell says a spare lighter is worth its weight.
""",
    """---
title: Cooking
slug: cooking
---

## Boiling water

A Trangia burner boils a litre in about ten minutes, slower in wind. Ask Olu Bakare for
meths. Wendell says to shield the flame with your pack.
""",
]


def test_a_single_name_once_in_each_of_two_lessons_is_a_candidate():
    """"Trangia", once in a list item and once in prose, is jargon the reader meets in two
    lessons; the capital tells it from prose as its three uses would. A person ("Wendell
    says") is not, and two words need three uses ("Olu Bakare")."""
    found = find_candidates(course(*CAMPING), {})
    assert phrases(found) == {"Trangia": "capitalised"}
    (trangia,) = found
    assert [(p.lesson, p.count) for p in trangia.lessons] == [("packing", 1), ("cooking", 1)]


BINDING = [
    """---
title: Sewing
slug: sewing
---

Binders in Bruges sewed each gathering over raised cords. A kettle stitch locks the
gathering at head and tail; tie a kettle stitch at both ends. Dutch binders used linen.
""",
    """---
title: Covers
slug: covers
---

Shops in Bruges pasted leather over the boards. Pull the kettle stitch tight before the
boards go on. Italian binders preferred vellum, and French binders gilded the spine.
""",
    """---
title: Trade
slug: trade
---

Books bound in Bruges travelled by river. Italian and French buyers paid in silver.
""",
]


def test_languages_and_peoples_are_no_names_and_a_town_ranks_after_the_jargon():
    """"Bruges", in every lesson, is a place a reader looks up elsewhere: listed after
    "kettle stitch", the binder's word, though fewer lessons use that; "Italian", "French"
    and "Dutch" are no candidates at all."""
    found = find_candidates(course(*BINDING), {})
    assert [c.phrase for c in found] == ["kettle stitch", "Bruges"]


def test_a_name_see_also_gives_and_no_entry_defines_is_the_first_candidate(tmp_path):
    """The glossary's See also says "kettle stitch" and "endband" are terms; neither has an
    entry. Both lead the list, before the names, each counted where the lessons use it
    (the plural too); a name a lesson never writes is still listed."""
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    for n, text in enumerate(BINDING):
        (lessons / f"0{n}.md").write_text(text, encoding="utf-8")
    (lessons / "03.md").write_text(
        "---\ntitle: Finishing\nslug: finishing\n---\n\nTwo kettle stitches close the "
        "gathering. Gild the spine last.\n", encoding="utf-8")
    glossary = tmp_path / "glossary"
    glossary.mkdir()
    (glossary / "glossary.md").write_text(
        "gathering\n: A folded sheet sewn as one unit of the book.\n"
        "  See also: kettle stitch, endband\n", encoding="utf-8")
    build_index(lessons, glossary, tmp_path / "index")
    report = coverage_report(current_version(tmp_path / "index"), tmp_path / "index")
    assert [(c.phrase, c.kind, c.count) for c in report.candidates] == [
        ("kettle stitch", "see-also", 4), ("endband", "see-also", 0),
        ("Bruges", "capitalised", 3)]


def test_a_word_a_lesson_sets_in_italics_is_a_candidate_but_stress_is_not():
    """"*mull*" is the binder's word, marked where the lesson brings it in and written once
    more; "*really*", "*never*" and "*must*" are stress, not terms."""
    text = """---
title: Spines
slug: spines
---

Glue a strip of *mull* over the spine, and you *really* must let it dry; the mull holds
the boards. You *must* **never** rush this.
"""
    found = find_candidates(course(text), {})
    assert [(c.phrase, c.kind, c.count) for c in found] == [("mull", "marked", 2)]


def test_a_word_set_in_italics_on_a_rebuild_becomes_a_candidate(tmp_path):
    """Marking a word changes no word of the text: the build finds the candidates again
    all the same."""
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    plain = "---\ntitle: Spines\nslug: spines\n---\n\nGlue a strip of mull over the spine.\n"
    (lessons / "01.md").write_text(plain, encoding="utf-8")
    build_index(lessons, None, tmp_path / "index")
    (lessons / "01.md").write_text(plain.replace("mull", "*mull*"), encoding="utf-8")
    build_index(lessons, None, tmp_path / "index")
    report = coverage_report(current_version(tmp_path / "index"), tmp_path / "index")
    assert [c.phrase for c in report.candidates] == ["mull"]


def test_a_long_list_keeps_room_for_the_single_names():
    """Six See also names fill a list of six; "Bruges" still takes its one place of six,
    after them, and "kettle stitch" is the one left out."""
    named = ["endband", "headcap", "tailband", "turn-in", "squares", "boards"]
    found = find_candidates(course(*BINDING), {}, limit=6, named=named)
    assert [c.phrase for c in found] == ["boards", "endband", "headcap", "squares",
                                         "tailband", "Bruges"]
