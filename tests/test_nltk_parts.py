"""The server's processes load NLTK's stemmer and edit distance, not all of NLTK, and not the
build; the stems are NLTK's own, so queries meet the words the index holds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                          text=True, cwd=ROOT).stdout


def test_the_server_imports_neither_all_of_nltk_nor_the_build():
    loaded = json.loads(run(
        "import json, sys\n"
        "import lessonsearch.cli, lessonsearch.web.server\n"
        "print(json.dumps(sorted(sys.modules)))\n"))
    assert "nltk" not in loaded and not [m for m in loaded if m.startswith("nltk.")]
    assert "lessonsearch.build" not in loaded
    assert "markdown_it" not in loaded


def test_stems_and_distances_are_nltks_own():
    words = sorted({w for path in sorted((ROOT / "lessons").iterdir())
                    for w in path.read_text(encoding="utf-8").lower().split() if w.isalpha()})
    assert len(words) > 500
    code = (
        "import json, sys\n"
        "words = json.load(sys.stdin)\n"
        "from lessonsearch.nltk_parts import SnowballStemmer, collocation_parts, edit_distance\n"
        "ours = SnowballStemmer('english')\n"
        "parts = collocation_parts()\n"
        "assert 'nltk' not in sys.modules\n"
        "from nltk.stem.snowball import SnowballStemmer as Real\n"
        "from nltk.metrics.distance import edit_distance as real_distance\n"
        "import nltk\n"
        "real = Real('english')\n"
        "print(json.dumps({\n"
        "    'stems': [ours.stem(w) == real.stem(w) for w in words],\n"
        "    'distances': [edit_distance(a, b, transpositions=True)\n"
        "                  == real_distance(a, b, transpositions=True)\n"
        "                  for a, b in zip(words, words[1:])],\n"
        "    'whole_nltk': hasattr(nltk, 'FreqDist'),\n"
        "    'collocations': [\n"
        "        (getattr(parts, n).__module__, getattr(parts, n).__qualname__)\n"
        "        == (getattr(nltk, n).__module__, getattr(nltk, n).__qualname__)\n"
        "        for n in ('BigramCollocationFinder', 'TrigramCollocationFinder',\n"
        "                  'BigramAssocMeasures', 'TrigramAssocMeasures', 'FreqDist')],\n"
        "}))\n")
    out = json.loads(subprocess.run([sys.executable, "-c", code], input=json.dumps(words),
                                    check=True, capture_output=True, text=True,
                                    cwd=ROOT).stdout)
    assert all(out["stems"]) and all(out["distances"])
    assert out["collocations"] and all(out["collocations"])
    assert out["whole_nltk"]  # a later `import nltk` (the build's) gets the whole package


def test_the_server_loads_the_coverage_report_and_its_parsers_only_when_asked_for():
    """The report (and YAML and TOML, which its allow-list reads course files with) is an
    editor's tool: 1.3 MB in each of the server's processes until a request asks for it
    (its pages and API are tested in test_coverage*.py)."""
    loaded = json.loads(run(
        "import json, sys\n"
        "import lessonsearch.cli, lessonsearch.web.server\n"
        "print(json.dumps(sorted(sys.modules)))\n"))
    assert not {"lessonsearch.coverage", "lessonsearch.coverage_allow",
                "lessonsearch.coverage_render", "yaml", "tomllib"} & set(loaded)
