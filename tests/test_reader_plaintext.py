"""The plain-text reader: what a user sees of a lesson copied out of the browser."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import pytest

from lessonsearch.errors import LessonFormatError
from lessonsearch.model import CodeBlock, Lesson, Section
from lessonsearch.readers.plaintext import read_text_lesson

DATA = Path(__file__).parent / "data" / "plaintext"


def read(name: str) -> Lesson:
    """A fixture as the course reader passes it: raw bytes decoded, line endings untouched."""
    return read_text_lesson((DATA / name).read_bytes().decode("utf-8"), f"course/{name}")


def headings(lesson: Lesson) -> list[tuple[str | None, str | None]]:
    return [(section.heading, section.anchor) for section in lesson.sections]


@pytest.fixture(scope="module")
def sampling() -> Lesson:
    return read("07-sampling-temperature.txt")


@pytest.fixture(scope="module")
def tokens() -> Lesson:
    return read("12-what-a-token-is.txt")


# --- A lesson with headings ---------------------------------------------------------------


def test_lesson_fields(sampling: Lesson) -> None:
    assert sampling.title == "Temperature and the shape of a distribution"
    assert sampling.slug == "sampling-temperature"
    assert sampling.source == "course/07-sampling-temperature.txt"
    assert sampling.url == ""
    assert sampling.format == "text"


def test_headings_get_the_anchors_the_site_uses(sampling: Lesson) -> None:
    assert headings(sampling) == [
        (None, None),
        ("Scores are not probabilities", "scores-are-not-probabilities"),
        ("Why does lowering it help?", "why-does-lowering-it-help"),
        ("Try it", "try-it"),
        ("Try it", "try-it-1"),
        (
            "When “be creative” is not the same as “be random”",
            "when-be-creative-is-not-the-same-as-be-random",
        ),
    ]
    assert [s.level for s in sampling.sections] == [0, 2, 2, 2, 2, 2]
    assert sampling.sections[2].heading_path == ("Why does lowering it help?",)


def test_standfirst_opens_the_intro_section(sampling: Lesson) -> None:
    intro = sampling.sections[0]
    assert intro.paragraphs[0] == "Why does one number change how adventurous a model sounds?"
    assert intro.paragraphs[1].startswith("Every time a language model picks its next token")
    assert (intro.anchor, intro.fragment, intro.heading_path) == (None, None, ())


def test_wrapped_lines_join_into_one_paragraph(sampling: Lesson) -> None:
    assert sampling.sections[1].paragraphs[0] == (
        "The model emits one score per vocabulary entry. These scores, called logits, can be any "
        "real number: negative, zero or very large. Softmax turns them into probabilities that "
        "add up to one."
    )


def test_code_lines_become_a_code_block(sampling: Lesson) -> None:
    assert sampling.sections[1].code == (
        CodeBlock("probs = softmax(logits / t)\nnext_id = sample(probs)"),
    )
    assert sampling.sections[3].code == (
        CodeBlock("for t in (0.2, 1.5):\n    print(generate(prompt, temperature=t))"),
    )
    assert not any("next_id" in paragraph for paragraph in sampling.sections[1].paragraphs)


def test_prose_with_a_colon_and_parentheses_is_not_code(sampling: Lesson) -> None:
    scores = sampling.sections[1]
    assert scores.paragraphs[1] == (
        "Here is the idea: the model (a network) scores every token, and temperature divides "
        "all the scores before softmax."
    )
    assert len(scores.code) == 1


def test_bullets_become_list_items(sampling: Lesson) -> None:
    assert sampling.sections[2].list_items == (
        "Below 1, the top token gains probability.",
        "Above 1, unlikely tokens get a real chance and the text starts to wander.",
        "At exactly 0 most libraries switch to greedy decoding.",
    )
    assert sampling.sections[5].list_items == (
        "A creative prompt shifts which tokens score highly.",
        "A high temperature flattens whatever scores there are.",
    )


def test_bullets_keep_their_place_among_paragraphs_in_the_text() -> None:
    lesson = read_text_lesson(
        "The loop\n\nWhat it does\n\nIt does one thing, over and over again:\n\n"
        "• read what is there;\n• guess what comes next.\n\nThen it starts again.\n",
        "course/loop.txt",
    )
    assert lesson.sections[0].text.split("\n\n") == [
        "It does one thing, over and over again:", "read what is there;",
        "guess what comes next.", "Then it starts again.",
    ]


def test_bullets_keep_their_place_when_a_short_passage_joins_the_next() -> None:
    lesson = read_text_lesson(
        "The loop\n\nIn short:\n\n• read;\n• guess.\n\n"
        "Then it does it all again, one token longer each time, until:\n\n• it is told to stop.\n\n"
        "Nothing else happens inside the model, however long the answer it writes.\n",
        "course/loop.txt",
    )
    assert [s.text.split("\n\n") for s in lesson.sections] == [
        ["In short:", "read;", "guess.",
         "Then it does it all again, one token longer each time, until:", "it is told to stop."],
        ["Nothing else happens inside the model, however long the answer it writes."],
    ]


def test_a_short_sentence_is_not_a_heading(sampling: Lesson) -> None:
    last = sampling.sections[-1]
    assert "Temperature 0 is not always deterministic." in last.paragraphs
    assert len(last.paragraphs) == 3


def test_line_numbers_point_at_each_section_start(sampling: Lesson) -> None:
    assert [s.line for s in sampling.sections] == [2, 7, 18, 27, 34, 38]


def test_links_use_the_anchor(sampling: Lesson) -> None:
    lesson = dataclasses.replace(sampling, url="https://example.org/learn/t")
    assert lesson.section_url(lesson.sections[2]) == (
        "https://example.org/learn/t#why-does-lowering-it-help"
    )
    assert lesson.section_url(lesson.sections[0]) == "https://example.org/learn/t"


# --- A lesson without headings ------------------------------------------------------------


def test_each_paragraph_is_a_passage_with_a_text_fragment(tokens: Lesson) -> None:
    assert tokens.title == "What a token is"
    assert all(s.anchor is None and s.heading is None and s.level == 0 for s in tokens.sections)
    first = tokens.sections[0]
    assert first.paragraphs == (
        "The model reads text, one token at a time. A token is a chunk of characters that the "
        "tokenizer learned to treat as a unit: a whole common word, part of a rarer one, or a "
        "single byte.",
    )
    assert first.fragment is not None
    assert first.fragment.startswith(":~:text=The%20model%20reads")
    assert first.line == 3
    lesson = dataclasses.replace(tokens, url="https://example.org/learn/tokens")
    assert lesson.section_url(first) == (
        "https://example.org/learn/tokens#:~:text=The%20model%20reads%20text%2C%20one%20token"
    )


def test_a_very_short_passage_joins_the_next(tokens: Lesson) -> None:
    joined = tokens.sections[2]
    assert joined.paragraphs[0] == "That is the whole trick."
    assert joined.paragraphs[1].startswith("Counting tokens matters")
    assert joined.fragment == ":~:text=That%20is%20the%20whole%20trick."
    assert len(tokens.sections) == 5


def test_interpreter_session_stays_with_its_passage(tokens: Lesson) -> None:
    assert tokens.sections[2].code == (CodeBlock('>>> tokenizer.encode("the cat")\n[279, 8415]'),)


def test_passages_that_open_alike_get_longer_fragments(tokens: Lesson) -> None:
    so, which = tokens.sections[3].fragment, tokens.sections[4].fragment
    assert so is not None and which is not None
    assert so.endswith("letters%2C%20so")
    assert which.endswith("letters%2C%20which")


# --- Edge cases ---------------------------------------------------------------------------


def test_short_lines_and_a_heading_at_the_end() -> None:
    lesson = read("15-reading-tokenizer-output.txt")
    assert headings(lesson) == [
        (None, None),
        ("Check your tokenizer version", "check-your-tokenizer-version"),
    ]
    assert lesson.sections[0].paragraphs == ("Before you start",)  # followed by a heading
    body = lesson.sections[1]
    assert body.paragraphs[1] == "The tokenizer is deterministic."
    assert body.paragraphs[3] == (
        "A chat prompt looks like this: a system line, then the user's turn, then an open "
        "assistant turn (left empty for the model to fill)."
    )
    assert body.paragraphs[-1] == "Where it ends"  # nothing follows it, so it is no heading
    assert body.code == ()


def test_crlf_and_a_byte_order_mark_read_the_same() -> None:
    text = (DATA / "07-sampling-temperature.txt").read_bytes().decode("utf-8")
    assert "\r" not in text
    windows = "\ufeff" + text.replace("\n", "\r\n")
    assert read_text_lesson(windows, "t.txt") == read_text_lesson(text, "t.txt")


def test_a_question_after_the_title_is_a_standfirst() -> None:
    lesson = read_text_lesson(
        "Logits\n\nWhat does the last layer give us?\n\nOne raw score for every token in the "
        "vocabulary, before any softmax.\n\nA second paragraph, long enough to stand alone here.\n",
        "logits.txt",
    )
    assert [s.heading for s in lesson.sections] == [None, None]
    assert lesson.sections[0].paragraphs == (
        "What does the last layer give us?",
        "One raw score for every token in the vocabulary, before any softmax.",
    )


def test_a_statement_after_the_title_is_the_first_heading() -> None:
    lesson = read_text_lesson(
        "Logits\n\nRaw scores come first\n\nThe last layer gives one score per token.\n",
        "logits.txt",
    )
    assert headings(lesson) == [("Raw scores come first", "raw-scores-come-first")]


CACHING = (
    "Caching answers\n\nWhy wait?\n\nA cache keeps the answer to a question it has already "
    "worked out, so the next reader who asks gets it at once.\n\nHow long an answer stays\n\n"
    "Every entry has an age, and an entry older than its limit is worked out again.\n"
)


def test_a_question_after_the_title_is_the_first_heading_where_headings_follow() -> None:
    """Prose under the question, then more headings: the lesson opens with its first section,
    which keeps its heading and the anchor its page has."""
    lesson = read_text_lesson(CACHING, "course/caching.txt")
    assert headings(lesson) == [
        ("Why wait?", "why-wait"),
        ("How long an answer stays", "how-long-an-answer-stays"),
    ]
    assert lesson.sections[0].paragraphs == (
        "A cache keeps the answer to a question it has already worked out, so the next reader "
        "who asks gets it at once.",
    )
    assert lesson.sections[0].line == 3


def test_a_question_heading_first_takes_its_anchor_before_a_later_one() -> None:
    lesson = read_text_lesson(
        "Caching answers\n\nWhy wait?\n\nA cache answers at once.\n\nWhy wait?\n\n"
        "Because working it out again costs as much as the first time.\n",
        "course/caching.txt",
    )
    assert headings(lesson) == [("Why wait?", "why-wait"), ("Why wait?", "why-wait-1")]


def test_a_question_on_the_line_under_the_title_stays_the_standfirst() -> None:
    """The way to say it is a standfirst: no blank line between it and the title."""
    lesson = read_text_lesson(CACHING.replace("answers\n\nWhy", "answers\nWhy"), "c.txt")
    assert headings(lesson) == [
        (None, None),
        ("How long an answer stays", "how-long-an-answer-stays"),
    ]
    assert lesson.sections[0].paragraphs[0] == "Why wait?"
    assert lesson.sections[0].paragraphs[1].startswith("A cache keeps the answer")


def test_a_question_before_another_heading_stays_the_standfirst() -> None:
    """Straight after it comes a heading: it has no text of its own to head."""
    lesson = read_text_lesson(
        "Caching answers\n\nWhy wait?\n\nHow a cache works\n\nA cache keeps each answer it "
        "has worked out.\n\nHow long an answer stays\n\nEvery entry has an age.\n",
        "course/caching.txt",
    )
    assert headings(lesson) == [
        (None, None),
        ("How a cache works", "how-a-cache-works"),
        ("How long an answer stays", "how-long-an-answer-stays"),
    ]
    assert lesson.sections[0].paragraphs == ("Why wait?",)


def test_tabs_unicode_and_stray_control_characters() -> None:
    lesson = read_text_lesson(
        "Wie zählt ein Modell?\n\nWörter und Token\n\n"
        "Ein\tModell zählt Token,\x00 nicht Wörter.\n\nfor token in tokens:\n\tcount += 1\n",
        "de/zaehlen.txt",
    )
    assert headings(lesson) == [("Wörter und Token", "wörter-und-token")]
    assert lesson.sections[0].paragraphs == ("Ein Modell zählt Token, nicht Wörter.",)
    assert lesson.sections[0].code == (CodeBlock("for token in tokens:\n    count += 1"),)


def test_a_very_long_line_is_one_paragraph() -> None:
    line = " ".join(["token"] * 100_000) + "."
    started = time.perf_counter()
    lesson = read_text_lesson(f"Long\n\n{line}\n", "long.txt")
    assert time.perf_counter() - started < 5
    assert lesson.sections[0].paragraphs == (line,)


@pytest.mark.parametrize("first", ["# Summary", "## Summary ", "#   Summary"])
def test_a_markdown_heading_mark_is_no_part_of_the_title(first: str) -> None:
    """A Markdown lesson pasted into a text file: the same title as the original's."""
    assert read_text_lesson(f"{first}\n\nWhat we saw.\n", "s.txt").title == "Summary"
    assert read_text_lesson("#1 on the list\n\nText.\n", "n.txt").title == "#1 on the list"


def test_a_markdown_heading_mark_is_no_part_of_a_heading() -> None:
    """A Markdown lesson saved as text keeps its headings' marks: its sections are headed
    and anchored as the original's are, and a search hit shows no "##"."""
    lesson = read_text_lesson(
        "# Caching\n\nA cache keeps answers so that the next request is fast.\n\n"
        "## Why cache?\n\nThe same question asked twice is answered once.\n\n"
        "### Keys  \n\nEach entry has a key that names what it holds.\n", "c.txt")
    assert [(s.heading, s.anchor) for s in lesson.sections[1:]] == [
        ("Why cache?", "why-cache"), ("Keys", "keys")]


def test_a_title_alone_gives_no_sections() -> None:
    lesson = read_text_lesson("Just a title\n", "title.txt")
    assert (lesson.title, lesson.sections) == ("Just a title", ())


@pytest.mark.parametrize("text", ["", "   \n\t\n", "\ufeff\r\n\r\n", "\x00" + " " * 20])
def test_an_empty_file_is_an_error_naming_the_file(text: str) -> None:
    with pytest.raises(LessonFormatError, match=r"^course/empty\.txt:1: empty lesson file") as err:
        read_text_lesson(text, "course/empty.txt")
    assert (err.value.path, err.value.line) == ("course/empty.txt", 1)


def test_a_binary_file_is_an_error_naming_file_and_line() -> None:
    data = "PK\n\n" + "\x00\x03\x8f\x01" * 50 + "tail"
    with pytest.raises(LessonFormatError) as err:
        read_text_lesson(data, "course/archive.txt")
    assert str(err.value).startswith("course/archive.txt:3: looks like a binary file")
    assert err.value.line == 3


def test_sections_are_plain_frozen_data(sampling: Lesson) -> None:
    assert all(isinstance(s, Section) for s in sampling.sections)
    assert dataclasses.asdict(sampling)["sections"][1]["anchor"] == "scores-are-not-probabilities"
