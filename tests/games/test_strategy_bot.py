"""The strategy bot (the daily's difficulty measure) plays every variant and option."""

from __future__ import annotations

from games.engine import Position
from games.strategy_bot import _safe_home, rate_deal


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
