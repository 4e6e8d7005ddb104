"""A deterministic generator of course-shaped lessons, for benchmarks at any scale.

    .venv/bin/python bench/generate_course.py OUT_DIR --sections 10000

Writes Markdown lessons (front matter, ``##`` sections, paragraphs, code, lists), every tenth
lesson as a JSON export and every seventh as plain text, plus a glossary, from a fixed seed:
the same arguments always give the same bytes. The prose is word salad drawn from a
vocabulary with a Zipf-like skew, so term frequencies look like a real course's.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

TOPIC = """token tokenizer vocabulary embedding vector logit softmax probability sampling
temperature attention query key value head layer transformer cache context window prompt
model training loss gradient optimizer learning rate batch epoch dataset benchmark evaluation
accuracy perplexity fine-tuning preference reward policy scaling parameter compute inference
latency memory retrieval document index search answer hallucination decoding beam greedy
nucleus distribution entropy weight bias matrix residual normalization position encoding
sequence generation instruction chat assistant safety alignment feedback label classifier
""".split()
COMMON = """the a of to and in is that it for as with on this be are by from at can when
which each more how what one into its than then also only other most some these them their
will would should could does do not but or if so we you they model""".split()
VERBS = """reads writes predicts stores computes scales picks compares changes keeps splits
measures learns adjusts ranks returns repeats grows shrinks limits""".split()
SECTIONS_PER_LESSON = 8


def _sentence(rng: random.Random) -> str:
    words = []
    for _ in range(rng.randint(8, 22)):
        pool = TOPIC if rng.random() < 0.35 else COMMON if rng.random() < 0.8 else VERBS
        # Zipf-like: low indexes far more often
        words.append(pool[min(int(rng.paretovariate(1.2)) - 1, len(pool) - 1)])
    words[0] = words[0].capitalize()
    return " ".join(words) + "."


def _paragraph(rng: random.Random) -> str:
    return " ".join(_sentence(rng) for _ in range(rng.randint(2, 5)))


def _heading(rng: random.Random, used: set[str]) -> str:
    while True:
        heading = " ".join(rng.choice(TOPIC) for _ in range(rng.randint(2, 4))).capitalize()
        if heading not in used:
            used.add(heading)
            return heading


def _sections(rng: random.Random) -> list[tuple[str, list[str], str | None]]:
    used: set[str] = set()
    out = []
    for _ in range(SECTIONS_PER_LESSON):
        paragraphs = [_paragraph(rng) for _ in range(rng.randint(1, 3))]
        code = None
        if rng.random() < 0.3:
            code = f"{rng.choice(TOPIC)}_{rng.choice(TOPIC)} = model.{rng.choice(VERBS)}(x)"
        out.append((_heading(rng, used), paragraphs, code))
    return out


def _markdown(number: int, title: str, sections) -> str:
    lines = ["---", f"title: {title}", f"position: {number}", "---", ""]
    for heading, paragraphs, code in sections:
        lines += [f"## {heading}", ""]
        for p in paragraphs:
            lines += [p, ""]
        if code:
            lines += ["```python", code, "```", ""]
    return "\n".join(lines)


def _text(title: str, sections) -> str:
    lines = [title, ""]
    for heading, paragraphs, code in sections:
        lines += [heading, ""]
        for p in paragraphs:
            lines += [p, ""]
        if code:
            lines += [code, ""]
    return "\n".join(lines)


def _json(number: int, slug: str, title: str, sections) -> str:
    blocks = []
    for heading, paragraphs, code in sections:
        blocks.append({"t": "h2", "id": heading.lower().replace(" ", "-"),
                       "runs": [{"text": heading}]})
        blocks += [{"t": "p", "runs": [{"text": p}]} for p in paragraphs]
        if code:
            blocks.append({"t": "code", "lang": "python", "label": "Python", "text": code})
    return json.dumps({
        "course": {"slug": "generated", "title": "Generated course"},
        "lesson": {"slug": slug, "title": title, "url": f"/generated/{slug}",
                   "position": number},
        "body": {"format": "markdown", "text": ""},
        "check": {"question": f"What does the {title.lower()} lesson compute?",
                  "options": [{"text": "A value", "correct": True},
                              {"text": "Nothing", "correct": False}]},
        "reader": {"schema": 1, "module": {"index": 1, "slug": "all", "title": "All"},
                   "blocks": blocks},
    })


def generate(out: Path, sections: int, seed: int = 7) -> Path:
    """Write a course of about ``sections`` sections under ``out``; returns the lessons folder."""
    rng = random.Random(seed)
    lessons_dir, glossary_dir = out / "lessons", out / "glossary"
    lessons_dir.mkdir(parents=True, exist_ok=True)
    glossary_dir.mkdir(parents=True, exist_ok=True)
    for number in range(1, sections // SECTIONS_PER_LESSON + 1):
        title = f"{rng.choice(TOPIC).capitalize()} and {rng.choice(TOPIC)} {number}"
        slug = f"lesson-{number:05d}"
        body = _sections(rng)
        if number % 10 == 0:
            (lessons_dir / f"{slug}.json").write_text(_json(number, slug, title, body))
        elif number % 7 == 0:
            (lessons_dir / f"{slug}.txt").write_text(_text(title, body))
        else:
            (lessons_dir / f"{slug}.md").write_text(_markdown(number, title, body))
    entries = []
    for i, word in enumerate(TOPIC):
        entries.append(f"{word} {{#{word}}}\n: {_sentence(rng)}\n")
        if i % 5 == 0:
            entries.append(f"{word} {TOPIC[(i + 1) % len(TOPIC)]}\n: {_sentence(rng)}\n")
    (glossary_dir / "glossary.md").write_text("\n".join(entries))
    return lessons_dir


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--sections", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print(generate(args.out, args.sections, args.seed))


if __name__ == "__main__":
    main()
