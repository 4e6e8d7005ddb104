"""Our own exceptions: raised deep down, translated once at each edge (CLI, HTTP)."""

from __future__ import annotations


class LessonSearchError(Exception):
    """Base class: the message is a sentence that says what went wrong and what to do."""


class LessonFormatError(LessonSearchError):
    """A lesson or glossary file that cannot be read; names the file and, where known, the place."""

    def __init__(self, path: str, reason: str, line: int | None = None, column: int | None = None):
        self.path = path
        self.reason = reason
        self.line = line
        self.column = column
        where = path + (f":{line}" if line is not None else "") + (
            f":{column}" if line is not None and column is not None else ""
        )
        super().__init__(f"{where}: {reason}")


class IndexNotBuilt(LessonSearchError):
    public = "Index not built: run `lessonsearch index` on the server to build it."
    """What the server says instead of the message, which names a server path the public
    need not see."""

    def __init__(self, path: str):
        self.path = path
        super().__init__(
            f"No index at {path}. Build one with: lessonsearch index --out {path}"
        )


class IndexToRebuild(IndexNotBuilt):
    """An index is there but cannot be served: only a full build replaces it. Not "Index not
    built", which sends the editor to a plain build that would find the index there."""

    reason = ""
    """What is wrong with it, after "The index at PATH"."""

    def __init__(self, path: str):
        self.path = path
        LessonSearchError.__init__(
            self, f"The index at {path} {self.reason}. "
                  f"Rebuild it: lessonsearch index --full --out {path}")

    replica = "copy the version again under a new name and swap current"
    """What a replica does instead of rebuilding: it has no lessons to build from."""

    def for_build_or_replica(self) -> str:
        """The sentence with what to do in both places an index lives: where it is built,
        and on a replica it was copied to (``lessonsearch check``, run on either)."""
        return (f"The index at {self.path} {self.reason}. Where it is built, rebuild it: "
                f"lessonsearch index --full --out {self.path}; on a replica, which has no "
                f"lessons to build from, {self.replica}.")


class IndexIncompatible(IndexToRebuild):
    """A version folder written by another release of lessonsearch, in another format."""

    reason = "was built by another version of lessonsearch"
    replica = ("copy a version built by this version of lessonsearch under a new name and "
               "swap current")
    public = ("The index was built by another version of lessonsearch. Rebuild it on the "
              "server: lessonsearch index --full")


class IndexUnreadable(IndexToRebuild):
    """A version folder whose manifest cannot be read: cut short (a copy not finished), or
    not the JSON object a build writes."""

    reason = "cannot be read: its manifest is damaged"
    public = ("The index cannot be read: its manifest is damaged. Rebuild it on the server: "
              "lessonsearch index --full")


class IndexIncomplete(IndexToRebuild):
    """A version folder with a part every build writes (its Whoosh index, its glossary file)
    missing or damaged: a copy not finished, or a file removed or overwritten by hand. The
    sentence names the part and its file, never the server's folder, so the health check and
    a 503 can say it too."""

    def __init__(self, path: str, part: str, problem: str = "is missing or damaged"):
        self.part = part
        self.reason = f"cannot be read: its {part} {problem}"
        self.public = (f"The index {self.reason}. Rebuild it on the server: "
                       "lessonsearch index --full")
        super().__init__(path)


class IndexDamaged(IndexIncomplete):
    """A version that opened but a file of which a search could not read, or whose bytes are
    not the ones the build wrote (``index_store.verify_files``, after opening): written over
    with bytes of its own size, which its size and the headers read at opening do not show.
    ``file`` is the file as the version names it (``whoosh/MAIN_….pst``), or its Whoosh
    folder when the read did not say; ``problem`` says how it was found."""

    def __init__(self, path: str, version: str, file: str,
                 problem: str = "is damaged: a search could not read it"):
        self.version = version
        self.file = file
        self.problem = problem
        super().__init__(path, f"file {file} of version {version}", problem)


class IndexInCourse(LessonSearchError):
    """An index folder that is the lessons or the glossary folder: the course would be
    written into, and the next build would read the index's files as lessons."""

    def __init__(self, out: str, kind: str):
        super().__init__(f"--out {out} is the {kind} folder: the index would be written "
                         "among the course's own files. Choose another folder, such as "
                         "index/ beside it.")


class IndexAmongLessons(LessonSearchError):
    """An index folder inside the lessons folder that holds files of its own: the build
    does not read the index's folder as lessons (``course.lesson_files``), so the lessons
    in it would be left out without a word."""

    def __init__(self, out: str, names: list[str]):
        shown = ", ".join(names[:3]) + (", …" if len(names) > 3 else "")
        super().__init__(f"--out {out} is inside the lessons folder and holds files that "
                         f"are not an index's ({shown}): they would not be read as lessons. "
                         "Choose an empty folder or one outside the lessons folder, such as "
                         "index/ beside it.")


class BadSetting(LessonSearchError):
    """A setting the server cannot use, refused when it starts rather than answering wrong."""


class BuildInProgress(LessonSearchError):
    """Another build holds the index folder's lock."""


class TermNotFound(LessonSearchError):
    def __init__(self, name: str, suggestions: tuple[str, ...] = ()):
        self.name = name
        self.suggestions = suggestions
        hint = f" Did you mean: {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"No term named {name!r} in the glossary.{hint}")

    def details(self) -> dict[str, object]:
        """What an error body says besides the sentence (the API's 404, ``term --json``)."""
        return {"suggestions": list(self.suggestions)}


class TermWithoutDefinition(TermNotFound):
    """A name the glossary writes as a term with no definition yet (an editor's stub): not
    in the glossary readers see, but no unknown name either. ``written_at`` is its
    ``file:line`` in the glossary folder."""

    def __init__(self, name: str, term: str, written_at: str):
        self.name = name
        self.term = term
        self.written_at = written_at
        self.suggestions = ()
        LessonSearchError.__init__(
            self, f"{term!r} is in the glossary but has no definition yet (written at "
                  f"{written_at}).")

    def details(self) -> dict[str, object]:
        return {**super().details(),
                "no_definition_yet": {"term": self.term, "written_at": self.written_at}}


class BadQuery(LessonSearchError):
    """A query the searcher refuses (empty, too long); the web layer answers 400."""


class UnknownFilter(BadQuery):
    """A ``lesson`` or ``module`` filter the course does not have: searched, it would match
    nothing and read as "the course never says that". The pages link the wider search."""

    def __init__(self, name: str, value: str):
        self.name = name
        self.value = value
        super().__init__(f"No {name} {value!r} in this course; /api/lessons lists its lessons "
                         "and modules.")
