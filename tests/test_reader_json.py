"""The JSON export reader (formats.md §1) on the fixtures in tests/data/json/.

Snapshots of the reader's output live in tests/data/snapshots/; regenerate them with
``LESSONSEARCH_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_reader_json.py``.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from snapshots import check_snapshot

from lessonsearch.errors import LessonFormatError
from lessonsearch.model import CheckQuestion, CodeBlock, LessonLink, Module, Option
from lessonsearch.readers.json_export import read_json_lesson

DATA = Path(__file__).resolve().parent / "data"
JSON_DIR = DATA / "json"


def read(name: str):
    return read_json_lesson((JSON_DIR / name).read_text(encoding="utf-8"), f"json/{name}")


def read_text(text: str):
    return read_json_lesson(text, "inline.json")


def by_heading(lesson, heading):
    return next(s for s in lesson.sections if s.heading == heading)


# --- An export with reader blocks --------------------------------------------------------


@pytest.fixture(scope="module")
def blocks_lesson():
    return read("08-context-length.json")


def test_metadata(blocks_lesson) -> None:
    lesson = blocks_lesson
    assert lesson.slug == "context-length"
    assert lesson.title == "How long can a prompt be?"
    assert lesson.url == "https://courses.example.test/tiny/context-length"
    assert lesson.format == "json"
    assert lesson.source == "json/08-context-length.json"
    assert lesson.position == 8
    assert lesson.minutes == 7
    assert lesson.key_idea == "The window counts tokens, not words."
    assert lesson.course is not None
    assert lesson.course.slug == "tiny-course"
    assert lesson.course.url == "https://courses.example.test/tiny"


def test_module_comes_from_the_reader(blocks_lesson) -> None:
    assert blocks_lesson.module == Module(3, "limits", "Limits")


def test_ids_are_taken_verbatim(blocks_lesson) -> None:
    anchors = [s.anchor for s in blocks_lesson.sections]
    assert anchors == [
        None,  # the paragraph before the first heading
        "the-window-is-measured-in-tokens",
        "counting-before-you-send",  # an h3 without id: derived by the rule
        "what-happens-past-it",  # the rule would give what-happens-when-you-go-past-it
        "why-truncation",  # the rule would give which-is-why-summarise-first-helps
    ]


def test_an_id_that_breaks_the_rule_is_still_the_link(blocks_lesson) -> None:
    section = by_heading(blocks_lesson, "Which is why “summarise first” helps")
    assert section.anchor == "why-truncation"
    assert blocks_lesson.section_url(section) == (
        "https://courses.example.test/tiny/context-length#why-truncation"
    )


def test_heading_runs_are_joined_and_levels_kept(blocks_lesson) -> None:
    past = by_heading(blocks_lesson, "What happens when you go past it?")
    assert past.level == 2
    h3 = by_heading(blocks_lesson, "Counting before you send")
    assert h3.level == 3
    assert h3.heading_path == ("The window is measured in tokens", "Counting before you send")


def test_text_before_the_first_heading_is_a_section_without_anchor(blocks_lesson) -> None:
    first = blocks_lesson.sections[0]
    assert (first.anchor, first.heading, first.level) == (None, None, 0)
    assert first.paragraphs == ("Every model has a limit.",)


def test_runs_join_into_one_paragraph_and_unknown_run_keys_are_ignored(blocks_lesson) -> None:
    section = by_heading(blocks_lesson, "The window is measured in tokens")
    assert section.paragraphs == (
        "The context window is how many tokens the model can attend to at once.",
    )
    assert section.code == (CodeBlock("len(tokenizer.encode(prompt))", "python"),)


def test_bold_and_italic_runs_become_emphasis(blocks_lesson) -> None:
    assert by_heading(blocks_lesson, "The window is measured in tokens").emphasis == (
        "context window",
    )
    # "marks": ["italic"] counts as well as "italic": true.
    assert by_heading(blocks_lesson, "Counting before you send").emphasis == ("same tokenizer",)
    # A run marked in a heading is part of the heading, not a definition site.
    assert by_heading(blocks_lesson, "What happens when you go past it?").emphasis == ()


def test_unknown_block_types_are_ignored(blocks_lesson) -> None:
    """An image, a divider and a bare string in ``blocks`` neither fail nor add text."""
    everything = " ".join(s.text for s in blocks_lesson.sections)
    assert "ruler" not in everything
    assert "not even an object" not in everything
    section = by_heading(blocks_lesson, "Which is why “summarise first” helps")
    assert section.paragraphs[0] == "Summaries keep the gist inside the budget."


def test_lists_and_quotes(blocks_lesson) -> None:
    section = by_heading(blocks_lesson, "What happens when you go past it?")
    assert section.list_items == ("The oldest tokens are dropped.", "Or the request is refused.")
    assert section.paragraphs == ("A window is a budget, not a goal.",)


def test_every_shape_of_list_item_is_read_in_order() -> None:
    """A string, an object with runs or text, and a bare list of runs (how the course's own
    exports write them): each is one item, its runs joined as the page shows them."""
    items = [
        [{"text": "Scale every score by "}, {"text": "one", "bold": True}, {"text": " number."}],
        "Then add them up.",
        {"runs": [{"text": "Divide by the "}, {"text": "sum"}, {"text": "."}]},
        {"text": "Read the largest."},
        [{"text": "   "}, 7, {"nope": "no text"}],  # nothing to read: no item
        [],
    ]
    lesson = read_text(json.dumps({"lesson": {"slug": "l", "title": "L"}, "reader": {"blocks": [
        {"t": "h2", "id": "steps", "runs": [{"text": "Steps"}]},
        {"t": "ol", "items": items},
    ]}}))
    steps = by_heading(lesson, "Steps")
    assert steps.list_items == ("Scale every score by one number.", "Then add them up.",
                                "Divide by the sum.", "Read the largest.")
    assert steps.emphasis == ("one",)


def test_lists_keep_their_place_among_paragraphs_in_the_text() -> None:
    lesson = read_text(json.dumps({"lesson": {"slug": "l", "title": "L"}, "reader": {"blocks": [
        {"t": "h2", "id": "loop", "runs": [{"text": "The loop"}]},
        {"t": "p", "runs": [{"text": "It does one thing:"}]},
        {"t": "ul", "items": [[{"text": "read;"}], [{"text": "guess."}]]},
        {"t": "p", "runs": [{"text": "Then it starts again."}]},
        {"t": "ol", "items": ["Stop when asked."]},
        {"t": "quote", "runs": [{"text": "The end."}]},
    ]}}))
    assert by_heading(lesson, "The loop").text.split("\n\n") == [
        "It does one thing:", "read;", "guess.", "Then it starts again.", "Stop when asked.",
        "The end.",
    ]


def test_body_text_is_not_read_when_blocks_exist(blocks_lesson) -> None:
    assert all("must not be read" not in s.text for s in blocks_lesson.sections)


def test_check_question_options_and_tempting(blocks_lesson) -> None:
    assert blocks_lesson.check == CheckQuestion(
        "What fills the context window?",
        (
            Option("Tokens of the prompt and the answer so far", True, None),
            Option(
                "Characters typed by the user",
                False,
                "Editors count characters, so it feels natural.",
            ),
            Option("Whole sentences", False, None),
        ),
    )


def test_prev_and_next(blocks_lesson) -> None:
    assert blocks_lesson.prev == LessonLink(
        "sampling", "Sampling and temperature", "https://courses.example.test/tiny/sampling"
    )
    assert blocks_lesson.next == LessonLink(
        "kv-cache", "The KV cache", "https://courses.example.test/tiny/kv-cache"
    )


def test_heading_lines_point_into_the_file(blocks_lesson) -> None:
    lines = (JSON_DIR / "08-context-length.json").read_text(encoding="utf-8").splitlines()
    section = by_heading(blocks_lesson, "The window is measured in tokens")
    assert '"the-window-is-measured-in-tokens"' in lines[section.line - 1]


def test_blocks_snapshot(blocks_lesson) -> None:
    check_snapshot("json-08-context-length.json", blocks_lesson)


# --- An export without reader blocks: body.text and derived anchors ----------------------


@pytest.fixture(scope="module")
def body_lesson():
    return read("09-planning.json")


def test_body_text_fallback_derives_anchors(body_lesson) -> None:
    assert [(s.anchor, s.heading) for s in body_lesson.sections] == [
        (None, None),
        ("which-is-why-work-step-by-step-helps", "Which is why “work step by step” helps"),
        ("does-it-plan", "Does it plan?"),
        ("does-it-plan-1", "Does it plan?"),
    ]


def test_body_text_fallback_skips_the_title_heading(body_lesson) -> None:
    assert all(s.heading != "Does the model plan ahead?" for s in body_lesson.sections)
    assert body_lesson.sections[0].paragraphs == ("A short opening before any heading.",)


def test_body_text_fallback_keeps_emphasis_and_code(body_lesson) -> None:
    steps = body_lesson.sections[1]
    assert steps.emphasis == ("scratch space",)
    assert steps.paragraphs == ("Writing the steps out gives the model scratch space to use.",)
    assert body_lesson.sections[3].code == (CodeBlock("step 1: read", "text"),)


def test_body_text_sections_point_at_the_line_of_the_text(body_lesson) -> None:
    """A JSON string is one line: every section of body.text starts on the line of "text"."""
    lines = (JSON_DIR / "09-planning.json").read_text(encoding="utf-8").splitlines()
    for section in body_lesson.sections:
        assert section.line is not None
        assert '"text"' in lines[section.line - 1]


def test_check_and_module_from_the_reader_object(body_lesson) -> None:
    assert body_lesson.module == Module(3, "limits", "Limits")
    assert body_lesson.check is not None
    assert body_lesson.check.question == "Where does the model keep its plan?"
    assert [o.correct for o in body_lesson.check.options] == [True, False]
    assert body_lesson.prev is None and body_lesson.next is None


def test_body_snapshot(body_lesson) -> None:
    check_snapshot("json-09-planning.json", body_lesson)


def test_export_with_only_lesson_and_body() -> None:
    lesson = read_text(
        json.dumps({"lesson": {"slug": "bare", "title": "Bare"},
                    "body": {"format": "markdown", "text": "## Only “one” heading\n\nText."}})
    )
    assert lesson.url == ""  # filled in by the course reader
    assert lesson.course is None and lesson.module is None and lesson.check is None
    assert [s.anchor for s in lesson.sections] == ["only-one-heading"]


def test_an_empty_block_list_falls_back_to_body_text() -> None:
    lesson = read_text(json.dumps({"lesson": {"slug": "e", "title": "E"},
                                   "body": {"text": "## From the body\n\nStill read."},
                                   "reader": {"schema": 1, "blocks": []}}))
    assert [(s.anchor, s.paragraphs) for s in lesson.sections] == [
        ("from-the-body", ("Still read.",)),
    ]


def test_an_id_two_heading_blocks_give_is_kept_by_both_with_a_warning() -> None:
    """The page puts each block's ``id`` on its heading: the second was linked as
    ``#recap-1``, an id the page does not have."""
    text = json.dumps({"lesson": {"slug": "r", "title": "R"}, "reader": {"schema": 1, "blocks": [
        {"t": "h2", "id": "recap", "runs": [{"text": "Recap"}]},
        {"t": "p", "runs": [{"text": "First."}]},
        {"t": "h2", "id": "recap", "runs": [{"text": "Recap again"}]},
        {"t": "p", "runs": [{"text": "Second."}]},
    ]}}, indent=1)
    lesson = read_text(text)
    assert [(s.heading, s.anchor) for s in lesson.sections] == [
        ("Recap", "recap"), ("Recap again", "recap")]
    first, second = (n for n, line in enumerate(text.splitlines(), 1) if '"recap"' in line)
    assert [str(w) for w in lesson.warnings] == [
        f"inline.json:{second}: The id 'recap' of the heading 'Recap again' is the id of the "
        f"heading 'Recap' (line {first}) too; both have the anchor 'recap', and a link to "
        "#recap opens 'Recap': give one of them another id."]


def test_a_heading_block_without_an_id_makes_way_for_a_later_ones() -> None:
    lesson = read_text(json.dumps({"lesson": {"slug": "r", "title": "R"}, "reader": {"blocks": [
        {"t": "h2", "runs": [{"text": "Recap"}]},
        {"t": "h2", "id": "recap", "runs": [{"text": "Summary"}]},
    ]}}))
    assert [s.anchor for s in lesson.sections] == ["recap-1", "recap"]
    assert [w.message.split(";")[0] for w in lesson.warnings] == [
        "The id 'recap' of the heading 'Summary' is the anchor the heading 'Recap' takes from "
        "its text too"]


def test_body_text_heading_ids_are_kept_with_a_warning_at_the_line_of_the_text() -> None:
    text = json.dumps({"lesson": {"slug": "b", "title": "B"},
                       "body": {"text": "## Intro\n\nx\n\n## Start {#intro}\n\ny"}}, indent=1)
    lesson = read_text(text)
    assert [(s.heading, s.anchor) for s in lesson.sections] == [
        ("Intro", "intro-1"), ("Start", "intro")]
    (warning,) = lesson.warnings
    assert '"text"' in text.splitlines()[warning.line - 1]
    assert warning.message.startswith(
        "The id 'intro' of the heading 'Start' is the anchor the heading 'Intro' takes from "
        "its text too; 'Start' has the anchor 'intro' and 'Intro' the anchor 'intro-1',")


def test_an_empty_block_list_without_body_is_an_empty_lesson() -> None:
    lesson = read_text(json.dumps({"lesson": {"slug": "e", "title": "E"},
                                   "reader": {"blocks": []}}))
    assert lesson.sections == ()


def test_blocks_without_ids_get_derived_and_unique_anchors() -> None:
    blocks = [
        {"t": "h2", "runs": [{"text": "Recap?"}]},
        {"t": "p", "runs": [{"text": "One."}]},
        {"t": "h2", "runs": [{"text": "Recap?"}]},
        {"t": "p", "runs": [{"text": "Two."}]},
    ]
    lesson = read_text(json.dumps({"lesson": {"slug": "r", "title": "R"},
                                   "reader": {"schema": 1, "blocks": blocks}}))
    assert [s.anchor for s in lesson.sections] == ["recap", "recap-1"]


def test_a_check_without_question_is_no_check() -> None:
    lesson = read_text(json.dumps({"lesson": {"slug": "c", "title": "C"},
                                   "body": {"text": "## H\n\nx"},
                                   "check": {"options": [{"text": "a", "correct": True}]}}))
    assert lesson.check is None


# --- What the reader refuses (each names the file and, where it can, the line) ------------


def test_invalid_json_gives_line_and_column() -> None:
    text = '{\n  "lesson": {"slug": "a", "title": "A",}\n}\n'
    with pytest.raises(LessonFormatError) as caught:
        read_text(text)
    err = caught.value
    assert err.path == "inline.json"
    assert (err.line, err.column) == (2, 40)  # the stray "}"
    assert "invalid JSON" in err.reason
    assert str(err).startswith("inline.json:2:40: ")


def test_a_comma_missing_at_a_line_end_is_placed_after_that_line_too() -> None:
    """Python places a missing comma at the next token, on the next line, where an editor
    finds nothing wrong: the error keeps that place and says where the value before ended."""
    text = ('{\n  "lesson": {"slug": "a", "title": "A"}\n'
            '  "body": {"text": "## Steeped"}\n}\n')
    with pytest.raises(LessonFormatError) as caught:
        read_text(text)
    assert str(caught.value) == (
        "inline.json:3:3: invalid JSON: Expecting ',' delimiter (after line 2, column 39, "
        "where the value before it ends)")


def test_a_comma_before_a_closing_bracket_on_the_next_line_is_named() -> None:
    text = '{\n  "lesson": {"slug": "a", "title": "A",\n  }\n}\n'
    with pytest.raises(LessonFormatError) as caught:
        read_text(text)
    assert str(caught.value) == (
        "inline.json:3:3: invalid JSON: Expecting property name enclosed in double quotes "
        "(after the ',' at line 2, column 39: JSON allows no comma before a closing bracket)")


@pytest.mark.parametrize("text", [
    '{\n  "lesson": {"slug": "a", "title": "A"},\n  "body": {"text": "## Steeped"}\n',
    '{\n  "lesson": {"slug": "a", "title": "A"},\n  "body": {"text": "## Steeped"},\n',
    '{\n  "lesson": {"slug": "a", "title": "A"},\n  "body": [\n',
])
def test_a_file_that_ends_inside_an_object_says_so_not_that_a_comma_is_missing(text) -> None:
    """A file cut short (or missing its last bracket) was "Expecting ',' delimiter (after line
    3, column 32, where the value before it ends)": the fix named there is a comma."""
    with pytest.raises(LessonFormatError) as caught:
        read_text(text)
    message = str(caught.value)
    assert message.endswith("(the file ends there, inside an object or a list: a closing '}' "
                            "or ']' is missing, or the file was cut short)")
    assert "where the value before it ends" not in message


def test_a_fault_on_the_line_it_is_placed_at_says_nothing_more() -> None:
    with pytest.raises(LessonFormatError) as caught:
        read_text('{"lesson": {"slug": "a" "title": "A"}}')
    assert str(caught.value) == "inline.json:1:25: invalid JSON: Expecting ',' delimiter"


@pytest.mark.parametrize(
    ("doc", "words", "line"),
    [
        ('{"lesson": {"title": "A"},\n "body": {"text": "## H"}}', "lesson.slug is missing", 1),
        ('{"lesson": {"slug": "  ", "title": "A"}}', "lesson.slug is empty (a non-empty", 1),
        ('{"lesson": {"slug": "a", "title": "A"},\n "body": {"format": "markdown", "text": ""}}',
         "body.text is empty (a non-empty string is required)", 2),
        ('{"body": {"text": "## H"}}', "lesson is missing", 1),
        ('{\n"lesson": {"slug": "a",\n "title": 7}}', "lesson.title must be a string", 3),
        ('[1, 2, 3]', "the file must be an object", 1),
        ('{"lesson": {"slug": "a", "title": "A"}}', "no lesson content", 1),
        ('{"lesson": {"slug": "a", "title": "A"},\n "reader": {"blocks": {"t": "p"}}}',
         "reader.blocks must be a list", 2),
        ('{"lesson": {"slug": "a", "title": "A"}, "body": {"text": 5}}',
         "body.text must be a string", 1),
    ],
)
def test_wrong_shapes_are_named(doc: str, words: str, line: int) -> None:
    with pytest.raises(LessonFormatError) as caught:
        read_text(doc)
    assert words in caught.value.reason
    assert caught.value.line == line


EXPORT = """{
 "course": {"slug": "c",
            "title": "Course",
            "url": "https://c.test"},
 "check": {"question": "Q?", "options": [{"text": "a"}]},
 "lesson": {"slug": "l",
            "title": "Lesson",
            "url": "https://l.test",
            "position": 1,
            "minutes": 2,
            "keyIdea": "Lesson idea"},
 "reader": {"courseTitle": "Course",
            "keyIdea": "Reader idea",
            "check": {"question": "Reader Q?",
                      "options": [{"text": "b"}]},
            "blocks": [{"t": "p", "runs": [{"text": "one"}]},
                       {"t": "p",
                        "runs": [{"text": "two"}]},
                       {"t": "ul", "items": ["three", {"runs": [{"text": "four"}]}]}]}
}
"""
NO_CHECK = ('"check": {"question": "Q?", "options": [{"text": "a"}]}', '"prev": null')


@pytest.mark.parametrize(
    ("changes", "words", "line"),
    [
        ([('"slug": "l"', '"slug": ["x"]')], "lesson.slug must be a string", 6),
        ([('"title": "Lesson"', '"title": 5')], "lesson.title must be a string", 7),
        ([('"slug": "c"', '"slug": 1')], "course.slug must be a string", 2),
        ([('"title": "Course"', '"title": 1')], "course.title must be a string", 3),
        ([('"title": "Course"', '"title": null'), ('"courseTitle": "Course"', '"courseTitle": 5')],
         "reader.courseTitle must be a string", 12),
        ([('"question": "Q?"', '"question": 4')], "check.question must be a string", 5),
        ([NO_CHECK, ('"Reader Q?"', "4")], "reader.check.question must be a string", 14),
        ([NO_CHECK, ('[{"text": "b"}]', "5")], "reader.check.options must be a list", 15),
        ([('[{"text": "two"}]', '"two"')], "reader.blocks[1].runs must be a list", 18),
        ([('[{"text": "four"}]', "{}")], "reader.blocks[2].items[1].runs must be a list", 19),
    ],
)
def test_a_nested_key_at_fault_is_named_with_its_own_line(changes, words, line) -> None:
    """Keys of the same name (``course.title``, ``lesson.title``) are told apart by path."""
    text = EXPORT
    for old, new in changes:
        assert text.count(old) == 1
        text = text.replace(old, new)
    with pytest.raises(LessonFormatError) as caught:
        read_text(text)
    assert words in caught.value.reason
    assert caught.value.line == line
    assert str(caught.value).startswith(f"inline.json:{line}: ")


@pytest.mark.parametrize(
    ("changes", "words", "line"),
    [
        ([('"position": 1', '"position": "one"')],
         "lesson.position must be a whole number, not 'one'; it is ignored", 9),
        ([('"position": 1', '"position": 2.5')], "lesson.position must be a whole number", 9),
        ([('"minutes": 2', '"minutes": 2.5')],
         "lesson.minutes must be a whole number, not 2.5; it is ignored", 10),
        ([('"minutes": 2', '"minutes": true')],
         "lesson.minutes must be a whole number, not True; it is ignored", 10),
        ([('"minutes": 2', '"minutes": "six"')],
         "lesson.minutes must be a whole number, not 'six'; it is ignored", 10),
        ([('"url": "https://l.test"', '"url": 7')],
         "lesson.url must be a URL, not 7; the lesson links to the page its course gives it", 8),
        ([('"url": "https://l.test"', '"url": "javascript:alert(document.domain)//"')],
         "lesson.url 'javascript:alert(document.domain)//' is not a web link", 8),
        ([('"url": "https://c.test"', '"url": "javascript:alert(1)"')],
         "course.url 'javascript:alert(1)' is not a web link", 4),
        ([('"Lesson idea"', "3")], "lesson.keyIdea must be text, not 3; it is ignored", 11),
        ([('"Lesson idea"', '["a"]')],
         "lesson.keyIdea must be text, not ['a']; it is ignored", 11),
        ([('"Lesson idea"', "null"), ('"Reader idea"', "3")],
         "reader.keyIdea must be text, not 3; it is ignored", 13),
    ],
)
def test_a_wrong_position_or_url_is_left_out_with_a_warning(changes, words, line) -> None:
    """The lesson is still read: a position, a reading time, a link or a key idea is not
    worth losing it over (a key idea that is not a string skipped the whole lesson, where
    an ``answer`` that is none was only ignored)."""
    text = EXPORT
    for old, new in changes:
        assert text.count(old) == 1
        text = text.replace(old, new)
    lesson = read_text(text)
    [warning] = lesson.warnings
    assert words in warning.message
    assert str(warning).startswith(f"inline.json:{line}: ")
    assert lesson.position in (1, None) and lesson.url in ("https://l.test", "")
    assert lesson.minutes in (2, None) and lesson.title == "Lesson"
    assert "javascript" not in repr(dataclasses.replace(lesson, warnings=()))


@pytest.mark.parametrize(("written", "position"), [('"5"', 5), ('" 12 "', 12), ('"0"', 0)])
def test_a_position_written_as_a_string_is_read_with_a_warning(written, position) -> None:
    """JSON says itself what is a number: an exporter that quotes one has a bug to fix,
    though the lesson still takes its place."""
    lesson = read_text(EXPORT.replace('"position": 1', f'"position": {written}'))
    assert lesson.position == position
    assert [str(w) for w in lesson.warnings] == [
        f"inline.json:9: lesson.position must be a number, not the string "
        f"{json.loads(written)!r}; it is read as {position}"]


@pytest.mark.parametrize(("written", "minutes"), [('"6"', 6), ('" 12 "', 12)])
def test_minutes_written_as_a_string_are_read_with_a_warning(written, minutes) -> None:
    """As a position in quotes: the exporter has a bug to fix, the number is still good."""
    lesson = read_text(EXPORT.replace('"minutes": 2', f'"minutes": {written}'))
    assert lesson.minutes == minutes
    assert [str(w) for w in lesson.warnings] == [
        f"inline.json:10: lesson.minutes must be a number, not the string "
        f"{json.loads(written)!r}; it is read as {minutes}"]


def test_a_neighbour_link_that_is_no_web_link_is_left_out() -> None:
    text = EXPORT.replace(*NO_CHECK).replace('"prev": null', '"prev": {"slug": "p", '
                                             '"title": "P", "url": "javascript:alert(1)"}')
    lesson = read_text(text)
    assert lesson.prev == LessonLink("p", "P", "")
    assert "prev.url 'javascript:alert(1)' is not a web link" in lesson.warnings[0].message


def test_the_export_the_nested_keys_are_checked_in_reads() -> None:
    lesson = read_text(EXPORT)
    assert (lesson.title, lesson.check.question) == ("Lesson", "Q?")
    assert lesson.sections[0].text.split("\n\n") == ["one", "two", "three", "four"]


@pytest.mark.parametrize("text", ["", "   \n\n"])
def test_empty_file(text: str) -> None:
    with pytest.raises(LessonFormatError, match="empty lesson file"):
        read_text(text)
