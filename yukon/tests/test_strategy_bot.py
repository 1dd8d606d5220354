"""The strategy bot (the daily's difficulty measure) plays every variant and option."""

from __future__ import annotations

from yukon.engine import Position
from yukon.strategy_bot import _safe_home, rate_deal


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
