"""A command pasted with its flags (``df -h``, ``tar -xzf``, ``head -n 20``): the flag is
part of the command the course documents, not a word to exclude. Read as ``-word``, it hid
the very section that writes the command: ``df -h`` found nothing, ``tar -xzf`` found the
other tar sections only. A minus the course never writes after that word (``cache -swap``)
still excludes, even where the course writes the two words side by side without it.

The course is this file's own: a short guide to a Linux machine's disks and files."""

from __future__ import annotations

import pytest
from course_fixtures import open_course

LESSONS = {
    "01-disks.md": """---
title: Disks and space
---

## How full is the disk?

```sh
df -h
```

Each mounted filesystem gets a line with its size, what is used and what is free, in units a
person reads at a glance.

## What takes the space

Run `du -sh ~/Downloads` to add up one folder. The page cache, swap and all, is memory, not
disk: it never shows here.

## Memory is not disk

`free` reports memory, and the cache it lists is handed back the moment a program asks.
""",
    "02-archives.md": """---
title: Archives
---

## Packing

`tar -czf photos.tar.gz photos/` writes one compressed archive of a folder.

## Unpacking

```sh
tar -xzf photos.tar.gz
```

The files come back where the archive says, beside the working folder.

## Listing

Read an archive without unpacking it with `tar -tzf`, one path a line.
""",
    "03-logs.md": """---
title: Reading logs
---

## The last lines

```sh
head -n 20 /var/log/syslog
```

Twenty lines from the start of the system log; tail gives the end.

## Following a log

Tail with follow keeps printing lines as they arrive, until you stop it.
""",
}


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory):
    with open_course(tmp_path_factory.mktemp("disks"), LESSONS) as opened:
        yield opened


def headings(found) -> list[str]:
    return [hit.heading for hit in found.results]


@pytest.mark.parametrize(("query", "section"), [
    ("df -h", "How full is the disk?"),
    ("du -sh", "What takes the space"),
    ("tar -xzf", "Unpacking"),
    ("tar -xzf photos", "Unpacking"),
])
def test_a_pasted_command_finds_the_section_that_writes_it(searcher, query, section) -> None:
    found = searcher.search(query)
    assert headings(found) == [section]
    assert not found.relaxed


def test_a_flag_with_a_value_after_it_keeps_every_word(searcher) -> None:
    found = searcher.search("head -n 20")
    assert headings(found) == ["The last lines"]
    assert not found.relaxed  # "-n" excluded, no section had every word


def test_a_flag_is_marked_with_its_command_in_the_snippet(searcher) -> None:
    snippet = searcher.search("tar -xzf").results[0].snippet
    assert "<mark>tar</mark> -<mark>xzf</mark>" in snippet


def test_a_flag_and_a_word_to_exclude_in_one_query(searcher) -> None:
    """Only a minus the course writes after that word is a flag: "The page cache, swap and
    all" writes the words side by side, not "cache -swap", and "photos.tar.gz" no "-gz"."""
    assert headings(searcher.search("df -h -swap")) == ["How full is the disk?"]
    assert headings(searcher.search("tar -xzf -photos")) == []
    assert headings(searcher.search("cache -swap")) == ["Memory is not disk"]
    assert headings(searcher.search("tar -gz")) == ["Listing"]


def test_a_pasted_command_is_a_search_that_answers(searcher) -> None:
    """The coverage report lists a logged search that finds nothing: "df -h" finds its
    section now."""
    assert searcher.answers("df -h")
    assert not searcher.answers("tar -xzf -photos")


def test_a_flag_typed_after_another_word_is_searched_as_written_and_said(searcher) -> None:
    """The course writes "du -sh", not "Downloads -sh": read as a word to exclude, the flag
    left nothing; searched as written, the reader is told so."""
    found = searcher.search("du ~/Downloads -sh")
    assert headings(found) == ["What takes the space"]
    assert found.query == "du ~/Downloads -sh"
    assert (found.suggestion, found.suggestion_searched) == ('du ~/Downloads "-sh"', True)
    assert searcher.search("du ~/Downloads -cache").total == 0  # "cache" is no flag here


def test_a_correction_beside_a_flag_keeps_the_query_as_typed(searcher) -> None:
    found = searcher.search("tar -xzf phtos")
    assert headings(found) == ["Unpacking"]
    assert found.suggestion == "tar -xzf photos"
