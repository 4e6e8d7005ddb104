"""A reader pastes the traceback their program printed: the search is for the error it ends
with, not for its file paths and the reader's own lines of code.

The course is this file's own: a lesson on reading errors and one on loading data."""

from __future__ import annotations

import pytest
from course_fixtures import built_course, first, open_course
from web_fixtures import serving

from lessonsearch.query import traceback_error

LESSONS = {
    "01-loading.md": """---
title: Loading survey data
---

## Reading a table from a file

We load each station's readings with a function that takes the file's name and a delimiter,
and returns the table. Every file of the survey sits in the data folder, one per station,
and the main function loops over the names given on the command line.

## Choosing columns

A table's columns are picked by name once the readings are loaded.
""",
    "02-errors.md": """---
title: Reading error messages
---

## When a file is missing

Python raises a FileNotFoundError when the name you gave matches no file: check the folder
you started the program from, and the spelling of the name.

## Names that are not defined

A NameError means you used a variable before giving it a value, or misspelt its name.
""",
}

TRACEBACK = """Traceback (most recent call last):
  File "/home/ana/survey/run_all_stations.py", line 42, in <module>
    main(sys.argv[1:])
  File "/home/ana/survey/run_all_stations.py", line 31, in main
    table = load_station(filename, delimiter=",")
  File "/home/ana/survey/loading.py", line 12, in load_station
    return read_table(open(filename), delimiter)
FileNotFoundError: [Errno 2] No such file or directory: 'station-13.csv'"""


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory):
    with open_course(tmp_path_factory.mktemp("survey"), LESSONS) as opened:
        yield opened


@pytest.mark.parametrize(("pasted", "error"), [
    (TRACEBACK, ("FileNotFoundError",
                 "FileNotFoundError: [Errno 2] No such file or directory: 'station-13.csv'")),
    # pasted into a one-line box, which joins the lines with spaces
    (" ".join(TRACEBACK.split()), ("FileNotFoundError", "FileNotFoundError: [Errno 2] No "
                                   "such file or directory: 'station-13.csv'")),
    # Jupyter's, whose first line names the error too
    ("NameError    Traceback (most recent call last)\nCell In[3], line 1\n----> 1 print(total)"
     "\n\nNameError: name 'total' is not defined", ("NameError",
                                                   "NameError: name 'total' is not defined")),
    # chained: the last traceback's error; a dotted name is the exception's own
    ("Traceback (most recent call last):\n  File \"a.py\", line 2, in <module>\n    x = d['k']"
     "\nKeyError: 'k'\n\nDuring handling of the above exception, another exception occurred:"
     "\n\nTraceback (most recent call last):\n  File \"a.py\", line 4, in <module>\n"
     "    raise ValueError(text)\nnumpy.linalg.LinAlgError: Singular matrix",
     ("LinAlgError", "numpy.linalg.LinAlgError: Singular matrix")),
])
def test_the_error_a_traceback_ends_with(pasted: str, error: tuple[str, str]) -> None:
    assert traceback_error(pasted) == error


@pytest.mark.parametrize("text", [
    "what does Traceback (most recent call last) mean",  # no error after it
    "FileNotFoundError: no such file",  # an error alone is searched as it is
    "file not found",
])
def test_a_text_that_is_no_traceback_is_searched_as_it_is(text: str) -> None:
    assert traceback_error(text) is None


def test_a_pasted_traceback_finds_the_section_on_its_error(searcher) -> None:
    """Its paths and the reader's code ("main", "delimiter", "loads") found the lesson on
    loading data first; the course explains the error in another."""
    found = searcher.search(TRACEBACK)
    assert first(found) == ("errors", "when-a-file-is-missing")
    assert found.left_out is not None and found.left_out.error == "FileNotFoundError"
    assert found.left_out.notice.startswith(
        'Searched the error the traceback ends with, "FileNotFoundError"; its other ')


def test_an_error_the_course_does_not_name_is_searched_with_its_message(searcher) -> None:
    pasted = ("Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\n"
              "    pick(table)\nIndexError: the columns of the table are out of range")
    found = searcher.search(pasted)
    assert found.left_out.error == "IndexError: the columns of the table are out of range"
    assert first(found) == ("loading", "choosing-columns")


def test_a_traceback_of_many_quoted_paths_is_searched_not_refused(tmp_path) -> None:
    """Each frame's path is in quotes: more than eight were "too many phrases", a 400."""
    frames = "".join(f'  File "/srv/app/step{n}.py", line {n}, in step{n}\n    step{n + 1}()\n'
                     for n in range(12))
    pasted = f"Traceback (most recent call last):\n{frames}NameError: name 'step12' is not defined"
    with serving(built_course(tmp_path, LESSONS)) as client:
        answer = client.get("/api/search", query_string={"q": pasted})
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["left_out"]["error"] == "NameError"
    assert body["left_out"]["searched"] == 1
    assert body["results"][0]["url"].endswith("#names-that-are-not-defined")
