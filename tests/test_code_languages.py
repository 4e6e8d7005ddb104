"""A code block's language as a reader searches for it: "python" finds the sections whose
examples are fenced ``python`` (or exported with ``"lang": "py"``), below a section whose
prose is about Python; a block marked ``output`` or ``text`` is in no language; the code a
hit shows is the code alone."""

from __future__ import annotations

import json
from pathlib import Path

from course_fixtures import open_course

FENCED = """---
title: Reading files
---

## Opening a file

Open the file and read its lines one at a time.

```python
with open("notes.txt") as handle:
    lines = handle.readlines()
```

## Counting lines

Count the lines a listing prints.

```output
42 notes.txt
```

## Listing a folder

The folder's files, from a terminal.

```sh
ls -l
```

## Why Python suits scripts

Python reads almost as prose, and its standard library opens, reads and writes files.
"""

EXPORTED = {
    "lesson": {"slug": "loops", "title": "Loops", "url": "https://example.org/loops"},
    "reader": {"schema": 1, "blocks": [
        {"t": "h2", "id": "repeating-a-step", "runs": [{"text": "Repeating a step"}]},
        {"t": "p", "runs": [{"text": "A loop repeats a step for each item of a list."}]},
        {"t": "code", "lang": "py", "label": "Python",
         "text": "for item in items:\n    show(item)"},
        {"t": "h2", "id": "in-the-browser", "runs": [{"text": "In the browser"}]},
        {"t": "p", "runs": [{"text": "A page repeats a step for each button."}]},
        {"t": "code", "lang": "js", "text": "buttons.forEach(show);"},
    ]},
}


def course(tmp_path: Path):
    return open_course(tmp_path, {"files.md": FENCED, "loops.json": json.dumps(EXPORTED)})


def anchors(response) -> list[str | None]:
    return [hit.anchor for hit in response.results]


def test_a_fence_language_finds_its_sections_below_prose_about_it(tmp_path):
    with course(tmp_path) as searcher:
        found = anchors(searcher.search("python", limit=10))
        assert found[0] == "why-python-suits-scripts"  # the prose is about it
        assert set(found) == {"why-python-suits-scripts", "opening-a-file", "repeating-a-step"}


def test_a_short_language_name_is_searched_by_its_full_name(tmp_path):
    with course(tmp_path) as searcher:
        assert anchors(searcher.search("javascript")) == ["in-the-browser"]
        assert anchors(searcher.search("shell")) == ["listing-a-folder"]
        assert anchors(searcher.search("python loop")) == ["repeating-a-step"]


def test_a_block_in_no_language_adds_no_word(tmp_path):
    with course(tmp_path) as searcher:
        assert "counting-lines" not in anchors(searcher.search("output", limit=10))


def test_the_snippet_shows_the_section_not_the_language_name(tmp_path):
    with course(tmp_path) as searcher:
        hit = searcher.search("python loop").results[0]
        assert "<mark>loop</mark> repeats" in hit.snippet
        assert "python" not in hit.snippet.lower()
