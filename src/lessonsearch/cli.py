"""``lessonsearch``: a thin shell around the pipeline. Errors become a message and exit 1
(with ``--json``, what the API refuses becomes the API's error body on stdout; any other
error is printed in that shape on stdout too, its message still on stderr)."""

from __future__ import annotations

import argparse
import contextlib
import html
import json
import os
import re
import signal
import sys
from collections.abc import Callable
from pathlib import Path

from .counts import counted, whole_number
from .errors import BadQuery, LessonSearchError, TermNotFound
from .links import is_web_link, not_a_link

DEFAULT_INDEX = Path("index")
DEFAULT_GLOSSARY = Path("glossary")
MAX_PAGE = 1000
"""``searcher.MAX_PAGE``, written here so that the CLI starts without importing Whoosh
(``tests/test_cli.py`` checks the two agree)."""


def main(argv: list[str] | None = None) -> int:
    try:
        code = _main(argv)
        sys.stdout.flush()  # output that fit the buffer meets a closed pipe here
        return code
    except BrokenPipeError:
        return _reader_gone()


def _reader_gone() -> int:
    """The reader of our output went away (``lessonsearch terms | head -1``): stop quietly,
    as Unix tools do. Python's documentation (signal, "Note on SIGPIPE") points both streams
    at /dev/null first, so that the flush at exit does not fail again with a traceback."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # ValueError: a stream without a file
            os.dup2(devnull, stream.fileno())
    os.close(devnull)
    return 128 + signal.SIGPIPE  # the shell's status for a tool the closed pipe stopped


def _main(argv: list[str] | None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    try:
        return args.run(args)
    except (TermNotFound, BadQuery) as exc:
        if _wants_json(args):  # the body the API answers with its 400 or 404
            extra = exc.details() if isinstance(exc, TermNotFound) else {}
            _print_error_json(str(exc), **extra)
        else:
            print(f"lessonsearch: {exc}", file=sys.stderr)
        return 1
    except FileNotFoundError as exc:
        if exc.errno is not None:  # the system's, not our own sentence ("No lessons folder")
            return _os_error(args, exc)
        print(f"lessonsearch: {exc}", file=sys.stderr)
        if _wants_json(args):
            _print_error_json(str(exc))
        return 1
    except LessonSearchError as exc:
        # No answer to the request but a fault of the index or a file: a person must see it
        # whatever a script does with the output, and the script must still read JSON.
        print(f"lessonsearch: {exc}", file=sys.stderr)
        if _wants_json(args):
            _print_error_json(str(exc))
        return 1
    except BrokenPipeError:
        raise  # the reader went away: main() stops quietly
    except OSError as exc:  # a full disk, a read-only folder: the system's own words
        return _os_error(args, exc)
    except KeyboardInterrupt:
        print("lessonsearch: interrupted; the live index was not changed.", file=sys.stderr)
        return 130


def _os_error(args: argparse.Namespace, exc: OSError) -> int:
    said = f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else "")
    if args.command == "index":
        said += "; the live index was not changed"
    print(f"lessonsearch: {said}", file=sys.stderr)
    if _wants_json(args):
        _print_error_json(said)
    return 1


class _Parser(argparse.ArgumentParser):
    """argparse, with a plain word for options written after ``--``, which makes every
    argument after it a query or a name: ``search -- "-water" --index X`` said only
    "unrecognized arguments: --index X"."""

    def parse_known_args(self, args: list[str] | None = None,
                         namespace: argparse.Namespace | None = None,
                         ) -> tuple[argparse.Namespace, list[str]]:
        found, extras = super().parse_known_args(args, namespace)
        given = list(sys.argv[1:] if args is None else args)
        tail = given[given.index("--") + 1:] if "--" in given else []
        misplaced = [a for a in extras if a.split("=", 1)[0] in self._option_string_actions]
        if misplaced and tail[len(tail) - len(extras):] == extras:  # all of them after "--"
            before = given[:len(given) - len(tail) - 1]
            after = tail[:len(tail) - len(extras)]
            # The command again, options first and the query or name after "--".
            shown = " ".join(map(_shell_word, [*before, *extras, "--", *after]))
            self.error(f"{misplaced[0].split('=', 1)[0]} is after '--', which makes every "
                       f"argument after it a query or a name: put options before it "
                       f"({self.prog} {shown})")
        return found, extras


def _shell_word(text: str) -> str:
    """``text`` as a shell reads it back: quoted when it holds a space or a quote."""
    return text if re.fullmatch(r"[\w./:=@%+,-]+", text) else "'" + text.replace(
        "'", "'\\''") + "'"


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="lessonsearch", description="Search an online course and its glossary."
    )
    sub = parser.add_subparsers(title="commands", dest="command")

    p = sub.add_parser("index", help="build the search index from lessons and a glossary")
    p.add_argument("--lessons", type=Path, default=Path("lessons"), help="course folder")
    p.add_argument("--glossary", type=Path,
                   help="glossary folder (default: ./glossary, when there is one)")
    p.add_argument("--out", type=Path, default=DEFAULT_INDEX, help="index folder")
    p.add_argument("--base-url", type=_base_url,
                   help="URL that lesson slugs are appended to (default /lessons/)")
    p.add_argument("--strict", action="store_true",
                   help="when any file had a problem: publish nothing and exit 1")
    p.add_argument("--full", action="store_true",
                   help="ignore what the previous version's build can lend; rebuild everything")
    p.set_defaults(run=_index)

    p = sub.add_parser("search", help="search the index")
    p.add_argument("query")
    _index_option(p)
    p.add_argument("--limit", type=_count_option(), default=10,
                   help="results per page (above 50 shows 50, as the API does)")
    p.add_argument("--page", type=_count_option(MAX_PAGE), default=1,
                   help=f"page of results, 1 to {MAX_PAGE}")
    p.add_argument("--lesson", help="only this lesson (slug)")
    p.add_argument("--module", help="only this module (slug)")
    p.add_argument("--json", action="store_true", help="print the /api/search body")
    p.set_defaults(run=_search)

    p = sub.add_parser("term", help="look up one glossary term")
    p.add_argument("name")
    _index_option(p)
    p.add_argument("--json", action="store_true", help="print the /api/terms/<name> body")
    p.set_defaults(run=_term)

    p = sub.add_parser("terms", help="list every term A-Z")
    _index_option(p)
    p.add_argument("--json", action="store_true", help="print the /api/terms body")
    p.set_defaults(run=_terms)

    p = sub.add_parser("serve", help="serve the search pages and the JSON API")
    p.add_argument("--index", type=Path, help="index folder (default: $LESSONSEARCH_INDEX, index)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=_count_option(65535), default=5000)
    # Not int: 0 quietly became the default, and gunicorn refused -3 in words of its own.
    p.add_argument("--workers", type=_count_option(),
                   help="worker processes (default: one per core, up to 4)")
    p.add_argument("--threads", type=_count_option(), help="threads per worker (default: 2)")
    p.add_argument("--dev", action="store_true", help="Flask's development server with reload")
    p.set_defaults(run=_serve)

    p = sub.add_parser("coverage", help="which terms the glossary covers, and its gaps")
    _index_option(p)
    p.add_argument("--format", choices=("table", "json", "markdown", "html"), default="table",
                   help="json prints the /api/coverage body")
    p.add_argument("--json", action="store_const", const="json", dest="format",
                   help="the same as --format json, as search, term and terms take it")
    p.add_argument("--fail-on", type=_coverage_kinds, default=(), metavar="KINDS",
                   help="exit 1 when any of these comma-separated lists is not empty")
    p.add_argument("--allow", type=Path, metavar="FILE",
                   help="'kind: name' lines to accept (default: ./coverage-allow.txt if present)")
    p.add_argument("--lessons", type=_lessons_shown, default=100, metavar="N",
                   help="lessons listed per term and per used-before-definition entry "
                        "(default 100, as /api/coverage; 'all' for every one)")
    p.set_defaults(run=_coverage)

    p = sub.add_parser("check", help="read every file of the live index: exit 1 if one is "
                                     "damaged")
    _index_option(p)
    p.set_defaults(run=_check)

    p = sub.add_parser("prune", help="check the live index, then remove all but the newest "
                                     "versions (for a replica, where no build prunes)")
    _index_option(p)
    p.add_argument("--keep", type=_versions_kept, metavar="N",
                   help="versions kept, the newest (default 3, as a build keeps; at least 2); "
                        "the live one and the one before it are always kept")
    p.set_defaults(run=_prune)

    return parser


def _index_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--index", type=Path, default=DEFAULT_INDEX, help="index folder")


def _index(args: argparse.Namespace) -> int:
    from .build import build_index  # the build's readers and pool: not in the server's processes

    progress = _progress_bar() if sys.stderr.isatty() else _progress_lines()
    report = build_index(args.lessons, _glossary_folder(args.glossary), args.out, args.base_url,
                         progress, full=args.full, strict=args.strict)
    for problem in report.problems:
        print(f"warning: {problem}", file=sys.stderr)
    for note in report.notes:
        print(f"note: {note}", file=sys.stderr)
    print(report.summary())
    return 1 if args.strict and report.problems else 0


def _glossary_folder(given: Path | None) -> Path | None:
    """The folder named with ``--glossary`` (the build refuses one that is missing: a typo
    must not publish an index without a glossary); else ``./glossary`` when there is one,
    since a course may have no glossary at all."""
    if given is not None:
        return given
    return DEFAULT_GLOSSARY if DEFAULT_GLOSSARY.is_dir() else None


def _progress_bar():
    def show(done: int, total: int, name: str) -> None:
        width = 30
        filled = width * done // max(total, 1)
        bar = "#" * filled + " " * (width - filled)
        sys.stderr.write(f"\r[{bar}] {done}/{total} {_shown_name(name, 40):<40}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def _shown_name(name: str, width: int) -> str:
    """A lesson file's path in at most ``width`` characters: whole, else its last folders
    that fit after ``…/``, else its file name cut at the start. The last characters alone
    read ``ons/18-retrieval-augmented-generation.md``, the folder's name cut in two."""
    if len(name) <= width:
        return name
    parts = name.split("/")
    for start in range(1, len(parts)):
        tail = "…/" + "/".join(parts[start:])
        if len(tail) <= width:
            return tail
    return "…" + parts[-1][-(width - 1):]


def _progress_lines():
    step = {"next": 0}

    def show(done: int, total: int, name: str) -> None:
        percent = 100 * done // max(total, 1)
        if percent >= step["next"] or done == total:
            print(f"read {done}/{counted(total, 'lesson file')} ({percent}%)", file=sys.stderr)
            step["next"] = percent - percent % 25 + 25

    return show


def _open(index: Path):
    """The index's searcher. The query side (and Whoosh's query modules) is imported only by
    the commands that query: a one-lesson ``index`` run spent a third of a second on it."""
    from .searcher import Searcher

    return Searcher.open(index)


def _search(args: argparse.Namespace) -> int:
    from . import responses

    searcher = _open(args.index)
    searcher.check_filters(args.lesson, args.module)
    response = searcher.search(args.query, args.limit, args.page, args.lesson, args.module)
    if args.json:
        _print_json(responses.search_body(response))
        return 0
    if response.left_out:  # a pasted paragraph: its first 64 words and phrases
        print(response.left_out.notice)
    for term in response.terms:
        print(f"[term] {term.term}: {term.definition or ''}")
    if response.suggestion and response.suggestion_searched and response.total:
        print(f"Showing results for {response.suggestion}")  # the typed words find nothing
    elif response.suggestion:
        print(f"Did you mean: {response.suggestion}")
    for word, searched in response.related:
        print(f"No results for {word}; showing results for {searched}.")
    if response.relaxed:
        print("No section has every word; showing sections with most of them.")
    first = (response.page - 1) * response.limit
    for rank, hit in enumerate(response.results, start=first + 1):
        where = " › ".join([hit.lesson_title, *([hit.heading] if hit.heading else [])])
        print(f"{rank}. {where}\n   {hit.url}\n   {_terminal(hit.snippet)}")
    if response.total and not response.results:  # a page after the last, as the API answers
        pages = -(-response.total // response.limit)
        fit = "on one page" if pages == 1 else f"on {pages} pages (--page {pages} shows the last)"
        print(f"There is no page {response.page} of these results; they fit {fit}.")
    shown = f"{first + 1}-{first + len(response.results)} of " if response.results else ""
    print(f"{shown}{counted(response.total, 'result')} for {response.query!r}")
    return 0


def _term(args: argparse.Namespace) -> int:
    from . import responses

    glossary = _open(args.index).glossary
    record = glossary.with_mentions(glossary.look_up(args.name, written=True))
    body = responses.term_body(record)
    if args.json:
        _print_json(body)
        return 0
    aliases = f" (also: {', '.join(record.aliases)})" if record.aliases else ""
    print(f"{record.term}{aliases}\n  {record.definition or '(no definition)'}")
    print(f"  source: {record.source}")
    if body["defined_at"]:
        print(f"  defined in a lesson: {body['defined_at']['url']}")
    print(f"  mentioned {counted(record.mention_count, 'time')} in "
          f"{counted(record.mention_sections, 'section')}")
    for m in record.mentions[:10]:
        print(f"    {m.count}× {m.url}")
    return 0


def _terms(args: argparse.Namespace) -> int:
    searcher = _open(args.index)
    records = searcher.glossary.records
    if args.json:
        from . import responses

        _print_json(responses.terms_body(records, searcher.term_forms()))
        return 0
    for r in records:
        mentions = counted(r.mention_count, "mention", width=4)
        print(f"{r.term:<36} {mentions:<13}  {(r.definition or '')[:60]}")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from .web import server  # Flask and gunicorn are loaded only for this command

    return server.serve(args.index, args.host, args.port, args.workers, args.threads, args.dev)


def _check(args: argparse.Namespace) -> int:
    """Every file of the live version is there, of the size and with the checksum its build
    recorded; else exit 1 with the sentence that names the first damaged file. What the
    server does in the background after opening a version, for an operator to run after
    copying an index, or from a monitor."""
    _checked(args.index)
    return 0


def _checked(index: Path) -> Path:
    """``check``'s work: the live version, once every file of it is as its build wrote it."""
    from .errors import IndexToRebuild
    from .index_store import current_version, open_manifest, verify_files

    version = current_version(index)
    try:
        manifest = open_manifest(version)
        verify_files(version, manifest)
    except IndexToRebuild as exc:  # a replica has no lessons to rebuild from
        raise LessonSearchError(exc.for_build_or_replica()) from exc
    print(f"Checked {counted(len(manifest['files']), 'file')} of version {version.name}: "
          "every one is as its build wrote it.")
    return version


def _prune(args: argparse.Namespace) -> int:
    """A replica's old versions, removed as a build removes its own (``index_store``), once
    the live one is checked: while it is damaged a server falls back to the newest older
    version that opens, which may be any of them, so nothing is removed then. Kept: the
    ``--keep`` newest, the live one and the one before it, which a server still reads
    while it checks the live one."""
    from .index_store import (
        KEEP_VERSIONS,
        build_lock,
        current_version,
        prune_versions,
        versions,
    )

    current_version(args.index)  # no index: said before a lock file is made there
    with build_lock(args.index):  # not while a build publishes and prunes
        try:
            live = _checked(args.index)
        except LessonSearchError as exc:
            raise LessonSearchError(f"{exc} Nothing was removed: while the live version is "
                                    "damaged a server serves an older one.") from exc
        older = [v.name for v in versions(args.index) if v.name < live.name]
        removed = prune_versions(args.index, {live.name, *older[-1:]},
                                 args.keep or KEEP_VERSIONS)
    kept = [v.name + (" (current)" if v == live else "") for v in versions(args.index)]
    gone = f"Removed {counted(len(removed), 'version')}"
    print(f"{gone}{': ' if removed else ''}{', '.join(v.name for v in removed)}; "
          f"kept {len(kept)}: {', '.join(kept)}.")
    return 0


def _versions_kept(raw: str) -> int:
    """``prune --keep``: a whole number of at least 2, the live version and the one before."""
    value = _count_option()(raw)
    if value < 2:
        raise argparse.ArgumentTypeError(
            f"at least 2, not {raw!r}: the live version and the one before it, which a "
            "server still reads while it checks the live one")
    return value


def _coverage(args: argparse.Namespace) -> int:
    from . import coverage_render
    from .coverage import coverage_report
    from .coverage_allow import default_allow_file
    from .index_store import current_version

    allow = args.allow or default_allow_file()
    report = coverage_report(current_version(args.index), args.index, allow, args.lessons,
                             strict_allow=True)
    for warning in report.allow_warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if args.format == "json":
        _print_json(coverage_render.report_body(report))
    else:
        render = {"table": coverage_render.render_table, "html": coverage_render.render_html,
                  "markdown": coverage_render.render_markdown}[args.format]
        print(render(report))
    failing = coverage_render.fail_lines(report, args.fail_on)
    if failing:
        print(f"lessonsearch: {counted(len(failing), 'coverage problem')} of kinds --fail-on names "
              "(accept one by adding its line to the allow-list):", file=sys.stderr)
        print("\n".join(failing), file=sys.stderr)
    return 1 if failing else 0


def _coverage_kinds(text: str) -> tuple[str, ...]:
    """``--fail-on``'s kinds: the problem lists. A move of lessons' links is no problem of
    the course (the site redirects its old links), so ``moved-links``, which an allow line
    may name, is refused here with a sentence saying why rather than as a typo."""
    from .coverage_allow import KINDS, MOVES

    kinds = tuple(dict.fromkeys(k.strip() for k in text.split(",") if k.strip()))
    if MOVES in kinds:
        raise argparse.ArgumentTypeError(
            f"{MOVES} never fails: a move of lessons' links is informational (redirect "
            "the old links, then accept the move with its allow line); choose from "
            f"{', '.join(KINDS)}")
    unknown = [k for k in kinds if k not in KINDS]
    if unknown or not kinds:
        raise argparse.ArgumentTypeError(
            f"unknown kind {', '.join(unknown) or text!r}; choose from {', '.join(KINDS)}")
    return kinds


def _count_option(most: int | None = None) -> Callable[[str], int]:
    """An option's reader refusing what the API answers 400 for: not a whole number of at
    least 1 written in digits alone (no spaces either: ``limit=%205`` is a 400), or over
    ``most``. ``--limit 0`` once quietly showed one result."""
    def read(raw: str) -> int:
        value = whole_number(raw)
        if value is None:
            raise argparse.ArgumentTypeError(f"a whole number of at least 1, not {raw!r}")
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"at most {most}, not {raw!r}")
        return value

    return read


def _base_url(raw: str) -> str:
    """``--base-url``: a web link (``links.is_web_link``), else a usage error: a mistyped
    flag is the person's to fix now, where a course file's is a warning among the lessons'."""
    if not is_web_link(raw):
        raise argparse.ArgumentTypeError(not_a_link("the base URL", raw))
    return raw


def _lessons_shown(raw: str) -> int | None:
    """``--lessons``: what ``?lessons=`` takes (digits alone, at least 1), or ``all``."""
    if raw == "all":
        return None
    value = whole_number(raw)
    if value is None:
        raise argparse.ArgumentTypeError(f"a whole number of at least 1, or all, not {raw!r}")
    return value


def _print_json(body: object) -> None:
    print(json.dumps(body, ensure_ascii=False, indent=2))


def _wants_json(args: argparse.Namespace) -> bool:
    """``--json``, or ``coverage --format json``: a script reads the output, so an error
    is printed as JSON too."""
    return bool(getattr(args, "json", False)) or getattr(args, "format", None) == "json"


def _print_error_json(message: str, **extra: object) -> None:
    from . import responses

    _print_json(responses.error_body(message, **extra))


_MARK = re.compile(r"</?mark>")


def _terminal(snippet: str) -> str:
    """A snippet for the terminal: marks as bold where colours work, entities decoded."""
    if sys.stdout.isatty():
        text = snippet.replace("<mark>", "\033[1m").replace("</mark>", "\033[0m")
    else:
        text = _MARK.sub("", snippet)
    return html.unescape(SNIPPET_LINE_INDENT.join(" ".join(line.split())
                                                  for line in text.split("\n")))


SNIPPET_LINE_INDENT = "\n   "
"""Between the lines of a code snippet (``snippets.LINE_BREAK``): each under the last, as
the snippet's first line is indented under its hit's link."""


if __name__ == "__main__":
    sys.exit(main())
