"""Fixtures for the games tests: players, clients, today's challenges, a JSON helper."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.models import DailyChallenge, Deal, Tier, utc_today

FIXTURES = Path(__file__).parent / "fixtures"
# A daily deal number that stands out if it ever leaks into a response.
SECRET_DAILY_NUMBERS = {
    "easy": 18_000_000_000_000_000_123,
    "medium": 9_876_543_210_123_456_789,
    "hard": 12_345_678_901_234_567_891,
}


def winning_lines() -> dict[int, list[str]]:
    data = json.loads((FIXTURES / "winning_lines.json").read_text())
    return {int(k): v for k, v in data["winning_lines"].items()}


class Api:
    """A JSON client: every answer must be JSON with the expected status."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.bodies: list[str] = []

    def call(self, method: str, url: str, data: Any = None, *, raw: str | None = None) -> Any:
        body = raw if raw is not None else (json.dumps(data) if data is not None else None)
        kwargs: dict[str, Any] = {}
        if body is not None:
            kwargs = {"data": body, "content_type": "application/json"}
        response = getattr(self.client, method)(url, HTTP_ACCEPT="application/json", **kwargs)
        text = response.content.decode()
        self.bodies.append(text)
        assert response.status_code < 500, text
        payload = json.loads(text) if text else None
        return response.status_code, payload

    def get(self, url: str) -> Any:
        return self.call("get", url)

    def post(self, url: str, data: Any = None, *, raw: str | None = None) -> Any:
        return self.call("post", url, data, raw=raw)


def make_user(name: str, *, staff: bool = False) -> User:
    # No password: tests log in with force_login, and hashing would only cost time.
    return User.objects.create_user(username=name, display_name=name.title(), is_staff=staff)


@pytest.fixture
def player(db: None) -> User:
    return make_user("alice")


@pytest.fixture
def api(client: Client, player: User) -> Api:
    client.force_login(player)
    return Api(client)


@pytest.fixture
def guest_api(db: None) -> Api:
    return Api(Client())


@pytest.fixture
def other_api(db: None) -> Api:
    client = Client()
    client.force_login(make_user("bob"))
    return Api(client)


def make_challenges(
    date: Any = None, numbers: dict[str, int] | None = None
) -> dict[str, DailyChallenge]:
    date = date or utc_today()
    numbers = numbers or SECRET_DAILY_NUMBERS
    out = {}
    for tier in Tier.values:
        deal, _ = Deal.objects.get_or_create(number=numbers[tier], variant="yukon")
        out[tier] = DailyChallenge.objects.create(date=date, tier=tier, deal=deal, bot_win_rate=0.5)
    return out


@pytest.fixture
def challenges(db: None) -> dict[str, DailyChallenge]:
    return make_challenges()


@pytest.fixture(autouse=True)
def _celery_in_process(request: pytest.FixtureRequest) -> Any:
    """Tasks run eagerly in tests, even when REDIS_URL is set, except with a real worker.

    Without this a finished game's verify_game would wait in Redis for a worker that only
    the ``celery`` tests start.
    """
    from yukon_site.celery import app

    if request.node.get_closest_marker("celery") is not None:
        yield
        return
    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved
