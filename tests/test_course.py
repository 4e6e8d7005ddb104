"""Reading a whole course folder: order, URLs, modules, prev/next, the course file."""

from __future__ import annotations

import dataclasses
import json
import pickle
from pathlib import Path

import pytest

from lessonsearch.course import read_course, read_lesson_file
from lessonsearch.model import LessonLink, Module, StoredSections
from lessonsearch.whoosh_index import documents


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def md(title: str, extra: str = "") -> str:
    """A small Markdown lesson with its own words, so no two are taken for duplicates."""
    return (f"---\ntitle: {title}\n{extra}---\n\n"
            f"## About {title.lower()}\n\n{title} in a sentence.\n")


def slugs(read) -> list[str]:
    return [lesson.slug for lesson in read.course.lessons]


# --- The tiny fixture course ---------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny(tiny_course: Path):
    return read_course(tiny_course / "lessons")


def test_tiny_course_reads_without_problems(tiny) -> None:
    assert tiny.problems == ()
    assert slugs(tiny) == ["tokens", "sampling", "kv-cache", "notes"]
    assert [lesson.format for lesson in tiny.course.lessons] == ["markdown", "json", "text", "text"]
    assert [lesson.position for lesson in tiny.course.lessons] == [1, 2, 3, 4]


def test_tiny_course_info_and_modules(tiny) -> None:
    assert tiny.course.info.slug == "tiny-course"
    assert tiny.course.info.title == "A Tiny Course on Models"
    assert tiny.course.modules == (Module(1, "basics", "Basics"), Module(2, "memory", "Memory"))
    assert [lesson.module.slug for lesson in tiny.course.lessons] == [
        "basics", "basics", "memory", "memory",
    ]


def test_tiny_course_urls(tiny) -> None:
    urls = {lesson.slug: lesson.url for lesson in tiny.course.lessons}
    assert urls == {
        # Markdown and text lessons: the course file's base_url + slug.
        "tokens": "https://courses.example.test/tiny/tokens",
        "kv-cache": "https://courses.example.test/tiny/kv-cache",
        "notes": "https://courses.example.test/tiny/notes",
        # JSON: lesson.url, verbatim.
        "sampling": "https://courses.example.test/tiny/sampling",
    }


def test_tiny_course_prev_next(tiny) -> None:
    tokens, sampling, kv, notes = tiny.course.lessons
    assert tokens.prev is None
    assert tokens.next == LessonLink("sampling", sampling.title, sampling.url)
    assert kv.prev == LessonLink("sampling", sampling.title, sampling.url)
    assert kv.next == LessonLink("notes", notes.title, notes.url)
    assert notes.next is None
    # The export names its own next lesson; that is kept.
    assert sampling.next == LessonLink("kv-cache", "The KV cache",
                                       "https://courses.example.test/tiny/kv-cache")


# --- Order: position, then the course file, then the file name ---------------------------


def test_order_by_file_name_without_anything_else(tmp_path: Path) -> None:
    write(tmp_path, {"b-second.md": md("Beta"), "a-first.md": md("Alpha"),
                     "c-third.md": md("Gamma")})
    assert slugs(read_course(tmp_path)) == ["a-first", "b-second", "c-third"]


def test_position_beats_file_name(tmp_path: Path) -> None:
    write(tmp_path, {
        "01-one.md": md("One", "position: 3\n"),
        "02-two.md": md("Two", "position: 1\n"),
        "03-three.md": md("Three", "position: 2\n"),
    })
    read = read_course(tmp_path)
    assert slugs(read) == ["two", "three", "one"]
    assert [lesson.position for lesson in read.course.lessons] == [1, 2, 3]


def test_json_position_is_used(tmp_path: Path) -> None:
    export = {"lesson": {"slug": "late", "title": "Late", "position": 1},
              "body": {"text": "## Late words\n\nArrives first anyway."}}
    write(tmp_path, {"01-early.md": md("Early", "position: 2\n"),
                     "99-late.json": json.dumps(export)})
    assert slugs(read_course(tmp_path)) == ["late", "early"]


def test_lessonsearch_toml_module_lists_give_the_order(tmp_path: Path) -> None:
    write(tmp_path, {
        "lessonsearch.toml": (
            '[course]\ntitle = "Order test"\n\n'
            '[[module]]\ntitle = "Start here"\nlessons = ["30-intro.md", "20-middle.md"]\n\n'
            '[[module]]\nslug = "later"\ntitle = "Later on"\nlessons = ["10-end.txt"]\n'
        ),
        "10-end.txt": "The end\n\nClosing words\n\nEverything wraps up in this last passage.\n",
        "20-middle.md": md("Middle"),
        "30-intro.md": md("Intro"),
        "00-unlisted.md": md("Unlisted"),
    })
    read = read_course(tmp_path)
    # Listed lessons in the file's order; an unlisted one after them all.
    assert slugs(read) == ["intro", "middle", "end", "unlisted"]
    assert [lesson.position for lesson in read.course.lessons] == [1, 2, 3, 4]
    modules = [lesson.module for lesson in read.course.lessons]
    assert modules[:3] == [Module(1, "start-here", "Start here")] * 2 + [
        Module(2, "later", "Later on")
    ]
    assert modules[3] is None
    assert read.course.info.title == "Order test"
    assert read.course.info.slug == "order-test"


def test_course_lessons_list_in_toml(tmp_path: Path) -> None:
    write(tmp_path, {"lessonsearch.toml": '[course]\nlessons = ["b.md", "a.md"]\n',
                     "a.md": md("Alpha"), "b.md": md("Beta")})
    assert slugs(read_course(tmp_path)) == ["b", "a"]


def test_position_comes_before_the_course_file(tmp_path: Path) -> None:
    write(tmp_path, {
        "lessonsearch.toml": '[[module]]\ntitle = "M"\nlessons = ["a.md", "b.md"]\n',
        "a.md": md("Alpha"),
        "b.md": md("Beta", "position: 1\n"),
    })
    assert slugs(read_course(tmp_path))[0] == "b"


def test_position_0_is_a_position(tmp_path: Path) -> None:
    """Not "no position": a lesson at 0 opens the course instead of closing it."""
    write(tmp_path, {"01-one.md": md("One", "position: 1\n"),
                     "02-two.md": md("Two", "position: 2\n"),
                     "03-zero.md": md("Zero", "position: 0\n")})
    read = read_course(tmp_path)
    assert read.problems == ()
    assert slugs(read) == ["zero", "one", "two"]
    assert [lesson.position for lesson in read.course.lessons] == [0, 1, 2]


def test_lessons_without_a_position_take_one_no_other_lesson_has(tmp_path: Path) -> None:
    """Listed ones their place in the course file, unlisted ones the next after the lesson
    before them: never a number another lesson gives itself."""
    write(tmp_path, {
        "lessonsearch.toml": '[course]\nlessons = ["a.md", "b.txt", "c.md"]\n',
        "0-start.md": md("Start", "position: 0\n"),
        "a.md": md("Alpha", "position: 1\n"),
        "b.txt": "Beta\n\nWords about beta alone.\n",
        "c.md": md("Gamma", "position: 3\n"),
        "d.md": md("Delta", "position: 9\n"),
        "e.txt": "Epsilon\n\nWords about epsilon alone.\n",
    })
    read = read_course(tmp_path)
    assert [(x.slug, x.position) for x in read.course.lessons] == [
        ("start", 0), ("a", 1), ("b", 2), ("c", 3), ("d", 9), ("e", 10)]


def test_a_lesson_without_a_position_keeps_the_place_its_file_number_gives(tmp_path: Path
                                                                           ) -> None:
    """Plain text gives no position: its file's number does, among lessons whose positions
    are their file numbers. It went to the end of the course, after lessons 5 and 6."""
    export = {"lesson": {"slug": "knots", "title": "Knots", "position": 2},
              "body": {"text": "## Tying a bowline\n\nA loop that does not slip."}}
    write(tmp_path, {
        "01-ropes.md": md("Ropes", "position: 1\n"),
        "02-knots.json": json.dumps(export),
        "03-sails.txt": "Sails\n\nCloth that catches the wind.\n",
        "04-wind.md": md("Wind", "position: 4\n"),
        "05-tides.txt": "Tides\n\nThe sea rises and falls twice a day.\n",
    })
    read = read_course(tmp_path)
    assert read.problems == ()
    assert [(x.slug, x.position) for x in read.course.lessons] == [
        ("ropes", 1), ("knots", 2), ("sails", 3), ("wind", 4), ("tides", 5)]
    sails = read.course.lessons[2]
    assert (sails.prev.slug, sails.next.slug) == ("knots", "wind")


def test_file_numbers_order_lessons_as_numbers(tmp_path: Path) -> None:
    """``10-`` comes after ``9-``, as the course's numbering means, not before it as text."""
    write(tmp_path, {"1-start.md": md("Start", "position: 1\n"),
                     "9-middle.txt": "Middle\n\nWords of the middle.\n",
                     "10-end.txt": "End\n\nWords of the end.\n"})
    read = read_course(tmp_path)
    assert [(x.slug, x.position) for x in read.course.lessons] == [
        ("start", 1), ("middle", 9), ("end", 10)]


def test_a_lesson_with_no_place_follows_its_neighbour_by_file_name(tmp_path: Path) -> None:
    """File numbers spaced by tens are not the positions (1, 2, 3): a lesson slipped in
    between by its file name stays there, where it went to the end of the course."""
    write(tmp_path, {
        "010-rigging.md": md("Rigging", "position: 1\n"),
        "015-splicing.txt": "Splicing\n\nJoining two ropes by weaving their strands.\n",
        "020-reefing.md": md("Reefing", "position: 2\n"),
        "030-docking.md": md("Docking", "position: 3\n"),
        "glossary-notes.txt": "Notes\n\nA few words on the words used.\n",
    })
    read = read_course(tmp_path)
    assert slugs(read) == ["rigging", "splicing", "reefing", "docking", "glossary-notes"]
    # shown positions never repeat and follow the order
    assert [x.position for x in read.course.lessons] == [1, 2, 3, 4, 5]


def test_two_lessons_claiming_one_position_is_a_warning(tmp_path: Path) -> None:
    """Named with the line of each file's ``position``: the one to change is either."""
    export = {"course": {"title": "C", "position": 4},  # a key of that name, not the lesson's
              "lesson": {"slug": "d", "title": "Delta", "position": 2},
              "body": {"text": "## About delta\n\nDelta in a sentence."}}
    write(tmp_path, {"a.md": md("Alpha", "position: 2\n"), "b.md": md("Beta", "position: 1\n"),
                     "c.md": md("Gamma", "slug: c\nposition: 2\n"),
                     "d.json": json.dumps(export, indent=1),
                     "e.json": json.dumps({"course": {"title": "C"},
                                           "lesson": {"slug": "e", "title": "Eta", "position": 2},
                                           "body": {"text": "## Eta\n\nEta alone."}}, indent=1)})
    read = read_course(tmp_path)
    assert slugs(read) == ["b", "a", "c", "d", "e"]
    assert [lesson.position for lesson in read.course.lessons] == [1, 2, 3, 4, 5]  # shown apart
    assert [str(p) for p in read.problems] == [
        f"{tmp_path.name}/c.md:4: position 2 is also claimed by {tmp_path.name}/a.md:3; "
        "the two are ordered by file name",
        f"{tmp_path.name}/d.json:9: position 2 is also claimed by {tmp_path.name}/a.md:3; "
        "the two are ordered by file name",
        f"{tmp_path.name}/e.json:8: position 2 is also claimed by {tmp_path.name}/a.md:3; "
        "the two are ordered by file name"]


def test_a_position_the_course_file_disagrees_with_is_a_warning(tmp_path: Path) -> None:
    """The course file lists every lesson; a lesson that repeats its place must agree."""
    write(tmp_path, {
        "lessonsearch.toml": ('# Order of the course\n[[module]]\ntitle = "M"\n'
                              'lessons = [\n  "a.md",\n  "b.md",\n  "c.md",\n]\n'),
        "a.md": md("Alpha", "position: 1\n"),
        "b.md": md("Beta", "position: 3\n"),
        "c.md": md("Gamma"),
    })
    read = read_course(tmp_path)
    assert slugs(read) == ["a", "b", "c"]  # on a tie at 3, b's own position goes first
    toml = f"{tmp_path.name}/lessonsearch.toml"  # named as the lessons are, not absolute
    assert [str(p) for p in read.problems] == [
        f"{tmp_path.name}/b.md:3: position 3 disagrees with {toml}:6, which lists it as "
        "lesson 2; the lesson's own position is used"]


def test_a_listed_lesson_file_that_is_missing_is_a_warning(tmp_path: Path) -> None:
    """Renamed on disk but not in the course file, a lesson would otherwise lose its place
    and its module without a word."""
    write(tmp_path, {
        "lessonsearch.toml": ('[[module]]\ntitle = "M"\nlessons = [\n  "01-a.md",\n'
                              '  "02-hallucination.md",\n  "03-c.md",\n  "04-broken.json",\n]\n'),
        "01-a.md": md("Alpha"), "02-confabulation.md": md("Confabulation"), "03-c.md": md("Gamma"),
        "04-broken.json": "{",
    })
    read = read_course(tmp_path)
    missing = [p for p in read.problems if p.path.endswith("lessonsearch.toml")]
    assert [(p.line, p.message) for p in missing] == [
        (5, "lists 02-hallucination.md, but " + tmp_path.name + "/ has no such file; a lesson "
         "renamed there must be renamed here too, or it loses its place and its module")]
    # and the broken file's own warning, and the renamed file's: it is in no module
    assert sorted(p.path for p in read.problems) == sorted([
        f"{tmp_path.name}/02-confabulation.md", f"{tmp_path.name}/04-broken.json",
        f"{tmp_path.name}/lessonsearch.toml"])  # named as the lessons are, not absolute


def test_a_lesson_in_no_module_of_the_course_file_is_a_warning(tmp_path: Path) -> None:
    """A lesson added to the folder and not to the course file's modules had no module
    without a word, while every other lesson had one; it is still indexed."""
    write(tmp_path, {
        "lessonsearch.toml": ('[[module]]\ntitle = "Doughs"\nlessons = ["01-rye.md"]\n\n'
                              '[[module]]\ntitle = "Ovens"\nlessons = ["03-deck.md"]\n'),
        "01-rye.md": md("Rye"), "02-spelt.md": md("Spelt"), "03-deck.md": md("Deck ovens"),
        "04-steam.md": md("Steam", "module: Ovens\n"),  # a module of its own: no warning
        "05-cooling.txt": "Cooling racks\n\nA loaf keeps cooking on the rack for an hour.\n",
    })
    read = read_course(tmp_path)  # an absolute folder: the course file is named as the
    toml = f"{tmp_path.name}/lessonsearch.toml"  # lessons are in the one line, not absolute
    assert [(p.path, p.line, p.message) for p in read.problems] == [
        (f"{tmp_path.name}/{name}", None, f"no module lists this lesson: {toml} lists the "
         f"lessons in modules, but not {name}; it is indexed without a module (add the file "
         "to a module's lessons, or give the lesson a module of its own)")
        for name in ("02-spelt.md", "05-cooling.txt")]
    assert [(x.slug, x.module.slug if x.module else None) for x in read.course.lessons] == [
        ("rye", "doughs"), ("deck", "ovens"), ("spelt", None), ("steam", "ovens"),
        ("cooling", None)]


def test_a_course_file_without_modules_gives_no_module_warning(tmp_path: Path) -> None:
    write(tmp_path, {"lessonsearch.toml": '[course]\nlessons = ["b.md"]\n',
                     "a.md": md("Alpha"), "b.md": md("Beta")})
    assert read_course(tmp_path).problems == ()


def test_a_missing_workbench_episode_is_a_warning(tmp_path: Path) -> None:
    write(tmp_path, {"config.yaml": "title: 'Shell'\nepisodes:\n- 01-intro.md\n- 02-gone.md\n",
                     "episodes/01-intro.md": md("Introducing the shell")})
    problem, = read_course(tmp_path / "episodes").problems
    assert (problem.path, problem.line) == ("config.yaml", 4)  # beside episodes/, as named
    assert problem.message.startswith("lists 02-gone.md, but episodes/ has no such file")


def test_the_sample_course_reads_without_warnings() -> None:
    """Its lessons repeat the places and modules lessonsearch.toml gives them, and agree."""
    read = read_course(Path(__file__).resolve().parent.parent / "lessons")
    assert read.problems == ()
    assert [lesson.position for lesson in read.course.lessons] == list(range(1, 19))


def test_a_lesson_module_beats_the_course_file(tmp_path: Path) -> None:
    write(tmp_path, {
        "lessonsearch.toml": '[[module]]\ntitle = "From the file"\nlessons = ["a.md"]\n',
        "a.md": md("Alpha", "module: From the lesson\n"),
    })
    assert read_course(tmp_path).course.lessons[0].module.title == "From the lesson"


def test_a_lesson_naming_a_module_of_the_course_file_gets_that_module(tmp_path: Path) -> None:
    """``module: modelling`` in front matter is the course file's "Modelling": the course
    listed "basics" and "modelling" (titled by their slugs) beside "Modelling", and the
    search page's module list held one module twice."""
    write(tmp_path, {
        "lessonsearch.toml": '[[module]]\nindex = 1\nslug = "basics"\ntitle = "Basics"\n'
                             'lessons = ["a.md"]\n\n[[module]]\nindex = 2\n'
                             'slug = "modelling"\ntitle = "Modelling"\n'
                             'lessons = ["b.md", "c.md"]\n',
        "a.md": md("Alpha", "module: basics\n"),
        "b.md": md("Beta", "module: modelling\n"),
        "c.md": md("Gamma"),
    })
    course = read_course(tmp_path).course
    assert [(m.index, m.slug, m.title) for m in course.modules] == [
        (1, "basics", "Basics"), (2, "modelling", "Modelling")]
    assert {x.module.title for x in course.lessons[1:]} == {"Modelling"}

def test_one_module_whether_front_matter_or_an_export_names_it(tmp_path: Path) -> None:
    """Front matter names a module by its slug, an export with its index and title: one
    module, titled and placed as the export says. It was two, "seasons" and "Through the
    seasons", and the search page listed both."""
    def export(slug: str, position: int, module: dict) -> str:
        return json.dumps({"lesson": {"slug": slug, "title": slug.title(), "position": position},
                           "reader": {"module": module},
                           "body": {"text": f"## About {slug}\n\nWords on {slug} alone."}})

    write(tmp_path, {
        "1-tools.md": md("Tools", "position: 1\nmodule: kit\n"),
        "2-boots.json": export("boots", 2, {"index": 1, "slug": "kit", "title": "Your kit"}),
        "3-rain.md": md("Rain", "position: 3\nmodule: weather\n"),
        "4-snow.json": export("snow", 4, {"index": 2, "slug": "weather",
                                          "title": "Walking in all weathers"}),
        "5-maps.md": md("Maps", "position: 5\nmodule: maps\n"),
    })
    course = read_course(tmp_path).course
    assert [(m.index, m.slug, m.title) for m in course.modules] == [
        (1, "kit", "Your kit"), (2, "weather", "Walking in all weathers"),
        (None, "maps", "maps")]
    assert [x.module.title for x in course.lessons] == [
        "Your kit", "Your kit", "Walking in all weathers", "Walking in all weathers", "maps"]


def test_modules_are_listed_by_their_index(tmp_path: Path) -> None:
    """Where a module's first lesson comes before an earlier module's (a lesson placed
    early), the index still says which module comes first."""
    write(tmp_path, {
        "1-intro.md": md("Intro", "module:\n  index: 2\n  slug: later\n  title: Later\n"),
        "2-start.md": md("Start", "module:\n  index: 1\n  slug: first\n  title: First\n"),
        "3-aside.md": md("Aside", "module: aside\n"),
    })
    course = read_course(tmp_path).course
    assert [m.slug for m in course.modules] == ["first", "later", "aside"]


def test_a_reading_time_that_is_no_number_costs_a_warning_not_the_lesson(tmp_path: Path,
                                                                         ) -> None:
    """An export's ``"minutes": "6"`` skipped the lesson, and an episode's ``exercises: x``
    stopped the whole course; a position in quotes was read, with a warning."""
    export = {"lesson": {"slug": "b", "title": "Beta", "minutes": "6"},
              "body": {"text": "## About beta\n\nBeta in a sentence."}}
    write(tmp_path, {"a.md": md("Alpha", "teaching: 5\nexercises: x\n"),
                     "b.json": json.dumps(export, indent=1),
                     "c.json": json.dumps({"lesson": {"slug": "c", "title": "Gamma",
                                                      "minutes": [6]},
                                           "body": {"text": "Gamma in a sentence."}})})
    read = read_course(tmp_path)
    assert [(x.slug, x.minutes) for x in read.course.lessons] == [
        ("a", 5), ("b", 6), ("c", None)]
    assert [str(p) for p in read.problems] == [
        f"{tmp_path.name}/a.md:4: exercises must be a whole number, not 'x'; it is ignored",
        f"{tmp_path.name}/b.json:5: lesson.minutes must be a number, not the string '6'; it "
        "is read as 6",
        f"{tmp_path.name}/c.json:1: lesson.minutes must be a whole number, not [6]; it is "
        "ignored"]


def test_workbench_config_yaml_in_the_parent_folder(tmp_path: Path) -> None:
    """The Carpentries layout: ``config.yaml`` beside ``episodes/``, ``episodes:`` the order."""
    write(tmp_path, {
        "config.yaml": (
            "title: 'Shell Basics'\nurl: 'https://lessons.example.test/shell'\n"
            "episodes:\n- 02-navigate.md\n- 01-intro.md\n- 03-pipes.md\n"
            "learners:\ninstructors:\nprofiles:\n"
        ),
        "episodes/01-intro.md": md("Introducing the shell", "teaching: 5\nexercises: 0\n"),
        "episodes/02-navigate.md": md("Navigating files"),
        "episodes/03-pipes.md": md("Pipes and filters"),
    })
    read = read_course(tmp_path / "episodes")
    assert read.problems == ()
    assert slugs(read) == ["02-navigate", "01-intro", "03-pipes"]  # the file stems
    assert read.course.info.title == "Shell Basics"
    # The Workbench publishes each episode as <file stem>.html under the lesson URL.
    assert [lesson.url for lesson in read.course.lessons] == [
        "https://lessons.example.test/shell/02-navigate.html",
        "https://lessons.example.test/shell/01-intro.html",
        "https://lessons.example.test/shell/03-pipes.html",
    ]
    assert read.course.lessons[1].minutes == 5


# --- URLs -------------------------------------------------------------------------------


def test_default_base_url(tmp_path: Path) -> None:
    write(tmp_path, {"01-first.md": md("First")})
    read = read_course(tmp_path)
    assert read.course.lessons[0].url == "/lessons/first"


def test_base_url_argument(tmp_path: Path) -> None:
    write(tmp_path, {"01-first.md": md("First")})
    read = read_course(tmp_path, base_url="https://site.example.test/learn/")
    assert read.course.lessons[0].url == "https://site.example.test/learn/first"


def test_base_url_argument_beats_the_course_file(tmp_path: Path) -> None:
    write(tmp_path, {"lessonsearch.toml": '[course]\nbase_url = "https://from.toml.test/l/"\n',
                     "01-first.md": md("First")})
    assert read_course(tmp_path).course.lessons[0].url == "https://from.toml.test/l/first"
    read = read_course(tmp_path, base_url="https://from.flag.test/")
    assert read.course.lessons[0].url == "https://from.flag.test/first"


def test_base_url_without_trailing_slash(tmp_path: Path) -> None:
    write(tmp_path, {"01-first.md": md("First")})
    read = read_course(tmp_path, base_url="https://site.example.test/learn")
    assert read.course.lessons[0].url == "https://site.example.test/learn/first"


def test_front_matter_and_json_urls_are_kept(tmp_path: Path) -> None:
    export = {"lesson": {"slug": "exported", "title": "Exported",
                         "url": "https://elsewhere.test/x/exported"},
              "body": {"text": "## Exported words\n\nFrom the export."}}
    write(tmp_path, {
        "a.md": md("Alpha", "url: https://pages.test/alpha.html\n"),
        "b.json": json.dumps(export),
    })
    urls = [lesson.url for lesson in read_course(tmp_path, base_url="/ignored/").course.lessons]
    assert urls == ["https://pages.test/alpha.html", "https://elsewhere.test/x/exported"]


HOSTILE = "javascript:alert(document.domain)//"
"""A lesson URL that, clicked in the search box on a course page, would run on that page."""


def test_a_lesson_url_that_is_no_web_link_gets_the_course_s_own(tmp_path: Path) -> None:
    export = {"lesson": {"slug": "exported", "title": "Exported", "url": HOSTILE},
              "course": {"title": "C", "url": "data:text/html,<b>hi</b>"},
              "body": {"text": "## Exported words\n\nFrom the export."}}
    write(tmp_path, {"a.md": md("Alpha", f'url: "{HOSTILE}"\n'), "b.json": json.dumps(export)})
    read = read_course(tmp_path, base_url="https://site.example.test/learn/")
    assert [lesson.url for lesson in read.course.lessons] == [
        "https://site.example.test/learn/a", "https://site.example.test/learn/exported"]
    assert read.course.info.url is None
    assert [(p.path, p.line, p.skipped) for p in read.problems] == [
        (f"{tmp_path.name}/a.md", 3, False), (f"{tmp_path.name}/b.json", 1, False),
        (f"{tmp_path.name}/b.json", 1, False)]
    assert all("is not a web link" in p.message for p in read.problems)
    assert "javascript:" not in repr(read.course) and "data:" not in repr(read.course)


def test_a_lesson_url_with_a_fragment_loses_it_with_a_warning(tmp_path: Path) -> None:
    """Its sections link the page and their anchor: a fragment of the lesson's own would be
    cut off there without a word. The warning names the line of the ``url``, as one about a
    URL that is no web link does."""
    export = {"lesson": {"slug": "beta", "title": "Beta",
                         "url": "https://pages.test/beta.html#intro"},
              "body": {"text": "## About beta\n\nBeta in a sentence."}}
    write(tmp_path, {"a.md": md("Alpha", 'url: "https://pages.test/alpha.html#top"\n'),
                     "b.json": json.dumps(export, indent=1)})
    read = read_course(tmp_path)
    assert [lesson.url for lesson in read.course.lessons] == [
        "https://pages.test/alpha.html", "https://pages.test/beta.html"]
    assert [str(p) for p in read.problems] == [
        f"{tmp_path.name}/a.md:3: url 'https://pages.test/alpha.html#top' ends in a fragment "
        "('#top'); a lesson's URL is its page's, and the fragment is dropped",
        f"{tmp_path.name}/b.json:5: lesson.url 'https://pages.test/beta.html#intro' ends in a "
        "fragment ('#intro'); a lesson's URL is its page's, and the fragment is dropped"]


@pytest.mark.parametrize(("course_file", "line"), [
    ("lessonsearch.toml", 3),
    ("config.yaml", 2),
])
def test_a_course_file_base_url_that_is_no_web_link_is_not_used(tmp_path: Path,
                                                                 course_file: str,
                                                                 line: int) -> None:
    text = {"lessonsearch.toml": f'[course]\ntitle = "C"\nbase_url = "{HOSTILE}"\n'
                                 f'url = " javascript:alert(1)"\n',
            "config.yaml": f'title: C\nurl: "{HOSTILE}"\nepisodes: [01-first.md]\n'}[course_file]
    write(tmp_path, {course_file: text, "01-first.md": md("First")})
    read = read_course(tmp_path)
    page = "first" if course_file.endswith("toml") else "01-first"  # the Workbench's stem
    assert read.course.lessons[0].url == f"/lessons/{page}"
    assert read.course.info.url is None
    assert line in [p.line for p in read.problems if "base_url" in p.message
                    or course_file == "config.yaml"]
    assert all(p.path == f"{tmp_path.name}/{course_file}" and "is not a web link" in p.message
               for p in read.problems)
    assert "javascript:" not in repr(read.course)


def test_a_base_url_argument_that_is_no_web_link_is_not_used(tmp_path: Path) -> None:
    write(tmp_path, {"lessonsearch.toml": '[course]\nbase_url = "https://from.toml.test/l/"\n',
                     "01-first.md": md("First")})
    read = read_course(tmp_path, base_url="JavaScript:alert(1)//")
    assert read.course.lessons[0].url == "https://from.toml.test/l/first"
    assert [str(p) for p in read.problems] == [
        "--base-url: the base URL 'JavaScript:alert(1)//' is not a web link (only http:// and "
        "https:// URLs and relative links are served); the course file's, or /lessons/, is "
        "used instead"]


def test_section_links_use_the_lesson_url(tiny) -> None:
    tokens = tiny.course.lessons[0]
    section = next(s for s in tokens.sections if s.anchor == "what-is-a-token")
    assert tokens.section_url(section) == "https://courses.example.test/tiny/tokens#what-is-a-token"
    notes = tiny.course.lessons[3]
    assert notes.section_url(notes.sections[0]).startswith(
        "https://courses.example.test/tiny/notes#:~:text="
    )


# --- Course info and the folder ----------------------------------------------------------


def test_course_info_from_an_export_when_there_is_no_course_file(tmp_path: Path) -> None:
    export = {"course": {"slug": "exported-course", "title": "Exported Course"},
              "lesson": {"slug": "x", "title": "X"}, "body": {"text": "## X\n\nwords"}}
    write(tmp_path, {"x.json": json.dumps(export)})
    assert read_course(tmp_path).course.info.title == "Exported Course"


def test_course_info_from_the_folder_name(tmp_path: Path) -> None:
    folder = write(tmp_path / "My Course", {"a.md": md("Alpha")})
    info = read_course(folder).course.info
    assert (info.slug, info.title) == ("my-course", "My Course")


def test_hidden_files_and_the_course_file_are_not_lessons(tmp_path: Path) -> None:
    write(tmp_path, {
        "lessonsearch.toml": "[course]\n",
        ".draft.md": md("Draft"),
        ".git/config.md": md("Git"),
        "a.md": md("Alpha"),
    })
    read = read_course(tmp_path)
    assert slugs(read) == ["a"]
    assert read.problems == ()


def test_lessons_in_subfolders_are_read(tmp_path: Path) -> None:
    write(tmp_path, {"part-1/01-a.md": md("Alpha"), "part-2/01-b.md": md("Beta")})
    read = read_course(tmp_path)
    assert sorted(slugs(read)) == ["a", "b"]
    assert {lesson.source for lesson in read.course.lessons} == {
        f"{tmp_path.name}/part-1/01-a.md", f"{tmp_path.name}/part-2/01-b.md",
    }


def test_a_broken_course_file_is_a_warning_not_a_failure(tmp_path: Path) -> None:
    write(tmp_path, {"lessonsearch.toml": "[course\ntitle = 1\n", "a.md": md("Alpha")})
    read = read_course(tmp_path)
    assert slugs(read) == ["a"]
    assert len(read.problems) == 1
    assert "lessonsearch.toml" in read.problems[0].path
    assert "invalid TOML" in read.problems[0].message
    assert read.skipped == ()


def test_progress_is_reported_per_file(tmp_path: Path) -> None:
    write(tmp_path, {"a.md": md("Alpha"), "b.md": md("Beta")})
    seen: list[tuple[int, int, str]] = []
    read_course(tmp_path, on_file=lambda done, total, name: seen.append((done, total, name)))
    assert [(d, t) for d, t, _ in seen] == [(1, 2), (2, 2)]
    assert seen[-1][2].endswith("b.md")


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        ("lessonsearch.toml", '[[module]]\ntitle = "M"\nindex = "two"\nlessons = ["a.md"]\n',
         "index must be a whole number, not 'two'"),
        ("lessonsearch.toml", '[course]\nlessons = "a.md"\n',
         "course.lessons must be a list of file names"),
        ("lessonsearch.toml", '[[module]]\ntitle = "M"\nlessons = [1, 2]\n',
         "lessons must be a list of file names"),
        ("lessonsearch.toml", "course = 5\n", "[course] must be a table"),
        ("lessonsearch.toml", 'module = "x"\n', "modules must be [[module]] tables"),
        ("lessonsearch.toml", '[course]\nbase_url = 7\n', "course.base_url must be a string"),
        ("config.yaml", "episodes: 5\n", "episodes must be a list of file names"),
        ("config.yaml", "title: x\nurl: [1]\n", "url must be a string"),
        ("config.yaml", "episodes: [a.md\n", "invalid YAML"),
    ],
)
def test_a_course_file_of_the_wrong_shape_is_one_warning(
    tmp_path: Path, name: str, text: str, words: str
) -> None:
    write(tmp_path, {name: text, "a.md": md("Alpha"), "b.md": md("Beta")})
    read = read_course(tmp_path)
    assert slugs(read) == ["a", "b"]  # file-name order, default URLs
    assert read.course.lessons[0].url == "/lessons/a"
    assert len(read.problems) == 1
    assert read.problems[0].path.endswith(name)
    assert words in read.problems[0].message
    assert not read.problems[0].skipped


def test_invalid_workbench_yaml_is_one_line_with_its_place(tmp_path: Path) -> None:
    write(tmp_path, {"config.yaml": "title: x\nepisodes: [a.md\n", "a.md": md("Alpha")})
    problem, = read_course(tmp_path).problems
    assert str(problem) == (f"{tmp_path.name}/config.yaml:2:11: invalid YAML: the '[' here "
                            "is never closed (did not find expected ',' or ']')")


def test_invalid_toml_gives_line_and_column(tmp_path: Path) -> None:
    write(tmp_path, {"lessonsearch.toml": '[course]\ntitle = "ok"\nbase_url = \n',
                     "a.md": md("Alpha")})
    problem = read_course(tmp_path).problems[0]
    assert (problem.line, problem.column) == (3, 12)


def test_a_course_file_that_is_not_utf8(tmp_path: Path) -> None:
    write(tmp_path, {"a.md": md("Alpha")})
    (tmp_path / "lessonsearch.toml").write_bytes(b'[course]\ntitle = "Caf\xe9"\n')
    read = read_course(tmp_path)
    assert slugs(read) == ["a"]
    assert "not UTF-8" in read.problems[0].message
    assert read.problems[0].line == 2


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le"])
def test_a_course_file_saved_as_utf16_is_named_so(tmp_path: Path, encoding: str) -> None:
    """Without a byte order mark, UTF-16 reads as UTF-8 text with a NUL between letters."""
    write(tmp_path, {"a.md": md("Alpha")})
    (tmp_path / "lessonsearch.toml").write_text('[course]\ntitle = "Bread"\n',
                                                encoding=encoding)
    [problem] = read_course(tmp_path).problems
    assert str(problem) == (f"{tmp_path.name}/lessonsearch.toml: saved as UTF-16, not UTF-8; "
                            "save it as UTF-8")


@pytest.mark.parametrize(("name", "encoding"), [("b.md", "utf-16"), ("b.json", "utf-16-le"),
                                                ("b.txt", "utf-16-be"), ("b.md", "utf-32")])
def test_a_lesson_saved_as_utf16_is_named_so(tmp_path: Path, name: str, encoding: str) -> None:
    """Not "a binary file", which its NUL bytes made it look like, nor mojibake of its byte
    order mark."""
    write(tmp_path, {"a.md": md("Alpha")})
    (tmp_path / name).write_text(md("Beta"), encoding=encoding)
    read = read_course(tmp_path)
    assert slugs(read) == ["a"]
    wide = "UTF-32" if encoding == "utf-32" else "UTF-16"
    assert [str(p) for p in read.problems] == [
        f"{tmp_path.name}/{name}: saved as {wide}, not UTF-8; save it as UTF-8"]


def test_a_lesson_with_a_byte_order_mark_is_placed_at_its_bad_byte(tmp_path: Path) -> None:
    """The mark is not counted: the byte and its column are the file's."""
    write(tmp_path, {"a.md": md("Alpha")})
    (tmp_path / "b.md").write_bytes(b"\xef\xbb\xbf# Beta\n\nCaf\xe9 au lait.\n")
    [problem] = read_course(tmp_path).problems
    assert str(problem) == f"{tmp_path.name}/b.md:3:4: not UTF-8 text (byte 0xe9)"


def test_workbench_episodes_take_their_file_stem_as_slug(tmp_path: Path) -> None:
    """Two episodes named alike (make-novice has 03-variables and 06-variables) stay apart."""
    episodes = tmp_path / "episodes"
    episodes.mkdir()
    (tmp_path / "config.yaml").write_text(
        "title: 'Automation'\nurl: 'https://example.test/auto'\n"
        "episodes:\n- 03-variables.md\n- 06-variables.md\n")
    (episodes / "03-variables.md").write_text("---\ntitle: Variables\n---\n\nFirst look.\n")
    (episodes / "06-variables.md").write_text("---\ntitle: Variables again\n---\n\nMore.\n")
    read = read_course(episodes)
    assert [x.slug for x in read.course.lessons] == ["03-variables", "06-variables"]
    assert read.problems == ()
    assert read.course.lessons[1].url == "https://example.test/auto/06-variables.html"


# --- Sections kept pickled ------------------------------------------------------------------


def test_a_course_read_keeps_each_lessons_sections_pickled_until_one_is_read(
        tiny_course: Path) -> None:
    """Lessons come back from the readers' processes (and from a build's cache) with their
    sections still pickled beside their outline: a build needs every lesson's anchors and
    headings, but the text of only the lessons it writes again."""
    read = read_course(tiny_course / "lessons")
    for lesson in read.course.lessons:
        parsed = read_lesson_file(tiny_course / lesson.source, lesson.source)
        assert isinstance(lesson.sections, StoredSections)
        assert isinstance(parsed.sections, tuple)
        assert len(lesson.sections) == len(parsed.sections)
        assert lesson.anchors == tuple(s.anchor for s in parsed.sections if s.anchor)
        assert lesson.sections._sections is None  # nothing above unpickled them
        assert lesson.sections == parsed.sections and hash(lesson.sections) == hash(
            parsed.sections)
        assert lesson.sections[0] == parsed.sections[0] and list(lesson.sections)
    lesson = read.course.lessons[0]
    again = pickle.loads(pickle.dumps(lesson))
    assert again == lesson and again.sections.outline == lesson.sections.outline


def test_documents_made_from_outlines_are_the_documents_of_the_sections(
        tiny_course: Path) -> None:
    read = read_course(tiny_course / "lessons")
    loaded = dataclasses.replace(read.course, lessons=tuple(
        dataclasses.replace(lesson, sections=tuple(lesson.sections))
        for lesson in read_course(tiny_course / "lessons").course.lessons))
    stored = list(documents(read.course))
    assert all(lesson.sections._sections is None for lesson in read.course.lessons)
    assert [d.fields() for d in stored] == [d.fields() for d in documents(loaded)]
    assert len(stored) == 13 + sum(bool(x.check) + bool(x.key_idea or x.answer)
                                   for x in read.course.lessons)


def test_each_files_warnings_are_listed_in_line_order(tmp_path: Path) -> None:
    """A reader checks key by key (position before url and minutes) and finds a heading id
    given twice after them, and the course checks positions after every file: one export's
    warnings came as lines 4, 2, 3, 7. Each file's are listed top to bottom, files in the order
    they are read."""
    export = ('{"lesson": {"slug": "vlans", "title": "VLANs",\n'
              '  "url": "javascript:alert(1)",\n'
              '  "minutes": "eight",\n'
              '  "position": "nine"},\n'
              ' "reader": {"blocks": [\n'
              '  {"t": "h2", "id": "why", "runs": [{"text": "Why split"}]},\n'
              '  {"t": "h2", "id": "why", "runs": [{"text": "Why not"}]},\n'
              '  {"t": "p", "runs": [{"text": "Smart bulbs get few updates."}]}]}}\n')
    folder = write(tmp_path, {"00-z.md": md("Zeta", "position: 1\n"),
                              "01-a.md": md("Alpha", "position: two\nminutes: x\n"),
                              "02-vlans.json": export,
                              "03-b.md": md("Beta", "position: 1\nminutes: y\n")})
    problems = read_course(folder).problems
    assert [(p.path.rsplit("/", 1)[-1], p.line) for p in problems] == [
        ("01-a.md", 3), ("01-a.md", 4), ("02-vlans.json", 2), ("02-vlans.json", 3),
        ("02-vlans.json", 4), ("02-vlans.json", 7), ("03-b.md", 3), ("03-b.md", 4)]
    assert problems[-2].message.startswith("position 1 is also claimed by")


def test_a_lesson_of_a_title_alone_is_a_warning(tmp_path: Path) -> None:
    folder = write(tmp_path, {"01-a.md": md("Alpha"), "02-title.txt": "Just a title\n",
                              "03-heading.md": "# Only a heading\n"})
    read = read_course(folder)
    assert [lesson.title for lesson in read.course.lessons] == [
        "Alpha", "Just a title", "Only a heading"]  # listed, as before
    assert [str(p).removeprefix(f"{tmp_path.name}/") for p in read.problems] == [
        f"{name}: the lesson has no text beyond its title: it is listed among the lessons, "
        "but no search finds it" for name in ("02-title.txt", "03-heading.md")]


@pytest.mark.parametrize("given", [".", ".."])
def test_a_folder_given_as_dot_names_its_files_from_its_own_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str) -> None:
    """``--lessons .`` named a broken lesson "/02-bad.json" and said "but / has no such
    file" of a listed one: "." has no name of its own. So too ``--glossary .``."""
    from lessonsearch.glossary_source import read_glossary

    lessons = write(tmp_path / "lessons", {
        "01-grind.md": md("Grinding"),
        "02-bad.json": '{"lesson": ',
        "lessonsearch.toml": '[course]\ntitle = "Coffee"\nlessons = ["01-grind.md", '
                             '"03-gone.md"]\n',
    })
    write(tmp_path / "glossary", {"terms.md": "tamping\n: \n\nbloom\n: The first pour.\n"})
    (lessons / "drafts").mkdir()  # "..", from a folder below the lessons
    monkeypatch.chdir(lessons if given == "." else lessons / "drafts")
    read = read_course(Path(given))
    named = {problem.path for problem in read.problems}
    assert named == {"lessons/02-bad.json", "lessons/lessonsearch.toml"}, named
    assert any("lessons/ has no such file" in p.message for p in read.problems)
    monkeypatch.chdir(tmp_path / "glossary")
    _, problems = read_glossary(Path("."))
    assert [problem.path for problem in problems] == ["glossary/terms.md"]
