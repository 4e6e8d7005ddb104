"""Reading the glossary folder: definition lists, one-term files, and what goes wrong."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from web_fixtures import serving

from lessonsearch.build import build_index
from lessonsearch.glossary_source import read_glossary

FIXTURE = Path(__file__).parent / "data" / "glossary"
CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"


@pytest.fixture(scope="module")
def glossary():
    entries, problems = read_glossary(FIXTURE)
    return {e.term: e for e in entries}, problems


def test_reads_every_entry_of_every_file_in_file_then_line_order(glossary):
    entries, _ = glossary
    assert list(entries) == [
        "mise en place", "station", "brigade", "low and slow", "sous vide", "roux",
        "emulsion", "blanching",
    ]


def test_term_line_forms_give_term_and_anchor(glossary):
    entries, _ = glossary
    assert entries["mise en place"].anchor == "mise-en-place"  # term {#anchor}
    assert entries["station"].anchor == "station"  # [term]{#anchor}
    assert entries["brigade"].anchor == "brigade"  # [term](#anchor)
    assert entries["low and slow"].anchor is None  # plain term


def test_source_names_folder_file_and_term_line(glossary):
    entries, _ = glossary
    assert entries["mise en place"].source == "glossary/kitchen.md:10"
    assert entries["blanching"].source == "glossary/terms/blanching.md:2"


def test_continuation_lines_join_and_markup_becomes_plain_text(glossary):
    entries, _ = glossary
    assert entries["mise en place"].definition == (
        "Having every ingredient measured and every tool ready before the first pan goes on "
        "the heat."
    )
    assert entries["low and slow"].definition.startswith("Cooking at a low temperature")


def test_also_and_see_also_lines_give_aliases_and_links_without_markdown(glossary):
    entries, _ = glossary
    assert entries["mise en place"].aliases == ("mise", "prep")
    assert entries["mise en place"].see_also == ("station", "brigade")
    assert entries["brigade"].see_also == ("station",)
    assert "See also" not in entries["brigade"].definition


def test_abbreviation_written_after_the_term_becomes_an_alias(glossary):
    entries, _ = glossary
    assert entries["sous vide"].aliases == ("SV",)


def test_one_term_per_file_front_matter(glossary):
    entries, _ = glossary
    entry = entries["blanching"]
    assert entry.definition.startswith("Boiling food briefly")
    assert entry.aliases == ("blanch", "blanched")
    assert entry.see_also == ("shocking",)
    assert entry.anchor == "blanching"


def test_headings_prose_and_code_fences_are_not_terms(glossary):
    entries, _ = glossary
    assert "not a term" not in entries
    assert not any("Kitchen" in term or "Sauces" in term for term in entries)


def test_definition_without_a_term_is_reported_with_its_line(glossary):
    _, problems = glossary
    orphan = [p for p in problems if "no term" in p.message]
    assert [(p.path, p.line) for p in orphan] == [("glossary/kitchen.md", 36)]


def test_conflicting_definitions_keep_the_first_and_name_both_places(glossary):
    entries, problems = glossary
    assert entries["roux"].definition == "Flour cooked in fat, used to thicken a sauce."
    conflict = [p for p in problems if "roux" in p.message]
    assert len(conflict) == 1
    assert str(conflict[0]).startswith("glossary/overlap.md:4:")
    assert "glossary/kitchen.md:38" in conflict[0].message


def test_same_term_same_definition_is_kept_once_without_warning(glossary):
    entries, problems = glossary
    assert entries["station"].source == "glossary/kitchen.md:16"
    assert not any("station" in p.message for p in problems)


def test_names_that_differ_only_in_a_language_symbol_are_three_terms(tmp_path):
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "languages.md").write_text(
        "C\n: A small systems language.\n\nC++\n: C with classes and templates.\n"
        "  Also: CPP\n\nC#\n: A managed language for the .NET runtime.\n"
        "  Also: C sharp\n\nC\n: A small systems language.\n", encoding="utf-8")
    entries, problems = read_glossary(folder)
    assert problems == ()
    assert [(e.term, e.aliases) for e in entries] == [
        ("C", ()), ("C++", ("CPP",)), ("C#", ("C sharp",))]


def _spellings_course(folder: Path) -> Path:
    """A lesson and a glossary that writes terms twice in other spellings: British and
    American (tokenization, Tokenisation; optimization, optimisation), plural (commit,
    commits, in another file), and names that are an alias of an entry above them, or a
    spelling of one (nucleus sampling, top-p sampling's; Memoisation, memoization's
    memoisation)."""
    (folder / "lessons").mkdir(parents=True)
    (folder / "lessons" / "01-code.md").write_text(
        "---\ntitle: Code\n---\n\n## Caching calls\n\nMemoisation keeps each result. "
        "Tokenization splits the text, and optimization makes it fast. Every commit is "
        "saved.\n", encoding="utf-8")
    glossary = folder / "glossary"
    glossary.mkdir()
    (glossary / "a.md").write_text(
        "tokenization\n: Splitting text into tokens.\n\n"                          # 1-2
        "memoization\n: Keeping the results of calls.\n  Also: memoisation\n\n"     # 4-6
        "optimization\n: Making code faster.\n\n"                                  # 8-9
        "Tokenisation\n: Cutting a text into its pieces.\n\n"                      # 11-12
        "Memoisation\n: Caching function results by their arguments.\n\n"          # 14-15
        "optimisation\n: Making code faster.\n", encoding="utf-8")                  # 17-18
    (glossary / "b.md").write_text(
        "commit\n: A saved snapshot.\n\n"
        "top-p sampling\n: Sampling from the likeliest tokens.\n  Also: nucleus sampling\n\n"
        "nucleus sampling\n: Sampling from the likeliest tokens.\n", encoding="utf-8")
    (glossary / "c.md").write_text("commits\n: Snapshots in a history.\n",
                                   encoding="utf-8")
    return folder


def test_spellings_of_one_name_are_one_term_with_a_warning(tmp_path):
    """Tokenisation beside tokenization, commits beside commit, were two terms and no
    warning, though every look-up reads them as one name: the later was a term no search
    found, and ``term memoisation`` opened Memoisation (no mentions), not memoization,
    whose alias it is. Such names are the same name: the first entry is kept, and a
    different definition is a warning at the later one, naming the first."""
    course = _spellings_course(tmp_path / "course")
    report = build_index(course / "lessons", course / "glossary", tmp_path / "index")
    twice = ("glossary/{}: The term {!r} is defined here and at glossary/{} (as {!r}) with "
             "a different definition; the one at glossary/{} is kept.")
    assert [str(p) for p in report.problems] == [
        twice.format("a.md:11", "Tokenisation", "a.md:1", "tokenization", "a.md:1"),
        twice.format("a.md:14", "Memoisation", "a.md:4", "memoization", "a.md:4"),
        twice.format("c.md:1", "commits", "b.md:1", "commit", "b.md:1")]
    with serving(tmp_path / "index") as client:
        terms = client.get("/api/terms").get_json()["terms"]
        assert [(t["term"], t["mentions"]) for t in terms] == [
            ("commit", 1), ("memoization", 1), ("optimization", 1), ("tokenization", 1),
            ("top-p sampling", 0)]
    shown = subprocess.run(
        [sys.executable, "-m", "lessonsearch.cli", "term", "memoisation", "--json",
         "--index", str(tmp_path / "index")], capture_output=True, text=True, check=True)
    assert json.loads(shown.stdout)["term"] == "memoization"


def test_british_and_american_spellings_of_a_name_are_one_term(tmp_path):
    """colour and color, behaviour cloning and behavior cloning, language modelling and
    language modeling, centre and center were two terms each and no warning, where
    tokenisation and tokenization were one: a search for "language modelling" showed that
    card alone, and a lesson's "Language modeling" was a mention of the other one. Each
    pair is one term now, in whichever spelling a lesson writes it; so is memoisation and
    memoization, an -ise after a vowel, which the -ise rule leaves alone (noise, raise)."""
    course = tmp_path / "course"
    (course / "lessons").mkdir(parents=True)
    (course / "lessons" / "01-models.md").write_text(
        "---\ntitle: Models\n---\n\n## Imitation\n\nLanguage modeling and behavior cloning "
        "are told apart. The colours of the catalogue are kept at the center; each metre "
        "of fibre is labeled, and memoization keeps each result.\n", encoding="utf-8")
    (course / "glossary").mkdir()
    pairs = [("colour", "color"), ("behaviour cloning", "behavior cloning"),
             ("language modelling", "language modeling"), ("centre", "center"),
             ("catalogue", "catalog"), ("licence", "license"), ("metre", "meter"),
             ("fibre", "fiber"), ("labelled data", "labeled data"),
             ("memoisation", "memoization")]
    (course / "glossary" / "g.md").write_text("".join(
        f"{name}\n: The {name} ({which}).\n\n"
        for pair in pairs for which, name in enumerate(pair)), encoding="utf-8")
    report = build_index(course / "lessons", course / "glossary", tmp_path / "index")
    twice = ("glossary/g.md:{}: The term {!r} is defined here and at glossary/g.md:{} (as "
             "{!r}) with a different definition; the one at glossary/g.md:{} is kept.")
    assert [str(p) for p in report.problems] == [
        twice.format(6 * i + 4, american, 6 * i + 1, british, 6 * i + 1)
        for i, (british, american) in enumerate(pairs)]
    with serving(tmp_path / "index") as client:
        terms = client.get("/api/terms").get_json()["terms"]
        assert sorted((t["term"], t["mentions"]) for t in terms) == [
            ("behaviour cloning", 1), ("catalogue", 1), ("centre", 1), ("colour", 1),
            ("fibre", 1), ("labelled data", 0), ("language modelling", 1), ("licence", 0),
            ("memoisation", 1), ("metre", 1)]
    for asked, term in (("language modeling", "language modelling"),
                        ("Behavior cloning", "behaviour cloning"), ("colors", "colour")):
        shown = subprocess.run(
            [sys.executable, "-m", "lessonsearch.cli", "term", asked, "--json",
             "--index", str(tmp_path / "index")], capture_output=True, text=True, check=True)
        assert json.loads(shown.stdout)["term"] == term


def test_crlf_and_byte_order_mark_are_read(tmp_path):
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "crlf.md").write_bytes(
        b"\xef\xbb\xbfzest {#zest}\r\n:   The coloured outer skin of a citrus fruit,\r\n"
        b"grated for flavour.\r\n    Also: peel\r\n"
    )
    entries, problems = read_glossary(folder)
    assert problems == ()
    assert [(e.term, e.anchor, e.definition, e.aliases, e.source) for e in entries] == [
        ("zest", "zest", "The coloured outer skin of a citrus fruit, grated for flavour.",
         ("peel",), "glossary/crlf.md:1")
    ]


def test_unreadable_file_is_skipped_and_reported(tmp_path):
    folder = tmp_path / "glossary"
    shutil.copytree(FIXTURE, folder)
    (folder / "broken.md").write_bytes(b"caf\xe9\n:   not UTF-8\n")
    entries, problems = read_glossary(folder)
    assert len(entries) == 8
    skipped = [p for p in problems if p.skipped]
    assert [p.path for p in skipped] == ["glossary/broken.md"]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le"])
def test_a_file_saved_as_utf16_is_skipped_and_named_so(tmp_path, encoding):
    """Without a byte order mark, UTF-16 reads as UTF-8 with a NUL between the letters: a
    term "z\0e\0s\0t" would be indexed."""
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "g.md").write_text("zest\n: The coloured outer skin of a citrus fruit.\n",
                                 encoding=encoding)
    entries, problems = read_glossary(folder)
    assert entries == ()
    assert [(str(p), p.skipped) for p in problems] == [
        ("glossary/g.md: Cannot read this file: saved as UTF-16, not UTF-8; save it as "
         "UTF-8. It was skipped.", True)]


def test_a_byte_that_is_not_utf8_is_placed_as_in_a_lesson(tmp_path):
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "g.md").write_bytes(b"zest\n: Caf\xe9 skin.\n")
    _, problems = read_glossary(folder)
    assert [str(p) for p in problems] == [
        "glossary/g.md:2:6: Cannot read this file: not UTF-8 text (byte 0xe9). It was skipped."]


def test_term_and_definition_on_tight_and_loose_lines(tmp_path):
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "g.md").write_text(
        "whisk\n: To beat air into a mixture.\nfold\n:To mix gently.\n\n"
        "sear\n\n:   To brown fast.\n"
    )
    entries, problems = read_glossary(folder)
    assert [(e.term, e.definition) for e in entries] == [
        ("whisk", "To beat air into a mixture."),
        ("fold", "To mix gently."),
        ("sear", "To brown fast."),
    ]
    assert problems == ()


def test_a_definition_below_a_definition_is_the_same_terms_and_no_orphan(tmp_path):
    """Pandoc lets a term have several definitions: a ``:`` line after a blank line below one
    adds a paragraph to it. Only one with no term above it, at the top of the file or under
    a heading, is an orphan."""
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "g.md").write_text(": Lost.\n\nwhisk\n: To beat air in.\n\n\n"
                                 ": Or a tool for it.\n\n## More\n\n: Lost too.\n")
    entries, problems = read_glossary(folder)
    assert [(e.term, e.definition) for e in entries] == [
        ("whisk", "To beat air in.\n\nOr a tool for it.")]
    assert [str(p) for p in problems] == [
        f"glossary/g.md:{line}: A definition (a line starting with ':') has no term on the line "
        "before it; it was left out." for line in (1, 11)]


@pytest.mark.parametrize("marker", [": ", ":   ", "~ "])
@pytest.mark.parametrize("indent", ["  ", "   ", "    ", "\t"])
def test_a_see_also_after_a_blank_line_indented_two_spaces_is_the_definitions(
        tmp_path, marker, indent):
    """As markdown-it reads a lesson's definition list, and as the README's example indents
    its lines: two spaces continue the definition, after a blank line too."""
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "g.md").write_text(
        f"proofing\n{marker}The final rise of a shaped loaf.\n\n"
        f"{indent}It takes an hour.\n\n{indent}Also: final proof\n"
        f"{indent}See also: shaping\n\nshaping\n{marker}Forming the loaf.\n")
    entries, problems = read_glossary(folder)
    assert [(e.term, e.definition, e.aliases, e.see_also, e.see_also_lines)
            for e in entries] == [
        ("proofing", "The final rise of a shaped loaf.\n\nIt takes an hour.",
         ("final proof",), ("shaping",), (7,)),
        ("shaping", "Forming the loaf.", (), (), ())]
    assert problems == ()


@pytest.mark.parametrize("indent", ["", " "])
def test_a_see_also_that_continues_no_definition_is_a_warning(tmp_path, indent):
    """Less than two spaces after a blank line ends the definition list, in markdown-it as
    in Pandoc: the line is no part of the entry, and says so rather than vanish."""
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "g.md").write_text(
        "proofing\n: The final rise of a shaped loaf.\n\n"
        f"{indent}See also: shaping\n\n{indent}also: final proof\n\n"
        "shaping\n: Forming the loaf.\n")
    entries, problems = read_glossary(folder)
    assert [(e.term, e.aliases, e.see_also) for e in entries] == [
        ("proofing", (), ()), ("shaping", (), ())]
    assert [str(p) for p in problems] == [
        f"glossary/g.md:{line}: '{written}' continues no definition, so it was ignored: "
        "indent it two spaces or more below its term's definition."
        for line, written in [(4, "See also:"), (6, "also:")]]


def test_a_one_term_file_without_its_term_is_reported(tmp_path):
    """Front matter with aliases but no ``term:``: the body defines nothing, and says so."""
    folder = tmp_path / "glossary"
    (folder / "terms").mkdir(parents=True)
    (folder / "terms" / "bad.md").write_text("---\naliases: [foo]\n---\n\nBody.\n")
    (folder / "terms" / "empty.md").write_text("---\nterm:\n---\n\nA definition.\n")
    (folder / "reference.md").write_text("---\ntitle: Reference\n---\n\nwhisk\n: To beat.\n")
    entries, problems = read_glossary(folder)
    assert [e.term for e in entries] == ["whisk"]  # other front matter is not a term's
    assert [str(p) for p in problems] == [
        f"glossary/terms/{name}.md:1: The front matter gives no 'term:', so the definition "
        "below it has no term; it was left out." for name in ("bad", "empty")]


def test_a_term_that_is_not_text_leaves_the_entry_out_with_a_warning(tmp_path):
    """``term: [a, b]`` is not a term named "['a', 'b']"; names that are numbers are text."""
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "list.md").write_text("---\naliases: [x]\nterm: [roux, béchamel]\n---\n\nA.\n")
    (folder / "map.md").write_text("---\nterm: {name: roux}\n---\n\nB.\n")
    (folder / "year.md").write_text("---\nterm: 1984\nanchor: [a]\naliases: [[x], 7]\n"
                                    "---\n\nC.\n")
    entries, problems = read_glossary(folder)
    assert [(e.term, e.anchor, e.aliases) for e in entries] == [("1984", None, ("7",))]
    assert [str(p) for p in problems] == [
        "glossary/list.md:3: term must be text, not ['roux', 'béchamel']; the entry was "
        "left out.",
        "glossary/map.md:2: term must be text, not {'name': 'roux'}; the entry was left out.",
        "glossary/year.md:3: anchor must be text, not ['a']; it was ignored.",
        "glossary/year.md:4: Expected names in the list, got ['x']; it was ignored."]


def test_a_bad_alias_or_see_also_is_reported_on_its_own_line(tmp_path):
    """Each warning names the line of the bad value, not the term's, so two bad keys are two
    places to look: its key's line, or in a list written one item a line, its item's."""
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "three.md").write_text("---\nterm: roux\naliases: [true]\n"
                                     "see_also: [roux sauce, [x]]\n---\n\nFlour in fat.\n")
    (folder / "four.md").write_text("---\nterm: whisk\n\nsee-also:\n  - fold\n  - null\n"
                                    "  - {a: b}\naliases: true\n---\n\nTo beat air in.\n")
    entries, problems = read_glossary(folder)
    assert [(e.term, e.aliases, e.see_also) for e in entries] == [
        ("whisk", (), ("fold",)), ("roux", (), ("roux sauce",))]
    assert [str(p) for p in problems] == [
        "glossary/four.md:8: Expected a list in the front matter, got True; it was ignored.",
        "glossary/four.md:7: Expected names in the list, got {'a': 'b'}; it was ignored.",
        "glossary/three.md:3: Expected names in the list, got True; it was ignored.",
        "glossary/three.md:4: Expected names in the list, got ['x']; it was ignored."]


def test_a_key_written_twice_is_reported_where_the_value_yaml_keeps_is(tmp_path):
    """YAML keeps the last value of a key written twice: the warning names that line, not
    the first. A quoted key is found as an unquoted one is."""
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "twice.md").write_text("---\nterm: roux\naliases: [roux blanc]\nid: roux\n"
                                     "aliases: [[x]]\n---\n\nFlour in fat.\n")
    (folder / "quoted.md").write_text('---\n"term": whisk\n\n"see_also": [[n]]\n'
                                      "'anchor': [w]\n---\n\nTo beat air in.\n")
    (folder / "quoted-term.md").write_text('---\nid: t\n"term": [a, b]\n---\n\nText.\n')
    _, problems = read_glossary(folder)
    assert [str(p) for p in problems] == [
        "glossary/quoted-term.md:3: term must be text, not ['a', 'b']; the entry was left out.",
        "glossary/quoted.md:5: anchor must be text, not ['w']; it was ignored.",
        "glossary/quoted.md:4: Expected names in the list, got ['n']; it was ignored.",
        "glossary/twice.md:3: Front matter key 'aliases' is written twice (lines 3 and 5); "
        "only the last, on line 5, is kept.",
        "glossary/twice.md:5: Expected names in the list, got ['x']; it was ignored."]


def test_a_single_number_is_a_list_of_one_name_as_a_single_string_is(tmp_path):
    """``aliases: spinner`` was one alias but ``aliases: 1.10`` a warning; a number is text
    (as YAML reads it: 1.10 is 1.1), as it is in ``term: 2048``."""
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "python.md").write_text("---\nterm: Python 3\naliases: 1.10\nsee_also: 42\n"
                                      "---\n\nThe language's third version.\n")
    (folder / "day.md").write_text("---\nterm: release day\naliases: 2024-05-01\n---\n\n"
                                   "The day it shipped.\n")
    entries, problems = read_glossary(folder)
    assert [(e.term, e.aliases, e.see_also) for e in entries] == [
        ("release day", ("2024-05-01",), ()), ("Python 3", ("1.1",), ("42",))]
    assert problems == ()


def test_a_see_also_name_that_names_no_term_is_reported_where_it_is_written(
        tmp_path, tiny_course):
    """The warning named the term's line, while a see-also name that is not text named its
    own: in a definition list it is the ``See also:`` line (or the line of a definition that
    is only "See …"), in front matter the name's item, or the key's line for a list on it."""
    glossary = tmp_path / "glossary"
    shutil.copytree(tiny_course / "glossary", glossary)
    (glossary / "h.md").write_text(
        "hash\n"                                    # 1
        ": A fixed-size digest of any data,\n"       # 2
        "  computed the same way every time.\n"      # 3
        "  Also: digest. See also: token, gizmo\n"   # 4
        "\n"                                        # 5
        "tokeniser\n"                               # 6
        ": See vocabulary.\n"                        # 7
        "\n"                                        # 8
        "detokeniser\n"                             # 9
        ": See widget.\n",                           # 10
        encoding="utf-8")
    (glossary / "a.md").write_text(
        "---\n"                     # 1
        "term: anneal\n"            # 2
        "aliases:\n"                # 3
        "  - annealing\n"           # 4
        "\n"                        # 5
        "see_also:\n"               # 6
        "  - temperature\n"         # 7
        "  - sprocket\n"            # 8
        "---\n\nTo cool slowly.\n",
        encoding="utf-8")
    (glossary / "b.md").write_text("---\nterm: bake\nsee_also: [anneal, cog]\n---\n\n"
                                   "To heat in an oven.\n", encoding="utf-8")
    report = build_index(tiny_course / "lessons", glossary, tmp_path / "index")
    assert sorted(str(p) for p in report.problems) == [
        f"glossary/{place}: See also {name!r} names no term of the glossary or the lessons; "
        "it is not linked." for place, name in [
            ("a.md:8", "sprocket"), ("b.md:3", "cog"), ("h.md:10", "widget"),
            ("h.md:4", "gizmo")]]


def test_a_see_also_naming_a_stub_says_the_stub_has_no_definition_yet(tmp_path, tiny_course):
    """It said the name named no term, then in the same build that the term had no
    definition yet. A stub's page says only that, so the name stays unlinked, and the
    warning says why, by any spelling of the stub's name, with its line."""
    glossary = tmp_path / "glossary"
    shutil.copytree(tiny_course / "glossary", glossary)
    (glossary / "h.md").write_text(
        "sieve\n"                                    # 1
        ": A mesh that lets fine grains fall through.\n"  # 2
        "  See also: Hopper, funnel\n"               # 3
        "\n"                                         # 4
        "hopper\n"                                   # 5
        ":\n",                                       # 6
        encoding="utf-8")
    report = build_index(tiny_course / "lessons", glossary, tmp_path / "index")
    see_also = sorted(str(p) for p in report.problems if "See also" in str(p))
    assert see_also == [
        "glossary/h.md:3: See also 'Hopper' names a term with no definition yet (its stub is "
        "at glossary/h.md:5); it is not linked until it has one.",
        "glossary/h.md:3: See also 'funnel' names no term of the glossary or the lessons; it "
        "is not linked."]
    assert any("'hopper' has no definition yet" in str(p) for p in report.problems)


def test_a_see_also_list_over_several_lines_places_each_name_on_its_own(tmp_path,
                                                                        tiny_course):
    """As a front-matter list written one item a line does: the warning for a name on the
    third line of the list is not at the ``See also:`` line."""
    glossary = tmp_path / "glossary"
    shutil.copytree(tiny_course / "glossary", glossary)
    (glossary / "h.md").write_text(
        "hash\n"                                     # 1
        ": A fixed-size digest of any data.\n"        # 2
        "  See also: token,\n"                        # 3
        "  gizmo, [vocabulary](#vocabulary)\n"        # 4
        "  and **widget**. Also: digest,\n"           # 5
        "  checksum\n"                                # 6
        "\n"                                         # 7
        "salt\n"                                     # 8
        ": Random bytes mixed into a hash.\n"         # 9
        "\n"                                         # 10
        "  See also:\n"                               # 11
        "  sprocket\n",                               # 12
        encoding="utf-8")
    entries = {e.term: e for e in read_glossary(glossary)[0]}
    assert (entries["hash"].see_also, entries["hash"].see_also_lines) == (
        ("token", "gizmo", "vocabulary", "widget"), (3, 4, 4, 5))
    assert entries["hash"].aliases == ("digest", "checksum")
    report = build_index(tiny_course / "lessons", glossary, tmp_path / "index")
    assert sorted(str(p) for p in report.problems) == [
        f"glossary/h.md:{line}: See also {name!r} names no term of the glossary or the "
        "lessons; it is not linked." for line, name in [(12, "sprocket"), (4, "gizmo"),
                                                         (5, "widget")]]


def test_a_builds_glossary_warnings_are_in_file_then_line_order(tmp_path, tiny_course):
    """A file's see-also warnings came after all its others, A–Z by term, and a stray list
    after every orphan definition: lines 1, 12, 6, 14, 9, 4 of one file. They are listed as
    the files are read, file by file, each top to bottom."""
    glossary = tmp_path / "glossary"
    shutil.copytree(tiny_course / "glossary", glossary)
    (glossary / "h.md").write_text(
        ": A definition with no term.\n"            # 1
        "\n"                                        # 2
        "zest\n"                                    # 3
        ": Grated peel. See also: gizmo\n"          # 4
        "\n"                                        # 5
        "See also: token\n"                         # 6
        "\n"                                        # 7
        "apple\n"                                   # 8
        ": A fruit. See also: widget\n"             # 9
        "\n"                                        # 10
        "## More\n"                                 # 11
        ": Another definition with no term.\n"      # 12
        "\n"                                        # 13
        "zest\n"                                    # 14
        ": The outer peel.\n",                      # 15
        encoding="utf-8")
    (glossary / "a.md").write_text("pear\n: A fruit.\n  See also: sprocket\n",
                                   encoding="utf-8")
    report = build_index(tiny_course / "lessons", glossary, tmp_path / "index")
    assert [(p.path, p.line) for p in report.problems] == [
        ("glossary/a.md", 3), ("glossary/h.md", 1), ("glossary/h.md", 4),
        ("glossary/h.md", 6), ("glossary/h.md", 9), ("glossary/h.md", 12),
        ("glossary/h.md", 14)]


def test_a_yaml_error_is_one_line_at_the_line_at_fault_and_keeps_the_entry(tmp_path):
    """An unclosed ``[`` is found by the parser only at the closing ``---``: the warning
    named that line, and said the front matter "was ignored" while the whole entry, its
    definition too, was left out of the glossary."""
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "bad.md").write_text("---\nterm: roux\naliases: [a, b\nsee_also: [fat]\n---\n"
                                   "\nFlour in fat.\n")
    (folder / "last.md").write_text("---\nterm: bisque\naliases: [a, b\n---\nA soup.\n")
    entries, problems = read_glossary(folder)
    assert [str(p) for p in problems] == [
        "glossary/bad.md:3:10: Front matter is not valid YAML: the '[' here is not closed "
        "before line 4 (did not find expected ',' or ']'); its key 'aliases' was ignored, and "
        "the term 'roux' kept without it.",
        "glossary/last.md:3:10: Front matter is not valid YAML: the '[' here is never closed "
        "(did not find expected ',' or ']'); its key 'aliases' was ignored, and the term "
        "'bisque' kept without it."]
    assert [(e.term, e.definition, e.aliases, e.see_also, e.source) for e in entries] == [
        ("roux", "Flour in fat.", (), ("fat",), "glossary/bad.md:2"),
        ("bisque", "A soup.", (), (), "glossary/last.md:2")]


def test_a_front_matter_key_written_twice_is_a_warning_naming_the_one_kept(tmp_path):
    """A second ``term:`` renamed the entry without a word, in front matter YAML reads and
    in front matter read key by key past a broken one alike."""
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "bell.md").write_text("---\nterm: bell\naliases: [gong]\nterm: chime\n---\n"
                                    "\nA thing that rings.\n")
    (folder / "horn.md").write_text("---\nterm: horn\nterm: trumpet\naliases: [a, b\n---\n"
                                    "\nA thing that blows.\n")
    entries, problems = read_glossary(folder)
    assert [(e.term, e.aliases) for e in entries] == [("chime", ("gong",)), ("trumpet", ())]
    assert [str(p) for p in problems] == [
        "glossary/bell.md:2: Front matter key 'term' is written twice (lines 2 and 4); only "
        "the last, on line 4, is kept.",
        "glossary/horn.md:2: Front matter key 'term' is written twice (lines 2 and 3); only "
        "the last, on line 3, is kept.",
        "glossary/horn.md:4:10: Front matter is not valid YAML: the '[' here is never closed "
        "(did not find expected ',' or ']'); its key 'aliases' was ignored, and the term "
        "'trumpet' kept without it."]


def test_a_tab_or_an_unquoted_colon_in_front_matter_is_said_in_plain_words(tmp_path):
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "bell.md").write_text("---\nterm: bell\naliases:\n\t- gong\n---\n\nIt rings.\n")
    (folder / "horn.md").write_text("---\nterm: horn\nsee_also: Brass: trumpets\n---\n"
                                    "\nIt blows.\n")
    _, problems = read_glossary(folder)
    assert [str(p) for p in problems] == [
        "glossary/bell.md:4:1: Front matter is not valid YAML: found character that cannot "
        "start any token (YAML does not allow tabs for indentation: indent with spaces); its "
        "key 'aliases' was ignored, and the term 'bell' kept without it.",
        "glossary/horn.md:3:16: Front matter is not valid YAML: mapping values are not allowed "
        'in this context (put the value in quotes: see_also: "Brass: trumpets"); its key '
        "'see_also' was ignored, and the term 'horn' kept without it."]


def test_front_matter_whose_term_cannot_be_read_says_the_entry_was_left_out(tmp_path):
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "a.md").write_text("---\nterm: \"roux\naliases: [x]\n---\nFlour in fat.\n")
    (folder / "b.md").write_text("---\ntitle: [Sauces\n---\n\nroux\n: Flour in fat.\n")
    entries, problems = read_glossary(folder)
    assert [e.term for e in entries] == ["roux"]  # b.md's definition list is read
    assert [str(p) for p in problems] == [
        "glossary/a.md:2:7: Front matter is not valid YAML: the quote here is never closed "
        "(found unexpected end of stream); no term can be read from it, so the "
        "definition below it was left out.",
        "glossary/b.md:2:8: Front matter is not valid YAML: the '[' here is never closed "
        "(did not find expected ',' or ']'); it was ignored."]


def test_aliases_that_expand_too_far_are_refused_and_long_values_cut_short(tmp_path):
    """Nested YAML aliases under ``aliases:`` ("billion laughs") were walked and quoted
    whole: five levels made nine warnings of 50 KB each, nine hung the build. The front
    matter is refused at the first value expanding past the bound (its fifth level, on
    line 7); a long value that is no name is quoted by its first 60 characters."""
    folder = tmp_path / "glossary"
    folder.mkdir()
    levels = ['l0: &l0 ["ha", "ha", "ha", "ha", "ha", "ha", "ha", "ha", "ha"]']
    levels += [f"l{n}: &l{n} [" + ", ".join([f"*l{n - 1}"] * 9) + "]" for n in range(1, 6)]
    (folder / "laughs.md").write_text("---\nterm: laughs\n" + "\n".join(levels)
                                      + "\naliases: *l5\n---\n\nHa.\n")
    (folder / "long.md").write_text("---\nterm: roux\nanchor: " + "r" * 500
                                    + "\nsee_also: [" + "x" * 500 + "]\naliases:\n  - ["
                                    + ", ".join(["béchamel"] * 100) + "]\n---\n\nFlour.\n")
    entries, problems = read_glossary(folder)
    assert [(e.term, e.anchor, e.aliases, e.see_also) for e in entries] == [
        ("laughs", None, (), ()), ("roux", "r" * 500, (), ("x" * 500,))]
    assert [str(p) for p in problems] == [
        "glossary/laughs.md:7:5: Front matter is not valid YAML: YAML aliases (*name) expand "
        "this value past 10,000 values; its keys 'l1', 'l2', 'l3', 'l4', 'l5' and 'aliases' "
        "were ignored, and the term 'laughs' kept without them.",
        "glossary/long.md:6: Expected names in the list, got ['béchamel', 'béchamel', "
        "'béchamel', 'béchamel', 'béchamel',…; it was ignored."]


def test_missing_folder_is_a_problem_not_a_crash(tmp_path):
    entries, problems = read_glossary(tmp_path / "nowhere")
    assert entries == ()
    assert len(problems) == 1


@pytest.mark.skipif(not CORPORA.is_dir(), reason="the shared Carpentries corpora are not here")
@pytest.mark.parametrize(
    ("lesson", "count"),
    [("git-novice", 14), ("make-novice", 23), ("python-novice-inflammation", 70),
     ("shell-novice", 40), ("sql-novice-survey", 23)],
)
def test_real_carpentries_glossaries(lesson, count):
    entries, problems = read_glossary(CORPORA / lesson / "learners")
    assert problems == ()
    assert len(entries) == count
    assert all(e.anchor for e in entries)
