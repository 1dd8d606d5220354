"""The strategy bot (the daily's difficulty measure) plays every variant and option."""

from __future__ import annotations

import random

import pytest

from yukon.engine import Move, Position
from yukon.engine.variants import VARIANTS
from yukon.strategy_bot import (
    MAX_PLAYOUT_MOVES,
    _key,
    _move_value,
    _safe_home,
    play_once,
    rate_deal,
)


def plain_play_once(pos: Position, rng: random.Random, noise: float = 25.0) -> bool:
    """The bot's playout written plainly: each candidate is played, its position's key
    read and the move taken back. ``play_once`` makes the key without playing the move."""
    seen = {_key(pos)}
    for _ in range(MAX_PLAYOUT_MOVES * pos.variant.decks):
        moves = pos.legal_moves()
        if not moves:
            break
        hidden_left = sum(pos.down)
        king_waiting = any(pos.movable[k] and pos.pos_of[k] > 0 for k in pos.variant.kings)
        best: tuple[float, Move] | None = None
        for move in moves:
            value = _move_value(pos, move, hidden_left, king_waiting) + rng.random() * noise
            if best is None or value > best[0]:
                pos.push(move)
                repeats = _key(pos) in seen
                pos.undo()
                if not repeats:
                    best = (value, move)
        if best is None:
            break
        pos.push(best[1])
        if pos.is_won():
            return True
        seen.add(_key(pos))
    return pos.is_won()


@pytest.mark.parametrize("variant", [*VARIANTS, "yukon+takeback", "alaska+takeback"])
def test_a_playout_is_the_plain_playout_move_for_move(variant: str) -> None:
    """Every game of the bot, won or lost, ends in the same position with the same moves
    as the plain playout's (take-backs, turned cards and Kings into empty columns too)."""
    games = 2 if variant.startswith(("triple", "quadruple")) else 12
    won = 0
    for number in range(games):
        for seed in range(3):
            fast, plain = Position.deal(number, variant), Position.deal(number, variant)
            result = play_once(fast, random.Random(seed))
            assert result == plain_play_once(plain, random.Random(seed))
            assert fast.to_text() == plain.to_text(), (variant, number, seed)
            won += result
    if variant in ("yukon", "yukon+takeback", "moosehide", "double-yukon"):
        assert 0 < won < games * 3  # games won and games lost were both compared


def test_moosehide_safe_home_looks_at_the_three_other_suits() -> None:
    # 5c may go on any 6 but a club: sending it home costs nothing once the 4s of the
    # three other suits are home (the bot reads only the foundations and the variant).
    five_of_clubs = 4
    for variant, found, safe in (
        ("moosehide", [4, 4, 4, 4], True),
        ("moosehide", [4, 3, 4, 4], False),  # 4d may still want the 5c
        ("moosehide", [4, 4, 4, 3], False),  # so may 4s: black on black
        ("yukon", [4, 4, 4, 3], True),  # in Yukon only the red 4s count
    ):
        pos = Position.deal(1, variant)
        pos.found = found
        assert _safe_home(pos, five_of_clubs) is safe, (variant, found)


def test_the_bot_wins_moosehide_never_the_runs_only_rule_and_plays_takeback() -> None:
    assert rate_deal(1, "moosehide", playouts=10).wins > 0
    assert rate_deal(1, "moosehide-runs", playouts=10).wins == 0
    assert rate_deal(1, "yukon+takeback", playouts=10).playouts == 10


def test_the_bot_plays_the_multi_deck_variants() -> None:
    # Deal 0 of Double Yukon is an easy one (the solver wins it in about 1,000 positions).
    first = rate_deal(0, "double-yukon", playouts=6)
    assert first.wins > 0
    assert rate_deal(0, "double-yukon", playouts=6) == first  # deterministic per seed
    for variant in ("triple-yukon", "quadruple-yukon"):
        assert rate_deal(1, variant, playouts=2).playouts == 2


def test_multi_deck_safe_home_looks_at_every_opposite_foundation() -> None:
    # Double Yukon: 5h (deck 2) is safe once all four black foundations hold their 4.
    five_of_hearts = 52 + 2 * 13 + 4
    for found, safe in (
        ([4, 0, 0, 4, 4, 0, 0, 4], True),
        ([4, 0, 0, 4, 4, 0, 0, 3], False),  # the second deck's 4s may still want it
        ([4, 0, 0, 4, 3, 0, 0, 4], False),
    ):
        pos = Position.deal(1, "double-yukon")
        pos.found = found
        assert _safe_home(pos, five_of_hearts) is safe, found
