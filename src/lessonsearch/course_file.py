"""The optional course file: course title, base URL, lesson order and modules.

Two forms are read: our ``lessonsearch.toml`` and the Carpentries Workbench ``config.yaml``
(whose ``episodes:`` list gives the order). Either may sit in the lessons folder or its parent.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from .errors import LessonFormatError
from .links import is_web_link, not_a_link
from .model import CourseInfo, Module, Problem, quoted
from .slugs import slugify
from .text_files import decode
from .yaml_data import YAMLError, fault, safe_load

COURSE_FILES = ("lessonsearch.toml", "config.yaml")
DEFAULT_BASE_URL = "/lessons/"


@dataclass(frozen=True)
class CourseFile:
    info: CourseInfo | None = None
    base_url: str | None = None
    url_suffix: str = ""
    """Appended to a derived lesson URL (the Workbench publishes ``<episode>.html``)."""
    order: tuple[str, ...] = ()
    """Lesson file names in course order."""
    modules: dict[str, Module] = field(default_factory=dict)
    """File name → the module that lists it."""
    source: str | None = None
    allow: dict[str, Any] = field(default_factory=dict)
    """The ``[coverage]`` table, read by the coverage report."""
    uses_stem_urls: bool = False
    text: str = field(default="", repr=False)
    """The file's text, for ``line_of``: neither parser keeps places."""
    problems: tuple[Problem, ...] = ()
    """What was wrong but could be read past: a URL that is no web link, left out."""

    def line_of(self, name: str) -> int | None:
        """The first line, not a comment, holding ``name`` whole: where a warning about a
        listed lesson file points."""
        whole = re.compile(rf"(?<![\w./-]){re.escape(name)}(?![\w./-])")
        for number, line in enumerate(self.text.splitlines(), start=1):
            if not line.lstrip().startswith("#") and whole.search(line):
                return number
        return None


def find_course_file(lessons_dir: Path) -> Path | None:
    for folder in (lessons_dir, lessons_dir.parent):
        for name in COURSE_FILES:
            candidate = folder / name
            if candidate.is_file():
                return candidate
    return None


def read_course_file(lessons_dir: Path) -> CourseFile:
    path = find_course_file(lessons_dir)
    if path is None:
        return CourseFile()
    source = shown(path, lessons_dir)
    text = decode(path.read_bytes(), source)
    if path.suffix == ".toml":
        return _from_toml(text, source)
    return _from_workbench(text, source)


def shown(path: Path, lessons_dir: Path) -> str:
    """The course file as warnings name it: like the lessons, from the lessons folder's own
    name down (``lessons/lessonsearch.toml``; ``config.yaml`` in the folder above), so an
    absolute ``--lessons`` puts no absolute path beside the lessons' own in one line."""
    inside = Path(lessons_dir.name) if path.parent == lessons_dir else Path()
    return str(inside / path.name)


def _from_toml(text: str, source: str) -> CourseFile:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        at = _TOML_PLACE.search(str(exc))
        line, column = (int(at[1]), int(at[2])) if at else (None, None)
        raise LessonFormatError(source, f"invalid TOML: {exc}", line, column) from exc
    course = _table(data.get("course"), "[course]", source)
    problems: list[Problem] = []
    links = partial(_link, source=source, text=text, problems=problems)
    info = None
    if course.get("title") or course.get("slug"):
        title = str(course.get("title") or course.get("slug"))
        info = CourseInfo(str(course.get("slug") or slugify(title)), title,
                          links(course.get("url"), "url", "course.url", "it is not linked"))
    order = _names(course.get("lessons"), "course.lessons", source)
    modules: dict[str, Module] = {}
    tables = data.get("module", [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise LessonFormatError(source, "modules must be [[module]] tables")
    for number, table in enumerate(tables, start=1):
        title = str(table.get("title") or table.get("slug") or f"Module {number}")
        index = table.get("index", number)
        if isinstance(index, bool) or not isinstance(index, int):
            raise LessonFormatError(source, f"module {title!r}: index must be a whole number, "
                                    f"not {quoted(index)}")
        module = Module(index, str(table.get("slug") or slugify(title)), title)
        for name in _names(table.get("lessons"), f"module {title!r}: lessons", source):
            modules[name] = module
            order.append(name)
    return CourseFile(
        info=info,
        base_url=links(course.get("base_url"), "base_url", "course.base_url",
                       f"lessons link to {DEFAULT_BASE_URL}<slug> instead"),
        order=tuple(order),
        modules=modules,
        source=source,
        allow=_table(data.get("coverage"), "[coverage]", source),
        text=text,
        problems=tuple(problems),
    )


_TOML_PLACE = re.compile(r"\(at line (\d+), column (\d+)\)")


def _table(value: Any, name: str, source: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise LessonFormatError(source, f"{name} must be a table")
    return value


def _names(value: Any, name: str, source: str) -> list[str]:
    """A list of lesson file names; a bare string would otherwise become its characters."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise LessonFormatError(source, f"{name} must be a list of file names")
    return list(value)


def _text(value: Any, name: str, source: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise LessonFormatError(source, f"{name} must be a string, not {quoted(value)}")
    return value


def _link(value: Any, key: str, name: str, instead: str, *, source: str, text: str,
          problems: list[Problem]) -> str | None:
    """A URL the course file gives (``_text``), or None with a warning when it is no web
    link: a ``javascript:`` base URL would make every lesson's link run it."""
    url = _text(value, name, source)
    if url is None or is_web_link(url):
        return url
    line = next((number for number, written in enumerate(text.splitlines(), start=1)
                 if re.match(rf"\s*{re.escape(key)}\s*[=:]", written)), None)
    problems.append(Problem(source, f"{not_a_link(name, url)}; {instead}", line))
    return None


def _from_workbench(text: str, source: str) -> CourseFile:
    try:
        data = safe_load(text) or {}
    except YAMLError as exc:
        why, line, column = fault(exc, text, 1)
        raise LessonFormatError(source, f"invalid YAML: {why}", line, column) from exc
    if not isinstance(data, dict):
        return CourseFile(source=source)
    title = data.get("title")
    problems: list[Problem] = []
    url = _link(data.get("url"), "url", "url", f"lessons link to {DEFAULT_BASE_URL}<episode> "
                "instead", source=source, text=text, problems=problems)
    info = CourseInfo(slugify(str(title)), str(title), url) if title else None
    episodes = data.get("episodes") or []
    if not isinstance(episodes, list):
        raise LessonFormatError(source, "episodes must be a list of file names")
    return CourseFile(
        info=info,
        base_url=f"{url.rstrip('/')}/" if isinstance(url, str) else None,
        url_suffix=".html" if isinstance(url, str) else "",
        order=tuple(str(e) for e in episodes if isinstance(e, str)),
        source=source,
        uses_stem_urls=True,
        text=text,
        problems=tuple(problems),
    )
