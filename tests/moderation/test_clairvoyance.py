"""The clairvoyance check: a player who knows the face-down cards keeps the win where the
face-up cards mislead a person; honest players of every skill do not, often enough, to be
flagged. On medium and hard deals (rated by the strategy bot, as the daily rates them).

The rates the issue asks for are measured by bench/bench_redteam.py --choices on larger
samples (docs/moderation.md); this test pins them on a fixed seed so a change that breaks
the check, or starts flagging people, fails."""

from __future__ import annotations

import random
from dataclasses import asdict, replace

import pytest

from games.daily import BANDS
from moderation.clairvoyance import MASKED_PLAYERS, clairvoyance
from moderation.detector import CHOICE_TIERS, Thresholds, judge, solver_agreement
from tests.redteam import (
    SKILLS,
    Daily,
    clairvoyant_game,
    honest_profiles,
    knowledge_profiles,
    rated_deals,
    tally,
    winnable_deals,
)
from tests.run_cache import once_per_run

SEED = 20261205
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def deals(tmp_path_factory: pytest.TempPathFactory) -> list[Daily]:
    """The first 16 medium and hard deals, rated once for the whole run (100 bot playouts on
    each winnable deal until 16 fit: about 6 CPU-s), not again by every worker that runs a
    test of this module (tests/run_cache.py)."""
    rated = once_per_run(
        tmp_path_factory,
        "clairvoyance-medium-and-hard-deals",
        lambda: [asdict(d) for d in rated_deals(16, {t: BANDS[t] for t in CHOICE_TIERS})],
    )
    return [Daily(**daily) for daily in rated]


def test_a_clairvoyant_game_is_flagged_where_choices_matter_and_only_there() -> None:
    daily = winnable_deals(1, first=2)[0]  # a medium deal whose face-up cards mislead
    game = clairvoyant_game(daily, SKILLS[2], random.Random(0))
    t = Thresholds()
    result = clairvoyance(game, t, solver_agreement(game, t))
    assert len(result.kept) >= 4 and not result.evidence().lost
    assert result.log10_likelihood() < t.clairvoyance_log10
    assert result.nodes <= t.clairvoyance_nodes
    assert "clairvoyance" in {f.kind for f in judge(replace(game, tier="hard"), t)}
    assert "clairvoyance" not in {f.kind for f in judge(replace(game, tier="easy"), t)}


def test_every_masked_player_keeps_the_win_with_a_chance_between_0_and_1(
    deals: list[Daily],
) -> None:
    game = clairvoyant_game(deals[0], SKILLS[1], random.Random(1))
    for decision in clairvoyance(
        game, Thresholds(), solver_agreement(game, Thresholds())
    ).decisions:
        assert len(decision.chances) == len(MASKED_PLAYERS)
        assert all(0 < p <= 1 for p in decision.chances)


def test_honest_players_are_not_taken_for_clairvoyant(deals: list[Daily]) -> None:
    t = Thresholds()
    results = [tally(p, deals, 4, SEED, t) for p in honest_profiles()[:8]]
    games = sum(r.games for r in results)
    knowing = sum(r.kinds["clairvoyance"] + r.kinds["solver_consulted"] for r in results)
    print(f"\nhonest on medium and hard deals: {knowing}/{games} flagged clairvoyant or consulting")
    assert games == 32
    assert knowing == 0


def test_players_who_know_the_cards_are_caught(deals: list[Daily]) -> None:
    t = Thresholds()
    rates = {p.name: tally(p, deals, 16, SEED, t) for p in knowledge_profiles()}
    caught = {
        name: r.kinds["clairvoyance"] + r.kinds["solver_consulted"] for name, r in rates.items()
    }
    for name, r in rates.items():
        print(f"\n{name}: {caught[name]} findings in {r.games} games ({dict(r.kinds)})", end="")
    # Measured 9, 13 + 3 and 6 findings in 16 games on this seed, judged game by game
    # (production judges a player's record: bench/bench_redteam.py, docs/moderation.md);
    # these floors keep the checks from silently getting weaker. (With one threshold for
    # both findings, 10^-1.5, the clairvoyant had 7.)
    assert caught["clairvoyant, human pace and style"] >= 8
    assert caught["solver at a random 60 % of positions"] >= 14
    assert caught["solver at a random 30 % of positions"] >= 5
