"""Our Whoosh segment writer is a faster path to the very same index Whoosh would write.

``CourseText`` and ``CourseID`` index a value without Whoosh's token objects and
``_SegmentWriter`` adds rows and encodes postings a block at a time; all must leave every file
of the segment as stock Whoosh (``fields.TEXT``, ``fields.ID`` + ``SegmentWriter``) leaves it,
but for the posting blocks: the small ones ours leaves uncompressed, and ours pickles each
block's data with a later protocol. Positions are stored as ``CoursePositions`` encodes them,
and read back as Whoosh's own ``Positions`` would. A word made with -ize also counts for the
word it was made from, which stock Whoosh has no way to write: the comparisons leave it out
(``without_families``), and a test of its own reads it back.

Positions leave a gap at each blank line (``BREAK``: between a section's parts, heading
lines, names, paragraphs) and at each sentence's end: stock Whoosh gets the gaps from our
tokenizer, which it runs as it runs any, and ours from ``_postings``, so the comparisons
check the gaps too; a test of
their own checks that a section's parts, which only ours reads, are placed as the text
they join into.
"""

from __future__ import annotations

import zlib
from collections import Counter
from pathlib import Path

import pytest
from whoosh import fields, formats, index
from whoosh.writing import SegmentWriter

from lessonsearch import whoosh_index, whoosh_writer
from lessonsearch.course import read_course
from lessonsearch.whoosh_index import (
    BREAK,
    CODE_WEIGHT,
    FAMILY_WEIGHT,
    NAME_WEIGHT,
    CourseID,
    CoursePositions,
    CourseText,
    documents,
    schema,
)
from lessonsearch.whoosh_writer import _SegmentWriter

ROOT = Path(__file__).resolve().parent.parent
AWKWARD = " ÉCOLE İstanbul naïve don’t numpy.mean data_file x_1 ΣΑΣ 3.5e-4 a a a"


def stock_schema(positions=CoursePositions) -> fields.Schema:
    """Our schema with Whoosh's own TEXT and ID where ours has CourseText and CourseID
    (TEXT keeping ``positions``: ours, so the files can be compared byte for byte)."""
    ours = schema()
    for name, field in list(ours.items()):
        if isinstance(field, CourseText):
            stock = fields.TEXT(analyzer=field.analyzer, stored=field.stored, phrase=True)
            stock.format = positions(field_boost=stock.format.field_boost)
        elif isinstance(field, CourseID):
            stock = fields.ID(stored=field.stored, unique=field.unique)
        else:
            continue
        ours.remove(name)
        ours.add(name, stock)
    return ours


def write(folder: Path, make_schema, writer_class, rows: list[dict]):
    folder.mkdir()
    index.create_in(str(folder), make_schema())
    writer = writer_class(index.open_dir(str(folder)), _lk=False, compound=False)
    add = getattr(writer, "add_row", None) or (lambda row: writer.add_document(**row))
    for row in rows:
        add(row)
    segment = writer._finalize_segment()
    toc = index.open_dir(str(folder)).writer()
    toc._commit_toc([segment])
    toc._close_segment()
    toc._finish()
    return index.open_dir(str(folder)).reader()


def postings(reader, field: str, text: bytes) -> list[tuple]:
    matcher = reader.postings(field, text)
    out = []
    while matcher.is_active():
        out.append((matcher.id(), matcher.weight(), matcher.value(),
                    matcher.block_min_length(), matcher.block_max_length()))
        matcher.next()
    return out


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    course = read_course(ROOT / "lessons").course
    rows = [doc.fields(("attention head", "logit")) for doc in documents(course)]
    for row in rows:  # as one text, which stock Whoosh takes: every word counted in full
        row["content"] = BREAK.join(row["content"])  # the parts apart, as the index has them
    rows[0]["content"] += AWKWARD
    rows[1]["heading"] += AWKWARD
    return rows


@pytest.fixture
def without_families(monkeypatch) -> None:
    """Words made with -ize count only for themselves, as stock Whoosh would index them."""
    monkeypatch.setattr(whoosh_index, "_TERMS", {True: {}, False: {}})
    monkeypatch.setattr(whoosh_index, "_FAMILY", {})
    monkeypatch.setattr(whoosh_index, "made_from", lambda word: ())


class _ByWhooshsAddDocument(_SegmentWriter):
    """Ours, given documents the way Whoosh's ``add_document`` takes them."""

    add_row = None


@pytest.mark.parametrize("copies", [1, 3])
@pytest.mark.parametrize("writer_class", [_SegmentWriter, _ByWhooshsAddDocument])
def test_the_fast_writer_writes_what_stock_whoosh_writes(rows: list[dict], tmp_path: Path,
                                                         copies: int, writer_class,
                                                         monkeypatch, without_families):
    """Three copies of the course put common words in more than one posting block."""
    monkeypatch.setattr(whoosh_writer, "COMPRESS_MIN", 1)  # every block, as Whoosh does
    monkeypatch.setattr(whoosh_writer, "BLOCK_PROTOCOL", 2)  # pickled as Whoosh pickles it
    monkeypatch.setattr(whoosh_writer, "DEFLATE", zlib.compress)  # deflated as Whoosh does
    monkeypatch.setattr(whoosh_writer, "DEFLATE_LEVEL", 3)
    rows = [{**row, "id": f"{row['id']}/{n}"} for n in range(copies) for row in rows]
    with write(tmp_path / "stock", stock_schema, SegmentWriter, rows) as stock, \
            write(tmp_path / "ours", schema, writer_class, rows) as ours:
        same_index(stock, ours, len(rows))
        assert copies == 1 or max(
            ours.doc_frequency(field, text) for field, text in ours.all_terms()) > 128
    assert segment_files(tmp_path / "stock") == segment_files(tmp_path / "ours")


def test_our_posting_blocks_read_the_same_and_take_less_room(rows: list[dict],
                                                            tmp_path: Path,
                                                            without_families):
    """Small blocks are left uncompressed, and every block's data is pickled with protocol
    5, which writes the positions as bytes; ISA-L deflates the rest and the stored fields:
    Whoosh reads the same postings and fields back, from no more room."""
    with write(tmp_path / "stock", stock_schema, SegmentWriter, rows) as stock, \
            write(tmp_path / "ours", schema, _SegmentWriter, rows) as ours:
        same_index(stock, ours, len(rows))
    stock_files, our_files = segment_files(tmp_path / "stock"), segment_files(tmp_path / "ours")
    for name in ("pst", "trm", "_stored.col"):  # the terms' table points into the postings
        assert stock_files[name] != our_files[name]
    assert len(our_files.pop("_stored.col")) <= 1.02 * len(stock_files.pop("_stored.col"))
    stock_files.pop("trm"), our_files.pop("trm")
    assert len(our_files.pop("pst")) < 0.75 * len(stock_files.pop("pst"))
    assert stock_files == our_files
    with index.open_dir(str(tmp_path / "ours")).reader() as reader:
        compressed = Counter()
        for field, text in reader.all_terms():
            matcher = reader.postings(field, text)
            while matcher.is_active():
                compressed[bool(matcher._compression)] += 1
                matcher.skip_to(matcher.block_max_id() + 1)  # the next block
    assert compressed[True] and compressed[False]


def test_positions_read_back_as_whooshs_own_format_stores_them(rows: list[dict],
                                                               tmp_path: Path,
                                                               without_families):
    rows = [*rows, {**rows[0], "id": "long", "content": "zyzzyva " * 70_000 + "quokka zyzzyva"}]
    with write(tmp_path / "stock", lambda: stock_schema(formats.Positions), SegmentWriter,
               rows) as stock, write(tmp_path / "ours", schema, _SegmentWriter, rows) as ours:
        theirs, mine = stock.schema["content"].format, ours.schema["content"].format
        assert type(theirs) is formats.Positions and type(mine) is CoursePositions
        terms = [text for field, text in stock.all_terms() if field == "content"]
        assert terms == [text for field, text in ours.all_terms() if field == "content"]
        for text in terms:
            a, b = postings(stock, "content", text), postings(ours, "content", text)
            assert [(p[0], p[1], theirs.decode_positions(p[2])) for p in a] \
                == [(p[0], p[1], mine.decode_positions(p[2])) for p in b], text
            assert [mine.decode_frequency(p[2]) for p in b] == [p[1] for p in b]
        for reader in (stock, ours):  # past what two bytes hold
            assert reader.postings("content", b"quokka").value_as("positions") == [70_000]
            assert reader.postings("content", b"zyzzyva").value_as("positions") \
                == [*range(70_000), 70_001]


def test_a_word_made_with_ize_counts_for_its_base_word_without_a_position(tmp_path: Path):
    rows = [{"id": "a", "content": "The tokenizer cuts text into tokens; Tokenizers differ."},
            {"id": "b", "content": "A tokenizer, and nothing else."}]
    with write(tmp_path / "ours", schema, _SegmentWriter, rows) as ours:
        token = postings(ours, "content", b"token")
        assert [(p[0], p[1]) for p in token] == [(0, 1 + 2 * FAMILY_WEIGHT), (1, FAMILY_WEIGHT)]
        assert [ours.schema["content"].format.decode_positions(p[2]) for p in token] == [[5], []]
        assert [p[1] for p in postings(ours, "content", b"tokeniz")] == [2.0, 1.0]
        assert ours.doc_field_length(1, "content") == 5  # its words, not the family's count


def test_postings_with_our_positions_take_less_room_than_whooshs_own(rows: list[dict],
                                                                     tmp_path: Path):
    write(tmp_path / "stock", lambda: stock_schema(formats.Positions), SegmentWriter,
          rows).close()
    write(tmp_path / "ours", schema, _SegmentWriter, rows).close()
    assert len(segment_files(tmp_path / "ours")["pst"]) \
        < len(segment_files(tmp_path / "stock")["pst"])


def segment_files(folder: Path) -> dict[str, bytes]:
    """The index's one segment's files, by extension (their names carry a random id)."""
    [segment] = index.open_dir(str(folder))._segments()
    prefix = segment.segment_id() + "."
    found = {path.name[len(prefix):]: path.read_bytes() for path in folder.iterdir()
             if path.name.startswith(prefix)}
    assert {"pst", "trm", "_stored.col"} <= set(found)
    return found


def same_index(stock, ours, documents: int) -> None:
    terms = list(stock.all_terms())
    assert terms == list(ours.all_terms())
    assert len(terms) > 1000
    for field, text in terms:
        a, b = stock.term_info(field, text), ours.term_info(field, text)
        assert (a.weight(), a.doc_frequency(), a.min_length(), a.max_length(), a.max_weight()) \
            == (b.weight(), b.doc_frequency(), b.min_length(), b.max_length(), b.max_weight())
        assert postings(stock, field, text) == postings(ours, field, text), (field, text)
    for field in ("content",):
        assert stock.field_length(field) == ours.field_length(field)
        assert [stock.doc_field_length(n, field) for n in range(documents)] \
            == [ours.doc_field_length(n, field) for n in range(documents)]
    assert list(stock.all_stored_fields()) == list(ours.all_stored_fields())



def test_the_names_of_terms_count_each_word_once_and_half():
    """A section's indexed text holds the names of the terms it mentions: a name of one word
    counts half a word the section writes, once however many names share it; a name of
    several words is one term of them all, which only the whole name finds, never a word
    of it alone ("search" is no word of this section); one position is left unused between
    names and between parts."""
    field = schema()["content"]
    found = {text: (frequency, weight, field.format.decode_positions(encoded))
             for text, frequency, weight, encoded in field.index(
                 ("Sampling", BREAK.join(("greedy decoding", "greedy sampling", "greedy search",
                                          "sampler", "samplers")),
                  "Decoding is greedy."))}
    assert found[b"greedi"] == (1, 1, [14])
    assert found[b"sampl"] == (1, 1, [0])
    assert found[b"decod"] == (1, 1, [12])
    assert b"search" not in found
    assert found[b"greedi decod"] == (1, NAME_WEIGHT, [2])
    assert found[b"greedi search"] == (1, NAME_WEIGHT, [6])
    assert found[b"sampler"] == (2, NAME_WEIGHT, [8, 10])
    plain = {text: weight for text, _, weight, _ in field.index("greedy decoding ; greedy")}
    assert plain[b"greedi"] == 2


def test_a_word_of_code_counts_less_than_a_word_of_prose():
    """A section's code, the fourth part, is indexed after its prose, each word of it
    counted ``CODE_WEIGHT``; its positions are kept, for phrases (each part after a gap)."""
    field = schema()["content"]
    found = {text: (frequency, pytest.approx(weight), field.format.decode_positions(encoded))
             for text, frequency, weight, encoded in field.index(
                 ("Imports", "", "We import numpy.", "import numpy\nimport sys"))}
    assert found[b"import"] == (4, 2 + 2 * CODE_WEIGHT, [0, 4, 7, 9])
    assert found[b"numpi"] == (2, 1 + CODE_WEIGHT, [5, 8])
    assert found[b"sys"] == (1, CODE_WEIGHT, [10])


def test_positions_leave_a_gap_at_each_blank_line_in_either_writer(tmp_path: Path):
    """Our tokenizer, which stock Whoosh runs, and ours, which indexes without it, place the
    words alike: one position left unused at each blank line, none at a line break."""
    rows = [{"id": "a", "content": "next\n\ntokens come\nnext\n\n\n\ntoken"}]
    with write(tmp_path / "stock", stock_schema, SegmentWriter, rows) as stock, \
            write(tmp_path / "ours", schema, _SegmentWriter, rows) as ours:
        for reader in (stock, ours):
            assert reader.postings("content", b"next").value_as("positions") == [0, 4]
            assert reader.postings("content", b"token").value_as("positions") == [2, 7]
            assert reader.doc_field_length(0, "content") == 5  # words, not the last place


def test_a_sections_parts_are_placed_as_the_text_they_join_into(without_families):
    """``_postings`` reads a section's parts apart (the names and the code count less), and
    places their words as our tokenizer places those of the parts joined by ``BREAK``:
    what the byte-for-byte comparisons, given the joined text, check. (A name of several
    words is one term at one position, which the joined text is not: names of one word
    here.)"""
    field = schema()["content"]
    course = read_course(ROOT / "lessons").course
    for doc in documents(course):
        parts = doc.fields(("attention", "logit"), ("softmax",), ("key", "value"))["content"]
        tokens = field.analyzer(BREAK.join(parts), positions=True)
        expected: dict[bytes, list[int]] = {}
        for token in tokens:
            expected.setdefault(token.text.encode(), []).append(token.pos)
        found = {text: field.format.decode_positions(encoded)
                 for text, _, _, encoded in field.index(parts)}
        assert found == expected, doc.id
