"""The flag rate on honest simulated play, and the catch rate on a simple bot.

Honest players play real games through the services, each move after a human think
time: log-normal around ~1.8 s (a per-player speed factor), quick runs of obvious moves
(0.3-0.8 s), long pauses, and now and then two moves that reach the server together
(queued by the client on a slow network). Games are the known winning line or a
strategy-bot playout (won, stuck or resigned), over several days and all three tiers;
two households share an address. The measured rate is printed; the bound is asserted.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from typing import Any

import pytest

from games.engine import Position, move_text
from games.models import Game, Tier, utc_today
from games.strategy_bot import MAX_PLAYOUT_MOVES
from moderation import services
from moderation.models import Flag
from tests.moderation.conftest import LINES, Clock, make_day, make_user, play_timed

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

DAYS = 6
PLAYERS = 8
HONEST_FALSE_FLAG_BOUND = 0.03  # at most 3% of honest games flagged (any kind)
TIMING_KINDS = {"fast_moves", "even_pacing", "fast_finish"}
WIN_LINE_CHANCE: dict[str, float] = {Tier.EASY: 0.5, Tier.MEDIUM: 0.3, Tier.HARD: 0.12}


def bot_moves(number: int, rng: random.Random) -> tuple[list[str], bool]:
    """A strategy-bot game (what a person who plays sensibly might do); True if over."""
    from games.strategy_bot import _key, _move_value

    pos = Position.deal(number, "yukon")
    seen = {_key(pos)}
    out: list[str] = []
    for _ in range(MAX_PLAYOUT_MOVES):
        moves = pos.legal_moves()
        if not moves or pos.is_won():
            break
        hidden = sum(pos.down)
        king_waiting = any(pos.movable[k] and pos.pos_of[k] > 0 for k in (12, 25, 38, 51))
        best: tuple[float, int] | None = None
        for move in moves:
            value = _move_value(pos, move, hidden, king_waiting) + rng.random() * 25
            pos.push(move)
            repeats = _key(pos) in seen
            pos.undo()
            if not repeats and (best is None or value > best[0]):
                best = (value, move)
        if best is None:
            break
        out.append(move_text(best[1]))
        pos.play(best[1])
        seen.add(_key(pos))
    return out, pos.is_won() or not pos.legal_moves()


def human_gaps(count: int, speed: float, rng: random.Random) -> list[float]:
    gaps: list[float] = []
    quick_run = 0
    for _ in range(count):
        roll = rng.random()
        if gaps and roll < 0.04:
            gap = rng.uniform(20, 140)  # queued behind the previous move on a slow network
        elif quick_run > 0:
            quick_run -= 1
            gap = rng.uniform(300, 800) * speed
        elif roll < 0.12:
            quick_run = rng.randint(1, 4)  # a few obvious moves in a row
            gap = rng.uniform(400, 900) * speed
        elif roll < 0.17:
            gap = rng.uniform(6_000, 30_000)  # thinking hard, or the phone rang
        else:
            gap = rng.lognormvariate(7.5, 0.6) * speed  # median ~1.8 s
        gaps.append(gap)
    return gaps


def simulate_honest(clock: Clock, capture: Any, rng: random.Random) -> list[Game]:
    players = [make_user(f"Honest{i}") for i in range(PLAYERS)]
    speed = {p.pk: rng.lognormvariate(0, 0.35) for p in players}
    address = {p.pk: f"198.51.100.{i}" for i, p in enumerate(players)}
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
        for tier, challenge in challenges.items():
            for player in players:
                number = challenge.deal.number
                if rng.random() < WIN_LINE_CHANCE[tier]:
                    moves, over = LINES[number], True
                else:
                    moves, over = bot_moves(number, rng)
                token = services.client_address.set(address[player.pk])
                try:
                    with capture(execute=True):
                        game = play_timed(
                            player, challenge, moves,
                            human_gaps(len(moves), speed[player.pk], rng), clock,
                            resign=not over,
                        )
                finally:
                    services.client_address.reset(token)
                games.append(game)
                clock.advance(rng.uniform(60_000, 3_600_000))
    return games


def test_flag_rate_on_honest_simulated_play(
    clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    rng = random.Random(20250101)
    games = simulate_honest(clock, django_capture_on_commit_callbacks, rng)
    ids = [g.pk for g in games]
    assert Game.objects.filter(pk__in=ids, verification="verified").count() == len(ids)
    won = Game.objects.filter(pk__in=ids, status="won").count()
    flags = Flag.objects.filter(game_id__in=ids)
    flagged = len(set(flags.values_list("game_id", flat=True)))
    by_kind = Counter(flags.values_list("kind", flat=True))
    rate = flagged / len(ids)
    print(
        f"\nhonest simulated play: {len(ids)} games ({won} won), {flagged} flagged "
        f"= {rate:.1%} (bound {HONEST_FALSE_FLAG_BOUND:.0%}); by kind: {dict(by_kind)}"
    )
    assert rate <= HONEST_FALSE_FLAG_BOUND
    assert not TIMING_KINDS & set(by_kind), "timing flags must not fire on human pacing"
    assert "shared_address" not in by_kind  # households of two are fine


def test_a_simple_bot_is_caught(clock: Clock, django_capture_on_commit_callbacks: Any) -> None:
    rng = random.Random(7)
    day = make_day()
    caught = 0
    for i, tier in enumerate([Tier.EASY, Tier.MEDIUM, Tier.HARD]):
        challenge = day[tier]
        line = LINES[challenge.deal.number]
        bot = make_user(f"Bot{i}")
        gaps = [rng.uniform(80, 140) for _ in line]  # a script with a little jitter
        with django_capture_on_commit_callbacks(execute=True):
            game = play_timed(bot, challenge, line, gaps, clock)
        kinds = set(Flag.objects.filter(game=game).values_list("kind", flat=True))
        caught += bool(kinds)
        assert {"fast_moves", "fast_finish"} <= kinds
    print(f"\nsimple bot: {caught}/3 games flagged")
