"""The engine's deals for the browser's deal algorithm (``shared/deal.js``, offline practice).

``deal_vectors.json`` beside this file holds, for every variant the practice page offers
and a few deal numbers (0, 1, 7, numbers past 2**53 that a JavaScript number would round,
and 2**64 - 1), the engine's starting position in its text form. ``deal.test.mjs`` deals
the same numbers in JavaScript and must write the same text. The file is generated from
the engine; this test fails when it no longer says what the engine deals (a new variant, a
changed layout), so the browser's deals can never drift from the server's unseen.
Rewrite it with ``python -m tests.frontend.test_deal_vectors`` and review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from yukon.engine import (
    DEAL_ALGORITHM_VERSION,
    MAX_DEAL_NUMBER,
    VARIANT_NAMES,
    Position,
    get_variant,
)

VECTOR_FILE = Path(__file__).resolve().parent / "deal_vectors.json"
# 2**53 + 1 is the first whole number a JavaScript number cannot hold; the next one sets the
# top bit, where a signed 64-bit port would go wrong.
DEAL_NUMBERS = (0, 1, 7, 2**53 + 1, 12_345_678_901_234_567_890, MAX_DEAL_NUMBER)


def deal_vectors() -> dict[str, Any]:
    return {
        "about": "Deal number -> the engine's starting position (Position.deal(n, variant)"
        ".to_text()), for every variant of the practice page. Written by "
        "tests/frontend/test_deal_vectors.py; numbers are strings (2**64-1 is no JS number).",
        "algorithm_version": DEAL_ALGORITHM_VERSION,
        "layout_versions": {name: get_variant(name).layout_version for name in VARIANT_NAMES},
        "deals": [
            {"variant": name, "number": str(number), "text": Position.deal(number, name).to_text()}
            for name in VARIANT_NAMES
            for number in DEAL_NUMBERS
        ],
    }


def render(vectors: dict[str, Any]) -> str:
    return json.dumps(vectors, indent=1) + "\n"


def test_the_browsers_deal_vectors_are_the_engines() -> None:
    assert VECTOR_FILE.read_text() == render(deal_vectors()), (
        f"{VECTOR_FILE.name} is stale: rewrite it with "
        "`python -m tests.frontend.test_deal_vectors`, then make shared/deal.js deal the same "
        "(npm test)"
    )


if __name__ == "__main__":
    VECTOR_FILE.write_text(render(deal_vectors()))
