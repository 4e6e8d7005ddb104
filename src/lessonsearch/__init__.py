"""lessonsearch: a searchable online course (``whoosh_parts`` is set up first, before any
module imports Whoosh)."""

from . import whoosh_parts

whoosh_parts.install()
