"""The optional course file: course title, base URL, lesson order and modules.

Two forms are read: our ``lessonsearch.toml`` and the Carpentries Workbench ``config.yaml``
(whose ``episodes:`` list gives the order). Either may sit in the lessons folder or its parent.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import LessonFormatError
from .model import CourseInfo, Module
from .slugs import slugify

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
    text = path.read_text(encoding="utf-8-sig")
    if path.suffix == ".toml":
        return _from_toml(text, str(path))
    return _from_workbench(text, str(path))


def _from_toml(text: str, source: str) -> CourseFile:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LessonFormatError(source, f"invalid TOML: {exc}") from exc
    course = data.get("course", {})
    info = None
    if course.get("title") or course.get("slug"):
        title = str(course.get("title") or course.get("slug"))
        info = CourseInfo(str(course.get("slug") or slugify(title)), title, course.get("url"))
    order: list[str] = list(course.get("lessons", []))
    modules: dict[str, Module] = {}
    for number, table in enumerate(data.get("module", []), start=1):
        title = str(table.get("title") or table.get("slug") or f"Module {number}")
        module = Module(int(table.get("index", number)), str(table.get("slug") or slugify(title)),
                        title)
        for name in table.get("lessons", []):
            modules[str(name)] = module
            order.append(str(name))
    return CourseFile(
        info=info,
        base_url=course.get("base_url"),
        order=tuple(order),
        modules=modules,
        source=source,
        allow=data.get("coverage", {}),
    )


def _from_workbench(text: str, source: str) -> CourseFile:
    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise LessonFormatError(source, f"invalid YAML: {exc}", line) from exc
    if not isinstance(data, dict):
        return CourseFile(source=source)
    title = data.get("title")
    url = data.get("url")
    info = CourseInfo(slugify(str(title)), str(title), url) if title else None
    episodes = data.get("episodes") or []
    return CourseFile(
        info=info,
        base_url=f"{url.rstrip('/')}/" if isinstance(url, str) else None,
        url_suffix=".html" if isinstance(url, str) else "",
        order=tuple(str(e) for e in episodes if isinstance(e, str)),
        source=source,
        uses_stem_urls=True,
    )
