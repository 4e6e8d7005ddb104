"""Walking a course's folders (the lessons, the glossary): every name below one, once.

A link to a folder is entered, as a link to a file is read: an editor who links a shared
folder of lessons into the course means its lessons to be read, and leaving them out said
nothing. Each folder is entered once, known by what it is (device and inode) rather than by
its name, at the first name the walk comes to in path order: two links to one shared folder,
or a link in it back up its own tree, read no file twice. A link to a folder inside the
walked one is not entered, so its files keep their own names there. A link to a folder that
holds the walked one would read it all again (a loop): it is not entered, and said so.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from .model import quoted


def named(folder: Path) -> Path:
    """``folder`` as files below it are named from: ``.`` and ``..`` have no name of their
    own (``Path(".").name`` is empty), so ``--lessons .`` named a lesson ``/03-grind.txt``
    and said "but / has no such file". Such a folder is taken by its full path, whose last
    part is its name; any other is kept as given."""
    return folder.resolve() if folder.name in ("", "..") else folder


def entries_below(root: str, unread: dict[str, str], skip: str | None = None
                  ) -> Iterator[os.DirEntry]:
    """Every entry below ``root`` but hidden ones: the files, the names that lead nowhere
    (a link to nothing or to itself, whose reader says why), and each folder entered,
    before what is in it. A folder that cannot be listed, or a link to one that holds
    ``root``, is not entered, and ``unread`` hears its path and why, in words a warning
    ends with. ``skip`` (the index's folder) is not entered; ``root`` unreadable raises."""
    top = os.path.realpath(root)
    entered = {_identity(os.stat(root))}
    if skip is not None and os.path.isdir(skip):
        entered.add(_identity(os.stat(skip)))
    stack: list[tuple[str, os.DirEntry | None]] = [(root, None)]
    while stack:
        folder, entry = stack.pop()
        if entry is not None:
            try:
                identity = _identity(entry.stat())
            except OSError:
                identity = None  # gone, or not to be looked at: listing it says why
            if identity in entered:
                continue
            if identity is not None:
                entered.add(identity)
            yield entry
        try:
            with os.scandir(folder) as listing:
                names = sorted((e for e in listing if not e.name.startswith(".")),
                               key=lambda e: e.name)
        except OSError as error:
            if entry is None:
                raise  # no course at all: the build says so and stops
            unread[folder] = (f"cannot read this folder ({error.strerror or error}); the "
                              "files in it were skipped")
            continue
        folders = []
        for name in names:
            if not _is_folder(name):
                yield name
            elif not name.is_symlink():
                folders.append((name.path, name))
            elif _inside(real := os.path.realpath(name.path), top):
                continue  # its files are read at their own names
            elif _inside(top, real):
                unread[name.path] = _loop(name.path, root)
            else:
                folders.append((name.path, name))
        stack.extend(reversed(folders))  # the first name is entered first


def _is_folder(entry: os.DirEntry) -> bool:
    """``entry.is_dir()``, but False for a link in a loop, which it raises for."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def _identity(status: os.stat_result) -> tuple[int, int]:
    return status.st_dev, status.st_ino


def _inside(path: str, folder: str) -> bool:
    return os.path.commonpath([path, folder]) == folder


def _loop(link: str, root: str) -> str:
    """Why the linked folder ``link``, which holds ``root``, is not entered: entering it
    would walk the whole of ``root`` again, and what else it holds is not the course's."""
    return (f"links to {quoted(os.readlink(link))}, which holds "
            f"{quoted(os.path.basename(os.path.normpath(root)))} itself (a loop); it was not "
            "read")
