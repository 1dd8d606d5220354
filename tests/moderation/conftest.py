"""Fixtures for the moderation tests: a moderator, players, today's challenges with known
winning lines, and helpers that play real games through the API or the services.

Boards use the real Redis under a per-test key prefix (the leaderboards' fixture), and
Celery tasks run in-process (the games' fixture), so a finished game is verified, flagged
and put on its board as in production once its transaction commits.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import DailyChallenge, Deal, Game, Tier, utc_today
from tests.games.conftest import _celery_in_process, winning_lines  # noqa: F401 (fixture)
from tests.leaderboards.conftest import board_prefix  # noqa: F401 (fixture)

# Deals whose winning lines the games tests keep; the line doubles as the solver's line.
LINES = winning_lines()


def make_user(name: str, *, staff: bool = False, moderator: bool = False) -> User:
    user = User.objects.create_user(username=name.lower(), display_name=name, is_staff=staff)
    if moderator:
        user.groups.add(Group.objects.get(name="moderator"))
    return user


def client_for(user: User | None, address: str = "127.0.0.1") -> Client:
    client = Client(REMOTE_ADDR=address)
    if user is not None:
        client.force_login(user)
    return client


def make_day(date: dt.date | None = None, numbers: dict[str, int] | None = None) -> dict[str, Any]:
    """One challenge per tier on ``date``; each deal's solution is its known winning line."""
    date = date or utc_today()
    numbers = numbers or {Tier.EASY: 0, Tier.MEDIUM: 1, Tier.HARD: 68}
    out: dict[str, DailyChallenge] = {}
    for tier, number in numbers.items():
        deal, _ = Deal.objects.get_or_create(
            number=number, variant="yukon", defaults={"solution": LINES[number]}
        )
        out[tier] = DailyChallenge.objects.create(date=date, tier=tier, deal=deal)
    return out


def post(client: Client, url: str, data: Any) -> Any:
    return client.post(url, json.dumps(data), content_type="application/json")


def play_daily_through_api(
    client: Client, tier: str, line: list[str], capture: Any
) -> int:
    """Start today's ``tier`` challenge and play ``line`` (as fast as the test runs)."""
    response = post(client, "/api/games/", {"daily": tier})
    assert response.status_code == 201, response.content
    game_id = int(response.json()["id"])
    with capture(execute=True):
        for ply, text in enumerate(line):
            answer = post(client, f"/api/games/{game_id}/moves/", {"ply": ply, "move": text})
            assert answer.status_code == 200, answer.content
    return game_id


class Clock:
    """A fake ``timezone.now`` that the test moves forward (think times of simulated play)."""

    def __init__(self, start: dt.datetime) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, ms: float) -> None:
        self.now += dt.timedelta(milliseconds=ms)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    fake = Clock(timezone.now().replace(microsecond=0))
    monkeypatch.setattr(timezone, "now", fake)
    yield fake


def play_timed(
    user: User,
    challenge: DailyChallenge,
    moves: list[str],
    gaps_ms: Sequence[float],
    clock: Clock,
    *,
    resign: bool = False,
) -> Game:
    """A ranked game played through the services, each move ``gaps_ms[i]`` after the last."""
    actor = services.Actor(user_id=user.pk)
    game, created = services.start_daily_game(actor, challenge.tier, today=challenge.date)
    assert created
    Game.objects.filter(pk=game.pk).update(started_at=clock.now)
    for ply, (text, gap) in enumerate(zip(moves, gaps_ms, strict=True)):
        clock.advance(gap)
        services.play_move(actor, game.pk, ply, text)
    if resign:
        clock.advance(gaps_ms[-1] if gaps_ms else 1000)
        services.resign_game(actor, game.pk)
    return Game.objects.get(pk=game.pk)


@pytest.fixture(autouse=True)
def _fast_test_moves(settings: Any) -> None:
    """The tests play whole games in well under a second: lift the per-player move limit."""
    rates = dict(settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {}))
    rates["moves"] = "100000/s"
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


@pytest.fixture
def moderator(db: None) -> User:
    return make_user("Mod", staff=True, moderator=True)


@pytest.fixture
def mod_client(moderator: User) -> Client:
    return client_for(moderator)


@pytest.fixture
def today_challenges(db: None) -> dict[str, Any]:
    return make_day()
