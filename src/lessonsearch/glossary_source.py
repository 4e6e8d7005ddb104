"""Read the course glossary folder: the terms an editor wrote down, with their definitions.

Two shapes are accepted, mixed freely across any number of ``*.md`` files:

* Pandoc definition lists, as the Carpentries ``learners/reference.md`` pages write them:
  a term line (``term``, ``term {#anchor}``, ``[term]{#anchor}`` or ``[term](#anchor)``)
  followed by ``:`` and the definition;
* one term per file: YAML front matter with ``term`` (and ``aliases``, ``see_also``), the
  body being the definition.

Pandoc definition lists are not CommonMark, so markdown-it would only see paragraphs; the
line reader in ``glossary_deflist`` knows the few shapes in use and keeps line numbers exact.
Nothing here raises for a bad file: every oddity becomes a ``Problem`` naming file and line,
because one editor's typo must not stop the whole index build.
"""

from __future__ import annotations

import re
from pathlib import Path

from lessonsearch.analysis import WORD, words
from lessonsearch.errors import LessonFormatError
from lessonsearch.glossary_deflist import (
    EVERYDAY_YES,
    Draft,
    body_definition,
    read_definition_list,
)
from lessonsearch.model import GlossaryEntry, GlossaryGap, Problem, quoted
from lessonsearch.term_forms import term_key
from lessonsearch.term_matching import TermMatcher

from .folder_walk import entries_below, named
from .text_files import decode
from .yaml_data import (
    Places,
    Repeats,
    YAMLError,
    fault,
    load_placed,
    load_readable_keys,
    repeated_key,
    scalar_text,
)

_FRONT_MATTER_END = ("---", "...")
_ABBREVIATED_TERM = re.compile(r"^(?P<term>.+?)\s*\((?P<abbr>[A-Z][A-Z0-9]{1,7})\)$")
_ABBREVIATION_FIRST = re.compile(r"^\((?P<abbr>[A-Z][A-Z0-9]{1,7})\):?\s")
"""``comma-separated values (CSV)`` and a definition opening ``(CSV) A common…``: both give
the abbreviation, which readers look up and lessons use as often as the long name."""


def read_glossary(
    folder: Path,
) -> tuple[tuple[GlossaryEntry, ...], tuple[Problem, ...]]:
    """Every entry of the glossary folder, in file then line order, and what went wrong.

    The same term written twice with the same definition is kept once, silently (lessons
    are often assembled from pages that repeat shared terms); with different definitions the
    first is kept and the second is reported, naming both places, so an editor can choose.
    Names are the same term when they share a ``term_key`` (case, British spelling, plural:
    "Tokenisation" and "tokenization", "colour" and "color", "commits" and "commit",
    ``analysis.american``), as every look-up and mention
    reads them; so is a name that spells an alias of an entry before it ("nucleus sampling",
    an alias of top-p sampling): kept apart, the later was a term no look-up reached.
    """
    folder = named(Path(folder))  # "--glossary .": glossary/terms.md, not /terms.md
    if not folder.is_dir():
        return (), (Problem(str(folder), "No glossary folder here; the glossary is empty."),)
    entries: list[GlossaryEntry] = []
    problems: list[Problem] = []
    seen: dict[str, GlossaryEntry] = {}  # by the term_key of each kept entry's name
    seen_alias: dict[str, GlossaryEntry] = {}  # and of its aliases
    for path in _glossary_files(folder, problems):
        shown = f"{folder.name}/{path.relative_to(folder).as_posix()}"
        try:
            text = decode(path.read_bytes(), shown)
        except OSError as error:
            problems.append(Problem(shown, f"Cannot read this file ({error.strerror or error}); "
                                    "it was skipped.", skipped=True))
            continue
        except LessonFormatError as error:  # as a lesson's: UTF-16, or its first bad byte
            problems.append(Problem(shown, f"Cannot read this file: {error.reason}. It was "
                                    "skipped.", error.line, error.column, skipped=True))
            continue
        drafts, file_problems = read_glossary_text(text, shown)
        problems.extend(file_problems)
        for draft in drafts:
            entry = _entry(draft, shown)
            if entry is None:  # a stub: listed by the coverage report (``glossary_stubs``)
                problems.append(GlossaryGap(
                    shown, f"The term {draft.term!r} has no definition yet; the glossary "
                    "leaves it out until it has one, and the coverage report lists it under "
                    "needs-definition.", line=draft.line, term=draft.term))
                continue
            key = term_key(entry.term)
            first = seen.get(key) or seen_alias.get(key)
            if first is None:
                seen[key] = entry
                for alias in entry.aliases:
                    seen_alias.setdefault(term_key(alias), entry)
                entries.append(entry)
            elif " ".join(first.definition.split()) != " ".join(entry.definition.split()):
                # Named as each place writes it: "Durability" here, and the "durability"
                # kept, which the term's row and page are named by.
                kept = f" (as {first.term!r})" if first.term != entry.term else ""
                problems.append(
                    GlossaryGap(shown, f"The term {entry.term!r} is defined here and at "
                                f"{first.source}{kept} with a different definition; the one "
                                f"at {first.source} is kept.", line=draft.line,
                                term=entry.term, kept=first.source)
                )
    return tuple(entries), tuple(problems)


def _glossary_files(folder: Path, problems: list[Problem]) -> list[Path]:
    """Every ``*.md`` below the folder but hidden ones, in path order, linked folders
    entered as the lessons' are (``folder_walk``); a folder that cannot be read, or a link
    to one that holds the glossary, is a problem. (``rglob`` passed over both without a
    word, and over a linked folder of shared terms.)"""
    unread: dict[str, str] = {}
    found = [Path(entry.path) for entry in entries_below(str(folder), unread)
             if entry.name.endswith(".md")]
    for path, why in unread.items():
        shown = f"{folder.name}/{Path(path).relative_to(folder).as_posix()}"
        problems.append(Problem(shown, f"{why[0].upper()}{why[1:]}.", skipped=True))
    return sorted(found)


def read_glossary_text(text: str, shown: str) -> tuple[list[Draft], list[Problem]]:
    """The entries of one file's text; ``shown`` is the path that problems name."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    problems: list[Problem] = []
    start, meta, places = 0, None, {}
    broken: tuple[YAMLError, str, list[str]] | None = None  # front matter not valid YAML
    if lines and lines[0].rstrip() == "---":
        end = next((i for i in range(1, len(lines)) if lines[i].rstrip() in _FRONT_MATTER_END),
                   None)
        if end is None:
            problems.append(Problem(shown, "Front matter opened with '---' is never closed; "
                                    "it was read as text.", line=1))
        else:
            start = end + 1
            written = "\n".join(lines[1:end])
            try:
                meta, places, repeats = load_placed(written)
            except YAMLError as error:
                meta, places, unread, repeats = load_readable_keys(written)
                broken = (error, written, unread)
            problems.extend(_repeated_keys(repeats, shown))
            if isinstance(meta, dict) and meta.get("term"):
                if broken:
                    problems.append(_broken_front_matter(*broken, shown, meta["term"]))
                draft = _one_term_file(meta, places, lines, end, shown, problems)
                return [draft] if draft else [], problems
    found = read_definition_list(lines[start:], first_line=start + 1)
    drafts = found.drafts
    if broken:
        lost = not drafts and any(line.strip() for line in lines[start:])
        problems.append(_broken_front_matter(*broken, shown, None, lost))
    problems.extend(
        Problem(shown, "A definition (a line starting with ':') has no term on the line "
                "before it; it was left out.", line=line)
        for line in found.orphans
    )
    problems.extend(
        Problem(shown, f"'{written}' continues no definition, so it was ignored: indent it "
                "two spaces or more below its term's definition.", line=line)
        for line, written in found.strays
    )
    if start and not drafts and not broken and isinstance(meta, dict) and (
            _ONE_TERM_KEYS & meta.keys()):
        problems.append(Problem(shown, "The front matter gives no 'term:', so the definition "
                                "below it has no term; it was left out.", line=1))
    return drafts, problems


def _repeated_keys(repeats: Repeats, shown: str) -> list[Problem]:
    """A warning for each front matter key written more than once, at its first line: YAML
    keeps the last value without a word, so a second ``term:`` renamed the entry."""
    problems = []
    for key, lines in repeats.items():
        written = tuple(line + 2 for line in lines)  # the YAML starts on line 2, after '---'
        problems.append(Problem(shown, f"Front matter key {repeated_key(key, written)}.",
                                line=written[0]))
    return problems


def _broken_front_matter(error: YAMLError, text: str, unread: list[str], shown: str,
                         term: object, lost: bool = False) -> Problem:
    """The warning for front matter that is not valid YAML, at the line at fault, saying
    what became of the entry. Its keys that read alone are kept (``load_readable_keys``), so
    a one-term file whose ``term`` still reads keeps its entry, definition and all, without
    the keys at fault; one whose ``term`` does not read (``lost``: the text below it, no
    definition list, is left without a term) says the entry was left out. It said the front
    matter "was ignored" while the whole term vanished from the glossary."""
    why, line, column = fault(error, text, 2)  # the YAML starts on the line after '---'
    if term is not None and unread:
        one = len(unread) == 1
        then = (f"its {'key' if one else 'keys'} {_named(unread)} {'was' if one else 'were'} "
                f"ignored, and the term {quoted(scalar_text(term) or term)} kept without "
                f"{'it' if one else 'them'}")
    elif term is not None:
        then = "the term was kept"
    elif lost:
        then = "no term can be read from it, so the definition below it was left out"
    else:
        then = "it was ignored"
    return Problem(shown, f"Front matter is not valid YAML: {why}; {then}.",
                   line=line or 1, column=column)


def _named(names: list[str]) -> str:
    """``'a'``, ``'a' and 'b'``, ``'a', 'b' and 'c'``."""
    quoted_names = [repr(name) for name in names]
    return " and ".join(filter(None, [", ".join(quoted_names[:-1]), quoted_names[-1]]))


_ONE_TERM_KEYS = {"term", "aliases", "see_also", "see-also"}
"""Front matter holding any of these is a one-term file's, whatever else the file says."""


def _one_term_file(
    meta: dict, places: Places, lines: list[str], end: int, shown: str, problems: list[Problem]
) -> Draft | None:
    """The file's entry, or None (with a warning) when its ``term`` is not text: a list
    ``term: [a, b]`` would otherwise be a term named "['a', 'b']"."""
    placed = {key: (line + 2, tuple(item + 2 for item in items))  # the YAML starts on line 2
              for key, (line, items) in places.items()}

    def line_of(key: str) -> int:
        return placed.get(key, (1, ()))[0]

    term_line = line_of("term")
    term = scalar_text(meta["term"])
    if term is None:
        problems.append(Problem(shown, f"term must be text, not {quoted(meta['term'])}; the entry "
                                "was left out.", line=term_line))
        return None
    draft = body_definition(lines[end + 1:], first_line=end + 2)
    key = "anchor" if meta.get("anchor") else "id"
    anchor = scalar_text(meta.get(key))
    if meta.get(key) and anchor is None:
        problems.append(Problem(shown, f"{key} must be text, not {quoted(meta[key])}; it was "
                                "ignored.", line=line_of(key)))
    aliases, _ = _listed(meta, "aliases", shown, problems, placed)
    see_also, see_also_lines = _listed(meta, "see_also" if "see_also" in meta else "see-also",
                                       shown, problems, placed)
    everyday = _everyday(meta, shown, problems, line_of("everyday"))
    return Draft(
        term=term.strip(),
        anchor=anchor,
        line=term_line,
        paragraphs=draft.paragraphs,
        aliases=aliases + draft.aliases,
        see_also=see_also + draft.see_also,
        see_also_lines=see_also_lines + draft.see_also_lines,
        anchor_line=line_of(key) if anchor else None,
        everyday=everyday or draft.everyday,
    )


def _everyday(meta: dict, shown: str, problems: list[Problem], line: int) -> bool:
    """The front matter's ``everyday: true`` (the term is also an everyday word, see
    ``Draft.everyday``); a value that is neither true nor false is a warning, and no."""
    value = meta.get("everyday")
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in (*EVERYDAY_YES, "no", "false"):
        return value.strip().lower() in EVERYDAY_YES
    problems.append(Problem(shown, f"everyday must be true or false, not {quoted(value)}; it "
                            "was ignored.", line=line))
    return False


def _listed(
    meta: dict, key: str, shown: str, problems: list[Problem], placed: Places
) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The names of the front-matter list under ``key``, and the line each is written on; a
    single string is accepted as a comma-separated list, a single number or date (text, as
    ``scalar_text`` reads it) as a one-name list. A warning names the line of the value it
    is about, where the editor has to look: the key's, or a block list's item's; not the
    ``term:`` line. ``placed`` is ``Places`` counted as the file's lines are."""
    value = meta.get(key)
    if value is None:
        return (), ()
    key_line, item_lines = placed.get(key, (1, ()))
    if isinstance(value, str):
        value = value.split(",")
    elif (single := scalar_text(value)) is not None:
        value = [single]
    if not isinstance(value, list | tuple):
        problems.append(Problem(shown, f"Expected a list in the front matter, got {quoted(value)}; "
                                "it was ignored.", line=key_line))
        return (), ()
    if len(item_lines) != len(value):  # one text split at its commas: all on its line
        item_lines = item_lines[:1] * len(value) or (key_line,) * len(value)
    names, lines = [], []
    for item, line in zip(value, item_lines, strict=True):
        name = scalar_text(item)
        if name is None and item is not None:
            problems.append(Problem(shown, f"Expected names in the list, got {quoted(item)}; "
                                    "it was ignored.", line=line))
        elif name and name.strip():
            names.append(name.strip())
            lines.append(line)
    return tuple(names), tuple(lines)


def _entry(draft: Draft, shown: str) -> GlossaryEntry | None:
    definition = "\n\n".join(p for p in draft.paragraphs if p)
    if not definition:
        return None
    term, aliases = draft.term, list(draft.aliases)
    if found := _ABBREVIATED_TERM.match(term):
        term = found["term"]
        aliases.insert(0, found["abbr"])
    if found := _ABBREVIATION_FIRST.match(definition):
        aliases.insert(0, found["abbr"])
    see_also: dict[str, int] = {}  # each name once, at the line it is first written on
    for name, line in zip(draft.see_also, draft.see_also_lines, strict=True):
        see_also.setdefault(name, line)
    return GlossaryEntry(
        term=term,
        definition=definition,
        source=f"{shown}:{draft.line}",
        anchor=draft.anchor,
        aliases=_own_aliases(aliases, term),
        see_also=tuple(see_also),
        see_also_lines=tuple(see_also.values()),
        anchor_line=(draft.anchor_line or draft.line) if draft.anchor else None,
        everyday=draft.everyday,
    )


def _own_aliases(aliases: list[str], term: str) -> tuple[str, ...]:
    """The ``aliases`` that are names of their own, in the order written: one that respells
    the term (``_respells``) or an alias kept before it (``head, heads``: heads is head's
    plural, found by it) is left out, as are repeats."""
    kept: list[str] = []
    for alias in aliases:
        if not _respells(alias, term) and not any(_respells(alias, k) for k in kept):
            kept.append(alias)
    return tuple(kept)


def _respells(alias: str, term: str) -> bool:
    """Whether ``alias`` only writes ``term`` another way, and is left out of its aliases:
    its words in another case or joined otherwise (``KV-cache``), or the same name in British
    spelling or with its last word in the plural (``term_key``: ``base models``) when the
    term's own name finds all of it, as a look-up and a lesson's mention then do without the
    alias. ``C sharp`` is C#'s ``term_key`` but no mention of it, and stays an alias; so does
    ``psi`` beside ``PSI``, which matches only in capitals (``term_matching``): the glossary
    says the lower-case word is the term too ("20 psi")."""
    if _words(alias) != _words(term) and term_key(alias) != term_key(term):
        return False
    found = TermMatcher({term: ()}).spans(alias)
    tokens = list(WORD.finditer(alias))
    return len(found) == 1 and found[0][1:] == (tokens[0].start(), tokens[-1].end())


def _words(name: str) -> str:
    """What tells two names apart: their words, in any case, and the symbols that end a
    language's name (``C``, ``C++`` and ``C#`` are three terms)."""
    return " ".join(words(name))
