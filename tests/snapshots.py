"""Reader snapshots: ``dataclasses.asdict`` output compared with committed JSON files in
tests/data/snapshots/; ``LESSONSEARCH_UPDATE_SNAPSHOTS=1`` rewrites them."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

SNAPSHOTS = Path(__file__).resolve().parent / "data" / "snapshots"


def check_snapshot(name: str, value: object) -> None:
    path = SNAPSHOTS / name
    actual = json.loads(json.dumps(dataclasses.asdict(value)))
    if os.environ.get("LESSONSEARCH_UPDATE_SNAPSHOTS") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(actual, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert path.is_file(), f"no snapshot {path}; run with LESSONSEARCH_UPDATE_SNAPSHOTS=1"
    assert actual == json.loads(path.read_text(encoding="utf-8"))
