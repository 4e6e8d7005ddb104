"""Corrections among the glossary's names and aliases, which the lessons may never write: a
reader searches for "netmask", an alias of subnet mask, and the index finds it through the
sections that mention the term; "netmaks" found nothing and was offered nothing, as the
spelling counts hold only the lessons' words. A name of several words is one word too, as
readers type it joined ("portforwarding"), corrected to the name.

The course is this file's own: a page on masks and one on forwarding."""

from __future__ import annotations

import pytest
from course_fixtures import open_course

LESSONS = {
    "01-masks.md": """---
title: Masks
---

## Which bits are the network

Write the prefix as four numbers and you have the subnet mask: 255.255.255.0 keeps the
first three bytes for the network and leaves the last for the hosts.
""",
    "02-forwarding.md": """---
title: Forwarding
---

## From outside in

A home router drops a connection nobody inside asked for. Port forwarding tells it to hand
the connections on one outside port to one machine on the inside.
""",
}

GLOSSARY = """# Network words

subnet mask {#subnet-mask}
: The four numbers that say which bits of an address name the network.
  Also: netmask

port forwarding {#port-forwarding}
: A router rule handing connections on one outside port to one inside machine.
"""


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory):
    with open_course(tmp_path_factory.mktemp("masks"), LESSONS, GLOSSARY) as opened:
        yield opened


def test_the_alias_itself_finds_the_section(searcher) -> None:
    found = searcher.search("netmask")
    assert [hit.heading for hit in found.results] == ["Which bits are the network"]


@pytest.mark.parametrize("query", ["netmaks", "netmsk"])
def test_a_misspelt_alias_is_corrected_to_it(searcher, query) -> None:
    found = searcher.search(query)
    assert found.suggestion == "netmask" and found.suggestion_searched
    assert [hit.heading for hit in found.results] == ["Which bits are the network"]


def test_a_misspelt_name_of_two_words_typed_as_one_is_corrected_to_the_name(searcher) -> None:
    found = searcher.search("porforwarding")
    assert found.suggestion == "port forwarding" and found.suggestion_searched
    assert [hit.heading for hit in found.results] == ["From outside in"]
