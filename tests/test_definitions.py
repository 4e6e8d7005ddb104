"""Where a lesson's prose defines a term: each phrasing found, and the near-misses refused.

The sentences are invented (a databases course) so the rules are checked on prose they were
not tuned on.
"""

from __future__ import annotations

import pytest

from lessonsearch.build import build_index
from lessonsearch.definition_terms import split_sentences
from lessonsearch.definitions import KINDS, find_definitions, points_back
from lessonsearch.model import DefinitionItem, Lesson, Section, text_fragment
from lessonsearch.readers.markdown import read_markdown_lesson
from lessonsearch.searcher import Searcher

URL = "https://learn.example.org/databases/storage"


def lesson_of(*sections: Section) -> Lesson:
    return Lesson(slug="storage", title="Storage", url=URL, source="storage.md",
                  format="markdown", sections=sections)


def section(*paragraphs: str, emphasis: tuple[str, ...] = (), anchor: str | None = "intro",
            list_items: tuple[str, ...] = (), definitions=()) -> Section:
    return Section(anchor=anchor, heading="Intro" if anchor else None, level=2 if anchor else 0,
                   paragraphs=paragraphs, list_items=list_items, emphasis=emphasis,
                   definitions=tuple(definitions))


def defined(*paragraphs: str, emphasis: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    found = find_definitions(lesson_of(section(*paragraphs, emphasis=emphasis)))
    return [(d.term, d.kind) for d in found]


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("Keeping a copy of a result so the next request can reuse it is called caching.",
         "caching"),
        ("A query that runs inside another query is known as a subquery.", "subquery"),
        ("Splitting one wide table into narrow ones is what database people call "
         "normalization.", "normalization"),
        ("Two writers racing for one row is a hazard, and we call this a lost update.",
         "lost update"),
        ("The copy that answers reads, known as the replica, lags a little behind.", "replica"),
        ("Rows are found through a structure called a B-tree.", "B-tree"),
        ("The planner picks a hash join, also called a hash match.", "hash match"),
        # a preposition ends the name, "without" only when a name word follows it
        ("Keeping each answer for the next request is called caching inside the server.",
         "caching"),
        ("Storing each result in a dictionary is called memoization using a decorator.",
         "memoization"),
        ("Drawing rows so that none is drawn twice is called sampling without replacement.",
         "sampling without replacement"),
        ("Putting each row back before the next draw is called sampling with replacement.",
         "sampling with replacement"),
        # "per" joins a name only after a plural noun, a unit's
        ("Smoothing each class on its own is called label smoothing per class.",
         "label smoothing"),
        ("The figure we report is called rows per second.", "rows per second"),
    ],
)
def test_naming(sentence, term):
    assert defined(sentence) == [(term, "naming")]


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        # any noun after "kind of", "type of", "sort of": a kind, not one thing
        ("Two readers that see a row change between their reads hit a subtle kind of "
         "anomaly called a phantom read.", "phantom read"),
        ("Most engines keep rows in a balanced sort of tree usually called a B-tree.",
         "B-tree"),
        ("Waiting locks can form a nasty type of deadlock called a convoy.", "convoy"),
        # a listed kind may be described
        ("Busy tables are split by a simple technique called sharding.", "sharding"),
    ],
)
def test_a_described_kind_called_x_names_x(sentence, term):
    assert defined(sentence) == [(term, "naming")]


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("Two clients saving one row at once have what database people call a write "
         "conflict.", "write conflict"),
        ("Every replica keeps what operators call a replication slot.", "replication slot"),
        ("Tables that hold the same facts twice share what most designers would call "
         "redundancy.", "redundancy"),
        ("Dropping the rows nobody reads is an example of what programmers call pruning.",
         "pruning"),
    ],
)
def test_what_people_call_x_names_x_after_a_verb_that_has_it(sentence, term):
    assert defined(sentence) == [(term, "naming")]


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("We call this quantity the bits per byte, and a smaller figure means better "
         "compression.", "bits per byte"),
        ("We call this number the temperature.", "temperature"),
        ("This quantity is called perplexity.", "perplexity"),
        ("Engineers call these spare pages the overflow area.", "overflow area"),
        ("We call such a table a heap.", "heap"),
        ("We call this a lost update.", "lost update"),
        ("We call such rows orphans.", "orphans"),
        ("We call this process fine-tuning.", "fine-tuning"),
        ("We call this process garbage collection.", "garbage collection"),
        ("We call this arrangement sharding.", "sharding"),
        ("We call this structure a trie.", "trie"),
        ("We call this approach retrieval augmentation.", "retrieval augmentation"),
        ("Engineers call these techniques query hints.", "query hints"),
        ("We call this strategy write-ahead logging, and every engine uses it.",
         "write-ahead logging"),
        ("We call this gradient clipping.", "gradient clipping"),
        ("We call this type inference.", "type inference"),
        ("We call this pattern matching.", "pattern matching"),
        ("We call this setting weight decay.", "weight decay"),
        ("We call these outputs logits.", "logits"),  # a plural noun, listed kind or not
        ("We call these raw scores logits.", "logits"),  # and the words describing it
        ("Engineers call those two unnormalised scores logits.", "logits"),
        # more describing words, or a first one that is no term's, when the name ends it
        ("We call these large unfiltered readings spikes.", "spikes"),
        ("We call these very large readings outliers.", "outliers"),
        ("Engineers call those brand new replicas stragglers.", "stragglers"),
        ("We call these noisy unfiltered sensor readings spikes.", "spikes"),
        ("We call these numbers points of interest.", "points of interest"),
        ("We call these stop words.", "stop words"),  # nothing after the plural noun
        ("Engineers call those pages tombstones.", "tombstones"),
        ("We refer to this value as the logit.", "logit"),
        ("People refer to this as gradient clipping.", "gradient clipping"),
        ("Engineers usually refer to these pages as dirty pages.", "dirty pages"),
        ("We refer to the rows read per second as the scan rate.", "scan rate"),
        ("We call this delay the round-trip time.", "round-trip time"),  # a time, not how often
        ("We call these delays response times.", "response times"),
        ("Benchmarks report it in rows per second, a figure known as rows per second.",
         "rows per second"),
    ],
)
def test_naming_names_the_complement_not_the_demonstratives_noun(sentence, term):
    """In "call this quantity the Y" the quantity is what is named; Y is the name."""
    assert defined(sentence) == [(term, "naming")]


@pytest.mark.parametrize(
    ("paragraphs", "emphasis", "term"),
    [
        (("Each page read is counted once. We call this value the read count, and the "
          "read count is cheap.",), (), "read count"),
        (("We call these values cardinalities.",), (), "cardinalities"),
        (("We call this value selectivity.",), ("selectivity",), "selectivity"),
        (("We call this process vacuuming.",), (), "vacuuming"),
        # The kind belongs to the name: alone, or repeated, or marked whole.
        (("We call this type inference.", "Inference fails only on an empty list."),
         ("type inference",), "type inference"),
        (("We call this pattern matching.", "Pattern matching reads each row once; matching "
          "costs nothing more."), (), "pattern matching"),
        (("We call this value iteration.",), (), "value iteration"),
        # The word used alone later is no sign: "inference" is what type inference does.
        (("We call this type inference.", "Inference happens at compile time."), (),
         "type inference"),
        (("We call this value iteration.", "The iteration stops when values settle."), (),
         "value iteration"),
        (("We call this step size.", "A size too large overshoots."), (), "step size"),
    ],
)
def test_a_kind_noun_before_one_word_is_part_of_the_name_unless_the_lesson_marks_the_word(
        paragraphs, emphasis, term):
    """"We call this value selectivity" could name "value selectivity" as "We call this
    type inference" names type inference: the lesson's emphasis decides, and without it the
    two words are the name, as most such phrases are; a plural kind ("these values") never
    opens a name."""
    assert defined(*paragraphs, emphasis=emphasis) == [(term, "naming")]


@pytest.mark.parametrize(
    "sentence",
    [
        "The handler is called every time a request arrives.",
        "What is known as well is that indexes cost space.",
        "The cleanup function is called by the scheduler.",
        "The trick has been known as long as databases have existed.",
        "The file is called backup.sql and sits next to the data.",
        "What happens when the server is called twice?",
        "Open a file called notes.txt in the editor.",
        "Then define a function called main.",
        "We call this function twice.",
        "We call these two functions once per step.",
        "We call these small functions twice.",
        "We call these expensive functions lazily.",
        "We call these large functions from both scripts.",
        "We call this method twice.",
        "We call this process once per batch.",
        # how often or how long it is called
        "The handler is called three times.",
        "The handler is called a number of times while the page loads.",
        "We call this function a second time.",
        "We call these functions a second time.",
        "We call these functions the whole time.",
        "We refer to this table as needed.",
        "You can refer to the manual as you work.",
        "We refer to it as often as we can.",
        # an instance called so, not a kind
        "Open a new file called notes.txt in the editor.",
        "Then define a small function called main.",
        # which name something gets, not a name
        "It does not matter what we call the table.",
        "Check what the script calls the column.",
    ],
)
def test_naming_near_misses(sentence):
    assert defined(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        # where, when or how they are called: nothing follows the plural noun in the name
        "We call these functions from both scripts.",
        "We call these helper functions directly.",
        "We call these callbacks asynchronously.",
        "We call these functions again later.",
        "We call those APIs at startup.",
        "You call those functions with arguments.",
        # or what follows it opens with a preposition, or says when, how or how often
        "We call these functions per request.",
        "We call these stored procedures within a transaction.",
        "We call these functions afterwards.",
        "We call these triggers tomorrow.",
        "We call these functions inline.",
        "We call these functions multiple times.",
        "We call these functions straight away.",
        "We call those lazily.",
        "We call these loaders, then the parsers.",
        # a sentence that opens with a step of a sequence calls
        "Then we call these functions.",
        "Finally we call those methods.",
        "After that, we call these helpers.",
        # a thing one calls, alone after "call these", is what is called when nothing
        # before it says what "these" are: the sentence opens its section, the sentence
        # before writes the name already or shows them after a colon, or it is a step
        "We call these getters.",
        "We call these scripts.",
        "We call these queries.",
        "The module defines two helper functions. We call these functions.",
        "Each class gets two small methods. We call those methods!",
        "Some files hold shell commands run one after another. Now we call these scripts.",
        "Some files hold shell commands run one after another. Here we call those scripts.",
        # or the words after it say how or when they are called
        "Some files hold shell commands run one after another. We call these scripts twice.",
        "Some files hold shell commands run one after another. We call these scripts, then "
        "the loaders.",
        # and an article after a preposition opens no name
        "We call these methods in a loop.",
        "Programmers call these functions from the command line.",
    ],
)
def test_calling_these_functions_names_nothing(sentence):
    """In a programming lesson "call" also calls functions: "We call these functions …"
    names something only when the name ends the sentence."""
    assert defined(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        # the words after the noun say when, where or how it is called
        "We call this script nightly.",
        "We call this query from Python.",
        "Then we call this constructor with no arguments.",
        "We call this hook before every commit.",
        "We call this API twice per request.",
        "They call this service every minute.",
        "We call this helper function from both scripts.",
        # a thing one calls, or a kind, alone after "this" is what is called
        "Next, we call this method.",
        "After the insert we call this trigger.",
        "We call that endpoint.",
        "We call this getter.",
        "We call this validator.",
        "We call this loader, then the parser.",
        "We call this init, then the parser.",
        "We call this lambda inline.",
        # after a step, a name after an article must be closed or marked too
        "Finally, we call this an hour later.",
        "Next we call this a bit later.",
        "Then we call these a second time.",
        "First, we call this once.",
        "We call this arrangement.",
        # after a step, a kind one calls, or a kind with no name after it, is what is called
        "Next, we call this method twice.",
        "Then we call this procedure cleanup.",
        "Then we call this approach instead.",
        "Then we call this process directly.",
        "Next, we call this step an hour later.",
        "Next, we call this stage the next morning.",
        "Then we call this method the same way.",
        "Next, we call this process in a loop.",
    ],
)
def test_calling_this_function_names_nothing(sentence):
    """"We call this X" calls X in a programming lesson as often as it names: a count noun
    after "this" is the thing called, and words after a name say how it is called."""
    assert defined(sentence) == []


DESCRIBES_SCRIPTS = "Some files hold shell commands that run one after another."


@pytest.mark.parametrize(
    ("naming", "emphasis", "term"),
    [
        ("We call these scripts.", ("scripts",), "scripts"),
        ("We call these scripts!", ("scripts",), "scripts"),
        ("People call those hooks.", ("hooks",), "hooks"),
        # singular, "this" and the name alone
        ("We call this script.", ("script",), "script"),
        ("We call that endpoint.", ("endpoint",), "endpoint"),
        ("We call this method.", ("method",), "method"),
    ],
)
def test_a_marked_thing_one_calls_after_call_these_names_it(naming, emphasis, term):
    """"We call these *scripts*." names scripts: set in bold or italics and ending the
    sentence, a thing one calls is the name, not what is called. It points back: the card
    reads it after the sentence that says what "these" are."""
    (found,) = find_definitions(lesson_of(section(f"{DESCRIBES_SCRIPTS} {naming}",
                                                  emphasis=emphasis)))
    assert (found.term, found.kind, found.glossary_only) == (term, "naming", False)
    assert found.text == f"{DESCRIBES_SCRIPTS} {naming}" and found.before == DESCRIBES_SCRIPTS


@pytest.mark.parametrize(
    ("naming", "term"),
    [
        ("We call these scripts.", "scripts"),
        ("Programmers call those hooks.", "hooks"),
        ("In this course we call these helpers.", "helpers"),
        ("We call these APIs.", "APIs"),
    ],
)
def test_an_unmarked_thing_one_calls_after_call_these_names_only_a_glossary_term(naming, term):
    """"We call these scripts." after a sentence that describes them without the name
    names scripts where the glossary has script, and nothing elsewhere
    (``glossary_only``): unmarked, the sentence may as well call them."""
    (found,) = find_definitions(lesson_of(section(f"{DESCRIBES_SCRIPTS} {naming}")))
    assert (found.term, found.kind, found.glossary_only) == (term, "naming", True)
    assert found.text == f"{DESCRIBES_SCRIPTS} {naming}"


@pytest.mark.parametrize(
    ("sentence", "emphasis"),
    [
        # unmarked, a singular thing one calls with no article is what is called ("a
        # script" would be a name), whatever the glossary holds
        ("We call this script.", ()),
        # marked, the name must end the sentence, and a step still calls
        ("We call these scripts from cron.", ("scripts",)),
        ("We call these scripts twice.", ("scripts",)),
        ("Then we call these scripts.", ("scripts",)),
        ("Next, we call this method.", ("method",)),
    ],
)
def test_a_thing_one_calls_that_is_called_names_nothing(sentence, emphasis):
    found = find_definitions(lesson_of(section(f"{DESCRIBES_SCRIPTS} {sentence}",
                                               emphasis=emphasis)))
    assert [(d.term, d.kind) for d in found] == []


@pytest.mark.parametrize(
    ("sentence", "emphasis", "term"),
    [
        ("We call this memoization.", (), "memoization"),
        ("We call that write amplification.", (), "write amplification"),
        ("We call this technique memoization.", (), "memoization"),
        ("We call this technique memoization in every lesson.", (), "memoization"),
        ("We call this memoization, and every engine does it.", (), "memoization"),
        ("We call this a lost update in most engines.", (), "lost update"),
        # after a step, an article right after "this" opens a name all the same
        ("First, we call this a lost update.", (), "lost update"),
        ("Then we call these a dirty read, and retry.", (), "dirty read"),
        ("Finally we call this a write skew in most engines.", ("write skew",), "write skew"),
        # and so does a kind right after "this" that no program calls
        ("Next, we call this situation a race condition.", (), "race condition"),
        ("First, we call this problem a lost update.", (), "lost update"),
        ("Finally, we call this approach dynamic programming.", (), "dynamic programming"),
        ("Then we call these strategies retries, and move on.", (), "retries"),
        ("Next we call this technique memoization in most engines.", ("memoization",),
         "memoization"),
        # an article after a preposition does not keep "this technique" from naming
        ("We call this technique memoization in the rest of the course.", (), "memoization"),
        ("We call this arrangement sharding in the rest of the course.", (), "sharding"),
        ("We call this memoization in every lesson.", ("memoization",), "memoization"),
    ],
)
def test_a_name_after_this_ends_the_sentence_or_is_closed_or_marked(sentence, emphasis, term):
    assert defined(sentence, emphasis=emphasis) == [(term, "naming")]


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("Next, we call this technique memoization in every lesson.", "memoization"),
        ("First, we call this approach dynamic programming from now on.",
         "dynamic programming"),
        ("Finally, we call this situation a race condition throughout the course.",
         "race condition"),
        ("Then we call this arrangement sharding in the lessons that follow, and it scales.",
         "sharding"),
        ("Next we call this problem a lost update in what follows.", "lost update"),
        # without a step, after a bare "this" or a plural noun, the same
        ("We call this memoization in every lesson.", "memoization"),
        ("We call that write amplification from here on.", "write amplification"),
        ("We call these stop words throughout this course.", "stop words"),
    ],
)
def test_words_saying_where_a_name_holds_close_it(sentence, term):
    """"… in every lesson", "… from now on": words after a name that say where or from
    when it holds close it as the sentence's end does, even after a step of a sequence."""
    assert defined(sentence) == [(term, "naming")]


@pytest.mark.parametrize(
    "sentence",
    [
        # the words after the name say where, when or how it is called, not where it holds
        "Next, we call this technique memoization with two arguments.",
        "Next, we call this approach memoization in every test.",
        "Then we call this situation cleanup throughout the program.",
        "First, we call this approach reset across modules.",
        "Next, we call this technique memoization in every lesson of the course.",
        # a thing one calls, or nothing after the kind, calls it wherever it is said
        "Then we call this function in every lesson.",
        "Next, we call this method from now on.",
        "Then we call this process throughout the course.",
        "We call this script from now on.",
        "We call these helpers throughout the course.",
        "Next, we call this step an hour later in every lesson.",
    ],
)
def test_words_saying_where_a_thing_is_called_do_not_close_a_name(sentence):
    assert defined(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "emphasis", "term"),
    [
        ("We call these stop words, and we drop them before indexing.", (), "stop words"),
        ("We call these page counts logits for short.", (), "logits"),
        ("We call these stop words in every lesson.", ("stop words",), "stop words"),
    ],
)
def test_a_name_after_these_ends_the_sentence_or_is_closed_or_marked(sentence, emphasis, term):
    assert defined(sentence, emphasis=emphasis) == [(term, "naming")]


@pytest.mark.parametrize(
    "sentence",
    [
        "(This is why the command is called 'drop'.)",
        "This is why the table is called a heap.",
        "That is why we call it the write-ahead log.",
        "It stores pages in no order, which is why the structure is known as a heap.",
    ],
)
def test_why_a_thing_is_called_so_names_nothing(sentence):
    """"Why X is called Y" tells where a name the reader has met comes from (often a
    command's or a file's), not what a term means."""
    assert defined(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("We will see why this structure is called a trie.", "trie"),
        ("This explains why the structure is called a deque, a double-ended queue.", "deque"),
    ],
)
def test_a_naming_after_another_why_still_names(sentence, term):
    """Only "this/that/which is why" before the cue tells where a name comes from."""
    assert defined(sentence) == [(term, "naming")]


@pytest.mark.parametrize(
    ("sentence", "terms"),
    [
        ("Each table has columns (also known as fields) that hold one kind of value, and rows "
         "(also known as records) that hold one entry.", ["fields", "records"]),
        ("A table has columns (also called attributes) and rows (also called tuples).",
         ["attributes", "tuples"]),
        ("Options start with one dash, known as short options, or two, known as long options.",
         ["short options", "long options"]),
        ("Writes go to one node (usually called the leader) and reads to any.", ["leader"]),
    ],
)
def test_every_other_name_a_sentence_gives_is_a_naming(sentence, terms):
    """"X (also known as Y)" and "X (also called Y)" introduce Y, however many of them the
    sentence holds: only the first was read."""
    assert defined(sentence) == [(term, "naming") for term in terms]


@pytest.mark.parametrize(
    ("sentence", "term", "other"),
    [
        ("A hash join, also called a hash match, builds a table in memory.", "hash join",
         "hash match"),
        ("Tombstones, also known as delete markers, stay until the next compaction.",
         "tombstones", "delete markers"),
        ("Sharding (also known as horizontal partitioning) spreads rows over machines.",
         "sharding", "horizontal partitioning"),
        ('A write-ahead log, often called a "redo log", records each change before the '
         "page does.", "write-ahead log", "redo log"),
        ("Write skew, also called a write anomaly, is a race between two transactions.",
         "write skew", "write anomaly"),
    ],
)
def test_a_subject_given_another_name_is_the_term_with_that_name(sentence, term, other):
    """"X, also called Y, is …" says what X is and that Y is its other name: the term is X,
    and Y is kept as its short form is, so a search for either finds the one card."""
    found = find_definitions(lesson_of(section(sentence)))
    assert [(d.term, d.kind, d.abbreviation) for d in found] == [(term, "naming", other)]


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        # the name before is the kind of thing named, not a name
        ("The function, also called glob, lists files.", "glob"),
        ("The column, also known as user_id, holds a number.", None),
        # not the subject: the other name is introduced alone
        ("The planner picks a hash join, also called a hash match, for large tables.",
         "hash match"),
        # no verb of the subject after the name: a list goes on
        ("Tombstones, also known as delete markers, and old rows fill the page.",
         "delete markers"),
        # no adverb says the two are one thing
        ("The replica, known as the standby, lags a little behind.", "standby"),
    ],
)
def test_a_subject_given_a_name_of_its_own_keeps_no_other_name(sentence, term):
    found = find_definitions(lesson_of(section(sentence)))
    assert [(d.term, d.abbreviation) for d in found] == ([(term, None)] if term else [])


def test_a_naming_before_why_still_names():
    assert defined("Keeping each result is called memoization, which is why the cache "
                   "grows.") == [("memoization", "naming")]


def test_pointing_back():
    assert defined(
        "The planner weighs every route through the tables. This is query planning."
    ) == [("query planning", "pointing-back")]
    assert defined(
        "That delay is the replication lag, and it is why a read can return old data."
    ) == [("replication lag", "pointing-back")]


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("The engine writes each change to a separate file before the table. This is a "
         "journal.", "journal"),
        ("Every reader sees the rows as they were when it started. That is a snapshot.",
         "snapshot"),
        ("The planner keeps the plans it has made for later. This is a plan cache.",
         "plan cache"),
    ],
)
def test_pointing_back_with_a_names_when_the_name_is_the_whole_sentence(text, term):
    assert defined(text) == [(term, "pointing-back")]


@pytest.mark.parametrize(
    "sentence",
    [
        "This is important.",
        "This is why backups matter.",
        "That is far better than nothing.",
        "This is not a bug.",
        "This is the answer.",
        "This is a problem for large tables.",
        "That is what makes joins slow.",
        "This prints each row as it is read, which helps.",
        # "a" only before a name that ends the sentence, and no description
        "This is a journal of every change.",
        "This is a common problem.",
        "This is a fast-growing field.",
        "This is a legacy of early mainframes.",
        "This is a Python script.",
        "That limit is a hard cap.",
    ],
)
def test_pointing_back_near_misses(sentence):
    assert defined(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("The word for this is “idempotent”: running it twice changes nothing more.",
         "idempotent"),
        ("The usual name for such a column is 'surrogate key': a number with no meaning of its "
         "own.", "surrogate key"),
        ('A "tombstone" means a row that is marked deleted but not yet removed.', "tombstone"),
        ("The standard term for this goes by the name \"write skew\": two transactions each "
         "read what the other changes.", "write skew"),
    ],
)
def test_quoting(sentence, term):
    assert defined(sentence) == [(term, "quoting")]


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ('A row that is marked deleted but kept on disk until the next cleanup is a '
         '"dead tuple".', "dead tuple"),
        ('An index that holds every column a query needs, so the table is never read, is '
         'a "covering index", and it can be large.', "covering index"),
        ("A lock that many readers may hold at once is the “shared lock”: writers wait.",
         "shared lock"),
    ],
)
def test_a_quoted_name_after_is_a_names_what_was_described(sentence, term):
    assert defined(sentence) == [(term, "quoting")]


@pytest.mark.parametrize(
    "sentence",
    [
        # scare quotes after a pronoun or a plain noun phrase
        'It is a "feature".',
        'Honestly, this is a "feature".',
        'The old export script is a "hack".',
        # a value, not a name, and a name that does not end the clause
        'The greeting that the script prints first is "hello".',
        'A row that nobody reads is a "dead tuple" in most engines.',
    ],
)
def test_a_quoted_complement_near_misses(sentence):
    assert defined(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        'Type "hello" and press Enter.',
        'The log said "disk full" twice, then "retrying".',
        'In "Bob paid Ann", the word "it" means nothing.',
        'Save it as "config.yaml" in the project folder.',
        'Nobody agrees on what exactly "fast" means here.',
        'A press release called it "state of the art" without saying why.',
    ],
)
def test_quoting_near_misses(sentence):
    assert defined(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("It is a byte, not a character — the unit the file is stored in.", "byte"),
        ("A shard is a slice of the rows, not a copy — each row lives in exactly one shard.",
         "shard"),
        ("The result is a snapshot, not a live view — a frozen picture of the table.",
         "snapshot"),
    ],
)
def test_contrasting(sentence, term):
    assert defined(sentence) == [(term, "contrasting")]


@pytest.mark.parametrize(
    "sentence",
    [
        "Backups are a safety net, not a strategy.",
        "Indexes speed up reads, not writes — plan for that.",
        "What the engine stores is pages of bytes, not rows.",
    ],
)
def test_contrasting_near_misses(sentence):
    assert defined(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "The freeze date is a habit, not a rule: nothing stops a late migration.",
        "The row limit is a guess, not a promise; most tables grow past it.",
    ],
)
def test_a_contrast_argued_for_after_it_defines_nothing(sentence):
    """Past a section's first sentence, "X is a Y, not a Z" followed by a clause with a
    subject of its own weighs X; the clause argues for the contrast rather than saying what
    X is, so no term is found."""
    assert defined(f"Schema changes ship on Fridays. {sentence}") == []


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("How long the server waits before giving up is the timeout.", "timeout"),
        ("How many copies of each row the cluster keeps is the replication factor, and three "
         "is common.", "replication factor"),
    ],
)
def test_setting(sentence, term):
    assert defined(sentence) == [(term, "setting")]


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("The time a query waits for a lock before giving up is the lock timeout.",
         "lock timeout"),
        ("The number of rows one page holds is the fill factor, and it is set per table.",
         "fill factor"),
        ("The share of reads the cache answers itself is the hit ratio.", "hit ratio"),
    ],
)
def test_a_described_measure_is_the_x(sentence, term):
    assert defined(sentence) == [(term, "setting")]


@pytest.mark.parametrize(
    "sentence",
    [
        "The problem is the network.",
        "The answer is the index.",
        "The size of it is the limit.",
        "The time is short, and the index is the culprit.",
        "The number of rows in the table is the answer.",
        "The length of the list is the number of items.",
        "The time one query takes is the same on every run.",
    ],
)
def test_a_described_measure_near_misses(sentence):
    assert defined(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "How long a migration takes is a hard question.",
        "How much it costs is a matter of taste.",
        "How the planner works is the subject of the next lesson.",
    ],
)
def test_setting_near_misses(sentence):
    assert defined(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("The fill factor is defined as the share of each page that holds rows.", "fill factor"),
        ("In a cluster, quorum is defined as a majority of the voting nodes.", "quorum"),
        ("Write amplification is usually defined to be the bytes written per byte changed.",
         "write amplification"),
    ],
)
def test_defining(sentence, term):
    assert defined(sentence) == [(term, "defining")]


@pytest.mark.parametrize(
    "sentence",
    [
        "The output is defined as a list of rows.",
        "This is defined as follows.",
        "The table x is defined as a copy of y.",
        "It is defined as the default.",
        "The schema is defined in the migrations folder.",
        "Each column is defined as nullable unless you say otherwise.",
    ],
)
def test_defining_near_misses(sentence):
    assert defined(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "marked", "term"),
    [
        ("An index is a sorted copy of one column that points back at the rows.", "index",
         "index"),
        ("Every change goes first to the write-ahead log — the file the database replays "
         "after a crash.", "write-ahead log", "write-ahead log"),
        ("Vacuum: the job that reclaims the space deleted rows leave behind.", "Vacuum",
         "vacuum"),
        ("The simplest plan is a full scan: read every row and keep the ones that match.",
         "full scan", "full scan"),
        ("The prompt is followed by a text cursor, a character that marks where your typing "
         "will appear.", "text cursor", "text cursor"),
        ("The prompt is followed by a text cursor, a character that marks the spot, and the "
         "shell waits.", "text cursor", "text cursor"),
        ("Rows live in a heap, the file of pages that a client and a server share.", "heap",
         "heap"),
    ],
)
def test_emphasis(sentence, marked, term):
    assert defined(sentence, emphasis=(marked,)) == [(term, "emphasis")]


@pytest.mark.parametrize(
    ("sentence", "marked"),
    [
        ("A view is not a table.", "not"),
        ("Never edit the data files by hand.", "Never"),
        ("Commit your work before you leave.", "Commit your work before you leave."),
        ("The order is important here.", "order"),
        ("Reads are fast, writes are slow.", "fast"),
        ("Tables are like spreadsheets — at least at first.", "spreadsheets"),
        ("The prompt is followed by a cursor.", "prompt"),
        ("Pack binoculars with a wide field of view, a tripod for steadiness and a case.",
         "field of view"),
        ("The kit holds a hygrometer, a gauge for humidity, and a thermometer.",
         "hygrometer"),
        ("The kit holds a hygrometer, a gauge for the air and a thermometer.", "hygrometer"),
    ],
)
def test_emphasis_near_misses(sentence, marked):
    """A marked name before a comma and an appositive that goes on as a list ("a wide *field
    of view*, a tripod for steadiness and a case") is one thing listed, not defined."""
    assert defined(sentence, emphasis=(marked,)) == []


@pytest.mark.parametrize(
    ("sentence", "marked", "term"),
    [
        ("A function is a named block of code that runs when a query asks for it.",
         "function", "function"),
        ("A list is an ordered collection of values.", "list", "list"),
        ("A value is one cell of one row.", "value", "value"),
        ("A type is the set of values a column may hold.", "type", "type"),
        ("A file is a named run of bytes the database keeps on disk.", "file", "file"),
        ("A key is the column a row is found by.", "key", "key"),
        ("A step is one pass of the planner over the query.", "step", "step"),
        ("Each step means one pass of the planner over the query.", "step", None),
        ("Step means one pass of the planner over the query.", "Step", "step"),
    ],
)
def test_an_everyday_word_the_lesson_marks_as_the_subject_is_defined(sentence, marked, term):
    """The vague nouns ("function", "list", "value") are refused where the sentence alone
    must say it names a term; set in bold or italics as the subject of "is a …" the author
    defines them. Unmarked, "A value is one cell" defines nothing, as before, but where the
    glossary has the word (the plain form, ``glossary_only``)."""
    assert defined(sentence, emphasis=(marked,)) == ([(term, "emphasis")] if term else [])
    assert [d for d in find_definitions(lesson_of(section(sentence)))
            if not d.glossary_only] == []


def test_a_bold_everyday_word_in_a_markdown_lesson_is_defined():
    lesson = read_markdown_lesson(
        "## Functions\n\nA **function** is a named block of code that runs when a query "
        "asks for it. A value is one cell of one row.\n\n**Question**: what does it "
        "return?\n", "storage.md")
    assert [(d.term, d.kind) for d in find_definitions(lesson)] == [("function", "emphasis")]


@pytest.mark.parametrize(
    ("sentence", "marked"),
    [
        ("Question: what will the query return?", "Question"),
        ("Output: a table with three columns.", "Output"),
        ("The point is the index, not the table.", "point"),
        ("The problem is a missing comma in the schema.", "problem"),
        ("A value is not always a number.", "value"),
        ("Data is kept in one file per table.", "Data"),
    ],
)
def test_an_everyday_word_marked_elsewhere_defines_nothing(sentence, marked):
    """A label ("**Question**: …"), a word stressed after "the", or one that says how it is
    ("is not", "is kept") is no definition, however it is marked."""
    assert defined(sentence, emphasis=(marked,)) == []


@pytest.mark.parametrize(
    ("sentence", "marked", "term"),
    [
        ("A normal form is a rule a table's columns must keep.", "normal form", "normal form"),
        ("A simple index is an index on one column.", "simple index", "simple index"),
        ("The expected row count is the number of rows the planner guesses a step returns.",
         "expected row count", "expected row count"),
        ("A common table expression is a named query a statement may read like a table.",
         "common table expression", "common table expression"),
        ("Hard link: a second name for the same file on disk.", "Hard link", "hard link"),
        ("A true positive is a row the filter keeps that really matches.", "true positive",
         "true positive"),
    ],
)
def test_a_marked_name_may_open_with_a_describing_word(sentence, marked, term):
    """"A *normal form* is …": describing words ("normal", "simple", "expected", "common")
    open many terms, and the lesson set the name apart whole; unmarked, "This is normal
    behaviour." still names nothing."""
    assert defined(sentence, emphasis=(marked,)) == [(term, "emphasis")]


@pytest.mark.parametrize(
    ("sentence", "marked"),
    [
        ("The best way is the one that reads the fewest pages.", "best way"),
        ("A good idea is a small transaction.", "good idea"),
        ("The new version is the one we ship on Monday.", "new version"),
        ("Fast and cheap is the goal of every index.", "Fast and cheap"),
        ("Difficult to maintain: the query repeats itself in three places.",
         "Difficult to maintain"),
        ("Simple is the word for this schema.", "Simple"),
        ("This is a common table expression.", "common"),
    ],
)
def test_a_marked_judgement_is_no_name(sentence, marked):
    """A marked describing word alone, a phrase that holds a function word ("fast and
    cheap", "difficult to maintain"), or a judging word before one everyday noun ("the *best
    way*") stresses a remark, where "A *normal form* is …" names."""
    assert defined(sentence, "A normal form is a rule a table's columns must keep.",
                   emphasis=(marked, "normal form")) == [("normal form", "emphasis")]


def plain(*sections: tuple[str | None, str]) -> list[tuple[str, str, bool]]:
    """What a lesson of (heading, paragraph) sections defines, with ``glossary_only``."""
    lesson = lesson_of(*(Section(anchor=heading and heading.lower().replace(" ", "-"),
                                 heading=heading, level=2 if heading else 0,
                                 paragraphs=(text,)) for heading, text in sections))
    return [(d.term, d.kind, d.glossary_only) for d in find_definitions(lesson)]


@pytest.mark.parametrize(
    ("heading", "text", "term", "glossary_only"),
    [
        # the first sentence of its section
        ("Indexes", "An index is a sorted copy of one column that points back at the rows. "
         "It speeds up reads.", "index", False),
        ("Keeping old rows", "A tombstone is the mark a deleted row keeps until the next "
         "cleanup.", "tombstone", True),
        (None, "A view is one query the database keeps under a name. Reading it runs the "
         "query.", "view", True),
        # or any sentence under a heading that says it defines, or names the term
        ("The definition", "Reads must not see half a change. A transaction is a group of "
         "statements that succeed or fail together.", "transaction", False),
        ("What is a shard?", "Big tables are split. A shard is one slice of such a table.",
         "shard", True),
        ("Replicas and lag", "Reads may go elsewhere. A replica is a copy of the database "
         "that follows the primary.", "replica", False),
    ],
)
def test_a_plain_definition_where_one_is_expected_names_a_glossary_term(heading, text, term,
                                                                         glossary_only):
    """"A p-value is the probability …", unmarked, says what a term is where a section
    expects a definition; whether it names a term is the glossary's to say
    (``glossary_only``), as for "This is a journal.", unless it has the classic shape of a
    definition, "is a", a kind and what that kind does ("a group of statements that
    succeed …"): then it is a definition of its own."""
    assert plain((heading, text)) == [(term, "plain", glossary_only)]


@pytest.mark.parametrize(
    ("heading", "text"),
    [
        ("Training", "A model is trained on the data before we test it."),
        ("Tests", "A test is a good idea before any change to the schema."),
        ("Indexes", "An index is the first thing to check when a query is slow."),
        ("Indexes", "A table is not an index."),
        ("Plans", "The planner is a program that picks a plan."),
        ("Vacuum", "A row is a lot like a line of a spreadsheet."),
        # a later sentence of a section that neither defines nor names the term
        ("Storage", "Rows live in pages. A page is the unit the disk reads at once."),
    ],
)
def test_a_plain_sentence_elsewhere_or_of_another_shape_names_nothing(heading, text):
    """Only the plain form where a definition is expected names: "A view is …" opening
    the section after."""
    assert plain((heading, text), ("Views", "A view is a stored query.")) == [
        ("view", "plain", True)]


def test_a_marked_definition_is_no_plain_one():
    """With the term marked the sentence defines it whatever the glossary holds."""
    found = find_definitions(lesson_of(section(
        "A simple index is an index on one column.", emphasis=("simple index",))))
    assert [(d.term, d.kind, d.glossary_only) for d in found] == [
        ("simple index", "emphasis", False)]


def test_a_bold_name_opening_with_a_describing_word_in_a_markdown_lesson_is_defined():
    lesson = read_markdown_lesson(
        "## Averages\n\nThe **expected value** is the average of many draws.\n\n"
        "## Shapes\n\n**Normal distribution**: the bell-shaped curve of many small "
        "errors.\n\n## Samples\n\nA *simple random sample* is a sample in which every "
        "row has the same chance.\n", "storage.md")
    assert [(d.term, d.kind) for d in find_definitions(lesson)] == [
        ("expected value", "emphasis"), ("normal distribution", "emphasis"),
        ("simple random sample", "emphasis")]


@pytest.mark.parametrize(
    ("sentence", "term", "abbreviation"),
    [
        ("Most systems speak the structured query language (SQL) to the engine.",
         "structured query language", "SQL"),
        ("A write-ahead log (WAL) records every change before it happens.", "write-ahead log",
         "WAL"),
        ("JavaScript Object Notation (JSON) is a common export format.",
         "JavaScript Object Notation", "JSON"),
        ("Laptops now ship with solid-state drives (SSDs) instead of disks.",
         "solid-state drives", "SSD"),
        ("A CDN (content delivery network) keeps files near readers.",
         "content delivery network", "CDN"),
        # a digit is its number written as a word
        ("It uses two-phase locking (2PL) everywhere.", "two-phase locking", "2PL"),
        ("The classic way to do it is two-phase locking (2PL).", "two-phase locking", "2PL"),
        ("This protocol is two-phase commit (2PC).", "two-phase commit", "2PC"),
        ("3NF (third normal form) asks that no column depend on another non-key column.",
         "third normal form", "3NF"),
        ("Every table starts in first normal form (1NF).", "first normal form", "1NF"),
        ("The map view draws the rooms in three-dimensional (3D) space.", "three-dimensional",
         "3D"),
        ("Old archives still use triple DES (3DES) for their keys.", "triple DES", "3DES"),
        # a number of dimensions names a space, not things counted
        ("The map view draws the rooms in three dimensions (3D).", "three dimensions", "3D"),
        ("Each reading is a point in two dimensional (2D) space.", "two dimensional", "2D"),
        # between two letters, 2 sounds like "to"
        ("Replicas sync peer-to-peer (P2P) without a primary.", "peer-to-peer", "P2P"),
        ("Suppliers trade business-to-business (B2B) through it.", "business-to-business",
         "B2B"),
        # a hyphenated word gives its first letter only, or one for each part
        ("The console runs a read-eval-print loop (REPL) for quick queries.",
         "read-eval-print loop", "REPL"),
        ("Printers pair over Wi-Fi Protected Setup (WPS) at the push of a button.",
         "Wi-Fi Protected Setup", "WPS"),
        ("Cards use Near-Field Communication (NFC) to pay.", "Near-Field Communication", "NFC"),
        # a letter after a prefix inside a word, as if it were hyphenated
        ("The interquartile range (IQR) of query times is Q3 minus Q1.", "interquartile range",
         "IQR"),
        ("IQR (interquartile range) is the third quartile minus the first.",
         "interquartile range", "IQR"),
        ("Postgres uses multiversion concurrency control (MVCC) for reads.",
         "multiversion concurrency control", "MVCC"),
        ("Pages travel over the hypertext transfer protocol (HTTP).",
         "hypertext transfer protocol", "HTTP"),
    ],
)
def test_abbreviation(sentence, term, abbreviation):
    (found,) = find_definitions(lesson_of(section(sentence)))
    assert (found.term, found.kind, found.abbreviation) == (term, "abbreviation", abbreviation)


@pytest.mark.parametrize(
    "sentence",
    [
        "The values (OK) were fine.",
        "See the second figure (A2) for the layout.",
        "It keeps many tables (TB) of history.",
        "See table 2 (T2) for the sizes.",
        "Sales rose in the first quarter (Q1) again.",
        "The schema is checked for two-phase locking (3PL).",
        "The menus follow internationalization (I18N) rules.",
        "The bigger model (GPT-4) answered too.",
        # counts and versions, not names
        "The cluster starts with three nodes (3N) and grows.",
        "The course lasts two days (2D) in all.",
        "Each server holds three disks (3D) of logs.",
        "Upgrade to version two (V2) first.",
        "The rollout reached phase two (P2) on Monday.",
        "Send it to team two (T2) for review.",
        "Logs at level three (L3) are verbose.",
        # no long name starts inside a hyphenated word
        "The clinic booked its X-ray scan unit (RSU) for Monday.",
    ],
)
def test_abbreviation_near_misses(sentence):
    assert defined(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "The presentation (PS) starts at noon.",
        "Each subquery (SQ) runs first.",
        "The interval timer (IVT) fires every second.",
    ],
)
def test_a_letter_after_a_prefix_counts_in_a_long_name_of_several_words(sentence):
    """"interquartile range (IQR)" takes Q after "inter"; a word alone that starts as a
    prefix does ("presentation (PS)"), or a prefix before fewer than four letters
    ("interval"), gives no letter."""
    assert defined(sentence, "The interquartile range (IQR) is Q3 minus Q1.") == [
        ("interquartile range", "abbreviation")]


def test_definition_list_items():
    item = DefinitionItem("shard", "A horizontal slice of a table. Each row lives in one shard.")
    (found,) = find_definitions(lesson_of(section(definitions=[item])))
    assert (found.term, found.kind, found.sentence) == (
        "shard", "definition-list", "A horizontal slice of a table.")


def test_one_record_per_term_the_first_and_every_kind_is_documented():
    found = find_definitions(lesson_of(
        section("A page is called a block in some engines.", anchor="pages"),
        section("Blocks are known as pages elsewhere.", "This is a block.", anchor="blocks"),
    ))
    assert [(d.term, d.anchor) for d in found] == [("block", "pages"), ("pages", "blocks")]
    assert {d.kind for d in found} <= set(KINDS)


def test_record_keeps_sentence_lesson_anchor_and_link():
    text = "Rows are grouped in pages. A group of pages is called an extent. Extents grow."
    (found,) = find_definitions(lesson_of(section(text, anchor="pages-and-extents")))
    assert found.sentence == "A group of pages is called an extent."
    assert found.lesson == "storage"
    assert found.anchor == "pages-and-extents"
    assert found.url == URL + "#pages-and-extents"


def test_passage_without_anchor_links_with_a_text_fragment():
    sentence = "A group of pages is called an extent."
    (found,) = find_definitions(lesson_of(section(sentence, anchor=None)))
    assert found.anchor is None
    assert found.url == URL + "#" + text_fragment(sentence)


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("Idle pages are written out in one batch. We call this step a checkpoint.",
         "checkpoint"),
        ("Old versions of rows pile up on disk. That clutter is called bloat.", "bloat"),
        ("Each row carries the id of the transaction that wrote it. This is MVCC.", "MVCC"),
        ("The planner reads the table's statistics first. In most engines, this pass is "
         "known as analysis.", "analysis"),
        ("A hint names the index to use. The word for this is an optimizer hint.",
         "optimizer hint"),
        ("Writers wait for the lock in turn. It is called lock queueing.", "lock queueing"),
    ],
)
def test_a_definition_that_points_back_is_read_with_the_sentence_before_it(text, term):
    """"We call this step a checkpoint." says what a checkpoint is only with the sentence
    before it: the definition's ``text`` is both; its ``sentence`` (and its link) stays the
    naming one."""
    before, naming = split_sentences(text)
    (found,) = find_definitions(lesson_of(section(text)))
    assert (found.term, found.sentence, found.before) == (term, naming, before)
    assert found.points_back and found.text == text


@pytest.mark.parametrize(
    "text",
    [
        "Idle pages are written out later. A checkpoint is the moment every dirty page is on "
        "disk.",
        "Idle pages are written out later. Writing them all at once is called a checkpoint.",
        # the pointer points at the clause before it, in the same sentence
        "Idle pages are written out later. Dirty pages reach the disk in one batch, and this "
        "is called a checkpoint.",
        # the pointer belongs to the clause before the semicolon, which names a term itself
        "Idle pages are written out later. We call this work flushing; the moment every dirty "
        "page is on disk is known as a checkpoint.",
    ],
)
def test_a_definition_that_says_it_all_itself_stands_alone(text):
    found = find_definitions(lesson_of(section(text, emphasis=("checkpoint",))))
    (found,) = [d for d in found if d.term == "checkpoint"]
    assert not found.points_back and found.before is None
    assert found.text == found.sentence == split_sentences(text)[1]


@pytest.mark.parametrize(("words", "points"), [
    ("That clutter is called ", True), ("In most engines, this pass is known as ", True),
    ("We call these ", True), ("The name for it is ", True),
    ("Rows pile up, and this is called ", False), ("Rows pile up; this is called ", False),
    ("This lesson calls the moment a ", False), ("Writing them is what we call ", False),
    ("We call this flushing; the moment it ends is known as a ", False),
    ("A row that no transaction can see is called ", False),
])
def test_which_words_before_a_term_point_back(words, points):
    """The words of a sentence before the term it defines: a pointer that opens the sentence
    or is what it names points back; one after a clause break points into the sentence;
    "this lesson" at the lesson; "that" after a noun is a relative pronoun."""
    assert points_back(words) is points


@pytest.mark.parametrize(
    ("text", "term"),
    [
        # the sentence before names a term of its own: read together, the two would say the
        # free space map and the fill factor are one thing
        ("Each table keeps a list of its pages with room left. This is the free space map. "
         "We refer to this share as the fill factor.", "fill factor"),
        ("Rows that no transaction can see any more are what engineers call dead tuples. "
         "We call this technique lazy reclaiming.", "lazy reclaiming"),
    ],
)
def test_a_pointing_definition_is_not_joined_to_a_sentence_that_defines_another_term(
        text, term):
    """A pointing definition after a naming or defining sentence points back at nothing it
    can be shown with: it is shown alone, as one that opens its section is."""
    found = {d.term: d for d in find_definitions(lesson_of(section(text)))}
    assert len(found) == 2
    assert found[term].points_back and found[term].before is None
    assert found[term].text == found[term].sentence == split_sentences(text)[-1]


def test_a_pointing_definition_that_explains_its_term_after_a_colon_says_it_itself():
    """'The word for this is "replica lag": every reader …' opens with a pointer but says
    what the term is after the colon: it is not joined to the sentence before (here a naming
    of another term), and it reads alone as well as "A replica lag is …" would."""
    text = ("Sending the log to every replica as it is written is called log shipping. The word "
            "for this is \"replica lag\": every reader of a replica sees the rows as they were "
            "a moment ago.")
    found = {d.term: d for d in find_definitions(lesson_of(section(text)))}
    assert set(found) == {"log shipping", "replica lag"}
    lag = found["replica lag"]
    assert not lag.points_back and lag.before is None
    assert lag.text == split_sentences(text)[1]
    (dashed,) = find_definitions(lesson_of(section(
        "Reads go to the nearest copy. We call this read routing — every query goes to the "
        "replica closest to the client.")))
    assert (dashed.term, dashed.points_back, dashed.before) == ("read routing", False, None)


def test_a_pointing_definition_is_joined_across_paragraphs_but_not_sections():
    """The sentence before may end the paragraph before; the section before is about
    something else, so a sentence opening a section points back at nothing there."""
    (joined,) = find_definitions(lesson_of(section(
        "Idle pages are written out in one batch.", "We call this step a checkpoint.")))
    assert joined.text == "Idle pages are written out in one batch. We call this step a checkpoint."
    first, alone = find_definitions(lesson_of(
        section("Writing every dirty page at once is called a checkpoint.", anchor="pages"),
        section("That job is called compaction.", anchor="space")))
    assert (alone.term, alone.points_back, alone.text) == (
        "compaction", True, "That job is called compaction.")


def test_term_case_is_kept_for_acronyms_and_names_only():
    assert defined("Storing the data twice is called Data Mirroring in the vendor's manual.",
                   "The cache of recent pages is known as the LRU list.") == [
        ("Data Mirroring", "naming"), ("LRU list", "naming")]
    assert defined("Caching: keeping copies of hot pages in memory.", emphasis=("Caching",)) == [
        ("caching", "emphasis")]


def test_list_items_are_read_too():
    found = find_definitions(lesson_of(section(
        list_items=("Vacuum: the job that reclaims space from deleted rows.",),
        emphasis=("Vacuum",))))
    assert [(d.term, d.kind) for d in found] == [("vacuum", "emphasis")]


def test_a_list_item_before_a_paragraph_defines_first():
    lesson = read_markdown_lesson(
        "## Extents\n\n- A group of pages is called an extent.\n\n"
        "Some manuals say a run of blocks is called an extent.\n", "storage.md")
    (found,) = find_definitions(lesson)
    assert (found.term, found.sentence) == ("extent", "A group of pages is called an extent.")


def test_sentences_are_exact_and_abbreviations_do_not_split_them():
    text = "Engines (e.g. SQLite) store pages. Each page is 4 KB, i.e. small! Is that enough?"
    assert split_sentences(text) == [
        "Engines (e.g. SQLite) store pages.", "Each page is 4 KB, i.e. small!", "Is that enough?"]


def test_a_built_course_names_what_these_raw_scores_are_called(tmp_path) -> None:
    """The definition as the term look-up shows it, from a course built into an index."""
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "01-scores.md").write_text(
        "---\ntitle: Scores\nslug: scores\n---\n\n## Before softmax\n\nThe last layer gives "
        "one number per word. We call these raw scores logits, and softmax turns them into "
        "probabilities.\n", encoding="utf-8")
    build_index(tmp_path / "lessons", None, tmp_path / "index")
    searcher = Searcher.open(tmp_path / "index")
    try:
        found = searcher.glossary.find("logits")
        assert found is not None and found.term == "logits"
        assert found.lesson_definition.url == "/lessons/scores#before-softmax"
        assert searcher.glossary.find("raw scores logits") is None
    finally:
        searcher.close()


def test_a_built_course_names_no_function_it_calls(tmp_path) -> None:
    """"We call these functions from both scripts." calls them: the glossary has no entry."""
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "01-reuse.md").write_text(
        "---\ntitle: Reuse\nslug: reuse\n---\n\n## Sharing code\n\nThe module holds two "
        "loaders. We call these functions from both scripts. We call these helper functions "
        "directly.\n", encoding="utf-8")
    build_index(tmp_path / "lessons", None, tmp_path / "index")
    searcher = Searcher.open(tmp_path / "index")
    try:
        assert searcher.glossary.find("functions") is None
        assert searcher.glossary.find("helper functions") is None
    finally:
        searcher.close()
