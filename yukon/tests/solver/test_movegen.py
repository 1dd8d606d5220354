"""The C search generates exactly the engine's legal moves (every variant)."""

from __future__ import annotations

import random

import pytest

from yukon.engine import Position
from yukon.solver import VARIANT_CODES, _csolver


def c_moves(pos: Position) -> list[int]:
    return sorted(
        _csolver.legal_moves(
            VARIANT_CODES[pos.variant.name],
            pos.cols,
            pos.down,
            pos.found,
            pos.variant.foundation_takeback,
        )
    )


@pytest.mark.parametrize("takeback", ["", "+takeback"])
@pytest.mark.parametrize("name", list(VARIANT_CODES))
def test_move_generation_matches_the_engine(name: str, takeback: str) -> None:
    variant = name + takeback
    rng = random.Random(variant)
    checked = 0
    for deal in range(40):
        pos = Position.deal(deal, variant)
        for _ in range(120):
            assert c_moves(pos) == sorted(pos.legal_moves()), pos.to_text()
            checked += 1
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
    assert checked > 500


def test_move_generation_on_random_endgames() -> None:
    from .endgames import random_endgame

    rng = random.Random(5)
    for i in range(4000):
        variant = list(VARIANT_CODES)[i % 5] + ("+takeback" if i % 2 else "")
        pos = random_endgame(rng, variant)
        assert c_moves(pos) == sorted(pos.legal_moves()), pos.to_text()
