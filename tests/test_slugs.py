"""Anchors and slugs: the site's anchor rule (formats.md), repeats, unicode, file-name slugs."""

from __future__ import annotations

import pytest

from lessonsearch.slugs import (
    AnchorClash,
    AnchorRegistry,
    anchor_for,
    heading_anchors,
    slug_from_filename,
    slugify,
)


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        # The two examples formats.md gives, verbatim.
        ("Which is why “work step by step” helps", "which-is-why-work-step-by-step-helps"),
        ("Does it plan?", "does-it-plan"),
        # Straight and curly quotes, commas, full stops and other punctuation are dropped.
        ('Say "please", then wait.', "say-please-then-wait"),
        ("The model’s ‘best’ guess", "the-models-best-guess"),
        ("Logits, softmax & sampling!", "logits-softmax-sampling"),
        ("Step 2: count (again)", "step-2-count-again"),
        # Hyphens stay; a run of spaces becomes one hyphen; ends are trimmed.
        ("Key-value   cache", "key-value-cache"),
        ("  Padded heading  ", "padded-heading"),
        ("Tabs\tand\nnewlines", "tabs-and-newlines"),
        # Spaces around a hyphen each turn into one: the rule says nothing about collapsing.
        ("Before - after", "before---after"),
        # Digits are kept, case is folded.
        ("Python 3 and SQL", "python-3-and-sql"),
        # The underscore is not a letter, digit, space or hyphen.
        ("Open data_file first", "open-datafile-first"),
    ],
)
def test_anchor_follows_the_site_rule(heading: str, anchor: str) -> None:
    assert anchor_for(heading) == anchor


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("Größe und Maß", "größe-und-maß"),
        ("Qu’est-ce qu’un « jeton » ?", "quest-ce-quun-jeton"),
        ("Café crème", "café-crème"),
        ("Токены и словарь", "токены-и-словарь"),
        ("トークンとは", "トークンとは"),
        ("Emoji 🚀 launch", "emoji-launch"),
    ],
)
def test_anchor_keeps_letters_of_every_script(heading: str, anchor: str) -> None:
    """The rule keeps *letters*, not just ASCII: accented and non-Latin headings survive."""
    assert anchor_for(heading) == anchor


def test_anchor_of_punctuation_only_is_empty() -> None:
    assert anchor_for("?!…") == ""


def test_registry_suffixes_repeats_in_order() -> None:
    anchors = AnchorRegistry()
    claimed = [anchors.claim(a) for a in ("intro", "intro", "setup", "intro", "setup")]
    assert claimed == ["intro", "intro-1", "setup", "intro-2", "setup-1"]


def test_registry_skips_a_suffix_that_a_real_heading_already_holds() -> None:
    """A heading literally called "Intro 1" owns ``intro-1``; a repeated "Intro" moves on."""
    anchors = AnchorRegistry()
    claimed = [anchors.claim(anchor_for(h)) for h in ("Intro 1", "Intro", "Intro", "Intro 1")]
    assert claimed == ["intro-1", "intro", "intro-2", "intro-1-1"]
    assert len(set(claimed)) == len(claimed)


def test_registries_are_per_lesson() -> None:
    first, second = AnchorRegistry(), AnchorRegistry()
    assert first.claim("summary") == "summary"
    assert second.claim("summary") == "summary"


def test_given_ids_are_verbatim_and_texts_anchors_make_way_for_them() -> None:
    anchors, clashes = heading_anchors([
        ("Example", None), ("Other", "example"), ("Example", None), ("Again", "example"),
        ("Fine", "sec:fine"),
    ])
    assert anchors == ["example-1", "example", "example-2", "example", "sec:fine"]
    assert clashes == [AnchorClash(1, 0, "example", "Example", "example-1"),
                       AnchorClash(3, 1, "example", "Other", "example")]


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("KV cache", "kv-cache"),
        ("The shape of a distribution", "the-shape-of-a-distribution"),
        ("Café crème", "cafe-creme"),
        ("  --Weird__Spacing--  ", "weird-spacing"),
        ("日本語", "日本語"),
        ("Внимание модели", "внимание-модели"),
        ("—", "untitled"),
        ("", "untitled"),
    ],
)
def test_slugify_is_ascii_unless_the_text_has_no_latin_letter(text: str, slug: str) -> None:
    assert slugify(text) == slug


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("07-sampling-temperature.txt", "sampling-temperature"),
        ("lessons/12-what-a-token-is.md", "what-a-token-is"),
        ("3_kv cache.json", "kv-cache"),
        ("no-prefix.md", "no-prefix"),
        ("2024.md", "2024"),
    ],
)
def test_slug_from_filename_drops_the_order_prefix(name: str, slug: str) -> None:
    assert slug_from_filename(name) == slug
