"""The Markdown reader (formats.md §2) on the fixtures in tests/data/markdown/.

Snapshots of the reader's output live in tests/data/snapshots/; regenerate them with
``LESSONSEARCH_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_reader_markdown.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_core.normalize import normalize as markdown_it_normalize
from snapshots import check_snapshot

from lessonsearch.errors import LessonFormatError
from lessonsearch.model import CodeBlock, DefinitionItem, Module
from lessonsearch.readers.markdown import _normalize, read_markdown_lesson

DATA = Path(__file__).resolve().parent / "data"
MARKDOWN = DATA / "markdown"


def read(name: str):
    return read_markdown_lesson((MARKDOWN / name).read_text(encoding="utf-8"), f"markdown/{name}")


def read_text(text: str, source: str = "lessons/03-inline.md"):
    return read_markdown_lesson(text, source)


def by_anchor(lesson, anchor):
    return next(s for s in lesson.sections if s.anchor == anchor)


@pytest.fixture(scope="module")
def lesson():
    return read("05-prompt-patterns.md")


# --- Front matter and title ---------------------------------------------------------------


def test_front_matter_fields(lesson) -> None:
    assert lesson.slug == "prompt-patterns"
    assert lesson.title == "Prompt patterns that hold up"
    assert lesson.url == "https://courses.example.test/tiny/prompt-patterns"
    assert lesson.position == 5
    assert lesson.minutes == 12
    assert lesson.key_idea == "A prompt is a program written in prose."
    assert lesson.module == Module(2, "prompting", "Prompting")
    assert lesson.format == "markdown"
    assert lesson.source == "markdown/05-prompt-patterns.md"


def test_hash_title_when_front_matter_has_none() -> None:
    lesson = read("06-untitled.md")
    assert lesson.title == "Reading a model card"
    assert lesson.slug == "untitled"  # from the file name, order prefix dropped
    assert lesson.url == ""  # the course reader derives it
    assert [s.heading for s in lesson.sections] == ["Where the numbers come from"]


def test_front_matter_title_wins_over_hash_title() -> None:
    """The ``#`` heading is no title then, but the page shows it: it heads a section, as a
    later ``#`` heading does, so its words are searched."""
    lesson = read_text("---\ntitle: From the front matter\n---\n\n# From the page\n\n## A\n\nx\n")
    assert lesson.title == "From the front matter"
    assert [s.heading for s in lesson.sections] == ["From the page", "A"]


def test_a_hash_heading_that_differs_from_the_front_matter_title_keeps_its_words() -> None:
    lesson = read_text("---\ntitle: Cold brew basics\n---\n\n# Steeping slowly\n\n"
                       "Grounds sit in cold water overnight.\n\n## Ratio\n\nOne to eight.\n")
    assert lesson.title == "Cold brew basics"
    assert [(s.heading, s.anchor, s.heading_path) for s in lesson.sections] == [
        ("Steeping slowly", "steeping-slowly", ("Steeping slowly",)),
        ("Ratio", "ratio", ("Steeping slowly", "Ratio"))]
    assert lesson.sections[0].paragraphs == ("Grounds sit in cold water overnight.",)


@pytest.mark.parametrize("heading", ["Cold brew basics", "Cold Brew: Basics", "“Cold brew” basics"])
def test_a_hash_heading_that_restates_the_front_matter_title_is_the_title(heading) -> None:
    lesson = read_text(f"---\ntitle: Cold brew basics\n---\n\n# {heading}\n\n"
                       "Grounds sit in cold water overnight.\n\n## Ratio\n\nOne to eight.\n")
    assert lesson.title == "Cold brew basics"
    assert [s.heading for s in lesson.sections] == [None, "Ratio"]


def test_title_from_slug_when_nothing_names_the_lesson() -> None:
    lesson = read_text("## Only a section\n\nSome words.\n", "lessons/07-kv-cache-basics.md")
    assert lesson.slug == "kv-cache-basics"
    assert lesson.title == "Kv cache basics"


def test_module_as_a_plain_title_and_workbench_minutes() -> None:
    lesson = read_text("---\ntitle: T\nmodule: Getting Started\nteaching: 20\nexercises: 10\n"
                       "---\n\n## H\n\nx\n")
    assert lesson.module == Module(None, "getting-started", "Getting Started")
    assert lesson.minutes == 30


@pytest.mark.parametrize(("front_matter", "line", "message"), [
    ("minutes: six\n", 3, "minutes must be a whole number, not 'six'; it is ignored"),
    ('minutes: "²"\n', 3, "minutes must be a whole number, not '²'; it is ignored"),
    ("teaching: 20\nexercises: x\n", 4,
     "exercises must be a whole number, not 'x'; it is ignored"),
    ("teaching: 1.5\nexercises: 10\n", 3,
     "teaching must be a whole number, not 1.5; it is ignored"),
])
def test_minutes_that_are_no_whole_number_are_ignored_with_a_warning(front_matter, line,
                                                                     message) -> None:
    """Not worth losing the lesson over: a word among a Workbench episode's minutes stopped
    the whole build, and "²" skipped the lesson."""
    lesson = read_text(f"---\ntitle: T\n{front_matter}---\n\n## H\n\nx\n")
    assert lesson.minutes == (20 if "teaching: 20" in front_matter else None)
    assert [str(w) for w in lesson.warnings] == [f"lessons/03-inline.md:{line}: {message}"]


def test_minutes_in_quotes_are_read_in_front_matter() -> None:
    """YAML authors quote freely; only an export, which writes a number as one, is warned."""
    lesson = read_text('---\ntitle: T\nminutes: "15"\nmodule: {title: M, index: "²"}\n---\n'
                       "\n## H\n\nx\n")
    assert (lesson.minutes, lesson.module, lesson.warnings) == (15, Module(None, "m", "M"), ())


@pytest.mark.parametrize("written", ["seven", "2.5", "true", "[3]", "²"])
def test_a_position_that_is_no_whole_number_is_ignored_with_a_warning(written: str) -> None:
    lesson = read_text(f"---\ntitle: T\nposition: {written}\n---\n\n## H\n\nx\n")
    assert lesson.position is None
    assert [str(w) for w in lesson.warnings] == [
        f"lessons/03-inline.md:3: position must be a whole number, not "
        f"{ {'seven': 'seven', '2.5': 2.5, 'true': True, '[3]': [3], '²': '²'}[written]!r}; "
        "it is "
        "ignored, and the lesson takes its place from the course file or its file name"]


def test_a_position_written_as_digits_is_a_position() -> None:
    lesson = read_text("---\ntitle: T\nposition: '4'\n---\n\n## H\n\nx\n")
    assert (lesson.position, lesson.warnings) == (4, ())


def test_a_title_or_slug_that_is_a_list_is_not_used() -> None:
    """``title: [a]`` is not the title "['a']": the ``#`` heading (or the file name) is."""
    lesson = read_text("---\nslug: {a: b}\ntitle: [Tokens]\n---\n\n# Real title\n\n## H\n\nx\n")
    assert (lesson.title, lesson.slug) == ("Real title", "inline")
    assert [str(w) for w in lesson.warnings] == [
        "lessons/03-inline.md:2: slug must be text, not {'a': 'b'}; it is ignored",
        "lessons/03-inline.md:3: title must be text, not ['Tokens']; it is ignored"]


def test_a_warning_names_the_line_of_the_key_yaml_read() -> None:
    """A key written twice is read from its last line, and a quoted key is a key: the
    warning points where the value YAML kept is written, as the glossary's do."""
    lesson = read_text('---\ntitle: First\n"slug": [a]\ntitle: [b]\n---\n\n# Head\n\nx\n')
    assert [str(w) for w in lesson.warnings] == [
        "lessons/03-inline.md:2: front matter key 'title' is written twice (lines 2 and 4); "
        "only the last, on line 4, is kept",
        "lessons/03-inline.md:3: slug must be text, not ['a']; it is ignored",
        "lessons/03-inline.md:4: title must be text, not ['b']; it is ignored"]


def test_a_front_matter_key_written_twice_is_a_warning_naming_the_one_kept() -> None:
    """YAML keeps a key's last value without a word: a second ``title:`` pasted below the
    first renamed the lesson, and nothing said so."""
    lesson = read_text("---\ntitle: Bells\nminutes: 5\ntitle: Gongs\nslug: b\nslug: c\n"
                       "slug: d\n---\n\n## Ringing\n\nA bell rings.\n")
    assert (lesson.title, lesson.slug) == ("Gongs", "d")
    assert [str(w) for w in lesson.warnings] == [
        "lessons/03-inline.md:2: front matter key 'title' is written twice (lines 2 and 4); "
        "only the last, on line 4, is kept",
        "lessons/03-inline.md:5: front matter key 'slug' is written 3 times (lines 5, 6 and "
        "7); only the last, on line 7, is kept"]


def test_a_title_that_is_no_text_and_no_heading_leave_the_slug_as_title() -> None:
    """Without a usable title or ``#`` heading, the title is the slug written as words: the
    front matter's slug when it gives one, else the file name's."""
    given = read_text("---\nslug: kv-cache\ntitle: yes\n---\n\n## H\n\nx\n",
                      "lessons/12-kv.md")
    named = read_text("---\ntitle: [a]\n---\n\n## H\n\nx\n", "lessons/12-kv.md")
    assert [(lesson.slug, lesson.title) for lesson in (given, named)] == [
        ("kv-cache", "Kv cache"), ("kv", "Kv")]
    assert [str(w) for w in given.warnings + named.warnings] == [
        "lessons/12-kv.md:3: title must be text, not True; it is ignored",
        "lessons/12-kv.md:2: title must be text, not ['a']; it is ignored"]


@pytest.mark.parametrize(("written", "title"), [
    ("1984", "1984"), ("1.10", "1.1"), ('"1.10"', "1.10"), ("2024-05-01", "2024-05-01")])
def test_a_title_written_as_a_number_is_text_as_yaml_reads_it(written: str, title: str) -> None:
    """A number or date YAML read from unquoted text is text, as YAML writes it back; quotes
    keep it as written."""
    lesson = read_text(f"---\ntitle: {written}\n---\n\n## H\n\nx\n")
    assert (lesson.title, lesson.warnings) == (title, ())


@pytest.mark.parametrize("url", ["javascript:alert(document.domain)//", " JavaScript:x",
                                 "java\\tscript:x", "data:text/html,hi", "vbscript:x"])
def test_a_url_that_is_no_web_link_is_dropped_with_a_warning(url: str) -> None:
    lesson = read_text(f'---\ntitle: T\nurl: "{url}"\n---\n\n## H\n\nx\n')
    assert lesson.url == ""  # the course gives it one (base URL and slug)
    [warning] = lesson.warnings
    assert str(warning).startswith("lessons/03-inline.md:3: url ")
    assert "is not a web link (only http:// and https:// URLs and relative links" in str(warning)


@pytest.mark.parametrize("url", ["https://learn.example.org/x", "http://h/x", "/lessons/x",
                                 "x.html", "../x"])
def test_web_links_and_relative_links_are_kept(url: str) -> None:
    lesson = read_text(f'---\ntitle: T\nurl: "{url}"\n---\n\n## H\n\nx\n')
    assert (lesson.url, lesson.warnings) == (url, ())


# --- Sections -----------------------------------------------------------------------------


def test_sections_in_order(lesson) -> None:
    assert [(s.anchor, s.level) for s in lesson.sections] == [
        (None, 0),
        ("give-the-model-a-role", 2),
        ("keep-the-role-short", 3),
        ("compare-the-patterns", 2),
        ("rewrite-a-vague-prompt", 2),
        ("solution", 2),
        ("wrap-up", 2),
        ("compare-the-patterns-1", 2),
        ("compare-the-patterns-2", 2),
    ]


def test_text_before_the_first_heading_keeps_link_text(lesson) -> None:
    intro = lesson.sections[0]
    assert (intro.anchor, intro.heading, intro.level) == (None, None, 0)
    assert intro.paragraphs == (
        "Most prompts fail for dull reasons, and the checklist catches them before the model "
        "does.",
    )
    assert "example.test" not in intro.text


def test_heading_path_follows_nesting(lesson) -> None:
    assert by_anchor(lesson, "give-the-model-a-role").heading_path == ("Give the model a role",)
    assert by_anchor(lesson, "keep-the-role-short").heading_path == (
        "Give the model a role",
        "Keep the role short",
    )
    # A later ## closes the ### above it.
    assert by_anchor(lesson, "compare-the-patterns").heading_path == ("Compare the patterns",)


def test_fenced_code_keeps_its_language(lesson) -> None:
    assert by_anchor(lesson, "give-the-model-a-role").code == (
        CodeBlock('messages = [{"role": "system", "content": "You are terse."}]', "python"),
    )
    assert read("06-untitled.md").sections[0].code == (CodeBlock("no language on this fence"),)


def test_emphasis_collects_bold_and_italic(lesson) -> None:
    assert by_anchor(lesson, "give-the-model-a-role").emphasis == ("system prompt", "role line")


def test_inline_code_is_text(lesson) -> None:
    section = by_anchor(lesson, "keep-the-role-short")
    assert section.paragraphs == ("Wrap pasted input in <document> tags & say where it ends.",)


def test_lists(lesson) -> None:
    assert by_anchor(lesson, "keep-the-role-short").list_items == (
        "One sentence is plenty.",
        "Name the audience, not the mood.",
        "numbered items count as list items too",
    )


def test_a_table_is_read_as_text(lesson) -> None:
    section = by_anchor(lesson, "compare-the-patterns")
    assert section.paragraphs == (
        "pattern | when it helps",
        "few-shot | the format is unusual",
        "step list | the task has stages",
    )


def test_a_definition_list_becomes_definitions(lesson) -> None:
    section = by_anchor(lesson, "compare-the-patterns")
    assert section.definitions == (
        DefinitionItem("few-shot prompt",
                       "A prompt that shows worked examples before the real question."),
        DefinitionItem("zero-shot prompt", "A prompt that asks directly, with no examples."),
    )
    # …and stays searchable as text.
    assert "few-shot prompt: A prompt that shows worked examples" in section.text


def test_paragraphs_lists_and_tables_keep_the_source_order_in_the_text() -> None:
    lesson = read_text(
        "## The loop\n\nIt does one thing:\n\n- read what is there;\n- guess what comes next.\n\n"
        "Then it starts again.\n\nguess\n: one pass of the loop\n\n| in | out |\n| - | - |\n"
        "| text | word |\n\n1. Stop when asked.\n\n```python\nloop()\n```\n\nThe end.\n"
    )
    assert lesson.sections[0].text.split("\n\n") == [
        "It does one thing:", "read what is there;", "guess what comes next.",
        "Then it starts again.", "guess: one pass of the loop", "in | out", "text | word",
        "Stop when asked.", "The end.",
    ]


def test_fenced_divs_mark_the_sections_inside(lesson) -> None:
    assert by_anchor(lesson, "rewrite-a-vague-prompt").callout == "challenge"
    assert by_anchor(lesson, "solution").callout == "solution"
    assert by_anchor(lesson, "solution").paragraphs == (
        "Say what better means: shorter, friendlier, or with sources.",
    )
    # Outside the divs again.
    assert by_anchor(lesson, "wrap-up").callout is None
    assert by_anchor(lesson, "give-the-model-a-role").callout is None


def test_fence_colons_never_leak_into_text(lesson) -> None:
    assert all(":::" not in s.text for s in lesson.sections)


def test_custom_heading_id(lesson) -> None:
    section = by_anchor(lesson, "wrap-up")
    assert section.heading == "Summary"
    assert section.heading_path == ("Summary",)


def test_custom_id_with_a_class() -> None:
    lesson = read_text("## Key points {#keypoints .unnumbered}\n\nx\n")
    assert (lesson.sections[0].anchor, lesson.sections[0].heading) == ("keypoints", "Key points")


HEADING_ATTRIBUTES = """# Wiring a board {#top}

## Pin names {#pins:gpio}

a

## Power rails {#power.rails}

b

## Solder joints {.unnumbered #joints}

c

## Ground loops { #ground }

d

## Caveats {.unnumbered}

e

## Fuses {-}

f

## Relays ## {#relays}

g

Setext wiring {#setext-wiring}
------------------------------

h
"""


def test_a_heading_attribute_block_gives_its_id_verbatim_and_leaves_the_text() -> None:
    """The id is the page's, whatever its characters (``:`` and ``.`` included), wherever it
    stands in the block; a block of classes only is cut from the text too."""
    lesson = read_text(HEADING_ATTRIBUTES)
    assert lesson.title == "Wiring a board"
    assert [(s.heading, s.anchor) for s in lesson.sections] == [
        ("Pin names", "pins:gpio"),
        ("Power rails", "power.rails"),
        ("Solder joints", "joints"),
        ("Ground loops", "ground"),
        ("Caveats", "caveats"),
        ("Fuses", "fuses"),
        ("Relays", "relays"),
        ("Setext wiring", "setext-wiring"),
    ]


@pytest.mark.parametrize(("line", "heading", "anchor"), [
    ("## Sets {x}", "Sets {x}", "sets-x"),  # no attribute block: text
    ("## Empty {}", "Empty {}", "empty"),
    ("## Escaped \\{#not-an-id}", "Escaped {#not-an-id}", "escaped-not-an-id"),
    ("## Call `f()`{#code-id}", "Call f()", "call-f"),  # the code span's attributes
    ('## Quoted {title="a } b" #quoted}', "Quoted", "quoted"),
    ('## Keyed {data-x="#not-this" id=keyed}', "Keyed", "keyed"),
    ("## C# {.lang}", "C#", "c"),
])
def test_what_is_and_is_not_a_heading_attribute_block(line, heading, anchor) -> None:
    section = read_text(f"{line}\n\nx\n").sections[0]
    assert (section.heading, section.anchor) == (heading, anchor)


def test_an_id_a_heading_before_takes_from_its_text_is_kept_with_a_warning() -> None:
    """The page has ``id="examples"`` on "Other": a link to ``#examples-1`` lands nowhere.
    The heading whose text gives that anchor makes way for it."""
    lesson = read_text("## Examples\n\na\n\n## Other {#examples}\n\nb\n")
    assert [(s.heading, s.anchor) for s in lesson.sections] == [
        ("Examples", "examples-1"), ("Other", "examples")]
    assert [str(w) for w in lesson.warnings] == [
        "lessons/03-inline.md:5: The id 'examples' of the heading 'Other' is the anchor the "
        "heading 'Examples' (line 1) takes from its text too; 'Other' has the anchor "
        "'examples' and 'Examples' the anchor 'examples-1', but a site that numbers headings "
        "as it meets them gives both 'examples': give one of them another id."]


def test_a_heading_after_an_id_its_text_gives_makes_way_without_a_warning() -> None:
    lesson = read_text("## Other {#examples}\n\nb\n\n## Examples\n\na\n\n## Examples\n\nc\n")
    assert [s.anchor for s in lesson.sections] == ["examples", "examples-1", "examples-2"]
    assert lesson.warnings == ()


def test_an_id_two_headings_give_is_kept_by_both_with_a_warning() -> None:
    lesson = read_text("## Setup {#setup}\n\na\n\n## Set-up again {.x #setup}\n\nb\n")
    assert [(s.heading, s.anchor) for s in lesson.sections] == [
        ("Setup", "setup"), ("Set-up again", "setup")]
    assert [str(w) for w in lesson.warnings] == [
        "lessons/03-inline.md:5: The id 'setup' of the heading 'Set-up again' is the id of the "
        "heading 'Setup' (line 1) too; both have the anchor 'setup', and a link to #setup "
        "opens 'Setup': give one of them another id."]


def test_a_numbered_anchor_is_numbered_past_an_id_given_later() -> None:
    """A heading's ``{#intro-1}`` is its own, so the second "Intro" takes ``intro-2``."""
    lesson = read_text("## Intro\n\na\n\n## Intro\n\nb\n\n## Later {#intro-1}\n\nc\n")
    assert [s.anchor for s in lesson.sections] == ["intro", "intro-2", "intro-1"]
    assert [w.line for w in lesson.warnings] == [9]


def test_repeated_headings_get_suffixes(lesson) -> None:
    repeated = [s for s in lesson.sections if s.heading == "Compare the patterns"]
    assert [s.anchor for s in repeated] == [
        "compare-the-patterns",
        "compare-the-patterns-1",
        "compare-the-patterns-2",
    ]


def test_curly_quotes_and_question_marks_in_headings() -> None:
    lesson = read_text("## Which is why “work step by step” helps\n\nx\n\n## Does it plan?\n\ny\n")
    assert [s.anchor for s in lesson.sections] == [
        "which-is-why-work-step-by-step-helps",
        "does-it-plan",
    ]


def test_hash_lines_inside_code_are_not_headings() -> None:
    lesson = read_text("## Run it\n\n```bash\n# list the files\nls -l\n```\n")
    assert [s.heading for s in lesson.sections] == ["Run it"]
    assert lesson.sections[0].code == (CodeBlock("# list the files\nls -l", "bash"),)


def test_heading_lines_are_one_based_file_lines(lesson) -> None:
    lines = (MARKDOWN / "05-prompt-patterns.md").read_text(encoding="utf-8").splitlines()
    for section in lesson.sections[1:]:
        assert lines[section.line - 1].lstrip("#").strip().startswith(section.heading)


def test_unicode_heading() -> None:
    lesson = read_text("## Größe des Vokabulars\n\nÜber 50 000 Einträge.\n")
    assert lesson.sections[0].anchor == "größe-des-vokabulars"
    assert lesson.sections[0].paragraphs == ("Über 50 000 Einträge.",)


def test_snapshot(lesson) -> None:
    check_snapshot("markdown-05-prompt-patterns.json", lesson)


def test_snapshot_untitled() -> None:
    check_snapshot("markdown-06-untitled.json", read("06-untitled.md"))


# --- What the reader refuses --------------------------------------------------------------


def test_empty_file() -> None:
    with pytest.raises(LessonFormatError, match="empty lesson file"):
        read_text("\n  \n")


def test_broken_front_matter_gives_line_and_column() -> None:
    text = "---\ntitle: Fine\nslug: [not closed\nposition: 3\n---\n\n## H\n\nx\n"
    with pytest.raises(LessonFormatError) as caught:
        read_text(text)
    err = caught.value
    assert err.path == "lessons/03-inline.md"
    # At the bracket left open, not the line below where YAML noticed it: the line at fault.
    assert (err.reason, err.line, err.column) == (
        "invalid front matter: the '[' here is not closed before line 4 (did not find "
        "expected ',' or ']')", 3, 7)


def test_front_matter_left_open_at_its_end_is_placed_where_it_opens() -> None:
    with pytest.raises(LessonFormatError) as caught:
        read_text("---\ntitle: Fine\ntags: [a, b\n---\n\n## H\n\nx\n")
    assert str(caught.value) == ("lessons/03-inline.md:3:7: invalid front matter: the '[' "
                                 "here is never closed (did not find expected ',' or ']')")
    with pytest.raises(LessonFormatError) as caught:
        read_text("---\ntitle: 'Fine\nslug: fine\n---\n\n## H\n\nx\n")
    assert str(caught.value) == ("lessons/03-inline.md:2:8: invalid front matter: the quote "
                                 "here is never closed (found unexpected end of stream)")
    with pytest.raises(LessonFormatError) as caught:  # found where it is: no bracket left open
        read_text("---\ntitle: Fine\nslug: a: b\n---\n\n## H\n\nx\n")
    assert (caught.value.line, caught.value.column) == (3, 8)


@pytest.mark.parametrize(("text", "where", "said"), [
    ("---\ntitle: Bells\n\tminutes: 5\n---\n", (3, 1), "found a tab character that "
     "violates indentation (YAML does not allow tabs for indentation: indent with spaces)"),
    ("---\ntitle: Bells\naliases:\n\t- gong\n---\n", (4, 1), "found character that "
     "cannot start any token (YAML does not allow tabs for indentation: indent with spaces)"),
    ("---\ntitle: Colon: in title\n---\n", (2, 13), "mapping values are not allowed in this "
     'context (put the value in quotes: title: "Colon: in title")'),
    ('---\nslug: b\nkey_idea: a "bell": it rings\n---\n', (3, 19), "mapping values are not "
     "allowed in this context (put the value in quotes: key_idea: 'a \"bell\": it rings')"),
])
def test_the_commonest_yaml_mistakes_are_said_in_plain_words(text, where, said) -> None:
    """A tab in an indent and a value holding ': ' unquoted gave only the parser's words
    ("found character that cannot start any token"), which say nothing of either."""
    with pytest.raises(LessonFormatError) as caught:
        read_text(text + "\n## H\n\nx\n")
    assert (caught.value.line, caught.value.column) == where
    assert caught.value.reason == f"invalid front matter: {said}"


@pytest.mark.parametrize(("block", "paragraphs", "items"), [
    ("\nIntro prose.\n\n", ("Intro prose.",), ()),
    ("- just\n- a list\n", (), ("just", "a list")),
    ("Intro prose, with no key in it.\n\n", ("Intro prose, with no key in it.",), ()),
])
def test_dashes_around_text_with_no_key_line_are_rules(block, paragraphs, items) -> None:
    """markdown-it takes any text between two ``---`` lines at the top for front matter;
    without a ``key:`` line it is a rule, the text and a rule, read like the rest."""
    lesson = read_text(f"---\n{block}---\n\n## H\n\nx\n")
    first, last = lesson.sections
    assert (first.heading, first.paragraphs, first.list_items) == (None, paragraphs, items)
    assert (last.heading, last.paragraphs) == ("H", ("x",))
    assert lesson.slug == "inline"  # nothing taken from the block


def test_front_matter_with_keys_that_yaml_cannot_read_is_still_broken() -> None:
    with pytest.raises(LessonFormatError, match="invalid front matter"):
        read_text("---\nIntro prose.\ntitle: Fine\n---\n\n## H\n\nx\n")


@pytest.mark.parametrize("opening", ["---", "-----", "---  "])
def test_front_matter_that_is_never_closed(opening: str) -> None:
    """Unclosed, markdown-it would read it as a rule and a paragraph "title: … slug: …"."""
    with pytest.raises(LessonFormatError) as caught:
        read_text(f"{opening}\ntitle: Open\nslug: open\n\n## H\n\nx\n")
    err = caught.value
    assert "front matter opened with '---' is never closed" in err.reason
    assert str(err).startswith("lessons/03-inline.md:1: ")


@pytest.mark.parametrize("text", ["--\n\n## H\n\nx\n", "--- not a fence\n\n## H\n\nx\n",
                                  "## H\n\n---\n\nx\n", "---\ntitle: T\n...\n\n## H\n\nx\n",
                                  "---\n\n## H\n\nx\n", "---\nA rule, then prose.\n\n## H\n\nx\n"])
def test_dashes_that_open_no_front_matter_or_close_it_are_no_problem(text: str) -> None:
    assert read_text(text).sections[-1].heading == "H"


@pytest.mark.parametrize("ending", ["\r\n", "\r"])
def test_windows_and_old_mac_line_endings_read_as_unix(lesson, ending) -> None:
    text = (MARKDOWN / "05-prompt-patterns.md").read_text(encoding="utf-8")
    assert read_text(text.replace("\n", ending), "markdown/05-prompt-patterns.md") == lesson


@given(st.text(alphabet="ab#*\r\n\0 ", max_size=60))
def test_line_endings_and_nul_normalized_as_markdown_it_does(text) -> None:
    ours, stock = StateCore(text, MarkdownIt(), {}), StateCore(text, MarkdownIt(), {})
    _normalize(ours)
    markdown_it_normalize(stock)
    assert ours.src == stock.src
