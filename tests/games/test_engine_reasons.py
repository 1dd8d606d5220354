"""The engine's refusals in the player's language (games/engine_reasons.py): every kind of
reason the engine gives has a message, and in English it reads exactly as the engine's."""

from __future__ import annotations

import re

from django.utils import translation

from games.engine_reasons import REASON_MESSAGES, engine_reason
from yukon.engine import IllegalMoveError, get_variant
from yukon.engine.errors import REASONS, Field


def example_fields(kind: str, count: int) -> dict[str, Field]:
    """Fields for reason ``kind``, as the engine fills them in."""
    template = REASONS[kind]
    text = " ".join(template[:2]) if isinstance(template, tuple) else template
    russian = get_variant("russian")
    values: dict[str, Field] = {
        "card": "9h",
        "onto": "Ts",
        "needed": "8h",
        "suit": "hearts",
        "count": count,
        "options": ("'3:9h#1>4'", "'3:9h#2>4'"),
        "title": russian.title,
        "rule": russian.build_rule,
        "variant": russian.name,
    }
    return {
        name: values.get(name, f"<{name}>")
        for name in [*re.findall(r"%\((\w+)\)s", text), "variant"]
    }


def test_every_reason_reads_as_the_engine_writes_it_in_english() -> None:
    assert set(REASON_MESSAGES) == set(REASONS)
    with translation.override("en"):
        for kind in REASONS:
            for count in (1, 2):
                error = IllegalMoveError(kind=kind, **example_fields(kind, count))
                assert engine_reason(error) == str(error), kind


def test_a_reason_is_said_in_german_with_the_cards_as_the_game_writes_them() -> None:
    does_not_fit = IllegalMoveError(kind="does_not_fit", **example_fields("does_not_fit", 1))
    with translation.override("de"):
        assert engine_reason(does_not_fit) == (
            "9h passt nicht auf Ts: bei „Russische Patience“ wird abwärts in derselben Farbe "
            "angelegt"
        )
