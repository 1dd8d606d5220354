"""The clairvoyance check in production judges a player's record, not one game: a game
that keeps the win a little too well is not enough alone, the next such game of the same
player is. Played through the services (verified by the in-process Celery task, flagged by
the signal), with the games a player who knows the hidden cards plays
(``tests.redteam.clairvoyant_game``) on two medium deals."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest

from games.models import DailyChallenge, Deal, Tier
from moderation.models import ChoiceEvidence, Flag, FlagKind
from tests.factories import Clock, make_player, play_timed
from tests.redteam import SKILLS, Daily, clairvoyant_game
from yukon.solver import solve

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

# Two medium deals, and the seeds of a knowing regular player's games on them: each game
# alone is 2 and 3.3 times likelier for a knowing player than for the masked player that
# fits it best (10^0.31, 10^0.52), together 6.8 times (bench/bench_redteam.py's figures
# are for the default threshold, 10^1.0; this test lowers it to 10^0.8 to see the sum).
GAMES = [(9, 2), (21, 9)]


def knowing_game(clock: Clock, day: dt.date, number: int, seed: int) -> Any:
    deal, _ = Deal.objects.get_or_create(
        number=number, variant="yukon", defaults={"solution": solve(number).moves}
    )
    challenge = DailyChallenge.objects.create(date=day, tier=Tier.MEDIUM, deal=deal)
    played = clairvoyant_game(Daily(number, deal.solution), SKILLS[2], random.Random(seed))
    gaps = [b - a for a, b in zip([0, *played.at_ms], played.at_ms, strict=False)]
    clock.now = dt.datetime.combine(day, dt.time(9), tzinfo=dt.UTC)
    return challenge, played.moves, gaps


def test_a_record_of_knowing_games_is_flagged_where_one_game_is_not(
    clock: Clock, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.MODERATION_CLAIRVOYANCE_LOG10 = -0.8
    player = make_player("Seer")
    first_day = clock.now.date() - dt.timedelta(days=3)
    games = []
    for offset, (number, seed) in enumerate(GAMES):
        challenge, moves, gaps = knowing_game(
            clock, first_day + dt.timedelta(days=offset), number, seed
        )
        with django_capture_on_commit_callbacks(execute=True):
            games.append(play_timed(player, challenge, moves, gaps, clock))
    for game in games:
        game.refresh_from_db()
    first, second = games
    assert [g.verification for g in games] == ["verified", "verified"]
    assert ChoiceEvidence.objects.filter(game__in=games).count() == 2
    assert not Flag.objects.filter(game=first, kind=FlagKind.CLAIRVOYANCE).exists()
    flag = Flag.objects.get(game=second, kind=FlagKind.CLAIRVOYANCE)
    assert flag.measured["record_games"] == [first.pk]
    assert flag.measured["log10_likelihood"] > -0.8 >= flag.measured["record_log10_likelihood"]
    assert "over 2 games" in flag.reason

    # another player's game, the same moves on the same daily: judged alone, not flagged
    with django_capture_on_commit_callbacks(execute=True):
        alone = play_timed(make_player("Fresh"), challenge, moves, gaps, clock)
    alone.refresh_from_db()
    assert alone.verification == "verified"
    assert not Flag.objects.filter(game=alone, kind=FlagKind.CLAIRVOYANCE).exists()
