"""YAML as the course's files use it (Markdown front matter, ``course.yml``, glossary entry
headers): plain data only.

Parsed by libyaml when PyYAML was built with it, as its wheels are: the same data eight times
faster than PyYAML's pure-Python parser, which took a fifth of reading a Markdown course.
"""

from __future__ import annotations

from typing import Any

import yaml

YAMLError = yaml.YAMLError

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(text: str) -> Any:
    """``yaml.safe_load``: mappings, lists, strings, numbers, booleans, dates and null."""
    return yaml.load(text, Loader=_LOADER)
