"""Snippets: the window with the most query words, escaped, matches in <mark>."""

from __future__ import annotations

import pytest
from course_fixtures import open_course

from lessonsearch.analysis import stem
from lessonsearch.snippets import marked_snippet, section_snippet, snippet


def marks(*words: str) -> frozenset[str]:
    return frozenset(stem(w) for w in words)


def test_matches_by_stem_and_marks_the_words_as_written():
    got = snippet("The loss was calculated after every step.", marks("calculation"))
    assert got == "The loss was <mark>calculated</mark> after every step."


def test_everything_else_is_escaped():
    got = snippet('Write <script>alert("x")</script> & a <b>cache</b> note.', marks("cache"))
    assert "<script>" not in got and "&lt;script&gt;" in got and "&amp;" in got
    assert "&lt;b&gt;<mark>cache</mark>&lt;/b&gt;" in got


def test_the_window_with_the_most_different_words_wins():
    filler = "Words about nothing in particular fill this part of the text. " * 10
    text = f"A cache appears here. {filler}Here the cache stores keys and values. {filler}"
    got = snippet(text, marks("cache", "keys", "values"), width=80)
    assert "<mark>keys</mark> and <mark>values</mark>" in got
    assert got.startswith("…") and got.endswith("…")


def test_reads_past_the_first_32k_characters():
    text = "word " * 10_000 + "the needle is here"
    assert "<mark>needle</mark>" in snippet(text, marks("needle"))


def test_no_match_no_snippet():
    assert snippet("Nothing relevant.", marks("cache")) == ""
    assert snippet("", marks("cache")) == ""


def test_blocks_that_end_without_punctuation_are_shown_apart():
    text = "The cache is full.\n\nA new cache starts.\n\nkeys\n\nvalues"
    got, at = marked_snippet(text, marks("cache"), blocks=True)
    assert got == "The <mark>cache</mark> is full. A new <mark>cache</mark> starts. keys · values"
    assert at == text.index("cache")


@pytest.fixture(scope="module")
def sample_hits(sample_searcher):
    """The sample course's hits for a query, snippets without their marks."""
    def hits(query: str) -> list[tuple[str, str | None, str]]:
        return [(hit.kind, hit.anchor, hit.snippet.replace("<mark>", "").replace("</mark>", ""))
                for hit in sample_searcher.search(query, 50).results]

    return hits


def test_check_answers_read_as_a_list(sample_hits):
    text = next(text for kind, _, text in sample_hits("logit probabilities add") if kind == "check")
    assert "they stay the same · They all rise · The top token" in text


def test_list_items_read_as_a_list(sample_hits):
    text = next(text for _, anchor, text in sample_hits("documents pasted reply")
                if anchor == "what-counts-against-the-limit")
    assert "search results pasted in · the reply itself" in text


def test_a_window_that_writes_a_phrase_whole_wins():
    filler = "Words about nothing in particular fill this part of the text. " * 5
    text = f"Each file holds data for one patient. {filler}Pass data_file to the loader."
    stems = (stem("data"), stem("file"))
    got = snippet(text, marks("data", "file"), width=80, phrases=(stems,))
    assert "<mark>data</mark>_<mark>file</mark>" in got and "patient" not in got
    assert "patient" in snippet(text, marks("data", "file"), width=80)  # without: the first


PROSE = "Look at the lease first: ipconfig shows it, with the name servers."
CODE = "ipconfig /all\nipconfig /renew"


def test_a_sections_code_is_shown_where_it_holds_more_of_the_query():
    got = section_snippet(PROSE, CODE, marks("ipconfig", "renew"))
    assert got == "<mark>ipconfig</mark> /all\n<mark>ipconfig</mark> /<mark>renew</mark>"


def test_a_sections_text_is_shown_unless_its_code_holds_all_of_its_words_and_more():
    assert section_snippet(PROSE, CODE, marks("ipconfig")).startswith("Look at the lease")
    assert section_snippet(PROSE, CODE, marks("ipconfig", "lease")).startswith("Look at")
    assert section_snippet(PROSE, CODE, marks("lease", "renew")).startswith("Look at")
    assert section_snippet("", CODE, marks("renew")).endswith("/<mark>renew</mark>")
    assert section_snippet(PROSE, CODE, marks("dhcp")) == ""


def test_words_inside_a_name_in_code_count_for_no_more_than_the_text():
    """``max_new_tokens`` names a setting; it is no passage about new tokens."""
    text = "Choose how many new words the model may add to the reply."
    code = "output = model.generate(max_new_tokens=80)"
    assert section_snippet(text, code, marks("new", "tokens")).startswith("Choose how many")
    code = "tokens = model.generate(new=80)"
    assert section_snippet(text, code, marks("new", "tokens")).startswith("<mark>tokens")


def test_code_that_alone_writes_the_querys_identifier_is_shown():
    text = "Sample once with it on, once with it off, and compare the replies."
    code = "output = model.generate(do_sample=True)"
    stems = (stem("do"), stem("sample"))
    got = section_snippet(text, code, marks("sample"), phrases=(stems,))
    assert "do_<mark>sample</mark>" in got


def test_a_name_of_several_words_is_marked_only_where_written_whole() -> None:
    """The names of a term the query names ("wireless LAN" for a search of WLAN): marked
    as a whole, never a word of it alone ("wireless" in passing is another thing)."""
    names = ((stem("wireless"), stem("lan")), (stem("wi"), stem("fi")))
    text = "A wireless mouse. The wireless LAN, or Wi-Fi, reaches the garden."
    found = snippet(text, frozenset({"wlan"}), names=names)
    assert found == ("A wireless mouse. The <mark>wireless</mark> <mark>LAN</mark>, or "
                     "<mark>Wi</mark>-<mark>Fi</mark>, reaches the garden.")


# --- A code snippet keeps its lines ------------------------------------------------------

CHECKLIST = "ip -br addr\nip route\n\n    ping -c 4 192.168.1.1\ndig +short a<b>&c.example"


def test_a_code_snippet_keeps_its_line_breaks_escaped():
    """The lines of a shell checklist ran together into one command: "ip -br addr ip route
    ping -c 4 …". Each line stays a line, its spaces squeezed, blank lines dropped."""
    got = section_snippet("Work from the bottom up.", CHECKLIST, marks("route", "dig"))
    assert got == ("ip -br addr\nip <mark>route</mark>\nping -c 4 192.168.1.1\n"
                   "<mark>dig</mark> +short a&lt;b&gt;&amp;c.example")


def test_a_long_code_snippet_keeps_its_lines_and_its_width():
    code = "\n".join(f"run step{n} --fast" for n in range(60)) + "\nrun route --fast"
    got = section_snippet("Nothing here.", code, marks("route"), width=80)
    assert got.startswith("… ") and got.endswith("<mark>route</mark> --fast")
    assert "\n" in got and len(got.replace("<mark>", "").replace("</mark>", "")) <= 80 + 20


def test_prose_snippets_still_read_as_one_line():
    got = section_snippet("The route\nwraps here\nin the source.", "", marks("route"))
    assert "\n" not in got


def test_a_section_of_code_alone_found_by_its_heading_keeps_its_lines(tmp_path):
    """No word of its code is marked, so its snippet is the code's start: its lines kept
    there too, escaped, within the snippet's length."""
    lesson = ("---\ntitle: Glazing\nslug: glazing\n---\n\n# Glazing\n\n## Stirring the bucket\n\n"
              "```sh\nglaze mix --bucket 3\nglaze test <tile>\n" + "glaze wait\n" * 40 + "```\n")
    with open_course(tmp_path, {"01-glazing.md": lesson}) as searcher:
        hit = searcher.search("stirring", 5, 1).results[0]
    assert hit.snippet.startswith("glaze mix --bucket 3\nglaze test &lt;tile&gt;\nglaze wait\n")
    assert hit.snippet.endswith(" …") and len(hit.snippet) <= 220 + 20
