"""The flag rate on honest simulated play through the services, and a simple bot caught.

Honest players play real games through the services (verified by the in-process Celery
task, flagged by the signal, as in production): each player has a skill level and a
timing model from ``tests.redteam`` (think time that grows with the choices and the
stakes, a pause to look at a card that turned up, a motor and network floor, breaks;
docs/moderation.md lists the assumptions). They play by what the face-up cards suggest,
with mistakes and detours, never the solver's line: the old version of this test let
"honest" players replay the deal's stored winning line, which is exactly what a cheater
does and is now flagged. Games run over several days and all three tiers; two households
share an address. The measured rate is printed; the bound is asserted. The large sample
(504 games, six variations of the timing model) is tests/moderation/test_redteam.py.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from games.models import Game, Tier, utc_today
from moderation.models import Flag
from tests.factories import LINES, Clock, make_day, make_player, play_timed, started_from
from tests.redteam import SKILLS, Daily, honest_game
from yukon.engine import Position

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

DAYS = 6
PLAYERS = 8
HONEST_FALSE_FLAG_BOUND = 0.01  # at most 1% of honest games flagged (any kind): 1 of 144
CERTAIN_KINDS = {
    "fast_moves",
    "even_pacing",
    "fast_finish",
    "fast_reaction",
    "solver_line",
    "solver_moves",
}


def honest_moves(
    number: int, skill_index: int, speed: float, rng: random.Random
) -> tuple[list[str], list[float], bool]:
    """A person's game on deal ``number``: moves, gaps (the first from the start), over?"""
    skill = SKILLS[skill_index]
    skill = replace(skill, timing=replace(skill.timing, speed=skill.timing.speed * speed))
    game = honest_game(Daily(number, LINES[number]), skill, rng)
    stamps = list(game.at_ms)
    gaps = [float(b - a) for a, b in zip([0, *stamps], stamps, strict=False)]
    position = Position.deal(number)
    for text in game.moves:
        position.play_text(text)
    return list(game.moves), gaps, position.is_won() or not position.legal_moves()


def simulate_honest(clock: Clock, capture: Any, rng: random.Random) -> list[Game]:
    players = [make_player(f"Honest{i}") for i in range(PLAYERS)]
    speed = {p.pk: rng.lognormvariate(0, 0.25) for p in players}
    skill = {p.pk: i % len(SKILLS) for i, p in enumerate(players)}
    address = {p.pk: f"198.51.{100 + i}.7" for i, p in enumerate(players)}  # one network each
    address[players[1].pk] = address[players[0].pk]  # a household of two
    address[players[3].pk] = address[players[2].pk]
    numbers = [0, 1, 68]
    games: list[Game] = []
    start = utc_today() - dt.timedelta(days=DAYS)
    for day in range(DAYS):
        date = start + dt.timedelta(days=day)
        order = numbers[day % 3 :] + numbers[: day % 3]
        tiers = [Tier.EASY, Tier.MEDIUM, Tier.HARD]
        challenges = make_day(date, dict(zip(tiers, order, strict=True)))
        clock.now = dt.datetime.combine(date, dt.time(7), tzinfo=dt.UTC)
        for challenge in challenges.values():
            for player in players:
                moves, gaps, over = honest_moves(
                    challenge.deal.number, skill[player.pk], speed[player.pk], rng
                )
                with started_from(address[player.pk]), capture(execute=True):
                    game = play_timed(player, challenge, moves, gaps, clock, resign=not over)
                games.append(game)
                clock.advance(rng.uniform(60_000, 900_000))  # the day stays open
    return games


def test_flag_rate_on_honest_simulated_play(
    clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    rng = random.Random(20250101)
    games = simulate_honest(clock, django_capture_on_commit_callbacks, rng)
    ids = [g.pk for g in games]
    assert Game.objects.filter(pk__in=ids, verification="verified").count() == len(ids)
    won = Game.objects.filter(pk__in=ids, status="won").count()
    # A household plays one after the other on one network: the later player's games are
    # linked to the earlier one's, by design (docs/fair-play.md, "Linked accounts"), and
    # judged apart from how the games were played.
    linked = Flag.objects.filter(game_id__in=ids, kind="linked_accounts")
    later = {"Honest1", "Honest3"}  # each plays after the household's other member
    assert set(linked.values_list("game__player__display_name", flat=True)) == later
    assert linked.count() == 2 * DAYS * 3
    flags = Flag.objects.filter(game_id__in=ids).exclude(kind="linked_accounts")
    flagged = len(set(flags.values_list("game_id", flat=True)))
    by_kind = Counter(flags.values_list("kind", flat=True))
    rate = flagged / len(ids)
    print(
        f"\nhonest simulated play: {len(ids)} games ({won} won), {flagged} flagged "
        f"= {rate:.1%} (bound {HONEST_FALSE_FLAG_BOUND:.0%}); by kind: {dict(by_kind)}"
    )
    assert rate <= HONEST_FALSE_FLAG_BOUND
    assert not CERTAIN_KINDS & set(by_kind), "pace and solver flags must not fire on people"
    assert "shared_address" not in by_kind  # households of two are fine


def test_a_simple_bot_is_caught(clock: Clock, django_capture_on_commit_callbacks: Any) -> None:
    rng = random.Random(7)
    clock.now = dt.datetime.combine(utc_today(), dt.time(7), tzinfo=dt.UTC)
    day = make_day()
    caught = 0
    for i, tier in enumerate([Tier.EASY, Tier.MEDIUM, Tier.HARD]):
        challenge = day[tier]
        line = LINES[challenge.deal.number]
        bot = make_player(f"Bot{i}")
        gaps = [rng.uniform(80, 140) for _ in line]  # a script with a little jitter
        with django_capture_on_commit_callbacks(execute=True):
            game = play_timed(bot, challenge, line, gaps, clock)
        kinds = set(Flag.objects.filter(game=game).values_list("kind", flat=True))
        caught += bool(kinds)
        assert {"fast_moves", "fast_finish", "fast_reaction", "solver_line"} <= kinds
    print(f"\nsimple bot: {caught}/3 games flagged")
