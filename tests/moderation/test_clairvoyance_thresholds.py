"""The clairvoyance check's two findings each have their own threshold: a record that keeps
the win where masked players seldom do (``clairvoyance``) is judged apart from one that
plays the solver's first move where they seldom would (``solver_consulted``). Honest
players trip the second more often, so one threshold for both held the first back (the red
team's figures: docs/moderation.md, "Players who know the cards")."""

from __future__ import annotations

import math
from typing import Any

from moderation.clairvoyance import (
    CONSULTED_SHARES,
    MASKED_PLAYERS,
    Clairvoyance,
    Decision,
    record_findings,
)
from moderation.detector import Thresholds

PLAYERS = len(MASKED_PLAYERS)


def game(keep_chance: float, consulting_log10: float) -> Clairvoyance:
    """A game that kept the win at one decision a masked player keeps with ``keep_chance``,
    and whose moves are 10^``consulting_log10`` times likelier for a player who consults
    the solver, under every masked player alike."""
    return Clairvoyance(
        decisions=[Decision(ply=3, kept=True, chances=(keep_chance,) * PLAYERS)],
        style=(-5.0,) * PLAYERS,
        consulting=tuple((consulting_log10,) * PLAYERS for _ in CONSULTED_SHARES),
        nodes=1_000,
    )


def kinds(result: Clairvoyance, t: Thresholds) -> set[str]:
    return {finding.kind for finding in record_findings(result, {}, t)}


def test_each_finding_is_judged_against_its_own_threshold() -> None:
    t = Thresholds(clairvoyance_log10=-1.0, consulted_log10=-1.5)
    # 10^1.24 times likelier knowing (0.5 / 0.03 + 0.5), and as much for consulting
    between = game(0.03, math.log10(0.5 / 0.03 + 0.5))
    assert between.log10_likelihood() < -1.0
    assert kinds(between, t) == {"clairvoyance"}
    # 10^0.74 knowing, 10^1.6 consulting
    consulted = game(0.1, 1.6)
    assert kinds(consulted, t) == {"solver_consulted"}
    assert kinds(consulted, Thresholds(clairvoyance_log10=-1.0, consulted_log10=-1.7)) == set()


def test_a_finding_names_the_threshold_it_was_judged_by() -> None:
    t = Thresholds(clairvoyance_log10=-1.0, consulted_log10=-1.5)
    findings = {f.kind: f for f in record_findings(game(0.01, 2.0), {}, t)}
    assert findings["clairvoyance"].thresholds["clairvoyance_log10"] == -1.0
    assert "consulted_log10" not in findings["clairvoyance"].thresholds
    assert findings["solver_consulted"].thresholds["consulted_log10"] == -1.5
    assert "(flagged from 10)" in findings["clairvoyance"].reason
    assert "(flagged from 32)" in findings["solver_consulted"].reason


def test_the_thresholds_are_settings(settings: Any) -> None:
    assert Thresholds.from_settings() == Thresholds()  # the settings' defaults are these
    settings.MODERATION_CLAIRVOYANCE_LOG10 = -0.9
    settings.MODERATION_CONSULTED_LOG10 = -1.8
    t = Thresholds.from_settings()
    assert (t.clairvoyance_log10, t.consulted_log10) == (-0.9, -1.8)
